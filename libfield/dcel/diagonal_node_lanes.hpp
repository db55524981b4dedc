#pragma once
/// dcel::DiagonalNode on four nodes at once (core/lanes.hpp): the closed-form Newton solve of
/// theory §5 for the retraction of G and a diagonal law p(y) = K (y - y0), with the same law and
/// arithmetic (dcel/diagonal_law.hpp with T = lanes::Lane) and the lane Newton iteration
/// dcel::newton_solve_lanes (dcel/node_newton_lanes.hpp). Inline, for the batched march kernels.
/// S = double: one law on every lane (a uniform beam); S = lanes::Lane: a law per lane (K and y0
/// of each node of a non-uniform beam, theory §1.6), the same arithmetic lane by lane.
#include "libfield/dcel/cayley_arithmetic.hpp"
#include "libfield/dcel/diagonal_law.hpp"
#include "libfield/dcel/diagonal_node.hpp"
#include "libfield/dcel/exp_arithmetic.hpp"
#include "libfield/dcel/node_newton_lanes.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/lie/cayley_lanes.hpp"

namespace field::dcel {

template <class G, class S = double>
class DiagonalNodeLanes {
 public:
  using Report = LanesReport;
  using Group = G;

  /// K: diagonal of dp/dy (positive); y0: where p vanishes; h: dt or ds (as DiagonalNode).
  DiagonalNodeLanes(const Vec6& K, const Vec6& y0, double h) : law_(K, y0, h) {}
  /// S = lanes::Lane: lane l has the law K[index(l)], y0[index(l)] (checked by the caller with
  /// DiagonalLaw::check).
  template <class Index>
  FIELD_LANES_INLINE DiagonalNodeLanes(const Vec6* K, const Vec6* y0, const Index& index, double h)
      : law_(K, y0, index, h) {}

  /// Phi(y) = (dtau^{-1}_{hy})^T K (y - y0).
  FIELD_LANES_INLINE lanes::V6 phi(const lanes::V6& y) const { return phi_at(y, law_.h()); }
  /// The dual at -hy: (dtau^{-1}_{-hy})^T K (y - y0) (mu~ or -lambda~ of theory §3.3).
  FIELD_LANES_INLINE lanes::V6 phi_tilde(const lanes::V6& y) const { return phi_at(y, -law_.h()); }

  /// With the damping stress sigma = b (p(y) - p(y_prev)) of theory §4.7 (stiffness damping,
  /// b = beta/h_t, y_prev the strain a time step before): (dtau^{-1}_{sy})^T (p(y) + sigma),
  /// s = h (phi) or -h (phi_tilde). dcel::damping_fluxes takes the two duals apart and adds them;
  /// here one dual of the sum (the same to round-off).
  FIELD_LANES_INLINE lanes::V6 phi_damped(const lanes::V6& y, const lanes::V6& y_prev, double b,
                                          double s) const {
    V3 p_w, p_v, q_w, q_v, out_w, out_v;
    law_.law(v3(y.w), v3(y.v), p_w, p_v);
    law_.law(v3(y_prev.w), v3(y_prev.v), q_w, q_v);
    NodeArithmetic<G>::dual(s * v3(y.w), s * v3(y.v), p_w + b * (p_w - q_w), p_v + b * (p_v - q_v),
                            out_w, out_v);
    return v6(out_w, out_v);
  }

  /// The damping stress alone, sigma = b (p(y) - p(y_prev)) (theory §4.7), and its duals
  /// (dtau^{-1}_{hy})^T sigma and (dtau^{-1}_{-hy})^T sigma: -lambda_d and -lambda~_d of
  /// dcel::damping_fluxes (the damping diagnostics, noether::SlabTermsLanes::damping).
  FIELD_LANES_INLINE void damping_duals(const lanes::V6& y, const lanes::V6& y_prev, double b,
                                        lanes::V6& dual, lanes::V6& dual_tilde) const {
    V3 p_w, p_v, q_w, q_v, out_w, out_v;
    law_.law(v3(y.w), v3(y.v), p_w, p_v);
    law_.law(v3(y_prev.w), v3(y_prev.v), q_w, q_v);
    const V3 sigma_w = b * (p_w - q_w), sigma_v = b * (p_v - q_v);
    const double h = law_.h();
    NodeArithmetic<G>::dual(h * v3(y.w), h * v3(y.v), sigma_w, sigma_v, out_w, out_v);
    dual = v6(out_w, out_v);
    NodeArithmetic<G>::dual((-h) * v3(y.w), (-h) * v3(y.v), sigma_w, sigma_v, out_w, out_v);
    dual_tilde = v6(out_w, out_v);
  }

  /// Solves Phi(y) = m on the lanes set in `active`, in place from the start y; the other lanes
  /// of y and `report` are not changed. Stopping rule and Jacobian freeze of DiagonalNode::solve.
  FIELD_LANES_INLINE void solve(const lanes::V6& m, lanes::V6& y, lanes::Mask active,
                                const NodeSolverOptions& options, Report& report) const {
    newton_solve_lanes(Iteration{law_}, m, y, active, options, DiagonalNode<G>::kFreezeStep,
                       report);
  }

  /// The retraction on lanes, for the march kernels.
  FIELD_LANES_INLINE static lanes::G tau(const lanes::V6& x) { return NodeArithmetic<G>::tau(x); }
  FIELD_LANES_INLINE static lanes::V6 tau_inv(const lanes::G& g) {
    return NodeArithmetic<G>::tau_inv(g);
  }

 private:
  using V3 = small::V3<lanes::Lane>;
  using Point = typename NodeArithmetic<G>::template Point<lanes::Lane>;
  using Factor = typename NodeArithmetic<G>::template Factor<lanes::Lane>;

  DiagonalLaw<G, S> law_;

  FIELD_LANES_INLINE static V3 v3(const lanes::V3& a) { return lanes::to_small(a); }
  FIELD_LANES_INLINE static lanes::V6 v6(const V3& a, const V3& b) {
    return {lanes::from_small(a), lanes::from_small(b)};
  }
  FIELD_LANES_INLINE lanes::V6 phi_at(const lanes::V6& y, double s) const {
    V3 out_w, out_v;
    law_.phi(v3(y.w), v3(y.v), s, out_w, out_v);
    return v6(out_w, out_v);
  }

  // dcel::newton_solve_lanes on the law of G.
  struct Iteration {
    using Point = DiagonalNodeLanes::Point;
    using Factor = DiagonalNodeLanes::Factor;
    const DiagonalLaw<G, S>& law;
    FIELD_LANES_INLINE Point point(const lanes::V6& y) const { return law.point(v3(y.w), v3(y.v)); }
    FIELD_LANES_INLINE lanes::V6 phi(const Point& z) const {
      V3 out_w, out_v;
      law.phi(z, out_w, out_v);
      return v6(out_w, out_v);
    }
    FIELD_LANES_INLINE void factor(Factor& f, const Point& z) const { law.factor(f, z); }
    FIELD_LANES_INLINE lanes::V6 step(const Factor& f, const lanes::V6& r) const {
      V3 d_w, d_v;
      f.solve(v3(r.w), v3(r.v), d_w, d_v);
      return v6(d_w, d_v);
    }
    FIELD_LANES_INLINE lanes::Mask at_floor(const lanes::V6& y, const Point& z, const lanes::V6& m,
                                            const lanes::V6& r) const {
      return (lanes::Mask)law.at_floor(v3(y.w), v3(y.v), z, v3(m.w), v3(m.v), v3(r.w), v3(r.v));
    }
    FIELD_LANES_INLINE Factor select(lanes::Mask m, const Factor& a, const Factor& b) const {
      return Factor::select(m, a, b);
    }
  };
};

/// The instances the march kernels use (march::SlabLanes).
using CayleyNodeLanes = DiagonalNodeLanes<lie::Se3Cayley>;
using ExpNodeLanes = DiagonalNodeLanes<lie::Se3Exp>;

}  // namespace field::dcel
