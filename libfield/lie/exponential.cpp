#include "libfield/lie/exponential.hpp"

#include <cmath>
#include <complex>

#include "libfield/lie/so3.hpp"

// All formulas: SPEC [S2.2] (exp, log, dexp, dexp^{-1} and the Newton helper). log's branch near
// a half turn (the axis read from the symmetric part) goes beyond the SPEC, which has only atan2.

namespace field::lie {
namespace {

// Coefficient functions of SPEC [S2.2] as functions of t = theta^2, with their t-derivatives
// (needed by the translational blocks: d/de f(|w + e v|) = 2 f_t (w . v)).
template <typename T>
struct Coefficients {
  T a, b, c, d;     // sin(th)/th, (1-cos th)/th^2, (th-sin th)/th^3, (1-(th/2)cot(th/2))/th^2
  T b_t, c_t, d_t;  // derivatives with respect to t = th^2
};

// |B_{2k+2}| / (2k+2)! for k = 0..10: the Taylor coefficients of d(t).
constexpr double kBernoulliD[11] = {1.0 / 12.0,
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

template <typename T>
Coefficients<T> coefficients(const T& t) {
  Coefficients<T> k;
  if (std::abs(std::real(t)) < 0.25) {  // theta < 0.5: Taylor series (SPEC [S2.2])
    // f(t) = sum_k s_k (-t)^k / (2k + o)!  with o = 1, 2, 3 for a, b, c.
    double fact[25];
    fact[0] = 1.0;
    for (int i = 1; i < 25; ++i) fact[i] = fact[i - 1] * i;
    k.a = k.b = k.c = k.d = T(0.0);
    k.b_t = k.c_t = k.d_t = T(0.0);
    T power(1.0);       // t^i
    T power_prev(0.0);  // t^{i-1}
    for (int i = 0; i <= 10; ++i) {
      const double sign = (i % 2 == 0) ? 1.0 : -1.0;
      k.a += sign * power / fact[2 * i + 1];
      k.b += sign * power / fact[2 * i + 2];
      k.c += sign * power / fact[2 * i + 3];
      k.d += kBernoulliD[i] * power;
      if (i > 0) {
        k.b_t += sign * double(i) * power_prev / fact[2 * i + 2];
        k.c_t += sign * double(i) * power_prev / fact[2 * i + 3];
        k.d_t += kBernoulliD[i] * double(i) * power_prev;
      }
      power_prev = power;
      power *= t;
    }
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
  return k;
}

template <typename T>
Eigen::Matrix<T, 3, 3> hat_t(const Eigen::Matrix<T, 3, 1>& w) {
  Eigen::Matrix<T, 3, 3> s;
  s << T(0), -w(2), w(1), w(2), T(0), -w(0), -w(1), w(0), T(0);
  return s;
}

// dexp^{-1}_x = [[F, 0], [H, F]] with F = I - W/2 + d W^2 (SPEC [S2.2]) and H its derivative
// along v (the lower block of a function of ad_x is the Frechet derivative of the function of
// omega^ in the direction v^): H = -V/2 + d (V W + W V) + 2 d_t (w . v) W^2.
template <typename T>
Eigen::Matrix<T, 6, 1> dexp_inv_dual_impl(const Eigen::Matrix<T, 6, 1>& x, const Vec6& p) {
  using V3 = Eigen::Matrix<T, 3, 1>;
  using M3 = Eigen::Matrix<T, 3, 3>;
  const V3 w = x.template head<3>();
  const V3 v = x.template tail<3>();
  // Bilinear products (no conjugation, unlike Eigen's dot) keep the map analytic for complex T.
  const Coefficients<T> k = coefficients<T>(w.cwiseProduct(w).sum());
  const M3 W = hat_t<T>(w);
  const M3 Vh = hat_t<T>(v);
  const M3 W2 = W * W;
  const M3 F = M3::Identity() - 0.5 * W + k.d * W2;
  const M3 H = -0.5 * Vh + k.d * (Vh * W + W * Vh) + 2.0 * k.d_t * w.cwiseProduct(v).sum() * W2;
  const V3 pi = p.head<3>().cast<T>();
  const V3 q = p.tail<3>().cast<T>();
  Eigen::Matrix<T, 6, 1> out;
  out << F.transpose() * pi + H.transpose() * q, F.transpose() * q;
  return out;
}

}  // namespace

SE3 exp_map(const Vec6& x) {
  const Vec3 w = x.head<3>();
  const Coefficients<double> k = coefficients<double>(w.squaredNorm());
  const Mat3 W = hat(w);
  const Mat3 W2 = W * W;
  SE3 g;
  g.R = Mat3::Identity() + k.a * W + k.b * W2;
  g.r = (Mat3::Identity() + k.b * W + k.c * W2) * x.tail<3>();
  return g;
}

Vec6 log_map(const SE3& g) {
  const Vec3 S = vee(g.R - g.R.transpose());  // = 2 sin(theta) n
  const double cos_th = 0.5 * (g.R.trace() - 1.0);
  const double theta = std::atan2(0.5 * S.norm(), cos_th);
  Vec3 w;
  if (cos_th > -0.9) {
    const Coefficients<double> k = coefficients<double>(theta * theta);
    w = S / (2.0 * k.a);
  } else {
    // Near theta = pi, S -> 0: read the axis from the symmetric part (1 - cos th) n n^T.
    const Mat3 B = 0.5 * (g.R + g.R.transpose()) - cos_th * Mat3::Identity();
    int i = 0;
    B.diagonal().maxCoeff(&i);
    Vec3 n = B.col(i) / std::sqrt(B(i, i) * (1.0 - cos_th));
    if (n.dot(S) < 0.0) n = -n;
    w = theta * n.normalized();
  }
  const Coefficients<double> k = coefficients<double>(w.squaredNorm());
  const Mat3 W = hat(w);
  Vec6 x;
  x << w, (Mat3::Identity() - 0.5 * W + k.d * W * W) * g.r;
  return x;
}

Mat6 dexp(const Vec6& x) {
  const Vec3 w = x.head<3>();
  const Vec3 v = x.tail<3>();
  const Coefficients<double> k = coefficients<double>(w.squaredNorm());
  const Mat3 W = hat(w);
  const Mat3 Vh = hat(v);
  const Mat3 W2 = W * W;
  Mat6 m = Mat6::Zero();
  const Mat3 A = Mat3::Identity() + k.b * W + k.c * W2;
  m.topLeftCorner<3, 3>() = A;
  m.bottomRightCorner<3, 3>() = A;
  m.bottomLeftCorner<3, 3>() =
      k.b * Vh + k.c * (Vh * W + W * Vh) + 2.0 * w.dot(v) * (k.b_t * W + k.c_t * W2);
  return m;
}

Mat6 dexp_inv(const Vec6& x) {
  const Vec3 w = x.head<3>();
  const Vec3 v = x.tail<3>();
  const Coefficients<double> k = coefficients<double>(w.squaredNorm());
  const Mat3 W = hat(w);
  const Mat3 Vh = hat(v);
  const Mat3 W2 = W * W;
  Mat6 m = Mat6::Zero();
  const Mat3 F = Mat3::Identity() - 0.5 * W + k.d * W2;
  m.topLeftCorner<3, 3>() = F;
  m.bottomRightCorner<3, 3>() = F;
  m.bottomLeftCorner<3, 3>() = -0.5 * Vh + k.d * (Vh * W + W * Vh) + 2.0 * k.d_t * w.dot(v) * W2;
  return m;
}

Vec6 dexp_inv_dual(const Vec6& x, const Vec6& p) {
  return dexp_inv_dual_impl<double>(x, p);
}

Mat6 exp_newton_M(const Vec6& x, const Vec6& p) {
  // Complex step: f(x + i h e_k) = f(x) + i h df/dx_k + O(h^2), so Im(...)/h is the derivative
  // to round-off for any h small enough; no subtraction, hence no cancellation.
  using C = std::complex<double>;
  constexpr double h = 1e-30;
  Mat6 m;
  Eigen::Matrix<C, 6, 1> xc = x.cast<C>();
  for (int col = 0; col < 6; ++col) {
    xc(col) += C(0.0, h);
    m.col(col) = dexp_inv_dual_impl<C>(xc, p).imag() / h;
    xc(col) = C(x(col), 0.0);
  }
  return m;
}

}  // namespace field::lie
