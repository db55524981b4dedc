#!/usr/bin/env bash
# README command 2: installs what is missing, builds and runs the whole test suite (ctest).
# Same variables as scripts/build.sh (BUILD_TYPE, SANITIZE, BUILD_DIR).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/build.sh
source "$root/scripts/build.sh"
if [ -n "${SANITIZE:-}" ]; then
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
fi
echo "== ctest ($BUILD_TYPE${SANITIZE:+, sanitizers: $SANITIZE}) in $BUILD_DIR"
# A sanitizer build leaves out the ParaView scripts' test (label paraview): pvbatch is not
# sanitized, and the Release run has already run it.
exclude=()
[ -n "${SANITIZE:-}" ] && exclude=(-LE paraview)
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "${exclude[@]}"
