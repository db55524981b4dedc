#pragma once
/// The planar beam density on SE(2) (docs/theory.md §1.7, the planar beam):
///   l = 1/2 (rho I w_t^2 + rho A |v_t|^2)
///       - 1/2 (EI (kappa - kappa0)^2 + EA (nu1 - 1)^2 + GA nu2^2) - Pi(g),
/// with xi = (w_t, v_t) and eta = (kappa, nu1, nu2) in the algebra order (omega, v1, v2) of
/// lie/se2.hpp; the body axis is d1 (reference strain (kappa0, 1, 0)) and the optional gravity
/// potential is Pi = -rho A (gvec . r) for gvec in the plane. A model::Density on lie::Se2Cayley.
/// It is the SE(3) beam (model::BeamDensity) restricted to motions in a plane (the test
/// tests/model/test_planar_beam_density.cpp checks the map between the two).
#include "libfield/lie/se2.hpp"
#include "libfield/model/density.hpp"

namespace field::model {

/// The planar section law: the three stiffnesses and the two inertias.
struct PlanarSection {
  double EA = 0.0;    ///< axial stiffness [N]
  double GA = 0.0;    ///< shear stiffness kappa G A [N]
  double EI = 0.0;    ///< bending stiffness [N m^2]
  double rhoA = 0.0;  ///< mass per length [kg/m]
  double rhoI = 0.0;  ///< rotary inertia per length [kg m]
};

class PlanarBeamDensity final : public Density<lie::Se2Cayley> {
 public:
  /// gravity: gvec [m/s^2] in the plane; curvature: kappa0 of the stress-free shape [1/m].
  /// Throws field::Error for a non-positive or non-finite section value.
  explicit PlanarBeamDensity(const PlanarSection& section,
                             const lie::Vec2& gravity = lie::Vec2::Zero(), double curvature = 0.0);

  const PlanarSection& section() const { return section_; }
  const lie::Vec2& gravity() const { return gravity_; }

  double kinetic_energy(const Vec3& xi) const override {
    return 0.5 * xi.dot(kinetic_momentum(xi));
  }
  Vec3 kinetic_momentum(const Vec3& xi) const override { return law_.inertia.cwiseProduct(xi); }
  Mat3 kinetic_hessian(const Vec3&) const override { return law_.inertia.asDiagonal(); }
  double strain_energy(const Vec3& eta) const override {
    return 0.5 * (eta - law_.reference_strain).dot(stress(eta));
  }
  Vec3 stress(const Vec3& eta) const override {
    return law_.stiffness.cwiseProduct(eta - law_.reference_strain);
  }
  Mat3 stress_hessian(const Vec3&) const override { return law_.stiffness.asDiagonal(); }
  Vec3 reference_strain() const override { return law_.reference_strain; }
  double potential(const lie::SE2& g) const override { return -section_.rhoA * gravity_.dot(g.r); }
  /// f(g) = (0, rho A R^T gvec): the weight in the body frame.
  Vec3 potential_force(const lie::SE2& g) const override;
  bool has_potential() const override { return !gravity_.isZero(0.0); }
  /// c_E and c_G the largest and smallest of sqrt(EI / rho I), sqrt(EA / rho A), sqrt(GA / rho A)
  /// and omega_c = sqrt(GA / rho I): theory (1.13a) restricted to the plane.
  WaveSpeeds wave_speeds() const override;
  const DiagonalQuadraticLaw<lie::Se2Cayley>* diagonal_law() const override { return &law_; }

 private:
  PlanarSection section_;
  lie::Vec2 gravity_;
  DiagonalQuadraticLaw<lie::Se2Cayley> law_;  // (rhoI, rhoA, rhoA), (EI, EA, GA), (kappa0, 1, 0)
};

}  // namespace field::model
