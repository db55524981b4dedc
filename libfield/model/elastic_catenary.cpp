// The elastic catenary of theory (1.8.9) and its support forces (H, V) for given supports.
#include "libfield/model/elastic_catenary.hpp"

#include <cmath>

#include <Eigen/Dense>

#include "libfield/core/error.hpp"

namespace field::model {

Vec3 ElasticCatenary::operator()(double s) const {
  const double u = (w * s - V) / H, u0 = V / H;
  return Vec3(
      H * s / EA + H / w * (std::asinh(u) + std::asinh(u0)), 0.0,
      (0.5 * w * s * s - V * s) / EA + H / w * (std::sqrt(1 + u * u) - std::sqrt(1 + u0 * u0)));
}

ElasticCatenary ElasticCatenary::between(double EA, double w, double L, double span, double rise) {
  FIELD_CHECK(EA > 0.0 && w > 0.0 && L > 0.0 && span > 0.0,
              "elastic catenary: EA, w, L and the span must be positive, got EA = "
                  << EA << ", w = " << w << ", L = " << L << ", span = " << span);
  ElasticCatenary c{EA, w, w * L, 0.5 * w * L};
  const Eigen::Vector2d target(span, rise);
  const auto end = [&](const ElasticCatenary& k) {
    const Vec3 r = k(L);
    return Eigen::Vector2d(r(0), r(2));
  };
  for (int iteration = 0; iteration < 100; ++iteration) {
    const Eigen::Vector2d residual = end(c) - target;
    Eigen::Matrix2d jacobian;  // central differences in H and V
    for (int k = 0; k < 2; ++k) {
      ElasticCatenary plus = c, minus = c;
      double& p = k == 0 ? plus.H : plus.V;
      double& m = k == 0 ? minus.H : minus.V;
      const double h = 1e-7 * std::max(1.0, std::abs(k == 0 ? c.H : c.V));
      p += h;
      m -= h;
      jacobian.col(k) = (end(plus) - end(minus)) / (2 * h);
    }
    Eigen::Vector2d step = jacobian.partialPivLu().solve(residual);
    while (c.H - step(0) <= 0.0) step *= 0.5;  // H stays positive
    c.H -= step(0);
    c.V -= step(1);
    FIELD_CHECK(std::isfinite(c.H) && std::isfinite(c.V), "elastic catenary: no solution for span "
                                                              << span << " m, rise " << rise
                                                              << " m and length " << L << " m");
    if (step.cwiseAbs().maxCoeff() < 1e-14 * (1.0 + std::max(c.H, std::abs(c.V)))) return c;
  }
  FIELD_CHECK(false, "elastic catenary: Newton did not converge for span "
                         << span << " m, rise " << rise << " m and length " << L
                         << " m (are the supports further apart than the cable reaches?)");
  return c;
}

}  // namespace field::model
