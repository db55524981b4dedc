#!/usr/bin/env python3
"""The figure of docs/cable.md from two `field simulate` runs of the shipped cable cases:

  /usr/bin/python3 scripts/cable_run_figure.py runs/hanging_cable runs/swinging_cable \\
      --plot docs/images/cable_runs.png

Left: the hanging cable (meshes/hanging_cable) at t = 0 and t = 1 s and the distance of every
node from its start over the run, scaled up. Right: the swinging cable (meshes/swinging_cable)
every 0.1 s. Reads field.csv (columns j, a, t, s, x, y, z) of each run folder.
"""
import argparse

import numpy as np


def rows(folder):
    d = np.genfromtxt(f"{folder}/field.csv", delimiter=",", names=True)
    out = {}
    for j in np.unique(d["j"]):
        r = d[d["j"] == j]
        out[int(j)] = (r["t"][0], np.c_[r["x"], r["y"], r["z"]])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("hanging")
    p.add_argument("swinging")
    p.add_argument("--plot", required=True)
    a = p.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    hang = rows(a.hanging)
    j0, jl = min(hang), max(hang)
    r0 = hang[j0][1]
    moved = max(np.max(np.linalg.norm(r - r0, axis=1)) for _, r in hang.values())
    ax1.plot(r0[:, 0], r0[:, 2], "k-", lw=1, label="t = 0: elastic catenary (1.8.9)")
    t, r = hang[jl]
    scale = 200.0
    ax1.plot(r0[:, 0] + scale * (r - r0)[:, 0], r0[:, 2] + scale * (r - r0)[:, 2], "o", ms=3,
             label=f"t = {t:g} s, displacement x {scale:g}")
    ax1.set_title(f"hanging_cable: largest motion {moved:.2e} m over 1 s")
    ax1.set_xlabel("x [m]")
    ax1.set_ylabel("z [m]")
    ax1.set_aspect("equal")
    ax1.legend(fontsize=8, loc="lower right")
    swing = rows(a.swinging)
    for j, (t, r) in sorted(swing.items()):
        if abs(t * 10 - round(t * 10)) < 1e-9:
            ax2.plot(r[:-1, 0], r[:-1, 2], "-", lw=1, color=plt.cm.viridis(t))
            ax2.text(r[-2, 0], r[-2, 2], f"{t:.1f}", fontsize=6)
    ax2.set_title("swinging_cable every 0.1 s (free end: t [s])")
    ax2.set_xlabel("x [m]")
    ax2.set_ylabel("z [m]")
    ax2.set_aspect("equal")
    fig.tight_layout()
    fig.savefig(a.plot, dpi=90)
    print(f"hanging: largest motion {moved:.3e} m; wrote {a.plot}")


if __name__ == "__main__":
    main()
