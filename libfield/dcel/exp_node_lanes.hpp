#pragma once
/// dcel::ExpNode on four nodes at once (core/lanes.hpp): the closed-form Newton solve of
/// theory §5 for the exponential retraction and a diagonal law p(y) = K (y - y0), with the same
/// blocks and Newton step (dcel/exp_factor.hpp, T = lanes::Lane) and the lane Newton iteration
/// dcel::newton_solve_lanes (dcel/node_newton_lanes.hpp) that dcel::CayleyNodeLanes shares.
/// Inline, for the batched march kernels.
#include "libfield/dcel/exp_factor.hpp"
#include "libfield/dcel/exp_node.hpp"
#include "libfield/dcel/node_newton_lanes.hpp"

namespace field::dcel {

class ExpNodeLanes {
 public:
  using Report = LanesReport;

  /// K: diagonal of dp/dy (positive); y0: where p vanishes; h: dt or ds (as ExpNode).
  ExpNodeLanes(const Vec6& K, const Vec6& y0, double h) : h_(h) {
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
  /// Phi(y) = (dexp^{-1}_{hy})^T K (y - y0).
  FIELD_LANES_INLINE lanes::V6 phi(const lanes::V6& y) const { return phi_at(point_at(y)); }
  /// The dual at -hy: (dexp^{-1}_{-hy})^T K (y - y0) (mu~ or -lambda~ of theory §3.3).
  FIELD_LANES_INLINE lanes::V6 phi_tilde(const lanes::V6& y) const {
    return lanes::dexp_inv_dual(-h_ * y, law(y));
  }

  /// Solves Phi(y) = m on the lanes set in `active`, in place from the start y; the other lanes
  /// of y and `report` are not changed. Stopping rule and Jacobian freeze of ExpNode::solve.
  FIELD_LANES_INLINE void solve(const lanes::V6& m, lanes::V6& y, lanes::Mask active,
                                const NodeSolverOptions& options, Report& report) const {
    newton_solve_lanes(Iteration{*this}, m, y, active, options, ExpNode::kFreezeStep, report);
  }

  /// The retraction on lanes, for the march kernels: exp and log (lie/exponential_lanes.hpp).
  FIELD_LANES_INLINE static lanes::G tau(const lanes::V6& x) { return lanes::exp(x); }
  FIELD_LANES_INLINE static lanes::V6 tau_inv(const lanes::G& g) { return lanes::log(g); }

 private:
  double K_[6], y0_[6], K_v_inv_[3], h_;

  using Point = ExpPoint<lanes::Lane>;
  using Factor = ExpFactor<lanes::Lane>;

  FIELD_LANES_INLINE Point point_at(const lanes::V6& y) const {
    return Point::at(lie::exp_detail::from_lanes(y.w), lie::exp_detail::from_lanes(y.v), K_, y0_,
                     h_);
  }
  FIELD_LANES_INLINE static lanes::V6 phi_at(const Point& z) {
    lie::exp_detail::V3<lanes::Lane> out_w, out_v;
    z.phi(out_w, out_v);
    return {lie::exp_detail::to_lanes(out_w), lie::exp_detail::to_lanes(out_v)};
  }

  // The exponential instance of dcel::newton_solve_lanes.
  struct Iteration {
    using Point = ExpNodeLanes::Point;
    using Factor = ExpNodeLanes::Factor;
    const ExpNodeLanes& node;
    FIELD_LANES_INLINE Point point(const lanes::V6& y) const { return node.point_at(y); }
    FIELD_LANES_INLINE lanes::V6 phi(const Point& z) const { return phi_at(z); }
    FIELD_LANES_INLINE void factor(Factor& f, const Point& z) const {
      f.compute(z, node.K_, node.K_v_inv_, node.h_);
    }
    FIELD_LANES_INLINE lanes::V6 step(const Factor& f, const lanes::V6& r) const {
      lie::exp_detail::V3<lanes::Lane> d_w, d_v;
      f.solve(lie::exp_detail::from_lanes(r.w), lie::exp_detail::from_lanes(r.v), d_w, d_v);
      return {lie::exp_detail::to_lanes(d_w), lie::exp_detail::to_lanes(d_v)};
    }
    FIELD_LANES_INLINE Factor select(lanes::Mask m, const Factor& a, const Factor& b) const {
      Factor out;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          out.KN.e[i][j] = lanes::select(m, a.KN.e[i][j], b.KN.e[i][j]);
          out.P.e[i][j] = lanes::select(m, a.P.e[i][j], b.P.e[i][j]);
          out.J21.e[i][j] = lanes::select(m, a.J21.e[i][j], b.J21.e[i][j]);
          out.S_inv.e[i][j] = lanes::select(m, a.S_inv.e[i][j], b.S_inv.e[i][j]);
        }
      return out;
    }
  };
};

}  // namespace field::dcel
