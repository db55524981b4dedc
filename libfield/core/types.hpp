#pragma once
/// Fixed-size linear-algebra types used throughout libfield (theory §0.2).
#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products

namespace field {

using Vec3 = Eigen::Matrix<double, 3, 1>;
using Mat3 = Eigen::Matrix<double, 3, 3>;
using Vec4 = Eigen::Matrix<double, 4, 1>;
using Mat4 = Eigen::Matrix<double, 4, 4>;
/// se(3) vector (omega, v) or se(3)* covector (moment, force): rotation first, theory §0.2.
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

}  // namespace field
