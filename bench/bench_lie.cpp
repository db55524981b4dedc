// Kernel benchmarks: the retraction functions of theory §2 for Cayley and exp.
#include <benchmark/benchmark.h>

#include "libfield/lie/retraction.hpp"

namespace {

using field::Mat6;
using field::Vec6;
using field::lie::Se3Cayley;
using field::lie::Se3Exp;

Vec6 typical_x() {
  Vec6 x;
  x << 0.01, -0.02, 0.015, 0.001, 0.002, 0.05;  // dt * xi of a free-flight step
  return x;
}

template <class G>
void BM_tau(benchmark::State& state) {
  Vec6 x = typical_x();
  for (auto _ : state) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(G::tau(x));
  }
  state.SetItemsProcessed(state.iterations());
}

template <class G>
void BM_tau_inv(benchmark::State& state) {
  auto g = G::tau(typical_x());
  for (auto _ : state) {
    benchmark::DoNotOptimize(g);
    benchmark::DoNotOptimize(G::tau_inv(g));
  }
  state.SetItemsProcessed(state.iterations());
}

template <class G>
void BM_dtau_inv_dual(benchmark::State& state) {
  Vec6 x = typical_x();
  Vec6 p = Vec6::Constant(0.3);
  for (auto _ : state) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(G::dtau_inv_dual(x, p));
  }
  state.SetItemsProcessed(state.iterations());
}

template <class G>
void BM_dtau_inv(benchmark::State& state) {
  Vec6 x = typical_x();
  for (auto _ : state) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(G::dtau_inv(x));
  }
  state.SetItemsProcessed(state.iterations());
}

template <class G>
void BM_newton_M(benchmark::State& state) {
  Vec6 x = typical_x();
  Vec6 p = Vec6::Constant(0.3);
  for (auto _ : state) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(G::newton_M(x, p));
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK_TEMPLATE(BM_tau, Se3Cayley);
BENCHMARK_TEMPLATE(BM_tau, Se3Exp);
BENCHMARK_TEMPLATE(BM_tau_inv, Se3Cayley);
BENCHMARK_TEMPLATE(BM_tau_inv, Se3Exp);
BENCHMARK_TEMPLATE(BM_dtau_inv_dual, Se3Cayley);
BENCHMARK_TEMPLATE(BM_dtau_inv_dual, Se3Exp);
BENCHMARK_TEMPLATE(BM_dtau_inv, Se3Cayley);
BENCHMARK_TEMPLATE(BM_dtau_inv, Se3Exp);
BENCHMARK_TEMPLATE(BM_newton_M, Se3Cayley);
BENCHMARK_TEMPLATE(BM_newton_M, Se3Exp);

}  // namespace
