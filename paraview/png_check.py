"""Check that PNG pictures exist and are not blank: a real spread of pixel values.

Reads each PNG with VTK's vtkPNGReader and requires, per picture:
  * the expected size, when --size is given;
  * more than --min-colours distinct RGB colours (a blank or one-colour picture has 1 or 2;
    a single text label on a plain background has a few dozen anti-aliasing shades, so the
    default asks for more than that);
  * a standard deviation of the grey values above --min-std (0..255 scale);
  * at least --min-content of the pixels differing from the most frequent (background) colour.
The numbers are taken over the whole picture or, with --region, over a part of it (fractions of
the width and height, from the upper left corner): e.g. the middle of a 3-D view, to leave out
the colour bar and the titles, which alone already give many colours.
Prints one line per picture with the measured numbers; exits 1 when any picture fails, 2 on
bad usage.

Sample run:
  pvpython paraview/png_check.py out/free_flight/beam.png out/free_flight/series.png
"""

import argparse
import collections
import math
import os
import sys


def measure(path, region=(0.0, 0.0, 1.0, 1.0)):
    """(width, height, distinct colours, grey standard deviation, non-background fraction),
    the last three over `region` = (x0, y0, x1, y1), fractions from the upper left corner."""
    from vtkmodules.vtkIOImage import vtkPNGReader

    reader = vtkPNGReader()
    if not reader.CanReadFile(path):
        raise ValueError("not a readable PNG file")
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    width, height, _ = image.GetDimensions()
    scalars = image.GetPointData().GetScalars()
    if scalars is None or width * height == 0:
        raise ValueError("no pixel data")
    channels = scalars.GetNumberOfComponents()
    data = bytes(memoryview(scalars))
    # VTK's rows run bottom-up; the region's y counts from the top of the picture
    x0, x1 = int(region[0] * width), max(int(region[0] * width) + 1, int(region[2] * width))
    y0 = int((1.0 - region[3]) * height)
    y1 = max(y0 + 1, int((1.0 - region[1]) * height))
    row = width * channels
    data = b"".join(data[y * row + x0 * channels:y * row + x1 * channels] for y in range(y0, y1))
    if channels >= 3:
        pixels = list(zip(data[0::channels], data[1::channels], data[2::channels]))
        grey = [(r * 299 + g * 587 + b * 114) / 1000.0 for r, g, b in pixels]
    else:  # grey (+ alpha)
        pixels = list(data[0::channels])
        grey = [float(v) for v in pixels]
    counts = collections.Counter(pixels)
    n = len(grey)
    mean = sum(grey) / n
    std = math.sqrt(sum((v - mean) ** 2 for v in grey) / n)
    background = counts.most_common(1)[0][1]
    return width, height, len(counts), std, 1.0 - background / n


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog=__doc__[__doc__.index("Reads"):],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("png", nargs="+", help="pictures to check")
    p.add_argument("--min-colours", type=int, default=64,
                   help="require more than this many distinct colours (default 64)")
    p.add_argument("--min-std", type=float, default=8.0,
                   help="require a grey standard deviation above this (default 8)")
    p.add_argument("--min-content", type=float, default=0.01,
                   help="require this fraction of non-background pixels (default 0.01)")
    p.add_argument("--size", type=int, nargs=2, metavar=("W", "H"),
                   help="require this picture size")
    p.add_argument("--region", type=float, nargs=4, default=[0.0, 0.0, 1.0, 1.0],
                   metavar=("X0", "Y0", "X1", "Y1"),
                   help="measure only this part (fractions from the upper left; default all)")
    args = p.parse_args()
    x0, y0, x1, y1 = args.region
    if not (0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1):
        p.error("--region %g %g %g %g: need 0 <= X0 < X1 <= 1 and 0 <= Y0 < Y1 <= 1"
                % tuple(args.region))
    failures = 0
    for path in args.png:
        if not os.path.isfile(path):
            print("FAIL %s: file does not exist" % path)
            failures += 1
            continue
        try:
            width, height, colours, std, content = measure(path, args.region)
        except ValueError as error:
            print("FAIL %s: %s" % (path, error))
            failures += 1
            continue
        problems = []
        if args.size and [width, height] != args.size:
            problems.append("size %dx%d, expected %dx%d" % (width, height, *args.size))
        if colours <= args.min_colours:
            problems.append("only %d distinct colours (need > %d)" % (colours, args.min_colours))
        if std <= args.min_std:
            problems.append("grey std %.2f (need > %g)" % (std, args.min_std))
        if content < args.min_content:
            problems.append("only %.2f%% non-background pixels (need %.2f%%)"
                            % (100 * content, 100 * args.min_content))
        numbers = "%dx%d, %d colours, grey std %.1f, %.1f%% non-background" % (
            width, height, colours, std, 100 * content)
        if problems:
            print("FAIL %s: %s (%s)" % (path, "; ".join(problems), numbers))
            failures += 1
        else:
            print("ok   %s: %s" % (path, numbers))
    sys.stdout.flush()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
