// The 45-degree bend of Bathe & Bolourchi (1979), meshes/bend45 (docs/validation/bend45.md): the
// shipped case on coarser grids. The tip displacement under P = 600 lies within the published
// answers (meshes/bend45/reference.csv) and converges at order 2 in ds (theory §4.5).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/validation/validation_case.hpp"

namespace field {
namespace {

constexpr double kR = 100.0;
constexpr double kLength = 25.0 * M_PI;  // 45 degrees of R = 100

// Tip displacement (x towards the centre, y along the force, z along the root tangent) of the
// shipped case with A segments.
Vec3 tip_displacement(int A, const std::string& retraction = "exp") {
  const io::CaseSpec spec =
      test::shipped_case("bend45", {{"A", std::to_string(A)},
                                    {"ds", io::format_double(kLength / A)},
                                    {"retraction", "\"" + retraction + "\""}});
  const statics::StaticResult r = test::solve_shipped_case(spec);
  EXPECT_TRUE(r.converged) << r.failure;
  EXPECT_LE(r.relative_residual, 1e-10);
  const Vec3 tip0(kR * (1.0 - std::cos(M_PI / 4)), 0.0, kR * std::sin(M_PI / 4));
  return r.row.back().r - tip0;
}

// The published tip displacements at P = 600 (meshes/bend45/reference.csv): Bathe & Bolourchi
// (1979), BeamDyn (Wang et al. 2015), kynema's converged spectral element. They are given to 0.1
// (B&B, BeamDyn) and disagree among themselves by up to 0.32 (u_x): the test asks for our answer
// to lie in their envelope widened by half the last quoted digit (0.05), the published answer's
// own uncertainty. Our discretisation error at A = 16 is 0.035 (docs/validation/bend45.md), inside
// it; at A = 4 it is 0.57 and u_y = 52.9 falls outside, so the test can fail.
TEST(Bend45, TipDisplacementLiesWithinThePublishedAnswers) {
  const double published[3][3] = {{-13.4, 53.4, -23.5},            // Bathe & Bolourchi
                                  {-13.5, 53.4, -23.7},            // BeamDyn
                                  {-13.7208, 53.5776, -23.6460}};  // kynema, one LSFE, N = 9
  for (const int A : {16, 32}) {
    const Vec3 u = tip_displacement(A);
    for (int c = 0; c < 3; ++c) {
      double lo = published[0][c], hi = published[0][c];
      for (const auto& p : published) lo = std::min(lo, p[c]), hi = std::max(hi, p[c]);
      EXPECT_GE(u[c], lo - 0.05) << "A = " << A << ", component " << c;
      EXPECT_LE(u[c], hi + 0.05) << "A = " << A << ", component " << c;
    }
  }
}

// Halving ds divides the change of the tip displacement by 4 (second order, theory §4.5), for
// both retractions: observed orders between 1.9 and 2.1 (measured 2.00 with exp from A = 8, 16,
// 32; 1.99-2.01 with Cayley from A = 16, 32, 64; docs/validation/bend45.md).
TEST(Bend45, ConvergesAtOrderTwoInDs) {
  for (const std::string retraction : {"exp", "cayley"}) {
    const int A0 = retraction == "exp" ? 8 : 16;
    const Vec3 u1 = tip_displacement(A0, retraction), u2 = tip_displacement(2 * A0, retraction),
               u3 = tip_displacement(4 * A0, retraction);
    for (int c = 0; c < 3; ++c) {
      const double order = std::log2(std::abs(u2[c] - u1[c]) / std::abs(u3[c] - u2[c]));
      EXPECT_GE(order, 1.9) << retraction << ", component " << c;
      EXPECT_LE(order, 2.1) << retraction << ", component " << c;
    }
  }
}

}  // namespace
}  // namespace field
