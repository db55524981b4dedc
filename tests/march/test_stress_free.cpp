// theory §1.6: stress-free shapes (a reference strain eta0_a per segment) and properties that vary
// along s (a law per segment). A curved or kinked beam started at rest in its stress-free shape
// stays there to round-off with zero strain energy; a model whose segments share one density
// gives the bits of the uniform model; a free tapered beam conserves its momentum and keeps its
// energy bounded, and its marched field satisfies the discrete equations.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "libfield/dcel/residual.hpp"
#include "libfield/dcel/stress_free.hpp"
#include "libfield/noether/balance.hpp"
#include "libfield/noether/energies.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/groups.hpp"

namespace field::march {
namespace {

using Segments = std::vector<const model::Density<lie::Se3Group>*>;

template <class G>
class StressFree : public ::testing::Test {};
TYPED_TEST_SUITE(StressFree, test::Se3Groups, test::GroupNames);

// Largest change of any node from row 0 over the run, positions [m] and rotations (Frobenius).
double max_motion(const mesh::Field& f) {
  double d = 0.0;
  for (int j = 0; j <= f.mesh().J(); ++j)
    for (int a = 0; a <= f.mesh().A(); ++a)
      d = std::max({d, (f(j, a).r - f(0, a).r).cwiseAbs().maxCoeff(),
                    (f(j, a).R - f(0, a).R).cwiseAbs().maxCoeff()});
  return d;
}

// March from rest in the stress-free shape; the beam must not move and store no energy.
// `bent_energy` is the strain energy of the same beam started straight: the scale.
template <class G>
void expect_stays_at_rest(const dcel::DiscreteModel<G>& model, bool clamped_left,
                          double bent_energy, NodeKernel kernel = NodeKernel::automatic) {
  const int A = model.mesh().A();
  TimeMarchInput in;
  in.row0 = dcel::stress_free_row(
      model, lie::SE3{lie::rotation_about(Vec3::UnitX(), 0.3), Vec3(0.2, -0.1, 0.4)});
  in.velocities.assign(A + 1, Vec6::Zero());
  in.left = clamped_left ? SideSpec::clamped(in.row0.front()) : SideSpec::free();
  in.right = SideSpec::free();
  const test::RecordedRun r = test::record_time_march(model, in, 0, kernel);
  ASSERT_TRUE(r.result.completed);
  // 1e-12 as for the static arc (tests/physics): measured 1.2e-13 to 2.6e-13 over 200 rows;
  // a beam whose shape is not stress-free moves by centimetres.
  EXPECT_LE(max_motion(r.field), 1e-12) << lie::retraction_name<G>();
  for (const double E : noether::time_energies(model, r.field))
    EXPECT_LE(std::abs(E), 1e-24 * bent_energy) << lie::retraction_name<G>();
}

// Strain energy of the row 0 straight along d3 in a model: ds sum_a V_a(E6) (theory §8).
template <class G>
double straight_energy(const dcel::DiscreteModel<G>& model) {
  double E = 0.0;
  for (int a = 0; a < model.mesh().A(); ++a)
    E += model.ds() * model.density(a).strain_energy(model::BeamDensity::E6());
  return E;
}

TYPED_TEST(StressFree, QuarterCircleStaysAtRest) {
  // One density with eta0 = (0, kappa, 0, 0, 0, 1), kappa L = pi/2: a quarter circle, uniform, so
  // the lane kernels run it; the same on the per-node kernels.
  const mesh::SpacetimeMesh mesh(200, 10, 0.005, 0.1);
  const double kappa = 0.5 * M_PI / (mesh.A() * mesh.ds());
  const model::BeamDensity beam(test::soft_beam().law(), Vec3::Zero(),
                                (Vec6() << 0, kappa, 0, 0, 0, 1).finished());
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, TypeParam{}, mesh);
  ASSERT_TRUE(model.uniform());
  const double bent = straight_energy(model);
  EXPECT_GT(bent, 1.0);  // 1/2 EI kappa^2 L = 1.028 J: what a straight start would store
  expect_stays_at_rest(model, false, bent);
  expect_stays_at_rest(model, true, bent);
  expect_stays_at_rest(model, false, bent, NodeKernel::per_node);
}

TYPED_TEST(StressFree, KinkedCantileverStaysAtRest) {
  // Straight segments with a right-angle elbow: segment 4 turns by pi/2 about d1 (eta0_4 =
  // (pi/(2 ds), 0, 0, 0, 0, 1)), segment 7 twists by 0.4 rad and stretches by 10 %.
  const mesh::SpacetimeMesh mesh(200, 10, 0.005, 0.1);
  const model::SectionLaw law = test::soft_beam().law();
  const model::BeamDensity straight(law);
  const model::BeamDensity elbow(law, Vec3::Zero(),
                                 (Vec6() << 0.5 * M_PI / mesh.ds(), 0, 0, 0, 0, 1).finished());
  const model::BeamDensity twisted(law, Vec3::Zero(),
                                   (Vec6() << 0, 0, 0.4 / mesh.ds(), 0, 0, 1.1).finished());
  Segments segments(mesh.A(), &straight);
  segments[4] = &elbow;
  segments[7] = &twisted;
  const model::Loads loads;
  const dcel::DiscreteModel<TypeParam> model(straight, segments, loads, mesh);
  ASSERT_FALSE(model.uniform());
  const double bent = straight_energy(model);
  EXPECT_GT(bent, 1.0);
  expect_stays_at_rest(model, false, bent);
  expect_stays_at_rest(model, true, bent);
}

TYPED_TEST(StressFree, SharedSegmentDensityGivesTheUniformBits) {
  // Every segment the same density: the per-segment path gives the bits of the uniform model,
  // on the per-node kernels and on the lanes (a law per lane, march::SlabLanes::per_node_laws,
  // against one law for every lane; both builds of the lanes).
  const test::FreeFlight ff;
  const model::BeamDensity beam = test::soft_beam(Vec3(0, 0, -9.81));
  const model::Loads loads;
  const Segments segments(ff.A, &beam);
  const dcel::DiscreteModel<TypeParam> uniform(beam, loads, ff.mesh());
  const dcel::DiscreteModel<TypeParam> shared(beam, segments, loads, ff.mesh());
  for (const NodeKernel kernel :
       {NodeKernel::per_node, NodeKernel::automatic, NodeKernel::lanes_baseline}) {
    const test::RecordedRun one = test::record_time_march(uniform, ff.input(), 0, kernel);
    const test::RecordedRun two = test::record_time_march(shared, ff.input(), 0, kernel);
    ASSERT_TRUE(one.result.completed && two.result.completed);
    EXPECT_TRUE(test::same_bits(one, two, ff.J, ff.A)) << static_cast<int>(kernel);
  }
}

TYPED_TEST(StressFree, TaperedFreeBeamConservesMomentumAndEnergy) {
  // The free flight of theory §11.1 on a beam whose section shrinks along s: C_a scaled by
  // (1 - 0.06 a), J_a and the mass by its square, and a gentle stress-free curvature.
  test::FreeFlight ff;
  const model::SectionLaw soft = test::soft_beam().law();
  std::vector<model::BeamDensity> beams;
  for (int a = 0; a < ff.A; ++a) {
    model::SectionLaw law = soft;
    const double taper = 1.0 - 0.06 * a;
    law.C *= taper;
    law.J *= taper * taper;
    law.mass_per_length *= taper * taper;
    beams.emplace_back(law, Vec3::Zero(), (Vec6() << 0.2, 0, 0.1, 0, 0, 1).finished());
  }
  Segments segments;
  for (const model::BeamDensity& b : beams) segments.push_back(&b);
  const model::Loads loads;
  const dcel::DiscreteModel<TypeParam> model(beams[0], segments, loads, ff.mesh());
  const test::RecordedRun r = test::record_time_march(model, ff.input());
  ASSERT_TRUE(r.result.completed);
  // The energy error is O(dt^2): half the step, about a quarter of the range; observed order
  // log2(ratio) in [1.7, 2.3] (measured ratios 3.66 Cayley, 3.55 exp).
  const auto range = [&](const dcel::DiscreteModel<TypeParam>& m, const mesh::Field& f) {
    const std::vector<double> E = noether::time_energies(m, f);
    const auto [lo, hi] = std::minmax_element(E.begin(), E.end());
    return (*hi - *lo) / E[0];
  };
  test::FreeFlight fine = ff;
  fine.J *= 2;
  fine.dt /= 2;
  const dcel::DiscreteModel<TypeParam> fine_model(beams[0], segments, loads, fine.mesh());
  const test::RecordedRun f = test::record_time_march(fine_model, fine.input());
  ASSERT_TRUE(f.result.completed);
  const double ratio = range(model, r.field) / range(fine_model, f.field);
  std::printf("[tapered %s] energy range %.3e, ratio dt/(dt/2) %.3f\n",
              lie::retraction_name<TypeParam>().c_str(), range(model, r.field), ratio);
  EXPECT_GE(std::log2(ratio), 1.7);
  EXPECT_LE(std::log2(ratio), 2.3);
  const noether::MomentumMaps maps(model, r.field);
  const Vec6 P0 = noether::total_time_momentum(maps, 0);
  for (int j = 1; j < ff.J; ++j)
    ASSERT_LT((noether::total_time_momentum(maps, j) - P0).cwiseAbs().maxCoeff(),
              1e-12 * P0.cwiseAbs().maxCoeff())
        << "row " << j;
  const std::vector<double> E = noether::time_energies(model, r.field);
  const auto [lo, hi] = std::minmax_element(E.begin(), E.end());
  EXPECT_GT(E[0], 1.0);
  EXPECT_LT((*hi - *lo) / E[0], 1e-3);  // measured 5.0e-4 (Cayley), 5.7e-4 (exp)
  const dcel::ResidualReport report = dcel::residual_report(
      model, r.field, time_boundary(ff.input()), 0.0, dcel::residual_floors(model, r.field));
  EXPECT_LE(report.ratio, 1.0);
}

}  // namespace
}  // namespace field::march
