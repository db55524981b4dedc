// The tip strain as a strain sensor measures it (libfield/io/tip_strain.hpp, theory §6.6): on a
// beam driven at its tip from rest (time march, prescribed end a = 0, free far end), the point
// strain at s = 0 taken from the marched field and converted reproduces the first segment's
// strain to O(ds^2); used unconverted it is off by O(ds). Observed orders under refinement.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/tip_strain.hpp"
#include "libfield/lie/so3.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/mesh/convected.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/problems.hpp"

namespace field::io {
namespace {

/// Tip motion at rest at t = 0 (velocity and acceleration zero): p(t) = (1 - cos wt)^2 / 4,
/// translation 0.1 p (1, 0.5, 0.2) m and a rotation by 0.3 p rad about (0.3, 1, 0.2).
lie::SE3 tip_motion(double t) {
  const double w = 2.0 * M_PI, p = std::pow(1.0 - std::cos(w * t), 2) / 4.0;
  return lie::SE3{lie::rotation_about(Vec3(0.3, 1.0, 0.2).normalized(), 0.3 * p),
                  0.1 * p * Vec3(1.0, 0.5, 0.2)};
}

struct Errors {
  double converted = 0.0;    ///< max_j |convert(eps_j) - eta_j^0|
  double unconverted = 0.0;  ///< max_j |eps_j - eta_j^0|
};

/// The driven beam of length 1 m with A nodes (prescribed-free: ds = 1/(A - 1/2)), c_E dt/ds
/// about 0.4, over T = 0.5 s; the point strain eps(t_j, 0) extrapolated from the segment strains
/// of the marched field (cubic through eta^0..eta^3 at s = ds/2 .. 7ds/2: O(ds^4) in the
/// extrapolation, the field's own O(ds^2) error moves both sides alike).
template <class G>
Errors driven_errors(int A) {
  const model::BeamDensity density = test::soft_beam();
  const model::Loads loads;
  const double ds = 1.0 / (A - 0.5), T = 0.5;
  const int J = static_cast<int>(std::lround(T / (0.04 * ds)));
  const mesh::SpacetimeMesh mesh(J, A, T / J, ds);
  const dcel::DiscreteModel<G> model(density, loads, mesh);
  march::TimeMarchInput in;
  for (int a = 0; a <= A; ++a) in.row0.push_back(lie::SE3{Mat3::Identity(), Vec3(0, 0, a * ds)});
  in.velocities.assign(A + 1, Vec6::Zero());
  in.left = march::SideSpec::prescribed([&mesh](int j) { return tip_motion(mesh.t(j)); });
  march::FieldRecorder recorder(mesh, true);
  const march::MarchResult result = march::time_march(model, in, {&recorder});
  EXPECT_TRUE(result.completed);
  const mesh::Field& f = recorder.field();

  std::vector<lie::SE3> g0;
  std::vector<Vec6> eps, eta0;
  for (int j = 0; j <= J; ++j) g0.push_back(f(j, 0));
  for (int j = 0; j < J; ++j) {
    Vec6 eta[4];
    for (int a = 0; a < 4; ++a) eta[a] = mesh::convected<G>(f(j, a), f(j, a + 1), ds);
    // Lagrange extrapolation to s = 0 from s = (a + 1/2) ds, a = 0..3.
    eps.push_back((35.0 * eta[0] - 35.0 * eta[1] + 21.0 * eta[2] - 5.0 * eta[3]) / 16.0);
    eta0.push_back(eta[0]);
  }
  const std::vector<Vec6> converted = segment_strain_from_point(model, g0, eps);
  Errors e;
  for (int j = 0; j < J; ++j) {
    e.converted = std::max(e.converted, (converted[j] - eta0[j]).cwiseAbs().maxCoeff());
    e.unconverted = std::max(e.unconverted, (eps[j] - eta0[j]).cwiseAbs().maxCoeff());
  }
  return e;
}

template <class G>
class TipStrainConversion : public ::testing::Test {};
TYPED_TEST_SUITE(TipStrainConversion, test::Se3Groups, test::GroupNames);

TYPED_TEST(TipStrainConversion, PointStrainConvertedReproducesTheFirstSegmentToSecondOrder) {
  const int As[] = {8, 16, 32, 64};
  Errors e[4];
  for (int k = 0; k < 4; ++k) e[k] = driven_errors<TypeParam>(As[k]);
  for (int k = 0; k < 4; ++k) {
    std::printf("A = %2d: converted %.3e, unconverted %.3e", As[k], e[k].converted,
                e[k].unconverted);
    if (k > 0)
      std::printf("  orders %.2f, %.2f", std::log2(e[k - 1].converted / e[k].converted),
                  std::log2(e[k - 1].unconverted / e[k].unconverted));
    std::printf("\n");
  }
  for (int k = 2; k < 4; ++k) {
    const double converted = std::log2(e[k - 1].converted / e[k].converted);
    const double unconverted = std::log2(e[k - 1].unconverted / e[k].unconverted);
    EXPECT_GT(converted, 1.8) << "A = " << As[k];
    EXPECT_LT(converted, 2.3) << "A = " << As[k];
    EXPECT_GT(unconverted, 0.85) << "A = " << As[k];
    EXPECT_LT(unconverted, 1.15) << "A = " << As[k];
    EXPECT_LT(e[k].converted, 0.1 * e[k].unconverted) << "A = " << As[k];
  }
}

TEST(TipStrainConversion, SpaceMarchFromPointStrainsConvertedMatchesTheSegmentStrainRun) {
  // The paper's scenario (meshes/space_evolution, theory §11.4, a space march in its stable
  // range): its field, marched from the first-segment tip strains, gives the point strains at
  // s = 0 (cubic extrapolation of eta^0..eta^3). Marched from those point strains as if they
  // were segment strains, the far end is off by the O(ds) error of (6.6.1); converted, by the
  // O(ds^2) remainder: measured RMS far-end position errors 2.8e-4 m and 3.8e-5 m.
  const io::Problem problem(
      io::load_case(std::filesystem::path(FIELD_SOURCE_DIR) / "meshes/space_evolution/case.toml"));
  const int J = problem.spec.J, A = problem.spec.A;
  const double ds = problem.spec.ds;
  const dcel::DiscreteModel<lie::Se3Cayley> model(problem.density, problem.loads, problem.mesh);
  const io::SpaceSetup setup = io::space_march_input(problem);
  const auto march_from = [&](const std::vector<Vec6>& strain) {
    march::SpaceMarchInput in = setup.input;
    in.strain0 = strain;
    march::FieldRecorder recorder(problem.mesh, false);
    EXPECT_TRUE(march::space_march(model, in, {&recorder}).completed);
    return recorder.field();
  };
  const mesh::Field reference = march_from(setup.input.strain0);
  std::vector<Vec6> eps;
  for (int j = 0; j < J; ++j) {
    Vec6 eta[4];
    for (int a = 0; a < 4; ++a)
      eta[a] = mesh::convected<lie::Se3Cayley>(reference(j, a), reference(j, a + 1), ds);
    eps.push_back((35.0 * eta[0] - 35.0 * eta[1] + 21.0 * eta[2] - 5.0 * eta[3]) / 16.0);
  }
  const auto far_rms = [&](const mesh::Field& f) {
    double sum = 0.0;
    for (int j = 0; j <= J; ++j) sum += (f(j, A).r - reference(j, A).r).squaredNorm();
    return std::sqrt(sum / (J + 1));
  };
  const double unconverted = far_rms(march_from(eps));
  const double converted =
      far_rms(march_from(segment_strain_from_point(model, setup.input.column0, eps)));
  std::printf(
      "far-end RMS position error: point strains as segment strains %.3e m, converted "
      "%.3e m\n",
      unconverted, converted);
  EXPECT_LT(converted, 0.2 * unconverted);
}

}  // namespace
}  // namespace field::io
