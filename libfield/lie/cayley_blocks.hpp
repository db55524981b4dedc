#pragma once
/// The Cayley retraction of theory §2.1 written once for every user and every scalar type T
/// (core/small_matrix.hpp): double (lie/cayley.cpp, dcel::DiagonalNode) and lanes::Lane (four
/// nodes at once, lie/cayley_lanes.hpp, dcel::DiagonalNodeLanes). The operation order is fixed
/// here, so a node rounds alike on the reference path and in the batched march kernels. With
/// x = (w, v), n = |w|^2 and w^ w^ = w w^T - n I:
///   cay(x) = (I + c (w^ + w w^T / 2) - (c n / 2) I,  d (4 v + 2 w x v + (w . v) w)),
///            d = 1 / (4 + n), c = 4 d                                               (2.3)
///   cay^{-1}(Lambda, r) = (w, r - w x r / 2),  w = 2 vee(Lambda - Lambda^T) / (1 + tr Lambda)
///   (2.4) (dcay^{-1}_x)^T (pi, q) = (pi - (pi x w + q x v)/2 + ((w . pi) w + v x (w x q))/4,
///                              q - q x w / 2)                                       (2.8)
#include "libfield/core/lanes.hpp"
#include "libfield/core/small_matrix.hpp"

namespace field::lie::cay_detail {

using small::M3;
using small::V3;

/// cay(x) = (R, r), (2.3).
template <typename T>
FIELD_LANES_INLINE void cay_blocks(const V3<T>& w, const V3<T>& v, M3<T>& R, V3<T>& r) {
  const T zero{};
  const T n = small::dot(w, w), d = 1.0 / (4.0 + n), c = 4.0 * d;
  const M3<T> W = small::hat(w);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      R.e[i][j] = c * (W.e[i][j] + 0.5 * w.e[i] * w.e[j]) + (i == j ? 1.0 - 0.5 * c * n : zero);
  r = d * (4.0 * v + 2.0 * small::cross(w, v) + small::dot(w, v) * w);
}

/// 1 + tr Lambda: cay^{-1} exists where it is positive (rotations by less than pi).
template <typename T>
FIELD_LANES_INLINE T cay_inv_denominator(const M3<T>& R) {
  return 1.0 + R.e[0][0] + R.e[1][1] + R.e[2][2];
}

/// cay^{-1}(R, r) = (w, v), (2.4). A rotation by pi or more (cay_inv_denominator <= 0) gives
/// infinite or NaN entries: the caller checks (lie::cay_inv throws, the lanes report a failure).
template <typename T>
FIELD_LANES_INLINE void cay_inv_blocks(const M3<T>& R, const V3<T>& r, V3<T>& w, V3<T>& v) {
  const T s = 2.0 / cay_inv_denominator(R);
  w = {{s * (R.e[2][1] - R.e[1][2]), s * (R.e[0][2] - R.e[2][0]), s * (R.e[1][0] - R.e[0][1])}};
  v = r - 0.5 * small::cross(w, r);
}

/// (dcay^{-1}_x)^T p at x = (w, v), p = (pi, q), (2.8): the fluxes of a segment and the node
/// equation's Phi (theory §3.3, §5).
template <typename T>
FIELD_LANES_INLINE void dual(const V3<T>& w, const V3<T>& v, const V3<T>& pi, const V3<T>& q,
                             V3<T>& out_w, V3<T>& out_v) {
  using small::cross;
  out_w = pi - 0.5 * (cross(pi, w) + cross(q, v)) +
          0.25 * (small::dot(w, pi) * w + cross(v, cross(w, q)));
  out_v = q - 0.5 * cross(q, w);
}

}  // namespace field::lie::cay_detail
