"""Render the spacetime mesh of a run folder, coloured by one of its arrays.

Reads DIR/spacetime.vtu (docs/output-format.md): triangles in the (t, s) plane, points
(t_j, s_a, 0). The picture is the (t, s) rectangle seen from above, t to the right and s upwards,
with labelled axes t [s] and s [m], a colour bar named after the array, and the triangle edges
drawn when the grid is small (fewer than 2000 triangles, or --edges on). Point arrays:
energy_density (default), dcel_residual, noether_defect, position and q_wxyz (vectors by their
magnitude); the cell array triangle_kind also works.

Sample runs (headless):
  xvfb-run -a pvbatch paraview/render_spacetime.py out/free_flight
  xvfb-run -a pvbatch paraview/render_spacetime.py out/free_flight --field dcel_residual \\
      --log --out residual.png
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_folder  # noqa: E402

EDGE_LIMIT = 2000  # triangles: above this the edges would paint the picture black
UNITS = {"energy_density": "J/m", "position": "m"}


def parse_args():
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__[__doc__.index("Point arrays"):],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dir", help="run folder (the --out of `field simulate` / `field reconstruct`)")
    p.add_argument("--field", default="energy_density", metavar="ARRAY",
                   help="array colouring the mesh (default energy_density)")
    p.add_argument("--out", help="picture to write (default DIR/spacetime_<field>.png)")
    p.add_argument("--size", type=int, nargs=2, default=[1280, 720], metavar=("W", "H"),
                   help="picture size in pixels (default 1280 720)")
    p.add_argument("--edges", choices=("auto", "on", "off"), default="auto",
                   help="draw the triangle edges: auto = below %d triangles" % EDGE_LIMIT)
    p.add_argument("--log", action="store_true",
                   help="logarithmic colour scale (positive values only; zeros are drawn "
                        "with the colour below the range)")
    args = p.parse_args()
    if args.size[0] < 64 or args.size[1] < 64:
        run_folder.fail("--size %d %d is too small (at least 64 64)" % tuple(args.size))
    return args


def find_array(grid, name, path):
    """('POINTS' or 'CELLS', components, (min, max), min positive) of the array, or fail."""
    available = []
    for association, data in (("POINTS", grid.GetPointData()), ("CELLS", grid.GetCellData())):
        for i in range(data.GetNumberOfArrays()):
            available.append(data.GetArrayName(i))
        array = data.GetArray(name)
        if array is not None:
            comps = array.GetNumberOfComponents()
            values = [
                array.GetTuple(k)[0] if comps == 1 else sum(x * x for x in array.GetTuple(k)) ** 0.5
                for k in range(array.GetNumberOfTuples())
            ]
            positive = [v for v in values if v > 0]
            return association, comps, (min(values), max(values)), min(positive, default=None)
    run_folder.fail("'%s' has no array '%s' (arrays: %s)" % (path, name, ", ".join(available)))


def main():
    args = parse_args()
    run_dir = run_folder.require_dir(args.dir)
    path = run_folder.require_file(run_dir, "spacetime.vtu",
                                   "the spacetime mesh written at the end of the run")
    out = args.out or os.path.join(run_dir, "spacetime_%s.png" % args.field)

    from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

    probe = vtkXMLUnstructuredGridReader()
    probe.SetFileName(path)
    probe.Update()
    grid = probe.GetOutput()
    triangles = grid.GetNumberOfCells()
    if triangles == 0:
        run_folder.fail("'%s' holds no triangle (is the file complete?)" % path)
    association, comps, (lo, hi), min_positive = find_array(grid, args.field, path)
    t0, t1, s0, s1, _, _ = grid.GetBounds()
    if not (t1 > t0 and s1 > s0):
        run_folder.fail("'%s' spans t = %g .. %g, s = %g .. %g: not a 2-D mesh"
                        % (path, t0, t1, s0, s1))
    if args.log and min_positive is None:
        run_folder.fail("--log: array '%s' has no positive value (range %g .. %g)"
                        % (args.field, lo, hi))

    import paraview.simple as simple

    view = simple.CreateView("RenderView")
    view.ViewSize = args.size
    view.Background = [1.0, 1.0, 1.0]
    try:
        view.UseColorPaletteForBackground = 0
    except AttributeError:
        pass
    view.OrientationAxesVisibility = 0
    view.InteractionMode = "2D"

    reader = simple.XMLUnstructuredGridReader(FileName=[path])
    shown = simple.Show(reader, view)
    edges = args.edges == "on" or (args.edges == "auto" and triangles < EDGE_LIMIT)
    shown.SetRepresentationType("Surface With Edges" if edges else "Surface")
    shown.EdgeColor = [0.25, 0.25, 0.25]
    shown.Ambient = 1.0  # flat (t, s) plane: no shading, the colours are the values
    shown.Diffuse = 0.0
    simple.ColorBy(shown, (association, args.field, "Magnitude"))
    lut = simple.GetColorTransferFunction(args.field)
    lut.AutomaticRescaleRangeMode = "Never"
    if args.log:
        lut.ApplyPreset("Inferno (matplotlib)", True)
        lut.RescaleTransferFunction(min_positive, max(hi, min_positive * 10))
        lut.MapControlPointsToLogSpace()
        lut.UseLogScale = 1
        lut.UseBelowRangeColor = 1
        lut.BelowRangeColor = [0.8, 0.8, 0.8]
    else:
        lut.ApplyPreset("Viridis (matplotlib)", True)
        lut.RescaleTransferFunction(lo, hi if hi > lo else lo + 1.0)

    # A long run makes a very wide (t, s) rectangle: stretch s so that the plot fills about
    # the picture's aspect, and tell the axes grid, so that its labels keep the true values.
    aspect = args.size[0] / args.size[1]
    stretch = max(1.0, ((t1 - t0) / (s1 - s0)) / (0.85 * aspect))
    shown.Scale = [1.0, stretch, 1.0]
    grid_axes = view.AxesGrid
    grid_axes.Visibility = 1
    grid_axes.DataScale = [1.0, stretch, 1.0]
    grid_axes.XTitle = "t [s]"
    grid_axes.YTitle = "s [m]"
    grid_axes.ZTitle = ""
    grid_axes.ShowGrid = 0
    grid_axes.ShowEdges = 1
    grid_axes.FacesToRender = 4  # the min-z face: the (t, s) plane itself
    grid_axes.AxesToLabel = 1 | 2  # labels along the lower (min s) and left (min t) edges only
    for prefix in ("X", "Y"):
        setattr(grid_axes, prefix + "TitleColor", [0.1, 0.1, 0.1])
        setattr(grid_axes, prefix + "LabelColor", [0.1, 0.1, 0.1])
        setattr(grid_axes, prefix + "TitleFontSize", 18)
        setattr(grid_axes, prefix + "LabelFontSize", 14)
    grid_axes.GridColor = [0.1, 0.1, 0.1]

    bar = simple.GetScalarBar(lut, view)
    unit = UNITS.get(args.field)
    label = args.field + (" magnitude" if comps > 1 else "")
    bar.Title = "%s [%s]" % (label, unit) if unit else label
    bar.ComponentTitle = ""
    bar.Visibility = 1
    bar.TitleColor = bar.LabelColor = [0.1, 0.1, 0.1]
    bar.RangeLabelFormat = "%-#.3g"
    bar.WindowLocation = "Any Location"
    bar.Position = [0.89, 0.15]
    bar.ScalarBarLength = 0.7

    title = simple.Text(Text="%s on the spacetime mesh (%d triangles%s)"
                        % (label, triangles, ", edges drawn" if edges else ""))
    title_shown = simple.Show(title, view)
    title_shown.WindowLocation = "Upper Center"
    title_shown.Color = [0.1, 0.1, 0.1]
    title_shown.FontSize = 18

    # Camera: the (t, s) plane seen from +z, t to the right; room on the right for the bar
    # and on the left and below for the axis labels.
    centre = [(t0 + t1) / 2, stretch * (s0 + s1) / 2, 0.0]
    width, height = t1 - t0, stretch * (s1 - s0)
    view.CameraParallelProjection = 1
    view.CameraPosition = [centre[0] + 0.06 * width, centre[1], 10.0 * max(width, height)]
    view.CameraFocalPoint = [centre[0] + 0.06 * width, centre[1], 0.0]
    view.CameraViewUp = [0.0, 1.0, 0.0]
    view.CameraParallelScale = 0.5 * max(1.3 * height, 1.3 * width / aspect)

    simple.Render(view)
    simple.SaveScreenshot(out, view, ImageResolution=args.size)
    run_folder.report(out, "%s over %d triangles, range %.6g .. %.6g%s"
                      % (label, triangles, lo, hi, ", log scale" if args.log else ""))


if __name__ == "__main__":
    main()
