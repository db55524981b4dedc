#!/usr/bin/env bash
# The full-resolution runs of the validation benchmarks (docs/validation/): each script of
# scripts/validation/ runs its shipped case at several resolutions with the given `field`, prints
# the tables of its page (saved to runs/validation/<benchmark>.md) and redraws its figure in
# docs/validation/images/. One line per benchmark.
#   bash scripts/validation.sh [FIELD_BINARY]        # default build/bin/field
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
field=$(realpath "${1:-$root/build/bin/field}")
out=${VALIDATION_DIR:-$root/runs/validation}
mkdir -p "$out"
run() {  # benchmark [arguments]; RUN_TAG names the saved tables of a second run of one script
  local name=$1
  shift
  echo "== $name $*"
  /usr/bin/python3 "$root/scripts/validation/$name.py" --field "$field" --out "$out" "$@" |
    tee "$out/$name${RUN_TAG:-}.md"
}
run rollup
run bend45
run cantilever_vibration
run flying_spaghetti
run right_angle
RUN_TAG=_readings run right_angle --readings
run spinning_beam
