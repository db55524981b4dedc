#include "libfield/mechanics/constrained_step.hpp"

#include <Eigen/LU>
#include <cmath>
#include <sstream>

namespace field::mechanics {

const char* scheme_name(ConstraintScheme scheme) {
  return scheme == ConstraintScheme::shake ? "shake" : "rattle";
}

VectorXd project_momentum(const MechanicalSystem& system, const VectorXd& q, const VectorXd& p) {
  if (system.constraint_count() == 0) return p;
  const MatrixXd g = system.constraint_jacobian(q);
  MatrixXd minv_gt(g.cols(), g.rows());
  for (Index j = 0; j < g.rows(); ++j) minv_gt.col(j) = system.velocity(g.row(j).transpose());
  const VectorXd nu = (g * minv_gt).partialPivLu().solve(g * system.velocity(p));
  return p - g.transpose() * nu;
}

StepResult constrained_step(const MechanicalSystem& system, Quadrature quadrature,
                            ConstraintScheme scheme, double h, const MechanicalState& state,
                            const NewtonOptions& options, long long step_index) {
  const Index n = system.dimension(), m = system.constraint_count();
  const VectorXd& q0 = state.q;
  const double weight = scheme == ConstraintScheme::shake ? h : 0.5 * h;  // of G^T lambda
  const MatrixXd g0t = system.constraint_jacobian(q0).transpose();

  // Unknowns x = (q1, lambda); first guess the free flight q0 + h M^{-1} p0, lambda = 0.
  VectorXd q1 = q0 + h * system.velocity(state.p);
  VectorXd lambda = VectorXd::Zero(m);
  VectorXd residual(n + m);
  MatrixXd jacobian = MatrixXd::Zero(n + m, n + m);
  double update_norm = 0.0;
  for (int iteration = 1;; ++iteration) {
    residual.head(n) =
        state.p + d1_discrete_lagrangian(system, quadrature, h, q0, q1) - weight * (g0t * lambda);
    residual.tail(m) = system.constraint(q1);
    if (iteration > options.max_iterations || !residual.allFinite()) {
      std::ostringstream message;
      message << "mechanics: Newton on (q_k+1, lambda_k) did not converge at step " << step_index
              << " (h = " << h << ", " << scheme_name(scheme) << ", " << quadrature_name(quadrature)
              << ") after " << options.max_iterations << " iterations: last update " << update_norm
              << ", momentum residual " << residual.head(n).cwiseAbs().maxCoeff()
              << ", constraint residual " << (m ? residual.tail(m).cwiseAbs().maxCoeff() : 0.0)
              << "; try a smaller time step h";
      throw NewtonFailure(message.str());
    }
    jacobian.topLeftCorner(n, n) = d1_discrete_lagrangian_d_q1(system, quadrature, h, q0, q1);
    jacobian.topRightCorner(n, m) = -weight * g0t;
    jacobian.bottomLeftCorner(m, n) = system.constraint_jacobian(q1);
    const Eigen::FullPivLU<MatrixXd> lu(jacobian);
    if (!lu.isInvertible()) {
      std::ostringstream message;
      message << "mechanics: singular Newton matrix at step " << step_index << " (h = " << h
              << "): the constraint Jacobians G(q_k) and G(q_k+1) are rank deficient or "
                 "q_k+1 left the neighbourhood of q_k; try a smaller time step h";
      throw NewtonFailure(message.str());
    }
    const VectorXd dx = lu.solve(-residual);
    q1 += dx.head(n);
    lambda += dx.tail(m);
    update_norm = dx.head(n).cwiseAbs().maxCoeff();
    if (update_norm <= options.tolerance * (1.0 + q1.cwiseAbs().maxCoeff()) && dx.allFinite()) {
      StepResult result;
      result.iterations = iteration;
      result.lambda = lambda;
      result.state.q = q1;
      result.state.p = d2_discrete_lagrangian(system, quadrature, h, q0, q1);
      if (scheme == ConstraintScheme::rattle && m > 0) {
        // p1 = D2 L_d - h/2 G(q1)^T mu with G(q1) M^{-1} p1 = 0: the projection.
        const VectorXd projected = project_momentum(system, q1, result.state.p);
        const MatrixXd g1 = system.constraint_jacobian(q1);
        result.mu = (g1 * g1.transpose()).partialPivLu().solve(g1 * (result.state.p - projected)) /
                    (0.5 * h);
        result.state.p = projected;
      }
      return result;
    }
  }
}

}  // namespace field::mechanics
