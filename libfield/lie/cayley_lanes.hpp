#pragma once
/// The Cayley retraction of theory §2.1 and the SE(3) product of theory §0.2 on four nodes at once
/// (core/lanes.hpp): 3-vectors, se(3) vectors and group elements whose every entry is a Lane.
/// The retraction's formulas are lie/cayley_blocks.hpp's, the reference path's (lie/cayley.cpp):
/// the same bits lane by lane. Everything is inline: the batched march kernels
/// (march/slab_lanes.cpp) compile it once per instruction set.
#include <algorithm>

#include "libfield/core/lanes.hpp"
#include "libfield/core/small_matrix.hpp"
#include "libfield/core/types.hpp"
#include "libfield/lie/cayley_blocks.hpp"
#include "libfield/lie/se3.hpp"

namespace field::lanes {

struct V3 {
  Lane x, y, z;
};
FIELD_LANES_INLINE V3 operator+(const V3& a, const V3& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
FIELD_LANES_INLINE V3 operator-(const V3& a, const V3& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
FIELD_LANES_INLINE V3 operator-(const V3& a) {
  return {-a.x, -a.y, -a.z};
}
FIELD_LANES_INLINE V3 operator*(Lane s, const V3& a) {
  return {s * a.x, s * a.y, s * a.z};
}
FIELD_LANES_INLINE V3 operator*(double s, const V3& a) {
  return {s * a.x, s * a.y, s * a.z};
}
FIELD_LANES_INLINE Lane dot(const V3& a, const V3& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
FIELD_LANES_INLINE V3 cross(const V3& a, const V3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
FIELD_LANES_INLINE V3 select(Mask m, const V3& a, const V3& b) {
  return {select(m, a.x, b.x), select(m, a.y, b.y), select(m, a.z, b.z)};
}
/// max over the three components of |a|.
FIELD_LANES_INLINE Lane max_abs(const V3& a) {
  return max(max(abs(a.x), abs(a.y)), abs(a.z));
}
FIELD_LANES_INLINE Mask finite(const V3& a) {
  return finite(a.x) & finite(a.y) & finite(a.z);
}

/// An se(3) vector (omega, v) or se(3)* covector (moment, force), rotation first (theory §0.2).
struct V6 {
  V3 w, v;
};
FIELD_LANES_INLINE V6 operator+(const V6& a, const V6& b) {
  return {a.w + b.w, a.v + b.v};
}
FIELD_LANES_INLINE V6 operator-(const V6& a, const V6& b) {
  return {a.w - b.w, a.v - b.v};
}
FIELD_LANES_INLINE V6 operator-(const V6& a) {
  return {-a.w, -a.v};
}
/// a / s entry by entry (a true division, as Eigen's vector / scalar).
FIELD_LANES_INLINE V6 divide(const V6& a, double s) {
  return {{a.w.x / s, a.w.y / s, a.w.z / s}, {a.v.x / s, a.v.y / s, a.v.z / s}};
}
FIELD_LANES_INLINE V6 operator*(double s, const V6& a) {
  return {s * a.w, s * a.v};
}
FIELD_LANES_INLINE V6 select(Mask m, const V6& a, const V6& b) {
  return {select(m, a.w, b.w), select(m, a.v, b.v)};
}
FIELD_LANES_INLINE Lane max_abs(const V6& a) {
  return max(max_abs(a.w), max_abs(a.v));
}
FIELD_LANES_INLINE Mask finite(const V6& a) {
  return finite(a.w) & finite(a.v);
}
/// Set where a and b differ in some component.
FIELD_LANES_INLINE Mask differ(const V6& a, const V6& b) {
  return (a.w.x != b.w.x) | (a.w.y != b.w.y) | (a.w.z != b.w.z) | (a.v.x != b.v.x) |
         (a.v.y != b.v.y) | (a.v.z != b.v.z);
}

/// A 3x3 matrix, e[row][column].
struct M3 {
  Lane e[3][3];
};
FIELD_LANES_INLINE V3 mul(const M3& a, const V3& x) {
  return {a.e[0][0] * x.x + a.e[0][1] * x.y + a.e[0][2] * x.z,
          a.e[1][0] * x.x + a.e[1][1] * x.y + a.e[1][2] * x.z,
          a.e[2][0] * x.x + a.e[2][1] * x.y + a.e[2][2] * x.z};
}
FIELD_LANES_INLINE V3 mul_transpose(const M3& a, const V3& x) {
  return {a.e[0][0] * x.x + a.e[1][0] * x.y + a.e[2][0] * x.z,
          a.e[0][1] * x.x + a.e[1][1] * x.y + a.e[2][1] * x.z,
          a.e[0][2] * x.x + a.e[1][2] * x.y + a.e[2][2] * x.z};
}
FIELD_LANES_INLINE M3 select(Mask m, const M3& a, const M3& b) {
  M3 out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out.e[i][j] = select(m, a.e[i][j], b.e[i][j]);
  return out;
}

/// An element (Lambda, r) of SE(3).
struct G {
  M3 R;
  V3 r;
};

/// (R1, r1)(R2, r2) = (R1 R2, R1 r2 + r1) (theory §0.2).
FIELD_LANES_INLINE G mul(const G& a, const G& b) {
  G out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      out.R.e[i][j] =
          a.R.e[i][0] * b.R.e[0][j] + a.R.e[i][1] * b.R.e[1][j] + a.R.e[i][2] * b.R.e[2][j];
  out.r = mul(a.R, b.r) + a.r;
  return out;
}

/// Ad*_{g^{-1}} mu = (R mu_w + r x (R mu_v), R mu_v): lie::spatial_covector (theory §7.1).
FIELD_LANES_INLINE V6 spatial_covector(const G& g, const V6& mu) {
  const V3 p = mul(g.R, mu.v);
  return {mul(g.R, mu.w) + cross(g.r, p), p};
}

/// a^{-1} b = (R_a^T R_b, R_a^T (r_b - r_a)).
FIELD_LANES_INLINE G inverse_mul(const G& a, const G& b) {
  G out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      out.R.e[i][j] =
          a.R.e[0][i] * b.R.e[0][j] + a.R.e[1][i] * b.R.e[1][j] + a.R.e[2][i] * b.R.e[2][j];
  out.r = mul_transpose(a.R, b.r - a.r);
  return out;
}

/// Lane vectors and matrices as the small ones of any scalar (core/small_matrix.hpp), which the
/// formulas written once for one node and for lanes take, and back: copies only.
FIELD_LANES_INLINE small::V3<Lane> to_small(const V3& a) {
  return {{a.x, a.y, a.z}};
}
FIELD_LANES_INLINE V3 from_small(const small::V3<Lane>& a) {
  return {a.e[0], a.e[1], a.e[2]};
}
FIELD_LANES_INLINE small::M3<Lane> to_small(const M3& a) {
  small::M3<Lane> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.e[i][j] = a.e[i][j];
  return m;
}
FIELD_LANES_INLINE M3 from_small(const small::M3<Lane>& a) {
  M3 m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.e[i][j] = a.e[i][j];
  return m;
}

/// cay(x), (2.3) of theory §2.1 (lie/cayley_blocks.hpp).
FIELD_LANES_INLINE G cay(const V6& x) {
  small::M3<Lane> R;
  small::V3<Lane> r;
  lie::cay_detail::cay_blocks(to_small(x.w), to_small(x.v), R, r);
  return {from_small(R), from_small(r)};
}

/// cay^{-1}(Lambda, r), (2.4) of theory §2.1 (lie/cayley_blocks.hpp). A rotation by pi or more
/// (1 + tr Lambda <= 0) has no Cayley coordinates: its lanes come out infinite or NaN, which the
/// node solve reports as a failure.
FIELD_LANES_INLINE V6 cay_inv(const G& g) {
  small::V3<Lane> w, v;
  lie::cay_detail::cay_inv_blocks(to_small(g.R), to_small(g.r), w, v);
  return {from_small(w), from_small(v)};
}

// Loading and storing `count` (1..kWidth) consecutive nodes; the lanes past `count` repeat the
// last node, so that they compute something harmless.

FIELD_LANES_INLINE G load(const lie::SE3* g, int count) {
  G out;
  for (int l = 0; l < kWidth; ++l) {
    const lie::SE3& n = g[std::min(l, count - 1)];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) out.R.e[i][j][l] = n.R(i, j);
    out.r.x[l] = n.r.x();
    out.r.y[l] = n.r.y();
    out.r.z[l] = n.r.z();
  }
  return out;
}

FIELD_LANES_INLINE void store(const G& g, lie::SE3* out, int count) {
  for (int l = 0; l < count; ++l) {
    lie::SE3& n = out[l];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) n.R(i, j) = g.R.e[i][j][l];
    n.r = Vec3(g.r.x[l], g.r.y[l], g.r.z[l]);
  }
}

/// Sets lane l of y to the 6-vector n.
FIELD_LANES_INLINE void set_lane(V6& y, int l, const Vec6& n) {
  y.w.x[l] = n[0];
  y.w.y[l] = n[1];
  y.w.z[l] = n[2];
  y.v.x[l] = n[3];
  y.v.y[l] = n[4];
  y.v.z[l] = n[5];
}

FIELD_LANES_INLINE V6 load(const Vec6* y, int count) {
  V6 out;
  for (int l = 0; l < kWidth; ++l) set_lane(out, l, y[std::min(l, count - 1)]);
  return out;
}

FIELD_LANES_INLINE void store(const V6& y, Vec6* out, int count) {
  for (int l = 0; l < count; ++l)
    out[l] << y.w.x[l], y.w.y[l], y.w.z[l], y.v.x[l], y.v.y[l], y.v.z[l];
}

}  // namespace field::lanes
