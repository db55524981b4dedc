#pragma once
/// The 3x3 blocks of the exponential retraction's dexp^{-1} and of its Newton helper M,
/// theory §2.2, written once for every user and every scalar type T: double (lie/exponential.cpp,
/// dcel::ExpNode), std::complex<double> (the complex-step reference of M) and lanes::Lane (four
/// nodes at once, lie/exponential_lanes.hpp, dcel::ExpNodeLanes). With x = (w, v), p = (pi, q),
/// W = w^, V = v^, Q = q^, Pi = pi^ and t = |w|^2:
///   dexp^{-1}_x = [[F, 0], [H, F]],   F = I - W/2 + d W^2,
///   H = -V/2 + d (V W + W V) + 2 d_t (w . v) W^2,
///   (dexp^{-1}_x)^T p = (F^T pi + H^T q, F^T q),
/// and M = d/dx [(dexp^{-1}_x)^T p] = [[M11, M12], [M12, 0]] with D(z) = d/dw [w x (w x z)]
/// = (w . z) I + w z^T - 2 z w^T:
///   M12 = -Q/2 + d D(q) + 2 d_t (W^2 q) w^T        (= d/dv of H^T q = d/dw of F^T q),
///   M11 = -Pi/2 + d (D(pi) - (v x q)^ - V Q) + 2 d_t (W^2 pi + w x (v x q) + v x (w x q)) w^T
///         + 2 d_t (w . v) D(q) + 4 d_tt (w . v) (W^2 q) w^T + 2 d_t (W^2 q) v^T.
/// The products of hats are written out (a^ b^ = b a^T - (a . b) I): W^2 = w w^T - t I,
/// V W + W V = w v^T + v w^T - 2 (w . v) I, V Q = q v^T - (v . q) I. The inverse of F is the top
/// block of dexp_x: F^{-1} = I + b W + c W^2.
#include <cmath>
#include <complex>

#include "libfield/core/lanes.hpp"
#include "libfield/core/small_matrix.hpp"

namespace field::lie::exp_detail {

/// Coefficient functions of theory §2.2 as functions of t = theta^2, with the t-derivatives the
/// translational blocks and M need (d/de f(|w + e u|^2) = 2 f_t (w . u)).
template <typename T>
struct Coefficients {
  T a, b, c, d;     ///< sin(th)/th, (1-cos th)/th^2, (th-sin th)/th^3, (1-(th/2)cot(th/2))/th^2
  T b_t, c_t, d_t;  ///< derivatives with respect to t = th^2
  T d_tt;           ///< second derivative of d with respect to t
};

/// Taylor coefficients in t of a, b, c and d (eleven terms each): a = sum a_i t^i, ...
struct SeriesTable {
  double a[11], b[11], c[11], d[11];
};

constexpr SeriesTable make_series_table() {
  // |B_{2k+2}| / (2k+2)!: the Taylor coefficients of d(t).
  constexpr double bernoulli_d[11] = {1.0 / 12.0,
                                      1.0 / 720.0,
                                      1.0 / 30240.0,
                                      1.0 / 1209600.0,
                                      1.0 / 47900160.0,
                                      691.0 / 2730.0 / 479001600.0,
                                      7.0 / 6.0 / 87178291200.0,
                                      3617.0 / 510.0 / 20922789888000.0,
                                      43867.0 / 798.0 / 6402373705728000.0,
                                      174611.0 / 330.0 / 2432902008176640000.0,
                                      854513.0 / 138.0 / 1124000727777607680000.0};
  SeriesTable s{};
  double fact[25] = {1.0};
  for (int i = 1; i < 25; ++i) fact[i] = fact[i - 1] * i;
  for (int i = 0; i <= 10; ++i) {
    // f(t) = sum_i (-t)^i / (2i + o)! with o = 1, 2, 3 for a, b, c.
    const double sign = (i % 2 == 0) ? 1.0 : -1.0;
    s.a[i] = sign / fact[2 * i + 1];
    s.b[i] = sign / fact[2 * i + 2];
    s.c[i] = sign / fact[2 * i + 3];
    s.d[i] = bernoulli_d[i];
  }
  return s;
}

inline constexpr SeriesTable kSeries = make_series_table();

/// f = sum_i s_i t^i and its first and second derivatives, by Horner's rule.
template <typename T>
FIELD_LANES_INLINE void horner(const double (&s)[11], const T& t, T& f, T& f_t, T& f_tt) {
  f = T{} + s[10];
  f_t = T{} + 10.0 * s[10];
  f_tt = T{} + 90.0 * s[10];
  for (int i = 9; i >= 0; --i) {
    f = f * t + s[i];
    if (i >= 1) f_t = f_t * t + double(i) * s[i];
    if (i >= 2) f_tt = f_tt * t + double(i * (i - 1)) * s[i];
  }
}

/// The coefficients by their Taylor series, used for |omega| < 0.5 (theory §2.2).
template <typename T>
FIELD_LANES_INLINE void series_coefficients(const T& t, Coefficients<T>& k) {
  T unused_t, unused_tt;
  horner(kSeries.a, t, k.a, unused_t, unused_tt);
  horner(kSeries.b, t, k.b, k.b_t, unused_tt);
  horner(kSeries.c, t, k.c, k.c_t, unused_tt);
  horner(kSeries.d, t, k.d, k.d_t, k.d_tt);
}

/// The closed forms, used for |omega| >= 0.5. With u = (th/2) cot(th/2) = a/(2b):
/// d = (1 - u)/t, u_t = (a_t b - a b_t)/(2 b^2), u_tt = (a - b - a b)/(8 b^2 t^2),
/// d_t = -(u_t + d)/t, d_tt = -(u_tt + 2 d_t)/t.
template <typename T>
inline void closed_coefficients(const T& t, Coefficients<T>& k) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  const T th = sqrt(t);
  const T s = sin(th);
  const T co = cos(th);
  k.a = s / th;
  k.b = (1.0 - co) / t;
  k.c = (th - s) / (t * th);
  k.d = (1.0 - k.a / (2.0 * k.b)) / t;
  const T a_t = (co - k.a) / (2.0 * t);
  k.b_t = (k.a - 2.0 * k.b) / (2.0 * t);
  k.c_t = (k.b - 3.0 * k.c) / (2.0 * t);
  k.d_t = (-(a_t * k.b - k.a * k.b_t) / (2.0 * k.b * k.b) - k.d) / t;
  const T u_tt = (k.a - k.b - k.a * k.b) / (8.0 * k.b * k.b * t * t);
  k.d_tt = -(u_tt + 2.0 * k.d_t) / t;
}

/// The coefficients at t = |omega|^2 (double or complex; lanes: lie/exponential_lanes.hpp).
template <typename T>
inline Coefficients<T> coefficients(const T& t) {
  Coefficients<T> k;
  if (std::abs(std::real(t)) < 0.25)
    series_coefficients(t, k);
  else
    closed_coefficients(t, k);
  return k;
}

// The small linear algebra of core/small_matrix.hpp, by its short names.
using small::cross;
using small::dot;
using small::hat;
using small::inverse;
using small::M3;
using small::mul_transpose;
using small::outer;
using small::plus_identity;
using small::transpose;
using small::V3;

// --- The blocks ----------------------------------------------------------------------------

/// W^2 = w w^T - |w|^2 I.
template <typename T>
FIELD_LANES_INLINE M3<T> hat_squared(const V3<T>& w) {
  return plus_identity(outer(w, w), -dot(w, w));
}

/// F = I - W/2 + d W^2, the diagonal blocks of dexp^{-1}_x, from W = w^ and W2 = W^2.
template <typename T>
FIELD_LANES_INLINE M3<T> F_block(const M3<T>& W, const M3<T>& W2, const Coefficients<T>& k) {
  return plus_identity(k.d * W2 - 0.5 * W, T{} + 1.0);
}

/// F^{-1} = I + b W + c W^2, the diagonal blocks of dexp_x.
template <typename T>
FIELD_LANES_INLINE M3<T> F_inverse(const M3<T>& W, const M3<T>& W2, const Coefficients<T>& k) {
  return plus_identity(k.b * W + k.c * W2, T{} + 1.0);
}

/// exp(x) = (I + a W + b W^2, F^{-1} v), x = (w, v), k at |w|^2 (theory §2.2).
template <typename T>
FIELD_LANES_INLINE void exp_blocks(const V3<T>& w, const V3<T>& v, const Coefficients<T>& k,
                                   M3<T>& R, V3<T>& r) {
  const M3<T> W = hat(w), W2 = hat_squared(w);
  R = plus_identity(k.a * W + k.b * W2, T{} + 1.0);
  r = F_inverse(W, W2, k) * v;
}

/// The rotation part of log away from a half turn: w = S / (2 a), S = vee(R - R^T)
/// (= 2 sin(theta) n), k at theta^2.
template <typename T>
FIELD_LANES_INLINE V3<T> log_rotation(const V3<T>& S, const Coefficients<T>& k) {
  const T two_a = 2.0 * k.a;
  return {{S.e[0] / two_a, S.e[1] / two_a, S.e[2] / two_a}};
}

/// The translation part of log: v = F r, k at |w|^2.
template <typename T>
FIELD_LANES_INLINE V3<T> log_translation(const V3<T>& w, const Coefficients<T>& k, const V3<T>& r) {
  return F_block(hat(w), hat_squared(w), k) * r;
}

/// F and H of dexp^{-1}_x (see the file comment), with W and W^2 kept for the users.
template <typename T>
struct DexpInvBlocks {
  M3<T> W, W2, F, H;
  T wv;  ///< w . v
};

template <typename T>
FIELD_LANES_INLINE DexpInvBlocks<T> dexp_inv_blocks(const V3<T>& w, const V3<T>& v,
                                                    const Coefficients<T>& k) {
  DexpInvBlocks<T> b;
  b.W = hat(w);
  b.W2 = hat_squared(w);
  b.wv = dot(w, v);
  b.F = F_block(b.W, b.W2, k);
  const M3<T> VW_WV = plus_identity(outer(w, v) + outer(v, w), -2.0 * b.wv);
  b.H = k.d * VW_WV - 0.5 * hat(v) + (2.0 * k.d_t * b.wv) * b.W2;
  return b;
}

/// (dexp^{-1}_x)^T p = (F^T pi + H^T q, F^T q) from the blocks.
template <typename T>
FIELD_LANES_INLINE void dual(const DexpInvBlocks<T>& b, const V3<T>& pi, const V3<T>& q,
                             V3<T>& out_w, V3<T>& out_v) {
  out_w = mul_transpose(b.F, pi) + mul_transpose(b.H, q);
  out_v = mul_transpose(b.F, q);
}

/// D(z) = d/dw [w x (w x z)] = (w . z) I + w z^T - 2 z w^T.
template <typename T>
FIELD_LANES_INLINE M3<T> D(const V3<T>& w, const V3<T>& z) {
  return plus_identity(outer(w, z) - 2.0 * outer(z, w), dot(w, z));
}

/// The blocks M11 and M12 (= M21) of the Newton helper M(x, p) (see the file comment).
template <typename T>
struct NewtonMBlocks {
  M3<T> M11, M12;
};

template <typename T>
FIELD_LANES_INLINE NewtonMBlocks<T> newton_M_blocks(const V3<T>& w, const V3<T>& v, const V3<T>& pi,
                                                    const V3<T>& q, const Coefficients<T>& k,
                                                    const DexpInvBlocks<T>& b) {
  const V3<T> W2q = b.W2 * q, W2pi = b.W2 * pi;
  const V3<T> vq = cross(v, q), wq = cross(w, q);
  const M3<T> Dq = D(w, q);
  const M3<T> VQ = plus_identity(outer(q, v), -dot(v, q));
  const T d_t2 = 2.0 * k.d_t;
  NewtonMBlocks<T> m;
  m.M12 = k.d * Dq - 0.5 * hat(q) + outer(d_t2 * W2q, w);
  m.M11 = k.d * (D(w, pi) - hat(vq) - VQ) - 0.5 * hat(pi) +
          outer(d_t2 * (W2pi + cross(w, vq) + cross(v, wq)), w) + (d_t2 * b.wv) * Dq +
          outer((4.0 * k.d_tt * b.wv) * W2q, w) + outer(d_t2 * W2q, v);
  return m;
}

}  // namespace field::lie::exp_detail
