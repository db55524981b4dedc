#include "libfield/march/newton_diagnosis.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <vector>

namespace field::march {

namespace {

template <class G>
NewtonDiagnosis reference_newton(const dcel::DiscreteModel<G>& model, int column,
                                 dcel::NodeEquation equation, const typename G::Algebra& m,
                                 const typename G::Algebra& start,
                                 const dcel::NodeSolverOptions& options) {
  const double h = equation == dcel::NodeEquation::time ? model.dt() : model.ds();
  if (!m.allFinite() || !start.allFinite()) return {FailureKind::non_finite, 0};
  // The iterations of the march's limit, then, where the steps were still shrinking at its end,
  // up to ten times the limit (at least 100) to see whether Newton gets there.
  const int limit = options.max_iterations, longer = std::max(100, 10 * limit);
  constexpr double kRoundOff = 1e-8;  // a relative step this small is round-off, not divergence
  std::vector<double> steps;          // max|dy| / (1 + max|y|) of each iteration
  typename G::Algebra y = start;
  for (int k = 1; k <= longer; ++k) {
    const typename G::Algebra phi = dcel::node_phi<G>(model.density(column), equation, h, y);
    const typename G::Matrix jac = dcel::node_jacobian<G>(model.density(column), equation, h, y);
    // Non-finite at the start: the node problem itself overflows; later: Newton ran away.
    const FailureKind overflow = k == 1 ? FailureKind::non_finite : FailureKind::diverged;
    if (!phi.allFinite() || !jac.allFinite()) return {overflow, 0};
    const typename G::Algebra dy = jac.partialPivLu().solve(phi - m);
    y -= dy;
    if (!y.allFinite()) return {overflow, 0};
    steps.push_back(dy.cwiseAbs().maxCoeff() / (1.0 + y.cwiseAbs().maxCoeff()));
    if (steps.back() <= options.tolerance)
      return {FailureKind::iteration_limit, k + 1};  // + polish
    if (k == limit) {
      // Still converging: the last three steps (or fewer) each smaller than the one before.
      bool shrinking = true;
      for (int i = std::max(1, k - 3); i < k; ++i) shrinking = shrinking && steps[i] < steps[i - 1];
      if (!shrinking || k == 1) break;
    }
  }
  return {steps.back() <= kRoundOff ? FailureKind::stalled : FailureKind::diverged, 0};
}

}  // namespace

template <class G>
NewtonDiagnosis diagnose_newton(const dcel::DiscreteModel<G>& model, int column,
                                dcel::NodeEquation equation, const typename G::Algebra& m,
                                const typename G::Algebra& start,
                                const dcel::NodeSolverOptions& options, double failed_residual) {
  NewtonDiagnosis d = reference_newton(model, column, equation, m, start, options);
  if (!std::isfinite(failed_residual) && d.kind != FailureKind::diverged)
    d = {FailureKind::non_finite, 0};
  return d;
}

#define FIELD_INSTANTIATE(G)                                                                       \
  template NewtonDiagnosis diagnose_newton(const dcel::DiscreteModel<G>&, int, dcel::NodeEquation, \
                                           const G::Algebra&, const G::Algebra&,                   \
                                           const dcel::NodeSolverOptions&, double);
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::march
