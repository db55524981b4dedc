#pragma once
/// Between Eigen's fixed-size vectors and matrices (core/types.hpp) and the small 3-vectors and
/// 3x3 matrices of any scalar (core/small_matrix.hpp) that the formulas written once for one node
/// and for lanes take (lie/cayley_blocks.hpp, lie/exponential_blocks.hpp, dcel/diagonal_law.hpp).
/// Copies only: no arithmetic, so no rounding.
#include "libfield/core/small_matrix.hpp"
#include "libfield/core/types.hpp"

namespace field::small {

/// The three entries of an Eigen 3-vector expression, as T.
template <typename T = double, typename Derived>
V3<T> v3(const Eigen::MatrixBase<Derived>& a) {
  return {{T(a(0)), T(a(1)), T(a(2))}};
}
/// The rotational and translational halves of an se(3) vector (theory §0.2).
inline V3<double> head(const Vec6& a) {
  return {{a[0], a[1], a[2]}};
}
inline V3<double> tail(const Vec6& a) {
  return {{a[3], a[4], a[5]}};
}
inline M3<double> m3(const Mat3& a) {
  M3<double> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.e[i][j] = a(i, j);
  return m;
}

template <typename T>
Eigen::Matrix<T, 3, 1> to_eigen(const V3<T>& a) {
  return Eigen::Matrix<T, 3, 1>(a.e[0], a.e[1], a.e[2]);
}
template <typename T>
Eigen::Matrix<T, 3, 3> to_eigen(const M3<T>& a) {
  Eigen::Matrix<T, 3, 3> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = a.e[i][j];
  return m;
}
/// The se(3) vector (a, b).
template <typename T>
Eigen::Matrix<T, 6, 1> to_eigen(const V3<T>& a, const V3<T>& b) {
  Eigen::Matrix<T, 6, 1> out;
  out << a.e[0], a.e[1], a.e[2], b.e[0], b.e[1], b.e[2];
  return out;
}

}  // namespace field::small
