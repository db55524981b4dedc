#!/usr/bin/env python3
"""Writes the exact initial row of meshes/spinning_beam (docs/validation/spinning_beam.md):
a free-free straight beam spinning end over end about e1 through its centre, in its exact
stretched relative equilibrium r(sigma) = sin(k sigma) / (k cos(k L/2)), k^2 = rhoA w^2 / EA,
sigma = s - L/2, at the nodes s_a = (a + 1/2) ds (theory §3.4), node A one unstressed segment
beyond node A-1 (the ghost condition). Body velocities (w, 0, 0, 0, -w r, 0).

  python3 make_initial.py A w EA rhoA L [folder]
"""
import math
import sys


def exact_r(sigma, k, L):
    return math.sin(k * sigma) / (k * math.cos(k * L / 2))


def write(folder, A, w, EA, rhoA, L):
    ds = L / A
    k = w * math.sqrt(rhoA / EA)
    r = [exact_r((a + 0.5) * ds - L / 2, k, L) for a in range(A)]
    r.append(r[-1] + ds)  # node A: the last segment unstressed (eta = E6)
    with open(f"{folder}/row0.csv", "w") as f:
        f.write("a,x,y,z,qw,qx,qy,qz\n")
        for a, z in enumerate(r):
            f.write(f"{a},0,0,{z!r},1,0,0,0\n")
    with open(f"{folder}/velocities.csv", "w") as f:
        f.write("a,w1,w2,w3,v1,v2,v3\n")
        for a, z in enumerate(r):
            f.write(f"{a},{w!r},0,0,0,{-w * z!r},0\n")


if __name__ == "__main__":
    A, w, EA, rhoA, L = int(sys.argv[1]), *map(float, sys.argv[2:6])
    write(sys.argv[6] if len(sys.argv) > 6 else ".", A, w, EA, rhoA, L)
