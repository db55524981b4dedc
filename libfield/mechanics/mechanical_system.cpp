#include "libfield/mechanics/mechanical_system.hpp"

#include "libfield/core/error.hpp"

namespace field::mechanics {

MechanicalSystem::MechanicalSystem(MatrixXd mass) : mass_(std::move(mass)) {
  FIELD_CHECK(mass_.rows() > 0 && mass_.rows() == mass_.cols(),
              "mechanics: the mass matrix must be square and non-empty, got "
                  << mass_.rows() << " x " << mass_.cols());
  FIELD_CHECK(
      (mass_ - mass_.transpose()).cwiseAbs().maxCoeff() <= 1e-14 * mass_.cwiseAbs().maxCoeff(),
      "mechanics: the mass matrix must be symmetric");
  mass_llt_.compute(mass_);
  FIELD_CHECK(mass_llt_.info() == Eigen::Success,
              "mechanics: the mass matrix must be positive definite");
}

double MechanicalSystem::energy(const VectorXd& q, const VectorXd& p) const {
  return 0.5 * p.dot(velocity(p)) + potential(q);
}

double MechanicalSystem::potential(const VectorXd&) const {
  return 0.0;
}

VectorXd MechanicalSystem::potential_gradient(const VectorXd&) const {
  return VectorXd::Zero(dimension());
}

MatrixXd MechanicalSystem::potential_hessian(const VectorXd&) const {
  return MatrixXd::Zero(dimension(), dimension());
}

VectorXd MechanicalSystem::constraint(const VectorXd&) const {
  return VectorXd(0);
}

MatrixXd MechanicalSystem::constraint_jacobian(const VectorXd&) const {
  return MatrixXd(0, dimension());
}

}  // namespace field::mechanics
