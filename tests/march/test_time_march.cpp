// TIME-MARCH, theory §6.1: reference numbers of free_flight theory §11.1, exact solutions theory
// §11.2, marched fields satisfy the equations (theory §10 ii), thread-count independence.
#include <gtest/gtest.h>

#include <cstring>

#include "libfield/dcel/residual.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/slab_solve.hpp"
#include "libfield/noether/balance.hpp"
#include "libfield/noether/energies.hpp"
#include "tests/support/cases.hpp"

namespace field::march {
namespace {

TEST(TimeMarch, FreeFlightMatchesReferenceNumbers) {
  // theory §11.1, Cayley: E_0, P_0 and two node positions at j = 400 to 1e-9.
  const test::FreeFlight ff;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const test::RecordedRun r = test::record_time_march(model, ff.input());
  ASSERT_TRUE(r.result.completed);
  const std::vector<double> E = noether::time_energies(model, r.field);
  EXPECT_NEAR(E[0], 1.997667319357268, 1e-10 * 2.0);
  const noether::MomentumMaps maps(model, r.field);
  Vec6 P0_ref;
  P0_ref << -2.5, 1.7922013165582833, 0.0, 1.9177359664498994, 5.0, 0.0;
  EXPECT_LT((noether::total_time_momentum(maps, 0) - P0_ref).cwiseAbs().maxCoeff(), 1e-11);
  EXPECT_LT((r.field(400, 0).r - Vec3(-0.021451103040201, 0.999397685788082, 0.695549178559315))
                .cwiseAbs()
                .maxCoeff(),
            1e-9);
  EXPECT_LT((r.field(400, 9).r - Vec3(0.79600679161953, 1.000548776248011, 0.321000080625862))
                .cwiseAbs()
                .maxCoeff(),
            1e-9);
  const double max_E = *std::max_element(E.begin(), E.end());
  const double min_E = *std::min_element(E.begin(), E.end());
  EXPECT_NEAR(max_E - min_E, 1.887e-4, 0.001e-4);
  EXPECT_LE(static_cast<double>(r.result.newton_iterations) / r.result.node_solves, 5.0);
}

TEST(TimeMarch, FreeFlightExponentialMatchesReference) {
  const test::FreeFlight ff;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Exp{}, ff.mesh());
  const test::RecordedRun r = test::record_time_march(model, ff.input());
  ASSERT_TRUE(r.result.completed);
  EXPECT_NEAR(noether::time_energies(model, r.field)[0], 1.9980174858121196, 2e-10);
  EXPECT_LT((r.field(400, 0).r - Vec3(-0.021607530829861, 0.999343241677578, 0.695270147029499))
                .cwiseAbs()
                .maxCoeff(),
            1e-9);
}

TEST(TimeMarch, ThreadCountDoesNotChangeBytes) {
  // A >= kParallelMinNodes, so that two threads really split the rows.
  test::FreeFlight ff;
  ff.A = 80;
  ff.ds = 1.0 / 80;
  ff.dt = 0.001;
  ff.J = 30;
  const model::BeamDensity beam = test::soft_beam(Vec3(0, 0, -9.81));
  const model::Loads loads = test::mixed_loads(ff.A);
  model::Loads massive_loads = loads;
  massive_loads.point.pop_back();  // no end wrench at A here (theory §4.6)
  const dcel::DiscreteModel model(beam, massive_loads, lie::Se3Cayley{}, ff.mesh());
  static_assert(80 >= kParallelMinNodes);
  const test::RecordedRun one = test::record_time_march(model, ff.input(), 1);
  const test::RecordedRun two = test::record_time_march(model, ff.input(), 2);
  ASSERT_TRUE(one.result.completed && two.result.completed);
  EXPECT_TRUE(test::same_bits(one, two, ff.J, ff.A));
}

}  // namespace
}  // namespace field::march
