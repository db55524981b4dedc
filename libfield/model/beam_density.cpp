#include "libfield/model/beam_density.hpp"

#include "libfield/core/error.hpp"

namespace field::model {

namespace {
SectionLaw checked_geometric(const BeamSection& section, const BeamMaterial& material) {
  section.validate();
  material.validate();
  return SectionLaw::geometric(section, material);
}
}  // namespace

BeamDensity::BeamDensity(const BeamSection& section, const BeamMaterial& material,
                         const Vec3& gravity, const Vec6& reference_strain)
    : BeamDensity(checked_geometric(section, material), gravity, reference_strain,
                  model::wave_speeds(section, material)) {}

BeamDensity::BeamDensity(const SectionLaw& law, const Vec3& gravity, const Vec6& reference_strain)
    : BeamDensity(law, gravity, reference_strain, model::wave_speeds(law)) {}

BeamDensity::BeamDensity(const SectionLaw& law, const Vec3& gravity, const Vec6& reference_strain,
                         const WaveSpeeds& speeds)
    : law_(law),
      diagonal_(law.diagonal()),
      gravity_(gravity),
      law_diagonal_{law.J.diagonal(), law.C.diagonal(), reference_strain},
      speeds_(speeds),
      mass_per_length_(law.mass_per_length) {
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
