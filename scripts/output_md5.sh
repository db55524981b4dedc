#!/usr/bin/env bash
# md5 of every output file of `field simulate` / `field reconstruct` on the shipped cases, with
# 1 and 2 threads: to show that a refactoring leaves the outputs bit-identical. summary.json is
# hashed without its wall_time_s line (the only value that depends on the run's timing).
#   bash scripts/output_md5.sh build/bin/field > after.md5   # then diff against before.md5
set -euo pipefail
field=$(realpath "${1:?usage: output_md5.sh FIELD_BINARY}")
root=$(cd "$(dirname "$0")/.." && pwd)
work=${OUTPUT_MD5_DIR:-/tmp/output_md5}  # a fixed folder: run.toml and summary.json name paths
rm -rf "$work" && mkdir -p "$work"
cp -r "$root/meshes/free_flight" "$work/free_flight_exp"
sed -i 's/^retraction = "cayley"/retraction = "exp"/' "$work/free_flight_exp/case.toml"
grep -q '^retraction = "exp"' "$work/free_flight_exp/case.toml"
run() {  # command case name threads
  "$field" "$1" "$2" --out "$work/runs/$3-t$4" --threads "$4" -q > /dev/null
}
for t in 1 2; do
  run simulate "$root/meshes/free_flight/case.toml" free_flight "$t"
  run simulate "$root/meshes/cantilever_gravity/case.toml" cantilever_gravity "$t"
  run simulate "$work/free_flight_exp/case.toml" free_flight_exp "$t"
  run reconstruct "$root/meshes/space_evolution/case.toml" space_evolution "$t"
  run reconstruct "$root/meshes/driven/case.toml" driven "$t"
done
cd "$work/runs"
find . -type f | LC_ALL=C sort | while read -r f; do
  if [[ $f == */summary.json ]]; then
    printf '%s  %s\n' "$(grep -v '"wall_time_s"' "$f" | md5sum | cut -d' ' -f1)" "$f"
  else
    md5sum "$f"
  fi
done
