// The trapezoidal constrained DEL step against the textbook algorithms, step by step
// (docs/mechanics.md §3): velocity Verlet without constraints, the two-step SHAKE with them.
#include <gtest/gtest.h>

#include "libfield/mechanics/constrained_step.hpp"
#include "tests/mechanics/systems.hpp"

namespace field::mechanics {
namespace {

TEST(Verlet, TrapezoidalStepIsVelocityVerlet) {
  const test::Anharmonic system;
  const double h = 0.05;
  MechanicalState state{(VectorXd(2) << 0.8, -0.3).finished(),
                        (VectorXd(2) << 0.1, 0.6).finished()};
  // Textbook velocity Verlet in (q, v).
  VectorXd q = state.q, v = system.velocity(state.p);
  for (int k = 0; k < 200; ++k) {
    for (const ConstraintScheme scheme : {ConstraintScheme::shake, ConstraintScheme::rattle}) {
      const StepResult r = constrained_step(system, Quadrature::trapezoidal, scheme, h, state);
      const VectorXd half = v - 0.5 * h * system.velocity(system.potential_gradient(q));
      const VectorXd q_next = q + h * half;
      const VectorXd v_next = half - 0.5 * h * system.velocity(system.potential_gradient(q_next));
      ASSERT_LT((r.state.q - q_next).cwiseAbs().maxCoeff(), 1e-14) << k;
      ASSERT_LT((system.velocity(r.state.p) - v_next).cwiseAbs().maxCoeff(), 1e-14) << k;
      if (scheme == ConstraintScheme::rattle) state = r.state;
    }
    q = state.q;
    v = system.velocity(state.p);
  }
  // A wrong force (e.g. evaluated at the midpoint) would be off by O(h^3) per step.
  EXPECT_GT(q.norm(), 0.1);
}

TEST(Verlet, TrapezoidalStepIsStormerVerletInPositions) {
  // Position (Stormer) Verlet: q_k+1 = 2 q_k - q_k-1 - h^2 M^{-1} V'(q_k), step by step.
  const test::Anharmonic system;
  const double h = 0.05;
  MechanicalState state{(VectorXd(2) << 0.8, -0.3).finished(),
                        (VectorXd(2) << 0.1, 0.6).finished()};
  VectorXd previous;
  for (int k = 0; k < 200; ++k) {
    const MechanicalState next =
        constrained_step(system, Quadrature::trapezoidal, ConstraintScheme::shake, h, state).state;
    if (k > 0) {
      const VectorXd stormer =
          2 * state.q - previous - h * h * system.velocity(system.potential_gradient(state.q));
      ASSERT_LT((next.q - stormer).cwiseAbs().maxCoeff(), 1e-14) << k;
    }
    previous = state.q;
    state = next;
  }
}

TEST(Shake, TrapezoidalStepSolvesTheTwoStepShakeEquations) {
  // Textbook SHAKE: q_k+1 - 2 q_k + q_k-1 = -h^2 M^{-1} (V'(q_k) + G(q_k)^T Lambda_k) with
  // g(q_k+1) = 0: the left side plus h^2 M^{-1} V'(q_k) lies in the span of M^{-1} G(q_k)^T.
  const test::SphericalPendulum system;
  const double h = 0.02;
  VectorXd q = (VectorXd(3) << 1.2, 0.0, -0.9).finished();
  MechanicalState state{q, project_momentum(system, q, (VectorXd(3) << 0.3, 1.1, 0.2).finished())};
  VectorXd previous;
  for (int k = 0; k < 300; ++k) {
    const StepResult r =
        constrained_step(system, Quadrature::trapezoidal, ConstraintScheme::shake, h, state);
    ASSERT_LT(std::abs(system.constraint(r.state.q)(0)), 1e-14) << k;
    if (k > 0) {
      const VectorXd lhs = r.state.q - 2 * state.q + previous +
                           h * h * system.velocity(system.potential_gradient(state.q));
      const VectorXd direction = system.velocity(system.constraint_jacobian(state.q).transpose());
      const VectorXd off_span = lhs - direction * (direction.dot(lhs) / direction.squaredNorm());
      ASSERT_LT(off_span.cwiseAbs().maxCoeff(), 1e-14) << k;
      ASSERT_GT(lhs.cwiseAbs().maxCoeff(), 1e-6) << k;  // the constraint force is there
    }
    previous = state.q;
    state = r.state;
  }
}

}  // namespace
}  // namespace field::mechanics
