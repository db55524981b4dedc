#include "libfield/mechanics/momentum_map.hpp"

#include "libfield/lie/so3.hpp"

namespace field::mechanics {

double momentum_map(const LinearSymmetry& symmetry, const VectorXd& q, const VectorXd& p) {
  return p.dot(symmetry.a * q + symmetry.b);
}

LinearSymmetry rotation_symmetry(const Vec3& axis, Index points) {
  LinearSymmetry symmetry{MatrixXd::Zero(3 * points, 3 * points), VectorXd::Zero(3 * points)};
  const Mat3 a = lie::hat(axis);
  for (Index i = 0; i < points; ++i) symmetry.a.block<3, 3>(3 * i, 3 * i) = a;
  return symmetry;
}

}  // namespace field::mechanics
