#!/usr/bin/env python3
"""The measured figures of docs/planar_beam.md, from real runs of `field simulate`.

  /usr/bin/python3 scripts/planar_figures.py --field build/bin/field --out runs/planar_beam \
      [--plot docs/images/planar_cantilever.png]

Runs the shipped planar case meshes/planar_cantilever (the planar beam on SE(2), theory §1.7)
into OUT/planar, and its SE(3) twin into OUT/se3: the same case without `theory`, row 0 read
from a file of the planar run's row 0 (as the test CliPlanar.CantileverEqualsTheSe3BeamInThePlane
builds it). Prints a markdown table: the tip's deflection, the energy figures of both reports and
the largest difference of the written poses and series. --plot draws the centreline (x, y of
field.csv) at several times, the tip's path, and the largest pose difference of the two runs on
every written row.
"""
import argparse
import csv
import json
import pathlib
import re
import subprocess

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
CASE = ROOT / "meshes" / "planar_cantilever" / "case.toml"


def run(field, case, out):
    """`field simulate case --out out --force`; returns the report (stdout and stderr)."""
    p = subprocess.run([str(field), "simulate", str(case), "--out", str(out), "--force"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"field simulate {case} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    return p.stdout + p.stderr


def read_csv(path):
    """The columns of a CSV file with a header, as float arrays by name."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    data = np.array([[float(c) for c in r] for r in rows[1:]])
    return {name: data[:, k] for k, name in enumerate(rows[0])}


def se3_twin(planar_run, folder):
    """The SE(3) case of the planar case: no `theory`, row 0 from row0.csv (the planar run's row 0
    as written: a, x..qz)."""
    text = CASE.read_text()
    edits = [(r'(?m)^theory = "planar_beam".*$', ""),
             (r'(?m)^configuration = "straight".*$', 'configuration = "file"\nfile = "row0.csv"'),
             (r"(?m)^origin = .*$", ""), (r"(?m)^axis = .*$", ""),
             (r'(?m)^name = "planar_cantilever"', 'name = "planar_cantilever_se3"')]
    for pattern, replacement in edits:
        text, n = re.subn(pattern, replacement, text)
        if n != 1:
            raise SystemExit(f"{pattern} not found once in {CASE}")
    f = read_csv(planar_run / "field.csv")
    row0 = f["j"] == 0
    lines = ["a,x,y,z,qw,qx,qy,qz"]
    for k in np.flatnonzero(row0):
        lines.append(",".join([str(int(f["a"][k]))] +
                              [repr(f[c][k]) for c in ("x", "y", "z", "qw", "qx", "qy", "qz")]))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "row0.csv").write_text("\n".join(lines) + "\n")
    case = folder / "se3.toml"
    case.write_text(text)
    return case


def report_line(report, key):
    m = re.search(rf"(?m)^  {key} .*$", report)
    return m.group(0).strip() if m else "(not found)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--field", default=str(ROOT / "build" / "bin" / "field"))
    ap.add_argument("--out", default=str(ROOT / "runs" / "planar_beam"))
    ap.add_argument("--plot", help="PNG to write (docs/images/planar_cantilever.png)")
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    planar_report = run(args.field, CASE, out / "planar")
    twin = se3_twin(out / "planar", out / "twin")
    se3_report = run(args.field, twin, out / "se3")

    f2, f3 = read_csv(out / "planar" / "field.csv"), read_csv(out / "se3" / "field.csv")
    s2 = read_csv(out / "planar" / "time_series.csv")
    s3 = read_csv(out / "se3" / "time_series.csv")
    pose = np.max(np.abs(np.stack([f2[c] - f3[c] for c in ("x", "y", "z", "qw", "qx", "qy",
                                                           "qz")])), axis=0)
    A = int(f2["a"].max())
    tip = f2["a"] == A
    summary = {k: json.loads((out / k / "summary.json").read_text()) for k in ("planar", "se3")}
    for name, report in (("planar", planar_report), ("SE(3)", se3_report)):
        head = re.search(r"(?m)^planar_cantilever\S*: .*$", report)
        print(f"{name}: {head.group(0) if head else '(no report line)'}")
        print(f"{name}: {report_line(report, 'energy')}")
    print("| figure | planar beam (SE(2)) | SE(3) beam in the plane |")
    print("|---|---|---|")
    print(f"| E_0 [J] | {s2['E'][0]:.15e} | {s3['E'][0]:.15e} |")
    print(f"| max E - min E [J] | {np.ptp(s2['E']):.10e} | {np.ptp(s3['E']):.10e} |")
    print(f"| lowest tip y [m] | {f2['y'][tip].min():.10f} | {f3['y'][tip].min():.10f} |")
    print(f"| Noether balance per row (report) | {summary['planar']['noether_residual_max']:.2e} | "
          f"{summary['se3']['noether_residual_max']:.2e} |")
    print(f"| largest pose difference (field.csv, x..qz) | {pose.max():.2e} | |")
    for c in ("E", "P_ang3", "P_lin1", "P_lin2", "R0_lin2"):
        scale = max(np.abs(s3[c]).max(), 1.0)
        print(f"| largest difference of {c} / max(1, max |{c}|) | "
              f"{np.abs(s2[c] - s3[c]).max() / scale:.2e} | |")

    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, (ax, ad) = plt.subplots(1, 2, figsize=(10, 3.6), gridspec_kw={"width_ratios": [3, 2]})
        times = np.unique(f2["t"])
        shown = times[::10]  # every 0.05 s (written every 10 rows of dt = 5e-4 s)
        colours = plt.cm.viridis(np.linspace(0.0, 1.0, len(shown)))
        for t, colour in zip(shown, colours):
            k = np.isclose(f2["t"], t)
            ax.plot(f2["x"][k], f2["y"][k], "-o", ms=2.5, lw=1.2, color=colour,
                    label=f"t = {t:.2f} s")
        ax.plot(f2["x"][tip], f2["y"][tip], ":", lw=0.8, color="0.4", label="node A, every 10th row")
        ax.set_xlabel("x [m]")
        ax.set_ylabel("y [m]")
        ax.set_aspect("equal")
        ax.set_title("planar_cantilever: centreline (field.csv)", fontsize=10)
        ax.legend(fontsize=6, ncol=2, loc="lower left")
        ad.semilogy(times, [max(pose[np.isclose(f2["t"], t)].max(), 1e-17) for t in times],
                    lw=1.0)
        ad.set_xlabel("t [s]")
        ad.set_ylabel("max |pose SE(2) run - SE(3) run|")
        ad.set_title("against the SE(3) beam in the plane", fontsize=10)
        ad.set_ylim(1e-17, 1e-11)
        ad.grid(True, which="major", lw=0.3)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=90)
        print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
