#!/usr/bin/env bash
# Fuzzes the input readers (tests/fuzz/: the case file and every CSV reader) with libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer. Installs clang and its runtime if missing,
# builds only the library and the fuzz targets in build/fuzz, runs each target for FUZZ_SECONDS
# (default 600) from its seed corpus, and fails on any crash, leak, sanitizer report,
# timeout (a hang) or out-of-memory. Found inputs are left in build/fuzz/artifacts/<target>/;
# add each to tests/fuzz/corpus/<target>/ as a regression seed once fixed.
#   FUZZ_SECONDS=30 bash scripts/fuzz.sh                 # 30 s per target
#   FUZZ_RUNS=20000 bash scripts/fuzz.sh                 # the short run of .ci/run: a fixed
#                                                        # number of inputs from seed 1
#                                                        # (FUZZ_SEED); not the same inputs on
#                                                        # every machine (tests/fuzz/README.md)
#   bash scripts/fuzz.sh fuzz_case_file                  # one target, 10 minutes
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-600}
runs=${FUZZ_RUNS:-}
seed=${FUZZ_SEED:-1}
jobs=${JOBS:-$(nproc)}

missing=()
command -v clang++ >/dev/null || missing+=(clang)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
  missing+=(libclang-rt-14-dev)
ls /usr/lib/llvm-*/lib/libomp.so >/dev/null 2>&1 || missing+=(libomp-dev)
if ((${#missing[@]})); then
  echo "== installing ${missing[*]}"
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

targets=("$@")
if ((${#targets[@]} == 0)); then
  for f in tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi

build=build/fuzz
# Debug with line tables instead of full debug information (-g): every report keeps its file and
# line, and the library compiles in about 40 % less time (march/space_amplification.cpp: 9.0 CPU-s
# against 14.5).
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only \
  -DCMAKE_CXX_COMPILER=clang++ -DFIELD_BUILD_FUZZ=ON -DFIELD_BUILD_TESTS=OFF -DFIELD_BUILD_BENCH=OFF \
  ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
cmake --build "$build" -j"$jobs" --target "${targets[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for target in "${targets[@]}"; do
  name=${target#fuzz_}
  corpus=$build/corpus/$name
  artifacts=$build/artifacts/$name
  mkdir -p "$corpus" "$artifacts"  # new inputs go to build/fuzz/corpus, the seeds stay as they are
  if [[ -n $runs ]]; then
    budget=(-runs="$runs" -seed="$seed")
    echo "== $target: $runs inputs from seed $seed"
  else
    budget=(-max_total_time="$seconds")
    echo "== $target: ${seconds} s"
  fi
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: memory blow-ups are bugs too.
  if ! "$build/tests/fuzz/$target" "$corpus" tests/fuzz/corpus/"$name" \
      "${budget[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix="$artifacts/" -print_final_stats=1 2>"$build/$target.log"; then
    tail -n 60 "$build/$target.log"
    echo "== $target FAILED: inputs in $artifacts/"
    status=1
  else
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|cov:" "$build/$target.log" | tail -n 3
  fi
done
exit $status
