#pragma once
/// The world coordinates of a group element as a run folder's files hold them: the element's own
/// description of itself, so that the writers and readers of io/ take any group's elements.
///  - field.csv after j, a, t, s (docs/output-format.md): SE(3): the centre line r = (x, y, z)
///    and the rotation as a unit quaternion (w, x, y, z) with w >= 0 (lie::SE3::quat()); R^3 (the
///    cable, theory §1.8): the point (x, y, z);
///  - the frames (io/frames.hpp): the point in space (r, x), and the point data after s from the
///    element g and its body velocity xi = tau^{-1}(g_j^{-1} g_{j+1}) / dt (theory §3.1): SE(3):
///    q_wxyz, the directors d1, d2, d3 (the columns of R), velocity = R gamma and
///    angular_velocity = R omega; R^3: velocity = xi.
/// The planar beam is written embedded in SE(3).
#include <array>
#include <cmath>
#include <sstream>
#include <string>

#include "libfield/core/output_quantity.hpp"
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

  static const Vec3& position(const SE3& g) { return g.r; }
  /// The element at `position` with the identity rotation.
  static SE3 at(const Vec3& position) {
    SE3 g;
    g.r = position;
    return g;
  }
  static constexpr std::array<OutputQuantity, 6> point_quantities = {
      {{"q_wxyz", 4}, {"d1", 3}, {"d2", 3}, {"d3", 3}, {"velocity", 3}, {"angular_velocity", 3}}};
  /// The point data of g with body velocity xi, in the order of point_quantities.
  static void point_values(const SE3& g, const Vec6& xi, double* out) {
    const Vec4 q = g.quat();
    for (int c = 0; c < 4; ++c) out[c] = q(c);
    for (int d = 0; d < 3; ++d)
      for (int c = 0; c < 3; ++c) out[4 + 3 * d + c] = g.R(c, d);
    const Vec3 velocity = g.R * xi.tail<3>(), angular = g.R * xi.head<3>();
    for (int c = 0; c < 3; ++c) out[13 + c] = velocity(c);
    for (int c = 0; c < 3; ++c) out[16 + c] = angular(c);
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

  static const Vec3& position(const Vec3& x) { return x; }
  static Vec3 at(const Vec3& position) { return position; }
  static constexpr std::array<OutputQuantity, 1> point_quantities = {{{"velocity", 3}}};
  static void point_values(const Vec3&, const Vec3& xi, double* out) {
    for (int c = 0; c < 3; ++c) out[c] = xi(c);
  }
};

}  // namespace field::lie
