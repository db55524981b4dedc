#pragma once
/// The geometrically exact beam density of theory §1:
///   l = 1/2 xi.J xi - 1/2 (eta - E6).C (eta - E6) - Pi(g),
/// J and C diagonal, optional gravity potential Pi = -rho A_c (gvec . r).
#include "libfield/model/beam_section.hpp"
#include "libfield/model/density.hpp"

namespace field::model {

class BeamDensity final : public Density {
 public:
  /// Gravity vector gvec [m/s^2] in the world frame (theory §1: (0, 0, -gamma)); zero for none.
  BeamDensity(const BeamSection& section, const BeamMaterial& material,
              const Vec3& gravity = Vec3::Zero(), const Vec6& reference_strain = E6());

  /// Reference strain of the straight unstressed beam along d3, (0, 0, 0, 0, 0, 1).
  static Vec6 E6() { return (Vec6() << 0, 0, 0, 0, 0, 1).finished(); }

  const BeamSection& section() const { return section_; }
  const BeamMaterial& material() const { return material_; }
  const Vec6& inertia() const { return J_; }    ///< diagonal of J
  const Vec6& stiffness() const { return C_; }  ///< diagonal of C
  Vec6 reference_strain() const override { return E6_; }
  const Vec3& gravity() const { return gravity_; }

  double kinetic_energy(const Vec6& xi) const override { return 0.5 * xi.dot(J_.cwiseProduct(xi)); }
  Vec6 kinetic_momentum(const Vec6& xi) const override { return J_.cwiseProduct(xi); }
  Mat6 kinetic_hessian(const Vec6&) const override { return J_.asDiagonal(); }
  double strain_energy(const Vec6& eta) const override {
    const Vec6 e = eta - E6_;
    return 0.5 * e.dot(C_.cwiseProduct(e));
  }
  Vec6 stress(const Vec6& eta) const override { return C_.cwiseProduct(eta - E6_); }
  Mat6 stress_hessian(const Vec6&) const override { return C_.asDiagonal(); }
  double potential(const lie::SE3& g) const override {
    return -mass_per_length_ * gravity_.dot(g.r);
  }
  /// f(g) = (0, rho A_c R^T gvec): the weight in the body frame (theory §1).
  Vec6 potential_force(const lie::SE3& g) const override;

 private:
  BeamSection section_;
  BeamMaterial material_;
  Vec3 gravity_;
  Vec6 E6_;
  Vec6 J_;
  Vec6 C_;
  double mass_per_length_;
};

}  // namespace field::model
