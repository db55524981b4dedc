#!/usr/bin/python3
"""Scenarios A and B of issue 11: every reconstruction method on sensor-grade noisy tip data.

For each scenario the script
  1. simulates the truth with `field simulate` (time march, tip a = 0 driven from rest by a
     smooth motion of about 0.5 m, far end free) on a fine grid (dt / 10 of the driven grid);
  2. resamples the truth's tip as a sensor delivers it: 200 Hz, timestamp jitter (uniform,
     +-1 ms, the recorded time is the true one), 1 % of the samples dropped, Gaussian noise of
     the declared levels (positions [m] per component, rotations by a rotation vector [rad],
     first-segment strains per component);
  3. reconstructs with every method (`[reconstruct] method` = "space", "driven", "estimate",
     docs/reconstruction.md), each on a grid where it is meant to run (the space march at
     ds/(c_G dt) < 1, the others at c_E dt/ds < 1), the noise declared in the case;
  4. prints the far-end (a = A) RMS position and rotation errors against the truth at the same
     times (rows j < J), and for the estimate the normalised estimation error squared
     |r - r_true|^2 / sigma_position^2 of the far-end positions (expectation 1: sigma_position is
     the square root of the trace of the 3x3 covariance block, docs/reconstruction.md).

Scenario A: the stubby arm of issue 11 (L = 1 m, b = 0.2 m, E = 1e6 Pa, A = 10).
Scenario B: a slender beam, L/b = 20 (b = 0.05 m, A = 20).

    /usr/bin/python3 scripts/reconstruction_scenarios.py --field build/bin/field
    /usr/bin/python3 scripts/reconstruction_scenarios.py --scenarios A --seeds 20 --methods estimate

The calibration of docs/reconstruction.md (20 seeds, noise declared per grid row):

    /usr/bin/python3 scripts/reconstruction_scenarios.py --scenarios A --methods driven,estimate \
        --only-noisy --seeds 20 --declare-scale 1.4142135623730951

Rows "exact" use the truth's tip sampled on the reconstruction grid without noise (the
discretisation floor); rows "sensor" the 200 Hz data without noise; rows "noisy" the full data
(RMS over --seeds seeds). Needs numpy.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

import tip_noise
from tip_noise import rotation

HEADER = "t,x,y,z,qw,qx,qy,qz,Omega1,Omega2,Omega3,Gamma1,Gamma2,Gamma3"

SCENARIOS = {
    # side b, A, L, T, J of the driven/estimate grid, J of the space march's grid
    "A": dict(side=0.2, A=10, L=1.0, T=1.0, J=400, J_space=160),
    "B": dict(side=0.05, A=20, L=1.0, T=1.0, J=1000, J_space=250),
}
E, NU, RHO = 1.0e6, 0.35, 1000.0
X_TIP, THETA_TIP = 0.5, 0.3  # tip translation [m] and rotation [rad] amplitudes
FINE = 10                    # the truth's dt = driven dt / FINE


def read_csv(path):
    with open(path) as f:
        lines = [l for l in f if l.strip() and not l.startswith("#")]
    names = lines[0].strip().split(",")
    return names, np.array([[float(v) for v in l.split(",")] for l in lines[1:]])


def motion(T, n):
    """The tip's motion, at rest at t = 0 and T: x = X (1 - cos wt)^2/4 along e1 and a rotation
    by Theta (1 - cos wt)^2/4 about e2, w = 2 pi / T."""
    t = np.linspace(0.0, T, n + 1)
    f = (1 - np.cos(2 * math.pi * t / T)) ** 2 / 4
    th = THETA_TIP * f
    z = np.zeros_like(t)
    return np.column_stack([t, X_TIP * f, z, z, np.cos(th / 2), z, np.sin(th / 2), z])


def beam_toml(sc, name, march, A, ds, dt, J):
    return (f'format = 1\nname = "{name}"\nmarch = "{march}"\nretraction = "cayley"\n\n'
            f'[beam]\nsection = "square"\nside = {sc["side"]}\nE = {E}\nnu = {NU}\nrho = {RHO}\n\n'
            f'[grid]\nA = {A}\nds = {ds!r}\ndt = {dt!r}\nJ = {J}\n\n')


def sample_tip(truth, times):
    """The truth's tip at the given times (truth on a grid 10x finer than any sample spacing):
    positions and strains linearly, quaternions by normalised linear interpolation."""
    t = truth[:, 0]
    out = np.empty((len(times), 14))
    out[:, 0] = times
    for c in range(1, 14):
        out[:, c] = np.interp(times, t, truth[:, c])
    q = out[:, 4:8]
    out[:, 4:8] = q / np.linalg.norm(q, axis=1)[:, None]
    return out


def sensor(truth, T, rng, noise):
    """200 Hz, jitter +-1 ms, 1 % dropped (never the first or the last), then noise."""
    k = np.arange(0, int(round(T * 200)) + 1)
    times = k / 200.0
    times[1:-1] += rng.uniform(-1e-3, 1e-3, len(times) - 2)
    keep = np.ones(len(times), bool)
    keep[1:-1] = rng.uniform(size=len(times) - 2) >= 0.01
    data = sample_tip(truth, times[keep])
    return add_noise(data, noise, rng)


def add_noise(data, noise, rng):
    if all(n == 0 for n in noise):
        return data.copy()
    return tip_noise.add_noise(data, *noise, rng)


def far_end(folder, std=False):
    """Rows j < J of the last column a = A: times, positions, rotation matrices (and sigmas)."""
    names, rows = read_csv(os.path.join(folder, "field.csv"))
    col = {n: i for i, n in enumerate(names)}
    A, J = rows[:, col["a"]].max(), rows[:, col["j"]].max()
    last = rows[(rows[:, col["a"]] == A) & (rows[:, col["j"]] < J)]
    last = last[np.argsort(last[:, col["j"]])]
    pos = last[:, [col["x"], col["y"], col["z"]]]
    rot = [rotation(r[[col["qw"], col["qx"], col["qy"], col["qz"]]]) for r in last]
    sig = None
    if std:
        n2, s = read_csv(os.path.join(folder, "field_std.csv"))
        c2 = {n: i for i, n in enumerate(n2)}
        s = s[(s[:, c2["a"]] == A) & (s[:, c2["j"]] < J)]
        sig = s[np.argsort(s[:, c2["j"]])][:, c2["sigma_position"]]
    return last[:, col["t"]], pos, rot, sig


def errors(run, truth, std=False):
    t, p, r, sig = far_end(run, std)
    tt, pt, rt, _ = truth
    idx = np.searchsorted(tt, t - 1e-9)
    assert np.allclose(tt[idx], t, atol=1e-9), "reconstruction times not on the truth's grid"
    d2 = ((p - pt[idx]) ** 2).sum(axis=1)
    ang = [math.acos(max(-1.0, min(1.0, (np.trace(a.T @ rt[i]) - 1) / 2))) for a, i in zip(r, idx)]
    nees = float(np.mean(d2 / sig ** 2)) if std else None
    return math.sqrt(d2.mean()), math.sqrt(np.mean(np.square(ang))), nees, d2


def case_text(sc, method, tip, declared, max_iterations=50, model_error=None):
    """The reconstruction case of `method` on its grid (the space march's coarser one), the tip
    file and the declared noise levels (position, angle, strain)."""
    A, L, T, J = sc["A"], sc["L"], sc["T"], sc["J"]
    ds = L / (A - 0.5)  # free far end: L = (A - 1/2) ds (theory §3.4)
    if method == "space":
        Jm = sc["J_space"]
        body = beam_toml(sc, "space", "space", A, ds, T / Jm, Jm)
        body += '[boundary]\nfirst = "zero_momentum"\nlast = "zero_momentum"\n\n'
    else:
        body = beam_toml(sc, method, "space", A, ds, T / J, J)
    body += (f'[tip]\nfile = "{tip}"\ntime_offset = 0\n'
             f'noise_position = {declared[0]}\nnoise_angle = {declared[1]}\n'
             f'noise_strain = {declared[2]}\nmax_predicted_error = 1e9\n\n'
             f'[reconstruct]\nmethod = "{method}"\n')
    if method != "space":
        body += 'far_end = "free"\n'
    if method == "estimate":
        body += f'first_row = "straight"\nlast_row = "free"\nmax_iterations = {max_iterations}\n'
        if model_error:
            body += f"model_error = {model_error}\n"
    return body + "\n[output]\nvtk = false\n"


def simulate_truth(field, name, sc, d):
    """The truth of scenario `name` in folder d/truth (a time march FINE times finer in time):
    returns its tip table (tip.csv)."""
    A, L, T, J = sc["A"], sc["L"], sc["T"], sc["J"]
    ds, dt = L / (A - 0.5), T / J
    os.makedirs(d, exist_ok=True)
    np.savetxt(os.path.join(d, "motion.csv"), motion(T, J * FINE), delimiter=",",
               header="t,x,y,z,qw,qx,qy,qz", comments="", fmt="%.17g")
    with open(os.path.join(d, "simulate.toml"), "w") as f:
        f.write(beam_toml(sc, f"truth_{name}", "time", A, ds, dt / FINE, J * FINE) +
                '[boundary]\nleft = { prescribed = "motion.csv" }\nright = "free"\n\n'
                '[initial]\nconfiguration = "straight"\n\n[output]\nvtk = false\n')
    rc, err, _ = run([field, "simulate", os.path.join(d, "simulate.toml"), "--out",
                      os.path.join(d, "truth"), "--force", "-q"])
    if rc != 0:
        sys.exit(f"truth of scenario {name}: exit {rc}\n{err}")
    return read_csv(os.path.join(d, "truth", "tip.csv"))[1]


def run(cmd):
    t0 = time.time()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return r.returncode, r.stderr, time.time() - t0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--field", default="build/bin/field")
    p.add_argument("--scenarios", default="A,B")
    p.add_argument("--methods", default="space,driven,estimate")
    p.add_argument("--seeds", type=int, default=1)
    p.add_argument("--noise", default="1e-4,1e-3,1e-3", help="sigma_r, sigma_theta, sigma_eta")
    p.add_argument("--declare-scale", type=float, default=1.0,
                   help="declare the noise times this factor in the case (sqrt(dt_sensor/dt) "
                        "declares it per grid row when the grid is finer than the samples)")
    p.add_argument("--model-error", type=float, default=None,
                   help="[reconstruct] model_error of the estimate (default: the program's)")
    p.add_argument("--max-iterations", type=int, default=50)
    p.add_argument("--keep", default=None, help="keep the work folder here")
    p.add_argument("--only-noisy", action="store_true", help="skip the exact and sensor rows")
    a = p.parse_args()
    noise = tuple(float(v) for v in a.noise.split(","))
    work = a.keep or tempfile.mkdtemp(prefix="scenarios_")
    os.makedirs(work, exist_ok=True)
    methods = a.methods.split(",")
    print("| scenario | data | method | far-end RMS position [m] | % of L | rotation [rad] | "
          "NEES (1 expected) | time [s] | note |")
    print("|---|---|---|---|---|---|---|---|---|")
    try:
        for name in a.scenarios.split(","):
            sc = SCENARIOS[name]
            L, T, J = sc["L"], sc["T"], sc["J"]
            dt = T / J
            # 1. the truth on a grid FINE times finer in time, same A and ds
            d = os.path.join(work, name)
            truth_tip = simulate_truth(a.field, name, sc, d)
            truth = far_end(os.path.join(d, "truth"))
            # 2. the data sets
            sets = []
            if not a.only_noisy:
                sets.append(("exact", None, (0, 0, 0)))
                sets.append(("sensor", 0, (0, 0, 0)))
            sets += [("noisy", s, noise) for s in range(a.seeds)]
            results = {}
            for label, seed, lev in sets:
                tip = os.path.join(d, f"tip_{label}_{seed}.csv")
                if seed is None:  # on the driven grid, exact
                    np.savetxt(tip, sample_tip(truth_tip, np.arange(J + 1) * dt), delimiter=",",
                               header=HEADER, comments="", fmt="%.17g")
                else:
                    rng = np.random.default_rng(1000 * ord(name) + seed)
                    np.savetxt(tip, sensor(truth_tip, T, rng, lev), delimiter=",", header=HEADER,
                               comments="", fmt="%.17g")
                for method in methods:
                    if method == "space" and label == "exact":
                        continue  # the exact set is on the driven grid
                    dl = [v * a.declare_scale for v in lev]
                    body = case_text(sc, method, tip, dl, a.max_iterations, a.model_error)
                    case = os.path.join(d, f"{method}_{label}_{seed}.toml")
                    with open(case, "w") as f:
                        f.write(body)
                    out = os.path.join(d, f"run_{method}_{label}_{seed}")
                    rc, err, secs = run([a.field, "reconstruct", case, "--out", out, "--force",
                                         "-q"])
                    note = ""
                    if (rc != 0 and not (method == "estimate" and rc == 3)) or \
                            not os.path.exists(os.path.join(out, "field.csv")):
                        last = [l for l in err.strip().splitlines() if l][-1:] or [""]
                        results.setdefault((label, method), []).append(None)
                        print(f"| {name} | {label} {seed if seed is not None else ''} | {method} | "
                              f"fails (exit {rc}) | | | | {secs:.1f} | {last[0][:120]} |",
                              flush=True)
                        continue
                    if method == "estimate":
                        with open(os.path.join(out, "summary.json")) as f:
                            s = json.load(f)
                        note = (f"{s.get('iterations')} it, "
                                f"{'converged' if s.get('converged') else 'NOT converged'}, "
                                f"start {s.get('start')}")
                    std = method == "estimate" and label == "noisy" and \
                        os.path.exists(os.path.join(out, "field_std.csv"))
                    dp, dr, nees, d2 = errors(out, truth, std)
                    results.setdefault((label, method), []).append((dp, dr, nees))
                    if label != "noisy" or a.seeds <= 3:
                        print(f"| {name} | {label} {seed if seed is not None else ''} | {method} | "
                              f"{dp:.3g} | {100 * dp / L:.3g} % | {dr:.3g} | "
                              f"{'' if nees is None else f'{nees:.3g}'} | {secs:.1f} | {note} |",
                              flush=True)
            for method in methods:
                res = [r for r in results.get(("noisy", method), []) if r is not None]
                if a.seeds > 1 and res:
                    dp = math.sqrt(np.mean([r[0] ** 2 for r in res]))
                    dr = math.sqrt(np.mean([r[1] ** 2 for r in res]))
                    nees = [r[2] for r in res if r[2] is not None]
                    ns = f"{np.mean(nees):.3g} (seeds {min(nees):.3g}..{max(nees):.3g})" \
                        if nees else ""
                    print(f"| {name} | noisy, {len(res)} of {a.seeds} seeds (RMS) | {method} | "
                          f"{dp:.3g} | {100 * dp / L:.3g} % | {dr:.3g} | {ns} | | |", flush=True)
    finally:
        if not a.keep:
            shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
