"""Shared helpers of the ParaView scripts: locate the files of a run folder, fail clearly.

A run folder DIR written by `field simulate` / `field reconstruct` holds (docs/output-format.md)
beam.pvd + frames/beam_NNNNNN.vtp, spacetime.vtu, and time_series.csv or space_series.csv.
Every script exits with code 2 and a one-line message on stderr when DIR or a file it needs is
missing or unreadable, like argparse does for bad options.
"""

import os
import sys
import xml.etree.ElementTree as ElementTree

EXIT_USAGE = 2


def fail(message):
    """Print `<script>: error: message` to stderr and exit with code 2."""
    prog = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "script"
    sys.stderr.write("%s: error: %s\n" % (prog, message))
    sys.stderr.flush()
    sys.exit(EXIT_USAGE)


def require_dir(path):
    """The run folder itself; fails when it does not exist."""
    if not os.path.isdir(path):
        fail("run folder '%s' does not exist (give the --out folder of `field simulate` or "
             "`field reconstruct`)" % path)
    return os.path.abspath(path)


def require_file(run_dir, name, what):
    """DIR/name; fails naming the file and what writes it when it is missing."""
    path = os.path.join(run_dir, name)
    if not os.path.isfile(path):
        fail("'%s' not found: %s (is '%s' a complete run folder?)" % (path, what, run_dir))
    return path


def read_pvd(path):
    """The frames of a .pvd index as a list of (time, absolute file path), sorted by time.

    Fails when the index cannot be parsed, lists no data set, or names a missing file.
    """
    try:
        root = ElementTree.parse(path).getroot()
    except (ElementTree.ParseError, OSError) as error:
        fail("cannot read the index '%s': %s (the run appends one frame at a time and keeps it valid; "
             "re-run the case if it stays unreadable)" % (path, error))
    frames = []
    base = os.path.dirname(os.path.abspath(path))
    for entry in root.iter("DataSet"):
        name = entry.get("file")
        stamp = entry.get("timestep")
        if name is None or stamp is None:
            fail("'%s': a DataSet entry without 'file' or 'timestep' attribute" % path)
        try:
            time = float(stamp)
        except ValueError:
            fail("'%s': timestep '%s' of '%s' is not a number" % (path, stamp, name))
        frame = os.path.join(base, name)
        if not os.path.isfile(frame):
            fail("'%s' lists '%s', which does not exist" % (path, frame))
        frames.append((time, frame))
    if not frames:
        fail("'%s' lists no frame (the run wrote no time row yet)" % path)
    frames.sort(key=lambda frame: frame[0])
    return frames


def nearest_frame(frames, time):
    """Index of the frame whose time is nearest to `time` (ties: the earlier one)."""
    return min(range(len(frames)), key=lambda k: (abs(frames[k][0] - time), k))


def column_values(table, name):
    """The values of column `name` of a vtkTable as a list of floats."""
    column = table.GetColumnByName(name)
    return [float(column.GetValue(i)) for i in range(column.GetNumberOfTuples())]


def largest_magnitude(table, names):
    """max |value| over the columns `names` of a vtkTable."""
    return max(abs(v) for name in names for v in column_values(table, name))


def value_range(table, name):
    """max - min of one column of a vtkTable."""
    values = column_values(table, name)
    return max(values) - min(values)


def relative_range(table, name):
    """(max - min) / max |value| of one column of a vtkTable (0 for an all-zero column)."""
    values = column_values(table, name)
    scale = max(abs(v) for v in values)
    return (max(values) - min(values)) / scale if scale > 0 else 0.0


def report(path, what):
    """The one line each script prints per file it wrote."""
    print("wrote %s (%s)" % (path, what))
    sys.stdout.flush()
