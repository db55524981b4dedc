#!/usr/bin/env bash
# Installs the Debian 12 packages that libfield needs, only those that are missing.
# Idempotent and quiet; takes well under a second when everything is there.
#
# VTK comes from ParaView's bundled VTK (paraview-dev), not from libvtk9-dev, which conflicts
# with python3-paraview (the ParaView users visualise with). pvbatch (package paraview) renders
# the pictures headless under xvfb-run (package xvfb). paraview-dev's CMake files also
# need python3-paraview and a few header-only/-dev packages to be present. python3-numpy and
# python3-matplotlib serve scripts/accuracy_vs_time.py (and its tests). libfmt-dev: Dragonbox, the
# shortest digits of the numbers in CSV files (libfield/io/number_text.hpp). libsuitesparse-dev:
# CHOLMOD, the sparse Cholesky factorisation of the estimator (libfield/estimate).
# python3-distributed: Dask, the ensembles of the Python module (python/libfield/ensemble.py).
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  libeigen3-dev libsuitesparse-dev
  paraview-dev python3-paraview libutfcpp-dev liblz4-dev libdouble-conversion-dev
  paraview xvfb xauth
  python3-numpy python3-matplotlib
  pybind11-dev python3-dev python3-pytest python3-distributed
  libcli11-dev libtomlplusplus-dev libfmt-dev
  libgtest-dev libbenchmark-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "install_deps: missing Debian packages: ${missing[*]}" >&2
  echo "install_deps: run as root (or: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "install_deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
