#pragma once
/// A mechanical system on a 0+1 spacetime (docs/mechanics.md §1): configuration q in R^n,
/// Lagrangian L(q, qdot) = 1/2 qdot^T M qdot - V(q) with a constant symmetric positive definite
/// mass matrix M, and m holonomic constraints g(q) = 0 (m may be 0). A concrete system
/// overrides the potential and the constraints; the discrete Lagrangians (discrete_lagrangian.hpp)
/// and the constrained steps (constrained_step.hpp) only use this interface.
#include <Eigen/Cholesky>
#include <Eigen/Core>

namespace field::mechanics {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

class MechanicalSystem {
 public:
  /// Throws field::Error when `mass` is not square, symmetric and positive definite.
  explicit MechanicalSystem(MatrixXd mass);
  virtual ~MechanicalSystem() = default;

  /// n, the dimension of the configuration space.
  Index dimension() const { return mass_.rows(); }
  /// M.
  const MatrixXd& mass() const { return mass_; }
  /// M^{-1} p: the velocity of a momentum.
  VectorXd velocity(const VectorXd& p) const { return mass_llt_.solve(p); }
  /// 1/2 p^T M^{-1} p + V(q): the energy (Hamiltonian) of a state.
  double energy(const VectorXd& q, const VectorXd& p) const;

  /// V(q) [J].
  virtual double potential(const VectorXd& q) const;
  /// dV/dq (the negative of the applied force).
  virtual VectorXd potential_gradient(const VectorXd& q) const;
  /// d^2V/dq^2 (used by Newton with the midpoint discrete Lagrangian only).
  virtual MatrixXd potential_hessian(const VectorXd& q) const;

  /// m, the number of constraints.
  virtual Index constraint_count() const { return 0; }
  /// g(q) in R^m.
  virtual VectorXd constraint(const VectorXd& q) const;
  /// G(q) = Dg(q), m x n.
  virtual MatrixXd constraint_jacobian(const VectorXd& q) const;

 private:
  MatrixXd mass_;
  Eigen::LLT<MatrixXd> mass_llt_;
};

}  // namespace field::mechanics
