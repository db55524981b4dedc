#pragma once
/// The exponential retraction of SPEC [S2.2] on four nodes at once (core/lanes.hpp,
/// lie/cayley_lanes.hpp): the coefficient functions (the Taylor series on lanes; the closed forms,
/// needed for |omega| >= 0.5, lane by lane with the scalar code), the dual (dexp^{-1}_x)^T p from
/// the blocks of lie/exponential_blocks.hpp, and exp / log lane by lane with lie::exp_map and
/// lie::log_map. Same formulas as lie/exponential.cpp, hence the same results; everything is
/// inline, for the batched march kernels (march/slab_lanes.cpp).
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

FIELD_LANES_INLINE V3<lanes::Lane> from_lanes(const lanes::V3& a) {
  return {{a.x, a.y, a.z}};
}
FIELD_LANES_INLINE lanes::V3 to_lanes(const V3<lanes::Lane>& a) {
  return {a.e[0], a.e[1], a.e[2]};
}

}  // namespace field::lie::exp_detail

namespace field::lanes {

/// (dexp^{-1}_x)^T p (SPEC [S2.2], lie/exponential_blocks.hpp).
FIELD_LANES_INLINE V6 dexp_inv_dual(const V6& x, const V6& p) {
  namespace ex = lie::exp_detail;
  const ex::V3<Lane> w = ex::from_lanes(x.w), v = ex::from_lanes(x.v);
  const ex::DexpInvBlocks<Lane> b = ex::dexp_inv_blocks(w, v, ex::coefficients(ex::dot(w, w)));
  ex::V3<Lane> out_w, out_v;
  ex::dual(b, ex::from_lanes(p.w), ex::from_lanes(p.v), out_w, out_v);
  return {ex::to_lanes(out_w), ex::to_lanes(out_v)};
}

/// exp(x), lane by lane with lie::exp_map.
FIELD_LANES_INLINE G exp(const V6& x) {
  G g;
  for (int l = 0; l < kWidth; ++l) {
    Vec6 xl;
    xl << x.w.x[l], x.w.y[l], x.w.z[l], x.v.x[l], x.v.y[l], x.v.z[l];
    const lie::SE3 e = lie::exp_map(xl);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) g.R.e[i][j][l] = e.R(i, j);
    g.r.x[l] = e.r.x();
    g.r.y[l] = e.r.y();
    g.r.z[l] = e.r.z();
  }
  return g;
}

/// log(g), lane by lane with lie::log_map.
FIELD_LANES_INLINE V6 log(const G& g) {
  V6 x;
  for (int l = 0; l < kWidth; ++l) {
    lie::SE3 e;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) e.R(i, j) = g.R.e[i][j][l];
    e.r = Vec3(g.r.x[l], g.r.y[l], g.r.z[l]);
    set_lane(x, l, lie::log_map(e));
  }
  return x;
}

}  // namespace field::lanes
