#pragma once
// Deterministic random elements and finite-difference helpers shared by the tests.
#include <random>

#include "libfield/core/types.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/lie/so3.hpp"

namespace field::test {

/// Seeded generator: every test run sees the same "random" elements.
class Random {
 public:
  explicit Random(unsigned seed = 12345) : engine_(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<>(lo, hi)(engine_); }
  // The draws are sequenced: the order in which function arguments are evaluated is unspecified
  // (GCC goes right to left, clang left to right), and an expression like Vec3(u(), u(), u())
  // gave each compiler different test inputs. The order is GCC's, so its inputs are unchanged.
  Vec3 vec3(double scale = 1.0) {
    const double z = u(), y = u(), x = u();
    return scale * Vec3(x, y, z);
  }
  Vec6 vec6(double scale = 1.0) {
    Vec6 x;
    x << vec3(scale), vec3(scale);
    return x;
  }
  /// Unit vector, uniform on the sphere.
  Vec3 unit3() {
    Vec3 n;
    do n = vec3();
    while (n.norm() < 1e-3 || n.norm() > 1.0);
    return n.normalized();
  }
  /// se(3) vector with rotation angle |omega| = angle and translation of size `scale`.
  Vec6 vec6_with_angle(double angle, double scale = 1.0) {
    Vec6 x;
    x << angle * unit3(), vec3(scale);
    return x;
  }
  /// Random SE(3) element: uniform-ish rotation, translation in [-scale, scale]^3.
  lie::SE3 se3(double scale = 1.0) {
    lie::SE3 g;
    const double angle = uniform(0.0, 3.1);  // before the axis (see vec3)
    g.R = lie::rotation_about(unit3(), angle);
    g.r = vec3(scale);
    return g;
  }

 private:
  double u() { return uniform(-1.0, 1.0); }
  std::mt19937_64 engine_;
};

/// Relative error |a - b| / max(1, |b|) in the max-norm.
template <typename A, typename B>
double rel_err(const A& a, const B& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

/// Angles that every Lie-group property is checked over: near identity to large.
inline const double kAngles[] = {0.0, 1e-8, 1e-5, 1e-3, 0.1, 0.49, 0.51, 1.0, 2.0, 2.8};

}  // namespace field::test
