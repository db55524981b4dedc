#pragma once
/// The closed-form node solve of theory §5 for a diagonal quadratic law p(y) = K (y - y0), written
/// once for every retraction and for one node (T = double, dcel::DiagonalNode) or four
/// (T = lanes::Lane, dcel::DiagonalNodeLanes): the law, the iterate x = h y, the target
/// residual's round-off floor (theory §5). The retraction supplies only its arithmetic,
/// NodeArithmetic<G> (dcel/cayley_arithmetic.hpp, dcel/exp_arithmetic.hpp):
///   template <class T> struct Point         x = (w, v), p = (pi, q) and what Phi and the
///                                           Jacobian share (members w, v, pi, q: small::V3<T>),
///   Point<T> point(w, v, pi, q)             that iterate,
///   void phi(const Point<T>&, out_w, out_v) Phi = (dtau^{-1}_x)^T p,
///   template <class T> struct Factor        the factorised Jacobian J_Phi = (dtau^{-1}_x)^T K
///                                           + h M(x, p): compute(z, K, K_v_inv, h),
///                                           solve(r_w, r_v, d_w, d_v), select(mask, a, b),
///   Mat6 jacobian(const Point<double>&, K, h)   J_Phi assembled (tests),
///   lanes::G tau(x), lanes::V6 tau_inv(g)   the retraction on lanes (march kernels).
#include <cmath>
#include <type_traits>

#include "libfield/core/error.hpp"
#include "libfield/core/lanes.hpp"
#include "libfield/core/small_matrix.hpp"
#include "libfield/core/types.hpp"

namespace field::dcel {

/// The per-retraction arithmetic of the closed-form node solve (see the file comment).
template <class G>
struct NodeArithmetic;

/// |a| and max(a, b) for one node and for lanes.
FIELD_LANES_INLINE double abs_of(double a) {
  return std::abs(a);
}
FIELD_LANES_INLINE lanes::Lane abs_of(lanes::Lane a) {
  return lanes::abs(a);
}
FIELD_LANES_INLINE double max_of(double a, double b) {
  return a < b ? b : a;
}
FIELD_LANES_INLINE lanes::Lane max_of(lanes::Lane a, lanes::Lane b) {
  return lanes::max(a, b);
}
/// max_i |a_i|.
template <class T>
FIELD_LANES_INLINE T max_abs3(const small::V3<T>& a) {
  return max_of(max_of(abs_of(a.e[0]), abs_of(a.e[1])), abs_of(a.e[2]));
}

/// p(y) = K (y - y0) with step h (time march: K = J, y0 = 0, h = dt; space march: K = C,
/// y0 = E6, h = ds), and the node solve's arithmetic on it. S = double: one law; S = lanes::Lane:
/// a law per lane (the nodes of a non-uniform beam, theory §1.6), with the same arithmetic
/// lane by lane, so that equal laws on every lane give the bits of S = double.
template <class G, class S = double>
class DiagonalLaw {
 public:
  template <class T>
  using V3 = small::V3<T>;

  /// K: diagonal of dp/dy (positive); y0: where p vanishes; h: dt or ds.
  DiagonalLaw(const Vec6& K, const Vec6& y0, double h) : h_(h) {
    static_assert(std::is_same_v<S, double>);
    check(K, h);
    for (int i = 0; i < 6; ++i) {
      K_[i] = K[i];
      y0_[i] = y0[i];
    }
    for (int i = 0; i < 3; ++i) K_v_inv_[i] = 1.0 / K[3 + i];
  }
  /// The law of lane l from K[index(l)], y0[index(l)] (S = lanes::Lane; not checked here: the
  /// caller checked every law with check()).
  template <class Index>
  FIELD_LANES_INLINE DiagonalLaw(const Vec6* K, const Vec6* y0, const Index& index, double h)
      : h_(h) {
    static_assert(std::is_same_v<S, lanes::Lane>);
    for (int l = 0; l < lanes::kWidth; ++l) {
      const int n = index(l);
      for (int i = 0; i < 6; ++i) {
        K_[i][l] = K[n][i];
        y0_[i][l] = y0[n][i];
      }
    }
    for (int i = 0; i < 3; ++i) K_v_inv_[i] = 1.0 / K_[3 + i];
  }
  /// Throws field::Error unless K > 0 and h > 0 are finite.
  static void check(const Vec6& K, double h) {
    FIELD_CHECK((K.array() > 0.0).all() && K.allFinite(),
                "node law: the diagonal K must be positive, got " << K.transpose());
    FIELD_CHECK(h > 0.0 && std::isfinite(h), "node law: step h must be positive, got " << h);
  }

  /// The iterate at y = (y_w, y_v): x = s y (s = h for Phi, -h for the dual at -hy) and
  /// p = K (y - y0).
  template <class T>
  FIELD_LANES_INLINE auto point(const V3<T>& y_w, const V3<T>& y_v, double s) const {
    return NodeArithmetic<G>::point(s * y_w, s * y_v, law_w(y_w), law_v(y_v));
  }
  template <class T>
  FIELD_LANES_INLINE auto point(const V3<T>& y_w, const V3<T>& y_v) const {
    return point(y_w, y_v, h_);
  }

  /// Phi = (dtau^{-1}_x)^T p at x = s y without the rest of the iterate (s = h: Phi(y),
  /// s = -h: the dual at -hy).
  template <class T>
  FIELD_LANES_INLINE void phi(const V3<T>& y_w, const V3<T>& y_v, double s, V3<T>& out_w,
                              V3<T>& out_v) const {
    NodeArithmetic<G>::dual(s * y_w, s * y_v, law_w(y_w), law_v(y_v), out_w, out_v);
  }

  /// p = K (y - y0) at y = (y_w, y_v).
  template <class T>
  FIELD_LANES_INLINE void law(const V3<T>& y_w, const V3<T>& y_v, V3<T>& p_w, V3<T>& p_v) const {
    p_w = law_w(y_w);
    p_v = law_v(y_v);
  }

  /// Phi = (dtau^{-1}_x)^T p at the iterate.
  template <class P, class T>
  FIELD_LANES_INLINE void phi(const P& z, V3<T>& out_w, V3<T>& out_v) const {
    NodeArithmetic<G>::phi(z, out_w, out_v);
  }
  /// The factorised Jacobian J_Phi at the iterate.
  template <class F, class P>
  FIELD_LANES_INLINE void factor(F& f, const P& z) const {
    f.compute(z, K_, K_v_inv_, h_);
  }

  /// Set where the residual r = Phi - m at the iterate z is at its round-off floor (theory §5,
  /// (5.8)): with |a| = max_i |a_i|, k_w = max_i K_i (|y_i| + |y0_i|) over the rotations and k_v
  /// over the translations (the size of p's terms, with the cancellation in y - y0; y: the
  /// iterate or the next one, which differ by a step at round-off where this matters), c = 8:
  ///   |r_w| <= c eps (|m_w| + (k_w + k_v |v|) (1 + |w|)^2),
  ///   |r_v| <= c eps (|m_v| + k_v (1 + |w|)^2).
  template <class T, class P>
  FIELD_LANES_INLINE auto at_floor(const V3<T>& y_w, const V3<T>& y_v, const P& z, const V3<T>& m_w,
                                   const V3<T>& m_v, const V3<T>& r_w, const V3<T>& r_v) const {
    T k_w = T{} + 0.0, k_v = T{} + 0.0;
    for (int i = 0; i < 3; ++i) {
      k_w = max_of(k_w, K_[i] * (abs_of(y_w.e[i]) + abs_of(y0_[i])));
      k_v = max_of(k_v, K_[3 + i] * (abs_of(y_v.e[i]) + abs_of(y0_[3 + i])));
    }
    const T a = 1.0 + max_abs3(z.w), grow = a * a;
    const T f_w = kFloorFactor * (max_abs3(m_w) + (k_w + k_v * max_abs3(z.v)) * grow);
    const T f_v = kFloorFactor * (max_abs3(m_v) + k_v * grow);
    // Both halves at the floor; `&` (not `&&`): masks of lanes as well as bools.
    const auto w_at_floor = max_abs3(r_w) <= f_w;
    const auto v_at_floor = max_abs3(r_v) <= f_v;
    return w_at_floor & v_at_floor;
  }

  /// c eps of at_floor.
  static constexpr double kFloorFactor = 8.0 * 0x1p-52;

  double h() const { return h_; }
  const S* K() const { return K_; }

 private:
  S K_[6], y0_[6], K_v_inv_[3];
  double h_;

  // p = K (y - y0): its rotational and translational parts.
  template <class T>
  FIELD_LANES_INLINE V3<T> law_w(const V3<T>& y_w) const {
    return {
        {K_[0] * (y_w.e[0] - y0_[0]), K_[1] * (y_w.e[1] - y0_[1]), K_[2] * (y_w.e[2] - y0_[2])}};
  }
  template <class T>
  FIELD_LANES_INLINE V3<T> law_v(const V3<T>& y_v) const {
    return {
        {K_[3] * (y_v.e[0] - y0_[3]), K_[4] * (y_v.e[1] - y0_[4]), K_[5] * (y_v.e[2] - y0_[5])}};
  }
};

}  // namespace field::dcel
