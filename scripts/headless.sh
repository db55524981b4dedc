#!/usr/bin/env bash
# Runs a command under a private virtual X server (Xvfb), for ParaView's pvbatch/pvpython:
#   bash scripts/headless.sh pvbatch paraview/render_beam.py runs/free_flight
# Like `xvfb-run -a`, but the server's display number comes from Xvfb itself (-displayfd) and
# there is no temporary auth folder to clean up (xvfb-run's cleanup fails now and then when
# several run at once). With DISPLAY already set, the command runs as it is.
set -euo pipefail
if [[ -n "${DISPLAY:-}" ]]; then exec "$@"; fi
if ! command -v Xvfb >/dev/null; then
  echo "headless.sh: Xvfb not found (Debian package xvfb; scripts/install_deps.sh installs it)" >&2
  exit 2
fi
fifo_dir=$(mktemp -d "${TMPDIR:-/tmp}/headless.XXXXXX")
Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp -noreset 3>"$fifo_dir/display" >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true; wait "$xvfb" 2>/dev/null || true; rm -rf "$fifo_dir"' EXIT
for _ in $(seq 100); do
  [[ -s "$fifo_dir/display" ]] && break
  kill -0 "$xvfb" 2>/dev/null || { echo "headless.sh: Xvfb did not start" >&2; exit 2; }
  sleep 0.05
done
DISPLAY=":$(head -n 1 "$fifo_dir/display")"
export DISPLAY
"$@"
