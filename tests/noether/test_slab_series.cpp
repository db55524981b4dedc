// The series diagnostics share the per-node work among threads and sum in node order: the same
// bits on 1 and 2 threads; a series stride reports rows (columns) 0, s, 2s, ... and the last,
// with the energy and momentum of stride 1, bit for bit, and the balance still at round-off.
#include <gtest/gtest.h>

#include "libfield/march/field_recorder.hpp"
#include "libfield/march/slab_solve.hpp"
#include "libfield/noether/space_diagnostics.hpp"
#include "libfield/noether/time_diagnostics.hpp"
#include "tests/support/cases.hpp"

namespace field::noether {
namespace {

/// A clamped-free beam with gravity and loads of every kind on solved nodes, A nodes wide (the
/// diagnostics run on several threads from A >= kParallelMinNodes), marched and recorded.
struct LoadedBeam {
  test::FreeFlight ff;
  model::BeamDensity beam = test::soft_beam(Vec3(0.0, 0.0, -9.81));
  model::Loads loads;
  std::optional<dcel::DiscreteModel> model;
  march::TimeMarchInput in;
  std::optional<march::FieldRecorder> recorder;

  LoadedBeam(int A, int J) {
    ff.A = A;
    ff.J = J;
    loads = test::mixed_loads(A);
    loads.point.erase(loads.point.begin());  // loads on solved nodes only
    loads.point.pop_back();
    model.emplace(beam, loads, lie::Retraction(), ff.mesh());
    in = ff.input();
    in.left = march::SideSpec::clamped(in.row0[0]);
    recorder.emplace(model->mesh(), true);
    const march::MarchResult r = march::time_march(*model, in, {&*recorder});
    EXPECT_TRUE(r.completed);
  }

  std::vector<TimeRowDiagnostics> series(const SeriesOptions& options) const {
    std::vector<TimeRowDiagnostics> rows;
    TimeDiagnostics d(
        *model, march::time_boundary(in),
        [&rows](const TimeRowDiagnostics& r) { rows.push_back(r); }, options);
    const mesh::Field& f = recorder->field();
    for (int j = 0; j <= ff.J; ++j) {
      std::vector<lie::SE3> row(ff.A + 1);
      for (int a = 0; a <= ff.A; ++a) row[a] = f(j, a);
      d.slab(j, row, recorder->stats()[j]);
    }
    return rows;
  }
};

void expect_same_bits(const TimeRowDiagnostics& x, const TimeRowDiagnostics& y) {
  EXPECT_EQ(x.j, y.j);
  EXPECT_EQ(x.t, y.t);
  EXPECT_EQ(x.energy, y.energy) << "row " << x.j;
  for (int i = 0; i < 6; ++i) EXPECT_EQ(x.momentum(i), y.momentum(i)) << "row " << x.j;
  EXPECT_EQ(x.newton.max_iterations, y.newton.max_iterations);
  EXPECT_EQ(x.newton.mean_iterations, y.newton.mean_iterations);
}

TEST(SlabSeries, TimeDiagnosticsHaveTheSameBitsOnOneAndTwoThreads) {
  const LoadedBeam b(march::SlabSolver::kParallelMinNodes + 13, 12);  // parallel, odd size
  const std::vector<TimeRowDiagnostics> one = b.series({1, 1}), two = b.series({1, 2});
  ASSERT_EQ(one.size(), 12u);
  ASSERT_EQ(two.size(), one.size());
  for (size_t i = 0; i < one.size(); ++i) {
    expect_same_bits(one[i], two[i]);
    EXPECT_EQ(one[i].balance, two[i].balance) << "row " << one[i].j;
    if (one[i].j >= 1) {
      EXPECT_LT(one[i].balance, 1e-12) << "row " << one[i].j;
    }
  }
}

TEST(SlabSeries, TimeStrideThinsTheRowsAndKeepsTheirValues) {
  const LoadedBeam b(march::SlabSolver::kParallelMinNodes + 13, 30);
  const std::vector<TimeRowDiagnostics> all = b.series({1, 2}), thin = b.series({7, 2});
  ASSERT_EQ(all.size(), 30u);
  const std::vector<int> expected{0, 7, 14, 21, 28, 29};  // every 7th row and the last
  ASSERT_EQ(thin.size(), expected.size());
  for (size_t i = 0; i < thin.size(); ++i) {
    EXPECT_EQ(thin[i].j, expected[i]);
    expect_same_bits(thin[i], all[expected[i]]);
    if (thin[i].j >= 1) {
      EXPECT_GT(thin[i].balance, 0.0) << "row " << thin[i].j;  // computed, not left at 0
      EXPECT_LT(thin[i].balance, 1e-12) << "row " << thin[i].j;
    }
  }
  // A stride beyond the last row: rows 0 and J-1.
  const std::vector<TimeRowDiagnostics> ends = b.series({1000, 1});
  ASSERT_EQ(ends.size(), 2u);
  expect_same_bits(ends[0], all[0]);
  expect_same_bits(ends[1], all[29]);
}

TEST(SlabSeries, RejectsAStrideBelowOne) {
  const LoadedBeam b(4, 2);
  EXPECT_THROW(b.series({0, 1}), Error);
}

/// The space march of SPEC [S11.4] with J = 100 nodes per column (parallel), A = 10 columns.
std::vector<SpaceColumnDiagnostics> space_series(const SeriesOptions& options) {
  test::SpaceEvolution se;
  se.J = 100;
  se.T = se.J * (2.0 / 300.0);  // the dt of [S11.4]
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Retraction(), se.mesh());
  const march::SpaceMarchInput in = se.input();
  std::vector<SpaceColumnDiagnostics> cols;
  SpaceDiagnostics d(
      model, march::space_boundary(in),
      [&cols](const SpaceColumnDiagnostics& c) { cols.push_back(c); }, options);
  EXPECT_TRUE(march::space_march(model, in, {&d}).completed);
  return cols;
}

TEST(SlabSeries, SpaceDiagnosticsSameBitsOnThreadsAndStride) {
  const std::vector<SpaceColumnDiagnostics> one = space_series({1, 1}), two = space_series({1, 2}),
                                            thin = space_series({4, 2});
  ASSERT_EQ(one.size(), 10u);
  ASSERT_EQ(two.size(), one.size());
  const auto same = [](const SpaceColumnDiagnostics& x, const SpaceColumnDiagnostics& y) {
    EXPECT_EQ(x.a, y.a);
    EXPECT_EQ(x.s, y.s);
    EXPECT_EQ(x.energy, y.energy) << "column " << x.a;
    for (int i = 0; i < 6; ++i) EXPECT_EQ(x.momentum(i), y.momentum(i)) << "column " << x.a;
  };
  for (size_t i = 0; i < one.size(); ++i) {
    same(one[i], two[i]);
    EXPECT_EQ(one[i].balance, two[i].balance) << "column " << one[i].a;
  }
  const std::vector<int> expected{0, 4, 8, 9};
  ASSERT_EQ(thin.size(), expected.size());
  for (size_t i = 0; i < thin.size(); ++i) {
    EXPECT_EQ(thin[i].a, expected[i]);
    same(thin[i], one[expected[i]]);
    if (thin[i].a >= 1) {
      EXPECT_LT(thin[i].balance, 1e-12) << "column " << thin[i].a;
    }
  }
}

}  // namespace
}  // namespace field::noether
