// March benchmarks (theory §6): slabs of the time and space marches for A (or J) nodes per slab
// on 1 and 2 threads, and whole runs of the cases of theory §11. Items are node updates (one
// converged node solve of theory §5 with everything around it: momenta, targets, tau, ends);
// times are real (wall-clock) times, as OpenMP runs on several threads.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "bench/bench_problems.hpp"
#include "libfield/core/error.hpp"
#include "libfield/march/slab_lanes.hpp"
#include "libfield/march/slab_solve.hpp"
#include "libfield/mesh/convected.hpp"

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

// Threads from the second argument, the march::NodeKernel from the third.
march::MarchOptions slab_options(const benchmark::State& state) {
  march::MarchOptions options;
  options.threads = static_cast<int>(state.range(1));
  options.kernel = static_cast<march::NodeKernel>(state.range(2));
  return options;
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
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, wb.mesh());
  const march::TimeMarchInput in = wb.input();
  const march::MarchOptions options = slab_options(state);
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
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ws.mesh());
  const march::SpaceMarchInput in = ws.input();
  const march::MarchOptions options = slab_options(state);
  run_marches(
      state, [&] { return march::space_march(model, in, {}, options); }, ws.A - 1);
}

// Sizes x threads with the automatic kernel, then the other kernels at 1000 nodes, 1 thread.
void slab_sizes(benchmark::internal::Benchmark* b) {
  for (int threads : {1, 2})
    for (int n : {10, 100, 1000, 10000}) b->Args({n, threads, 0});
  b->Args({20, 1, 0});  // the slab of issue 18's A = 20, J = 10^5 whole run (docs/performance.md)
  for (int kernel : {1, 2, 3})
    if (kernel != 2 || march::SlabLanes::avx2_available()) b->Args({1000, 1, kernel});
  b->ArgNames({"nodes", "threads", "kernel"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_time_slab)->Apply(slab_sizes);
BENCHMARK(BM_space_slab)->Apply(slab_sizes);

// Both retractions on the same slabs, to compare them within one run: the time slab (WavyBeam,
// as BM_time_slab) and the space slab (WavySpace, as BM_space_slab) with 1000 nodes, one thread,
// the automatic kernel (lanes for both retractions). First argument: 0 time, 1 space; second:
// 0 Cayley, 1 exp.
void BM_slab_retraction(benchmark::State& state) {
  const bool time = state.range(0) == 0;
  march::MarchOptions options;
  options.threads = 1;
  const model::Loads loads;
  const auto run = [&](auto group) {  // G = lie::Se3Cayley, lie::Se3Exp
    if (time) {
      bench::WavyBeam wb;
      wb.A = 1000;
      wb.J = 100;
      const model::BeamDensity beam = test::soft_beam();
      const dcel::DiscreteModel model(beam, loads, group, wb.mesh());
      const march::TimeMarchInput in = wb.input();
      run_marches(
          state, [&] { return march::time_march(model, in, {}, options); }, wb.J);
    } else {
      bench::WavySpace ws;
      ws.J = 1000;
      const model::BeamDensity beam = test::SpaceEvolution::beam();
      const dcel::DiscreteModel model(beam, loads, group, ws.mesh());
      const march::SpaceMarchInput in = ws.input();
      run_marches(
          state, [&] { return march::space_march(model, in, {}, options); }, ws.A - 1);
    }
  };
  if (state.range(1) == 0)
    run(lie::Se3Cayley{});
  else
    run(lie::Se3Exp{});
}
BENCHMARK(BM_slab_retraction)
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->ArgNames({"space", "exp"})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// Diagonal against coupled laws (theory §1.5), the time slab of BM_time_slab with 1000 nodes, one
// thread, Cayley: 0 the soft beam with the automatic kernel (lanes), 1 the soft beam one node at
// a time with the closed-form dcel::CayleyNode (NodeKernel::per_node), 2 the coupled law of
// test::coupled_beam (the automatic kernel declines it: dcel::solve_node per node), 3 the soft
// beam with dcel::solve_node per node (NodeKernel::reference), the coupled law's path.
void BM_slab_law(benchmark::State& state) {
  bench::WavyBeam wb;
  wb.A = 1000;
  wb.J = 100;
  const int law = static_cast<int>(state.range(0));
  const model::BeamDensity beam = law == 2 ? test::coupled_beam() : test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, wb.mesh());
  const march::TimeMarchInput in = wb.input();
  march::MarchOptions options;
  options.threads = 1;
  options.kernel = law == 1   ? march::NodeKernel::per_node
                   : law == 3 ? march::NodeKernel::reference
                              : march::NodeKernel::automatic;
  run_marches(
      state, [&] { return march::time_march(model, in, {}, options); }, wb.J);
}
BENCHMARK(BM_slab_law)
    ->DenseRange(0, 3)
    ->ArgName("law")
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// Damping (theory §4.7) against the undamped fast path, the time slab of BM_slab_law with 1000
// nodes, one thread, Cayley, soft beam: 0 undamped, automatic kernel (lanes); 1 undamped,
// per_node; 2 mass damping (alpha = 0.5/s); 3 stiffness damping (beta = 1e-3 s); 4 both, on the
// automatic kernel (lanes since issue 18); 5, 6, 7: 2, 3, 4 on per_node (the closed-form node
// solver one node at a time).
void BM_slab_damping(benchmark::State& state) {
  bench::WavyBeam wb;
  wb.A = 1000;
  wb.J = 100;
  const int kind = static_cast<int>(state.range(0));
  const model::BeamDensity beam = test::soft_beam();
  model::Loads loads;
  const int damping = kind >= 5 ? kind - 3 : kind;
  if (damping == 2 || damping == 4) loads.damping.mass = 0.5;
  if (damping == 3 || damping == 4) loads.damping.stiffness = 1e-3;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, wb.mesh());
  const march::TimeMarchInput in = wb.input();
  march::MarchOptions options;
  options.threads = 1;
  options.kernel =
      kind == 1 || kind >= 5 ? march::NodeKernel::per_node : march::NodeKernel::automatic;
  run_marches(
      state, [&] { return march::time_march(model, in, {}, options); }, wb.J);
}
BENCHMARK(BM_slab_damping)
    ->DenseRange(0, 7)
    ->ArgName("damping")
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// A law and a stress-free strain per segment (theory §1.6) against the uniform beam, the time slab
// of BM_slab_law with 1000 nodes, one thread, Cayley, soft beam: 0 uniform (lanes); 1 segments
// with the soft beam's law scaled by 1 + 0.1 sin(a) and eta0 = E6 + 0.1 (sin(a), 0, 0, 0, 0, 0),
// automatic kernel (lanes with a law per lane); 2 the same segments on NodeKernel::per_node.
void BM_slab_segments(benchmark::State& state) {
  bench::WavyBeam wb;
  wb.A = 1000;
  wb.J = 100;
  const int kind = static_cast<int>(state.range(0));
  const model::BeamDensity beam = test::soft_beam();
  std::vector<model::BeamDensity> beams;
  std::vector<const model::Density<lie::Se3Group>*> segments;
  beams.reserve(wb.A);
  for (int a = 0; a < wb.A; ++a) {
    model::SectionLaw law = beam.law();
    law.C *= 1.0 + 0.1 * std::sin(a);
    law.J *= 1.0 + 0.1 * std::sin(a);
    Vec6 eta0 = model::BeamDensity::E6();
    eta0[0] += 0.1 * std::sin(a);
    beams.emplace_back(law, Vec3::Zero(), eta0);
    segments.push_back(&beams.back());
  }
  const model::Loads loads;
  const dcel::DiscreteModel uniform(beam, loads, lie::Se3Cayley{}, wb.mesh());
  const dcel::DiscreteModel<lie::Se3Cayley> model(beam, segments, loads, wb.mesh());
  const march::TimeMarchInput in = wb.input();
  march::MarchOptions options;
  options.threads = 1;
  options.kernel = kind == 2 ? march::NodeKernel::per_node : march::NodeKernel::automatic;
  run_marches(
      state, [&] { return march::time_march(kind == 0 ? uniform : model, in, {}, options); }, wb.J);
}
BENCHMARK(BM_slab_segments)
    ->DenseRange(0, 2)
    ->ArgName("segments")
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// One slab alone, as the marches run it (SlabSolver::begin, lanes_slab, finish), on arrays that
// persist between iterations: no march set-up, unlike BM_time_slab / BM_space_slab. First
// argument 0: step j = 3 of WavyBeam with `nodes` nodes per row; 1: column a = 3 of WavySpace
// with `nodes` nodes per column (the fields of rows or columns 0..3 recorded from a march).
// The node histories are restored before each slab, in parallel (copies, timed: a few per cent
// of the slab).
void BM_one_slab(benchmark::State& state) {
  const bool time = state.range(0) == 0;
  const int n = static_cast<int>(state.range(1));
  const model::BeamDensity beam = time ? test::soft_beam() : test::SpaceEvolution::beam();
  const model::Loads loads;
  using G = lie::Se3Cayley;
  bench::WavyBeam wb;
  wb.A = n;
  wb.J = 4;
  bench::WavySpace ws;
  ws.J = n;
  ws.A = 4;
  const dcel::DiscreteModel model(beam, loads, G{}, time ? wb.mesh() : ws.mesh());
  const test::RecordedRun run = time ? test::record_time_march(model, wb.input(), 1)
                                     : test::record_space_march(model, ws.input(), 1);
  FIELD_CHECK(run.result.completed, "BM_one_slab: the recording march failed");
  const mesh::ConvectedFields<G> c(run.field);
  // Slab 3: the nodes of row (column) 3, and the rates of the three slabs before it.
  std::vector<lie::SE3> cur(n + 1), next(n + 1);
  std::vector<Vec6> y(n + 1), back1(n + 1), back2(n + 1), flux(n), flux_tilde(n);
  for (int i = 0; i <= n; ++i) {
    cur[i] = time ? run.field(3, i) : run.field(i, 3);
    if (i == n) continue;
    y[i] = time ? c.xi(2, i) : c.eta(i, 2);
    back1[i] = time ? c.xi(1, i) : c.eta(i, 1);
    back2[i] = time ? c.xi(0, i) : c.eta(i, 0);
  }
  const std::vector<Vec6> y0 = y, back10 = back1, back20 = back2;
  march::MarchOptions options;
  options.threads = static_cast<int>(state.range(2));
  march::SlabSolver<G> solver(model, time ? dcel::NodeEquation::time : dcel::NodeEquation::space,
                              options);
  FIELD_CHECK(solver.lanes(), "BM_one_slab: no lane kernel");
  const auto no_loads = [](int) { return Vec6::Zero().eval(); };
  march::MarchResult result;
  long long slabs = 0;
  const int batches = march::SlabLanes::batches(n);
  for (auto _ : state) {
    // The restore, split like the slab's batches: each thread copies the nodes it will solve,
    // which stay in its cache as they do in a march.
#pragma omp parallel for schedule(static) num_threads(solver.threads_for(n))
    for (int b = 0; b < batches; ++b)
      for (int i = b * lanes::kWidth; i < std::min(n, (b + 1) * lanes::kWidth); ++i) {
        y[i] = y0[i];
        back1[i] = back10[i];
        back2[i] = back20[i];
      }
    solver.begin(n + 1);
    solver.lanes_slab(3, cur, n, 0, n, no_loads, flux, flux_tilde, y, back1, back2, next);
    march::SlabStats stats;
    FIELD_CHECK(!solver.finish(0, n, stats, result), "BM_one_slab: a node did not converge");
    ++slabs;
  }
  report(state, result.node_solves, result.newton_iterations, slabs);
}
BENCHMARK(BM_one_slab)
    ->ArgsProduct({{0, 1}, {1000, 10000}, {1, 2}})
    ->ArgNames({"space", "nodes", "threads"})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// Whole runs: free_flight theory §11.1 (Cayley and exp), space_evolution theory §11.4, and a long
// beam (WavyBeam, A = 10000, 1000 steps).
void BM_free_flight(benchmark::State& state) {
  const test::FreeFlight ff;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const auto run = [&](auto group) {  // G = lie::Se3Cayley, lie::Se3Exp
    const dcel::DiscreteModel model(beam, loads, group, ff.mesh());
    const march::TimeMarchInput in = ff.input();
    march::MarchOptions options;
    options.threads = 1;
    run_marches(
        state, [&] { return march::time_march(model, in, {}, options); }, ff.J);
  };
  if (state.range(0) == 0)
    run(lie::Se3Cayley{});
  else
    run(lie::Se3Exp{});
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
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ev.mesh());
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
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, wb.mesh());
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
