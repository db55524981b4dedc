#pragma once
/// NodeArithmetic<lie::Se3Exp>: the arithmetic of the closed-form node solve
/// (dcel/diagonal_law.hpp, theory §5) for the exponential retraction (theory §2.2), for one node (T
/// = double) and for four (T = lanes::Lane). With x = h y and the blocks F, H of dexp^{-1}_x and
/// M11, M12 of the Newton helper (lie/exponential_blocks.hpp), K = diag(K_w, K_v), the Jacobian
/// J_Phi = (dexp^{-1}_x)^T K + h M(x, p) has the blocks
///   J11 = F^T K_w + h M11      J12 = H^T K_v + h M12
///   J21 = h M12                J22 = F^T K_v,
/// and the Newton step J_Phi d = r is solved through J22^{-1} = K_v^{-1} F^{-T}, with F^{-1} the
/// top block of dexp_x (closed form), and the 3x3 Schur complement S = J11 - J12 J22^{-1} J21:
///   d_w = S^{-1} (r_w - J12 J22^{-1} r_v),   d_v = J22^{-1} (r_v - J21 d_w).
/// No 6x6 LU, no complex arithmetic.
#include "libfield/core/types.hpp"
#include "libfield/dcel/diagonal_law.hpp"
#include "libfield/lie/exponential_lanes.hpp"
#include "libfield/lie/se3_groups.hpp"

namespace field::dcel {

/// One iterate: x = (w, v), p = (pi, q), the coefficients of theory §2.2 at
/// |w|^2 and the blocks of dexp^{-1}_x, shared by Phi and the Jacobian.
template <class T>
struct ExpPoint {
  lie::exp_detail::V3<T> w, v, pi, q;
  lie::exp_detail::Coefficients<T> k;
  lie::exp_detail::DexpInvBlocks<T> b;

  FIELD_LANES_INLINE static ExpPoint at(const lie::exp_detail::V3<T>& w,
                                        const lie::exp_detail::V3<T>& v,
                                        const lie::exp_detail::V3<T>& pi,
                                        const lie::exp_detail::V3<T>& q) {
    namespace ex = lie::exp_detail;
    ExpPoint z;
    z.w = w;
    z.v = v;
    z.pi = pi;
    z.q = q;
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

  template <class KS>  // double: one law, lanes::Lane: a law per lane
  FIELD_LANES_INLINE static ExpJacobianBlocks at(const ExpPoint<T>& z, const KS K[6], double h) {
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

  template <class KS>  // double: one law, lanes::Lane: a law per lane
  FIELD_LANES_INLINE void compute(const ExpPoint<T>& z, const KS K[6], const KS K_v_inv[3],
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

  /// a where m is set, b elsewhere, entry by entry (lanes).
  FIELD_LANES_INLINE static ExpFactor select(lanes::Mask m, const ExpFactor& a,
                                             const ExpFactor& b) {
    ExpFactor out;
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

template <>
struct NodeArithmetic<lie::Se3Exp> {
  template <class T>
  using Point = ExpPoint<T>;
  template <class T>
  using Factor = ExpFactor<T>;

  template <class T>
  FIELD_LANES_INLINE static Point<T> point(const small::V3<T>& w, const small::V3<T>& v,
                                           const small::V3<T>& pi, const small::V3<T>& q) {
    return Point<T>::at(w, v, pi, q);
  }

  /// (dexp^{-1}_x)^T p at x = (w, v), p = (pi, q) (theory §2.2, lie/exponential_blocks.hpp).
  template <class T>
  FIELD_LANES_INLINE static void dual(const small::V3<T>& w, const small::V3<T>& v,
                                      const small::V3<T>& pi, const small::V3<T>& q,
                                      small::V3<T>& out_w, small::V3<T>& out_v) {
    namespace ex = lie::exp_detail;
    ex::dual(ex::dexp_inv_blocks(w, v, ex::coefficients(ex::dot(w, w))), pi, q, out_w, out_v);
  }
  /// The same at the iterate, from its blocks.
  template <class T>
  FIELD_LANES_INLINE static void phi(const Point<T>& z, small::V3<T>& out_w, small::V3<T>& out_v) {
    z.phi(out_w, out_v);
  }

  /// J_Phi assembled from the blocks (for tests; the solve never forms it).
  static Mat6 jacobian(const Point<double>& z, const double K[6], double h) {
    const ExpJacobianBlocks<double> j = ExpJacobianBlocks<double>::at(z, K, h);
    Mat6 jac;
    for (int i = 0; i < 3; ++i)
      for (int c = 0; c < 3; ++c) {
        jac(i, c) = j.J11.e[i][c];
        jac(i, 3 + c) = j.J12.e[i][c];
        jac(3 + i, c) = j.J21.e[i][c];
        jac(3 + i, 3 + c) = z.b.F.e[c][i] * K[3 + c];
      }
    return jac;
  }

  /// exp and log on lanes (lie/exponential_lanes.hpp).
  FIELD_LANES_INLINE static lanes::G tau(const lanes::V6& x) { return lanes::exp(x); }
  FIELD_LANES_INLINE static lanes::V6 tau_inv(const lanes::G& g) { return lanes::log(g); }
};

}  // namespace field::dcel
