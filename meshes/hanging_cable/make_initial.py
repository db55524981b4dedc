#!/usr/bin/env python3
"""row0.csv of meshes/hanging_cable: the elastic catenary (Irvine 1981; docs/theory.md (1.8.9))
between the supports (0, 0, 0) and (span, 0, rise) for a cable of unstretched length L, sampled
at the nodes s_a = a L / A (both ends prescribed, theory §3.4).

  python3 make_initial.py A L span rise EA rhoA g      (the case: 32 1 0.9 0.3 100 1 9.81)

Solves x(L) = span, z(L) = rise for the horizontal tension H and the vertical support force V
by Newton's method, prints them and the largest tension, writes row0.csv (a, x, y, z).
"""
import sys

import numpy as np


def catenary(s, H, V, EA, w):
    u, u0 = (w * s - V) / H, V / H
    x = H * s / EA + H / w * (np.arcsinh(u) + np.arcsinh(u0))
    z = (0.5 * w * s * s - V * s) / EA + H / w * (np.sqrt(1 + u * u) - np.sqrt(1 + u0 * u0))
    return x, z


def solve(L, span, rise, EA, w):
    p = np.array([w * L, 0.5 * w * L])  # (H, V)
    for _ in range(100):
        r = np.array(catenary(L, *p, EA, w)) - (span, rise)
        J = np.empty((2, 2))
        for k in range(2):
            e = np.zeros(2)
            e[k] = 1e-7 * max(1.0, abs(p[k]))
            J[:, k] = (np.array(catenary(L, *(p + e), EA, w)) -
                       np.array(catenary(L, *(p - e), EA, w))) / (2 * e[k])
        step = np.linalg.solve(J, r)
        p -= step
        if p[0] <= 0:
            raise SystemExit("no taut catenary: the supports are too far apart for this cable")
        if np.max(np.abs(step)) < 1e-14 * (1 + np.max(np.abs(p))):
            return p
    raise SystemExit("Newton did not converge")


def main():
    if len(sys.argv) != 8:
        raise SystemExit(__doc__)
    A = int(sys.argv[1])
    L, span, rise, EA, rhoA, g = map(float, sys.argv[2:])
    w = rhoA * g
    H, V = solve(L, span, rise, EA, w)
    s = np.linspace(0.0, L, A + 1)
    x, z = catenary(s, H, V, EA, w)
    T = np.hypot(H, w * s - V)
    print(f"H = {H:.12g} N, V = {V:.12g} N, largest tension {T.max():.6g} N, "
          f"stretch up to {1 + T.max() / EA:.6g}")
    with open("row0.csv", "w") as f:
        f.write("a,x,y,z\n")
        for a in range(A + 1):
            f.write(f"{a},{x[a]!r},0,{z[a]!r}\n")


if __name__ == "__main__":
    main()
