#pragma once
/// NodeArithmetic<lie::Se3Cayley>: the arithmetic of the closed-form node solve
/// (dcel/diagonal_law.hpp, theory §5) for the Cayley retraction (theory §2.1's dcay^{-1} and M),
/// for one node (T = double) and for four (T = lanes::Lane). With x = h y = (w, v), p = K (y - y0)
/// = (pi, q), W = w^, V = v^, Q = q^, K = diag(K_w, K_v), the Jacobian J_Phi = (dcay^{-1}_x)^T K +
/// h M(x, p) has the blocks
///   J11 = (I + W/2 + w w^T/4) K_w + h M11      J12 = V (I + W/2) K_v / 2 + h G
///   J21 = -h Q/2                               J22 = (I + W/2) K_v
/// with M11 = -pi^/2 + (w pi^T + (w.pi) I)/4 - V Q/4 and G = g^, g = -q/2 - (w x q)/4.
/// J Phi d = r is solved through the inverse of J22:
///   (I + W/2)^{-1} = N = (I - W/2 + w w^T/4) / (1 + |w|^2/4)    (Cayley's identity)
///   J12 J22^{-1} = V/2 + h G K_v^{-1} N,
///   S = J11 - J12 J22^{-1} J21 = J11' + (h^2/2) G K_v^{-1} N Q,
/// where J11' is J11 without its term -h V Q/4, which cancels against (h/4) V Q; then
///   d_w = S^{-1} (r_w - v x r_v / 2 - h g x (K_v^{-1} N r_v)),
///   d_v = K_v^{-1} N (r_v + (h/2) q x d_w).
/// Entrywise, with u = K_w w + h pi (componentwise product):
///   J11'_ij = (k_j + h (w.pi)/4) delta_ij + w_i u_j / 4 + (W_ij k_j - h Pi_ij) / 2.
/// S is a small perturbation of diag(K_w) and is inverted by cofactors: no 6x6 LU, no heap.
#include "libfield/core/lanes.hpp"
#include "libfield/core/small_matrix.hpp"
#include "libfield/core/types.hpp"
#include "libfield/dcel/diagonal_law.hpp"
#include "libfield/lie/cayley_blocks.hpp"
#include "libfield/lie/cayley_lanes.hpp"
#include "libfield/lie/se3_groups.hpp"
#include "libfield/lie/so3.hpp"

namespace field::dcel {

/// out = a x b.
template <class T>
FIELD_LANES_INLINE void cross3(const T a[3], const T b[3], T out[3]) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/// out = a x, a 3x3 matrix a[row][column].
template <class T>
FIELD_LANES_INLINE void mul3(const T a[3][3], const T x[3], T out[3]) {
  for (int i = 0; i < 3; ++i) out[i] = a[i][0] * x[0] + a[i][1] * x[1] + a[i][2] * x[2];
}

/// x = (w, v) and p = (pi, q) at one iterate: all that Phi and the factorisation need.
template <class T>
struct CayleyPoint {
  small::V3<T> w, v, pi, q;
};

template <class T>
struct CayleyFactor {
  T KN[3][3];     ///< K_v^{-1} N
  T S_inv[3][3];  ///< inverse of the Schur complement S
  T g[3], v_half[3], hq_half[3];
  double h = 0.0;

  /// The factorisation at the iterate z; K_w: the first three entries of K, K_v_inv: the
  /// inverses of the last three (double: one law, lanes::Lane: a law per lane), step: h.
  template <class KS>
  FIELD_LANES_INLINE void compute(const CayleyPoint<T>& z, const KS K_w[6], const KS K_v_inv[3],
                                  double step) {
    const T *w = z.w.e, *v = z.v.e, *pi = z.pi.e, *q = z.q.e;
    const T zero{};
    const T c = 1.0 / (1.0 + 0.25 * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
    const T W[3][3] = {{zero, -w[2], w[1]}, {w[2], zero, -w[0]}, {-w[1], w[0], zero}};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        KN[i][j] = K_v_inv[i] * c * ((i == j ? 1.0 : 0.0) + 0.25 * w[i] * w[j] - 0.5 * W[i][j]);
    T wq[3];
    cross3(w, q, wq);
    for (int i = 0; i < 3; ++i) g[i] = -0.5 * q[i] - 0.25 * wq[i];
    T T_rows[3][3];  // rows of K_v^{-1} N Q: (row i of KN) x q
    for (int i = 0; i < 3; ++i) cross3(KN[i], q, T_rows[i]);
    const T u[3] = {K_w[0] * w[0] + step * pi[0], K_w[1] * w[1] + step * pi[1],
                    K_w[2] * w[2] + step * pi[2]};
    const T diag = 0.25 * step * (w[0] * pi[0] + w[1] * pi[1] + w[2] * pi[2]);
    const double hh = 0.5 * step * step;
    const T Pi[3][3] = {{zero, -pi[2], pi[1]}, {pi[2], zero, -pi[0]}, {-pi[1], pi[0], zero}};
    T S[3][3];
    for (int j = 0; j < 3; ++j) {
      // Column j of G (K_v^{-1} N Q) is g x (column j of T_rows).
      const T column[3] = {T_rows[0][j], T_rows[1][j], T_rows[2][j]};
      T gt[3];
      cross3(g, column, gt);
      for (int i = 0; i < 3; ++i)
        S[i][j] = (i == j ? K_w[j] + diag : zero) + 0.25 * w[i] * u[j] +
                  0.5 * (W[i][j] * K_w[j] - step * Pi[i][j]) + hh * gt[i];
    }
    inverse(S, S_inv);
    for (int i = 0; i < 3; ++i) {
      v_half[i] = 0.5 * v[i];
      hq_half[i] = (0.5 * step) * q[i];
    }
    h = step;
  }

  /// The Newton step d = (d_w, d_v) with J_Phi d = r = (r_w, r_v).
  FIELD_LANES_INLINE void solve(const small::V3<T>& r_w_, const small::V3<T>& r_v_,
                                small::V3<T>& d_w_, small::V3<T>& d_v_) const {
    const T *r_w = r_w_.e, *r_v = r_v_.e;
    T *d_w = d_w_.e, *d_v = d_v_.e;
    T t[3], vr[3], gt[3], rhs[3];
    mul3(KN, r_v, t);
    cross3(v_half, r_v, vr);
    cross3(g, t, gt);
    for (int i = 0; i < 3; ++i) rhs[i] = r_w[i] - vr[i] - h * gt[i];
    mul3(S_inv, rhs, d_w);
    T qd[3], nq[3];
    cross3(hq_half, d_w, qd);
    mul3(KN, qd, nq);
    for (int i = 0; i < 3; ++i) d_v[i] = t[i] + nq[i];
  }

  /// a where m is set, b elsewhere, entry by entry (lanes).
  FIELD_LANES_INLINE static CayleyFactor select(lanes::Mask m, const CayleyFactor& a,
                                                const CayleyFactor& b) {
    CayleyFactor out = b;
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

  /// Inverse of a 3x3 matrix by cofactors (core/small_matrix.hpp).
  FIELD_LANES_INLINE static void inverse(const T e[3][3], T c[3][3]) {
    small::M3<T> a;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) a.e[i][j] = e[i][j];
    const small::M3<T> inv = small::inverse(a);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) c[i][j] = inv.e[i][j];
  }
};

template <>
struct NodeArithmetic<lie::Se3Cayley> {
  template <class T>
  using Point = CayleyPoint<T>;
  template <class T>
  using Factor = CayleyFactor<T>;

  template <class T>
  FIELD_LANES_INLINE static Point<T> point(const small::V3<T>& w, const small::V3<T>& v,
                                           const small::V3<T>& pi, const small::V3<T>& q) {
    return {w, v, pi, q};
  }

  /// (dcay^{-1}_x)^T p, (2.8) of theory §2.1 (lie/cayley_blocks.hpp).
  template <class T>
  FIELD_LANES_INLINE static void dual(const small::V3<T>& w, const small::V3<T>& v,
                                      const small::V3<T>& pi, const small::V3<T>& q,
                                      small::V3<T>& out_w, small::V3<T>& out_v) {
    lie::cay_detail::dual(w, v, pi, q, out_w, out_v);
  }
  /// The same at the iterate.
  template <class T>
  FIELD_LANES_INLINE static void phi(const Point<T>& z, small::V3<T>& out_w, small::V3<T>& out_v) {
    dual(z.w, z.v, z.pi, z.q, out_w, out_v);
  }

  /// J_Phi assembled from the blocks of the file comment (for tests; the solve never forms it).
  static Mat6 jacobian(const Point<double>& z, const double K[6], double h) {
    const Vec3 w(z.w.e[0], z.w.e[1], z.w.e[2]), v(z.v.e[0], z.v.e[1], z.v.e[2]);
    const Vec3 pi(z.pi.e[0], z.pi.e[1], z.pi.e[2]), q(z.q.e[0], z.q.e[1], z.q.e[2]);
    const Vec3 K_w(K[0], K[1], K[2]), K_v(K[3], K[4], K[5]);
    const Mat3 W = lie::hat(w), V = lie::hat(v), Q = lie::hat(q);
    const Mat3 I_W2 = Mat3::Identity() + 0.5 * W;
    Mat3 M11 = -0.5 * lie::hat(pi) + 0.25 * w * pi.transpose() - 0.25 * V * Q;
    M11.diagonal().array() += 0.25 * w.dot(pi);
    Mat6 jac;
    jac.topLeftCorner<3, 3>() = (I_W2 + 0.25 * w * w.transpose()) * K_w.asDiagonal() + h * M11;
    jac.topRightCorner<3, 3>() =
        0.5 * V * I_W2 * K_v.asDiagonal() + h * (-0.5 * Q - 0.25 * lie::hat(w.cross(q)));
    jac.bottomLeftCorner<3, 3>() = -0.5 * h * Q;
    jac.bottomRightCorner<3, 3>() = I_W2 * K_v.asDiagonal();
    return jac;
  }

  /// cay and cay^{-1} on lanes (lie/cayley_lanes.hpp).
  FIELD_LANES_INLINE static lanes::G tau(const lanes::V6& x) { return lanes::cay(x); }
  FIELD_LANES_INLINE static lanes::V6 tau_inv(const lanes::G& g) { return lanes::cay_inv(g); }
};

}  // namespace field::dcel
