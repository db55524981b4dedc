#!/usr/bin/env bash
# Configures and builds libfield. Sourced by example.sh and test.sh; not a README command.
#   BUILD_TYPE  Release (default) or Debug
#   SANITIZE    e.g. address,undefined (empty: none)
#   BUILD_DIR   default build/<type>[-<sanitizers>]
#   TARGETS     what to build (default: all)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_TYPE="${BUILD_TYPE:-Release}"
SANITIZE="${SANITIZE:-}"
suffix="$(echo "$BUILD_TYPE" | tr '[:upper:]' '[:lower:]')"
[ -n "$SANITIZE" ] && suffix="$suffix-$(echo "$SANITIZE" | tr ',' '-')"
BUILD_DIR="${BUILD_DIR:-$root/build/$suffix}"
jobs="$(nproc 2>/dev/null || echo 2)"

bash "$root/scripts/install_deps.sh"
# The benchmarks are not tests: a sanitizer build skips them (CI's second stage, shorter).
bench=ON
[ -n "$SANITIZE" ] && bench=OFF
cmake -S "$root" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DFIELD_SANITIZE="$SANITIZE" \
  -DFIELD_BUILD_BENCH="$bench" --log-level=WARNING >/dev/null
if [ -n "${TARGETS:-}" ]; then
  # shellcheck disable=SC2086
  cmake --build "$BUILD_DIR" -j "$jobs" --target $TARGETS
else
  cmake --build "$BUILD_DIR" -j "$jobs"
fi
export BUILD_DIR
