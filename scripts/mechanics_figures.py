#!/usr/bin/env python3
"""The measured figures of docs/mechanics.md, from runs of `field mechanics` on the shipped cases.

  /usr/bin/python3 scripts/mechanics_figures.py --field build/bin/field --out runs/mechanics_figures

Prints markdown tables: the energy error against h (with the observed order), the momentum drift,
the constraint residual and the run time of the double spherical pendulum; the rotation error
against h of the rigid body (both forms); a long pendulum run (energy bounded, no drift: the
largest |E - E0| in the first and the last tenth). --plot writes the pictures of the docs page.
"""
import argparse
import math
import pathlib
import re
import subprocess
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent


def case_text(name, **keys):
    """The shipped case `name` with `key = value` lines replaced (keys must exist or be added
    to [output])."""
    text = (ROOT / "meshes" / name / "case.toml").read_text()
    for key, value in keys.items():
        text, n = re.subn(rf"(?m)^{key} = [^#\n]*", f"{key} = {value} ", text)
        if n != 1:
            raise SystemExit(f"key {key} not found once in meshes/{name}/case.toml")
    return text


def run(field, out, name, tag, **keys):
    """Runs the case with `keys` changed; returns (the CSV as a numpy record array, seconds)."""
    folder = out / f"{name}_{tag}"
    folder.mkdir(parents=True, exist_ok=True)
    case = folder / "case.toml"
    case.write_text(case_text(name, **keys))
    start = time.perf_counter()
    subprocess.run([field, "mechanics", "-q", "--force", str(case), "--out", str(folder / "run")],
                   check=True)
    seconds = time.perf_counter() - start
    return np.genfromtxt(folder / "run" / "mechanics.csv", delimiter=",", names=True), seconds


def order(errors):
    return ["" if i == 0 else f"{math.log2(errors[i - 1] / errors[i]):.2f}"
            for i in range(len(errors))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--field", default=str(ROOT / "build" / "bin" / "field"))
    parser.add_argument("--out", default="runs/mechanics_figures", type=pathlib.Path)
    parser.add_argument("--long-time", type=float, default=1000.0,
                        help="duration of the long pendulum run [s]")
    parser.add_argument("--plot", action="store_true", help="write docs/images/mechanics_*.png")
    args = parser.parse_args()
    out = args.out

    # 1. Double pendulum: energy error against h over t = 10 s (RATTLE, trapezoidal: Verlet).
    print("double spherical pendulum, t = 10 s, RATTLE (trapezoidal)\n")
    print("| h [s] | steps | max abs(E - E0) [J] | order | max abs(J_z - J_z0) | max abs(g) [m] | run time [s] |")
    print("|---|---|---|---|---|---|---|")
    hs = [0.004, 0.002, 0.001, 0.0005]
    rows = []
    for h in hs:
        steps = round(10.0 / h)
        d, seconds = run(args.field, out, "double_pendulum", f"h{h}", h=h, steps=steps,
                         csv_stride=1, vtk_stride=0)
        rows.append((h, steps, np.abs(d["energy"] - d["energy"][0]).max(),
                     np.abs(d["momentum_z"] - d["momentum_z"][0]).max(),
                     d["constraint_residual"].max(), seconds))
    for row, o in zip(rows, order([r[2] for r in rows])):
        print(f"| {row[0]} | {row[1]} | {row[2]:.3g} | {o} | {row[3]:.2g} | {row[4]:.2g} | "
              f"{row[5]:.2f} |")

    # 2. Rigid body: rotation error at t = 5 s against h/64 (the same method), both forms.
    print("\nfree rigid body (principal moments 2, 3, 4), t = 5 s, quaternion error against h = 1/6400 s\n")
    print("| form | h [s] | max abs(q - q_ref) | order | max abs(E - E0) [J] | max abs(pi - pi0) | max abs(R^T R - I) | run time [s] |")
    print("|---|---|---|---|---|---|---|---|")
    for form in ["lie_group", "rotation_matrix"]:
        form_text = f'"{form}"'
        ref, _ = run(args.field, out, "rigid_body", f"{form}_ref", h=1.0 / 6400, steps=32000,
                     form=form_text, csv_stride=320, vtk_stride=0)
        errors, lines = [], []
        for n in [100, 200, 400]:
            d, seconds = run(args.field, out, "rigid_body", f"{form}_{n}", h=1.0 / n, steps=5 * n,
                             form=form_text, csv_stride=1, vtk_stride=0)
            qa = np.array([d[k][-1] for k in ["qw", "qx", "qy", "qz"]])
            qb = np.array([ref[k][-1] for k in ["qw", "qx", "qy", "qz"]])
            errors.append(min(np.abs(qa - qb).max(), np.abs(qa + qb).max()))
            pi = np.stack([d["pi_x"], d["pi_y"], d["pi_z"]], axis=1)
            lines.append((1.0 / n, np.abs(d["energy"] - d["energy"][0]).max(),
                          np.abs(pi - pi[0]).max(), d["constraint_residual"].max(), seconds))
        for (h, de, dp, g, s), e, o in zip(lines, errors, order(errors)):
            print(f"| {form} | {h:g} | {e:.3g} | {o} | {de:.2g} | {dp:.2g} | {g:.2g} | {s:.2f} |")

    # 3. Long pendulum run: bounded energy error, no drift.
    steps = round(args.long_time / 0.001)
    d, seconds = run(args.field, out, "double_pendulum", "long", h=0.001, steps=steps,
                     csv_stride=100, vtk_stride=0)
    error = d["energy"] - d["energy"][0]
    tenth = len(error) // 10
    print(f"\nlong run: double pendulum, h = 0.001 s, {steps} steps (t = {args.long_time:g} s), "
          f"{seconds:.1f} s")
    print(f"  max abs(E - E0) first tenth {np.abs(error[:tenth]).max():.3g} J, last tenth "
          f"{np.abs(error[-tenth:]).max():.3g} J, mean of E - E0 first tenth "
          f"{error[:tenth].mean():.3g} J, last tenth {error[-tenth:].mean():.3g} J")
    jz = d["momentum_z"]
    print(f"  max abs(J_z - J_z0) {np.abs(jz - jz[0]).max():.3g}, max abs(g) "
          f"{d['constraint_residual'].max():.3g} m")

    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        images = ROOT / "docs" / "images"
        fig, ax = plt.subplots(2, 1, figsize=(8, 5.5))
        ax[0].plot(d["t"], error, lw=0.5)
        ax[0].set_xlabel("t [s]")
        ax[0].set_ylabel("E - E0 [J]")
        ax[0].set_title(f"double spherical pendulum, RATTLE, h = 0.001 s: energy error, "
                        f"{args.long_time:g} s")
        rb, _ = run(args.field, out, "rigid_body", "shipped")
        for k in ["Pi1", "Pi2", "Pi3"]:
            ax[1].plot(rb["t"], rb[k], label=k)
        ax[1].set_xlabel("t [s]")
        ax[1].set_ylabel("body momentum [kg m^2/s]")
        ax[1].set_title("rigid body near its middle axis (Moser-Veselov, h = 0.01 s)")
        ax[1].legend(loc="right")
        fig.tight_layout()
        fig.savefig(images / "mechanics_series.png", dpi=110)
        print(f"wrote {images / 'mechanics_series.png'}")


if __name__ == "__main__":
    main()
