#!/usr/bin/env bash
# Test of the ParaView scripts on real output: makes two small runs with the built `field`
# program (free_flight with J = 40 instead of 400, and space_evolution), runs every script
# headless under one private Xvfb (scripts/headless.sh), and checks that each picture exists and is not blank
# (paraview/png_check.py), that --frames writes one picture per frame of beam.pvd, and that a
# missing run folder, file or array gives exit code 2 with a message.
#
# Usage: paraview/test_scripts.sh BUILD_DIR        (BUILD_DIR/bin/field must exist)
# Needs pvbatch, pvpython (ParaView >= 5.10) and Xvfb. Takes about 2 minutes on 2 cores.
# Exit code 0 when every check passes, 1 when one fails, 2 on bad usage.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")

if [[ $# -ne 1 ]]; then
  echo "usage: $0 BUILD_DIR   (runs BUILD_DIR/bin/field)" >&2
  exit 2
fi
field="$1/bin/field"
if [[ ! -x $field ]]; then
  echo "$0: error: '$field' not found or not executable: build it first" \
    "(cmake --build $1 --target field_app)" >&2
  exit 2
fi
for tool in pvbatch pvpython Xvfb; do
  if ! command -v "$tool" >/dev/null; then
    echo "$0: error: '$tool' not found: install ParaView (paraview, python3-paraview) and xvfb" >&2
    exit 2
  fi
done

# One private X server for the whole test (scripts/headless.sh), instead of one xvfb-run each.
if [[ -z "${DISPLAY:-}" && -z "${FIELD_HEADLESS:-}" ]]; then
  export FIELD_HEADLESS=1
  exec bash "$repo/scripts/headless.sh" bash "$0" "$@"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/paraview_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0

# run NAME CMD...: run a command, keep its output, report ok/FAIL with the output on failure.
run() {
  local name=$1
  shift
  checks=$((checks + 1))
  if "$@" >"$tmp/log" 2>&1; then
    echo "ok   $name"
    sed 's/^/       /' "$tmp/log" | grep -E "wrote|^ *ok" || true
    return 0
  fi
  echo "FAIL $name (exit code $?): $*"
  sed 's/^/       /' "$tmp/log"
  failures=$((failures + 1))
  return 1
}

# expect_usage_error NAME PATTERN CMD...: the command must exit with 2 and print PATTERN.
expect_usage_error() {
  local name=$1 pattern=$2 code=0
  shift 2
  checks=$((checks + 1))
  "$@" >"$tmp/log" 2>&1 || code=$?
  if [[ $code -eq 2 ]] && grep -q -- "$pattern" "$tmp/log"; then
    echo "ok   $name (exit code 2: $(tail -n 1 "$tmp/log"))"
  else
    echo "FAIL $name: expected exit code 2 and '$pattern', got exit code $code:"
    sed 's/^/       /' "$tmp/log"
    failures=$((failures + 1))
  fi
}

pvbatch_run() { pvbatch "$@"; }
check_png() { pvpython "$here/png_check.py" "$@"; }
# A 3-D view: measure the middle, away from the colour bar, titles and orientation axes, which
# alone already give a few hundred colours (an empty scene measured 0.1 % content, grey std 3.6).
check_3d() { check_png --region 0.12 0.12 0.86 0.88 --min-content 0.003 "$@"; }

echo "== runs (field = $field)"
ff=$tmp/free_flight
cp -r "$repo/meshes/free_flight" "$tmp/free_flight_case"
sed -i -E 's/^J = 400([^0-9]|$)/J = 40\1/' "$tmp/free_flight_case/case.toml"
if ! grep -qE '^J = 40([^0-9]|$)' "$tmp/free_flight_case/case.toml"; then
  echo "FAIL meshes/free_flight/case.toml has no line 'J = 400' to shorten"
  exit 1
fi
run "field simulate free_flight (J = 40)" "$field" simulate "$tmp/free_flight_case/case.toml" \
  --out "$ff" -q || exit 1
se=$tmp/space_evolution
run "field reconstruct space_evolution" "$field" reconstruct \
  "$repo/meshes/space_evolution/case.toml" --out "$se" -q || exit 1

echo "== render_mechanics.py"
mech=$tmp/double_pendulum
if run "field mechanics double_pendulum" "$field" mechanics "$repo/meshes/double_pendulum/case.toml" \
  --out "$mech" -q && run "render_mechanics" pvbatch_run "$here/render_mechanics.py" "$mech" \
  --time 4 --out "$mech/pendulum.png"; then
  run "pendulum.png not blank" check_3d --size 900 700 "$mech/pendulum.png"
fi

echo "== render_beam.py"
if run "render_beam (default times, coloured by s)" pvbatch_run "$here/render_beam.py" "$ff"; then
  run "beam.png not blank" check_3d --size 1280 720 "$ff/beam.png"
fi
frames=$(grep -c '<DataSet' "$ff/beam.pvd")
# the short run moves little: auto picks side by side above; force the overlay here
if run "render_beam --layout overlay --color angular_velocity --frames" pvbatch_run \
  "$here/render_beam.py" "$ff" --times 0 0.1 0.2 --layout overlay --color angular_velocity \
  --out "$tmp/omega.png" --frames "$tmp/movie" --size 640 360; then
  run "omega.png not blank" check_3d --size 640 360 "$tmp/omega.png"
  written=$(find "$tmp/movie" -name 'frame_*.png' | wc -l)
  checks=$((checks + 1))
  if [[ $written -eq $frames && $frames -gt 1 ]]; then
    echo "ok   --frames wrote $written pictures = the $frames frames of beam.pvd"
  else
    echo "FAIL --frames wrote $written pictures, beam.pvd lists $frames frames"
    failures=$((failures + 1))
  fi
  last=$(printf '%s/frame_%04d.png' "$tmp/movie" $((frames - 1)))
  run "first and last animation frames not blank" check_3d --size 640 360 \
    "$tmp/movie/frame_0000.png" "$last"
fi
# A segment (cell) array, averaged to the nodes for the tube; z drawn upwards.
if run "render_beam --color moment (a segment array)" pvbatch_run "$here/render_beam.py" "$ff" \
  --color moment --view-up 0 0 1 --out "$tmp/moment.png" --size 640 360; then
  run "moment.png not blank" check_3d --size 640 360 "$tmp/moment.png"
fi
if [[ -f $se/beam.pvd ]]; then
  if run "render_beam (space march)" pvbatch_run "$here/render_beam.py" "$se"; then
    run "space march beam.png not blank" check_3d "$se/beam.png"
  fi
fi

echo "== render_spacetime.py"
if run "render_spacetime (energy_density, edges)" pvbatch_run "$here/render_spacetime.py" \
  "$ff"; then
  run "spacetime_energy_density.png not blank" check_png "$ff/spacetime_energy_density.png"
fi
if run "render_spacetime --field dcel_residual --log" pvbatch_run "$here/render_spacetime.py" \
  "$ff" --field dcel_residual --log --out "$tmp/residual.png"; then
  run "residual.png not blank" check_png "$tmp/residual.png"
fi
if run "render_spacetime (space march, position)" pvbatch_run "$here/render_spacetime.py" "$se" \
  --field position; then
  run "space march spacetime_position.png not blank" check_png "$se/spacetime_position.png"
fi

echo "== plot_series.py"
# The energy figure the script prints is the program's (summary.json, the same definition and
# digits): the relative range for a conservative run, the balance B_j for a damped one.
summary_figure() {
  python3 -c "import json, sys; print('%.3e' % json.load(open(sys.argv[1]))[sys.argv[2]])" "$@"
}
if run "plot_series (time_series.csv)" pvbatch_run "$here/plot_series.py" "$ff"; then
  cp "$tmp/log" "$tmp/plot.log"
  expected="(max E - min E)/|E_0| = $(summary_figure "$ff/summary.json" energy_range_relative)"
  run "plot_series prints the program's figure: $expected" grep -qF "$expected" "$tmp/plot.log"
  run "series.png not blank" check_png --size 1600 600 "$ff/series.png"
fi
dc=$tmp/damped_cantilever
if run "field simulate damped_cantilever" "$field" simulate \
  "$repo/meshes/damped_cantilever/case.toml" --out "$dc" -q &&
  run "plot_series (damped: the energy balance)" pvbatch_run "$here/plot_series.py" "$dc"; then
  expected="balance max |E_j - E_0 - W_j + D_j| = $(summary_figure "$dc/summary.json" \
    energy_balance_max) J"
  cp "$tmp/log" "$tmp/plot.log"
  run "plot_series prints the program's figure: $expected" grep -qF "$expected" "$tmp/plot.log"
fi
if run "plot_series (space_series.csv)" pvbatch_run "$here/plot_series.py" "$se"; then
  run "space march series.png not blank" check_png --size 1600 600 "$se/series.png"
fi

echo "== errors: exit code 2 with a message"
expect_usage_error "render_beam: missing run folder" "does not exist" \
  pvbatch "$here/render_beam.py" "$tmp/no_such_run"
mkdir "$tmp/empty_run"
expect_usage_error "render_beam: no beam.pvd" "beam.pvd' not found" \
  pvbatch "$here/render_beam.py" "$tmp/empty_run"
expect_usage_error "render_spacetime: no spacetime.vtu" "spacetime.vtu' not found" \
  pvbatch "$here/render_spacetime.py" "$tmp/empty_run"
expect_usage_error "plot_series: no series CSV" "neither" \
  pvbatch "$here/plot_series.py" "$tmp/empty_run"
expect_usage_error "render_spacetime: unknown array" "no array 'no_such_array'" \
  pvbatch "$here/render_spacetime.py" "$ff" --field no_such_array
expect_usage_error "render_beam: zero --view-up" "must be a finite, non-zero vector" \
  pvbatch "$here/render_beam.py" "$ff" --view-up 0 0 0
expect_usage_error "render_beam: unknown colour array" "no point array 'no_such_array'" \
  pvbatch "$here/render_beam.py" "$ff" --color no_such_array

echo "== png_check.py rejects a blank picture"
pvpython -c "
from vtkmodules.vtkImagingSources import vtkImageCanvasSource2D
from vtkmodules.vtkIOImage import vtkPNGWriter
canvas = vtkImageCanvasSource2D()
canvas.SetScalarTypeToUnsignedChar()
canvas.SetNumberOfScalarComponents(3)
canvas.SetExtent(0, 639, 0, 359, 0, 0)
canvas.SetDrawColor(255, 255, 255)
canvas.FillBox(0, 639, 0, 359)
canvas.SetDrawColor(40, 40, 40)
canvas.FillBox(600, 620, 20, 340)  # a bar, like a lone colour bar
writer = vtkPNGWriter()
writer.SetFileName('$tmp/blank.png')
writer.SetInputConnection(canvas.GetOutputPort())
writer.Write()
" >/dev/null 2>&1
checks=$((checks + 1))
code=0
check_png "$tmp/blank.png" >"$tmp/log" 2>&1 || code=$?
if [[ $code -eq 1 ]] && grep -q "^FAIL" "$tmp/log"; then
  echo "ok   blank picture rejected: $(cat "$tmp/log")"
else
  echo "FAIL png_check accepted a blank picture (exit code $code):"
  sed 's/^/       /' "$tmp/log"
  failures=$((failures + 1))
fi

echo "== $((checks - failures)) of $checks checks passed"
[[ $failures -eq 0 ]] || exit 1
