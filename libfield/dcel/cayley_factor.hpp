#pragma once
/// The Newton step of the closed-form Cayley node solve (theory §5 with theory §2.1's dcay^{-1} and
/// M), written once for one node (T = double: dcel::CayleyNode) and for four (T = lanes::Lane:
/// dcel::CayleyNodeLanes). With x = h y = (w, v), p = K (y - y0) = (pi, q), W = w^, V = v^,
/// Q = q^, K = diag(K_w, K_v), the Jacobian J_Phi = (dcay^{-1}_x)^T K + h M(x, p) has the blocks
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
/// S is a small perturbation of diag(K_w) and is inverted by cofactors.
#include "libfield/core/lanes.hpp"
#include "libfield/core/small_matrix.hpp"

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

template <class T>
struct CayleyFactor {
  T KN[3][3];     ///< K_v^{-1} N
  T S_inv[3][3];  ///< inverse of the Schur complement S
  T g[3], v_half[3], hq_half[3];
  double h = 0.0;

  /// The factorisation at x = h y = (w, v), p = K (y - y0) = (pi, q); K_w: first three entries
  /// of K, K_v_inv: inverses of the last three, step: h.
  FIELD_LANES_INLINE void compute(const T w[3], const T v[3], const T pi[3], const T q[3],
                                  const double K_w[3], const double K_v_inv[3], double step) {
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
  FIELD_LANES_INLINE void solve(const T r_w[3], const T r_v[3], T d_w[3], T d_v[3]) const {
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

}  // namespace field::dcel
