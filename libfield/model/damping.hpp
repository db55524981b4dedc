#pragma once
/// Rayleigh-style damping of the time march, theory §4.7 (discrete Lagrange-d'Alembert):
/// mass-proportional, a body force -alpha J xi per unit length (external: drains momentum), and
/// stiffness-proportional, an extra stress beta (dn/dt) = beta C (d eta/dt) (internal: the total
/// momentum of a free beam is conserved). Case keys [damping] mass, stiffness (meshes/README.md).

namespace field::model {

struct Damping {
  double mass = 0.0;       ///< alpha [1/s]
  double stiffness = 0.0;  ///< beta [s]

  bool any() const { return mass != 0.0 || stiffness != 0.0; }
};

}  // namespace field::model
