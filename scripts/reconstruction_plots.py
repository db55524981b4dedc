#!/usr/bin/python3
"""The figures of docs/reconstruction.md: every reconstruction method's error against the noise
of the tip data, and along the beam (issue 11).

On the scenarios of scripts/reconstruction_scenarios.py (the same truth, the same sensor: 200 Hz,
jitter, drops), for noise levels s x (1e-4 m, 1e-3 rad, 1e-3), s = 0.1, 0.3, 1, 3, 10 (seed 0,
declared in the case), every method (`[reconstruct] method` = "space", "driven", "estimate") on
its grid:
  1. the far-end RMS position error against s (docs/images/reconstruction_noise.png);
  2. at s = 1, the RMS position error over the rows of every column a against s_a
     (docs/images/reconstruction_along.png).
A method that fails (the space march's Newton, a refusal) leaves its point out and is listed; an
estimate not converged in 50 iterations (exit 3) is drawn hollow.

    /usr/bin/python3 scripts/reconstruction_plots.py --field build/bin/field
    /usr/bin/python3 scripts/reconstruction_plots.py --field build/bin/field --scenarios A

Needs numpy and matplotlib.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import reconstruction_scenarios as rs  # noqa: E402

SCALES = (0.1, 0.3, 1.0, 3.0, 10.0)
BASE = (1e-4, 1e-3, 1e-3)  # sigma_r [m], sigma_theta [rad], sigma_eta
METHODS = ("space", "driven", "estimate")
STYLE = {"space": ("s", "C0"), "driven": ("o", "C1"), "estimate": ("^", "C2")}
TARGET = {"A": (0.002, "issue 11 target (A): 2 mm"), "B": (0.01, "issue 11 target (B): 1 % of L")}


def positions(folder):
    """{(t rounded to 1e-9, a): position} of a run's field.csv, and the largest j."""
    names, rows = rs.read_csv(os.path.join(folder, "field.csv"))
    col = {n: i for i, n in enumerate(names)}
    out = {(round(r[col["t"]], 9), int(r[col["a"]])): r[[col["x"], col["y"], col["z"]]]
           for r in rows}
    return out, int(rows[:, col["j"]].max()), int(rows[:, col["a"]].max())


def column_errors(run, truth):
    """RMS over rows j < J of the position error of every column a (against the truth at t_j)."""
    field, J, A = positions(run)
    t_last = max(t for t, _ in field)
    sums, counts = np.zeros(A + 1), np.zeros(A + 1)
    for (t, a), r in field.items():
        if t == t_last or (t, a) not in truth:
            continue  # row J, or a node off the truth's grid
        sums[a] += ((r - truth[(t, a)]) ** 2).sum()
        counts[a] += 1
    return np.sqrt(sums / np.maximum(counts, 1))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--field", default="build/bin/field")
    p.add_argument("--scenarios", default="A,B")
    p.add_argument("--images", default="docs/images")
    p.add_argument("--keep", default=None, help="keep the work folder here")
    a = p.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="reconstruction_plots_")
    os.makedirs(work, exist_ok=True)
    names = a.scenarios.split(",")
    fig_n, ax_n = plt.subplots(1, len(names), figsize=(5.2 * len(names), 4.2), squeeze=False)
    fig_a, ax_a = plt.subplots(1, len(names), figsize=(5.2 * len(names), 4.2), squeeze=False)
    try:
        for k, name in enumerate(names):
            sc = rs.SCENARIOS[name]
            d = os.path.join(work, name)
            truth_tip = rs.simulate_truth(a.field, name, sc, d)
            truth, _, _ = positions(os.path.join(d, "truth"))
            L = sc["L"]
            ds = L / (sc["A"] - 0.5)
            far = {m: [] for m in METHODS}
            along = {}
            for s in SCALES:
                noise = tuple(s * v for v in BASE)
                tip = os.path.join(d, f"tip_{s:g}.csv")
                rng = np.random.default_rng(1000 * ord(name))  # seed 0, as the scenarios
                np.savetxt(tip, rs.sensor(truth_tip, sc["T"], rng, noise), delimiter=",",
                           header=rs.HEADER, comments="", fmt="%.17g")
                for m in METHODS:
                    case = os.path.join(d, f"{m}_{s:g}.toml")
                    with open(case, "w") as f:
                        f.write(rs.case_text(sc, m, tip, noise))
                    out = os.path.join(d, f"run_{m}_{s:g}")
                    rc, err, secs = rs.run([a.field, "reconstruct", case, "--out", out,
                                            "--force", "-q"])
                    ok = (rc == 0 or (m == "estimate" and rc == 3)) and \
                        os.path.exists(os.path.join(out, "field.csv"))
                    if not ok:
                        last = [l for l in err.strip().splitlines() if l][-1:] or [""]
                        print(f"{name} noise x{s:g} {m}: fails (exit {rc}): {last[0][:100]}")
                        continue
                    converged = True
                    if m == "estimate":
                        with open(os.path.join(out, "summary.json")) as f:
                            converged = json.load(f)["converged"] == "yes"
                    e = column_errors(out, truth)
                    far[m].append((s, e[-1], converged))
                    if s == 1.0:
                        along[m] = e
                    print(f"{name} noise x{s:g} {m}: far-end RMS {e[-1]:.3g} m "
                          f"({100 * e[-1] / L:.3g} % of L), {secs:.1f} s"
                          f"{'' if converged else ', NOT converged (exit 3)'}", flush=True)
            ax = ax_n[0][k]
            for m in METHODS:
                if far[m]:
                    marker, color = STYLE[m]
                    x = [v[0] * BASE[0] for v in far[m]]
                    y = [v[1] for v in far[m]]
                    ax.loglog(x, y, "-", marker=marker, color=color, label=m)
                    late = [(xi, yi) for xi, yi, v in zip(x, y, far[m]) if not v[2]]
                    if late:  # not converged: the state after max_iterations
                        ax.loglog(*zip(*late), marker, color=color, mfc="white", ms=10,
                                  label=f"{m}: not converged in 50 iterations")
            level, text = TARGET.get(name, (None, ""))
            if level:
                ax.axhline(level * L, color="gray", ls=":", lw=1, label=text)
            ax.set_xlabel("tip position noise [m] (angles and strains x10)")
            ax.set_ylabel("far-end RMS position error [m]")
            ax.set_title(f"scenario {name}: L/b = {L / sc['side']:g}, A = {sc['A']}")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=8)
            ax = ax_a[0][k]
            for m, e in along.items():
                s_a = np.arange(len(e)) * ds
                marker, color = STYLE[m]
                ax.semilogy(s_a[1:], e[1:], "-", marker=marker, color=color, label=m)
            ax.set_xlabel("s [m] (tip at 0)")
            ax.set_ylabel("RMS position error over the rows [m]")
            ax.set_title(f"scenario {name}, noise 1e-4 m, 1e-3 rad, 1e-3")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=8)
        os.makedirs(a.images, exist_ok=True)
        fig_n.tight_layout()
        fig_n.savefig(os.path.join(a.images, "reconstruction_noise.png"), dpi=110)
        fig_a.tight_layout()
        fig_a.savefig(os.path.join(a.images, "reconstruction_along.png"), dpi=110)
        print(f"wrote {a.images}/reconstruction_noise.png, {a.images}/reconstruction_along.png")
    finally:
        if not a.keep:
            shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
