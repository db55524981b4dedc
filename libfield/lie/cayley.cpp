#include "libfield/lie/cayley.hpp"

#include "libfield/core/error.hpp"
#include "libfield/core/small_eigen.hpp"
#include "libfield/lie/cayley_blocks.hpp"
#include "libfield/lie/so3.hpp"

namespace field::lie {

// All formulas: theory §2.1, with x = (omega, v) and n = |omega|^2; cay, cay^{-1} and the dual
// (dcay^{-1}_x)^T p are written once, for one node and for lanes, in lie/cayley_blocks.hpp.

SE3 cay(const Vec6& x) {
  small::M3<double> R;
  small::V3<double> r;
  cay_detail::cay_blocks(small::head(x), small::tail(x), R, r);
  return SE3{small::to_eigen(R), small::to_eigen(r)};
}

Vec6 cay_inv(const SE3& g) {
  const small::M3<double> R = small::m3(g.R);
  const double denom = cay_detail::cay_inv_denominator(R);
  FIELD_CHECK(denom > 0.0, "cay_inv: rotation by pi or more has no Cayley coordinates (1 + tr R = "
                               << denom << ")");
  small::V3<double> w, v;
  cay_detail::cay_inv_blocks(R, small::v3(g.r), w, v);
  return small::to_eigen(w, v);
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
  small::V3<double> out_w, out_v;
  cay_detail::dual(small::head(x), small::tail(x), small::head(p), small::tail(p), out_w, out_v);
  return small::to_eigen(out_w, out_v);
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
