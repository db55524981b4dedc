"""Plot the conservation diagnostics of a run folder: energy and momentum drift, two charts.

Reads DIR/time_series.csv of a time march (docs/output-format.md) and draws
  left:  the relative energy change (E_j - E_0)/|E_0| against t (theory §8), titled with
         (max E - min E)/|E_0|; for a run with loads, a driven end or damping (summary.json:
         energy_balance_applies) the energy balance B_j = E_j - E_0 - W_j + D_j instead (theory
         §8.1), titled with max |B_j|: the figures `field simulate` prints, by the same definitions;
  right: the momentum drift |P_j - P_0| of each of the six components against t (theory §7);
or, for a space march, DIR/space_series.csv:
  left:  the spatial-evolution energy E_M^a against s,
  right: the drift |Q^a - Q^0| of each component against s.
With ParaView's CSV reader, a programmable filter for the derived columns and two line chart
views; the chart titles give the largest value of each curve.

Sample runs (headless):
  xvfb-run -a pvbatch paraview/plot_series.py out/free_flight
  xvfb-run -a pvbatch paraview/plot_series.py out/space_evolution --out series.png
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_folder  # noqa: E402

COMPONENTS = ("ang1", "ang2", "ang3", "lin1", "lin2", "lin3")
COLOURS = ("0.85 0.15 0.15", "0.1 0.6 0.1", "0.15 0.3 0.9",
           "0.9 0.55 0.0", "0.55 0.2 0.7", "0.3 0.3 0.3")

# Chart texts avoid '|' and '_' pairs: VTK's text renderer takes them for math markup.
# Runs inside ParaView's ProgrammableFilter (vtkTable in, vtkTable out); %(...)s are filled in.
DERIVED_COLUMNS = """
from vtkmodules.vtkCommonCore import vtkDoubleArray
table = self.GetInputDataObject(0, 0)
out = self.GetOutputDataObject(0)

def column(name):
    c = table.GetColumnByName(name)
    return [float(c.GetValue(i)) for i in range(c.GetNumberOfTuples())]

def add(name, values):
    a = vtkDoubleArray()
    a.SetName(name)
    for v in values:
        a.InsertNextValue(v)
    out.AddColumn(a)

add("x", column("%(x)s"))
energy = column("%(energy)s")
if %(relative)s:
    add("energy", [(e - energy[0]) / abs(energy[0]) for e in energy])
else:
    add("energy", energy)
for name in %(momenta)s:
    values = column(name)
    add("drift_" + name, [abs(v - values[0]) for v in values])
"""


def parse_args():
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__[__doc__.index("Sample runs"):],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dir", help="run folder (the --out of `field simulate` / `field reconstruct`)")
    p.add_argument("--out", help="picture to write (default DIR/series.png)")
    p.add_argument("--size", type=int, nargs=2, default=[1600, 600], metavar=("W", "H"),
                   help="picture size in pixels (default 1600 600)")
    args = p.parse_args()
    if args.size[0] < 128 or args.size[1] < 64:
        run_folder.fail("--size %d %d is too small (at least 128 64)" % tuple(args.size))
    return args


def check_header(path, needed):
    """The header line must name every column the plot needs; at least two data rows. Returns
    the number of data rows and the header's names."""
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = sum(1 for line in f if line.strip())
    missing = [name for name in needed if name not in header]
    if missing:
        run_folder.fail("'%s' has no column %s (header: %s)"
                        % (path, ", ".join(missing), ",".join(header)))
    if rows < 2:
        run_folder.fail("'%s' has %d data row(s); a plot needs at least 2" % (path, rows))
    return rows, header


def balance_applies(run_dir, header):
    """Whether the run's energy figure is the balance B_j (theory §8.1): summary.json says so
    (`field simulate` decides from the loads, ends and damping); a folder without it (an
    interrupted run) falls back to the series' columns: D_j or a reaction column means a damped
    or driven run."""
    summary = os.path.join(run_dir, "summary.json")
    if os.path.isfile(summary):
        with open(summary) as f:
            return bool(json.load(f).get("energy_balance_applies"))
    return any(name == "dissipated_energy" or name.startswith("R0_") or name.startswith("RA_")
               for name in header)


def chart(simple, source, title, x_title, y_title, series, labels, colours, notation="Scientific"):
    view = simple.CreateView("XYChartView")
    view.ChartTitle = title
    view.ChartTitleFontSize = 15
    view.ChartTitleBold = 0
    view.LeftAxisTitleFontSize = view.BottomAxisTitleFontSize = 14
    view.LeftAxisTitleBold = view.BottomAxisTitleBold = 0
    view.LeftAxisLabelFontSize = view.BottomAxisLabelFontSize = 12
    view.BottomAxisTitle = x_title
    view.LeftAxisTitle = y_title
    view.LeftAxisLabelNotation = notation
    view.LeftAxisLabelPrecision = 1 if notation == "Scientific" else 6
    view.ShowLegend = 1 if len(series) > 1 else 0
    view.LegendLocation = "TopLeft"
    shown = simple.Show(source, view, "XYChartRepresentation")
    shown.UseIndexForXAxis = 0
    shown.XArrayName = "x"
    shown.SeriesVisibility = list(series)
    shown.SeriesLabel = [v for pair in zip(series, labels) for v in pair]
    shown.SeriesColor = [v for pair in zip(series, colours) for v in [pair[0]] + pair[1].split()]
    shown.SeriesLineThickness = [v for name in series for v in (name, "2")]
    return view


def main():
    args = parse_args()
    run_dir = run_folder.require_dir(args.dir)
    time_csv = os.path.join(run_dir, "time_series.csv")
    space_csv = os.path.join(run_dir, "space_series.csv")
    if os.path.isfile(time_csv):
        path, space = time_csv, False
    elif os.path.isfile(space_csv):
        path, space = space_csv, True
    else:
        run_folder.fail("neither '%s' nor '%s' found: the run writes one of them (time march "
                        "or space march); is '%s' a complete run folder?"
                        % (time_csv, space_csv, run_dir))
    momenta = ["%s_%s" % ("Q" if space else "P", c) for c in COMPONENTS]
    x_name, energy = ("s", "E_M") if space else ("t", "E")
    rows, header = check_header(path, [x_name, energy] + momenta)
    balanced = not space and balance_applies(run_dir, header)
    if balanced:
        check_header(path, ["E_balance"])
        energy = "E_balance"
    out = args.out or os.path.join(run_dir, "series.png")

    import paraview.simple as simple

    reader = simple.CSVReader(FileName=[path])
    derived = simple.ProgrammableFilter(Input=reader)
    derived.OutputDataSetType = "vtkTable"
    derived.Script = DERIVED_COLUMNS % {
        "x": x_name, "energy": energy, "relative": not space and not balanced,
        "momenta": repr(momenta)}
    derived.UpdatePipeline()
    table = simple.servermanager.Fetch(derived)
    if table.GetNumberOfRows() != rows:
        run_folder.fail("'%s': read %d rows of %d (a malformed line?)"
                        % (path, table.GetNumberOfRows(), rows))

    # Statistics through run_folder: the programmable filter's script runs in this module's
    # namespace (__main__) and shadows max/min/abs with VTK's numpy algorithms.
    drift_names = ["drift_" + m for m in momenta]
    biggest_drift = run_folder.largest_magnitude(table, drift_names)
    if space:
        spread = run_folder.relative_range(table, "energy")
        left = chart(simple, derived,
                     "space-march energy E_M\n(range / max abs(E_M) = %.3g)" % spread,
                     "s [m]", "E_M [J s/m]", ["energy"], ["E_M"], [COLOURS[2]], "Mixed")
        right = chart(simple, derived,
                      "momentum drift abs(Q - Q0) per component\n(max %.3g)" % biggest_drift,
                      "s [m]", "abs(Q - Q0)", drift_names, ["Q_" + c for c in COMPONENTS], COLOURS)
        what = "E_M range/max|E_M| = %.3g, max |Q - Q_0| = %.3g" % (spread, biggest_drift)
    else:
        if balanced:
            biggest = run_folder.largest_magnitude(table, ["energy"])
            left = chart(simple, derived,
                         "energy balance E - E0 - W + D\n(max abs = %.3e J)" % biggest,
                         "t [s]", "E - E0 - W + D [J]", ["energy"], ["balance"], [COLOURS[2]])
            what = "balance max |E_j - E_0 - W_j + D_j| = %.3e J" % biggest
        else:
            # (E_j - E_0)/|E_0| spans (max E - min E)/|E_0|: the program's figure.
            spread = run_folder.value_range(table, "energy")
            left = chart(simple, derived,
                         "relative energy change\n((max E - min E)/abs(E0) = %.3e)" % spread,
                         "t [s]", "(E - E0) / abs(E0)", ["energy"], ["energy"], [COLOURS[2]])
            what = "(max E - min E)/|E_0| = %.3e" % spread
        right = chart(simple, derived,
                      "momentum drift abs(P - P0) per component\n(max %.3g)" % biggest_drift,
                      "t [s]", "abs(P - P0)", drift_names, ["P_" + c for c in COMPONENTS], COLOURS)
        what += ", max |P - P_0| = %.3g" % biggest_drift

    layout = simple.CreateLayout("series")
    simple.AssignViewToLayout(view=left, layout=layout, hint=0)
    layout.SplitHorizontal(0, 0.5)
    simple.AssignViewToLayout(view=right, layout=layout, hint=2)
    simple.SaveScreenshot(out, layout, ImageResolution=args.size)
    run_folder.report(out, "%d rows of %s: %s" % (rows, os.path.basename(path), what))


if __name__ == "__main__":
    main()
