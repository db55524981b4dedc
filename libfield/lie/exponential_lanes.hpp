#pragma once
/// The exponential retraction of theory §2.2 on four nodes at once (core/lanes.hpp,
/// lie/cayley_lanes.hpp): the coefficient functions (the Taylor series on lanes; the closed forms,
/// needed for |omega| >= 0.5, lane by lane with the scalar code), exp and log (atan2 and the
/// half-turn branch of log lane by lane with the scalar code); the node solve's dual
/// (dexp^{-1}_x)^T p is dcel/exp_arithmetic.hpp's, from lie/exponential_blocks.hpp. Same formulas
/// as lie/exponential.cpp; the operation order differs in places (|S|), so results agree with it to
/// round-off. Everything is inline, for the batched march kernels (march/slab_lanes.cpp).
#include <cmath>

#include "libfield/lie/cayley_lanes.hpp"
#include "libfield/lie/exponential.hpp"
#include "libfield/lie/exponential_blocks.hpp"

namespace field::lie::exp_detail {

/// The coefficients at t = |omega|^2 on lanes: the series where |omega| < 0.5, the closed forms
/// of the scalar code (lie/exponential_blocks.hpp) in the other lanes.
FIELD_LANES_INLINE Coefficients<lanes::Lane> coefficients(lanes::Lane t) {
  Coefficients<lanes::Lane> k;
  series_coefficients(t, k);
  const lanes::Mask closed = ~(lanes::abs(t) < lanes::splat(0.25));
  if (lanes::any(closed)) {
    for (int l = 0; l < lanes::kWidth; ++l) {
      if (closed[l] == 0) continue;
      Coefficients<double> c;
      closed_coefficients(t[l], c);
      k.a[l] = c.a;
      k.b[l] = c.b;
      k.c[l] = c.c;
      k.d[l] = c.d;
      k.b_t[l] = c.b_t;
      k.c_t[l] = c.c_t;
      k.d_t[l] = c.d_t;
      k.d_tt[l] = c.d_tt;
    }
  }
  return k;
}

}  // namespace field::lie::exp_detail

namespace field::lanes {

/// exp(x) = (I + a W + b W^2, F^{-1} v) (theory §2.2, lie/exponential_blocks.hpp).
FIELD_LANES_INLINE G exp(const V6& x) {
  namespace ex = lie::exp_detail;
  const ex::V3<Lane> w = to_small(x.w);
  ex::M3<Lane> R;
  ex::V3<Lane> r;
  ex::exp_blocks(w, to_small(x.v), ex::coefficients(ex::dot(w, w)), R, r);
  return {from_small(R), from_small(r)};
}

/// log(Lambda, r) as lie::log_map: theta = atan2(|S|/2, (tr Lambda - 1)/2) lane by lane, then
/// w = S / (2a) and v = F r on lanes; lanes near a half turn (cos theta <= -0.9), where the
/// axis is read from the symmetric part, lane by lane with lie::log_map.
FIELD_LANES_INLINE V6 log(const G& g) {
  namespace ex = lie::exp_detail;
  const M3& R = g.R;
  const ex::V3<Lane> S = {{R.e[2][1] - R.e[1][2], R.e[0][2] - R.e[2][0], R.e[1][0] - R.e[0][1]}};
  const Lane cos_th = 0.5 * (R.e[0][0] + R.e[1][1] + R.e[2][2] - 1.0);
  const Lane S2 = ex::dot(S, S);
  Lane theta;
  for (int l = 0; l < kWidth; ++l) theta[l] = std::atan2(0.5 * std::sqrt(S2[l]), cos_th[l]);
  const ex::V3<Lane> w = ex::log_rotation(S, ex::coefficients(theta * theta));
  const ex::V3<Lane> v = ex::log_translation(w, ex::coefficients(ex::dot(w, w)), to_small(g.r));
  V6 x{from_small(w), from_small(v)};
  const Mask near_half_turn = ~(cos_th > splat(-0.9));
  if (any(near_half_turn)) {
    for (int l = 0; l < kWidth; ++l) {
      if (near_half_turn[l] == 0) continue;
      lie::SE3 e;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) e.R(i, j) = R.e[i][j][l];
      e.r = Vec3(g.r.x[l], g.r.y[l], g.r.z[l]);
      set_lane(x, l, lie::log_map(e));
    }
  }
  return x;
}

}  // namespace field::lanes
