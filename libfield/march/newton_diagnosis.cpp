#include "libfield/march/newton_diagnosis.hpp"

#include <Eigen/LU>
#include <algorithm>

namespace field::march {

NewtonDiagnosis diagnose_newton(const dcel::DiscreteModel& model, dcel::NodeEquation equation,
                                const Vec6& m, const Vec6& start,
                                const dcel::NodeSolverOptions& options) {
  const double h = equation == dcel::NodeEquation::time ? model.dt() : model.ds();
  if (!m.allFinite() || !start.allFinite()) return {FailureKind::non_finite, 0};
  // Ten times the limit (at least 100): a solve that was still converging gets there.
  const int limit = std::max(100, 10 * options.max_iterations);
  constexpr double kRoundOff = 1e-8;  // a relative step this small is round-off, not divergence
  Vec6 y = start;
  double last = INFINITY;
  for (int k = 1; k <= limit; ++k) {
    const Vec6 phi = dcel::node_phi(model.density(), model.tau(), equation, h, y);
    const Mat6 jac = dcel::node_jacobian(model.density(), model.tau(), equation, h, y);
    // Non-finite at the start: the node problem itself overflows; later: Newton ran away.
    const FailureKind overflow = k == 1 ? FailureKind::non_finite : FailureKind::diverged;
    if (!phi.allFinite() || !jac.allFinite()) return {overflow, 0};
    const Vec6 dy = jac.partialPivLu().solve(phi - m);
    y -= dy;
    if (!y.allFinite()) return {overflow, 0};
    last = dy.cwiseAbs().maxCoeff() / (1.0 + y.cwiseAbs().maxCoeff());
    if (last <= options.tolerance) return {FailureKind::iteration_limit, k + 1};  // + polishing
  }
  return {last <= kRoundOff ? FailureKind::stalled : FailureKind::diverged, 0};
}

}  // namespace field::march
