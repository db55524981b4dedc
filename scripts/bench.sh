#!/usr/bin/env bash
# Builds Release and runs the benchmark suite (docs/performance.md):
#   bash scripts/bench.sh [OUT_DIR]        (default build/bench-results)
# Writes OUT_DIR/bench.json (every Google Benchmark result, JSON), OUT_DIR/memory.txt (peak RSS of
# a long streaming run), OUT_DIR/machine.txt, and prints a summary table.
#   REPS=5            repetitions of each benchmark, interleaved at random (the table shows
#                     the median: the machine's speed drifts by tens of per cent over minutes)
#   FILTER=regex      only these benchmarks (default: all)
#   MEMORY_NODES=10000 MEMORY_STEPS=100000 MEMORY_THREADS=2   the memory run (MEMORY_STEPS=0: skip)
# Other people's jobs on the machine make timings noisy: check `uptime` first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/build/bench-results}"
BUILD_TYPE=Release TARGETS=bench source "$root/scripts/build.sh"
mkdir -p "$out"

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nproc: $(nproc)"
  echo "cpu: $(lscpu | sed -n 's/^Model name:[[:space:]]*//p')"
  echo "compiler: $(${CXX:-c++} --version | head -1)"
  echo "flags: $(sed -n 's/^CMAKE_CXX_FLAGS_RELEASE:STRING=//p' "$BUILD_DIR/CMakeCache.txt")"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt"

for b in bench_machine bench_lie bench_node_solver bench_march bench_diagnostics bench_output; do
  echo "== $b"
  "$BUILD_DIR/bench/$b" --benchmark_filter="${FILTER:-.}" \
    --benchmark_repetitions="${REPS:-5}" --benchmark_enable_random_interleaving=true \
    --benchmark_display_aggregates_only=true \
    --benchmark_out="$out/$b.json" --benchmark_out_format=json
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"

python3 "$root/scripts/bench_summary.py" "$out" bench_machine bench_lie bench_node_solver bench_march \
  bench_diagnostics bench_output

if [ "${MEMORY_STEPS:-100000}" != 0 ]; then
  echo "== memory_run"
  "$BUILD_DIR/bench/memory_run" "${MEMORY_NODES:-10000}" "${MEMORY_STEPS:-100000}" \
    "${MEMORY_THREADS:-2}" | tee "$out/memory.txt"
fi
echo "== results in $out"
