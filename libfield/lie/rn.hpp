#pragma once
/// The additive group R^N as an instance of lie/lie_group.hpp (docs/lie-groups.md): g h = g + h,
/// tau(x) = x, dtau = I, Ad = I, newton_M = 0. With it the discretisation is the ordinary
/// (vector-space) multisymplectic scheme.
#include <Eigen/Core>
#include <string>

#include "libfield/lie/lie_group.hpp"

namespace field::lie {

template <int N>
struct Rn {
  using Space = Rn;  ///< the density space (model::Density<Rn>)
  static std::string name() { return "R^" + std::to_string(N); }
  static constexpr int dim = N;
  using Element = Eigen::Matrix<double, N, 1>;
  using Algebra = Eigen::Matrix<double, N, 1>;
  using Matrix = Eigen::Matrix<double, N, N>;
  static Element identity() { return Element::Zero(); }
  static Element compose(const Element& g, const Element& h) { return g + h; }
  static Element inverse(const Element& g) { return -g; }
  /// Homogeneous matrix [[I, g], [0, 1]].
  static Eigen::Matrix<double, N + 1, N + 1> matrix(const Element& g) {
    Eigen::Matrix<double, N + 1, N + 1> m = Eigen::Matrix<double, N + 1, N + 1>::Identity();
    m.template topRightCorner<N, 1>() = g;
    return m;
  }
  static Element tau(const Algebra& x) { return x; }
  static Algebra tau_inv(const Element& g) { return g; }
  static Matrix dtau_inv(const Algebra&) { return Matrix::Identity(); }
  static Algebra dtau_inv_dual(const Algebra&, const Algebra& p) { return p; }
  static Matrix Ad(const Element&) { return Matrix::Identity(); }
  static Algebra Ad_dual(const Element&, const Algebra& mu) { return mu; }
  static Matrix newton_M(const Algebra&, const Algebra&) { return Matrix::Zero(); }
};

static_assert(is_lie_group<Rn<1>>);
static_assert(is_lie_group<Rn<3>>);

/// The spatial covector Ad*_{g^{-1}} mu of R^N: mu itself (Ad = I). The momentum map of the
/// translations is the linear momentum (the cable, theory §1.8).
template <int N>
Eigen::Matrix<double, N, 1> spatial_covector(const Eigen::Matrix<double, N, 1>&,
                                             const Eigen::Matrix<double, N, 1>& mu) {
  return mu;
}

}  // namespace field::lie
