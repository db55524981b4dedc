#include "libfield/mechanics/discrete_lagrangian.hpp"

#include "libfield/core/error.hpp"

namespace field::mechanics {

const char* quadrature_name(Quadrature quadrature) {
  return quadrature == Quadrature::trapezoidal ? "trapezoidal" : "midpoint";
}

double discrete_lagrangian(const MechanicalSystem& system, Quadrature quadrature, double h,
                           const VectorXd& q0, const VectorXd& q1) {
  const VectorXd v = (q1 - q0) / h;
  const double kinetic = 0.5 * h * v.dot(system.mass() * v);
  if (quadrature == Quadrature::trapezoidal)
    return kinetic - 0.5 * h * (system.potential(q0) + system.potential(q1));
  return kinetic - h * system.potential(0.5 * (q0 + q1));
}

VectorXd d1_discrete_lagrangian(const MechanicalSystem& system, Quadrature quadrature, double h,
                                const VectorXd& q0, const VectorXd& q1) {
  const VectorXd mv = system.mass() * ((q1 - q0) / h);
  const VectorXd& force_at = quadrature == Quadrature::trapezoidal ? q0 : VectorXd(0.5 * (q0 + q1));
  return -mv - 0.5 * h * system.potential_gradient(force_at);
}

VectorXd d2_discrete_lagrangian(const MechanicalSystem& system, Quadrature quadrature, double h,
                                const VectorXd& q0, const VectorXd& q1) {
  const VectorXd mv = system.mass() * ((q1 - q0) / h);
  const VectorXd& force_at = quadrature == Quadrature::trapezoidal ? q1 : VectorXd(0.5 * (q0 + q1));
  return mv - 0.5 * h * system.potential_gradient(force_at);
}

MatrixXd d1_discrete_lagrangian_d_q1(const MechanicalSystem& system, Quadrature quadrature,
                                     double h, const VectorXd& q0, const VectorXd& q1) {
  MatrixXd jacobian = -system.mass() / h;
  if (quadrature == Quadrature::midpoint)
    jacobian -= 0.25 * h * system.potential_hessian(0.5 * (q0 + q1));
  return jacobian;
}

}  // namespace field::mechanics
