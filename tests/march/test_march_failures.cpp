// How the marches stop (issue 15): the stop flag between slabs, a non-finite value or a half turn
// between neighbours in a new slab, and why a Newton solve failed (march/newton_diagnosis.hpp);
// every stop leaves the observers finished with complete slabs only.
#include <gtest/gtest.h>

#include <atomic>
#include <limits>

#include "libfield/march/newton_diagnosis.hpp"
#include "libfield/march/slab_check.hpp"
#include "tests/support/cases.hpp"

namespace field::march {
namespace {

/// Counts slabs and finish() calls; sets `stop` once slab `stop_at` was received; checks that
/// every slab it receives is finite.
struct Watcher final : SlabObserver {
  std::atomic<bool>* stop = nullptr;
  int stop_at = -1;
  int slabs = 0, finished = 0, last = -1;
  bool all_finite = true;
  void slab(int index, const std::vector<lie::SE3>& values, const SlabStats&) override {
    EXPECT_EQ(index, last + 1);
    last = index;
    ++slabs;
    for (const lie::SE3& g : values) all_finite = all_finite && g.R.allFinite() && g.r.allFinite();
    if (stop && index == stop_at) stop->store(true);
  }
  void finish() override { ++finished; }
};

const NodeKernel kKernels[] = {NodeKernel::automatic, NodeKernel::per_node};

TEST(MarchStop, TimeMarchStopsBetweenRows) {
  test::FreeFlight ff;
  ff.J = 50;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  for (const NodeKernel kernel : kKernels) {
    std::atomic<bool> stop{false};
    Watcher w;
    w.stop = &stop;
    w.stop_at = 7;
    MarchOptions options;
    options.kernel = kernel;
    options.stop = &stop;
    const MarchResult r = time_march(model, ff.input(), {&w}, options);
    EXPECT_TRUE(r.interrupted);
    EXPECT_FALSE(r.completed);
    EXPECT_FALSE(r.failure);
    EXPECT_EQ(r.last_slab, 7);  // the row being handed out when the flag was set, no more
    EXPECT_EQ(w.last, 7);
    EXPECT_EQ(w.finished, 1);
  }
  // Unset, the flag changes nothing.
  std::atomic<bool> stop{false};
  MarchOptions options;
  options.stop = &stop;
  Watcher w;
  const MarchResult r = time_march(model, ff.input(), {&w}, options);
  EXPECT_TRUE(r.completed);
  EXPECT_FALSE(r.interrupted);
  EXPECT_EQ(w.last, 50);
}

TEST(MarchStop, SpaceMarchStopsBetweenColumns) {
  const test::SpaceEvolution se;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, se.mesh());
  for (const NodeKernel kernel : kKernels) {
    std::atomic<bool> stop{false};
    Watcher w;
    w.stop = &stop;
    w.stop_at = 4;
    MarchOptions options;
    options.kernel = kernel;
    options.stop = &stop;
    const MarchResult r = space_march(model, se.input(), {&w}, options);
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(r.last_slab, 4);
    EXPECT_EQ(w.last, 4);
    EXPECT_EQ(w.finished, 1);
  }
}

/// free_flight at rest (it stays straight and at rest) with a left end prescribed by its initial
/// pose, except at row `bad_row`, where `bad` replaces it.
TimeMarchInput prescribed_left(const test::FreeFlight& ff, int bad_row, const lie::SE3& bad) {
  TimeMarchInput in = ff.input();
  for (Vec6& v : in.velocities) v.setZero();
  const lie::SE3 g0 = in.row0.front();
  in.left = SideSpec::prescribed([=](int j) { return j == bad_row ? bad : g0; });
  return in;
}

TEST(MarchFailure, NonFiniteValueInANewRowStopsTheMarchBeforeThatRow) {
  test::FreeFlight ff;
  ff.J = 20;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  lie::SE3 bad;
  bad.r = Vec3(0.0, std::numeric_limits<double>::infinity(), 0.0);
  for (const NodeKernel kernel : kKernels) {
    MarchOptions options;
    options.kernel = kernel;
    Watcher w;
    const MarchResult r = time_march(model, prescribed_left(ff, 6, bad), {&w}, options);
    ASSERT_TRUE(r.failure);
    EXPECT_EQ(r.failure->kind, FailureKind::non_finite);
    EXPECT_EQ(r.failure->slab, 6);
    EXPECT_EQ(r.failure->node, 0);
    EXPECT_EQ(r.last_slab, 5);
    EXPECT_TRUE(w.all_finite);  // the bad row was not handed out
    EXPECT_EQ(w.finished, 1);
  }
}

TEST(MarchFailure, HalfTurnBetweenNeighboursInANewRowIsReported) {
  // The prescribed end turned by pi about d1 at row 6: no Cayley coordinates against node 1,
  // which is at rest.
  test::FreeFlight ff;
  ff.J = 20;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  lie::SE3 turned = ff.input().row0.front();
  turned.R = Vec3(1.0, -1.0, -1.0).asDiagonal();
  for (const NodeKernel kernel : kKernels) {
    MarchOptions options;
    options.kernel = kernel;
    options.threads = 2;
    Watcher w;
    const MarchResult r = time_march(model, prescribed_left(ff, 6, turned), {&w}, options);
    ASSERT_TRUE(r.failure);
    EXPECT_EQ(r.failure->kind, FailureKind::half_turn);
    EXPECT_EQ(r.failure->slab, 6);
    EXPECT_EQ(r.failure->node, 0);
    EXPECT_EQ(w.last, 5);
  }
  // Under the exponential retraction a half turn has coordinates: not a failure of the check.
  EXPECT_FALSE(check_slab({lie::SE3{}, turned}, false));
  EXPECT_TRUE(check_slab({lie::SE3{}, turned}, true));
}

TEST(MarchFailure, CheckSlabFindsEveryNonFiniteValueAtItsNode) {
  // Each of the 12 values of each pose of a slab of 7 made inf, -inf or NaN: that node, under
  // either retraction. Finite extremes (the largest double, the smallest subnormal) pass.
  std::vector<lie::SE3> slab(7);
  for (int a = 0; a < 7; ++a) slab[a].r = Vec3(a, -0.5 * a, 1e-300);
  slab[3].R(0, 1) = std::numeric_limits<double>::max();
  slab[5].r.y() = -std::numeric_limits<double>::denorm_min();
  EXPECT_FALSE(check_slab(slab, false));
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (const double bad : {kInf, -kInf, std::numeric_limits<double>::quiet_NaN()})
    for (int a = 0; a < 7; ++a)
      for (int k = 0; k < 12; ++k) {
        std::vector<lie::SE3> s = slab;
        (k < 9 ? s[a].R.data()[k] : s[a].r[k - 9]) = bad;
        for (const bool cayley : {false, true}) {
          const auto p = check_slab(s, cayley);
          ASSERT_TRUE(p) << a << " " << k << " " << bad;
          EXPECT_EQ(p->kind, FailureKind::non_finite);
          EXPECT_EQ(p->node, a);
        }
      }
}

TEST(MarchFailure, NonFiniteInitialDataIsAnInputError) {
  test::FreeFlight ff;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  TimeMarchInput in = ff.input();
  in.velocities[3](1) = NAN;
  EXPECT_THROW(check_time_march(model, in), Error);
  Watcher w;
  EXPECT_THROW(time_march(model, in, {&w}), Error);
  EXPECT_EQ(w.slabs, 0);  // nothing was handed out
  in = ff.input();
  in.row0[2].r.x() = INFINITY;
  EXPECT_THROW(check_time_march(model, in), Error);

  const test::SpaceEvolution se;
  const model::BeamDensity stubby = test::SpaceEvolution::beam();
  const dcel::DiscreteModel space(stubby, loads, lie::Se3Cayley{}, se.mesh());
  SpaceMarchInput tip = se.input();
  tip.strain0[5](0) = INFINITY;
  EXPECT_THROW(check_space_march(space, tip), Error);
  tip = se.input();
  tip.column0[5].r.y() = NAN;
  EXPECT_THROW(check_space_march(space, tip), Error);
}

/// free_flight to row 60 with the given Newton options and dt; the failure (or none).
std::optional<MarchFailure> free_flight_failure(const dcel::NodeSolverOptions& newton, double dt,
                                                NodeKernel kernel) {
  test::FreeFlight ff;
  ff.J = 60;
  ff.dt = dt;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  MarchOptions options;
  options.newton = newton;
  options.kernel = kernel;
  return time_march(model, ff.input(), {}, options).failure;
}

TEST(MarchFailure, NewtonFailuresSayWhy) {
  for (const NodeKernel kernel : kKernels) {
    // Two iterations cannot reach 1e-14 from the start; with more it converges.
    dcel::NodeSolverOptions few;
    few.max_iterations = 2;
    const auto limit = free_flight_failure(few, 0.005, kernel);
    ASSERT_TRUE(limit);
    EXPECT_EQ(limit->kind, FailureKind::iteration_limit);
    EXPECT_GT(limit->iterations_needed, 2);
    EXPECT_LE(limit->iterations_needed, 30);
    // A step tolerance far below round-off: the closed-form solve stops at the residual's
    // round-off floor (theory §5, (5.8)) and the march goes through.
    dcel::NodeSolverOptions tight;
    tight.tolerance = 1e-30;
    EXPECT_FALSE(free_flight_failure(tight, 0.005, kernel));
    // c_E dt/ds = 3: far outside the stable range, Newton does not approach a solution.
    const auto diverged = free_flight_failure({}, 0.03, kernel);
    ASSERT_TRUE(diverged);
    EXPECT_EQ(diverged->kind, FailureKind::diverged) << failure_kind_name(diverged->kind);
  }
}

TEST(MarchFailure, StalledNewtonSaysWhy) {
  // The reference solve (dcel::solve_node, any density) has only the step rule: with a step
  // tolerance far below round-off, Newton settles above it.
  dcel::NodeSolverOptions tight;
  tight.tolerance = 1e-30;
  const auto stalled = free_flight_failure(tight, 0.005, NodeKernel::reference);
  ASSERT_TRUE(stalled);
  EXPECT_EQ(stalled->kind, FailureKind::stalled);
}

TEST(MarchFailure, DiagnosisOfANonFiniteProblem) {
  test::FreeFlight ff;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  Vec6 m = Vec6::Zero();
  m(2) = NAN;
  EXPECT_EQ(diagnose_newton(model, 0, dcel::NodeEquation::time, m, Vec6::Zero(), {}).kind,
            FailureKind::non_finite);
  EXPECT_EQ(
      diagnose_newton(model, 0, dcel::NodeEquation::time, Vec6::Zero(), Vec6::Zero(), {}).kind,
      FailureKind::iteration_limit);  // solvable: converges at once
}

}  // namespace
}  // namespace field::march
