#!/usr/bin/env python3
"""Right-angle cantilever (Simo & Vu-Quoc 1988): full runs, comparison with the digitised
published histories (meshes/right_angle/reference.csv) and the plot of
docs/validation/right_angle.md.

  python3 scripts/validation/right_angle.py [--field build/bin/field] [--out runs/validation]
                                            [--levels 3] [--T 30] [--corner node|segment]
                                            [--no-plot] [--expect-order LO,HI]
                                            [--retraction cayley|exp] [--readings]

Runs the shipped case (A = 21, ds = 40/41 m, dt = ds/2000) and the same beam with A = 41 and 81
(ds = 20/(A - 1/2), dt with it): the stress-free shape and the section table of
meshes/right_angle/make_polyline.py, both legs exactly 10 m, the elbow on node n = (A - 1)/2
(theory §1.6, "A corner on a node"), the load and the elbow's displacement there. --corner
segment runs the former representation instead: uniform segments, the corner inside segment n a
quarter past node n, the plain section, the load shared 3/4, 1/4 between nodes n and n + 1 and
the elbow read the same way (observed order 1). Prints the elbow and tip histories' differences
from the reference and the self-convergence in ds (over the first T seconds, --T), and writes
docs/validation/images/right_angle.png (full runs of the shipped representation only).
--expect-order LO,HI exits 1 unless every observed order (elbow and tip) lies in [LO, HI].
--retraction exp runs the case with the exponential retraction and the corner law pulled back
for it (theory (1.6.5)); --readings runs the source's parameters read otherwise (READINGS: rho J
on other axes, a follower load) at A = 21 and draws docs/validation/images/right_angle_readings.png.
Every run prints the delay of the reference that best fits it, per 10 s window.
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
sys.path.insert(0, CASE)
import make_polyline  # noqa: E402

# --corner segment: the plain section of the former case and its load shared 3/4, 1/4
SECTION = """[beam]
section = "stiffness"
EA = 1.0e6
GA1 = 1.0e6
GA2 = 1.0e6
GJ = 1.0e3
EI1 = 1.0e3
EI2 = 1.0e3
rhoA = 1.0
rhoJ1 = 10.0
rhoJ2 = 10.0
rhoJ3 = 20.0

"""
SPLIT_LOAD = """[[loads.point]]
node = {n}
frame = "world"
times = [0.0, 1.0, 2.0]
wrenches = [[0, 0, 0, 0, 0, 0], [0, 0, 0, 37.5, 0, 0], [0, 0, 0, 0, 0, 0]]

[[loads.point]]
node = {n1}
frame = "world"
times = [0.0, 1.0, 2.0]
wrenches = [[0, 0, 0, 0, 0, 0], [0, 0, 0, 12.5, 0, 0], [0, 0, 0, 0, 0, 0]]

"""


# --readings: the source's parameters read otherwise (docs/validation/right_angle.md). rho J is
# (d1, d2, d3) in each leg's frame: d3 the axis, d1 = e1 the out-of-plane direction (bending
# about d1 is in the plane), d2 the axis of out-of-plane bending.
READINGS = {
    "shipped": ("rho J = (10, 10, 20): torsion 20 (the codes' reading)", (10.0, 10.0, 20.0), "world"),
    "inplane20": ("rho J = (20, 10, 10): in-plane bending 20, torsion 10", (20.0, 10.0, 10.0), "world"),
    "outofplane20": ("rho J = (10, 20, 10): out-of-plane bending 20, torsion 10", (10.0, 20.0, 10.0), "world"),
    "all10": ("rho J = (10, 10, 10)", (10.0, 10.0, 10.0), "world"),
    "follower": ("rho J = (10, 10, 20), the load a follower (frame body)", (10.0, 10.0, 20.0), "body"),
}


def time_shift(t, u, r, lo, hi):
    """The delay tau [s] (to 0.01 s, |tau| <= 1.5 s) that best fits the reference points r in
    [lo, hi) by our history delayed, u(t - tau), and the RMS difference there before and after."""
    r = r[(r[:, 0] >= lo) & (r[:, 0] < hi)]
    taus = np.arange(-150, 151) * 0.01
    rms = [np.sqrt(np.mean((np.interp(r[:, 0] - tau, t, u) - r[:, 1]) ** 2)) for tau in taus]
    k = int(np.argmin(rms))
    return taus[k], rms[150], rms[k]


def print_shifts(t, e, tip, ref, label="reference"):
    for name, u in (("elbow", e), ("tip", tip)):
        parts = []
        for lo, hi in ((0.0, 10.0), (10.0, 20.0), (20.0, 30.1)):
            if t[-1] < hi - 0.1:
                continue
            tau, before, after = time_shift(t, u, ref[name], lo, hi)
            parts.append(f"[{lo:g}, {min(hi, 30):g}) s: {tau:+.2f} s (rms {before:.2f} -> {after:.2f} m)")
        if parts:
            print(f"    {name}: {label} delay fitted " + "; ".join(parts))


def print_digitisations(ref, ref2):
    """The second digitisation against the first (its points against the first's polyline)."""
    print("second digitisation (dynLattice) against the first (AeroBeams):")
    for name in ("elbow", "tip"):
        r1, r2 = ref[name], ref2[name]
        diff = np.interp(r2[:, 0], r1[:, 0], r1[:, 1]) - r2[:, 1]
        print(f"    {name}: rms diff {np.sqrt(np.mean(diff ** 2)):.3f} m, max {np.abs(diff).max():.3f} m")
    for name in ("elbow", "tip"):
        parts = []
        for lo, hi in ((0.0, 10.0), (10.0, 20.0), (20.0, 30.1)):
            tau, before, after = time_shift(ref[name][:, 0], ref[name][:, 1], ref2[name], lo, hi)
            parts.append(f"[{lo:g}, {min(hi, 30):g}) s: {tau:+.2f} s (rms {before:.2f} -> {after:.2f} m)")
        print(f"    {name}: its delay against the first " + "; ".join(parts))


def reference(file="reference.csv"):
    """A digitisation of the published histories: reference.csv (AeroBeams') or
    reference_dynlattice.csv (dynLattice's), {"elbow", "tip"}: rows (t, u)."""
    rows = [l.split(",") for l in open(os.path.join(CASE, file))
            if not l.startswith("#") and not l.startswith("point")]
    out = {}
    for name in ("elbow", "tip"):
        pts = np.array([[float(r[1]), float(r[2])] for r in rows if r[0] == name])
        out[name] = pts
    return out


def histories(folder, elbow, A, corner):
    """Out-of-plane (e1) displacement of the elbow s = 10 m (node elbow; --corner segment: 3/4
    node elbow + 1/4 node elbow + 1, linear in s) and of the free end s = (A - 1/2) ds (mean of
    nodes A-1 and A) against t."""
    d = np.genfromtxt(os.path.join(folder, "field.csv"), delimiter=",", names=True)
    t = np.unique(d["t"])
    x = d["x"].reshape(len(t), A + 1)
    w = 0.0 if corner == "node" else 0.25
    return t, (1 - w) * x[:, elbow] + w * x[:, elbow + 1], 0.5 * (x[:, A - 1] + x[:, A])


def write_csv(path, header, rows):
    with open(path, "w") as f:
        f.write(header + "\n")
        for r in rows:
            f.write(",".join("%.17g" % v for v in r) + "\n")


def run(field, out, refine, T, corner="node", retraction="cayley", reading=None):
    """The shipped case with A = 20 refine + 1 (ds = 20/(A - 1/2), dt = ds/2000), for T s, with
    the given retraction (the corner law of the table made for it) and, for --readings, one of
    READINGS' variants of the source's parameters."""
    text = open(os.path.join(CASE, "case.toml")).read()
    A = 20 * refine + 1
    elbow = (A - 1) // 2
    ds = 20.0 / (A - 0.5)
    dt = ds / 2000.0
    J = int(round(T / dt))
    rho_j, load_frame = READINGS[reading][1:] if reading else (make_polyline.RHO_J, "world")
    tag = "" if retraction == "cayley" else "_" + retraction
    tag += "" if reading is None else "_" + reading
    folder = os.path.join(out, f"right_angle_{corner}_A{A}_T{T:g}{tag}")
    os.makedirs(folder, exist_ok=True)
    polyline = os.path.join(folder, "polyline.csv")
    write_csv(polyline, "s,x,y,z,qw,qx,qy,qz", make_polyline.polyline(A, corner))
    text = text.replace('polyline = "polyline.csv"', f'polyline = "{polyline}"')
    if corner == "node":
        table = os.path.join(folder, "table.csv")
        names = [f"{k}{i}{j}" for k in "KM" for i in range(1, 7) for j in range(i, 7)]
        write_csv(table, "a," + ",".join(names),
                  [[a] + r for a, r in enumerate(make_polyline.table(A, retraction, rho_j))])
        text = text.replace('file = "table.csv"', f'file = "{table}"')
    else:
        i, j = text.index("[beam]"), text.index("[shape]")
        text = text[:i] + SECTION + text[j:]
        i, j = text.index("[[loads.point]]"), text.index("[output]")
        text = text[:i] + SPLIT_LOAD.format(n=elbow, n1=elbow + 1) + text[j:]
    text = re.sub(r"\nA = 21", f"\nA = {A}", text)
    text = re.sub(r"\ndt = [0-9.e-]+", f"\ndt = {dt!r}", text)
    text = re.sub(r"\nJ = 61500", f"\nJ = {J}", text)
    text = re.sub(r"\nnode = 10 ", f"\nnode = {elbow} ", text)
    text = re.sub(r"stride = 20\n", f"stride = {20 * refine}\n", text)
    text = text.replace('retraction = "cayley"', f'retraction = "{retraction}"')
    text = text.replace('frame = "world"', f'frame = "{load_frame}"')
    wall, run_folder = common.run_field(field, "simulate", text, folder, ("--threads", "1"))
    return histories(run_folder, elbow, A, corner), wall, ds


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--field", default=os.path.join(ROOT, "build", "bin", "field"))
    p.add_argument("--out", default=os.path.join(ROOT, "runs", "validation"))
    p.add_argument("--levels", type=int, default=3)
    p.add_argument("--T", type=float, default=30.0, help="duration [s] (30: the published span)")
    p.add_argument("--corner", choices=("node", "segment"), default="node")
    p.add_argument("--no-plot", action="store_true")
    p.add_argument("--expect-order", help="LO,HI: fail unless every observed order is in it")
    p.add_argument("--retraction", choices=("cayley", "exp"), default="cayley",
                   help="the case's retraction, the corner law made for it (theory (1.6.5))")
    p.add_argument("--readings", action="store_true",
                   help="run the source's parameters read otherwise (READINGS) at A = 21 and "
                        "draw docs/validation/images/right_angle_readings.png")
    args = p.parse_args()
    ref, ref2 = reference(), reference("reference_dynlattice.csv")
    print_digitisations(ref, ref2)
    if args.readings:
        readings(args, ref, ref2)
        return
    runs = []
    for k in range(args.levels):
        (t, e, tip), wall, ds = run(args.field, args.out, 2 ** k, args.T, args.corner,
                                    args.retraction)
        runs.append((t, e, tip, ds))
        line = f"ds = {ds:<8.6g} wall {wall:6.2f} s"
        for name, u in (("elbow", e), ("tip", tip)):
            r = ref[name]
            r = r[r[:, 0] <= t[-1]]
            diff = np.interp(r[:, 0], t, u) - r[:, 1]
            line += f"  {name}: rms diff {np.sqrt(np.mean(diff ** 2)):.3f} m, max {np.abs(diff).max():.3f} m"
        print(line)
        line = "    second digitisation:"
        for name, u in (("elbow", e), ("tip", tip)):
            r = ref2[name][ref2[name][:, 0] <= t[-1]]
            diff = np.interp(r[:, 0], t, u) - r[:, 1]
            line += f"  {name}: rms diff {np.sqrt(np.mean(diff ** 2)):.3f} m, max {np.abs(diff).max():.3f} m"
        print(line)
        for name, u in (("elbow", e), ("tip", tip)):
            i = np.argmax(u); j = np.argmin(u)
            print(f"    {name}: max {u[i]:.3f} m at t = {t[i]:.2f} s, min {u[j]:.3f} m at t = {t[j]:.2f} s")
        print_shifts(t, e, tip, ref)
        print_shifts(t, e, tip, ref2, "second digitisation")
    t0 = runs[0][0]
    orders = []
    for k in range(1, len(runs) - 1):
        for name, col in (("elbow", 1), ("tip", 2)):
            u = [np.interp(t0, r[0], r[col]) for r in runs[k - 1:k + 2]]
            d1 = np.abs(u[1] - u[0]).max()
            d2 = np.abs(u[2] - u[1]).max()
            # ds halves up to the A - 1/2 factor: log of the ds ratio, not log2
            ratio = runs[k - 1][3] / runs[k][3]
            orders.append(np.log(d1 / d2) / np.log(ratio))
            print(f"{name} self-convergence: max |u(A = {20 * 2 ** (k - 1) + 1}) - u(A = {20 * 2 ** k + 1})| = {d1:.4f} m, "
                  f"next {d2:.4f} m, order {orders[-1]:.2f}")
    if args.expect_order:
        lo, hi = (float(v) for v in args.expect_order.split(","))
        if not orders or not all(lo <= o <= hi for o in orders):
            print(f"FAIL: observed orders {['%.2f' % o for o in orders]} not all in [{lo}, {hi}]")
            sys.exit(1)
        print(f"observed orders in [{lo}, {hi}]")
    if args.T < 30.0 or args.no_plot or args.corner != "node" or args.retraction != "cayley":
        return
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot")
        return
    fig, ax = plt.subplots(figsize=(8, 4.5))
    styles = ["-", "--", ":"]
    for k, (t, e, tip, ds) in enumerate(runs):
        ax.plot(t, e, "C0" + styles[k % 3], lw=1.2, label=f"libfield elbow, ds = {ds:.3g} m")
        ax.plot(t, tip, "C1" + styles[k % 3], lw=1.2, label=f"libfield tip, ds = {ds:.3g} m")
    ax.plot(*ref["elbow"].T, "o", color="C0", ms=3.5, label="Simo & Vu-Quoc (1988), elbow (digitised)")
    ax.plot(*ref["tip"].T, "s", color="C1", ms=3.5, label="Simo & Vu-Quoc (1988), tip (digitised)")
    ax.plot(*ref2["elbow"].T, "^", color="C0", mfc="none", ms=4, label="elbow, second digitisation (dynLattice)")
    ax.plot(*ref2["tip"].T, "^", color="C1", mfc="none", ms=4, label="tip, second digitisation (dynLattice)")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("out-of-plane displacement [m]")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    path = os.path.join(ROOT, "docs", "validation", "images", "right_angle.png")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=110)
    print("wrote", path)


def readings(args, ref, ref2):
    """Each reading of READINGS at A = 21 over T: extremes, RMS against the reference, fitted
    delays, and the figure of the tip and elbow histories."""
    res = {}
    for name, (label, _, _) in READINGS.items():
        (t, e, tip), wall, ds = run(args.field, args.out, 1, args.T, reading=name)
        res[name] = (t, e, tip)
        print(f"{name}: {label} (A = 21, wall {wall:.2f} s)")
        for hname, u in (("elbow", e), ("tip", tip)):
            r = ref[hname][ref[hname][:, 0] <= t[-1]]
            diff = np.interp(r[:, 0], t, u) - r[:, 1]
            i, j = np.argmax(u), np.argmin(u)
            print(f"    {hname}: rms diff {np.sqrt(np.mean(diff ** 2)):.3f} m, max {u[i]:.3f} m at "
                  f"{t[i]:.2f} s, min {u[j]:.3f} m at {t[j]:.2f} s")
        print_shifts(t, e, tip, ref)
        print_shifts(t, e, tip, ref2, "second digitisation")
    if args.T < 30.0 or args.no_plot:
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for ax, hname, col in ((axes[0], "tip", 2), (axes[1], "elbow", 1)):
        for k, (name, (label, _, _)) in enumerate(READINGS.items()):
            ax.plot(res[name][0], res[name][col], f"C{k}", lw=1.6 if name == "shipped" else 1.0,
                    label=label)
        ax.plot(*ref[hname].T, "ks", ms=3.5, label="Simo & Vu-Quoc (1988), digitised (AeroBeams)")
        ax.plot(*ref2[hname].T, "k^", mfc="none", ms=4, label="the same, digitised (dynLattice)")
        ax.set_ylabel(f"{hname}: out-of-plane displacement [m]")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    axes[1].set_xlabel("t [s]")
    fig.tight_layout()
    path = os.path.join(ROOT, "docs", "validation", "images", "right_angle_readings.png")
    fig.savefig(path, dpi=100)
    print("wrote", path)


if __name__ == "__main__":
    main()
