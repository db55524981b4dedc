#!/usr/bin/env python3
"""The spinning free beam (meshes/spinning_beam): error against its exact stretched relative
equilibrium x(s, t) = exp(w t e1^) r(s - L/2) e3, observed orders in ds (dt small) and in dt
(ds small), and the plot of docs/validation/spinning_beam.md.

  python3 scripts/validation/spinning_beam.py [--field build/bin/field] [--out runs/validation]
"""
import argparse
import importlib.util
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

ROOT = common.ROOT
CASE = os.path.join(ROOT, "meshes", "spinning_beam")
W, EA, RHOA, L, T = 10.0, 1.0e4, 1.0, 10.0, 2.0

spec = importlib.util.spec_from_file_location("make_initial", os.path.join(CASE, "make_initial.py"))
make_initial = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_initial)


def run(field, out, A, dt):
    folder = os.path.join(out, f"spinning_beam_A{A}_dt{dt:g}")
    os.makedirs(folder, exist_ok=True)
    make_initial.write(folder, A, W, EA, RHOA, L)
    text = open(os.path.join(CASE, "case.toml")).read()
    text = re.sub(r"\nA = 20\n", f"\nA = {A}\n", text)
    text = re.sub(r"\ndt = 1.0e-3 ", f"\ndt = {dt!r} ", text)
    text = re.sub(r"\nstride = 10", f"\nstride = {max(1, int(round(0.01 / dt)))}", text)
    wall, _ = common.run_field(field, "simulate", text, folder, ("--threads", "1"))
    d = np.genfromtxt(os.path.join(folder, "run", "field.csv"), delimiter=",", names=True)
    t = np.unique(d["t"])
    xyz = np.stack([d["x"], d["y"], d["z"]], axis=1).reshape(len(t), A + 1, 3)[:, :A]
    ds = L / A
    k = W * np.sqrt(RHOA / EA)
    r = np.array([make_initial.exact_r((a + 0.5) * ds - L / 2, k, L) for a in range(A)])
    exact = np.zeros_like(xyz)
    exact[:, :, 1] = -np.sin(W * t)[:, None] * r[None, :]
    exact[:, :, 2] = np.cos(W * t)[:, None] * r[None, :]
    err = np.linalg.norm(xyz - exact, axis=2).max(axis=1)
    length = np.linalg.norm(xyz[:, -1] - xyz[:, 0], axis=1)
    return t, err, xyz, wall


def orders(label, runs):
    print(label)
    prev = None
    for key, (t, err, xyz, wall) in runs:
        e = err.max()
        o = f"  order {np.log2(prev / e):.2f}" if prev else ""
        print(f"  {key}: max position error over 2 s {e:.3e} m{o}  (wall {wall:.2f} s)")
        prev = e


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--field", default=os.path.join(ROOT, "build", "bin", "field"))
    p.add_argument("--out", default=os.path.join(ROOT, "runs", "validation"))
    args = p.parse_args()
    in_ds = [(f"A = {A:3d}, ds = {L / A:g} m, dt = 1e-4 s", run(args.field, args.out, A, 1e-4)) for A in (10, 20, 40)]
    orders("ds (dt = 1e-4 s):", in_ds)
    in_dt = [(f"A = 160, dt = {dt:g} s", run(args.field, args.out, 160, dt)) for dt in (4e-4, 2e-4, 1e-4)]
    orders("dt (A = 160, ds = 0.0625 m; the ds error, about 1.8e-4 m here, is a floor):", in_dt)
    # In dt alone: at one ds the ds error cancels from the differences of successive halvings.
    rich = [run(args.field, args.out, 40, dt) for dt in (1e-3, 5e-4, 2.5e-4, 1.25e-4)]
    diffs = [np.linalg.norm(rich[i][2] - rich[i + 1][2], axis=2).max() for i in range(3)]
    print("dt (A = 40, ds = 0.25 m), max |x(dt) - x(dt/2)| over 2 s for dt = 1e-3, 5e-4, 2.5e-4 s: "
          + ", ".join(f"{d:.3e} m" for d in diffs)
          + "; orders " + ", ".join(f"{np.log2(diffs[i] / diffs[i + 1]):.2f}" for i in range(2)))
    shipped = run(args.field, args.out, 20, 1e-3)
    print(f"shipped case (A = 20, dt = 1e-3): max error {shipped[1].max():.3e} m, wall {shipped[3]:.2f} s")
    k = W * np.sqrt(RHOA / EA)
    print(f"exact spinning length 2 r(L/2) = {2 * np.tan(k * L / 2) / k:.6f} m")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(1, 2, figsize=(10, 3.8))
    for key, (t, err, xyz, wall) in in_ds:
        ax[0].semilogy(t, err, lw=1, label=key)
    for key, (t, err, xyz, wall) in in_dt:
        ax[0].semilogy(t, err, "--", lw=1, label=key)
    ax[0].set_xlabel("t [s]")
    ax[0].set_ylabel("max |x - x_exact| over the nodes [m]")
    ax[0].legend(fontsize=6)
    ax[0].grid(alpha=0.3)
    hs = np.array([L / A for A in (10, 20, 40)])
    ax[1].loglog(hs, [r[1][1].max() for r in in_ds], "o-", label="in ds (dt = 1e-4 s)")
    ax[1].loglog(hs, [in_ds[0][1][1].max() * (h / hs[0]) ** 2 for h in hs], "k:", label="slope 2")
    dts = np.array([4e-4, 2e-4, 1e-4])
    ax[1].loglog(np.array([1e-3, 5e-4, 2.5e-4]) * 1000, diffs, "s-",
                 label="in dt: |x(dt) - x(dt/2)|, ds = 0.25 m; x axis 1000 dt")
    ax[1].set_xlabel("ds [m] (or 1000 dt [s])")
    ax[1].set_ylabel("max error [m]")
    ax[1].legend(fontsize=7)
    ax[1].grid(alpha=0.3, which="both")
    fig.tight_layout()
    path = os.path.join(ROOT, "docs", "validation", "images", "spinning_beam.png")
    fig.savefig(path, dpi=110)
    print("wrote", path)


if __name__ == "__main__":
    main()
