#pragma once
/// The per-node nonlinear problem of theory §5:
///   Phi(y) := (dtau^{-1}_{h y})^T p(y) = m,
/// time march: y = xi, h = dt, p = dT/dxi (= J xi); space march: y = eta, h = ds, p = dV/deta
/// (= C (eta - E6)) and m = -(target lambda). Newton with the analytic Jacobian
///   J_Phi = (dtau^{-1}_{hy})^T dp/dy + h M(hy, p(y)).
/// Non-convergence is an expected outcome, reported, never thrown. G: the group and its retraction
/// tau (lie::Se3Cayley or lie::Se3Exp, theory §2; lie::Se2Cayley for the planar beam, §1.7):
/// vectors and matrices are G's (Vec6 and Mat6 on SE(3)).
#include "libfield/core/types.hpp"
#include "libfield/model/density.hpp"

namespace field::dcel {

enum class NodeEquation {
  time,   ///< unknown xi, p = kinetic momentum
  space,  ///< unknown eta, p = stress
};

struct NodeSolverOptions {
  double tolerance = 1e-14;  ///< stop when max|dy| <= tolerance (1 + max|y|), theory §5
  int max_iterations = 30;   ///< give up after this many updates
};

struct NodeSolveReport {
  bool converged = false;
  int iterations = 0;     ///< Newton updates, including the final polishing one
  double residual = 0.0;  ///< max|Phi(y) - m| at the returned y
};

/// Phi(y) for the given equation.
template <class G>
typename G::Algebra node_phi(const model::Density<typename G::Space>& density,
                             NodeEquation equation, double h, const typename G::Algebra& y);

/// The Newton Jacobian dPhi/dy = (dtau^{-1}_{hy})^T dp/dy + h M(hy, p(y)) (analytic).
template <class G>
typename G::Matrix node_jacobian(const model::Density<typename G::Space>& density,
                                 NodeEquation equation, double h, const typename G::Algebra& y);

/// Solves Phi(y) = m in place, starting from y (e.g. the node's previous value). After the step
/// criterion is met, one more iteration polishes the result (theory §5).
template <class G>
NodeSolveReport solve_node(const model::Density<typename G::Space>& density, NodeEquation equation,
                           double h, const typename G::Algebra& m, typename G::Algebra& y,
                           const NodeSolverOptions& options = {});

}  // namespace field::dcel
