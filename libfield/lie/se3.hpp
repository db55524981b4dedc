#pragma once
/// The special Euclidean group SE(3) (theory §0.2): g = (Lambda, r), Lambda in SO(3) whose columns
/// are the directors d1, d2, d3 in space, r the centre-line point. se(3) vectors are (omega, v),
/// se(3)* covectors (moment, force), rotation first; the dual pairing is the dot product.
#include "libfield/core/types.hpp"

namespace field::lie {

/// Element of SE(3), stored as rotation matrix R (= Lambda) and translation r.
struct SE3 {
  Mat3 R = Mat3::Identity();  ///< rotation Lambda, columns d1 d2 d3 in space
  Vec3 r = Vec3::Zero();      ///< translation (centre line) [m]

  static SE3 identity() { return SE3{}; }
  /// Group element from a unit quaternion (w, x, y, z) and a translation.
  static SE3 from_quat(const Vec4& q_wxyz, const Vec3& translation);
  /// Group element from a homogeneous 4x4 matrix [[R, r], [0, 1]].
  static SE3 from_matrix(const Mat4& m);

  /// Product (R1, r1)(R2, r2) = (R1 R2, R1 r2 + r1).
  SE3 operator*(const SE3& h) const { return SE3{R * h.R, R * h.r + r}; }
  /// Inverse (R^T, -R^T r).
  SE3 inverse() const { return SE3{R.transpose(), -(R.transpose() * r)}; }
  /// Action on a point p: R p + r.
  Vec3 act(const Vec3& p) const { return R * p + r; }
  /// Homogeneous matrix [[R, r], [0, 1]].
  Mat4 matrix() const;
  /// Unit quaternion (w, x, y, z), w >= 0, of the rotation.
  Vec4 quat() const;
};

/// hat on R^6: x = (omega, v) -> [[omega^, v], [0, 0]] (theory §0.2).
Mat4 hat6(const Vec6& x);
/// vee on se(3): inverse of hat6.
Vec6 vee6(const Mat4& m);

/// Adjoint Ad_g = [[R, 0], [r^ R, R]], (Ad_g x)^ = g x^ g^{-1} (theory §0.2).
Mat6 Ad(const SE3& g);
/// Adjoint of the algebra ad_x = [[omega^, 0], [v^, omega^]], ad_x y = [x, y] (theory §0.2).
Mat6 ad(const Vec6& x);
/// Coadjoint Ad*_g mu := (Ad_g)^T mu = (R^T (pi - r x p), R^T p) for mu = (pi, p) (theory §0.2).
Vec6 Ad_dual(const SE3& g, const Vec6& mu);
/// ad*_x mu := (ad_x)^T mu = (pi x omega + p x v, p x omega) (theory §0.2).
Vec6 ad_dual(const Vec6& x, const Vec6& mu);
/// Spatial (inertial-frame) covector of a body covector: Ad*_{g^{-1}} mu = (R pi + r x R p, R p)
/// (theory §0.2; the momentum maps of theory §7.1 and the loads of theory §1.4).
Vec6 spatial_covector(const SE3& g, const Vec6& mu);

}  // namespace field::lie
