#pragma once
/// The Newmark family (beta, gamma) for L = 1/2 qdot^T M qdot - V(q) without constraints, and
/// its variational members (docs/mechanics.md §9; Marsden & West 2001 §1.1, seed 004):
///   q_k+1 = q_k + h v_k + h^2/2 [(1 - 2 beta) a_k + 2 beta a_k+1]
///   v_k+1 = v_k + h [(1 - gamma) a_k + gamma a_k+1],        M a_k = -V'(q_k).
/// For gamma = 1/2 the positions obey M (q_k+1 - 2 q_k + q_k-1)/h^2 =
/// -[beta V'(q_k+1) + (1 - 2 beta) V'(q_k) + beta V'(q_k-1)], and in the variable
///   y = q + beta h^2 M^{-1} V'(q)                      (newmark_modified_position)
/// this is the trapezoidal DEL (Verlet) for the potential W(y) = V(q) + beta h^2/2 V'^T M^{-1} V'
/// (grad_y W = V'(q)); its discrete momentum -D1 L_d(y_k, y_k+1) is exactly M v_k. So every
/// gamma = 1/2 member is variational, symplectic in (y, M v) and keeps the momentum maps
/// p . xi(y) of the symmetries of V (with M), not p . xi(q); gamma != 1/2 is not (it damps).
/// beta = 0, gamma = 1/2 is velocity Verlet.
#include "libfield/mechanics/constrained_step.hpp"  // NewtonOptions, NewtonFailure

namespace field::mechanics {

struct NewmarkParameters {
  double beta = 0.25;
  double gamma = 0.5;
};

/// gamma = 1/2: the members that are the DEL of a discrete Lagrangian (see above).
inline bool is_variational(const NewmarkParameters& p) {
  return p.gamma == 0.5;
}

struct NewmarkState {
  VectorXd q, v, a;  ///< position, velocity, acceleration M^{-1}(-V'(q))
};

/// The state at (q, v) with its acceleration.
NewmarkState newmark_state(const MechanicalSystem& system, const VectorXd& q, const VectorXd& v);

/// One Newmark step of size h (Newton on q_k+1 when beta > 0, with V''). Throws field::Error
/// for a system with constraints or beta < 0, NewtonFailure when Newton does not converge.
NewmarkState newmark_step(const MechanicalSystem& system, const NewmarkParameters& parameters,
                          double h, const NewmarkState& state, const NewtonOptions& options = {},
                          long long step_index = 0);

/// y = q + beta h^2 M^{-1} V'(q), the variable in which gamma = 1/2 is Verlet.
VectorXd newmark_modified_position(const MechanicalSystem& system, double beta, double h,
                                   const VectorXd& q);
/// W = V(q) + beta h^2/2 V'(q)^T M^{-1} V'(q), the potential of y (as a function of q).
double newmark_modified_potential(const MechanicalSystem& system, double beta, double h,
                                  const VectorXd& q);

}  // namespace field::mechanics
