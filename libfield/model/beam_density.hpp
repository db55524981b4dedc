#pragma once
/// The geometrically exact beam density of theory §1:
///   l = 1/2 xi.J xi - 1/2 (eta - E6).C (eta - E6) - Pi(g),
/// J and C symmetric positive definite (diagonal for the geometric sections), optional gravity
/// potential Pi = -rho A_c (gvec . r). A model::Density on SE(3) (lie::Se3Group).
#include "libfield/lie/se3_groups.hpp"
#include "libfield/model/beam_section.hpp"
#include "libfield/model/density.hpp"
#include "libfield/model/section_law.hpp"

namespace field::model {

class BeamDensity final : public Density<lie::Se3Group> {
 public:
  /// Gravity vector gvec [m/s^2] in the world frame (theory §1: (0, 0, -gamma)); zero for none.
  BeamDensity(const BeamSection& section, const BeamMaterial& material,
              const Vec3& gravity = Vec3::Zero(), const Vec6& reference_strain = E6());
  /// Any section law (validated); wave speeds of theory (1.13a).
  explicit BeamDensity(const SectionLaw& law, const Vec3& gravity = Vec3::Zero(),
                       const Vec6& reference_strain = E6());
  /// The same with the wave speeds given (a case's: (1.11)-(1.13) for a geometric section).
  BeamDensity(const SectionLaw& law, const Vec3& gravity, const Vec6& reference_strain,
              const WaveSpeeds& speeds);

  /// Reference strain of the straight unstressed beam along d3, (0, 0, 0, 0, 0, 1).
  static Vec6 E6() { return (Vec6() << 0, 0, 0, 0, 0, 1).finished(); }

  const SectionLaw& law() const { return law_; }
  /// True when J and C are diagonal: only then is diagonal_law() set.
  bool diagonal() const { return diagonal_; }
  const Vec6& inertia() const { return law_diagonal_.inertia; }      ///< diagonal of J
  const Vec6& stiffness() const { return law_diagonal_.stiffness; }  ///< diagonal of C
  Vec6 reference_strain() const override { return law_diagonal_.reference_strain; }
  const Vec3& gravity() const { return gravity_; }
  WaveSpeeds wave_speeds() const override { return speeds_; }
  /// The diagonal law (J, C, E6) when diagonal(); the capability of the lane and closed-form
  /// kernels.
  const DiagonalQuadraticLaw<lie::Se3Group>* diagonal_law() const override {
    return diagonal_ ? &law_diagonal_ : nullptr;
  }
  /// The frames show the strain (Omega, Gamma) and the stress resultants (moment, force) of a
  /// segment, three components each (docs/output-format.md, section 2): the default values.
  const char* output_name() const override { return "beam"; }
  std::vector<OutputQuantity> segment_quantities() const override {
    return {{"strain_Omega", 3}, {"strain_Gamma", 3}, {"moment", 3}, {"force", 3}};
  }

  // The diagonal branch keeps the bits of the diagonal law (a coupled law with zero
  // off-diagonals takes it too).
  double kinetic_energy(const Vec6& xi) const override {
    return 0.5 * xi.dot(kinetic_momentum(xi));
  }
  Vec6 kinetic_momentum(const Vec6& xi) const override {
    return diagonal_ ? Vec6(inertia().cwiseProduct(xi)) : Vec6(law_.J * xi);
  }
  Mat6 kinetic_hessian(const Vec6&) const override { return law_.J; }
  double strain_energy(const Vec6& eta) const override {
    const Vec6 e = eta - reference_strain();
    return 0.5 * e.dot(stress(eta));
  }
  Vec6 stress(const Vec6& eta) const override {
    const Vec6& E6 = law_diagonal_.reference_strain;
    return diagonal_ ? Vec6(stiffness().cwiseProduct(eta - E6)) : Vec6(law_.C * (eta - E6));
  }
  Mat6 stress_hessian(const Vec6&) const override { return law_.C; }
  double potential(const lie::SE3& g) const override {
    return -mass_per_length_ * gravity_.dot(g.r);
  }
  /// f(g) = (0, rho A_c R^T gvec): the weight in the body frame (theory §1).
  Vec6 potential_force(const lie::SE3& g) const override;
  bool has_potential() const override { return !gravity_.isZero(0.0); }

 private:
  SectionLaw law_;
  bool diagonal_;
  Vec3 gravity_;
  DiagonalQuadraticLaw<lie::Se3Group> law_diagonal_;  // diagonals of J, C and E6
  WaveSpeeds speeds_;
  double mass_per_length_;
};

}  // namespace field::model
