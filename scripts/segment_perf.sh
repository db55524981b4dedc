#!/usr/bin/env bash
# Whole-run cost of a beam whose reference strain varies per segment (theory §1.6: per-node
# kernels) against the same beam with one uniform curvature (lanes), docs/performance.md
# "Properties and stress-free shapes per segment". Prints the program's "node updates" lines.
#   bash scripts/segment_perf.sh build/bin/field [repeats]
set -euo pipefail
field=$(realpath "${1:?usage: segment_perf.sh FIELD_BINARY [repeats]}")
repeats=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
A=200
python3 - "$work" "$A" <<'PY'
import sys
work, A = sys.argv[1], int(sys.argv[2])
ds = 1.0 / A
base = f"""format = 1
name = "perf"
march = "time"
retraction = "cayley"
[beam]
section = "square"
side = 0.1
E = 1.0e5
nu = 0.35
rho = 1000.0
[SHAPE]
[grid]
A = {A}
ds = {ds!r}
dt = {0.05 * ds!r}
J = 4000
[initial]
configuration = "stress_free"
velocity = "uniform"
xi = [1.0, 0.3, 0.2, 0.0, 0.5, 0.0]
[output]
csv = false
vtk = false
tip = false
"""
open(f"{work}/uniform.toml", "w").write(base.replace("[SHAPE]", "[shape]\ncurvature = [0.5, 0, 0]"))
open(f"{work}/segments.toml", "w").write(base.replace("[SHAPE]", '[shape]\nfile = "shape.csv"'))
with open(f"{work}/shape.csv", "w") as f:  # segment 0 off by 1e-7: no collapse to uniform
    f.write("a,k1,k2,k3,g1,g2,g3\n")
    for a in range(A):
        f.write(f"{a},{0.5000001 if a == 0 else 0.5},0,0,0,0,1\n")
PY
for c in uniform segments; do
  for _ in $(seq "$repeats"); do
    printf '%-9s' "$c"
    "$field" simulate "$work/$c.toml" --out "$work/run" --force --threads 1 2>&1 | grep 'node updates'
  done
done
