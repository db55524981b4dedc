#!/usr/bin/python3
"""Accuracy against time, the way users compare codes (issue 18, docs/performance.md).

An undamped cantilever (circular section R = 0.025 m, L = 1 m, E = 1e5 Pa, nu = 0.35,
rho = 1000 kg/m^3, shear factor 27/28) starts straight with a small velocity in the shape of its
first three bending modes (Timoshenko theory) and moves freely for 10 periods of the first mode
(143 s). For each resolution A the script writes the case, runs the whole `field simulate`
process on one thread (wall time measured around the process), reads tip.csv, fits the first
three frequencies to the tip's motion and reports their relative errors against the exact
Timoshenko frequencies: a table (Markdown, CSV) and a plot of error against wall time on which
any other code can be placed.

    /usr/bin/python3 scripts/accuracy_vs_time.py                      # A = 10 .. 160
    /usr/bin/python3 scripts/accuracy_vs_time.py --resolutions 20,40 --periods 3
    /usr/bin/python3 scripts/accuracy_vs_time.py --self-test          # the analysis only

The beam is clamped at a = A and free at a = 0, so that tip.csv (node a = 0, at s = ds/2 from
the free end, docs/output-format.md) carries the motion. Node placement: L = (A + 1/2) ds
(meshes/README.md). Outputs: tip.csv at every step, the series (energy, momentum, Noether
balance) on about 1000 rows (`series_stride`), no field.csv and no VTK files, as a user of any code
records what the comparison needs. dt = cfl * (largest stable dt) with the stability limit of the time march,
min(ds/c_E, 2/omega_c) (docs/theory.md). Needs numpy; matplotlib for the plot (Debian:
python3-numpy, python3-matplotlib).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

import numpy as np

# ---- The beam of the comparison (issue 18) ------------------------------------------------
BEAM = dict(R=0.025, L=1.0, E=1.0e5, nu=0.35, rho=1000.0, k=27.0 / 28.0)


def section(beam):
    """Area, second moment, shear modulus of the circular section."""
    area = math.pi * beam["R"] ** 2
    inertia = math.pi * beam["R"] ** 4 / 4.0
    shear = beam["E"] / (2.0 * (1.0 + beam["nu"]))
    return area, inertia, shear


# ---- Exact Timoshenko frequencies of a clamped-free beam ------------------------------------
# kGA (W'' - Psi') + rho A w^2 W = 0,  EI Psi'' + kGA (W' - Psi) + rho I w^2 Psi = 0,
# clamped at sigma = 0 (W = Psi = 0), free at sigma = L (EI Psi' = 0, kGA (W' - Psi) = 0).
# Below the cut-off w^2 < kGA/(rho I), W = C1 cosh(al s) + C2 sinh(al s) + C3 cos(be s)
# + C4 sin(be s) with al^2 = mu1 > 0, -be^2 = mu2 < 0 the roots of
# kGA EI mu^2 + (kGA rho I + rho A EI) w^2 mu + rho A w^2 (rho I w^2 - kGA) = 0,
# and Psi' = W'' + r W with r = rho A w^2 / (kGA).
class Timoshenko:
    def __init__(self, EI, kGA, rhoA, rhoI, L):
        self.EI, self.kGA, self.rhoA, self.rhoI, self.L = EI, kGA, rhoA, rhoI, L

    @classmethod
    def of(cls, beam):
        area, inertia, shear = section(beam)
        return cls(beam["E"] * inertia, beam["k"] * shear * area, beam["rho"] * area,
                   beam["rho"] * inertia, beam["L"])

    def wavenumbers(self, w):
        a = self.kGA * self.EI
        b = (self.kGA * self.rhoI + self.rhoA * self.EI) * w * w
        c = self.rhoA * w * w * (self.rhoI * w * w - self.kGA)
        disc = math.sqrt(b * b - 4.0 * a * c)
        mu1 = (-b + disc) / (2.0 * a)
        mu2 = (-b - disc) / (2.0 * a)
        if mu1 <= 0.0:
            raise ValueError("frequency above the Timoshenko cut-off")
        return math.sqrt(mu1), math.sqrt(-mu2), self.rhoA * w * w / self.kGA

    def basis(self, w, s):
        """W and Psi of the four basis solutions at s (arrays of shape (4,) + s.shape)."""
        al, be, r = self.wavenumbers(w)
        s = np.asarray(s, dtype=float)
        W = np.array([np.cosh(al * s), np.sinh(al * s), np.cos(be * s), np.sin(be * s)])
        ka, kb = (al * al + r) / al, (r - be * be) / be
        P = np.array([ka * np.sinh(al * s), ka * np.cosh(al * s), kb * np.sin(be * s),
                      -kb * np.cos(be * s)])
        dP = np.array([ka * al * np.cosh(al * s), ka * al * np.sinh(al * s),
                       kb * be * np.cos(be * s), kb * be * np.sin(be * s)])
        dW = np.array([al * np.sinh(al * s), al * np.cosh(al * s), -be * np.sin(be * s),
                       be * np.cos(be * s)])
        return W, P, dW, dP

    def boundary_matrix(self, w):
        W0, P0, _, _ = self.basis(w, 0.0)
        WL, PL, dWL, dPL = self.basis(w, self.L)
        M = np.array([W0, P0, dPL, dWL - PL])
        return M / np.abs(M).max(axis=1, keepdims=True)

    def frequencies(self, n):
        """The first n angular frequencies [rad/s]: sign changes of det on a fine scan, then
        bisection to round-off."""
        w_eb = math.sqrt(self.EI / (self.rhoA * self.L ** 4))  # Euler-Bernoulli scale
        cutoff = math.sqrt(self.kGA / self.rhoI)
        det = lambda w: np.linalg.det(self.boundary_matrix(w))
        roots, grid = [], np.linspace(0.5 * w_eb, min(cutoff * 0.999, (4 * n) ** 2 * w_eb), 20000)
        values = [det(w) for w in grid]
        for i in range(len(grid) - 1):
            if values[i] == 0.0 or values[i] * values[i + 1] < 0.0:
                lo, hi, flo = grid[i], grid[i + 1], values[i]
                for _ in range(200):
                    mid = 0.5 * (lo + hi)
                    fm = det(mid)
                    if (fm < 0.0) == (flo < 0.0):
                        lo, flo = mid, fm
                    else:
                        hi = mid
                    if hi - lo <= 4e-16 * hi:
                        break
                roots.append(0.5 * (lo + hi))
                if len(roots) == n:
                    return np.array(roots)
        raise RuntimeError("fewer than %d frequencies below the cut-off" % n)

    def mode(self, w):
        """Mode shape (W, Psi) at frequency w as functions of sigma, max |W| = 1."""
        M = self.boundary_matrix(w)
        _, _, vt = np.linalg.svd(M)
        c = vt[-1]
        sig = np.linspace(0.0, self.L, 2001)
        Wn = np.abs(c @ self.basis(w, sig)[0]).max()
        c = c / Wn
        return (lambda s: c @ self.basis(w, s)[0]), (lambda s: c @ self.basis(w, s)[1])


# ---- Frequencies of a sampled signal: variable projection (sum of sinusoids + offset) -------
def fit_frequencies(t, x, guesses, iterations=50):
    """Least-squares frequencies of x(t) = c + sum_k (a_k cos w_k t + b_k sin w_k t), started
    from `guesses`; Gauss-Newton on the frequencies with the amplitudes solved linearly."""
    w = np.array(guesses, dtype=float)
    tc = t - t.mean()

    def design(w):
        cols = [np.ones_like(t)]
        for wk in w:
            cols += [np.cos(wk * tc), np.sin(wk * tc)]
        return np.array(cols).T

    for _ in range(iterations):
        D = design(w)
        coef, *_ = np.linalg.lstsq(D, x, rcond=None)
        res = x - D @ coef
        # d(model)/d w_k = tc (-a_k sin + b_k cos)
        Jw = np.array([tc * (-coef[1 + 2 * k] * np.sin(wk * tc) + coef[2 + 2 * k] * np.cos(wk * tc))
                       for k, wk in enumerate(w)]).T
        # project out the amplitude directions (variable projection)
        Q, _ = np.linalg.qr(D)
        Jp = Jw - Q @ (Q.T @ Jw)
        step, *_ = np.linalg.lstsq(Jp, res, rcond=None)
        w = w + step
        if np.all(np.abs(step) <= 1e-13 * np.abs(w)):
            break
    D = design(w)
    coef, *_ = np.linalg.lstsq(D, x, rcond=None)
    rms = float(np.sqrt(np.mean((x - D @ coef) ** 2)) / max(np.abs(x - x.mean()).max(), 1e-300))
    return w, rms


# ---- One run -------------------------------------------------------------------------------
def case_text(A, ds, dt, J, beam, series_stride):
    return f"""# Written by scripts/accuracy_vs_time.py: the undamped cantilever of issue 18, clamped at
# a = A, free at a = 0, started straight with a velocity in its first three Timoshenko modes.
format = 1
name = "cantilever_modes_A{A}"
march = "time"
retraction = "cayley"

[beam]
section = "circle"
radius = {beam['R']!r}
shear_factor = {beam['k']!r}
E = {beam['E']!r}
nu = {beam['nu']!r}
rho = {beam['rho']!r}

[grid]
A = {A}
ds = {ds!r}
dt = {dt!r}
J = {J}

[boundary]
left = "free"
right = "clamped"

[initial]
configuration = "straight"
axis = [0.0, 0.0, 1.0]
velocity = "file"
velocity_file = "velocities.csv"

[output]                 # what the comparison needs: the tip's motion at every step
csv = false
vtk = false
tip = true
series_stride = {series_stride}    # energy, momentum, balance every so many rows (about 1000 lines)
"""


def write_case(folder, A, cfl, periods, beam, theory, omegas, amplitude):
    L = beam["L"]
    ds = L / (A + 0.5)  # free left end, clamped right end (meshes/README.md)
    area, inertia, shear = section(beam)
    c_E = math.sqrt(beam["E"] / beam["rho"])
    omega_c = math.sqrt(beam["k"] * shear * area / (beam["rho"] * inertia))
    dt_max = min(ds / c_E, 2.0 / omega_c)
    T = periods * 2.0 * math.pi / omegas[0]
    J = int(math.ceil(T / (cfl * dt_max)))
    dt = T / J
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "case.toml"), "w") as f:
        f.write(case_text(A, ds, dt, J, beam, max(1, J // 1000)))
    # s_a = (a + 1/2) ds from the free end; sigma = L - s from the clamp. Transverse velocity
    # along e1 = d1, rotation rate about e2 = d2: dx/ds = +psi, so psi_s = -Psi_sigma.
    s = (np.arange(A + 1) + 0.5) * ds
    sigma = np.clip(L - s, 0.0, L)
    v1 = np.zeros(A + 1)
    w2 = np.zeros(A + 1)
    for k, w in enumerate(omegas):
        Wf, Pf = theory.mode(w)
        v1 += amplitude * w * Wf(sigma)  # displacement amplitude `amplitude` in every mode
        w2 -= amplitude * w * Pf(sigma)
    v1[A] = w2[A] = 0.0  # the clamped node
    with open(os.path.join(folder, "velocities.csv"), "w") as f:
        f.write("a,w1,w2,w3,v1,v2,v3\n")
        for a in range(A + 1):
            f.write(f"{a},0,{w2[a]!r},0,{v1[a]!r},0,0\n")
    return dict(A=A, ds=ds, dt=dt, J=J, node_updates=J * A)


def run_case(field, folder, threads):
    out = os.path.join(folder, "run")
    cmd = [field, "simulate", os.path.join(folder, "case.toml"), "--out", out, "--force", "-q",
           "--threads", str(threads)]
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr}")
    data = np.genfromtxt(os.path.join(out, "tip.csv"), delimiter=",", names=True)
    return wall, data["t"], data["x"]


def measure(field, workdir, A, args, beam, theory, omegas):
    folder = os.path.join(workdir, f"A{A}")
    info = write_case(folder, A, args.cfl, args.periods, beam, theory, omegas, args.amplitude)
    walls, t, x = [], None, None
    for _ in range(args.repeat):
        wall, t, x = run_case(field, folder, args.threads)
        walls.append(wall)
    fitted, rms = fit_frequencies(t, x, omegas)
    info.update(wall_s=float(np.median(walls)), walls=walls, fit_rms=rms,
                errors=[abs(f / w - 1.0) for f, w in zip(fitted, omegas)],
                fitted=list(map(float, fitted)))
    return info


def shooting_frequencies(th, guesses, steps=2000):
    """The frequencies near `guesses` by shooting: y = (W, W', Psi, Psi') integrated with RK4
    from the clamped end (two starts, W' = 1 or Psi' = 1), free-end conditions Psi' = 0 and
    W' - Psi = 0 as a 2x2 determinant, secant iterations on w. Independent of the closed form."""

    def det(w):
        r = th.rhoA * w * w / th.kGA

        def f(y):
            W, dW, P, dP = y
            return np.array([dW, dP - r * W, dP, (-th.kGA * (dW - P) - th.rhoI * w * w * P) / th.EI])

        h = th.L / steps
        ys = [np.array([0.0, 1.0, 0.0, 0.0]), np.array([0.0, 0.0, 0.0, 1.0])]
        for _ in range(steps):
            for i, y in enumerate(ys):
                k1 = f(y); k2 = f(y + 0.5 * h * k1); k3 = f(y + 0.5 * h * k2); k4 = f(y + h * k3)
                ys[i] = y + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        rows = [[y[3], y[1] - y[2]] for y in ys]
        return rows[0][0] * rows[1][1] - rows[0][1] * rows[1][0]

    out = []
    for g in guesses:
        a, b = g * (1 - 1e-4), g * (1 + 1e-4)
        fa, fb = det(a), det(b)
        for _ in range(30):
            if fb == fa:
                break
            a, b, fa = b, b - fb * (b - a) / (fb - fa), fb
            fb = det(b)
            if abs(b - a) <= 1e-15 * abs(b):
                break
        out.append(b)
    return np.array(out)


# ---- Self-test of the analysis (no `field` run) --------------------------------------------
def self_test():
    ok = True

    def check(name, value, bound):
        nonlocal ok
        good = value <= bound
        ok &= good
        print(f"  {'ok  ' if good else 'FAIL'} {name}: {value:.3e} (<= {bound:.0e})")

    # Euler-Bernoulli limit: the deviation from beta_n^2 sqrt(EI/(rho A L^4)) falls like 1/kGA
    # (rho I with it); below 1e-6 at kGA = 1e8 (beyond, the determinant loses digits).
    beta = np.array([1.8751040687119611, 4.6940911329741745, 7.8547574382376126])
    expected = beta ** 2 * math.sqrt(2.0 / 3.0) / 1.5 ** 2
    dev = Timoshenko(EI=2.0, kGA=1e8, rhoA=3.0, rhoI=1e-8, L=1.5).frequencies(3) / expected - 1
    check("Euler-Bernoulli limit at kGA = 1e8", float(np.abs(dev).max()), 1e-6)
    # Independent: shooting with RK4 from the clamped end, det of the free-end conditions.
    th = Timoshenko.of(BEAM)
    wt = th.frequencies(3)
    check("closed form vs shooting (RK4)", float(np.abs(shooting_frequencies(th, wt) / wt - 1).max()), 1e-9)
    # The beam: shear and rotary inertia lower every frequency below Euler-Bernoulli's.
    area, inertia, _ = section(BEAM)
    w_eb = beta ** 2 * math.sqrt(BEAM["E"] * inertia / (BEAM["rho"] * area)) / BEAM["L"] ** 2
    check("Timoshenko below Euler-Bernoulli", float(np.max(wt - w_eb)) if np.any(wt >= w_eb) else 0.0, 0.0)
    print("  frequencies [rad/s]:", ", ".join(f"{v:.12g}" for v in wt))
    print("  period of mode 1 [s]: %.6g" % (2 * math.pi / wt[0]))
    # Mode shapes satisfy the ODEs (finite differences) and the boundary conditions.
    Wf, Pf = th.mode(wt[1])
    s = np.linspace(0.1, 0.9, 9)
    h = 1e-4
    W2 = (Wf(s + h) - 2 * Wf(s) + Wf(s - h)) / h ** 2
    dP = (Pf(s + h) - Pf(s - h)) / (2 * h)
    P2 = (Pf(s + h) - 2 * Pf(s) + Pf(s - h)) / h ** 2
    dW = (Wf(s + h) - Wf(s - h)) / (2 * h)
    r1 = th.kGA * (W2 - dP) + th.rhoA * wt[1] ** 2 * Wf(s)
    r2 = th.EI * P2 + th.kGA * (dW - Pf(s)) + th.rhoI * wt[1] ** 2 * Pf(s)
    check("mode 2 ODE residual (relative)", float(np.abs(r1).max() / (th.rhoA * wt[1] ** 2)), 1e-5)
    check("mode 2 moment ODE residual (relative)", float(np.abs(r2).max() / (th.kGA)), 1e-5)
    check("clamped end W(0), Psi(0)", float(abs(Wf(0.0)) + abs(Pf(0.0))), 1e-10)
    # The fit recovers three frequencies of a synthetic signal with an offset to 1e-10.
    t = np.linspace(0.0, 143.0, 40001)
    true = np.array([0.4391, 2.71, 7.43])
    x = 0.3 + 1e-4 * (np.sin(true[0] * t) + 0.7 * np.cos(true[1] * t + 0.2) + 0.2 * np.sin(true[2] * t))
    fitted, rms = fit_frequencies(t, x, true * (1 + 1e-3))
    check("fit of three sinusoids", float(np.abs(fitted / true - 1).max()), 1e-10)
    print("self-test", "passed" if ok else "FAILED")
    return 0 if ok else 1


def plot(results, path, references=()):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    walls = [r["wall_s"] for r in results]
    for k, marker in enumerate("os^"):
        ax.loglog(walls, [max(r["errors"][k], 1e-16) for r in results], marker + "-",
                  label=f"mode {k + 1}")
    for r in results:
        ax.annotate(f"A={r['A']}", (r["wall_s"], r["errors"][0]), textcoords="offset points",
                    xytext=(4, 4), fontsize=7)
    for label, wall, error in references:
        ax.loglog([wall], [error], "kx", markersize=8)
        ax.annotate(label, (wall, error), textcoords="offset points", xytext=(4, -10), fontsize=7)
    ax.set_xlabel("wall time of the whole `field simulate` process, one thread [s]")
    ax.set_ylabel("relative frequency error vs Timoshenko")
    ax.set_title("Undamped cantilever, 10 periods of mode 1 (143 s of motion)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--field", default="build/release/bin/field", help="the field program")
    p.add_argument("--resolutions", default="10,20,40,80,110,160", help="values of A")
    p.add_argument("--cfl", type=float, default=0.9, help="dt as a fraction of the stable limit")
    p.add_argument("--periods", type=float, default=10.0, help="duration in periods of mode 1")
    p.add_argument("--amplitude", type=float, default=1e-4,
                   help="tip displacement amplitude of each mode [m] (small: linear regime)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--repeat", type=int, default=3, help="runs per resolution (median wall)")
    p.add_argument("--out", default="bench-results/accuracy", help="work folder and results")
    p.add_argument("--self-test", action="store_true", help="check the analysis and exit")
    p.add_argument("--expect-order", default="",
                   help="LO,HI: fail unless the observed order of every frequency error between "
                        "consecutive resolutions (in ds) lies in [LO, HI] (the ctest uses this)")
    p.add_argument("--no-plot", action="store_true")
    p.add_argument("--reference", action="append", default=[], metavar="LABEL,WALL_S,ERROR",
                   help="another code's point (mode 1 error) to mark on the plot; repeatable")
    args = p.parse_args()
    if args.self_test:
        return self_test()

    theory = Timoshenko.of(BEAM)
    omegas = theory.frequencies(3)
    os.makedirs(args.out, exist_ok=True)
    results = []
    print("exact Timoshenko frequencies [rad/s]: " + ", ".join(f"{w:.12g}" for w in omegas))
    print("| A | ds [m] | dt [s] | rows J | node updates | wall [s] | error f1 | error f2 | error f3 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for A in [int(a) for a in args.resolutions.split(",")]:
        r = measure(args.field, args.out, A, args, BEAM, theory, omegas)
        results.append(r)
        e = r["errors"]
        print(f"| {A} | {r['ds']:.4g} | {r['dt']:.4g} | {r['J']} | {r['node_updates']:.3g} | "
              f"{r['wall_s']:.3f} | {e[0]:.2e} | {e[1]:.2e} | {e[2]:.2e} |", flush=True)
    with open(os.path.join(args.out, "accuracy.json"), "w") as f:
        json.dump(dict(beam=BEAM, exact_rad_s=list(map(float, omegas)), cfl=args.cfl,
                       periods=args.periods, threads=args.threads, results=results), f, indent=1)
    with open(os.path.join(args.out, "accuracy.csv"), "w") as f:
        f.write("A,ds,dt,J,node_updates,wall_s,error_f1,error_f2,error_f3,fit_rms\n")
        for r in results:
            f.write(",".join(str(v) for v in [r["A"], r["ds"], r["dt"], r["J"], r["node_updates"],
                                               r["wall_s"], *r["errors"], r["fit_rms"]]) + "\n")
    if not args.no_plot:
        try:
            refs = [(r.rsplit(",", 2)[0], float(r.rsplit(",", 2)[1]), float(r.rsplit(",", 2)[2]))
                    for r in args.reference]
            plot(results, os.path.join(args.out, "accuracy_vs_time.png"), refs)
        except ImportError:
            print("matplotlib missing (apt-get install python3-matplotlib): no plot", file=sys.stderr)
    print(f"wrote {args.out}/accuracy.csv, accuracy.json" + ("" if args.no_plot else ", accuracy_vs_time.png"))
    status = 0
    if args.expect_order:
        lo, hi = map(float, args.expect_order.split(","))
        for r0, r1 in zip(results, results[1:]):
            for k in range(3):
                order = math.log(r0["errors"][k] / r1["errors"][k]) / math.log(r0["ds"] / r1["ds"])
                good = lo <= order <= hi
                status |= 0 if good else 1
                print(f"  {'ok  ' if good else 'FAIL'} order of the mode {k + 1} error, "
                      f"A = {r0['A']} -> {r1['A']}: {order:.3f} (expected in [{lo}, {hi}])")
    return status


if __name__ == "__main__":
    sys.exit(main())
