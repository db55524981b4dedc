#!/usr/bin/python3
"""The roll-up of a cantilever by the end moment M = 2 pi EI / l (docs/validation/rollup.md,
meshes/static_rollup): `field static` at A = 5 .. 320 segments with both retractions, the tip's
distance from the root (exact: 0, the beam closes into a circle of radius l / (2 pi)), its
convergence in ds with the observed order, the published convergence of another code beside it,
the wall time of each run, and the figure docs/validation/images/rollup.png.

    /usr/bin/python3 scripts/validation/rollup.py [--field build/bin/field] [--out runs/validation]
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

CASE = os.path.join(common.ROOT, "meshes", "static_rollup", "case.toml")
L = 10.0
# kynema docs/sphinx/testing/rollup.rst: one Legendre spectral finite element with N nodes, tip
# displacement along the beam for l = 10 (exact -10), after Simo & Vu-Quoc (1986).
KYNEMA_LSFE = [(3, -15.6418448333196), (6, -10.9854783002967), (9, -10.058403575783),
               (12, -10.0000013123339), (15, -10.0000000000645)]


def rollup(field, folder, A, retraction):
    text = common.case_variant(CASE, A=A, ds=L / A, retraction=retraction)
    wall, run = common.run_field(field, "static", text, folder)
    s = common.summary(run)
    if s["outcome"] != "converged":
        raise RuntimeError(f"{folder}: {s.get('failure')}")
    return np.array(s["tip_position"]), wall, s, run


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--field", default=os.path.join(common.ROOT, "build", "bin", "field"))
    p.add_argument("--out", default=os.path.join(common.ROOT, "runs", "validation"))
    p.add_argument("--resolutions", default="5,10,20,40,80,160,320")
    p.add_argument("--no-plot", action="store_true")
    args = p.parse_args()
    As = [int(a) for a in args.resolutions.split(",")]
    work = os.path.join(args.out, "rollup")
    res = {}
    for retraction in ("exp", "cayley"):
        for A in As:
            tip, wall, s, run = rollup(args.field, os.path.join(work, f"{retraction}_A{A}"), A,
                                       retraction)
            res[(retraction, A)] = dict(tip=tip, err=float(np.linalg.norm(tip)), wall=wall,
                                        newton=s["newton_iterations"], run=run,
                                        halvings=s["halvings"])
    print("## rollup: the tip's distance from the root |r_A| (exact 0), l = 10 m\n")
    rows = []
    for retraction in ("exp", "cayley"):
        for A in As:
            r = res[(retraction, A)]
            rows.append([retraction, A, f"{L / A:.4g}", f"{r['tip'][2] - L:.10f}",
                         f"{r['err']:.3e}", r["newton"], r["halvings"], f"{r['wall']:.3f}"])
    print(common.markdown_table(["retraction", "A", "ds [m]", "tip displacement along the beam",
                                 "abs(r_A) [m]", "Newton its", "halvings", "wall [s]"], rows))
    o = common.error_orders([L / A for A in As], [res[("cayley", A)]["err"] for A in As])
    print("\nobserved order of abs(r_A) (cayley): " + ", ".join(f"{v:.2f}" for v in o))
    print("\nkynema, one LSFE with N nodes (tip displacement along the beam, exact -10): "
          + ", ".join(f"N = {n}: {u:.10f}" for n, u in KYNEMA_LSFE))
    if not args.no_plot:
        plot(res, As)
    return 0


def plot(res, As):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.4))
    th = np.linspace(0, 2 * np.pi, 400)
    rc = L / (2 * np.pi)
    # d3 along e3, moment about e1: the beam curls in the y-z plane towards -y
    ax1.plot(rc * np.sin(th), -rc * (1 - np.cos(th)), "k-", lw=1, label="exact circle")
    for retraction, A, style in (("exp", 10, "o"), ("cayley", 10, "s"), ("cayley", 5, "^")):
        f = np.genfromtxt(os.path.join(res[(retraction, A)]["run"], "field.csv"), delimiter=",",
                          names=True)
        ax1.plot(f["z"], f["y"], style + "--", mfc="none", label=f"{retraction}, A = {A}")
    ax1.set_aspect("equal")
    ax1.set_xlabel("z [m]")
    ax1.set_ylabel("y [m]")
    ax1.set_title("roll-up by M = 2 pi EI / l: the nodes")
    ax1.legend(fontsize=8)
    nodes = [A + 1 for A in As]
    ax2.loglog(nodes, [max(res[("exp", A)]["err"], 1e-16) for A in As], "o-",
               label="libfield exp: |r_A|")
    ax2.loglog(nodes, [res[("cayley", A)]["err"] for A in As], "s-", label="libfield Cayley: |r_A|")
    ax2.loglog([n for n, _ in KYNEMA_LSFE], [abs(u + L) for _, u in KYNEMA_LSFE], "D--",
               mfc="none", label="kynema, one LSFE (|u + 10|)")
    ax2.set_xlabel("nodes along the beam")
    ax2.set_ylabel("tip error [m]")
    ax2.set_title("convergence")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(common.ROOT, "docs", "validation", "images", "rollup.png")
    fig.savefig(path, dpi=110)
    print(f"\nwrote {path}")


if __name__ == "__main__":
    sys.exit(main())
