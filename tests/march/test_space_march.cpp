// SPACE-MARCH, theory §6.2: the static arc stays static, space_evolution theory §11.4 satisfies the
// equations and conserves Q^a, the round trip theory §11.5 reproduces a time-march solution in its
// first columns and the reverse round trip theory §10 vi' shows the theory's growth, thread-count
// independence.
#include <gtest/gtest.h>

#include <cstring>

#include "libfield/dcel/residual.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/noether/balance.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/groups.hpp"

namespace field::march {
namespace {

template <class G>
class SpaceMarch : public ::testing::Test {
 protected:
};
TYPED_TEST_SUITE(SpaceMarch, test::Se3Groups, test::GroupNames);

TYPED_TEST(SpaceMarch, StaticArcStaysStatic) {
  // theory §11.2: constant tip, tip strain eta_bar = (2, 0, 0, 0, 0, 1), zero-momentum rows.
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const mesh::SpacetimeMesh mesh(200, 10, 0.005, 0.1);
  const dcel::DiscreteModel model(beam, loads, TypeParam{}, mesh);
  Vec6 eta_bar;
  eta_bar << 2.0, 0.0, 0.0, 0.0, 0.0, 1.0;
  SpaceMarchInput in;
  in.column0.assign(mesh.J() + 1, lie::SE3());
  in.strain0.assign(mesh.J() + 1, eta_bar);
  const test::RecordedRun r = test::record_space_march(model, in);
  ASSERT_TRUE(r.result.completed);
  lie::SE3 g;
  for (int a = 0; a <= mesh.A(); ++a) {
    for (int j = 0; j <= mesh.J(); ++j)
      EXPECT_LT((r.field(j, a).matrix() - g.matrix()).cwiseAbs().maxCoeff(), 1e-12)
          << "node (" << j << ", " << a << ")";
    g = g * TypeParam::tau(mesh.ds() * eta_bar);
  }
}

TYPED_TEST(SpaceMarch, SpaceEvolutionSatisfiesEquationsAndConservesQ) {
  const test::SpaceEvolution se;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, TypeParam{}, se.mesh());
  const SpaceMarchInput in = se.input();
  const test::RecordedRun r = test::record_space_march(model, in);
  ASSERT_TRUE(r.result.completed);
  const auto report = dcel::residual_report(model, r.field, space_boundary(in));
  EXPECT_LT(report.relative, 1e-11) << "worst (" << report.worst.j << ", " << report.worst.a << ")";
  const noether::MomentumMaps maps(model, r.field);
  const Vec6 Q0 = noether::total_space_momentum(maps, 0);
  double size = 0.0;
  for (int j = 0; j < se.J; ++j) size += maps.N(j, 0).cwiseAbs().maxCoeff();
  size *= model.dt();
  for (int a = 1; a < se.A; ++a)
    EXPECT_LT((noether::total_space_momentum(maps, a) - Q0).cwiseAbs().maxCoeff() / size, 1e-12)
        << "column " << a;
}

TYPED_TEST(SpaceMarch, ThreadCountDoesNotChangeBytes) {
  test::SpaceEvolution se;
  se.J = 90;  // >= kParallelMinNodes: two threads really split the columns
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, TypeParam{}, se.mesh());
  const test::RecordedRun one = test::record_space_march(model, se.input(), 1);
  const test::RecordedRun two = test::record_space_march(model, se.input(), 2);
  ASSERT_TRUE(one.result.completed && two.result.completed);
  EXPECT_TRUE(test::same_bits(one, two, se.J, se.A));
}

/// The round trip's free flight (theory §11.5): ds = 1/6, dt = 0.0075, J = 100, A + 1 nodes.
test::FreeFlight round_trip_flight(int A) {
  test::FreeFlight ff;
  ff.A = A;
  ff.ds = 1.0 / 6.0;
  ff.dt = 0.0075;
  ff.J = 100;
  return ff;
}

TEST(RoundTrip, FirstColumnsReproduceTheTimeMarch) {
  // theory §11.5 / §10 vi: free flight with A = 6, dt = 0.0075, J = 100; then a space march from
  // columns 0 and 1 with rows 0 and J prescribed from the time solution. The first reconstructed
  // columns agree to ~1e-12; the error grows by ~70 per column (CFL_space = 3.65, see theory §6.2).
  // L = 1: CFL_time = c_E dt/ds = 0.45, CFL_space = ds/(c_G dt) = 3.65.
  const test::FreeFlight ff = round_trip_flight(6);
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  FieldRecorder time_recorder(model.mesh(), true);
  ASSERT_TRUE(time_march(model, ff.input(), {&time_recorder}).completed);
  const mesh::Field& truth = time_recorder.field();

  SpaceMarchInput in = test::round_trip_input(truth, ff.J);
  const test::RecordedRun r = test::record_space_march(model, in);
  ASSERT_TRUE(r.result.completed);
  std::vector<double> error(ff.A + 1, 0.0);
  for (int a = 0; a <= ff.A; ++a)
    for (int j = 0; j <= ff.J; ++j)
      error[a] = std::max(error[a], (r.field(j, a).r - truth(j, a).r).cwiseAbs().maxCoeff());
  EXPECT_EQ(error[0], 0.0);
  EXPECT_EQ(error[1], 0.0);
  EXPECT_LT(error[2], 1e-12);  // theory §10: 5.2e-14 (measured here 2.9e-15)
  EXPECT_LT(error[3], 1e-10);  // theory §10: 2.4e-12 (measured here 2.1e-13)
  for (int a = 2; a <= ff.A; ++a)
    std::printf("round trip: column %d max position error %.2e\n", a, error[a]);

  // The growth pattern: a perturbation of 1e-12 of column 1 is amplified by the CFL-unstable
  // space march (CFL_space = 3.65): theory §10 vi reports ~70 per column.
  test::Random rnd(401);
  for (int j = 1; j < ff.J; ++j) in.column1[j].r += rnd.vec3(1e-12);
  const test::RecordedRun p = test::record_space_march(model, in);
  ASSERT_TRUE(p.result.completed);
  std::vector<double> growth(ff.A + 1, 0.0);
  for (int a = 1; a <= ff.A; ++a) {
    for (int j = 0; j <= ff.J; ++j)
      growth[a] = std::max(growth[a], (p.field(j, a).r - truth(j, a).r).cwiseAbs().maxCoeff());
    std::printf("perturbed round trip: column %d max position error %.2e\n", a, growth[a]);
  }
  for (int a = 3; a <= ff.A; ++a) {
    EXPECT_GT(growth[a] / growth[a - 1], 30.0) << "column " << a;  // measured 76..83
    EXPECT_LT(growth[a] / growth[a - 1], 150.0) << "column " << a;
    EXPECT_GT(error[a] / error[a - 1], 30.0) << "column " << a;  // measured 71..75
    EXPECT_LT(error[a] / error[a - 1], 150.0) << "column " << a;
  }
}

// The same round trip with a coupled law (theory §1.5): both marches on the general per-node
// path; the space march reproduces the time march's first columns to round-off.
TEST(RoundTrip, CoupledLawFirstColumnsReproduceTheTimeMarch) {
  const test::FreeFlight ff = round_trip_flight(6);
  const model::BeamDensity beam = test::coupled_beam();
  ASSERT_FALSE(beam.diagonal());
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  FieldRecorder time_recorder(model.mesh(), true);
  ASSERT_TRUE(time_march(model, ff.input(), {&time_recorder}).completed);
  const mesh::Field& truth = time_recorder.field();
  const SpaceMarchInput in = test::round_trip_input(truth, ff.J);
  const test::RecordedRun r = test::record_space_march(model, in);
  ASSERT_TRUE(r.result.completed);
  double error[4] = {0, 0, 0, 0};
  for (int a = 0; a <= 3; ++a)
    for (int j = 0; j <= ff.J; ++j)
      error[a] = std::max(error[a], (r.field(j, a).r - truth(j, a).r).cwiseAbs().maxCoeff());
  std::printf("coupled round trip: columns 2, 3 max position error %.2e, %.2e\n", error[2],
              error[3]);
  EXPECT_EQ(error[1], 0.0);
  EXPECT_LT(error[2], 1e-12);
  EXPECT_LT(error[3], 1e-10);
}

// An end wrench on a = A (theory §4.6) puts W/2 on node A-1, whose equation gives the last
// column: the space march of a time march under the wrench reproduces its last column with the
// wrench in the model, and misses it without (the estimator starts from this march, theory §6.7).
TEST(RoundTrip, AnEndWrenchEntersTheLastColumn) {
  const test::FreeFlight ff = round_trip_flight(3);
  const model::BeamDensity beam = test::soft_beam();
  model::Loads loads;
  model::PointLoad end;
  end.a = ff.A;
  end.end = true;
  end.wrench = model::TimeTable::constant((Vec6() << 0.0, 0.0, 0.0, 0.2, 0.0, -0.1).finished());
  loads.point.push_back(end);
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  FieldRecorder time_recorder(model.mesh(), true);
  ASSERT_TRUE(time_march(model, ff.input(), {&time_recorder}).completed);
  const mesh::Field& truth = time_recorder.field();
  const SpaceMarchInput in = test::round_trip_input(truth, ff.J);
  const model::Loads none;
  const dcel::DiscreteModel unloaded(beam, none, lie::Se3Cayley{}, ff.mesh());
  double error[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    const test::RecordedRun r = test::record_space_march(k == 0 ? model : unloaded, in);
    ASSERT_TRUE(r.result.completed);
    for (int j = 0; j <= ff.J; ++j)
      error[k] = std::max(error[k], (r.field(j, ff.A).r - truth(j, ff.A).r).cwiseAbs().maxCoeff());
  }
  std::printf("end wrench round trip: column A max position error %.2e with, %.2e without\n",
              error[0], error[1]);
  EXPECT_LT(error[0], 1e-10);
  EXPECT_GT(error[1], 1e-6);
}

TEST(RoundTrip, ReverseTimeMarchFromASpaceEvolution) {
  // theory §10 vi': space_evolution theory §11.4 -> time march from its rows 0 and 1 with both ends
  // prescribed from the space solution. The space solution satisfies the same DCEL equations,
  // so the time march reproduces it to round-off at first; on this grid the time march runs at
  // c_E dt/ds = 2.1, outside its stable range, and the round-off grows (theory §10: rows 5, 10, 15:
  // 5.6e-13, 4.0e-7, 0.32).
  const test::SpaceEvolution se;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, se.mesh());
  const test::RecordedRun space = test::record_space_march(model, se.input());
  ASSERT_TRUE(space.result.completed);
  const mesh::Field& truth = space.field;

  TimeMarchInput in;
  for (int a = 0; a <= se.A; ++a) {
    in.row0.push_back(truth(0, a));
    in.row1.push_back(truth(1, a));
  }
  in.left = SideSpec::prescribed([&truth](int j) { return truth(j, 0); });
  in.right = SideSpec::prescribed([&truth, A = se.A](int j) { return truth(j, A); });
  const int steps = 15;
  const mesh::SpacetimeMesh short_mesh(1 + steps, se.A, model.dt(), model.ds());
  const dcel::DiscreteModel short_model(beam, loads, lie::Se3Cayley{}, short_mesh);
  const test::RecordedRun time = test::record_time_march(short_model, in);
  std::vector<double> error(steps + 2, 0.0);
  for (int j = 0; j <= time.result.last_slab; ++j)
    for (int a = 0; a <= se.A; ++a)
      error[j] = std::max(error[j], (time.field(j, a).r - truth(j, a).r).cwiseAbs().maxCoeff());
  ASSERT_TRUE(time.result.completed);
  for (int j : {5, 10, 15})
    std::printf("reverse round trip: row %d, max position error %.2e\n", j, error[j]);
  // Measured 1.49e-12, 1.07e-6, 0.84 at rows 5, 10, 15: the theory's growth (5.6e-13, 4.0e-7,
  // 0.32: x7e5 per 5 rows, here x7.2e5 and x7.8e5) from a round-off start 2.7x larger.
  EXPECT_LT(error[5], 1e-11);
  for (int j : {10, 15}) {
    EXPECT_GT(error[j] / error[j - 5], 1e5) << "row " << j;
    EXPECT_LT(error[j] / error[j - 5], 5e6) << "row " << j;
  }
}

}  // namespace
}  // namespace field::march

namespace field::march {
namespace {

TEST(SpaceMarchStart, RoughColumnsFallBackToThePreviousValue) {
  // The tip data of theory §11.4 compressed into T = J dt with J = 10, dt = 1/150 s (a fast tip
  // motion, as in bench_march): the strains change roughly from column to column, Newton from
  // the extrapolated start fails at column 10, and the retry from the node's previous value
  // (SlabSolver::solve_node's fallback) converges. The whole field satisfies the equations.
  test::SpaceEvolution ev;
  ev.J = 10;
  ev.T = ev.J / 150.0;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ev.mesh());
  const SpaceMarchInput in = ev.input();
  const test::RecordedRun run = test::record_space_march(model, in, 1);
  ASSERT_TRUE(run.result.completed) << "failed at column " << run.result.last_slab + 1;
  const dcel::ResidualReport res = dcel::residual_report(model, run.field, space_boundary(in));
  EXPECT_LT(res.relative, 1e-11);  // theory §10 ii
}

}  // namespace
}  // namespace field::march
