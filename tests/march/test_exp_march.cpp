// The fast paths of the exponential retraction in whole marches (the four-node lanes,
// march::SlabLanes with dcel::ExpNodeLanes, and the closed-form one-node solve dcel::ExpNode,
// NodeKernel::per_node) against the reference loop with dcel::solve_node (NodeKernel::reference:
// the 6x6 LU of the Jacobian, the path every exp run took before): the same fields to round-off,
// the same Newton work, on time and space marches with free and prescribed ends, gravity and
// every load kind. theory §2.2, §5, theory §6.
#include <gtest/gtest.h>

#include "libfield/march/slab_solve.hpp"
#include "tests/support/cases.hpp"

namespace field::march {
namespace {

using test::expect_same_run;

TEST(ExpMarch, FreeFlightEqualsTheReferenceLoop) {
  // theory §11.1 with the exponential retraction, 400 steps: the lanes (10 solved nodes =
  // batches of 4, 4, 2) and the one-node closed form.
  const test::FreeFlight ff;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Exp{}, ff.mesh());
  const test::RecordedRun ref =
      test::record_time_march(model, ff.input(), 1, NodeKernel::reference);
  expect_same_run(test::record_time_march(model, ff.input(), 1, NodeKernel::automatic), ref,
                  ff.mesh(), 1e-12);
  expect_same_run(test::record_time_march(model, ff.input(), 2, NodeKernel::per_node), ref,
                  ff.mesh(), 1e-12);
}

TEST(ExpMarch, ClampedBeamWithGravityAndLoadsEqualsTheReferenceLoop) {
  // Prescribed left end, gravity, every load kind, A = 7 (a partial batch), 2 threads; the
  // baseline (SSE2) build of the lanes and the one-node closed form.
  test::CantileverGravity cg;
  cg.A = 7;
  cg.J = 300;
  const model::BeamDensity beam = test::CantileverGravity::beam();
  model::Loads loads = test::mixed_loads(cg.A);
  loads.point.erase(loads.point.begin());  // a = 0 is prescribed
  loads.point.pop_back();                  // a = A is the ghost
  const dcel::DiscreteModel model(beam, loads, lie::Se3Exp{}, cg.mesh());
  const test::RecordedRun ref =
      test::record_time_march(model, cg.input(), 2, NodeKernel::reference);
  expect_same_run(test::record_time_march(model, cg.input(), 2, NodeKernel::lanes_baseline), ref,
                  cg.mesh(), 1e-12);
  expect_same_run(test::record_time_march(model, cg.input(), 2, NodeKernel::per_node), ref,
                  cg.mesh(), 1e-12);
}

TEST(ExpMarch, SpaceEvolutionEqualsTheReferenceLoop) {
  const test::SpaceEvolution se;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Exp{}, se.mesh());
  const test::RecordedRun ref =
      test::record_space_march(model, se.input(), 1, NodeKernel::reference);
  expect_same_run(test::record_space_march(model, se.input(), 1, NodeKernel::automatic), ref,
                  se.mesh(), 1e-12);
  expect_same_run(test::record_space_march(model, se.input(), 1, NodeKernel::per_node), ref,
                  se.mesh(), 1e-12);
}

TEST(ExpMarch, ReferenceKernelUsesTheGenericSolver) {
  // NodeKernel::reference turns off the lanes for Cayley too.
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const mesh::SpacetimeMesh m(10, 5, 0.005, 0.1);
  const dcel::DiscreteModel cay(beam, loads, lie::Se3Cayley{}, m);
  MarchOptions reference;
  reference.kernel = NodeKernel::reference;
  EXPECT_FALSE(SlabSolver(cay, dcel::NodeEquation::time, reference).lanes());
}

}  // namespace
}  // namespace field::march
