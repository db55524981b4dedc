#pragma once
/// The geometrically exact beam density of theory §1:
///   l = 1/2 xi.J xi - 1/2 (eta - E6).C (eta - E6) - Pi(g),
/// J and C symmetric positive definite (diagonal for the geometric sections), optional gravity
/// potential Pi = -rho A_c (gvec . r).
#include "libfield/model/beam_section.hpp"
#include "libfield/model/density.hpp"
#include "libfield/model/section_law.hpp"

namespace field::model {

class BeamDensity final : public Density {
 public:
  /// Gravity vector gvec [m/s^2] in the world frame (theory §1: (0, 0, -gamma)); zero for none.
  BeamDensity(const BeamSection& section, const BeamMaterial& material,
              const Vec3& gravity = Vec3::Zero(), const Vec6& reference_strain = E6());
  /// Any section law (validated).
  explicit BeamDensity(const SectionLaw& law, const Vec3& gravity = Vec3::Zero(),
                       const Vec6& reference_strain = E6());

  /// Reference strain of the straight unstressed beam along d3, (0, 0, 0, 0, 0, 1).
  static Vec6 E6() { return (Vec6() << 0, 0, 0, 0, 0, 1).finished(); }

  const SectionLaw& law() const { return law_; }
  /// True when J and C are diagonal: only then may the SIMD lane kernels (march/slab_lanes,
  /// noether/slab_terms_lanes, dcel/*_node) use inertia() and stiffness() in place of the law.
  bool diagonal() const { return diagonal_; }
  const Vec6& inertia() const { return J_; }    ///< diagonal of J
  const Vec6& stiffness() const { return C_; }  ///< diagonal of C
  Vec6 reference_strain() const override { return E6_; }
  const Vec3& gravity() const { return gravity_; }

  // The diagonal branch keeps the bits of the diagonal law (a coupled law with zero
  // off-diagonals takes it too).
  double kinetic_energy(const Vec6& xi) const override {
    return 0.5 * xi.dot(kinetic_momentum(xi));
  }
  Vec6 kinetic_momentum(const Vec6& xi) const override {
    return diagonal_ ? Vec6(J_.cwiseProduct(xi)) : Vec6(law_.J * xi);
  }
  Mat6 kinetic_hessian(const Vec6&) const override { return law_.J; }
  double strain_energy(const Vec6& eta) const override {
    const Vec6 e = eta - E6_;
    return 0.5 * e.dot(stress(eta));
  }
  Vec6 stress(const Vec6& eta) const override {
    return diagonal_ ? Vec6(C_.cwiseProduct(eta - E6_)) : Vec6(law_.C * (eta - E6_));
  }
  Mat6 stress_hessian(const Vec6&) const override { return law_.C; }
  double potential(const lie::SE3& g) const override {
    return -mass_per_length_ * gravity_.dot(g.r);
  }
  /// f(g) = (0, rho A_c R^T gvec): the weight in the body frame (theory §1).
  Vec6 potential_force(const lie::SE3& g) const override;

 private:
  SectionLaw law_;
  bool diagonal_;
  Vec3 gravity_;
  Vec6 E6_;
  Vec6 J_;
  Vec6 C_;
  double mass_per_length_;
};

}  // namespace field::model
