#include "libfield/dcel/node_solver.hpp"

#include <Eigen/LU>
#include <cmath>

#include "libfield/lie/retraction.hpp"

namespace field::dcel {

namespace {
template <class S>
Vec6 law(const model::Density<S>& d, NodeEquation e, const Vec6& y) {
  return e == NodeEquation::time ? d.kinetic_momentum(y) : d.stress(y);
}
template <class S>
Mat6 law_derivative(const model::Density<S>& d, NodeEquation e, const Vec6& y) {
  return e == NodeEquation::time ? d.kinetic_hessian(y) : d.stress_hessian(y);
}
}  // namespace

template <class G>
Vec6 node_phi(const model::Density<typename G::Space>& density, NodeEquation equation, double h,
              const Vec6& y) {
  return G::dtau_inv_dual(h * y, law(density, equation, y));
}

template <class G>
Mat6 node_jacobian(const model::Density<typename G::Space>& density, NodeEquation equation,
                   double h, const Vec6& y) {
  const Vec6 x = h * y;
  return G::dtau_inv(x).transpose() * law_derivative(density, equation, y) +
         h * G::newton_M(x, law(density, equation, y));
}

template <class G>
NodeSolveReport solve_node(const model::Density<typename G::Space>& density, NodeEquation equation,
                           double h, const Vec6& m, Vec6& y, const NodeSolverOptions& options) {
  NodeSolveReport report;
  bool polishing = false;
  while (report.iterations < options.max_iterations) {
    const Vec6 phi = node_phi<G>(density, equation, h, y);
    const Mat6 jac = node_jacobian<G>(density, equation, h, y);
    const Vec6 dy = jac.partialPivLu().solve(phi - m);
    y -= dy;
    ++report.iterations;
    if (!y.allFinite()) break;
    if (polishing) {
      report.converged = true;
      break;
    }
    polishing = dy.cwiseAbs().maxCoeff() <= options.tolerance * (1.0 + y.cwiseAbs().maxCoeff());
  }
  report.residual =
      y.allFinite() ? (node_phi<G>(density, equation, h, y) - m).cwiseAbs().maxCoeff() : INFINITY;
  return report;
}

#define FIELD_INSTANTIATE(G)                                                                     \
  template Vec6 node_phi<G>(const model::Density<G::Space>&, NodeEquation, double, const Vec6&); \
  template Mat6 node_jacobian<G>(const model::Density<G::Space>&, NodeEquation, double,          \
                                 const Vec6&);                                                   \
  template NodeSolveReport solve_node<G>(const model::Density<G::Space>&, NodeEquation, double,  \
                                         const Vec6&, Vec6&, const NodeSolverOptions&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::dcel
