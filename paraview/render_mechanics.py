"""Render a frame of a `field mechanics` run (docs/mechanics.md §7) to a PNG.

Reads DIR/mechanics.pvd (the pendulum's rods and masses, or the rigid body's axes) and draws the
frame nearest to --time (default: the last) with tubes for the segments and spheres for the
points, over the path of the last point (the pendulum's second mass, the tip of the body's d3)
from all frames up to that time.

Sample run (headless):
  xvfb-run -a pvbatch paraview/render_mechanics.py runs/double_pendulum --out pendulum.png
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_folder  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", help="the --out folder of `field mechanics`")
    parser.add_argument("--out", default="mechanics.png", help="PNG file to write")
    parser.add_argument("--time", type=float, default=None, help="time of the frame [s]")
    parser.add_argument("--size", default="900x700", help="picture size WxH")
    args = parser.parse_args()
    run_dir = run_folder.require_dir(args.run)
    pvd = run_folder.require_file(run_dir, "mechanics.pvd", "written by `field mechanics`")
    frames = run_folder.read_pvd(pvd)
    if not frames:
        run_folder.fail("'%s' lists no frames" % pvd)
    times = [t for t, _ in frames]
    time = times[-1] if args.time is None else min(times, key=lambda t: abs(t - args.time))
    width, height = (int(v) for v in args.size.split("x"))

    import paraview.simple as simple
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader

    # The path of the last point, from every frame up to `time`.
    path = []
    for t, name in frames:
        if t > time:
            break
        reader = vtkXMLPolyDataReader()
        reader.SetFileName(name)
        reader.Update()
        data = reader.GetOutput()
        path.append(data.GetPoint(data.GetNumberOfPoints() - 1))

    source = simple.PVDReader(FileName=pvd)
    view = simple.CreateView("RenderView")
    view.ViewSize = [width, height]
    if hasattr(view, "UseColorPaletteForBackground"):
        view.UseColorPaletteForBackground = 0
    view.Background = [1, 1, 1]
    view.OrientationAxesVisibility = 1
    view.ViewTime = time
    bounds = [min(p[i] for p in path) for i in range(3)], [max(p[i] for p in path) for i in range(3)]
    extent = max(max(hi - lo for lo, hi in zip(*bounds)), 1.0)
    radius = 0.015 * extent

    tubes = simple.Tube(Input=source, Radius=radius, NumberofSides=24)
    shown = simple.Show(tubes, view)
    shown.DiffuseColor = [0.2, 0.2, 0.25]
    spheres = simple.Glyph(Input=source, GlyphType="Sphere", ScaleFactor=4 * radius,
                           GlyphMode="All Points")
    shown = simple.Show(spheres, view)
    simple.ColorBy(shown, ("POINTS", "id"))
    shown.LookupTable = simple.GetColorTransferFunction("id")
    shown.LookupTable.ApplyPreset("Rainbow Uniform", True)

    line = simple.PolyLineSource(Points=[c for p in path for c in p])
    shown = simple.Show(line, view)
    shown.DiffuseColor = [0.85, 0.3, 0.1]
    shown.LineWidth = 1.5

    view.CameraPosition = [2.2 * extent, -3.0 * extent, 1.4 * extent]
    view.CameraFocalPoint = [0.0, 0.0, 0.5 * (bounds[0][2] + bounds[1][2])]
    view.CameraViewUp = [0, 0, 1]
    simple.ResetCamera(view)
    text = simple.Text(Text="%s, t = %.3g s" % (os.path.basename(run_dir.rstrip("/")), time))
    shown = simple.Show(text, view)
    shown.Color = [0.1, 0.1, 0.1]
    shown.FontSize = 18
    shown.WindowLocation = "Upper Left Corner"
    simple.SaveScreenshot(args.out, view, ImageResolution=[width, height])
    print("wrote %s" % args.out)


if __name__ == "__main__":
    main()
