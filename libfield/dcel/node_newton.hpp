#pragma once
/// The Newton iteration of the node solve of theory §5, written once: for the closed form
/// (dcel::DiagonalNode) and for the reference dcel::solve_node (6x6 LU, freeze_step = 0, no
/// round-off floor); the `Iteration` supplies the arithmetic:
///   Point point(const Vec6& y)           the iterate's x = h y, p = K (y - y0) and what Phi and
///                                        the Jacobian share,
///   Vec6 phi(const Point&)               Phi(y),
///   void factor(Factor&, const Point&)   the factorised Jacobian J_Phi(y),
///   Vec6 step(const Factor&, const Vec6& r)  d with J_Phi d = r,
///   bool at_floor(y, const Point&, m, r) the residual r = Phi - m at the Point is at its round-off
///                                        floor (y: the updated iterate, for the magnitudes).
/// The stopping rule is that of theory §5: max|dy| <= tolerance (1 + max|y|), or the steps no
/// longer shrinking (max|dy| > max|dy_prev| / 2) with the residual at its round-off floor; then
/// one polishing iteration. Once a step is below `freeze_step` (1 + max|y|), the
/// factorisation of that step's start is reused (a chord step): it differs from the exact one by
/// a relative O(freeze_step), so the next step, already of round-off size by quadratic
/// convergence, changes by a relative O(freeze_step): not at all in double precision.
#include <cmath>

#include "libfield/core/types.hpp"
#include "libfield/dcel/node_solver.hpp"

namespace field::dcel {

template <class T>
struct NonDeduced {
  using type = T;
};

/// V: the algebra vector (G::Algebra; Vec6 on SE(3)), deduced from y.
template <class Iteration, class V>
NodeSolveReport newton_solve(const Iteration& it, const typename NonDeduced<V>::type& m, V& y,
                             const NodeSolverOptions& options, double freeze_step) {
  NodeSolveReport report;
  typename Iteration::Factor factor;
  bool polishing = false, frozen = false;
  double previous = INFINITY;  // max|dy| of the previous iteration
  while (report.iterations < options.max_iterations) {
    const typename Iteration::Point z = it.point(y);
    if (!frozen) it.factor(factor, z);
    const V r = it.phi(z) - m;
    const V dy = it.step(factor, r);
    y -= dy;
    ++report.iterations;
    if (!y.allFinite()) break;
    if (polishing) {
      report.converged = true;
      break;
    }
    const double step = dy.cwiseAbs().maxCoeff(), scale = 1.0 + y.cwiseAbs().maxCoeff();
    polishing =
        step <= options.tolerance * scale || (step > 0.5 * previous && it.at_floor(y, z, m, r));
    previous = step;
    frozen = step <= freeze_step * scale;
  }
  report.residual = y.allFinite() ? (it.phi(it.point(y)) - m).cwiseAbs().maxCoeff() : INFINITY;
  return report;
}

}  // namespace field::dcel
