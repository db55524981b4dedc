#!/usr/bin/env bash
# README command 1: installs what is missing, builds (Release), runs the bundled example case
# (meshes/free_flight: a free-free beam tumbling, bending and twisting, theory §11.1), checks
# the run, and renders a picture with ParaView (headless, under xvfb-run).
# Output: runs/free_flight/ (open beam.pvd or spacetime.vtu in ParaView; beam.png).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_TYPE=Release TARGETS=field_app source "$root/scripts/build.sh"
cd "$root"
out=runs/free_flight
"$BUILD_DIR/bin/field" simulate meshes/free_flight/case.toml --out "$out" --force
"$BUILD_DIR/bin/field" check "$out"
bash scripts/headless.sh pvbatch paraview/render_beam.py "$out" --out "$out/beam.png"
echo "example: open $out/beam.pvd in ParaView; picture: $out/beam.png"
