#pragma once
/// The Jacobian blocks and the Newton step of the closed-form exponential node solve (theory §5
/// with theory §2.2; formulas in dcel/exp_node.hpp), written once for one node (T = double:
/// dcel::ExpNode) and for four (T = lanes::Lane: dcel::ExpNodeLanes). The blocks of dexp^{-1}
/// and of M come from lie/exponential_blocks.hpp.
#include "libfield/lie/exponential_lanes.hpp"

namespace field::dcel {

/// One iterate: x = h y = (w, v), p = K (y - y0) = (pi, q), the coefficients of theory §2.2 at
/// |w|^2 and the blocks of dexp^{-1}_x, shared by Phi and the Jacobian.
template <class T>
struct ExpPoint {
  lie::exp_detail::V3<T> w, v, pi, q;
  lie::exp_detail::Coefficients<T> k;
  lie::exp_detail::DexpInvBlocks<T> b;

  /// From y, the law's K (six entries), y0 and the step h.
  FIELD_LANES_INLINE static ExpPoint at(const lie::exp_detail::V3<T>& y_w,
                                        const lie::exp_detail::V3<T>& y_v, const double K[6],
                                        const double y0[6], double h) {
    namespace ex = lie::exp_detail;
    ExpPoint z;
    z.w = h * y_w;
    z.v = h * y_v;
    for (int i = 0; i < 3; ++i) {
      z.pi.e[i] = K[i] * (y_w.e[i] - y0[i]);
      z.q.e[i] = K[3 + i] * (y_v.e[i] - y0[3 + i]);
    }
    z.k = ex::coefficients(ex::dot(z.w, z.w));
    z.b = ex::dexp_inv_blocks(z.w, z.v, z.k);
    return z;
  }

  /// Phi = (dexp^{-1}_x)^T p.
  FIELD_LANES_INLINE void phi(lie::exp_detail::V3<T>& out_w, lie::exp_detail::V3<T>& out_v) const {
    lie::exp_detail::dual(b, pi, q, out_w, out_v);
  }
};

/// J11 = F^T K_w + h M11, J12 = H^T K_v + h M12, J21 = h M12 (J22 = F^T K_v).
template <class T>
struct ExpJacobianBlocks {
  lie::exp_detail::M3<T> J11, J12, J21;

  FIELD_LANES_INLINE static ExpJacobianBlocks at(const ExpPoint<T>& z, const double K[6],
                                                 double h) {
    namespace ex = lie::exp_detail;
    const ex::NewtonMBlocks<T> M = ex::newton_M_blocks(z.w, z.v, z.pi, z.q, z.k, z.b);
    ExpJacobianBlocks j;
    for (int i = 0; i < 3; ++i)
      for (int c = 0; c < 3; ++c) {
        j.J11.e[i][c] = z.b.F.e[c][i] * K[c] + h * M.M11.e[i][c];
        j.J12.e[i][c] = z.b.H.e[c][i] * K[3 + c] + h * M.M12.e[i][c];
        j.J21.e[i][c] = h * M.M12.e[i][c];
      }
    return j;
  }
};

/// The factorised Jacobian: J22^{-1} = K_v^{-1} F^{-T} (KN), P = J12 J22^{-1}, J21 and the
/// inverse of the Schur complement S = J11 - P J21.
template <class T>
struct ExpFactor {
  lie::exp_detail::M3<T> KN, P, J21, S_inv;

  FIELD_LANES_INLINE void compute(const ExpPoint<T>& z, const double K[6], const double K_v_inv[3],
                                  double h) {
    namespace ex = lie::exp_detail;
    const ExpJacobianBlocks<T> j = ExpJacobianBlocks<T>::at(z, K, h);
    const ex::M3<T> F_inv = ex::F_inverse(z.b.W, z.b.W2, z.k);
    for (int i = 0; i < 3; ++i)
      for (int c = 0; c < 3; ++c) KN.e[i][c] = K_v_inv[i] * F_inv.e[c][i];
    P = j.J12 * KN;
    J21 = j.J21;
    S_inv = ex::inverse(j.J11 - P * J21);
  }

  /// The Newton step d = (d_w, d_v) with J_Phi d = r = (r_w, r_v):
  /// d_w = S^{-1} (r_w - P r_v), d_v = J22^{-1} (r_v - J21 d_w).
  FIELD_LANES_INLINE void solve(const lie::exp_detail::V3<T>& r_w,
                                const lie::exp_detail::V3<T>& r_v, lie::exp_detail::V3<T>& d_w,
                                lie::exp_detail::V3<T>& d_v) const {
    d_w = S_inv * (r_w - P * r_v);
    d_v = KN * (r_v - J21 * d_w);
  }
};

}  // namespace field::dcel
