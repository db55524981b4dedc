#!/usr/bin/env bash
# README command 1: installs what is missing, builds (Release) and runs the main job.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_TYPE=Release TARGETS=field_app source "$root/scripts/build.sh"
"$BUILD_DIR/bin/field" demo
