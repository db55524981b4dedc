#pragma once
/// The world coordinates of a group element as a run folder's text files hold them (field.csv
/// after j, a, t, s; docs/output-format.md): the element's own description of itself, so that the
/// writers and readers of io/ take any group's elements. SE(3): the centre line r = (x, y, z)
/// and the rotation as a unit quaternion (w, x, y, z) with w >= 0 (lie::SE3::quat()); R^3 (the
/// cable, theory §1.8): the point (x, y, z). The planar beam is written embedded in SE(3).
#include <array>
#include <cmath>
#include <sstream>
#include <string>

#include "libfield/core/types.hpp"
#include "libfield/lie/se3.hpp"

namespace field::lie {

template <class E>
struct Coordinates;

template <>
struct Coordinates<SE3> {
  static constexpr int size = 7;
  static constexpr std::array<const char*, size> names = {"x", "y", "z", "qw", "qx", "qy", "qz"};
  static void write(const SE3& g, double* out) {
    const Vec4 q = g.quat();
    const double v[size] = {g.r.x(), g.r.y(), g.r.z(), q(0), q(1), q(2), q(3)};
    for (int k = 0; k < size; ++k) out[k] = v[k];
  }
  /// Why the finite coordinates `v` are not an element (empty when they are): the quaternion's
  /// norm must be 1 to 1e-6.
  static std::string problem(const double* v) {
    const Vec4 q(v[3], v[4], v[5], v[6]);
    if (std::abs(q.norm() - 1.0) <= 1e-6) return "";
    std::ostringstream why;
    why << "the quaternion (" << v[3] << ", " << v[4] << ", " << v[5] << ", " << v[6]
        << ") has norm " << q.norm()
        << ", not 1 (to 1e-6); the rotation columns qw,qx,qy,qz must be a unit quaternion";
    return why.str();
  }
  /// The element of the coordinates (the rotation from the normalised quaternion).
  static SE3 read(const double* v) {
    return SE3::from_quat(Vec4(v[3], v[4], v[5], v[6]).normalized(), Vec3(v[0], v[1], v[2]));
  }
};

template <>
struct Coordinates<Vec3> {
  static constexpr int size = 3;
  static constexpr std::array<const char*, size> names = {"x", "y", "z"};
  static void write(const Vec3& x, double* out) {
    for (int k = 0; k < size; ++k) out[k] = x(k);
  }
  static std::string problem(const double*) { return ""; }
  static Vec3 read(const double* v) { return Vec3(v[0], v[1], v[2]); }
};

}  // namespace field::lie
