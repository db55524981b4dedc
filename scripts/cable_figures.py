#!/usr/bin/env python3
"""The measured figures of docs/cable.md, from the cable tests (tests/dcel/test_cable.cpp).

  /usr/bin/python3 scripts/cable_figures.py --tests build/tests/test_dcel --out runs/cable \
      [--plot docs/images/cable_catenary.png]

Runs `test_dcel --gtest_filter=Cable.*` with FIELD_CABLE_CSV=OUT, which writes the elastic
catenary (Irvine 1981, theory (1.8.9)) and the row reached after a 0.1 s march from it at rest
(A = 16, 32, 64); parses the convergence figures the tests print; prints them as a markdown table
with the observed orders, and the energy error of the swinging cable; --plot draws the catenary against the inextensible one with the marched
nodes, the distance to the catenary scaled by (A/16)^2 (the curves collapse: O(ds^2)), and every
error against ds, and next to it cable_swinging.png: the swinging cable every 0.1 s and its
energy error.
"""
import argparse
import math
import pathlib
import re
import subprocess

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESOLUTIONS = (16, 32, 64)
# The parameters of the tests: EA [N], rho A [kg/m], g [m/s^2], H [N], V [N], length [m].
EA, RHOA, G, H, LENGTH = 100.0, 1.0, 9.81, 5.0, 1.0
W = RHOA * G
V = 0.3 * W * LENGTH


def catenary(s, ea=EA):
    """Theory (1.8.9); ea = inf gives the inextensible chain with the same H and V."""
    u, u0 = (W * s - V) / H, V / H
    stretch = 0.0 if math.isinf(ea) else 1.0 / ea
    x = H * s * stretch + H / W * (np.arcsinh(u) + np.arcsinh(u0))
    z = (0.5 * W * s * s - V * s) * stretch + H / W * (np.sqrt(1 + u * u) - np.sqrt(1 + u0 * u0))
    return x, z


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tests", default=str(ROOT / "build/tests/test_dcel"))
    parser.add_argument("--out", default=str(ROOT / "runs/cable"))
    parser.add_argument("--plot", help="write the figure to this PNG")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env = {"FIELD_CABLE_CSV": str(out), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([args.tests, "--gtest_filter=Cable.*"], env=env, capture_output=True,
                         text=True)
    if run.returncode != 0:
        raise SystemExit(run.stdout + run.stderr)
    series, energy = {}, None
    for line in run.stdout.splitlines():
        m = re.match(r"swinging cable, 1 s: max \|E_j - E_0\| (\S+) (\S+) (\S+) J \(dt = (\S+) s",
                     line)
        if m:
            energy = [float(v) for v in m.groups()]
        m = re.match(r"(.*): (?:max displacement|max deviation|relative error) (\S+) (\S+) (\S+)",
                     line)
        if m:
            series[m.group(1)] = [float(v) for v in m.groups()[1:]]
    print("| quantity | A = 16 | A = 32 | A = 64 | orders |")
    print("|---|---|---|---|---|")
    for name, e in series.items():
        orders = ", ".join(f"{math.log2(e[k] / e[k + 1]):.2f}" for k in range(2))
        print(f"| {name} | " + " | ".join(f"{v:.3e}" for v in e) + f" | {orders} |")

    if energy:
        e = energy[:3]
        print(f"\nswinging cable, 1 s, A = 16: max |E_j - E_0| = {e[0]:.3e}, {e[1]:.3e}, {e[2]:.3e} J "
              f"for dt = {energy[3]:g} s, /2, /4 (orders {math.log2(e[0] / e[1]):.2f}, "
              f"{math.log2(e[1] / e[2]):.2f})")
    rows = {A: np.genfromtxt(out / f"catenary_A{A}.csv", delimiter=",", names=True)
            for A in RESOLUTIONS}
    for A, r in rows.items():  # the test's catenary is (1.8.9): check the script's formula
        x, z = catenary(r["s"])
        assert np.allclose(x, r["x_catenary"], atol=1e-14) and np.allclose(
            z, r["z_catenary"], atol=1e-14), A
    if not args.plot:
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(1, 3, figsize=(15, 4.4))
    s = np.linspace(0, LENGTH, 400)
    ax[0].plot(*catenary(s), "k-", label="elastic catenary (1.8.9), EA = 100 N")
    ax[0].plot(*catenary(s, math.inf), "k--", lw=0.8, label="inextensible chain, same H, V")
    r = rows[16]
    ax[0].plot(r["x"], r["z"], "o", color="C3", ms=5, label="cable after a 0.1 s march, A = 16")
    ax[0].set_xlabel("x [m]")
    ax[0].set_ylabel("z [m]")
    ax[0].set_aspect("equal")
    ax[0].legend(fontsize=8, loc="upper left")
    ax[0].set_title("hanging cable, H = 5 N, V = 0.3 w")
    for A, r in rows.items():
        d = np.hypot(r["x"] - r["x_catenary"], r["z"] - r["z_catenary"])
        ax[1].plot(r["s"], d * (A / 16) ** 2, "o-", ms=3, label=f"A = {A}")
    ax[1].set_xlabel("s [m] (unstretched)")
    ax[1].set_ylabel("|r - r_catenary| (A/16)^2 [m] at t = 0.1 s")
    ax[1].set_title("distance to the catenary: O(ds^2)")
    ax[1].legend(fontsize=8)
    ds = np.array([LENGTH / A for A in RESOLUTIONS])
    for name, e in series.items():
        ax[2].loglog(ds, e, "o-", label=name)
    ax[2].loglog(ds, 0.5 * series[next(iter(series))][0] * (ds / ds[0]) ** 2, "k:",
                 label="slope 2")
    ax[2].set_xlabel("ds [m]")
    ax[2].set_title("errors (m or relative) against ds")
    ax[2].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.plot, dpi=110)
    print(f"wrote {args.plot}")

    # The swinging cable: snapshots every 0.1 s and E_j - E_0 (theory (8.2)).
    d = np.genfromtxt(out / "swinging.csv", delimiter=",", names=True)
    A = (len(d.dtype.names) - 3) // 2 - 1  # columns j, t, dE and x, z of nodes 0..A
    x = np.array([d[f"x{a}"] for a in range(A + 1)]).T
    z = np.array([d[f"z{a}"] for a in range(A + 1)]).T
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.4), gridspec_kw={"width_ratios": [1.2, 1]})
    pick = [k for k in range(len(d)) if abs(d["t"][k] * 10 - round(d["t"][k] * 10)) < 1e-9]
    colours = plt.cm.viridis(np.linspace(0, 1, len(pick)))
    for c, k in zip(colours, pick):
        ax[0].plot(x[k, :A], z[k, :A], "o-", ms=2.5, color=c, label=f"t = {d['t'][k]:.1f} s")
    ax[0].plot([0], [0], "k^", ms=8)
    ax[0].set_aspect("equal")
    ax[0].set_xlabel("x [m]")
    ax[0].set_ylabel("z [m]")
    ax[0].set_title("cable pinned at one end, released horizontal (A = 16)")
    ax[0].legend(fontsize=7, ncol=2, loc="lower right")
    ax[1].plot(d["t"], d["dE"], "-")
    ax[1].set_xlabel("t [s]")
    ax[1].set_ylabel("E_j - E_0 [J]  (released: 4.9 J)")
    ax[1].set_title(f"energy (8.2), dt = {energy[3]:g} s" if energy else "energy (8.2)")
    fig.tight_layout()
    second = pathlib.Path(args.plot).with_name("cable_swinging.png")
    fig.savefig(second, dpi=110)
    print(f"wrote {second}")


if __name__ == "__main__":
    main()
