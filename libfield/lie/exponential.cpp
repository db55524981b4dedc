#include "libfield/lie/exponential.hpp"

#include <cmath>
#include <complex>

#include "libfield/core/small_eigen.hpp"
#include "libfield/lie/exponential_blocks.hpp"
#include "libfield/lie/so3.hpp"

// All formulas: theory §2.2 (exp, log, dexp, dexp^{-1} and the Newton helper); the blocks of
// dexp^{-1} and M are written once in lie/exponential_blocks.hpp. log's branch near
// a half turn (the axis read from the symmetric part) is the project's addition to theory §2.2's
// atan2 (described there).

namespace field::lie {
namespace {

namespace ex = exp_detail;
using ex::Coefficients;
using ex::coefficients;

using small::to_eigen;
using small::v3;

template <typename T>
Eigen::Matrix<T, 6, 1> dexp_inv_dual_impl(const Eigen::Matrix<T, 6, 1>& x, const Vec6& p) {
  const ex::V3<T> w = v3<T>(x.template head<3>()), v = v3<T>(x.template tail<3>());
  const ex::DexpInvBlocks<T> b = ex::dexp_inv_blocks(w, v, coefficients(ex::dot(w, w)));
  ex::V3<T> out_w, out_v;
  ex::dual(b, v3<T>(p.head<3>()), v3<T>(p.tail<3>()), out_w, out_v);
  return to_eigen(out_w, out_v);
}

}  // namespace

SE3 exp_map(const Vec6& x) {
  const ex::V3<double> w = v3<double>(x.head<3>());
  ex::M3<double> R;
  ex::V3<double> r;
  ex::exp_blocks(w, v3<double>(x.tail<3>()), coefficients(ex::dot(w, w)), R, r);
  return SE3{to_eigen(R), to_eigen(r)};
}

Vec6 log_map(const SE3& g) {
  const Vec3 S = vee(g.R - g.R.transpose());  // = 2 sin(theta) n
  const double cos_th = 0.5 * (g.R.trace() - 1.0);
  const double theta = std::atan2(0.5 * S.norm(), cos_th);
  ex::V3<double> w;
  if (cos_th > -0.9) {
    w = ex::log_rotation(v3<double>(S), coefficients(theta * theta));
  } else {
    // Near theta = pi, S -> 0: read the axis from the symmetric part (1 - cos th) n n^T.
    const Mat3 B = 0.5 * (g.R + g.R.transpose()) - cos_th * Mat3::Identity();
    int i = 0;
    B.diagonal().maxCoeff(&i);
    Vec3 n = B.col(i) / std::sqrt(B(i, i) * (1.0 - cos_th));
    if (n.dot(S) < 0.0) n = -n;
    w = v3<double>(theta * n.normalized());
  }
  const ex::V3<double> v = ex::log_translation(w, coefficients(ex::dot(w, w)), v3<double>(g.r));
  return to_eigen(w, v);
}

Mat6 dexp(const Vec6& x) {
  const Vec3 w = x.head<3>();
  const Vec3 v = x.tail<3>();
  const ex::V3<double> wl = v3<double>(w);
  const Coefficients<double> k = coefficients(ex::dot(wl, wl));
  const Mat3 W = hat(w);
  const Mat3 Vh = hat(v);
  const Mat3 W2 = W * W;
  Mat6 m = Mat6::Zero();
  const Mat3 A = to_eigen(ex::F_inverse(ex::hat(wl), ex::hat_squared(wl), k));
  m.topLeftCorner<3, 3>() = A;
  m.bottomRightCorner<3, 3>() = A;
  m.bottomLeftCorner<3, 3>() =
      k.b * Vh + k.c * (Vh * W + W * Vh) + 2.0 * w.dot(v) * (k.b_t * W + k.c_t * W2);
  return m;
}

Mat6 dexp_inv(const Vec6& x) {
  const ex::V3<double> w = v3<double>(x.head<3>()), v = v3<double>(x.tail<3>());
  const ex::DexpInvBlocks<double> b = ex::dexp_inv_blocks(w, v, coefficients(ex::dot(w, w)));
  Mat6 m = Mat6::Zero();
  m.topLeftCorner<3, 3>() = to_eigen(b.F);
  m.bottomRightCorner<3, 3>() = to_eigen(b.F);
  m.bottomLeftCorner<3, 3>() = to_eigen(b.H);
  return m;
}

Vec6 dexp_inv_dual(const Vec6& x, const Vec6& p) {
  return dexp_inv_dual_impl<double>(x, p);
}

Mat6 exp_newton_M(const Vec6& x, const Vec6& p) {
  const ex::V3<double> w = v3<double>(x.head<3>()), v = v3<double>(x.tail<3>());
  const ex::V3<double> pi = v3<double>(p.head<3>()), q = v3<double>(p.tail<3>());
  const Coefficients<double> k = coefficients(ex::dot(w, w));
  const ex::DexpInvBlocks<double> b = ex::dexp_inv_blocks(w, v, k);
  const ex::NewtonMBlocks<double> blocks = ex::newton_M_blocks(w, v, pi, q, k, b);
  Mat6 m = Mat6::Zero();
  m.topLeftCorner<3, 3>() = to_eigen(blocks.M11);
  m.topRightCorner<3, 3>() = to_eigen(blocks.M12);
  m.bottomLeftCorner<3, 3>() = to_eigen(blocks.M12);
  return m;
}

Mat6 exp_newton_M_complex_step(const Vec6& x, const Vec6& p) {
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
