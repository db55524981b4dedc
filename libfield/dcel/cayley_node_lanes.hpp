#pragma once
/// dcel::CayleyNode on four nodes at once (core/lanes.hpp): the closed-form Newton solve of
/// SPEC [S6] for the Cayley retraction and a diagonal law p(y) = K (y - y0), with the same block
/// formulas, the same stopping rule (max|dy| <= tolerance (1 + max|y|), then one polishing
/// iteration) and the same Jacobian freeze, decided lane by lane: a lane stops when its own rule
/// says so and is left untouched afterwards. Inline, for the batched march kernels.
#include <cmath>

#include "libfield/dcel/cayley_factor.hpp"
#include "libfield/dcel/cayley_node.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/lie/cayley_lanes.hpp"

namespace field::dcel {

class CayleyNodeLanes {
 public:
  /// Outcome per lane: Newton updates made, converged or not, max|Phi(y) - m| at the end.
  struct Report {
    lanes::Lane iterations = lanes::splat(0.0);
    lanes::Mask converged = lanes::splat_mask(false);
    lanes::Lane residual = lanes::splat(0.0);
  };

  /// K: diagonal of dp/dy (positive); y0: where p vanishes; h: dt or ds (as CayleyNode).
  CayleyNodeLanes(const Vec6& K, const Vec6& y0, double h) : h_(h) {
    for (int i = 0; i < 6; ++i) {
      K_[i] = K[i];
      y0_[i] = y0[i];
    }
    for (int i = 0; i < 3; ++i) K_v_inv_[i] = 1.0 / K[3 + i];
  }

  /// p = K (y - y0).
  FIELD_LANES_INLINE lanes::V6 law(const lanes::V6& y) const {
    return {{K_[0] * (y.w.x - y0_[0]), K_[1] * (y.w.y - y0_[1]), K_[2] * (y.w.z - y0_[2])},
            {K_[3] * (y.v.x - y0_[3]), K_[4] * (y.v.y - y0_[4]), K_[5] * (y.v.z - y0_[5])}};
  }
  /// Phi(y) = (dcay^{-1}_{hy})^T K (y - y0).
  FIELD_LANES_INLINE lanes::V6 phi(const lanes::V6& y) const {
    return lanes::dcay_inv_dual(h_ * y, law(y));
  }
  /// The dual at -hy: (dcay^{-1}_{-hy})^T K (y - y0) (mu~ or -lambda~ of SPEC [S4.2]).
  FIELD_LANES_INLINE lanes::V6 phi_tilde(const lanes::V6& y) const {
    return lanes::dcay_inv_dual(-h_ * y, law(y));
  }

  /// Solves Phi(y) = m on the lanes set in `active`, in place from the start y; the other lanes
  /// of y and `report` are not changed. Stopping rule and Jacobian freeze of CayleyNode::solve.
  FIELD_LANES_INLINE void solve(const lanes::V6& m, lanes::V6& y, lanes::Mask active,
                                const NodeSolverOptions& options, Report& report) const {
    using namespace lanes;
    const Lane one = splat(1.0);
    Factor factor;
    Mask polishing = splat_mask(false), frozen = splat_mask(false);
    Mask converged = splat_mask(false);
    Lane iterations = splat(0.0);
    for (int it = 0; it < options.max_iterations && any(active); ++it) {
      const Point z = point_at(y);
      const Mask refresh = active & ~frozen;
      if (it == 0) {
        compute(factor, z);
      } else if (any(refresh)) {
        Factor fresh;
        compute(fresh, z);
        factor = select_factor(refresh, fresh, factor);
      }
      const V6 dy = step_of(factor, phi_at(z) - m);
      y = select(active, y - dy, y);
      iterations = iterations + select(active, one, splat(0.0));
      const Mask ok = finite(y);
      converged |= active & ok & polishing;
      const Mask done = ~ok | polishing;
      const Lane scale = 1.0 + max_abs(y), step = max_abs(dy);
      polishing = step <= options.tolerance * scale;
      frozen = step <= CayleyNode::kFreezeStep * scale;
      active &= ~done;
    }
    const Mask ok = finite(y);
    const Lane residual = select(ok, max_abs(phi(y) - m), splat(INFINITY));
    const Mask touched = iterations > splat(0.0);
    report.iterations = select(touched, iterations, report.iterations);
    report.converged = select(touched, converged, report.converged);
    report.residual = select(touched, residual, report.residual);
  }

 private:
  double K_[6], y0_[6], K_v_inv_[3], h_;

  // x = h y = (w, v) and p = K (y - y0) = (pi, q) at one iterate.
  struct Point {
    lanes::V3 w, v, pi, q;
  };
  FIELD_LANES_INLINE Point point_at(const lanes::V6& y) const {
    const lanes::V6 p = law(y);
    return {h_ * y.w, h_ * y.v, p.w, p.v};
  }
  FIELD_LANES_INLINE static lanes::V6 phi_at(const Point& z) {
    return lanes::dcay_inv_dual({z.w, z.v}, {z.pi, z.q});
  }

  // The Newton step (dcel/cayley_factor.hpp, shared with CayleyNode) on lanes.
  using Factor = CayleyFactor<lanes::Lane>;
  FIELD_LANES_INLINE void compute(Factor& f, const Point& z) const {
    const lanes::Lane w[3] = {z.w.x, z.w.y, z.w.z}, v[3] = {z.v.x, z.v.y, z.v.z};
    const lanes::Lane pi[3] = {z.pi.x, z.pi.y, z.pi.z}, q[3] = {z.q.x, z.q.y, z.q.z};
    f.compute(w, v, pi, q, K_, K_v_inv_, h_);
  }
  FIELD_LANES_INLINE static lanes::V6 step_of(const Factor& f, const lanes::V6& r) {
    const lanes::Lane r_w[3] = {r.w.x, r.w.y, r.w.z}, r_v[3] = {r.v.x, r.v.y, r.v.z};
    lanes::Lane d_w[3], d_v[3];
    f.solve(r_w, r_v, d_w, d_v);
    return {{d_w[0], d_w[1], d_w[2]}, {d_v[0], d_v[1], d_v[2]}};
  }
  /// a where m is set, b elsewhere, entry by entry.
  FIELD_LANES_INLINE static Factor select_factor(lanes::Mask m, const Factor& a, const Factor& b) {
    Factor out = b;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        out.KN[i][j] = lanes::select(m, a.KN[i][j], b.KN[i][j]);
        out.S_inv[i][j] = lanes::select(m, a.S_inv[i][j], b.S_inv[i][j]);
      }
      out.g[i] = lanes::select(m, a.g[i], b.g[i]);
      out.v_half[i] = lanes::select(m, a.v_half[i], b.v_half[i]);
      out.hq_half[i] = lanes::select(m, a.hq_half[i], b.hq_half[i]);
    }
    return out;
  }
};

}  // namespace field::dcel
