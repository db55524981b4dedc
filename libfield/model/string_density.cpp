#include "libfield/model/string_density.hpp"

#include <cmath>

#include "libfield/core/error.hpp"

namespace field::model {

StringDensity::StringDensity(double rho, double k, const Vec3& reference_strain,
                             const Vec3& gravity)
    : rho_(rho), k_(k), e0_(reference_strain), gravity_(gravity) {
  FIELD_CHECK(rho > 0.0 && k > 0.0 && std::isfinite(rho) && std::isfinite(k),
              "string: rho and k must be finite and > 0, got rho = " << rho << ", k = " << k);
}

WaveSpeeds StringDensity::wave_speeds() const {
  const double c = std::sqrt(k_ / rho_);
  return {c, c, 0.0};
}

TheoryEntry<lie::Rn<3>> string_theory() {
  return {"string", "linear string on R^3: rho r_tt = k r_ss + rho g (theory §1.9)",
          [](Parameters& p, const Vec3& gravity) -> std::unique_ptr<const Density<lie::Rn<3>>> {
            const double rho = p.positive("rho", std::nullopt, "mass per length rho [kg/m]");
            const double k = p.positive("k", std::nullopt, "stiffness k [N] (1.9.1)");
            const Vec3 e0 = p.vector("reference_strain", 3, Vec3::UnitZ().eval(),
                                     "strain e0 [-] at which the stress k (r_s - e0) vanishes");
            return std::make_unique<StringDensity>(rho, k, e0, gravity);
          }};
}

}  // namespace field::model
