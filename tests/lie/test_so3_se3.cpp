// SO(3)/SE(3) value types, hat/vee, Ad, ad and their duals, quaternions (theory §0.2).
#include <gtest/gtest.h>

#include <cmath>

#include "libfield/lie/se3.hpp"
#include "libfield/lie/so3.hpp"
#include "tests/support/random.hpp"

namespace field::lie {
namespace {

using test::Random;
constexpr double kTol = 1e-13;

TEST(SO3, HatIsCrossProductAndVeeInverts) {
  Random rnd(11);
  for (int trial = 0; trial < 100; ++trial) {
    const Vec3 w = rnd.vec3(3.0);
    const Vec3 u = rnd.vec3(3.0);
    EXPECT_LT((hat(w) * u - w.cross(u)).norm(), kTol);
    EXPECT_LT((vee(hat(w)) - w).norm(), 0.0 + 1e-300);
    EXPECT_LT((hat(w) + hat(w).transpose()).norm(), 1e-300);
  }
}

TEST(SO3, QuaternionIsScalarFirstAndRoundTrips) {
  // Rotation by th about e3 is q = (cos th/2, 0, 0, sin th/2) in (w, x, y, z) order.
  const double th = 0.7;
  const Vec4 q = quat_from_rotation(rotation_about(Vec3::UnitZ(), th));
  EXPECT_LT((q - Vec4(std::cos(th / 2), 0, 0, std::sin(th / 2))).norm(), kTol);
  Random rnd(12);
  for (int trial = 0; trial < 100; ++trial) {
    const Mat3 R = rnd.se3().R;
    const Vec4 qr = quat_from_rotation(R);
    EXPECT_GE(qr(0), 0.0);
    EXPECT_NEAR(qr.norm(), 1.0, kTol);
    EXPECT_LT((rotation_from_quat(qr) - R).norm(), kTol);
  }
}

TEST(SE3, ProductInverseActionAndMatrixAgree) {
  Random rnd(13);
  for (int trial = 0; trial < 100; ++trial) {
    const SE3 g = rnd.se3(3.0);
    const SE3 h = rnd.se3(3.0);
    const Vec3 p = rnd.vec3(2.0);
    EXPECT_LT(((g * h).matrix() - g.matrix() * h.matrix()).norm(), kTol * 10);
    EXPECT_LT(((g * g.inverse()).matrix() - Mat4::Identity()).norm(), kTol * 10);
    const Vec4 ph(p.x(), p.y(), p.z(), 1.0);
    EXPECT_LT((g.act(p) - (g.matrix() * ph).head<3>()).norm(), kTol * 10);
    EXPECT_LT((SE3::from_matrix(g.matrix()).matrix() - g.matrix()).norm(), 1e-300);
    EXPECT_LT((SE3::from_quat(g.quat(), g.r).matrix() - g.matrix()).norm(), kTol * 10);
  }
}

TEST(SE3, HatVeeRoundTrip) {
  Random rnd(14);
  for (int trial = 0; trial < 100; ++trial) {
    const Vec6 x = rnd.vec6(3.0);
    EXPECT_EQ(vee6(hat6(x)), x);
  }
}

TEST(SE3, AdjointConjugatesAndIsMultiplicative) {
  Random rnd(15);
  for (int trial = 0; trial < 100; ++trial) {
    const SE3 g = rnd.se3(3.0);
    const SE3 h = rnd.se3(3.0);
    const Vec6 x = rnd.vec6(2.0);
    // (Ad_g x)^ = g x^ g^{-1}
    const Mat4 conj = g.matrix() * hat6(x) * g.inverse().matrix();
    EXPECT_LT((hat6(Ad(g) * x) - conj).norm(), 1e-12);
    // Ad_{gh} = Ad_g Ad_h
    EXPECT_LT((Ad(g * h) - Ad(g) * Ad(h)).norm(), 1e-12);
    EXPECT_LT((Ad(g.inverse()) - Ad(g).inverse()).norm(), 1e-12);
  }
}

TEST(SE3, SmallAdjointIsBracket) {
  Random rnd(16);
  for (int trial = 0; trial < 100; ++trial) {
    const Vec6 x = rnd.vec6(2.0);
    const Vec6 y = rnd.vec6(2.0);
    const Mat4 bracket = hat6(x) * hat6(y) - hat6(y) * hat6(x);
    EXPECT_LT((hat6(ad(x) * y) - bracket).norm(), kTol * 10);
  }
}

TEST(SE3, DualsAreTransposes) {
  Random rnd(17);
  for (int trial = 0; trial < 100; ++trial) {
    const SE3 g = rnd.se3(3.0);
    const Vec6 x = rnd.vec6(2.0);
    const Vec6 mu = rnd.vec6(2.0);
    EXPECT_LT((Ad_dual(g, mu) - Ad(g).transpose() * mu).norm(), 1e-12);
    EXPECT_LT((ad_dual(x, mu) - ad(x).transpose() * mu).norm(), 1e-12);
    // Spatial covector: Ad*_{g^{-1}} mu = (R pi + r x R p, R p), theory §0.2.
    EXPECT_LT((spatial_covector(g, mu) - Ad_dual(g.inverse(), mu)).norm(), 1e-12);
    // Pairing invariance: <Ad*_g mu, x> = <mu, Ad_g x>.
    EXPECT_NEAR(Ad_dual(g, mu).dot(x), mu.dot(Ad(g) * x), 1e-12);
  }
}

}  // namespace
}  // namespace field::lie
