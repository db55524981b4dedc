#include "libfield/lie/se2.hpp"

#include "libfield/core/error.hpp"

namespace field::lie {

// Formulas and derivations: docs/lie-groups.md "SE(2) with Cayley"; x = (w, v), J = [[0, -1],
// [1, 0]].

namespace {
const Mat2 kJ = (Mat2() << 0.0, -1.0, 1.0, 0.0).finished();
}  // namespace

Mat3 SE2::matrix() const {
  Mat3 m = Mat3::Identity();
  m.topLeftCorner<2, 2>() = R;
  m.topRightCorner<2, 1>() = r;
  return m;
}

Mat3 hat_se2(const Vec3& x) {
  Mat3 m = Mat3::Zero();
  m.topLeftCorner<2, 2>() = x(0) * kJ;
  m.topRightCorner<2, 1>() = x.tail<2>();
  return m;
}

SE2 Se2Cayley::tau(const Vec3& x) {
  const double w = x(0);
  const Vec2 v = x.tail<2>();
  const double s = 1.0 / (4.0 + w * w);
  SE2 g;
  g.R = s * ((4.0 - w * w) * Mat2::Identity() + 4.0 * w * kJ);
  g.r = s * (4.0 * v + 2.0 * w * (kJ * v));
  return g;
}

Vec3 Se2Cayley::tau_inv(const SE2& g) {
  const double denom = 2.0 + g.R.trace();
  FIELD_CHECK(
      denom > 0.0,
      "Se2Cayley::tau_inv: rotation by pi has no Cayley coordinates (2 + tr R = " << denom << ")");
  const double w = 2.0 * (g.R(1, 0) - g.R(0, 1)) / denom;
  Vec3 x;
  x << w, g.r - 0.5 * w * (kJ * g.r);
  return x;
}

Mat3 Se2Cayley::dtau_inv(const Vec3& x) {
  const double w = x(0);
  const Vec2 v = x.tail<2>();
  Mat3 m = Mat3::Zero();
  m(0, 0) = 1.0 + 0.25 * w * w;
  m.bottomLeftCorner<2, 1>() = 0.5 * (kJ * v) + 0.25 * w * v;
  m.bottomRightCorner<2, 2>() = Mat2::Identity() - 0.5 * w * kJ;
  return m;
}

Vec3 Se2Cayley::dtau_inv_dual(const Vec3& x, const Vec3& p) {
  const double w = x(0);
  const Vec2 v = x.tail<2>();
  const Vec2 q = p.tail<2>();
  Vec3 out;
  out << p(0) * (1.0 + 0.25 * w * w) + q.dot(0.5 * (kJ * v) + 0.25 * w * v), q + 0.5 * w * (kJ * q);
  return out;
}

Mat3 Se2Cayley::Ad(const SE2& g) {
  Mat3 m = Mat3::Zero();
  m(0, 0) = 1.0;
  m.bottomLeftCorner<2, 1>() = -(kJ * g.r);
  m.bottomRightCorner<2, 2>() = g.R;
  return m;
}

Vec3 Se2Cayley::Ad_dual(const SE2& g, const Vec3& mu) {
  const Vec2 q = mu.tail<2>();
  Vec3 out;
  out << mu(0) - (g.r(0) * q(1) - g.r(1) * q(0)), g.R.transpose() * q;
  return out;
}

Mat3 Se2Cayley::newton_M(const Vec3& x, const Vec3& p) {
  const double w = x(0);
  const Vec2 v = x.tail<2>();
  const Vec2 q = p.tail<2>();
  Mat3 m = Mat3::Zero();
  m(0, 0) = 0.5 * p(0) * w + 0.25 * q.dot(v);
  m.block<1, 2>(0, 1) = (-0.5 * (kJ * q) + 0.25 * w * q).transpose();
  m.bottomLeftCorner<2, 1>() = 0.5 * (kJ * q);
  return m;
}

Vec3 spatial_covector(const SE2& g, const Vec3& mu) {
  const Vec2 p = g.R * mu.tail<2>();
  Vec3 out;
  out << mu(0) + (g.r(0) * p(1) - g.r(1) * p(0)), p;
  return out;
}

}  // namespace field::lie
