#include "libfield/mechanics/double_pendulum.hpp"

#include <algorithm>
#include <cmath>

#include "libfield/core/error.hpp"

namespace field::mechanics {

namespace {
MatrixXd pendulum_mass(const DoublePendulumParameters& p) {
  FIELD_CHECK(p.m1 > 0 && p.m2 > 0 && std::isfinite(p.m1) && std::isfinite(p.m2),
              "double pendulum: the masses must be positive, got " << p.m1 << ", " << p.m2);
  FIELD_CHECK(p.l1 > 0 && p.l2 > 0 && std::isfinite(p.l1) && std::isfinite(p.l2),
              "double pendulum: the lengths must be positive, got " << p.l1 << ", " << p.l2);
  FIELD_CHECK(p.gravity >= 0 && std::isfinite(p.gravity),
              "double pendulum: gravity must be non-negative, got " << p.gravity);
  VectorXd diagonal(6);
  diagonal << p.m1, p.m1, p.m1, p.m2, p.m2, p.m2;
  return diagonal.asDiagonal();
}
}  // namespace

DoublePendulum::DoublePendulum(const DoublePendulumParameters& parameters)
    : MechanicalSystem(pendulum_mass(parameters)), parameters_(parameters) {}

double DoublePendulum::potential(const VectorXd& q) const {
  return parameters_.gravity * (parameters_.m1 * q(2) + parameters_.m2 * q(5));
}

VectorXd DoublePendulum::potential_gradient(const VectorXd&) const {
  VectorXd gradient = VectorXd::Zero(6);
  gradient(2) = parameters_.gravity * parameters_.m1;
  gradient(5) = parameters_.gravity * parameters_.m2;
  return gradient;
}

VectorXd DoublePendulum::constraint(const VectorXd& q) const {
  const Vec3 q1 = q.head<3>(), link = q.tail<3>() - q.head<3>();
  const double l1 = parameters_.l1, l2 = parameters_.l2;
  VectorXd g(2);
  g << (q1.squaredNorm() - l1 * l1) / (2 * l1), (link.squaredNorm() - l2 * l2) / (2 * l2);
  return g;
}

MatrixXd DoublePendulum::constraint_jacobian(const VectorXd& q) const {
  const Vec3 q1 = q.head<3>(), link = q.tail<3>() - q.head<3>();
  MatrixXd g = MatrixXd::Zero(2, 6);
  g.block<1, 3>(0, 0) = q1.transpose() / parameters_.l1;
  g.block<1, 3>(1, 0) = -link.transpose() / parameters_.l2;
  g.block<1, 3>(1, 3) = link.transpose() / parameters_.l2;
  return g;
}

double DoublePendulum::length_error(const VectorXd& q) const {
  const Vec3 q1 = q.head<3>(), link = q.tail<3>() - q.head<3>();
  return std::max(std::abs(q1.norm() - parameters_.l1), std::abs(link.norm() - parameters_.l2));
}

VectorXd double_pendulum_position(const DoublePendulumParameters& parameters, double theta1,
                                  double phi1, double theta2, double phi2) {
  const auto rod = [](double theta, double phi) {
    return Vec3(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), -std::cos(theta));
  };
  VectorXd q(6);
  q.head<3>() = parameters.l1 * rod(theta1, phi1);
  q.tail<3>() = q.head<3>() + parameters.l2 * rod(theta2, phi2);
  return q;
}

}  // namespace field::mechanics
