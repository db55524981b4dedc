#include "libfield/mechanics/rotation_matrix_body.hpp"

#include <Eigen/Cholesky>

#include "libfield/lie/so3.hpp"
#include "libfield/mechanics/rigid_body.hpp"

namespace field::mechanics {

namespace {
MatrixXd embedded_mass(const Mat3& inertia) {
  const Mat3 jd = matrix_inertia(inertia);
  MatrixXd mass(9, 9);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) mass.block<3, 3>(3 * i, 3 * j) = jd(i, j) * Mat3::Identity();
  return mass;
}
// The pairs (i, j) of the constraints, in order.
constexpr int kPairs[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
}  // namespace

RotationMatrixBody::RotationMatrixBody(const Mat3& inertia)
    : MechanicalSystem(embedded_mass(inertia)), inertia_(inertia) {}

VectorXd RotationMatrixBody::constraint(const VectorXd& q) const {
  VectorXd g(6);
  for (int c = 0; c < 6; ++c) {
    const int i = kPairs[c][0], j = kPairs[c][1];
    const double dot = q.segment<3>(3 * i).dot(q.segment<3>(3 * j));
    g(c) = i == j ? 0.5 * (dot - 1.0) : dot;
  }
  return g;
}

MatrixXd RotationMatrixBody::constraint_jacobian(const VectorXd& q) const {
  MatrixXd g = MatrixXd::Zero(6, 9);
  for (int c = 0; c < 6; ++c) {
    const int i = kPairs[c][0], j = kPairs[c][1];
    if (i == j) {
      g.block<1, 3>(c, 3 * i) = q.segment<3>(3 * i).transpose();
    } else {
      g.block<1, 3>(c, 3 * i) = q.segment<3>(3 * j).transpose();
      g.block<1, 3>(c, 3 * j) = q.segment<3>(3 * i).transpose();
    }
  }
  return g;
}

VectorXd RotationMatrixBody::to_vector(const Mat3& rotation) {
  return Eigen::Map<const VectorXd>(rotation.data(), 9);  // column-major: the columns in order
}

Mat3 RotationMatrixBody::to_matrix(const VectorXd& q) {
  return Eigen::Map<const Mat3>(q.data());
}

VectorXd RotationMatrixBody::momentum(const Mat3& rotation, const Vec3& body_momentum) const {
  const Vec3 omega = inertia_.ldlt().solve(body_momentum);
  return mass() * to_vector(rotation * lie::hat(omega));
}

Vec3 RotationMatrixBody::body_momentum(const VectorXd& q, const VectorXd& p) {
  const Mat3 rotation = to_matrix(q);
  Vec3 pi;
  for (int i = 0; i < 3; ++i) pi(i) = to_vector(rotation * lie::hat(Vec3::Unit(i))).dot(p);
  return pi;
}

}  // namespace field::mechanics
