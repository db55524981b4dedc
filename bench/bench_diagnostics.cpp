// The series diagnostics of a time march (noether::SlabDiagnostics, theory §7.2, §8) against
// the march they observe: WavyBeam slabs of A nodes, J = max(100, 1e5 / A) rows, marched alone
// (series = 0), with the diagnostics of every row (1) or of every 100th row (100), on 1 and 2
// threads. Items are node updates, as in bench_march, so the rates compare directly: the share
// of the diagnostics is 1 - rate(series) / rate(alone).
#include <benchmark/benchmark.h>

#include <algorithm>

#include "bench/bench_problems.hpp"
#include "libfield/core/error.hpp"
#include "libfield/noether/slab_diagnostics.hpp"

namespace {

using namespace field;

// Arguments: nodes A, threads, series stride (0: no diagnostics).
void BM_time_series(benchmark::State& state) {
  bench::WavyBeam wb;
  wb.A = static_cast<int>(state.range(0));
  wb.J = std::max(100, 100000 / wb.A);
  const int threads = static_cast<int>(state.range(1)), stride = static_cast<int>(state.range(2));
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, wb.mesh());
  const march::TimeMarchInput in = wb.input();
  march::MarchOptions options;
  options.threads = threads;
  double energy = 0.0;  // consumed, so that nothing is optimised away
  noether::SlabDiagnostics diagnostics(
      model, noether::SlabAxis::row, march::time_boundary(in),
      [&energy](const noether::SlabRecord& d) { energy += d.energy; },
      noether::SeriesOptions{std::max(stride, 1), threads});
  std::vector<march::SlabObserver*> observers;
  if (stride > 0) observers.push_back(&diagnostics);
  long long updates = 0;
  for (auto _ : state) {
    const march::MarchResult r = march::time_march(model, in, observers, options);
    FIELD_CHECK(r.completed, "benchmark march failed at row " << r.last_slab + 1);
    updates += r.node_solves;
  }
  benchmark::DoNotOptimize(energy);
  state.SetItemsProcessed(updates);
}

BENCHMARK(BM_time_series)
    ->ArgsProduct({{100, 1000}, {1, 2}, {0, 1, 100}})
    ->ArgNames({"nodes", "threads", "series"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
