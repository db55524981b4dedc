#pragma once
/// One step of the constrained discrete Euler-Lagrange equations in position-momentum form
/// (docs/mechanics.md §3; Wendlandt & Marsden 1997 §4, seed 003). The augmented
/// discrete action S = sum_k [L_d(q_k, q_k+1) - h lambda_k^T g(q_k)] is stationary when
///   D2 L_d(q_k-1, q_k) + D1 L_d(q_k, q_k+1) - h G(q_k)^T lambda_k = 0,   g(q_k+1) = 0.
/// With p_k = D2 L_d(q_k-1, q_k) this is one step (q_k, p_k) -> (q_k+1, p_k+1):
///   SHAKE   p_k + D1 L_d(q_k, q_k+1) - h G(q_k)^T lambda = 0,  g(q_k+1) = 0,
///           p_k+1 = D2 L_d(q_k, q_k+1);
///   RATTLE  p_k + D1 L_d(q_k, q_k+1) - h/2 G(q_k)^T lambda = 0,  g(q_k+1) = 0,
///           p_k+1 = D2 L_d(q_k, q_k+1) - h/2 G(q_k+1)^T mu,  G(q_k+1) M^{-1} p_k+1 = 0
/// (the velocity projection; for the trapezoidal L_d these are the textbook SHAKE and RATTLE, and
/// without constraints velocity Verlet). Both give the same positions; RATTLE's momenta are
/// tangent to the constraint manifold. (q_k+1, lambda) is found by Newton; mu by one linear
/// solve.
#include <stdexcept>
#include <string>

#include "libfield/mechanics/discrete_lagrangian.hpp"

namespace field::mechanics {

enum class ConstraintScheme { shake, rattle };

/// "shake" or "rattle".
const char* scheme_name(ConstraintScheme scheme);

/// Newton on (q_k+1, lambda): converged when the update of q_k+1 is at most
/// `tolerance` (1 + |q_k+1|_inf) in the max norm; at most `max_iterations` updates.
struct NewtonOptions {
  double tolerance = 1e-12;
  int max_iterations = 30;
};

/// Newton did not converge (or met a singular Jacobian or a non-finite value). what() names the
/// step, the iterations and the last residuals, and suggests a smaller h.
class NewtonFailure : public std::runtime_error {
 public:
  explicit NewtonFailure(const std::string& message) : std::runtime_error(message) {}
};

/// A state (q_k, p_k) of the discrete flow.
struct MechanicalState {
  VectorXd q;
  VectorXd p;
};

/// The new state and what the solve found.
struct StepResult {
  MechanicalState state;
  VectorXd lambda;     ///< lambda_k (size m)
  VectorXd mu;         ///< RATTLE's mu (size m; empty for SHAKE)
  int iterations = 0;  ///< Newton updates
};

/// One step of size h from `state` (q must satisfy the constraints). `step_index` only labels
/// the failure message. Throws NewtonFailure.
StepResult constrained_step(const MechanicalSystem& system, Quadrature quadrature,
                            ConstraintScheme scheme, double h, const MechanicalState& state,
                            const NewtonOptions& options = {}, long long step_index = 0);

/// The momentum p - G(q)^T nu whose velocity is tangent, G(q) M^{-1} (p - G^T nu) = 0: the
/// M^{-1}-orthogonal projection of RATTLE (also used to make initial momenta consistent).
VectorXd project_momentum(const MechanicalSystem& system, const VectorXd& q, const VectorXd& p);

}  // namespace field::mechanics
