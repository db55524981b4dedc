// The space march of a beam whose law and stress-free shape vary along s (theory §1.6, §6.2):
// column a solves with segment a's law (C_a, eta0_a) from a target in node a's inertia and
// segment a-1's law. A tapered, curved beam time-marched and then space-marched back from its
// tip data (the round trip of theory §11.5) is recovered to the round-off that the space march
// amplifies; a space evolution of such a beam satisfies the discrete equations and conserves Q^a;
// a model whose segments share one density gives the bits of the uniform model.
#include <gtest/gtest.h>

#include <cstdio>

#include "libfield/dcel/residual.hpp"
#include "libfield/dcel/stress_free.hpp"
#include "libfield/noether/balance.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/groups.hpp"

namespace field::march {
namespace {

using Segments = std::vector<const model::Density<lie::Se3Group>*>;

template <class G>
class SpaceSegments : public ::testing::Test {};
TYPED_TEST_SUITE(SpaceSegments, test::Se3Groups, test::GroupNames);

// A tapered, curved and twisted beam: segment a's C scaled by (1 - taper a), its J and mass by
// the square; eta0_a = (0.3 + 0.1 a, -0.2, 0.15 + 0.05 a, 0, 0, 1 + 0.02 a), a stress-free shape
// that bends, twists and stretches differently in every segment.
struct TaperedBeam {
  std::vector<model::BeamDensity> beams;
  Segments segments;
  TaperedBeam(const model::BeamDensity& base, int A, double taper) {
    beams.reserve(A);
    for (int a = 0; a < A; ++a) {
      model::SectionLaw law = base.law();
      const double f = 1.0 - taper * a;
      law.C *= f;
      law.J *= f * f;
      law.mass_per_length *= f * f;
      beams.emplace_back(
          law, Vec3::Zero(),
          (Vec6() << 0.3 + 0.1 * a, -0.2, 0.15 + 0.05 * a, 0, 0, 1 + 0.02 * a).finished());
    }
    for (const model::BeamDensity& b : beams) segments.push_back(&b);
  }
  TaperedBeam(const TaperedBeam&) = delete;
  TaperedBeam& operator=(const TaperedBeam&) = delete;
};

// Largest position difference per column a = 0..A.
std::vector<double> column_errors(const mesh::Field& x, const mesh::Field& truth) {
  const mesh::SpacetimeMesh& m = truth.mesh();
  std::vector<double> e(m.A() + 1, 0.0);
  for (int a = 0; a <= m.A(); ++a)
    for (int j = 0; j <= m.J(); ++j)
      e[a] = std::max(e[a], (x(j, a).r - truth(j, a).r).cwiseAbs().maxCoeff());
  return e;
}

TYPED_TEST(SpaceSegments, RoundTripRecoversATaperedCurvedBeam) {
  // The grid of the uniform round trip (tests/march/test_space_march.cpp, theory §11.5): A = 6,
  // ds = 1/6, dt = 0.0075, J = 100. The time march starts in the stress-free shape (1.6.3) with
  // the free flight's velocities; the space march rebuilds it from columns 0 and 1 with rows 0
  // and J prescribed, on the reference path and on the lanes. With a wrong law (segment a-1's
  // in column a) the reference path does not complete the march.
  test::FreeFlight ff;
  ff.A = 6;
  ff.ds = 1.0 / 6.0;
  ff.dt = 0.0075;
  ff.J = 100;
  const TaperedBeam beam(test::soft_beam(), ff.A, 0.08);
  const model::Loads loads;
  const dcel::DiscreteModel<TypeParam> model(beam.beams[0], beam.segments, loads, ff.mesh());
  ASSERT_FALSE(model.uniform());
  TimeMarchInput start = ff.input();
  start.row0 = dcel::stress_free_row(model, lie::SE3{});
  const test::RecordedRun truth = test::record_time_march(model, start);
  ASSERT_TRUE(truth.result.completed);

  const SpaceMarchInput in = test::round_trip_input(truth.field, ff.J);
  const test::RecordedRun ref = test::record_space_march(model, in, 1, NodeKernel::per_node);
  const test::RecordedRun lanes = test::record_space_march(model, in, 1, NodeKernel::automatic);
  for (const test::RecordedRun* r : {&ref, &lanes}) {
    ASSERT_TRUE(r->result.completed);
    const std::vector<double> e = column_errors(r->field, truth.field);
    const char* path = r == &ref ? "per node" : "lanes";
    for (int a = 2; a <= ff.A; ++a)
      std::printf("[%s %s] round trip column %d: max position error %.2e\n",
                  lie::retraction_name<TypeParam>().c_str(), path, a, e[a]);
    EXPECT_EQ(e[0], 0.0);
    EXPECT_EQ(e[1], 0.0);
    // The uniform beam's bounds (test_space_march.cpp: 2.9e-15 and 2.1e-13 measured) and the
    // growth of round-off by < 150 per column (theory §10 vi: ~70).
    EXPECT_LT(e[2], 1e-12) << path;
    EXPECT_LT(e[3], 1e-10) << path;
    for (int a = 4; a <= ff.A; ++a) EXPECT_LT(e[a], 150.0 * std::max(e[a - 1], 1e-14)) << path;
  }
  // The lanes (a law per slab, SlabLanes::per_slab_laws) against the reference path: the same
  // Newton work; their fields differ by the amplified round-off above (tests/march/
  // test_slab_lanes.cpp compares the two paths where nothing amplifies it).
  EXPECT_EQ(lanes.result.node_solves, ref.result.node_solves);
}

TYPED_TEST(SpaceSegments, SpaceEvolutionSatisfiesTheEquationsAndConservesQ) {
  // theory §11.4 (zero-momentum rows, no forces) on a tapered curved beam: the marched field
  // solves the discrete equations of every node of columns 1..A-1 (dcel::residual_report, which
  // takes the laws per triangle independently of the march), and Q^a is conserved (each l_a is
  // left-invariant, theory §1.6, §7.2).
  const test::SpaceEvolution se;
  const TaperedBeam beam(test::SpaceEvolution::beam(), se.A, 0.04);
  const model::Loads loads;
  const dcel::DiscreteModel<TypeParam> model(beam.beams[0], beam.segments, loads, se.mesh());
  const SpaceMarchInput in = se.input();
  const test::RecordedRun r = test::record_space_march(model, in, 1);
  ASSERT_TRUE(r.result.completed);
  const dcel::ResidualReport report = dcel::residual_report(model, r.field, space_boundary(in));
  EXPECT_LT(report.relative, 1e-11) << "worst (" << report.worst.j << ", " << report.worst.a << ")";
  const noether::MomentumMaps maps(model, r.field);
  const Vec6 Q0 = noether::total_space_momentum(maps, 0);
  double size = 0.0;
  for (int j = 0; j < se.J; ++j) size += maps.N(j, 0).cwiseAbs().maxCoeff();
  size *= model.dt();
  for (int a = 1; a < se.A; ++a)
    EXPECT_LT((noether::total_space_momentum(maps, a) - Q0).cwiseAbs().maxCoeff() / size, 1e-12)
        << "column " << a;
  std::printf("[%s] tapered space evolution: residual %.2e\n",
              lie::retraction_name<TypeParam>().c_str(), report.relative);
}

TYPED_TEST(SpaceSegments, SharedSegmentDensityGivesTheUniformBits) {
  // Every segment the same density: the per-segment space march (a closed-form node per column,
  // a law per slab on the lanes) gives the bits of the uniform model on every kernel.
  const test::SpaceEvolution se;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const Segments segments(se.A, &beam);
  const dcel::DiscreteModel<TypeParam> uniform(beam, loads, se.mesh());
  const dcel::DiscreteModel<TypeParam> shared(beam, segments, loads, se.mesh());
  for (const NodeKernel kernel : {NodeKernel::per_node, NodeKernel::automatic,
                                  NodeKernel::lanes_baseline, NodeKernel::reference}) {
    const test::RecordedRun one = test::record_space_march(uniform, se.input(), 1, kernel);
    const test::RecordedRun two = test::record_space_march(shared, se.input(), 1, kernel);
    ASSERT_TRUE(one.result.completed && two.result.completed);
    EXPECT_TRUE(test::same_bits(one, two, se.J, se.A)) << static_cast<int>(kernel);
    EXPECT_EQ(one.result.newton_iterations, two.result.newton_iterations);
  }
}

}  // namespace
}  // namespace field::march
