#include "libfield/lie/so3.hpp"

#include <Eigen/Geometry>
#include <cmath>

namespace field::lie {

Mat3 hat(const Vec3& w) {
  Mat3 s;
  s << 0.0, -w.z(), w.y(),  //
      w.z(), 0.0, -w.x(),   //
      -w.y(), w.x(), 0.0;
  return s;
}

Vec3 vee(const Mat3& s) {
  return Vec3(s(2, 1), s(0, 2), s(1, 0));
}

Vec4 quat_from_rotation(const Mat3& rotation) {
  Eigen::Quaterniond q(rotation);
  q.normalize();
  if (q.w() < 0.0) q.coeffs() *= -1.0;
  return Vec4(q.w(), q.x(), q.y(), q.z());  // Eigen stores (x, y, z, w): reorder, scalar first
}

Mat3 rotation_from_quat(const Vec4& q_wxyz) {
  const Eigen::Quaterniond q(q_wxyz(0), q_wxyz(1), q_wxyz(2), q_wxyz(3));
  return q.toRotationMatrix();
}

Mat3 rotation_about(const Vec3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

}  // namespace field::lie
