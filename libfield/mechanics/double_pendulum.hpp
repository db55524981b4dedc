#pragma once
/// The double spherical pendulum of Wendlandt & Marsden 1997 §5.2 (docs/mechanics.md §5): point
/// masses m1 at q1 and m2 at q2 in R^3 (q = (q1, q2), n = 6), the first hung from the origin by
/// a massless rod of length l1, the second from the first by one of length l2, gravity -g e_z:
///   M = diag(m1 I, m2 I),  V = g (m1 z1 + m2 z2),
///   g1(q) = (|q1|^2 - l1^2) / (2 l1),  g2(q) = (|q2 - q1|^2 - l2^2) / (2 l2)
/// (scaled to lengths: g_i ~ |link| - l_i near the constraint). Rotations about e_z are a
/// symmetry: J = e_z . (q1 x p1 + q2 x p2) is conserved (momentum_map.hpp).
#include "libfield/core/types.hpp"
#include "libfield/mechanics/mechanical_system.hpp"

namespace field::mechanics {

struct DoublePendulumParameters {
  double m1 = 1.0, m2 = 1.0;  ///< masses [kg]
  double l1 = 1.0, l2 = 1.0;  ///< rod lengths [m]
  double gravity = 9.81;      ///< [m/s^2], along -e_z
};

class DoublePendulum : public MechanicalSystem {
 public:
  /// Throws field::Error for a non-positive mass or length or a negative gravity.
  explicit DoublePendulum(const DoublePendulumParameters& parameters);
  const DoublePendulumParameters& parameters() const { return parameters_; }

  double potential(const VectorXd& q) const override;
  VectorXd potential_gradient(const VectorXd& q) const override;
  // V is linear: the Hessian is the default zero.
  Index constraint_count() const override { return 2; }
  VectorXd constraint(const VectorXd& q) const override;
  MatrixXd constraint_jacobian(const VectorXd& q) const override;

  /// | |q1| - l1 | and | |q2 - q1| - l2 |, the larger: the rod length error [m].
  double length_error(const VectorXd& q) const;

 private:
  DoublePendulumParameters parameters_;
};

/// A position on the constraint manifold: the rods at polar angles theta1, theta2 from the
/// downward vertical and azimuths phi1, phi2 about e_z.
VectorXd double_pendulum_position(const DoublePendulumParameters& parameters, double theta1,
                                  double phi1, double theta2, double phi2);

}  // namespace field::mechanics
