#pragma once
/// A covariant Lagrangian density on SE(3)-valued fields (theory §1, §3.1) of the separated form
///   l(g, xi, eta) = T(xi) - V(eta) - Pi(g),
/// left-trivialised. A second field theory implements this interface; everything in dcel/,
/// march/ and noether/ uses only it.
#include "libfield/core/types.hpp"
#include "libfield/lie/se3.hpp"

namespace field::model {

class Density {
 public:
  virtual ~Density() = default;

  /// Kinetic energy density T(xi) [J/m].
  virtual double kinetic_energy(const Vec6& xi) const = 0;
  /// dT/dxi, the body momentum density (angular, linear).
  virtual Vec6 kinetic_momentum(const Vec6& xi) const = 0;
  /// d^2T/dxi^2.
  virtual Mat6 kinetic_hessian(const Vec6& xi) const = 0;

  /// Strain energy density V(eta) [J/m].
  virtual double strain_energy(const Vec6& eta) const = 0;
  /// dV/deta, the body stress resultants (moment, force) = -dl/deta.
  virtual Vec6 stress(const Vec6& eta) const = 0;
  /// d^2V/deta^2.
  virtual Mat6 stress_hessian(const Vec6& eta) const = 0;

  /// The strain at which the stress vanishes (E6 for the beam): the free-end ghost condition
  /// eta_j^{A-1} = reference strain of theory §4.
  virtual Vec6 reference_strain() const = 0;

  /// Potential energy density Pi(g) [J/m].
  virtual double potential(const lie::SE3& g) const = 0;
  /// Left-trivialised potential force f(g) = -T_e L_g^* dPi (body covector per length).
  virtual Vec6 potential_force(const lie::SE3& g) const = 0;

  /// l(g, xi, eta) = T - V - Pi.
  double lagrangian(const lie::SE3& g, const Vec6& xi, const Vec6& eta) const {
    return kinetic_energy(xi) - strain_energy(eta) - potential(g);
  }
};

}  // namespace field::model
