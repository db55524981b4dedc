#!/usr/bin/env bash
# Builds the libfield wheel offline with Debian 12's setuptools (pyproject.toml, setup.py),
# checks its contents and the shared libraries its extension needs, installs it into a fresh
# virtual environment (numpy from Debian) and runs it there, outside the source tree: the free
# flight's first rows equal the `field` program's field.csv to the bit. With python3-build
# installed, `python3 -m build --wheel --no-isolation` is checked to give the same files.
# docs/python.md, "Building and importing". Not run by CI: it compiles the library again, in
# build/temp.linux-* (setuptools' folder; later runs rebuild only what changed).
#   bash scripts/python_wheel.sh [WHEEL_DIR]     # default build/wheel; FIELD_BIN: the program
# CMAKE_ARGS (e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache) and CMAKE_BUILD_PARALLEL_LEVEL are
# passed on to CMake (setup.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
wheel_dir=$(realpath -m "${1:-$root/build/wheel}")
python=/usr/bin/python3
field=$(realpath -m "${FIELD_BIN:-$root/build/release/bin/field}")
if [[ ! -x $field ]]; then
  echo "python_wheel.sh: no field program at $field: build it first (README) or set FIELD_BIN" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"

# 1. The wheel, offline: Debian's setuptools and wheel, no build isolation, no downloads.
# setuptools' build_lib is emptied first, so that no file of an earlier build reaches the wheel.
rm -rf "$wheel_dir" build/lib.* build/bdist.*
start=$SECONDS
"$python" -m pip wheel --no-build-isolation --no-deps --no-index -w "$wheel_dir" .
echo "python_wheel.sh: pip wheel took $((SECONDS - start)) s"
wheels=("$wheel_dir"/libfield-*.whl)
[[ ${#wheels[@]} -eq 1 && -f ${wheels[0]} ]] || { echo "python_wheel.sh: no single wheel in $wheel_dir" >&2; exit 1; }
wheel=${wheels[0]}

# 2. Its contents: the package's Python files and the extension, the dist-info, nothing else.
suffix=$("$python" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
version=$("$python" -c "import tomllib; print(tomllib.load(open('pyproject.toml', 'rb'))['project']['version'])")
{
  for f in python/libfield/*.py; do echo "libfield/$(basename "$f")"; done
  echo "libfield/_libfield$suffix"
  for f in METADATA RECORD WHEEL top_level.txt; do echo "libfield-$version.dist-info/$f"; done
} | LC_ALL=C sort > "$work/expected"
unzip -Z1 "$wheel" | LC_ALL=C sort > "$work/contents"
if ! diff -u "$work/expected" "$work/contents"; then
  echo "python_wheel.sh: the wheel's files differ from the package's (above)" >&2
  exit 1
fi
unzip -l "$wheel"

# 3. python3 -m build, where Debian's python3-build is installed: the same files.
if "$python" -P -c "import build.__main__" 2> /dev/null; then  # -P: not ./build
  rm -rf build/lib.* build/bdist.*
  "$python" -P -m build --wheel --no-isolation --outdir "$work/build_dist" .
  unzip -Z1 "$work"/build_dist/libfield-*.whl | LC_ALL=C sort | diff -u "$work/contents" -
  echo "python_wheel.sh: python3 -m build --wheel --no-isolation: the same files"
else
  echo "python_wheel.sh: python3-build not installed: python3 -m build not checked"
fi

# 4. Installed into a fresh virtual environment that sees Debian's numpy; run from a folder
# outside the source tree, on a copy of the free flight cut to 20 rows, against the program.
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --no-index -q "$wheel"  # numpy: Debian's, checked
cp -r meshes/free_flight "$work/case"
sed -i 's/^J = 400 /J = 20 /' "$work/case/case.toml"
grep -q '^J = 20 ' "$work/case/case.toml"
"$field" simulate "$work/case/case.toml" --out "$work/run" --threads 1 -q > /dev/null
cd "$work"
"$work/venv/bin/python" - "$version" "$work/venv" <<'EOF'
import csv
import os
import sys

import numpy as np
import libfield

version, venv = sys.argv[1:]
assert libfield.__file__.startswith(venv + os.sep), libfield.__file__
assert libfield.__version__ == version, (libfield.__version__, version)
run = libfield.simulate("case/case.toml")
with open("run/field.csv", newline="") as f:
    rows = list(csv.DictReader(f))
assert run.status == "completed" and run.positions.shape == (21, 11, 3), run
for k, c in enumerate("xyz"):
    assert np.array_equal(run.positions[..., k].ravel(), [float(r[c]) for r in rows]), c
for k, c in enumerate(["qw", "qx", "qy", "qz"]):
    assert np.array_equal(run.quaternions[..., k].ravel(), [float(r[c]) for r in rows]), c
print(f"libfield {libfield.__version__} from {os.path.dirname(libfield.__file__)}: {run}, "
      f"positions and quaternions equal field.csv's")
EOF
extension=$(find "$work/venv" -name "_libfield$suffix")
ldd "$extension" | tee "$work/ldd"
if grep -q "not found" "$work/ldd"; then
  echo "python_wheel.sh: the extension misses shared libraries (above)" >&2
  exit 1
fi
echo "python_wheel.sh: $(basename "$wheel"), $(stat -c %s "$wheel") bytes, in $wheel_dir"
