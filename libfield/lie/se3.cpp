#include "libfield/lie/se3.hpp"

#include "libfield/lie/so3.hpp"

namespace field::lie {

SE3 SE3::from_quat(const Vec4& q_wxyz, const Vec3& translation) {
  return SE3{rotation_from_quat(q_wxyz), translation};
}

SE3 SE3::from_matrix(const Mat4& m) {
  return SE3{m.topLeftCorner<3, 3>(), m.topRightCorner<3, 1>()};
}

Mat4 SE3::matrix() const {
  Mat4 m = Mat4::Identity();
  m.topLeftCorner<3, 3>() = R;
  m.topRightCorner<3, 1>() = r;
  return m;
}

Vec4 SE3::quat() const {
  return quat_from_rotation(R);
}

Mat4 hat6(const Vec6& x) {
  Mat4 m = Mat4::Zero();
  m.topLeftCorner<3, 3>() = hat(x.head<3>());
  m.topRightCorner<3, 1>() = x.tail<3>();
  return m;
}

Vec6 vee6(const Mat4& m) {
  Vec6 x;
  x << vee(m.topLeftCorner<3, 3>()), m.topRightCorner<3, 1>();
  return x;
}

Mat6 Ad(const SE3& g) {
  Mat6 m = Mat6::Zero();
  m.topLeftCorner<3, 3>() = g.R;
  m.bottomRightCorner<3, 3>() = g.R;
  m.bottomLeftCorner<3, 3>() = hat(g.r) * g.R;
  return m;
}

Mat6 ad(const Vec6& x) {
  Mat6 m = Mat6::Zero();
  const Mat3 w = hat(x.head<3>());
  m.topLeftCorner<3, 3>() = w;
  m.bottomRightCorner<3, 3>() = w;
  m.bottomLeftCorner<3, 3>() = hat(x.tail<3>());
  return m;
}

Vec6 Ad_dual(const SE3& g, const Vec6& mu) {
  const Vec3 pi = mu.head<3>();
  const Vec3 p = mu.tail<3>();
  Vec6 out;
  out << g.R.transpose() * (pi - g.r.cross(p)), g.R.transpose() * p;
  return out;
}

Vec6 ad_dual(const Vec6& x, const Vec6& mu) {
  const Vec3 omega = x.head<3>();
  const Vec3 v = x.tail<3>();
  const Vec3 pi = mu.head<3>();
  const Vec3 p = mu.tail<3>();
  Vec6 out;
  out << pi.cross(omega) + p.cross(v), p.cross(omega);
  return out;
}

Vec6 spatial_covector(const SE3& g, const Vec6& mu) {
  const Vec3 p = g.R * mu.tail<3>();
  Vec6 out;
  out << g.R * mu.head<3>() + g.r.cross(p), p;
  return out;
}

}  // namespace field::lie
