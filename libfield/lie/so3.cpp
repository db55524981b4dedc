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

Vec4 quat_from_rotation(const Mat3& m) {
  // Eigen's Quaterniond(m), normalize() and the sign of w, operation for operation in plain
  // doubles, so the bits are Eigen's (tests/lie/test_so3_se3.cpp compares them on 300 039
  // matrices): Eigen's own code passes the values through the stack in 8-byte stores read by
  // 16-byte loads, which cannot be forwarded, and takes about 40 % longer (docs/performance.md,
  // "Whole runs"). Shepperd's method: from the trace when it is positive, else from the largest
  // diagonal element.
  double q[4];                                         // x, y, z, w (Eigen's order)
  const double trace = m(0, 0) + (m(1, 1) + m(2, 2));  // Eigen's sum of the diagonal
  if (trace > 0.0) {
    double t = std::sqrt(trace + 1.0);
    q[3] = 0.5 * t;
    t = 0.5 / t;
    q[0] = (m(2, 1) - m(1, 2)) * t;
    q[1] = (m(0, 2) - m(2, 0)) * t;
    q[2] = (m(1, 0) - m(0, 1)) * t;
  } else {
    int i = 0;
    if (m(1, 1) > m(0, 0)) i = 1;
    if (m(2, 2) > m(i, i)) i = 2;
    const int j = (i + 1) % 3, k = (j + 1) % 3;
    double t = std::sqrt(m(i, i) - m(j, j) - m(k, k) + 1.0);
    q[i] = 0.5 * t;
    t = 0.5 / t;
    q[3] = (m(k, j) - m(j, k)) * t;
    q[j] = (m(j, i) + m(i, j)) * t;
    q[k] = (m(k, i) + m(i, k)) * t;
  }
  // normalize(): the squared norm summed as Eigen's two-lane packets do, (x^2 + z^2) + (y^2 +
  // w^2), then each component divided by its square root.
  const double norm2 = (q[0] * q[0] + q[2] * q[2]) + (q[1] * q[1] + q[3] * q[3]);
  if (norm2 > 0.0) {
    const double norm = std::sqrt(norm2);
    for (double& c : q) c /= norm;
  }
  if (q[3] < 0.0)
    for (double& c : q) c = -c;
  return Vec4(q[3], q[0], q[1], q[2]);  // scalar first
}

Mat3 rotation_from_quat(const Vec4& q_wxyz) {
  const Eigen::Quaterniond q(q_wxyz(0), q_wxyz(1), q_wxyz(2), q_wxyz(3));
  return q.toRotationMatrix();
}

Mat3 rotation_about(const Vec3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

}  // namespace field::lie
