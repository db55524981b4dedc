#pragma once
/// The 3x3 blocks of the exponential retraction's dexp^{-1} and of its Newton helper M, SPEC
/// [S2.2], written once for every user: lie/exponential.cpp (dexp^{-1}, its dual, M, and the
/// complex-step reference of M, hence the scalar type T = double or std::complex<double>) and
/// the closed-form node solve dcel::ExpNode. With x = (w, v), p = (pi, q), W = w^, V = v^,
/// Q = q^, Pi = pi^ and t = |w|^2:
///   dexp^{-1}_x = [[F, 0], [H, F]],   F = I - W/2 + d W^2,
///   H = -V/2 + d (V W + W V) + 2 d_t (w . v) W^2,
///   (dexp^{-1}_x)^T p = (F^T pi + H^T q, F^T q),
/// and M = d/dx [(dexp^{-1}_x)^T p] = [[M11, M12], [M12, 0]] with D(z) = d/dw [w x (w x z)]
/// = (w . z) I + w z^T - 2 z w^T:
///   M12 = -Q/2 + d D(q) + 2 d_t (W^2 q) w^T        (= d/dv of H^T q = d/dw of F^T q),
///   M11 = -Pi/2 + d (D(pi) - (v x q)^ - V Q) + 2 d_t (W^2 pi + w x (v x q) + v x (w x q)) w^T
///         + 2 d_t (w . v) D(q) + 4 d_tt (w . v) (W^2 q) w^T + 2 d_t (W^2 q) v^T.
/// The inverse of F is the top block of dexp_x: F^{-1} = I + b W + c W^2.
#include <Eigen/Core>
#include <cmath>
#include <complex>

namespace field::lie::exp_detail {

/// Coefficient functions of SPEC [S2.2] as functions of t = theta^2, with the t-derivatives the
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

/// sum_i s_i t^i, its first and second derivatives, by Horner's rule.
template <typename T>
inline void horner(const double (&s)[11], const T& t, T& f, T* f_t, T* f_tt) {
  f = T(s[10]);
  T g = T(10.0 * s[10]), h = T(90.0 * s[10]);
  for (int i = 9; i >= 0; --i) {
    f = f * t + s[i];
    if (i >= 1) g = g * t + double(i) * s[i];
    if (i >= 2) h = h * t + double(i * (i - 1)) * s[i];
  }
  if (f_t) *f_t = g;
  if (f_tt) *f_tt = h;
}

/// The coefficients at t = |omega|^2: Taylor series for |omega| < 0.5 (SPEC [S2.2]), closed forms
/// above. With u = (th/2) cot(th/2) = a/(2b): d = (1 - u)/t, u_t = (a - 1)/(4 b t),
/// u_tt = (a - b - a b)/(8 b^2 t^2), d_t = -(u_t + d)/t, d_tt = -(u_tt + 2 d_t)/t.
template <typename T>
inline Coefficients<T> coefficients(const T& t) {
  Coefficients<T> k;
  if (std::abs(std::real(t)) < 0.25) {
    horner(kSeries.a, t, k.a, static_cast<T*>(nullptr), static_cast<T*>(nullptr));
    horner(kSeries.b, t, k.b, &k.b_t, static_cast<T*>(nullptr));
    horner(kSeries.c, t, k.c, &k.c_t, static_cast<T*>(nullptr));
    horner(kSeries.d, t, k.d, &k.d_t, &k.d_tt);
    return k;
  }
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
  return k;
}

template <typename T>
using V3 = Eigen::Matrix<T, 3, 1>;
template <typename T>
using M3 = Eigen::Matrix<T, 3, 3>;

/// Bilinear dot product (no conjugation, unlike Eigen's dot): analytic for complex T.
template <typename T>
inline T dot(const V3<T>& a, const V3<T>& b) {
  return a(0) * b(0) + a(1) * b(1) + a(2) * b(2);
}

template <typename T>
inline M3<T> hat(const V3<T>& w) {
  M3<T> s;
  s << T(0), -w(2), w(1), w(2), T(0), -w(0), -w(1), w(0), T(0);
  return s;
}

/// a b^T + b a^T + s I: with a^ b^ = b a^T - (a . b) I, the products of hats below are
/// W^2 = w w^T - t I and V W + W V = w v^T + v w^T - 2 (w . v) I.
template <typename T>
inline M3<T> sym_outer(const V3<T>& a, const V3<T>& b, const T& s) {
  M3<T> m = a * b.transpose() + b * a.transpose();
  m.diagonal().array() += s;
  return m;
}

/// F = I - W/2 + d W^2, the diagonal blocks of dexp^{-1}_x, from W = w^ and W2 = W^2.
template <typename T>
inline M3<T> F_block(const M3<T>& W, const M3<T>& W2, const Coefficients<T>& k) {
  return M3<T>::Identity() - 0.5 * W + k.d * W2;
}

/// F^{-1} = I + b W + c W^2, the diagonal blocks of dexp_x.
template <typename T>
inline M3<T> F_inverse(const M3<T>& W, const M3<T>& W2, const Coefficients<T>& k) {
  return M3<T>::Identity() + k.b * W + k.c * W2;
}

/// F and H of dexp^{-1}_x (see the file comment), with W and W^2 kept for the users.
template <typename T>
struct DexpInvBlocks {
  M3<T> W, W2, F, H;
  T wv;  ///< w . v
};

template <typename T>
inline DexpInvBlocks<T> dexp_inv_blocks(const V3<T>& w, const V3<T>& v, const Coefficients<T>& k) {
  DexpInvBlocks<T> b;
  b.W = hat<T>(w);
  b.W2 = w * w.transpose();
  b.W2.diagonal().array() -= dot<T>(w, w);
  b.wv = dot<T>(w, v);
  b.F = F_block<T>(b.W, b.W2, k);
  b.H = -0.5 * hat<T>(v) + k.d * sym_outer<T>(w, v, T(-2.0) * b.wv) + (2.0 * k.d_t * b.wv) * b.W2;
  return b;
}

/// (dexp^{-1}_x)^T p from the blocks.
template <typename T>
inline Eigen::Matrix<T, 6, 1> dual(const DexpInvBlocks<T>& b, const V3<T>& pi, const V3<T>& q) {
  Eigen::Matrix<T, 6, 1> out;
  out << b.F.transpose() * pi + b.H.transpose() * q, b.F.transpose() * q;
  return out;
}

/// D(z) = d/dw [w x (w x z)] = (w . z) I + w z^T - 2 z w^T.
template <typename T>
inline M3<T> D(const V3<T>& w, const V3<T>& z) {
  M3<T> m = w * z.transpose() - 2.0 * z * w.transpose();
  m.diagonal().array() += dot<T>(w, z);
  return m;
}

/// The blocks M11 and M12 (= M21) of the Newton helper M(x, p) (see the file comment).
template <typename T>
struct NewtonMBlocks {
  M3<T> M11, M12;
};

template <typename T>
inline NewtonMBlocks<T> newton_M_blocks(const V3<T>& w, const V3<T>& v, const V3<T>& pi,
                                        const V3<T>& q, const Coefficients<T>& k,
                                        const DexpInvBlocks<T>& b) {
  const V3<T> W2q = b.W2 * q, W2pi = b.W2 * pi;
  const V3<T> vq = v.cross(q), wq = w.cross(q);
  const M3<T> Q = hat<T>(q);
  const M3<T> Dq = D<T>(w, q);
  NewtonMBlocks<T> m;
  m.M12 = -0.5 * Q + k.d * Dq + (2.0 * k.d_t) * W2q * w.transpose();
  M3<T> VQ = q * v.transpose();  // V Q = q v^T - (v . q) I
  VQ.diagonal().array() -= dot<T>(v, q);
  m.M11 = -0.5 * hat<T>(pi) + k.d * (D<T>(w, pi) - hat<T>(vq) - VQ) +
          (2.0 * k.d_t) * (W2pi + w.cross(vq) + v.cross(wq)) * w.transpose() +
          (2.0 * k.d_t * b.wv) * Dq + (4.0 * k.d_tt * b.wv) * W2q * w.transpose() +
          (2.0 * k.d_t) * W2q * v.transpose();
  return m;
}

}  // namespace field::lie::exp_detail
