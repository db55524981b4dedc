#pragma once
/// dcel::newton_solve (dcel/node_newton.hpp) on four nodes at once (core/lanes.hpp), for
/// dcel::DiagonalNodeLanes: the same Newton iteration, stopping rule (max|dy| <= tolerance
/// (1 + max|y|), or the steps no longer shrinking with the residual at its round-off floor; then
/// one polishing iteration) and
/// Jacobian freeze,
/// decided lane by lane: a lane stops when its own rule says so and is left untouched
/// afterwards. The `Iteration` supplies, on lanes: Point point(const V6& y), V6 phi(const
/// Point&), void factor(Factor&, const Point&), V6 step(const Factor&, const V6& r),
/// Mask at_floor(y, const Point&, m, r) and Factor select(Mask, const Factor& a, const Factor& b)
/// (a where the mask is set).
#include <cmath>

#include "libfield/dcel/node_solver.hpp"
#include "libfield/lie/cayley_lanes.hpp"

namespace field::dcel {

/// Outcome per lane: Newton updates made, converged or not, max|Phi(y) - m| at the end.
struct LanesReport {
  lanes::Lane iterations = lanes::splat(0.0);
  lanes::Mask converged = lanes::splat_mask(false);
  lanes::Lane residual = lanes::splat(0.0);
};

/// Solves Phi(y) = m on the lanes set in `active`, in place from the start y; the other lanes
/// of y and `report` are not changed.
template <class Iteration>
FIELD_LANES_INLINE void newton_solve_lanes(const Iteration& it, const lanes::V6& m, lanes::V6& y,
                                           lanes::Mask active, const NodeSolverOptions& options,
                                           double freeze_step, LanesReport& report) {
  using namespace lanes;
  using Factor = typename Iteration::Factor;
  const Lane one = splat(1.0);
  Factor factor;
  Mask polishing = splat_mask(false), frozen = splat_mask(false);
  Mask converged = splat_mask(false);
  Lane iterations = splat(0.0), previous = splat(INFINITY);
  for (int i = 0; i < options.max_iterations && any(active); ++i) {
    const typename Iteration::Point z = it.point(y);
    const Mask refresh = active & ~frozen;
    if (i == 0 || all(refresh)) {  // every lane takes the new factorisation: no selection
      it.factor(factor, z);
    } else if (any(refresh)) {
      Factor fresh;
      it.factor(fresh, z);
      factor = it.select(refresh, fresh, factor);
    }
    const V6 r = it.phi(z) - m;
    const V6 dy = it.step(factor, r);
    y = select(active, y - dy, y);
    iterations = iterations + select(active, one, splat(0.0));
    const Mask ok = finite(y);
    converged |= active & ok & polishing;
    const Mask done = ~ok | polishing;
    const Lane scale = 1.0 + max_abs(y), step = max_abs(dy);
    const Mask short_step = step <= options.tolerance * scale;
    // The floor only where the steps stopped shrinking (rarely: it is not evaluated otherwise).
    const Mask stalling = active & ~short_step & (step > 0.5 * previous);
    polishing = any(stalling) ? short_step | (stalling & it.at_floor(y, z, m, r)) : short_step;
    previous = step;
    frozen = step <= freeze_step * scale;
    active &= ~done;
  }
  const Mask ok = finite(y);
  const Lane residual = select(ok, max_abs(it.phi(it.point(y)) - m), splat(INFINITY));
  const Mask touched = iterations > splat(0.0);
  report.iterations = select(touched, iterations, report.iterations);
  report.converged = select(touched, converged, report.converged);
  report.residual = select(touched, residual, report.residual);
}

}  // namespace field::dcel
