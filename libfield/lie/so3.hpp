#pragma once
/// SO(3) helpers: hat/vee on R^3 and conversions between rotation matrices and unit
/// quaternions (w, x, y, z), scalar first (theory §0.2, docs/conventions.md).
#include "libfield/core/types.hpp"

namespace field::lie {

/// hat: R^3 -> so(3), hat(w) u = w x u (theory §0.2).
Mat3 hat(const Vec3& w);
/// vee: so(3) -> R^3, vee(S) = (S32, S13, S21); inverse of hat on skew matrices.
Vec3 vee(const Mat3& s);

/// Unit quaternion (w, x, y, z) of a rotation matrix (w >= 0).
Vec4 quat_from_rotation(const Mat3& rotation);
/// Rotation matrix of a unit quaternion (w, x, y, z). The quaternion must be normalised.
Mat3 rotation_from_quat(const Vec4& q_wxyz);
/// Rotation by `angle` [rad] about the unit vector `axis` (Rodrigues).
Mat3 rotation_about(const Vec3& axis, double angle);

}  // namespace field::lie
