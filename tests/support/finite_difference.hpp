#pragma once
// Central finite differences with one Richardson step: truncation O(eps^4), round-off
// O(1e-16 / eps). With eps = 1e-4 both are ~1e-12 for O(1) derivatives.
#include <functional>

#include "libfield/core/types.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/model/density.hpp"

namespace field::test {

/// d/de f(e) at e = 0 for a vector-valued f.
template <typename F>
auto derivative(F&& f, double eps = 1e-4) {
  const auto d1 = ((f(eps) - f(-eps)) / (2.0 * eps)).eval();
  const auto d2 = ((f(2.0 * eps) - f(-2.0 * eps)) / (4.0 * eps)).eval();
  return ((4.0 * d1 - d2) / 3.0).eval();
}

/// Jacobian of f: R^6 -> R^6 at x, column k = d/de f(x + e e_k).
template <typename F>
Mat6 jacobian6(F&& f, const Vec6& x, double eps = 1e-4) {
  Mat6 m;
  for (int k = 0; k < 6; ++k) {
    m.col(k) = derivative([&](double e) { return Vec6(f(Vec6(x + e * Vec6::Unit(k)))); }, eps);
  }
  return m;
}

/// Gradient of a scalar f: R^6 -> R at x.
template <typename F>
Vec6 gradient6(F&& f, const Vec6& x, double eps = 1e-4) {
  Vec6 g;
  for (int k = 0; k < 6; ++k) {
    const auto fk = [&](double e) {
      Eigen::Matrix<double, 1, 1> v;
      v(0) = f(Vec6(x + e * Vec6::Unit(k)));
      return v;
    };
    g(k) = derivative(fk, eps)(0);
  }
  return g;
}

/// Central differences with step h of the parts of a density on R^3 at (xi, eta, r): dT/dxi,
/// dV/deta, f = -dPi/dr, and the columns of dp/dxi and dn/deta (the cable, the string).
struct DensityDifferences {
  Vec3 dT, dV, f;
  Mat3 dp, dn;
};
inline DensityDifferences density_differences(const model::Density<lie::Rn<3>>& d, const Vec3& xi,
                                              const Vec3& eta, const Vec3& r, double h) {
  DensityDifferences D;
  for (int i = 0; i < 3; ++i) {
    const Vec3 e = h * Vec3::Unit(i);
    D.dT(i) = (d.kinetic_energy(xi + e) - d.kinetic_energy(xi - e)) / (2 * h);
    D.dV(i) = (d.strain_energy(eta + e) - d.strain_energy(eta - e)) / (2 * h);
    D.f(i) = -(d.potential(r + e) - d.potential(r - e)) / (2 * h);
    D.dp.col(i) = (d.kinetic_momentum(xi + e) - d.kinetic_momentum(xi - e)) / (2 * h);
    D.dn.col(i) = (d.stress(eta + e) - d.stress(eta - e)) / (2 * h);
  }
  return D;
}

}  // namespace field::test
