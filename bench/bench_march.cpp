// March benchmarks (SPEC [S7]): slabs of the time and space marches for A (or J) nodes per slab
// on 1 and 2 threads, and whole runs of the SPEC's cases [S11]. Items are node updates (one
// converged node solve of SPEC [S6] with everything around it: momenta, targets, tau, ends);
// times are real (wall-clock) times, as OpenMP runs on several threads.
#include <benchmark/benchmark.h>

#include <algorithm>

#include "bench/bench_problems.hpp"
#include "libfield/core/error.hpp"
#include "libfield/march/slab_lanes.hpp"

namespace {

using namespace field;

// Counters shared by every march benchmark.
void report(benchmark::State& state, long long node_updates, long long iterations,
            long long slabs) {
  state.SetItemsProcessed(node_updates);
  state.counters["newton_per_node"] =
      node_updates > 0 ? static_cast<double>(iterations) / node_updates : 0.0;
  state.counters["ns_per_slab"] = benchmark::Counter(
      static_cast<double>(slabs) * 1e-9,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);  // seconds per slab, in s
}

template <class Run>
void run_marches(benchmark::State& state, Run&& run, long long slabs_per_run) {
  long long updates = 0, iterations = 0, slabs = 0;
  for (auto _ : state) {
    const march::MarchResult r = run();
    FIELD_CHECK(r.completed, "benchmark march failed at slab " << r.last_slab + 1);
    updates += r.node_solves;
    iterations += r.newton_iterations;
    slabs += slabs_per_run;
  }
  report(state, updates, iterations, slabs);
}

// One time step of a time march on A nodes: each iteration marches J = max(100, 1e5 / A) steps
// of WavyBeam (at least 1e5 node updates), so that the start-up (the velocity start, one slab
// solved node by node) is at most 1 % of the slabs; per slab = / J. Third argument: the
// march::NodeKernel (0 automatic, 1 lanes_baseline, 2 lanes_avx2, 3 per_node).
void BM_time_slab(benchmark::State& state) {
  bench::WavyBeam wb;
  wb.A = static_cast<int>(state.range(0));
  wb.J = std::max(100, 100000 / wb.A);
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Retraction(lie::RetractionKind::cayley),
                                  wb.mesh());
  const march::TimeMarchInput in = wb.input();
  march::MarchOptions options;
  options.threads = static_cast<int>(state.range(1));
  options.kernel = static_cast<march::NodeKernel>(state.range(2));
  run_marches(
      state, [&] { return march::time_march(model, in, {}, options); }, wb.J);
}

// One column of a space march with J nodes: each iteration marches the 10 columns of WavySpace.
// Third argument: the march::NodeKernel, as for BM_time_slab.
void BM_space_slab(benchmark::State& state) {
  bench::WavySpace ws;
  ws.J = static_cast<int>(state.range(0));
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Retraction(lie::RetractionKind::cayley),
                                  ws.mesh());
  const march::SpaceMarchInput in = ws.input();
  march::MarchOptions options;
  options.threads = static_cast<int>(state.range(1));
  options.kernel = static_cast<march::NodeKernel>(state.range(2));
  run_marches(
      state, [&] { return march::space_march(model, in, {}, options); }, ws.A - 1);
}

// Sizes x threads with the automatic kernel, then the other kernels at 1000 nodes, 1 thread.
void slab_sizes(benchmark::internal::Benchmark* b) {
  for (int threads : {1, 2})
    for (int n : {10, 100, 1000, 10000}) b->Args({n, threads, 0});
  for (int kernel : {1, 2, 3})
    if (kernel != 2 || march::SlabLanes::avx2_available()) b->Args({1000, 1, kernel});
  b->ArgNames({"nodes", "threads", "kernel"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_time_slab)->Apply(slab_sizes);
BENCHMARK(BM_space_slab)->Apply(slab_sizes);

// Whole runs: free_flight [S11.1] (Cayley and exp), space_evolution [S11.4], and a long beam
// (WavyBeam, A = 10000, 1000 steps).
void BM_free_flight(benchmark::State& state) {
  const test::FreeFlight ff;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const auto kind =
      state.range(0) == 0 ? lie::RetractionKind::cayley : lie::RetractionKind::exponential;
  const dcel::DiscreteModel model(beam, loads, lie::Retraction(kind), ff.mesh());
  const march::TimeMarchInput in = ff.input();
  march::MarchOptions options;
  options.threads = 1;
  run_marches(
      state, [&] { return march::time_march(model, in, {}, options); }, ff.J);
}
BENCHMARK(BM_free_flight)
    ->Arg(0)
    ->Arg(1)
    ->ArgName("exp")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_space_evolution(benchmark::State& state) {
  const test::SpaceEvolution ev;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Retraction(lie::RetractionKind::cayley),
                                  ev.mesh());
  const march::SpaceMarchInput in = ev.input();
  march::MarchOptions options;
  options.threads = static_cast<int>(state.range(0));
  run_marches(
      state, [&] { return march::space_march(model, in, {}, options); }, ev.A - 1);
}
BENCHMARK(BM_space_evolution)
    ->Arg(1)
    ->Arg(2)
    ->ArgName("threads")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_long_beam(benchmark::State& state) {
  bench::WavyBeam wb;
  wb.A = 10000;
  wb.J = 1000;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Retraction(lie::RetractionKind::cayley),
                                  wb.mesh());
  const march::TimeMarchInput in = wb.input();
  march::MarchOptions options;
  options.threads = static_cast<int>(state.range(0));
  run_marches(
      state, [&] { return march::time_march(model, in, {}, options); }, wb.J);
}
BENCHMARK(BM_long_beam)
    ->Arg(1)
    ->Arg(2)
    ->ArgName("threads")
    ->UseRealTime()
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

}  // namespace
