#!/usr/bin/python3
"""Predicted against measured far-end error of the space march on noisy tip data (theory §6.3).

Takes a space-march case (default meshes/space_evolution/case.toml), adds Gaussian noise to its
tip data (positions sigma_r [m] per component, rotations by a rotation vector of sigma_theta [rad]
per component, strains sigma_eta per component), runs `field reconstruct` on the exact and on
each noisy copy with the noise declared in the case ([tip] noise_position, noise_angle,
noise_strain; max_predicted_error raised so that it runs), and prints the far-end RMS position
and rotation errors against the prediction that the program recorded in summary.json.

    /usr/bin/python3 scripts/predict_noise.py --field build/bin/field
    /usr/bin/python3 scripts/predict_noise.py --field build/bin/field --scales 0.1,1,10 --seeds 4

Noise scale 1 is the issue's level: 1e-4 m, 1e-3 rad, 1e-3. Needs numpy.
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from tip_noise import add_noise, rotation

HEADER = "t,x,y,z,qw,qx,qy,qz,Omega1,Omega2,Omega3,Gamma1,Gamma2,Gamma3"


def read_tip(path):
    with open(path) as f:
        lines = [l for l in f if l.strip() and not l.startswith("#")]
    assert lines[0].strip() == HEADER, lines[0]
    return np.array([[float(v) for v in l.split(",")] for l in lines[1:]])


def far_end(folder):
    """(j -> position, rotation matrix) of the last column a = A, rows j < J."""
    with open(os.path.join(folder, "field.csv")) as f:
        names = f.readline().strip().split(",")
        rows = np.array([[float(v) for v in l.split(",")] for l in f])
    col = {n: i for i, n in enumerate(names)}
    A, J = rows[:, col["a"]].max(), rows[:, col["j"]].max()
    last = rows[(rows[:, col["a"]] == A) & (rows[:, col["j"]] < J)]
    last = last[np.argsort(last[:, col["j"]])]
    pos = last[:, [col["x"], col["y"], col["z"]]]
    rot = [rotation(r[[col["qw"], col["qx"], col["qy"], col["qz"]]]) for r in last]
    return pos, rot


def errors(run, exact):
    p, r = far_end(run)
    pe, re_ = far_end(exact)
    dp = math.sqrt(((p - pe) ** 2).sum(axis=1).mean())
    angles = [math.acos(max(-1.0, min(1.0, (np.trace(a.T @ b) - 1) / 2))) for a, b in zip(r, re_)]
    return dp, math.sqrt(np.mean(np.square(angles)))


def run(field, case, tip, out):
    cmd = [field, "reconstruct", case, "--tip", tip, "--out", out, "--force", "-q"]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--field", default="build/bin/field")
    p.add_argument("--case", default=os.path.join(os.path.dirname(__file__), "..", "meshes",
                                                  "space_evolution", "case.toml"))
    p.add_argument("--scales", default="0.1,1,10")
    p.add_argument("--seeds", type=int, default=4)
    p.add_argument("--levels", default="1e-4,1e-3,1e-3", help="sigma_r, sigma_theta, sigma_eta at scale 1")
    a = p.parse_args()
    sr0, sa0, se0 = (float(v) for v in a.levels.split(","))
    work = tempfile.mkdtemp(prefix="predict_noise_")
    try:
        src = os.path.dirname(os.path.abspath(a.case))
        with open(a.case) as f:
            text = f.read()
        m = re.search(r'^file = "([^"]+)"', text, re.M)
        tip = os.path.join(src, m.group(1))
        data = read_tip(tip)
        exact_case = os.path.join(work, "exact.toml")
        with open(exact_case, "w") as f:
            f.write(text.replace(m.group(0), f'file = "{tip}"\nmax_predicted_error = 1e9'))
        run(a.field, exact_case, tip, os.path.join(work, "exact"))
        print("| noise sigma_r, sigma_theta, sigma_eta | predicted position | measured | "
              "predicted rotation | measured |")
        print("|---|---|---|---|---|")
        rng = np.random.default_rng(1)
        for scale in (float(s) for s in a.scales.split(",")):
            sr, sa, se = sr0 * scale, sa0 * scale, se0 * scale
            case = os.path.join(work, f"case_{scale}.toml")
            with open(case, "w") as f:
                f.write(text.replace(m.group(0), f'file = "{tip}"\nnoise_position = {sr}\n'
                                     f'noise_angle = {sa}\nnoise_strain = {se}\n'
                                     'max_predicted_error = 1e9'))
            dp, dr, summary = [], [], None
            for seed in range(a.seeds):
                path = os.path.join(work, f"tip_{scale}_{seed}.csv")
                np.savetxt(path, add_noise(data, sr, sa, se, rng), delimiter=",", header=HEADER,
                           comments="", fmt="%.17g")
                out = os.path.join(work, f"run_{scale}_{seed}")
                summary = run(a.field, case, path, out)
                e = errors(out, os.path.join(work, "exact"))
                dp.append(e[0])
                dr.append(e[1])
            print(f"| {sr:g} m, {sa:g} rad, {se:g} | {summary['predicted_far_end_error']:.3g} m | "
                  f"{math.sqrt(np.mean(np.square(dp))):.3g} m | "
                  f"{summary['predicted_far_end_rotation']:.3g} rad | "
                  f"{math.sqrt(np.mean(np.square(dr))):.3g} rad |")
    finally:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
