// SO(3)/SE(3) value types, hat/vee, Ad, ad and their duals, quaternions (theory §0.2).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

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

// quat_from_rotation spells out Eigen's Quaterniond(m), normalize() and the sign of w (the
// text of field.csv, the frames and tip.csv must keep their bytes): the same bits as Eigen's own
// code on rotations (both branches of Shepperd's method), on matrices that are no rotation (the
// normalisation does work), on ties of the diagonal and on matrices with a zero trace.
TEST(SO3, QuaternionHasTheBitsOfEigensFormula) {
  const auto eigen = [](const Mat3& m) {
    Eigen::Quaterniond q(m);
    q.normalize();
    if (q.w() < 0.0) q.coeffs() *= -1.0;
    return Vec4(q.w(), q.x(), q.y(), q.z());
  };
  const auto same_bits = [](const Vec4& a, const Vec4& b) {
    return std::memcmp(a.data(), b.data(), sizeof(double) * 4) == 0;
  };
  std::mt19937_64 bits(18);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<Mat3> cases;
  for (int trial = 0; trial < 100000; ++trial) {
    const Vec4 q = Vec4(unit(bits), unit(bits), unit(bits), unit(bits)).normalized();
    cases.push_back(rotation_from_quat(q));  // a rotation
    Mat3 m;
    for (int c = 0; c < 9; ++c) m(c) = unit(bits);
    cases.push_back(m);                                   // any matrix
    cases.push_back(cases[cases.size() - 2] + 1e-3 * m);  // a rotation, perturbed
  }
  for (const Vec3& axis :
       {Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(1, 1, 0), Vec3(1, 1, 1)})
    for (const double angle : {0.0, 0.5, M_PI / 2, 2.0 * M_PI / 3, M_PI, -M_PI / 2, 3.0})
      cases.push_back(rotation_about(axis, angle));
  cases.push_back(Mat3::Zero());
  cases.push_back(Mat3(Vec3(1.0, -0.5, -0.5).asDiagonal()));  // trace 0
  cases.push_back(Mat3(Vec3(-1.0, -1.0, 1.0).asDiagonal()));  // ties on the diagonal
  cases.push_back(Mat3(Vec3(-1.0, 1.0, 1.0e-300).asDiagonal()));
  long long differ = 0;
  for (const Mat3& m : cases)
    if (!same_bits(quat_from_rotation(m), eigen(m))) ++differ;
  EXPECT_EQ(differ, 0) << "of " << cases.size() << " matrices";
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
