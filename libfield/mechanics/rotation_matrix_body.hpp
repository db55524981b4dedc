#pragma once
/// The free rigid body as the seed papers also write it (Wendlandt & Marsden 1997 §4.1, §5.1): the
/// rotation matrix R = [r0 r1 r2] embedded in R^9 as q = (r0, r1, r2) (its columns), with the six
/// orthogonality constraints R^T R = I, integrated by the constrained steps of
/// constrained_step.hpp (docs/mechanics.md §6.2):
///   L = 1/2 tr(Rdot J_d Rdot^T) = 1/2 qdot^T M qdot,  M = J_d (x) I_3 (block (i, j) = J_d,ij I_3),
///   g_ii = (|r_i|^2 - 1)/2,  g_ij = r_i . r_j (i < j),  V = 0.
/// Its trapezoidal L_d restricted to SO(3) is rigid_body.hpp's Moser-Veselov L_d, so (the seed
/// page 003, Theorem 5.4) both give the same rotations.
#include "libfield/core/types.hpp"
#include "libfield/mechanics/mechanical_system.hpp"

namespace field::mechanics {

class RotationMatrixBody : public MechanicalSystem {
 public:
  /// Throws field::Error as matrix_inertia (rigid_body.hpp).
  explicit RotationMatrixBody(const Mat3& inertia);

  Index constraint_count() const override { return 6; }
  VectorXd constraint(const VectorXd& q) const override;
  MatrixXd constraint_jacobian(const VectorXd& q) const override;

  /// q = (r0, r1, r2) of R, and back.
  static VectorXd to_vector(const Mat3& rotation);
  static Mat3 to_matrix(const VectorXd& q);
  /// The tangent momentum M vec(R (J^{-1} Pi)^) of the body momentum Pi at R.
  VectorXd momentum(const Mat3& rotation, const Vec3& body_momentum) const;
  /// The left-trivialised momentum: Pi_i = vec(R e_i^) . p (normal components pair to zero).
  static Vec3 body_momentum(const VectorXd& q, const VectorXd& p);

 private:
  Mat3 inertia_;
};

}  // namespace field::mechanics
