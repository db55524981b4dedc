// The double spherical pendulum (docs/mechanics.md §5): the constraint Jacobian, rod lengths to
// round-off at every step, J_z to round-off, observed order 2 against a fine solution.
#include <gtest/gtest.h>

#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/mechanics/constrained_step.hpp"
#include "libfield/mechanics/double_pendulum.hpp"
#include "libfield/mechanics/momentum_map.hpp"

namespace field::mechanics {
namespace {

DoublePendulumParameters parameters() {
  DoublePendulumParameters p;
  p.m1 = 1.0;
  p.m2 = 0.7;
  p.l1 = 1.2;
  p.l2 = 0.8;
  return p;
}

MechanicalState start(const DoublePendulum& system) {
  const VectorXd q = double_pendulum_position(system.parameters(), 1.0, 0.0, 2.0, 0.5);
  VectorXd v(6);
  v << 0.0, 1.5, 0.3, -0.8, 0.4, 0.9;
  return {q, project_momentum(system, q, system.mass() * v)};
}

MechanicalState run(const DoublePendulum& system, ConstraintScheme scheme, double h, int steps) {
  MechanicalState s = start(system);
  for (int k = 0; k < steps; ++k)
    s = constrained_step(system, Quadrature::trapezoidal, scheme, h, s).state;
  return s;
}

TEST(DoublePendulum, ConstraintJacobianMatchesCentralDifferences) {
  const DoublePendulum system(parameters());
  const VectorXd q = start(system).q + VectorXd::LinSpaced(6, 0.1, 0.3);
  const MatrixXd g = system.constraint_jacobian(q);
  for (Index i = 0; i < 6; ++i) {
    const VectorXd e = VectorXd::Unit(6, i) * 1e-6;
    const VectorXd fd = (system.constraint(q + e) - system.constraint(q - e)) / 2e-6;
    EXPECT_LT((g.col(i) - fd).cwiseAbs().maxCoeff(), 1e-9) << i;
  }
  EXPECT_LT(system.constraint(start(system).q).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(DoublePendulum, RejectsNonPhysicalParameters) {
  DoublePendulumParameters p = parameters();
  p.l2 = 0.0;
  EXPECT_THROW(DoublePendulum{p}, Error);
}

TEST(DoublePendulum, RodLengthsAndVerticalAngularMomentumToRoundOff) {
  const DoublePendulum system(parameters());
  const LinearSymmetry about_z = rotation_symmetry(Vec3::UnitZ(), 2);
  for (const ConstraintScheme scheme : {ConstraintScheme::shake, ConstraintScheme::rattle}) {
    MechanicalState s = start(system);
    const double j0 = momentum_map(about_z, s.q, s.p);
    ASSERT_GT(std::abs(j0), 0.5);
    double length_error = 0.0, drift = 0.0;
    for (int k = 0; k < 2000; ++k) {
      s = constrained_step(system, Quadrature::trapezoidal, scheme, 0.01, s).state;
      length_error = std::max(length_error, system.length_error(s.q));
      drift = std::max(drift, std::abs(momentum_map(about_z, s.q, s.p) - j0));
    }
    EXPECT_LT(length_error, 1e-14) << scheme_name(scheme);
    EXPECT_LT(drift, 1e-13) << scheme_name(scheme);
  }
}

TEST(DoublePendulum, ObservedOrderIsTwo) {
  // Errors at t = 1 of h = 1/50 and 1/100 against h = 1/6400.
  const DoublePendulum system(parameters());
  for (const ConstraintScheme scheme : {ConstraintScheme::shake, ConstraintScheme::rattle}) {
    const MechanicalState reference = run(system, scheme, 1.0 / 6400, 6400);
    const double e1 = (run(system, scheme, 1.0 / 50, 50).q - reference.q).norm();
    const double e2 = (run(system, scheme, 1.0 / 100, 100).q - reference.q).norm();
    const double order = std::log2(e1 / e2);
    EXPECT_GE(order, 1.8) << scheme_name(scheme) << " " << e1 << " " << e2;
    EXPECT_LE(order, 2.2) << scheme_name(scheme) << " " << e1 << " " << e2;
  }
}

}  // namespace
}  // namespace field::mechanics
