#include "libfield/model/beam_density.hpp"

#include "libfield/core/error.hpp"

namespace field::model {

BeamDensity::BeamDensity(const BeamSection& section, const BeamMaterial& material,
                         const Vec3& gravity, const Vec6& reference_strain)
    : section_(section),
      material_(material),
      gravity_(gravity),
      E6_(reference_strain),
      J_(inertia_diagonal(section, material)),
      C_(stiffness_diagonal(section, material)),
      mass_per_length_(material.rho * section.area) {
  section_.validate();
  material_.validate();
  FIELD_CHECK(gravity.allFinite(), "gravity must be finite, got " << gravity.transpose());
  FIELD_CHECK(reference_strain.allFinite(),
              "reference strain must be finite, got " << reference_strain.transpose());
}

Vec6 BeamDensity::potential_force(const lie::SE3& g) const {
  Vec6 f;
  f << Vec3::Zero(), mass_per_length_ * (g.R.transpose() * gravity_);
  return f;
}

}  // namespace field::model
