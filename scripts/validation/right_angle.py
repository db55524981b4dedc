#!/usr/bin/env python3
"""Right-angle cantilever (Simo & Vu-Quoc 1988): full runs, comparison with the digitised
published histories (meshes/right_angle/reference.csv) and the plot of
docs/validation/right_angle.md.

  python3 scripts/validation/right_angle.py [--field build/bin/field] [--out runs/validation]

Runs the shipped case (ds = 1 m, dt = 5e-4 s) and the same beam with ds halved twice (dt with
it, the elbow segment at 10/ds: leg 1 = 10 + ds/2, leg 2 = 10 m), prints the elbow and tip
histories' differences from the reference and the self-convergence in ds, and writes
docs/validation/images/right_angle.png.
"""
import argparse
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

ROOT = common.ROOT
CASE = os.path.join(ROOT, "meshes", "right_angle")


def reference():
    rows = [l.split(",") for l in open(os.path.join(CASE, "reference.csv"))
            if not l.startswith("#") and not l.startswith("point")]
    out = {}
    for name in ("elbow", "tip"):
        pts = np.array([[float(r[1]), float(r[2])] for r in rows if r[0] == name])
        out[name] = pts
    return out


def histories(folder, elbow, A):
    """Out-of-plane (e1) displacement of the elbow's corner (mean of the two nodes ds/2 from it)
    and of the free end s = (A - 1/2) ds (mean of nodes A-1 and A) against t."""
    d = np.genfromtxt(os.path.join(folder, "field.csv"), delimiter=",", names=True)
    t = np.unique(d["t"])
    x = d["x"].reshape(len(t), A + 1)
    return t, 0.5 * (x[:, elbow] + x[:, elbow + 1]), 0.5 * (x[:, A - 1] + x[:, A])


def run(field, out, refine):
    """The shipped case with ds = 1/refine (and dt = 5e-4/refine)."""
    text = open(os.path.join(CASE, "case.toml")).read()
    A, elbow = 20 * refine + 1, 10 * refine
    folder = os.path.join(out, f"right_angle_ds{refine}")
    os.makedirs(folder, exist_ok=True)
    if refine == 1:
        text = text.replace('file = "shape.csv"', f'file = "{os.path.join(CASE, "shape.csv")}"')
    if refine > 1:
        text = re.sub(r"\nA = 21", f"\nA = {A}", text)
        text = re.sub(r"\nds = 1.0", f"\nds = {1.0 / refine!r}", text)
        text = re.sub(r"\ndt = 5.0e-4", f"\ndt = {5.0e-4 / refine!r}", text)
        text = re.sub(r"\nJ = 60000", f"\nJ = {60000 * refine}", text)
        text = re.sub(r"\nnode = 10", f"\nnode = {elbow}", text)
        text = re.sub(r"\nnode = 11", f"\nnode = {elbow + 1}", text)
        text = re.sub(r"stride = 20\n", f"stride = {20 * refine}\n", text)
        text = re.sub(r'file = "shape.csv"', 'file = "shape_fine.csv"', text)
        k1 = 2.0 * refine  # Cayley: 2 tan(pi/4)/ds
        with open(os.path.join(folder, "shape_fine.csv"), "w") as f:
            f.write("a,k1,k2,k3,g1,g2,g3\n")
            for a in range(A):
                f.write(f"{a},{k1 if a == elbow else 0},0,0,0,0,1\n")
    wall, run_folder = common.run_field(field, "simulate", text, folder, ("--threads", "1"))
    return histories(run_folder, elbow, A), wall


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--field", default=os.path.join(ROOT, "build", "bin", "field"))
    p.add_argument("--out", default=os.path.join(ROOT, "runs", "validation"))
    p.add_argument("--levels", type=int, default=3)
    args = p.parse_args()
    ref = reference()
    runs = []
    for k in range(args.levels):
        (t, e, tip), wall = run(args.field, args.out, 2 ** k)
        runs.append((t, e, tip))
        line = f"ds = {1.0 / 2 ** k:<6} wall {wall:6.2f} s"
        for name, u in (("elbow", e), ("tip", tip)):
            r = ref[name]
            diff = np.interp(r[:, 0], t, u) - r[:, 1]
            line += f"  {name}: rms diff {np.sqrt(np.mean(diff ** 2)):.3f} m, max {np.abs(diff).max():.3f} m"
        print(line)
        for name, u in (("elbow", e), ("tip", tip)):
            i = np.argmax(u); j = np.argmin(u)
            print(f"    {name}: max {u[i]:.3f} m at t = {t[i]:.2f} s, min {u[j]:.3f} m at t = {t[j]:.2f} s")
    for k in range(1, len(runs) - 1):
        d1 = np.abs(np.interp(runs[0][0], runs[k][0], runs[k][2]) - runs[k - 1][2]).max()
        d2 = np.abs(np.interp(runs[0][0], runs[k + 1][0], runs[k + 1][2]) - np.interp(runs[0][0], runs[k][0], runs[k][2])).max()
        print(f"tip self-convergence: |u(ds/{2**(k-1)}) - u(ds/{2**k})| = {d1:.3f} m, next {d2:.3f} m, order {np.log2(d1 / d2):.2f}")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot")
        return
    fig, ax = plt.subplots(figsize=(8, 4.5))
    styles = ["-", "--", ":"]
    for k, (t, e, tip) in enumerate(runs):
        ax.plot(t, e, "C0" + styles[k % 3], lw=1.2, label=f"libfield elbow, ds = {1 / 2 ** k:g} m")
        ax.plot(t, tip, "C1" + styles[k % 3], lw=1.2, label=f"libfield tip, ds = {1 / 2 ** k:g} m")
    ax.plot(*ref["elbow"].T, "o", color="C0", ms=3.5, label="Simo & Vu-Quoc (1988), elbow (digitised)")
    ax.plot(*ref["tip"].T, "s", color="C1", ms=3.5, label="Simo & Vu-Quoc (1988), tip (digitised)")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("out-of-plane displacement [m]")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    path = os.path.join(ROOT, "docs", "validation", "images", "right_angle.png")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=110)
    print("wrote", path)


if __name__ == "__main__":
    main()
