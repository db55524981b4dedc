// Kernel benchmarks: the retraction functions of theory §2 for Cayley and exp.
#include <benchmark/benchmark.h>

#include "libfield/lie/retraction.hpp"

namespace {

using field::Mat6;
using field::Vec6;
using field::lie::Retraction;
using field::lie::RetractionKind;

Vec6 typical_x() {
  Vec6 x;
  x << 0.01, -0.02, 0.015, 0.001, 0.002, 0.05;  // dt * xi of a free-flight step
  return x;
}

template <RetractionKind kind>
void BM_tau(benchmark::State& state) {
  const Retraction tau(kind);
  Vec6 x = typical_x();
  for (auto _ : state) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(tau.tau(x));
  }
  state.SetItemsProcessed(state.iterations());
}

template <RetractionKind kind>
void BM_tau_inv(benchmark::State& state) {
  const Retraction tau(kind);
  auto g = tau.tau(typical_x());
  for (auto _ : state) {
    benchmark::DoNotOptimize(g);
    benchmark::DoNotOptimize(tau.tau_inv(g));
  }
  state.SetItemsProcessed(state.iterations());
}

template <RetractionKind kind>
void BM_dtau_inv_dual(benchmark::State& state) {
  const Retraction tau(kind);
  Vec6 x = typical_x();
  Vec6 p = Vec6::Constant(0.3);
  for (auto _ : state) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(tau.dtau_inv_dual(x, p));
  }
  state.SetItemsProcessed(state.iterations());
}

template <RetractionKind kind>
void BM_dtau_inv(benchmark::State& state) {
  const Retraction tau(kind);
  Vec6 x = typical_x();
  for (auto _ : state) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(tau.dtau_inv(x));
  }
  state.SetItemsProcessed(state.iterations());
}

template <RetractionKind kind>
void BM_newton_M(benchmark::State& state) {
  const Retraction tau(kind);
  Vec6 x = typical_x();
  Vec6 p = Vec6::Constant(0.3);
  for (auto _ : state) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(tau.newton_M(x, p));
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK_TEMPLATE(BM_tau, RetractionKind::cayley);
BENCHMARK_TEMPLATE(BM_tau, RetractionKind::exponential);
BENCHMARK_TEMPLATE(BM_tau_inv, RetractionKind::cayley);
BENCHMARK_TEMPLATE(BM_tau_inv, RetractionKind::exponential);
BENCHMARK_TEMPLATE(BM_dtau_inv_dual, RetractionKind::cayley);
BENCHMARK_TEMPLATE(BM_dtau_inv_dual, RetractionKind::exponential);
BENCHMARK_TEMPLATE(BM_dtau_inv, RetractionKind::cayley);
BENCHMARK_TEMPLATE(BM_dtau_inv, RetractionKind::exponential);
BENCHMARK_TEMPLATE(BM_newton_M, RetractionKind::cayley);
BENCHMARK_TEMPLATE(BM_newton_M, RetractionKind::exponential);

}  // namespace
