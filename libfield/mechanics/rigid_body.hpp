#pragma once
/// The free rigid body on SO(3) by the discrete Lagrangian of Moser & Veselov, as in Wendlandt &
/// Marsden 1997 §5.1 (docs/mechanics.md §6). With the inertia tensor J (body frame, symmetric
/// positive definite, principal moments obeying the triangle inequality) and the "matrix
/// inertia" J_d = 1/2 tr(J) I - J (so that J = tr(J_d) I - J_d and 1/2 Omega^T J Omega =
/// 1/2 tr(Omega^ J_d Omega^T)), the continuous L(R, Rdot) = 1/2 tr(Rdot J_d Rdot^T) is
/// approximated by the rectangle rule on Rdot ~ (R_k+1 - R_k)/h:
///   L_d(R_k, R_k+1) = 1/(2h) tr((R_k+1 - R_k) J_d (R_k+1 - R_k)^T) = 1/h tr((I - F_k) J_d),
///   F_k = R_k^T R_k+1.
/// Left-trivialised discrete momenta (variations R -> R exp(eps eta^)):
///   Pi_k   = -D1 L_d = 1/h vee(F_k J_d - J_d F_k^T),   Pi_k+1 = D2 L_d = 1/h vee(J_d F_k - F_k^T
///   J_d)
///          = F_k^T Pi_k.
/// A step solves the first for F_k in SO(3) by Newton (updates F <- F cay(delta), Cayley of SO(3)
/// from lie/cayley.hpp), then Pi_k+1 = F_k^T Pi_k and R_k+1 = R_k F_k. The spatial angular
/// momentum pi = R Pi is the momentum map of the left SO(3) action: pi_k+1 = R_k F_k F_k^T Pi_k =
/// pi_k (discrete Noether).
#include "libfield/core/types.hpp"
#include "libfield/mechanics/constrained_step.hpp"  // NewtonOptions, NewtonFailure

namespace field::mechanics {

/// J_d = 1/2 tr(J) I - J. Throws field::Error unless J is symmetric positive definite with J_d
/// positive definite (the triangle inequality of the principal moments, strict).
Mat3 matrix_inertia(const Mat3& inertia);

struct RigidBodyState {
  Mat3 rotation = Mat3::Identity();   ///< R_k, body to space
  Vec3 body_momentum = Vec3::Zero();  ///< Pi_k [kg m^2/s]
};

struct RigidBodyStep {
  RigidBodyState state;
  Mat3 relative = Mat3::Identity();  ///< F_k = R_k^T R_k+1
  int iterations = 0;
};

class RigidBody {
 public:
  /// Throws field::Error (see matrix_inertia).
  explicit RigidBody(const Mat3& inertia);
  const Mat3& inertia() const { return inertia_; }
  const Mat3& matrix_inertia() const { return matrix_inertia_; }

  /// One step of size h. Throws NewtonFailure (h |Pi| too large for the inertia).
  RigidBodyStep step(double h, const RigidBodyState& state, const NewtonOptions& options = {},
                     long long step_index = 0) const;

  /// L_d(R0, R1).
  double discrete_lagrangian(double h, const Mat3& r0, const Mat3& r1) const;
  /// 1/h vee(F J_d - J_d F^T), the body momentum -D1 L_d at R0 for F = R0^T R1.
  Vec3 momentum_before(double h, const Mat3& relative) const;
  /// 1/h vee(J_d F - F^T J_d), the body momentum D2 L_d at R1.
  Vec3 momentum_after(double h, const Mat3& relative) const;

  /// 1/2 Pi^T J^{-1} Pi.
  double energy(const Vec3& body_momentum) const;
  /// pi = R Pi, the spatial angular momentum.
  static Vec3 spatial_momentum(const RigidBodyState& state) {
    return state.rotation * state.body_momentum;
  }

 private:
  Mat3 inertia_, matrix_inertia_;
};

}  // namespace field::mechanics
