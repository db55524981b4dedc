#pragma once
/// 3-vectors and 3x3 matrices (e[row][column]) of any scalar type T: double, std::complex<double>
/// or lanes::Lane (four nodes at once, core/lanes.hpp), with the few operations the closed-form
/// node solves need. Plain IEEE arithmetic in a fixed order, forced inline (FIELD_LANES_INLINE),
/// so that the baseline and AVX2 builds of the lane kernels round identically.
#include "libfield/core/lanes.hpp"

namespace field::small {

template <typename T>
struct V3 {
  T e[3];
};
template <typename T>
struct M3 {
  T e[3][3];
};

template <typename T>
FIELD_LANES_INLINE V3<T> operator+(const V3<T>& a, const V3<T>& b) {
  return {{a.e[0] + b.e[0], a.e[1] + b.e[1], a.e[2] + b.e[2]}};
}
template <typename T>
FIELD_LANES_INLINE V3<T> operator-(const V3<T>& a, const V3<T>& b) {
  return {{a.e[0] - b.e[0], a.e[1] - b.e[1], a.e[2] - b.e[2]}};
}
template <typename S, typename T>
FIELD_LANES_INLINE V3<T> operator*(const S& s, const V3<T>& a) {
  return {{s * a.e[0], s * a.e[1], s * a.e[2]}};
}
template <typename T>
FIELD_LANES_INLINE T dot(const V3<T>& a, const V3<T>& b) {
  return a.e[0] * b.e[0] + a.e[1] * b.e[1] + a.e[2] * b.e[2];
}
template <typename T>
FIELD_LANES_INLINE V3<T> cross(const V3<T>& a, const V3<T>& b) {
  return {{a.e[1] * b.e[2] - a.e[2] * b.e[1], a.e[2] * b.e[0] - a.e[0] * b.e[2],
           a.e[0] * b.e[1] - a.e[1] * b.e[0]}};
}

template <typename T>
FIELD_LANES_INLINE M3<T> operator+(const M3<T>& a, const M3<T>& b) {
  M3<T> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.e[i][j] = a.e[i][j] + b.e[i][j];
  return m;
}
template <typename T>
FIELD_LANES_INLINE M3<T> operator-(const M3<T>& a, const M3<T>& b) {
  M3<T> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.e[i][j] = a.e[i][j] - b.e[i][j];
  return m;
}
template <typename S, typename T>
FIELD_LANES_INLINE M3<T> operator*(const S& s, const M3<T>& a) {
  M3<T> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.e[i][j] = s * a.e[i][j];
  return m;
}
/// a x.
template <typename T>
FIELD_LANES_INLINE V3<T> operator*(const M3<T>& a, const V3<T>& x) {
  V3<T> out;
  for (int i = 0; i < 3; ++i)
    out.e[i] = a.e[i][0] * x.e[0] + a.e[i][1] * x.e[1] + a.e[i][2] * x.e[2];
  return out;
}
/// a b.
template <typename T>
FIELD_LANES_INLINE M3<T> operator*(const M3<T>& a, const M3<T>& b) {
  M3<T> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      m.e[i][j] = a.e[i][0] * b.e[0][j] + a.e[i][1] * b.e[1][j] + a.e[i][2] * b.e[2][j];
  return m;
}
/// a^T x.
template <typename T>
FIELD_LANES_INLINE V3<T> mul_transpose(const M3<T>& a, const V3<T>& x) {
  V3<T> out;
  for (int j = 0; j < 3; ++j)
    out.e[j] = a.e[0][j] * x.e[0] + a.e[1][j] * x.e[1] + a.e[2][j] * x.e[2];
  return out;
}
template <typename T>
FIELD_LANES_INLINE M3<T> transpose(const M3<T>& a) {
  M3<T> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.e[i][j] = a.e[j][i];
  return m;
}
/// a b^T.
template <typename T>
FIELD_LANES_INLINE M3<T> outer(const V3<T>& a, const V3<T>& b) {
  M3<T> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.e[i][j] = a.e[i] * b.e[j];
  return m;
}
/// a + s I.
template <typename T>
FIELD_LANES_INLINE M3<T> plus_identity(M3<T> a, const T& s) {
  for (int i = 0; i < 3; ++i) a.e[i][i] = a.e[i][i] + s;
  return a;
}
/// hat of theory §0.2: w^ u = w x u.
template <typename T>
FIELD_LANES_INLINE M3<T> hat(const V3<T>& w) {
  const T z{};
  return {{{z, -w.e[2], w.e[1]}, {w.e[2], z, -w.e[0]}, {-w.e[1], w.e[0], z}}};
}
/// Inverse by cofactors.
template <typename T>
FIELD_LANES_INLINE M3<T> inverse(const M3<T>& a) {
  const auto& e = a.e;
  M3<T> c;
  c.e[0][0] = e[1][1] * e[2][2] - e[1][2] * e[2][1];
  c.e[0][1] = e[0][2] * e[2][1] - e[0][1] * e[2][2];
  c.e[0][2] = e[0][1] * e[1][2] - e[0][2] * e[1][1];
  c.e[1][0] = e[1][2] * e[2][0] - e[1][0] * e[2][2];
  c.e[1][1] = e[0][0] * e[2][2] - e[0][2] * e[2][0];
  c.e[1][2] = e[0][2] * e[1][0] - e[0][0] * e[1][2];
  c.e[2][0] = e[1][0] * e[2][1] - e[1][1] * e[2][0];
  c.e[2][1] = e[0][1] * e[2][0] - e[0][0] * e[2][1];
  c.e[2][2] = e[0][0] * e[1][1] - e[0][1] * e[1][0];
  const T inv_det = 1.0 / (e[0][0] * c.e[0][0] + e[0][1] * c.e[1][0] + e[0][2] * c.e[2][0]);
  return inv_det * c;
}

}  // namespace field::small
