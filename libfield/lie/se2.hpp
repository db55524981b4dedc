#pragma once
/// The planar group SE(2) with the Cayley retraction, an instance of lie/lie_group.hpp. Formulas
/// and their derivations: docs/lie-groups.md "SE(2) with Cayley". Algebra vectors are
/// x = (omega, v1, v2), rotation first as in se(3); covectors (moment, force1, force2); J is the
/// rotation by pi/2, so x^ = [[omega J, v], [0, 0]].
#include <Eigen/Core>
#include <string>

#include "libfield/core/types.hpp"
#include "libfield/lie/lie_group.hpp"

namespace field::lie {

using Vec2 = Eigen::Matrix<double, 2, 1>;
using Mat2 = Eigen::Matrix<double, 2, 2>;

/// Element of SE(2): rotation matrix R and translation r.
struct SE2 {
  Mat2 R = Mat2::Identity();
  Vec2 r = Vec2::Zero();
  /// Product (R1, r1)(R2, r2) = (R1 R2, R1 r2 + r1).
  SE2 operator*(const SE2& h) const { return SE2{R * h.R, R * h.r + r}; }
  /// Inverse (R^T, -R^T r).
  SE2 inverse() const { return SE2{R.transpose(), -(R.transpose() * r)}; }
  /// Action on a point p: R p + r.
  Vec2 act(const Vec2& p) const { return R * p + r; }
  /// Homogeneous matrix [[R, r], [0, 1]].
  Mat3 matrix() const;
};

/// hat on R^3: (omega, v) -> [[omega J, v], [0, 0]].
Mat3 hat_se2(const Vec3& x);

/// SE(2), tau = cay(x) = (I - x^/2)^{-1} (I + x^/2).
struct Se2Cayley {
  /// One retraction only: the group is its own density space (model::Density<Se2Cayley>).
  using Space = Se2Cayley;
  static std::string name() { return "SE(2), cayley"; }
  static constexpr int dim = 3;
  using Element = SE2;
  using Algebra = Vec3;
  using Matrix = Mat3;
  static Element identity() { return SE2{}; }
  static Element compose(const Element& g, const Element& h) { return g * h; }
  static Element inverse(const Element& g) { return g.inverse(); }
  static Mat3 matrix(const Element& g) { return g.matrix(); }
  /// R = ((4 - w^2) I + 4 w J) / (4 + w^2),  r = (4 v + 2 w J v) / (4 + w^2).
  static Element tau(const Algebra& x);
  /// w = 2 (R21 - R12) / (2 + tr R),  v = r - (w/2) J r; rotation angle < pi.
  static Algebra tau_inv(const Element& g);
  /// dcay^{-1}_x z = vee((I - x^/2) z^ (I + x^/2)) = [[1 + w^2/4, 0], [Jv/2 + w v/4, I - w J/2]].
  static Matrix dtau_inv(const Algebra& x);
  /// (dcay^{-1}_x)^T (pi, q) = (pi (1 + w^2/4) + q.(Jv/2 + w v/4), q + (w/2) J q).
  static Algebra dtau_inv_dual(const Algebra& x, const Algebra& p);
  /// Ad_g = [[1, 0], [-J r, R]].
  static Matrix Ad(const Element& g);
  /// Ad*_g (pi, q) = (pi - r x q, R^T q), r x q = r1 q2 - r2 q1.
  static Algebra Ad_dual(const Element& g, const Algebra& mu);
  /// d/dx [(dcay^{-1}_x)^T p] = [[pi w/2 + q.v/4, (-J q/2 + w q/4)^T], [J q/2, 0]].
  static Matrix newton_M(const Algebra& x, const Algebra& p);
};

static_assert(is_lie_group<Se2Cayley>);

/// Spatial (inertial-frame) covector of a body covector mu = (pi, q): Ad*_{g^{-1}} mu =
/// (pi + r x R q, R q), r x p = r1 p2 - r2 p1 (theory (1.7.3)): the momentum maps of the planar
/// beam, angular about the origin (about the plane's normal) first, then the two linear parts.
Vec3 spatial_covector(const SE2& g, const Vec3& mu);

}  // namespace field::lie
