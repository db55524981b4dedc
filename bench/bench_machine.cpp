// The machine's floating-point ceiling for this build (docs/performance.md): a dependent chain of
// additions gives the clock (AMD Zen 4: an FP add has a latency of 3 cycles), and many
// independent multiply-add chains, compiled with the project's flags, give the peak flop rate
// this compiled code can reach (items = flops).
#include <benchmark/benchmark.h>

namespace {

// One add per item on a single dependency chain: rate x 3 cycles = clock (Zen 4 latency).
void BM_clock_add_chain(benchmark::State& state) {
  double x = 1.0, y = 1e-9;
  benchmark::DoNotOptimize(y);
  constexpr int kAdds = 1000;
  for (auto _ : state) {
    for (int i = 0; i < kAdds; ++i) x += y;  // no -ffast-math: stays one serial chain
    benchmark::DoNotOptimize(x);
  }
  state.SetItemsProcessed(state.iterations() * kAdds);
  state.counters["GHz_if_3_cycles"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * kAdds * 3e-9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_clock_add_chain);

// Independent chains of acc = acc * a + b (2 flops each): enough independent work to fill the
// two multiply and two add pipes at their latency (3 + 3 cycles on Zen 4: 12 registers of
// chains, i.e. 24 doubles in SSE2 registers, 48 in AVX2 ones); the compiler packs them into
// SIMD registers as wide as the build allows. items = flops.
// The chains, written once and inlined into a baseline and an AVX2 function (the instruction
// set of the march's lane kernels, march/slab_lanes.cpp; no FMA in either).
template <int kChains>
inline __attribute__((always_inline)) void peak_mul_add(benchmark::State& state) {
  constexpr int kSteps = 100;
  double acc[kChains];
  for (int k = 0; k < kChains; ++k) acc[k] = 1.0 + 1e-3 * k;
  double a = 0.999999, b = 1e-7;
  benchmark::DoNotOptimize(a);
  benchmark::DoNotOptimize(b);
  for (auto _ : state) {
    for (int s = 0; s < kSteps; ++s)
      for (int k = 0; k < kChains; ++k) acc[k] = acc[k] * a + b;
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * kSteps * kChains * 2);
}

void BM_peak_mul_add(benchmark::State& state) {
  peak_mul_add<24>(state);
}
BENCHMARK(BM_peak_mul_add);

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) void BM_peak_mul_add_avx2(benchmark::State& state) {
  if (!__builtin_cpu_supports("avx2")) {
    state.SkipWithError("no AVX2 on this CPU");
    return;
  }
  peak_mul_add<48>(state);
}
BENCHMARK(BM_peak_mul_add_avx2);
#endif

}  // namespace
