// Cayley retraction against its matrix definition, theory §2.1.
#include <gtest/gtest.h>

#include "libfield/core/error.hpp"
#include "libfield/lie/cayley.hpp"
#include "libfield/lie/so3.hpp"
#include "tests/support/random.hpp"

namespace field::lie {
namespace {

using test::Random;

TEST(Cayley, EqualsMatrixDefinition) {
  // cay(x) = (I - x^/2)^{-1} (I + x^/2)
  Random rnd(21);
  for (double angle : {0.0, 1e-8, 1e-3, 0.5, 1.0, 3.0, 6.0, 20.0}) {
    for (int trial = 0; trial < 40; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 2.0);
      const Mat4 X = hat6(x);
      const Mat4 expected = (Mat4::Identity() - 0.5 * X).inverse() * (Mat4::Identity() + 0.5 * X);
      EXPECT_LT((cay(x).matrix() - expected).norm() / std::max(1.0, x.norm()), 1e-13)
          << x.transpose();
    }
  }
}

TEST(Cayley, InverseDerivativeIsConjugation) {
  // dcay^{-1}_x z = vee((I - x^/2) z^ (I + x^/2)), theory §2.1.
  Random rnd(22);
  for (int trial = 0; trial < 100; ++trial) {
    const Vec6 x = rnd.vec6(2.0);
    const Vec6 z = rnd.vec6(2.0);
    const Mat4 X = hat6(x);
    const Vec6 expected =
        vee6((Mat4::Identity() - 0.5 * X) * hat6(z) * (Mat4::Identity() + 0.5 * X));
    EXPECT_LT((dcay_inv(x) * z - expected).norm(), 1e-13);
  }
}

TEST(Cayley, RotationByPiHasNoCoordinates) {
  SE3 g;
  g.R = rotation_about(Vec3::UnitX(), M_PI);
  EXPECT_THROW(cay_inv(g), Error);
}

}  // namespace
}  // namespace field::lie
