#pragma once
/// dcel::CayleyNode on four nodes at once (core/lanes.hpp): the closed-form Newton solve of
/// theory §5 for the Cayley retraction and a diagonal law p(y) = K (y - y0), with the same block
/// formulas (dcel/cayley_factor.hpp) and the lane Newton iteration dcel::newton_solve_lanes
/// (dcel/node_newton_lanes.hpp) that dcel::ExpNodeLanes shares. Inline, for the batched march
/// kernels.
#include <cmath>

#include "libfield/dcel/cayley_factor.hpp"
#include "libfield/dcel/cayley_node.hpp"
#include "libfield/dcel/node_newton_lanes.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/lie/cayley_lanes.hpp"

namespace field::dcel {

class CayleyNodeLanes {
 public:
  using Report = LanesReport;

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
  /// The dual at -hy: (dcay^{-1}_{-hy})^T K (y - y0) (mu~ or -lambda~ of theory §3.3).
  FIELD_LANES_INLINE lanes::V6 phi_tilde(const lanes::V6& y) const {
    return lanes::dcay_inv_dual(-h_ * y, law(y));
  }

  /// Solves Phi(y) = m on the lanes set in `active`, in place from the start y; the other lanes
  /// of y and `report` are not changed. Stopping rule and Jacobian freeze of CayleyNode::solve.
  FIELD_LANES_INLINE void solve(const lanes::V6& m, lanes::V6& y, lanes::Mask active,
                                const NodeSolverOptions& options, Report& report) const {
    newton_solve_lanes(Iteration{*this}, m, y, active, options, CayleyNode::kFreezeStep, report);
  }

  /// The retraction on lanes, for the march kernels: cay and cay^{-1}.
  FIELD_LANES_INLINE static lanes::G tau(const lanes::V6& x) { return lanes::cay(x); }
  FIELD_LANES_INLINE static lanes::V6 tau_inv(const lanes::G& g) { return lanes::cay_inv(g); }

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

  // The Cayley instance of dcel::newton_solve_lanes.
  struct Iteration {
    using Point = CayleyNodeLanes::Point;
    using Factor = CayleyNodeLanes::Factor;
    const CayleyNodeLanes& node;
    FIELD_LANES_INLINE Point point(const lanes::V6& y) const { return node.point_at(y); }
    FIELD_LANES_INLINE lanes::V6 phi(const Point& z) const { return phi_at(z); }
    FIELD_LANES_INLINE void factor(Factor& f, const Point& z) const { node.compute(f, z); }
    FIELD_LANES_INLINE lanes::V6 step(const Factor& f, const lanes::V6& r) const {
      return step_of(f, r);
    }
    FIELD_LANES_INLINE Factor select(lanes::Mask m, const Factor& a, const Factor& b) const {
      return select_factor(m, a, b);
    }
  };
};

}  // namespace field::dcel
