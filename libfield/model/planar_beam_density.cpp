// The planar beam density on SE(2), theory §1.7 (1.7.2): T = ½ ξ·𝕁ξ,
// V = ½ (η − η0)·ℂ(η − η0), Π = −ρA g·r.
#include "libfield/model/planar_beam_density.hpp"

#include <cmath>

#include "libfield/core/error.hpp"

namespace field::model {

PlanarBeamDensity::PlanarBeamDensity(const PlanarSection& section, const lie::Vec2& gravity,
                                     double curvature)
    : section_(section),
      gravity_(gravity),
      law_{Vec3(section.rhoI, section.rhoA, section.rhoA), Vec3(section.EI, section.EA, section.GA),
           Vec3(curvature, 1.0, 0.0)} {
  for (const double v : {section.EA, section.GA, section.EI, section.rhoA, section.rhoI})
    FIELD_CHECK(std::isfinite(v) && v > 0.0,
                "planar section: EA, GA, EI, rho A, rho I must be positive and finite, got "
                    << law_.stiffness.transpose() << " " << section.rhoA << " " << section.rhoI);
  FIELD_CHECK(gravity.allFinite(), "gravity must be finite, got " << gravity.transpose());
  FIELD_CHECK(std::isfinite(curvature), "reference curvature must be finite, got " << curvature);
}

Vec3 PlanarBeamDensity::potential_force(const lie::SE2& g) const {
  Vec3 f;
  f << 0.0, section_.rhoA * (g.R.transpose() * gravity_);
  return f;
}

WaveSpeeds PlanarBeamDensity::wave_speeds() const {
  const Vec3 c2 = law_.stiffness.cwiseQuotient(law_.inertia);  // EI/rhoI, EA/rhoA, GA/rhoA
  return WaveSpeeds{std::sqrt(c2.maxCoeff()), std::sqrt(c2.minCoeff()),
                    std::sqrt(section_.GA / section_.rhoI)};
}

}  // namespace field::model
