#include "libfield/lie/cayley.hpp"

#include "libfield/core/error.hpp"
#include "libfield/lie/so3.hpp"

namespace field::lie {

// All formulas: theory §2.1, with x = (omega, v) and n = |omega|^2.

SE3 cay(const Vec6& x) {
  const Vec3 w = x.head<3>();
  const Vec3 v = x.tail<3>();
  const double n = w.squaredNorm();
  const Mat3 W = hat(w);
  SE3 g;
  g.R = Mat3::Identity() + (4.0 / (4.0 + n)) * (W + 0.5 * W * W);
  g.r = (4.0 * v + 2.0 * w.cross(v) + w * w.dot(v)) / (4.0 + n);
  return g;
}

Vec6 cay_inv(const SE3& g) {
  const double denom = 1.0 + g.R.trace();
  FIELD_CHECK(denom > 0.0, "cay_inv: rotation by pi or more has no Cayley coordinates (1 + tr R = "
                               << denom << ")");
  const Vec3 w = 2.0 * vee(g.R - g.R.transpose()) / denom;
  Vec6 x;
  x << w, g.r - 0.5 * w.cross(g.r);
  return x;
}

Mat6 dcay(const Vec6& x) {
  const Vec3 w = x.head<3>();
  const Vec3 v = x.tail<3>();
  const double n = w.squaredNorm();
  const Mat3 W = hat(w);
  const Mat3 A = (2.0 / (4.0 + n)) * (2.0 * Mat3::Identity() + W);
  Mat6 m = Mat6::Zero();
  m.topLeftCorner<3, 3>() = A;
  m.bottomLeftCorner<3, 3>() = 0.5 * hat(v) * A;
  m.bottomRightCorner<3, 3>() = (4.0 * Mat3::Identity() + 2.0 * W + w * w.transpose()) / (4.0 + n);
  return m;
}

Mat6 dcay_inv(const Vec6& x) {
  const Vec3 w = x.head<3>();
  const Vec3 v = x.tail<3>();
  const Mat3 B = Mat3::Identity() - 0.5 * hat(w);
  Mat6 m = Mat6::Zero();
  m.topLeftCorner<3, 3>() = B + 0.25 * w * w.transpose();
  m.bottomLeftCorner<3, 3>() = -0.5 * B * hat(v);
  m.bottomRightCorner<3, 3>() = B;
  return m;
}

Vec6 dcay_inv_dual(const Vec6& x, const Vec6& p) {
  const Vec3 w = x.head<3>();
  const Vec3 v = x.tail<3>();
  const Vec3 pi = p.head<3>();
  const Vec3 q = p.tail<3>();
  Vec6 out;
  out << pi - 0.5 * (pi.cross(w) + q.cross(v)) + 0.25 * (w.dot(pi) * w + v.cross(w.cross(q))),
      q - 0.5 * q.cross(w);
  return out;
}

Mat6 cay_newton_M(const Vec6& x, const Vec6& p) {
  const Vec3 w = x.head<3>();
  const Vec3 v = x.tail<3>();
  const Vec3 pi = p.head<3>();
  const Vec3 q = p.tail<3>();
  const Mat3 Q = hat(q);
  Mat6 m = Mat6::Zero();
  m.topLeftCorner<3, 3>() = -0.5 * hat(pi) +
                            0.25 * (w * pi.transpose() + w.dot(pi) * Mat3::Identity()) -
                            0.25 * hat(v) * Q;
  m.topRightCorner<3, 3>() = -0.5 * Q - 0.25 * hat(w.cross(q));
  m.bottomLeftCorner<3, 3>() = -0.5 * Q;
  return m;
}

}  // namespace field::lie
