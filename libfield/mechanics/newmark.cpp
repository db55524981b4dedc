#include "libfield/mechanics/newmark.hpp"

#include <Eigen/LU>
#include <sstream>

#include "libfield/core/error.hpp"

namespace field::mechanics {

NewmarkState newmark_state(const MechanicalSystem& system, const VectorXd& q, const VectorXd& v) {
  return {q, v, system.velocity(-system.potential_gradient(q))};
}

NewmarkState newmark_step(const MechanicalSystem& system, const NewmarkParameters& parameters,
                          double h, const NewmarkState& state, const NewtonOptions& options,
                          long long step_index) {
  FIELD_CHECK(system.constraint_count() == 0,
              "Newmark: systems with constraints are not supported (use SHAKE or RATTLE)");
  const double beta = parameters.beta, gamma = parameters.gamma;
  FIELD_CHECK(beta >= 0 && gamma >= 0, "Newmark: beta and gamma must be >= 0");
  // The predictor: q_k+1 = predicted + beta h^2 a_k+1.
  const VectorXd predicted = state.q + h * state.v + 0.5 * h * h * (1 - 2 * beta) * state.a;
  NewmarkState next;
  next.q = predicted;
  if (beta > 0) {
    // Newton on r(q1) = M (q1 - predicted)/(beta h^2) + V'(q1) = 0.
    const double c = 1.0 / (beta * h * h);
    double update = 0.0;
    for (int iteration = 1;; ++iteration) {
      const VectorXd r =
          c * (system.mass() * (next.q - predicted)) + system.potential_gradient(next.q);
      if (iteration > options.max_iterations || !r.allFinite()) {
        std::ostringstream message;
        message << "mechanics: Newmark (beta = " << beta << "): Newton on q_k+1 did not converge "
                << "at step " << step_index << " (h = " << h << ") after " << options.max_iterations
                << " iterations: last update " << update << ", residual " << r.cwiseAbs().maxCoeff()
                << "; try a smaller time step h";
        throw NewtonFailure(message.str());
      }
      const VectorXd dq =
          (c * system.mass() + system.potential_hessian(next.q)).partialPivLu().solve(-r);
      next.q += dq;
      update = dq.cwiseAbs().maxCoeff();
      if (update <= options.tolerance * (1.0 + next.q.cwiseAbs().maxCoeff())) break;
    }
  }
  next.a = system.velocity(-system.potential_gradient(next.q));
  next.v = state.v + h * ((1 - gamma) * state.a + gamma * next.a);
  return next;
}

VectorXd newmark_modified_position(const MechanicalSystem& system, double beta, double h,
                                   const VectorXd& q) {
  return q + beta * h * h * system.velocity(system.potential_gradient(q));
}

double newmark_modified_potential(const MechanicalSystem& system, double beta, double h,
                                  const VectorXd& q) {
  const VectorXd f = system.potential_gradient(q);
  return system.potential(q) + 0.5 * beta * h * h * f.dot(system.velocity(f));
}

}  // namespace field::mechanics
