#!/usr/bin/env python3
"""3D flying spaghetti (Simo & Vu-Quoc 1988): full runs of meshes/flying_spaghetti, the momentum
and energy after the load, the loaded end's trajectory at three resolutions (self-convergence in
ds and dt together, c_E dt/ds = 0.5), the effect of rho J3 = 10 instead of 20, and the plot of
docs/validation/flying_spaghetti.md.

  python3 scripts/validation/flying_spaghetti.py [--field build/bin/field] [--out runs/validation]
"""
import argparse
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

ROOT = common.ROOT
CASE = os.path.join(ROOT, "meshes", "flying_spaghetti", "case.toml")


def run(field, out, tag, A, dt, rhoJ3=20.0, at_node=False):
    """at_node: the wrench whole on node A ([[loads.point]] node = A), Delta s/2 beyond the
    physical end s = A ds, instead of the end wrench [[loads.end]] (W/2 on nodes A-1 and A, the
    virtual work at the end, theory 4.6): the force's lever arm is then off by Delta s/2."""
    text = open(CASE).read()
    if at_node:
        text = text.replace("[[loads.end]] ", f"[[loads.point]]\nnode = {A} ")
    J = int(round(15.0 / dt))
    text = re.sub(r"\nA = 20 ", f"\nA = {A} ", text)
    text = re.sub(r"\ndt = 2.5e-3 ", f"\ndt = {dt!r} ", text)
    text = re.sub(r"\nrhoJ3 = 20.0 ", f"\nrhoJ3 = {rhoJ3!r} ", text)
    stride = max(1, int(round(0.05 / dt)))
    text = re.sub(r"\nstride = 10", f"\nstride = {stride}", text)
    folder = os.path.join(out, "flying_spaghetti_" + tag)
    wall, _ = common.run_field(field, "simulate", text, folder, ("--threads", "1"))
    d = np.genfromtxt(os.path.join(folder, "run", "field.csv"), delimiter=",", names=True)
    t = np.unique(d["t"])
    xyz = np.stack([d["x"], d["y"], d["z"]], axis=1).reshape(len(t), A + 1, 3)
    end = 0.5 * (xyz[:, A - 1] + xyz[:, A])  # the loaded end s = L = A ds
    s = np.genfromtxt(os.path.join(folder, "run", "time_series.csv"), delimiter=",", names=True)
    return t, end, s, wall, J * (A + 1)


def study(args, at_node):
    """The four joint refinements (c_E dt/ds = 0.5): momentum, energy, the end at t = 15 s, and
    the observed order of the end's trajectory."""
    print("the wrench whole on node A ([[loads.point]] node = A):" if at_node else
          "the case as shipped ([[loads.end]] at the physical end):")
    runs = {}
    for A, dt in ((10, 0.005), (20, 0.0025), (40, 0.00125), (80, 0.000625)):
        tag = f"A{A}" + ("_node" if at_node else "")
        t, end, s, wall, n = run(args.field, args.out, tag, A, dt, at_node=at_node)
        runs[A] = (t, end)
        m = s["t"] >= 5.0
        lin = np.abs(np.stack([s["P_lin1"][m] - 50.0, s["P_lin2"][m], s["P_lin3"][m]])).max()
        ang = max(np.ptp(s[k][m]) for k in ("P_ang1", "P_ang2", "P_ang3"))
        E = s["E"][m]
        print(f"  A = {A:3d} ds = {10 / A:<6} dt = {dt:<9} wall {wall:6.2f} s ({n} node updates)  "
              f"after t = 5 s: |P_lin - (50,0,0)| <= {lin:.1e}, range P_ang {ang:.1e}, "
              f"E = {E[0]:.4f} J, range {np.ptp(E) / E[0]:.2e}; end at t = 15 s: {end[-1].round(4)}")
    As = sorted(runs)
    f = lambda A: np.array([np.interp(runs[As[0]][0], runs[A][0], runs[A][1][:, i])
                            for i in range(3)]).T
    for k in range(1, len(As) - 1):
        d1 = np.abs(f(As[k]) - f(As[k - 1])).max()
        d2 = np.abs(f(As[k + 1]) - f(As[k])).max()
        print(f"  end trajectory, max difference A = {As[k-1]}->{As[k]}: {d1:.4f} m, "
              f"{As[k]}->{As[k+1]}: {d2:.4f} m, order {np.log2(d1 / d2):.2f}")
    return runs


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--field", default=os.path.join(ROOT, "build", "bin", "field"))
    p.add_argument("--out", default=os.path.join(ROOT, "runs", "validation"))
    args = p.parse_args()
    all_runs = {at_node: study(args, at_node) for at_node in (False, True)}
    runs = all_runs[False]
    t10, e10, _, _, _ = run(args.field, args.out, "A20_rhoJ3_10", 20, 0.0025, rhoJ3=10.0)
    diff = np.abs(np.array([np.interp(runs[20][0], t10, e10[:, i]) for i in range(3)]).T - runs[20][1]).max()
    print(f"rho J3 = 10 instead of 20 (A = 20): the loaded end moves by up to {diff:.3f} m over 15 s")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot")
        return
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    for A, style in zip(sorted(runs), ["-", "--", "-.", ":"]):
        t, end = runs[A]
        for i, c in enumerate("xyz"):
            ax[0].plot(t, end[:, i], f"C{i}{style}", lw=1, label=f"{c}, ds = {10 / A:g} m" if True else None)
    ax[0].plot(t10, e10[:, 0], "k:", lw=0.8, label="x, rho J3 = 10 (ds = 0.5)")
    ts, es = all_runs[True][80]
    ax[0].plot(ts, es[:, 0], "k-", lw=0.6, label="x, wrench on node A (ds = 0.125)")
    ax[0].set_xlabel("t [s]")
    ax[0].set_ylabel("loaded end position [m]")
    ax[0].legend(fontsize=6, ncol=2)
    ax[0].grid(alpha=0.3)
    t, end = runs[20]
    ax[1].plot(end[:, 0], end[:, 2], "C0-", lw=1)
    ax[1].plot(*end[0, [0, 2]], "ko", ms=4)
    ax[1].set_xlabel("x [m]")
    ax[1].set_ylabel("z [m]")
    ax[1].set_title("loaded end, projection on (x, z), ds = 0.5 m", fontsize=9)
    ax[1].set_aspect("equal")
    ax[1].grid(alpha=0.3)
    fig.tight_layout()
    path = os.path.join(ROOT, "docs", "validation", "images", "flying_spaghetti.png")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=110)
    print("wrote", path)


if __name__ == "__main__":
    main()
