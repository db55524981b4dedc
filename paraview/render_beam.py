"""Render the beam of a run folder: a tube along the centre line with the directors d1, d2, d3.

Reads DIR/beam.pvd and its frames (docs/output-format.md). The picture overlays the beam at a
few times (default: first, middle and last frame), earlier times fainter, each labelled with its
time; the tube is coloured by an array of the frames (default `s`, vectors by their magnitude,
e.g. `--color angular_velocity` for |omega|); a segment (cell) array such as `moment`, `force`,
`strain_Omega` or `strain_Gamma` is carried to the nodes by averaging the two segments beside
each node (ParaView's Cell Data to Point Data); the directors are arrows (d1 red, d2 green, d3
blue).
With --frames FOLDER it also writes one picture per frame of the .pvd (FOLDER/frame_NNNN.png)
for an animation. The camera is fixed and frames the whole motion (bounds over all frames), so
the pictures of a series line up.

Sample runs (headless):
  xvfb-run -a pvbatch paraview/render_beam.py out/free_flight
  xvfb-run -a pvbatch paraview/render_beam.py out/free_flight --times 0 0.5 1 1.5 2 \\
      --color angular_velocity --out omega.png
  xvfb-run -a pvbatch paraview/render_beam.py out/free_flight --frames out/free_flight/movie
  ffmpeg -framerate 25 -i out/free_flight/movie/frame_%04d.png beam.mp4   # optional, not ours
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_folder  # noqa: E402

# Units of the arrays the writer produces, for the colour bar title.
UNITS = {"s": "m", "velocity": "m/s", "angular_velocity": "rad/s", "moment": "N m", "force": "N",
         "strain_Omega": "1/m", "strain_Gamma": "-"}
DIRECTOR_COLOURS = (("d1", (0.85, 0.15, 0.15)), ("d2", (0.1, 0.6, 0.1)), ("d3", (0.15, 0.3, 0.9)))


def parse_args():
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__[__doc__.index("Sample runs"):],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dir", help="run folder (the --out of `field simulate` / `field reconstruct`)")
    p.add_argument("--times", type=float, nargs="+", metavar="T",
                   help="times [s] to draw (nearest frame each); default: first, middle, last")
    p.add_argument("--out", help="picture to write (default DIR/beam.png)")
    p.add_argument("--frames", metavar="FOLDER",
                   help="also write FOLDER/frame_NNNN.png, one per frame of beam.pvd")
    p.add_argument("--size", type=int, nargs=2, default=[1280, 720], metavar=("W", "H"),
                   help="picture size in pixels (default 1280 720)")
    p.add_argument("--color", default="s", metavar="ARRAY",
                   help="point array colouring the tube; vectors by magnitude (default s)")
    p.add_argument("--radius", type=float,
                   help="tube radius [m] (default 2%% of the beam length)")
    p.add_argument("--arrow", type=float,
                   help="director arrow length [m] (default 8%% of the beam length)")
    p.add_argument("--layout", choices=("auto", "overlay", "side"), default="auto",
                   help="overlay the times in one view (earlier fainter) or one view per time "
                        "side by side; auto: overlay unless consecutive beams are less than "
                        "a quarter of the beam length apart")
    p.add_argument("--view-dir", type=float, nargs=3, metavar=("X", "Y", "Z"),
                   help="direction from the scene to the camera (default: chosen from the "
                        "bounds, looking across the smallest extent)")
    p.add_argument("--view-up", type=float, nargs=3, metavar=("X", "Y", "Z"),
                   help="world direction drawn upwards, e.g. 0 0 1 for gravity along -z "
                        "(default: chosen from the bounds); made orthogonal to the view "
                        "direction")
    args = p.parse_args()
    if args.size[0] < 64 or args.size[1] < 64:
        run_folder.fail("--size %d %d is too small (at least 64 64)" % tuple(args.size))
    if args.radius is not None and not args.radius > 0:
        run_folder.fail("--radius %g must be positive" % args.radius)
    if args.arrow is not None and not args.arrow > 0:
        run_folder.fail("--arrow %g must be positive" % args.arrow)
    for option, v in (("--view-dir", args.view_dir), ("--view-up", args.view_up)):
        if v is not None and not (all(math.isfinite(x) for x in v) and any(x != 0 for x in v)):
            run_folder.fail("%s %g %g %g must be a finite, non-zero vector" % ((option,) + tuple(v)))
    return args


def is_cell_array(poly, name):
    """Whether `name` is a segment (cell) array of the frame and not a point array."""
    return (poly.GetPointData().GetArray(name) is None
            and poly.GetCellData().GetArray(name) is not None)


def node_array(poly, name):
    """The point array `name` of a frame, or its cell array averaged to the nodes (None if it
    has neither)."""
    if not is_cell_array(poly, name):
        return poly.GetPointData().GetArray(name)
    from vtkmodules.vtkFiltersCore import vtkCellDataToPointData

    to_points = vtkCellDataToPointData()
    to_points.SetInputData(poly)
    to_points.Update()
    return to_points.GetOutput().GetPointData().GetArray(name)


def scan_frames(frames, colour):
    """Bounds of the centre line over all frames, range of the colour array, beam length.

    Reads every frame once with VTK's XML reader (the frames are small: A+1 points each).
    """
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader

    bounds = [math.inf, -math.inf] * 3
    lo, hi = math.inf, -math.inf
    length = None
    reader = vtkXMLPolyDataReader()
    for k, (_, path) in enumerate(frames):
        reader.SetFileName(path)
        reader.Update()
        poly = reader.GetOutput()
        if poly.GetNumberOfPoints() < 2:
            run_folder.fail("'%s' has %d points, a beam needs at least 2 (is the file complete?)"
                            % (path, poly.GetNumberOfPoints()))
        point_data = poly.GetPointData()
        if k == 0:
            names = [point_data.GetArrayName(i) for i in range(point_data.GetNumberOfArrays())]
            cell_data = poly.GetCellData()
            cells = [cell_data.GetArrayName(i) for i in range(cell_data.GetNumberOfArrays())]
            for needed in ("d1", "d2", "d3"):
                if needed not in names:
                    run_folder.fail("'%s' has no point array '%s' (point arrays: %s)"
                                    % (path, needed, ", ".join(names)))
            if colour not in names + cells:
                run_folder.fail("'%s' has no point array '%s' (point arrays: %s; segment "
                                "arrays: %s)" % (path, colour, ", ".join(names), ", ".join(cells)))
            points = poly.GetPoints()
            length = sum(
                math.dist(points.GetPoint(i), points.GetPoint(i + 1))
                for i in range(poly.GetNumberOfPoints() - 1)
            )
        b = poly.GetBounds()
        for i in range(3):
            bounds[2 * i] = min(bounds[2 * i], b[2 * i])
            bounds[2 * i + 1] = max(bounds[2 * i + 1], b[2 * i + 1])
        array = node_array(poly, colour)
        if array is None:
            run_folder.fail("'%s' has no array '%s'" % (path, colour))
        r = array.GetRange(-1 if array.GetNumberOfComponents() > 1 else 0)
        lo, hi = min(lo, r[0]), max(hi, r[1])
    if not length > 0:
        run_folder.fail("the first frame '%s' has zero length" % frames[0][1])
    if not hi > lo:  # a constant field still needs a valid colour range
        lo, hi = lo - 0.5, hi + 0.5
    return bounds, (lo, hi), length


def scan_components(path, name):
    """Number of components of point array `name` in the frame file `path`."""
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader

    reader = vtkXMLPolyDataReader()
    reader.SetFileName(path)
    reader.Update()
    return node_array(reader.GetOutput(), name).GetNumberOfComponents()


def unit(v):
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def camera_axes(bounds, view_dir, upright=False, view_up=None):
    """Direction to the camera and view-up: look across the smallest extent of the bounds, the
    largest extent horizontal (vertical when upright), tilted a little so that the scene reads
    as 3-D."""
    extent = [bounds[2 * i + 1] - bounds[2 * i] for i in range(3)]
    order = sorted(range(3), key=lambda i: extent[i])  # smallest, middle, largest
    axis = [[1.0 if i == k else 0.0 for i in range(3)] for k in range(3)]
    if view_dir is not None:
        direction = unit(view_dir)
    else:
        direction = unit([axis[order[0]][i] + 0.45 * axis[order[1]][i] + 0.3 * axis[order[2]][i]
                          for i in range(3)])
    up = axis[order[2]] if upright else axis[order[1]]
    if view_up is not None:
        up = unit(view_up)
        if abs(dot(up, direction)) > 0.999:
            run_folder.fail("--view-up is along the view direction: choose another one (or a "
                            "--view-dir across it)")
    elif abs(dot(up, direction)) > 0.95:
        up = axis[order[2]] if abs(dot(axis[order[2]], direction)) < 0.95 else axis[order[0]]
    # make up orthogonal to the viewing direction
    up = unit([u - dot(up, direction) * d for u, d in zip(up, direction)])
    return direction, up


class Style:
    """What every view of one call shares: colour map, sizes, fixed camera, decorations."""

    def __init__(self, simple, lut, colour_range, title, colour, radius, arrow, stride, bounds,
                 view_dir, upright, view_up=None):
        self.simple, self.lut, self.title, self.colour = simple, lut, title, colour
        self.colour_range = colour_range
        self.cell_colour = False  # a segment array, averaged to the nodes
        self.radius, self.arrow, self.stride = radius, arrow, stride
        # pad the bounds by what sticks out of the centre line: tube and arrows
        margin = radius + arrow
        self.box = [bounds[i] - margin if i % 2 == 0 else bounds[i] + margin for i in range(6)]
        self.direction, self.up = camera_axes(self.box, view_dir, upright, view_up)

    def half_extent(self):
        """Half width and half height of the padded bounds as the camera sees them."""
        centre = [(self.box[2 * i] + self.box[2 * i + 1]) / 2 for i in range(3)]
        right = cross(self.up, self.direction)
        half_w = half_h = 0.0
        for corner in range(8):
            c = [self.box[2 * i + ((corner >> i) & 1)] for i in range(3)]
            rel = [c[i] - centre[i] for i in range(3)]
            half_w = max(half_w, abs(dot(rel, right)))
            half_h = max(half_h, abs(dot(rel, self.up)))
        return half_w, half_h

    def view(self, size):
        """A white render view with the fixed parallel-projection camera for this size."""
        view = self.simple.CreateView("RenderView")
        view.ViewSize = size
        view.Background = [1.0, 1.0, 1.0]
        try:  # ParaView >= 5.10 keeps the palette's background unless told otherwise
            view.UseColorPaletteForBackground = 0
        except AttributeError:
            pass
        view.OrientationAxesVisibility = 1
        try:  # the axes' X, Y, Z labels are white by default: invisible on white
            view.OrientationAxesLabelColor = [0.1, 0.1, 0.1]
        except AttributeError:
            pass
        centre = [(self.box[2 * i] + self.box[2 * i + 1]) / 2 for i in range(3)]
        half_w, half_h = self.half_extent()
        diagonal = math.dist(self.box[0::2], self.box[1::2])
        view.CameraParallelProjection = 1
        view.CameraFocalPoint = centre
        view.CameraPosition = [centre[i] + 2.0 * diagonal * self.direction[i] for i in range(3)]
        view.CameraViewUp = self.up
        # 1.12: room for the time labels and the colour bar around the motion
        view.CameraParallelScale = 1.12 * max(half_h, half_w * size[1] / size[0])
        return view

    def beam(self, view, path, opacity):
        """Reader -> (segments joined into one polyline) -> tube, and three director glyphs."""
        simple = self.simple
        reader = simple.XMLPolyDataReader(FileName=[path])
        # A segment array coloured at the nodes: the mean of the two segments beside each node
        # (node_array above, the same filter).
        source = simple.CellDatatoPointData(Input=reader) if self.cell_colour else reader
        # The writer stores one line cell per segment (per-segment cell data); joining them
        # gives one smooth tube (a single polyline would pass through unchanged).
        strips = simple.TriangleStrips(Input=simple.Clean(Input=source))
        tube = simple.Tube(Input=strips, Radius=self.radius, NumberofSides=24, Capping=1)
        shown = simple.Show(tube, view)
        simple.ColorBy(shown, ("POINTS", self.colour, "Magnitude"))
        shown.LookupTable = self.lut
        # ColorBy rescales the map to this frame's data: back to the range over all frames
        self.lut.RescaleTransferFunction(self.colour_range[0], self.colour_range[1])
        shown.Opacity = opacity
        shown.Specular = 0.3
        for name, rgb in DIRECTOR_COLOURS:
            glyph = simple.Glyph(Input=reader, GlyphType="Arrow")
            glyph.OrientationArray = ["POINTS", name]
            glyph.ScaleArray = ["POINTS", "No scale array"]
            glyph.ScaleFactor = self.arrow
            glyph.GlyphMode = "Every Nth Point"
            glyph.Stride = self.stride
            glyph.GlyphType.TipRadius = 0.12
            glyph.GlyphType.ShaftRadius = 0.04
            g = simple.Show(glyph, view)
            g.ColorArrayName = ["POINTS", ""]
            g.AmbientColor = rgb
            g.DiffuseColor = rgb
            g.Opacity = opacity
        return reader

    def decorate(self, view, headline, legend, bar, narrow=False):
        """Headline text (returned), the arrows' colour legend and the colour bar; a narrow
        view gets a horizontal bar at the bottom instead of the orientation axes."""
        width, height = view.ViewSize
        text = corner_text(self.simple, view, headline, [0.01, 1.0 - 34.0 / height])
        if legend:
            for i, (name, rgb) in enumerate(DIRECTOR_COLOURS):
                corner_text(self.simple, view, name,
                            [0.01 + 40.0 * i / width, 1.0 - 70.0 / height], rgb, 18)
        scalar_bar = self.simple.GetScalarBar(self.lut, view)
        scalar_bar.Visibility = 1 if bar else 0
        if bar and narrow:
            view.OrientationAxesVisibility = 0
            scalar_bar.Orientation = "Horizontal"
            scalar_bar.WindowLocation = "Any Location"
            scalar_bar.Position = [0.1, 0.02]
            scalar_bar.ScalarBarLength = 0.8
            scalar_bar.TitleFontSize = 12
            scalar_bar.LabelFontSize = 12
            scalar_bar.Title = self.title
            scalar_bar.ComponentTitle = ""
            scalar_bar.TitleColor = scalar_bar.LabelColor = [0.1, 0.1, 0.1]
            scalar_bar.RangeLabelFormat = "%-#.3g"
        elif bar:
            scalar_bar.Title = self.title
            scalar_bar.ComponentTitle = ""
            scalar_bar.TitleColor = scalar_bar.LabelColor = [0.1, 0.1, 0.1]
            scalar_bar.WindowLocation = "Any Location"
            scalar_bar.Position = [max(0.5, 1.0 - 120.0 / width), 0.1]  # room for labels
            scalar_bar.ScalarBarLength = 0.5
            scalar_bar.RangeLabelFormat = "%-#.3g"
        return text


def largest_displacement(path_a, path_b):
    """max over nodes of |r_a - r_b| between two frames (same nodes)."""
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader

    points = []
    for path in (path_a, path_b):
        reader = vtkXMLPolyDataReader()
        reader.SetFileName(path)
        reader.Update()
        poly = reader.GetOutput()
        points.append([poly.GetPoint(i) for i in range(poly.GetNumberOfPoints())])
    return max(math.dist(p, q) for p, q in zip(*points))


def corner_text(simple, view, text, position, rgb=(0.1, 0.1, 0.1), size=18):
    source = simple.Text(Text=text)
    shown = simple.Show(source, view)
    shown.WindowLocation = "Any Location"
    shown.Position = position
    shown.Color = rgb
    shown.FontSize = size
    return source


def main():
    args = parse_args()
    run_dir = run_folder.require_dir(args.dir)
    pvd = run_folder.require_file(run_dir, "beam.pvd", "the beam frames index written by the run")
    frames = run_folder.read_pvd(pvd)
    bounds, colour_range, length = scan_frames(frames, args.color)
    out = args.out or os.path.join(run_dir, "beam.png")
    if args.times:
        chosen = sorted({run_folder.nearest_frame(frames, t) for t in args.times})
    else:
        chosen = sorted({0, (len(frames) - 1) // 2, len(frames) - 1})
    radius = args.radius or 0.02 * length
    arrow = args.arrow or 0.08 * length
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader

    probe = vtkXMLPolyDataReader()
    probe.SetFileName(frames[0][1])
    probe.Update()
    points = probe.GetOutput().GetNumberOfPoints()
    stride = max(1, (points + 11) // 12)  # at most about a dozen director triads per beam

    import paraview.simple as simple

    lut = simple.GetColorTransferFunction(args.color)
    lut.ApplyPreset("Viridis (matplotlib)", True)
    lut.RescaleTransferFunction(colour_range[0], colour_range[1])
    lut.AutomaticRescaleRangeMode = "Never"
    units = UNITS.get(args.color)
    vector = scan_components(frames[0][1], args.color) > 1
    label = "%s magnitude" % args.color if vector else args.color
    title = "%s [%s]" % (label, units) if units else label
    layout = args.layout
    if layout == "auto":
        # overlay when consecutive beams stand apart, else they would hide each other
        apart = min((largest_displacement(frames[a][1], frames[b][1])
                     for a, b in zip(chosen, chosen[1:])), default=length)
        layout = "overlay" if apart >= 0.25 * length else "side"
    # side by side: narrow views, so the largest extent of the motion is drawn upright
    style = Style(simple, lut, colour_range, title, args.color, radius, arrow, stride, bounds,
                  args.view_dir, upright=layout == "side", view_up=args.view_up)
    style.cell_colour = is_cell_array(probe.GetOutput(), args.color)
    times = ", ".join("%.4g" % frames[k][0] for k in chosen)
    if layout == "overlay":
        view = style.view(args.size)
        for rank, k in enumerate(chosen):
            t, path = frames[k]
            # earlier times fainter, the last one opaque
            opacity = 1.0 if rank == len(chosen) - 1 else 0.25 + 0.5 * rank / max(1, len(chosen) - 1)
            style.beam(view, path, opacity)
            # label at the end node a = A of this frame, pushed out along the view-up
            probe.SetFileName(path)
            probe.Update()
            end = probe.GetOutput().GetPoint(probe.GetOutput().GetNumberOfPoints() - 1)
            text = simple.Text(Text="t = %.4g s" % t)
            shown = simple.Show(text, view)
            shown.TextPropMode = "Billboard 3D Text"
            shown.BillboardPosition = [end[i] + 0.5 * arrow * view.CameraViewUp[i] for i in range(3)]
            shown.Color = [0.1, 0.1, 0.1]
            shown.FontSize = 16
        style.decorate(view, "beam at t = %s s (earlier: fainter)" % times, legend=True, bar=True)
        simple.SaveScreenshot(out, view, ImageResolution=args.size)
    else:
        # one view per time, side by side
        n = len(chosen)
        cell_size = [args.size[0] // n, args.size[1]]
        frame_layout = simple.CreateLayout("beam")
        cell = 0
        for rank, k in enumerate(chosen):
            t, path = frames[k]
            view = style.view(cell_size)
            style.beam(view, path, 1.0)
            style.decorate(view, "t = %.4g s" % t, legend=rank == 0, bar=rank == n - 1,
                           narrow=True)
            if rank < n - 1:
                frame_layout.SplitHorizontal(cell, 1.0 / (n - rank))
                simple.AssignViewToLayout(view=view, layout=frame_layout, hint=2 * cell + 1)
                cell = 2 * cell + 2
            else:
                simple.AssignViewToLayout(view=view, layout=frame_layout, hint=cell)
        simple.SaveScreenshot(out, frame_layout, ImageResolution=args.size, SeparatorWidth=2,
                              SeparatorColor=[0.8, 0.8, 0.8])
    run_folder.report(out, "%d beam(s) at t = %s s (%s), coloured by %s"
                      % (len(chosen), times, layout, title))

    if not args.frames:
        return
    os.makedirs(args.frames, exist_ok=True)
    view = style.view(args.size)
    reader = style.beam(view, frames[0][1], 1.0)
    clock = style.decorate(view, "", legend=True, bar=True)
    digits = max(4, len(str(len(frames) - 1)))
    for k, (t, path) in enumerate(frames):
        reader.FileName = [path]
        clock.Text = "t = %.4f s   (frame %d of %d)" % (t, k + 1, len(frames))
        name = os.path.join(args.frames, "frame_%0*d.png" % (digits, k))
        simple.SaveScreenshot(name, view, ImageResolution=args.size)
    run_folder.report(os.path.join(args.frames, "frame_%s.png" % ("N" * digits)),
                      "%d frames, t = %.4g .. %.4g s" % (len(frames), frames[0][0], frames[-1][0]))


if __name__ == "__main__":
    main()
