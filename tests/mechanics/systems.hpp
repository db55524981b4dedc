#pragma once
// Small systems for the mechanics tests.
#include <cmath>

#include "libfield/mechanics/mechanical_system.hpp"

namespace field::mechanics::test {

/// Two coupled anharmonic oscillators with a non-diagonal mass matrix:
/// V = 1/2 q^T K q + c/4 (q0^4 + q1^4), M = [[2, 0.5], [0.5, 1]].
class Anharmonic : public MechanicalSystem {
 public:
  Anharmonic() : MechanicalSystem((MatrixXd(2, 2) << 2.0, 0.5, 0.5, 1.0).finished()) {}
  double potential(const VectorXd& q) const override {
    return 0.5 * q.dot(k() * q) + 0.25 * c * (std::pow(q(0), 4) + std::pow(q(1), 4));
  }
  VectorXd potential_gradient(const VectorXd& q) const override {
    return k() * q + c * VectorXd(q.array().cube());
  }
  MatrixXd potential_hessian(const VectorXd& q) const override {
    return k() + MatrixXd(VectorXd(3 * c * q.array().square()).asDiagonal());
  }
  static MatrixXd k() { return (MatrixXd(2, 2) << 3.0, -1.0, -1.0, 2.0).finished(); }
  double c = 0.7;
};

/// A point mass on a sphere of radius r about the origin, in the field V = a . q + 1/4 |q|^4:
/// rotations about a are a symmetry; V is non-linear, so the midpoint and trapezoidal rules
/// differ.
class SphericalPendulum : public MechanicalSystem {
 public:
  SphericalPendulum() : MechanicalSystem(1.3 * MatrixXd::Identity(3, 3)) {}
  double potential(const VectorXd& q) const override {
    return 9.81 * q(2) + 0.25 * std::pow(q.squaredNorm(), 2) + 0.3 * std::pow(q(2), 3);
  }
  VectorXd potential_gradient(const VectorXd& q) const override {
    VectorXd g = q.squaredNorm() * q;
    g(2) += 9.81 + 0.9 * q(2) * q(2);
    return g;
  }
  MatrixXd potential_hessian(const VectorXd& q) const override {
    MatrixXd h = q.squaredNorm() * MatrixXd::Identity(3, 3) + 2 * q * q.transpose();
    h(2, 2) += 1.8 * q(2);
    return h;
  }
  Index constraint_count() const override { return 1; }
  VectorXd constraint(const VectorXd& q) const override {
    return VectorXd::Constant(1, (q.squaredNorm() - r * r) / (2 * r));
  }
  MatrixXd constraint_jacobian(const VectorXd& q) const override { return q.transpose() / r; }
  double r = 1.5;
};

}  // namespace field::mechanics::test
