// Node benchmarks (theory §5): one converged node solve of the time march (free_flight, theory
// §11.1) and of the space march (space_evolution, theory §11.4) from a typical previous value: the
// node's own solution at the previous step, as the marches start Newton; plus its parts (Phi,
// Jacobian).
#include <benchmark/benchmark.h>

#include <type_traits>

#include "libfield/dcel/diagonal_node.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/mesh/convected.hpp"
#include "tests/support/cases.hpp"

namespace {

using namespace field;

// A node problem taken from a recorded march: y_prev (the Newton start), y (the solution) and
// the target m = Phi(y).
struct NodeProblem {
  dcel::NodeEquation equation;
  double h;
  Vec6 y_prev, y, m;
};

struct Recorded {
  NodeProblem time, space;
};

// free_flight: node a = 5 between rows 199 and 200; space_evolution: row j = 150 between
// columns 4 and 5. Both in the middle of their runs, where the motion is fully developed.
template <class G>
Recorded record() {
  Recorded rec;
  const model::Loads loads;
  {
    const test::FreeFlight ff;
    const model::BeamDensity beam = test::soft_beam();
    const dcel::DiscreteModel model(beam, loads, G{}, ff.mesh());
    const auto run = test::record_time_march(model, ff.input(), 1);
    const mesh::ConvectedFields<G> c(run.field);
    rec.time = {dcel::NodeEquation::time, ff.dt, c.xi(199, 5), c.xi(200, 5), Vec6::Zero()};
    rec.time.m = dcel::node_phi<G>(beam, rec.time.equation, rec.time.h, rec.time.y);
  }
  {
    const test::SpaceEvolution ev;
    const model::BeamDensity beam = test::SpaceEvolution::beam();
    const dcel::DiscreteModel model(beam, loads, G{}, ev.mesh());
    const auto run = test::record_space_march(model, ev.input(), 1);
    const mesh::ConvectedFields<G> c(run.field);
    rec.space = {dcel::NodeEquation::space, ev.ds, c.eta(150, 4), c.eta(150, 5), Vec6::Zero()};
    rec.space.m = dcel::node_phi<G>(beam, rec.space.equation, rec.space.h, rec.space.y);
  }
  return rec;
}

template <class G>
const Recorded& recorded() {
  static const Recorded rec = record<G>();
  return rec;
}

// The density of each problem: the soft beam for the time node, the stubby beam for the space one.
model::BeamDensity density_for(dcel::NodeEquation e) {
  return e == dcel::NodeEquation::time ? test::soft_beam() : test::SpaceEvolution::beam();
}

template <class G, dcel::NodeEquation equation>
void BM_solve_node(benchmark::State& state) {
  const Recorded& rec = recorded<G>();
  const NodeProblem& p = equation == dcel::NodeEquation::time ? rec.time : rec.space;
  const model::BeamDensity beam = density_for(equation);
  int iterations = 0;
  for (auto _ : state) {
    Vec6 y = p.y_prev;
    benchmark::DoNotOptimize(y);
    const dcel::NodeSolveReport r = dcel::solve_node<G>(beam, equation, p.h, p.m, y);
    benchmark::DoNotOptimize(y);
    iterations = r.iterations;
  }
  state.counters["newton"] = iterations;
  state.SetItemsProcessed(state.iterations());
}

// The closed-form solver the marches use for the beam (dcel::DiagonalNode<G>).
template <class G, dcel::NodeEquation equation>
void BM_solve_node_closed_form(benchmark::State& state) {
  const Recorded& rec = recorded<G>();
  const NodeProblem& p = equation == dcel::NodeEquation::time ? rec.time : rec.space;
  const model::BeamDensity beam = density_for(equation);
  const dcel::DiagonalNode<G> node = *dcel::make_diagonal_node<G>(beam, equation, p.h);
  int iterations = 0;
  for (auto _ : state) {
    Vec6 y = p.y_prev;
    benchmark::DoNotOptimize(y);
    const dcel::NodeSolveReport r = node.solve(p.m, y);
    benchmark::DoNotOptimize(y);
    iterations = r.iterations;
  }
  state.counters["newton"] = iterations;
  state.SetItemsProcessed(state.iterations());
}

template <class G, dcel::NodeEquation equation>
void BM_node_phi(benchmark::State& state) {
  const Recorded& rec = recorded<G>();
  const NodeProblem& p = equation == dcel::NodeEquation::time ? rec.time : rec.space;
  const model::BeamDensity beam = density_for(equation);
  Vec6 y = p.y_prev;
  for (auto _ : state) {
    benchmark::DoNotOptimize(y);
    benchmark::DoNotOptimize(dcel::node_phi<G>(beam, equation, p.h, y));
  }
  state.SetItemsProcessed(state.iterations());
}

template <class G, dcel::NodeEquation equation>
void BM_node_jacobian(benchmark::State& state) {
  const Recorded& rec = recorded<G>();
  const NodeProblem& p = equation == dcel::NodeEquation::time ? rec.time : rec.space;
  const model::BeamDensity beam = density_for(equation);
  Vec6 y = p.y_prev;
  for (auto _ : state) {
    benchmark::DoNotOptimize(y);
    benchmark::DoNotOptimize(dcel::node_jacobian<G>(beam, equation, p.h, y));
  }
  state.SetItemsProcessed(state.iterations());
}

// The 6x6 linear solve of one Newton step (partial-pivoting LU of a typical Jacobian).
void BM_newton_linear_solve(benchmark::State& state) {
  const Recorded& rec = recorded<lie::Se3Cayley>();
  const model::BeamDensity beam = test::soft_beam();
  const Mat6 jac = dcel::node_jacobian<lie::Se3Cayley>(beam, dcel::NodeEquation::time, rec.time.h,
                                                       rec.time.y_prev);
  Vec6 rhs = rec.time.m;
  for (auto _ : state) {
    benchmark::DoNotOptimize(rhs);
    benchmark::DoNotOptimize(jac);
    benchmark::DoNotOptimize(jac.partialPivLu().solve(rhs).eval());
  }
  state.SetItemsProcessed(state.iterations());
}

using cay = lie::Se3Cayley;
using exp = lie::Se3Exp;
constexpr auto time_eq = dcel::NodeEquation::time;
constexpr auto space_eq = dcel::NodeEquation::space;

BENCHMARK_TEMPLATE(BM_solve_node, cay, time_eq);
BENCHMARK_TEMPLATE(BM_solve_node, cay, space_eq);
BENCHMARK_TEMPLATE(BM_solve_node_closed_form, cay, time_eq);
BENCHMARK_TEMPLATE(BM_solve_node_closed_form, cay, space_eq);
BENCHMARK_TEMPLATE(BM_solve_node, exp, time_eq);
BENCHMARK_TEMPLATE(BM_solve_node, exp, space_eq);
BENCHMARK_TEMPLATE(BM_solve_node_closed_form, exp, time_eq);
BENCHMARK_TEMPLATE(BM_solve_node_closed_form, exp, space_eq);
BENCHMARK_TEMPLATE(BM_node_phi, cay, time_eq);
BENCHMARK_TEMPLATE(BM_node_jacobian, cay, time_eq);
BENCHMARK_TEMPLATE(BM_node_jacobian, exp, time_eq);
BENCHMARK(BM_newton_linear_solve);

}  // namespace
