// SHAKE and RATTLE (docs/mechanics.md §3): constraints to round-off, the same positions, RATTLE's
// tangent momenta, and Newton's failure message.
#include <gtest/gtest.h>

#include <string>

#include "libfield/mechanics/constrained_step.hpp"
#include "tests/mechanics/systems.hpp"

namespace field::mechanics {
namespace {

MechanicalState start(const MechanicalSystem& system) {
  const VectorXd q = (VectorXd(3) << 1.2, 0.0, -0.9).finished();
  return {q, project_momentum(system, q, (VectorXd(3) << 0.3, 1.1, 0.2).finished())};
}

class ShakeRattleTest : public ::testing::TestWithParam<Quadrature> {};

TEST_P(ShakeRattleTest, RattleHasShakesPositionsAndTangentMomenta) {
  const test::SphericalPendulum system;
  const double h = 0.03;
  MechanicalState shake = start(system), rattle = shake;
  ASSERT_LT(std::abs(system.constraint(shake.q)(0)), 1e-15);
  double largest_difference = 0.0;
  for (int k = 0; k < 400; ++k) {
    shake = constrained_step(system, GetParam(), ConstraintScheme::shake, h, shake).state;
    const StepResult r = constrained_step(system, GetParam(), ConstraintScheme::rattle, h, rattle);
    rattle = r.state;
    ASSERT_LT((shake.q - rattle.q).cwiseAbs().maxCoeff(), 1e-12) << k;
    ASSERT_LT(std::abs(system.constraint(shake.q)(0)), 1e-14) << k;
    ASSERT_LT(std::abs(system.constraint(rattle.q)(0)), 1e-14) << k;
    // RATTLE: G(q) M^{-1} p = 0 (tangent velocity); SHAKE's momentum is not tangent.
    const double tangency = (system.constraint_jacobian(rattle.q) * system.velocity(rattle.p))(0);
    ASSERT_LT(std::abs(tangency), 1e-13) << k;
    largest_difference = std::max(largest_difference, (shake.p - rattle.p).cwiseAbs().maxCoeff());
    ASSERT_EQ(r.mu.size(), 1);
  }
  EXPECT_GT(largest_difference, 1e-4);  // the projection did something
}

INSTANTIATE_TEST_SUITE_P(Quadratures, ShakeRattleTest,
                         ::testing::Values(Quadrature::trapezoidal, Quadrature::midpoint),
                         [](const auto& p) { return std::string(quadrature_name(p.param)); });

TEST(ShakeRattle, NewtonFailureSaysWhereAndWhatToDo) {
  const test::SphericalPendulum system;
  NewtonOptions options;
  options.max_iterations = 2;
  try {
    constrained_step(system, Quadrature::midpoint, ConstraintScheme::shake, 0.5, start(system),
                     options, 17);
    FAIL() << "no NewtonFailure";
  } catch (const NewtonFailure& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("did not converge at step 17"), std::string::npos) << m;
    EXPECT_NE(m.find("h = 0.5"), std::string::npos) << m;
    EXPECT_NE(m.find("constraint residual"), std::string::npos) << m;
    EXPECT_NE(m.find("smaller time step"), std::string::npos) << m;
  }
}

TEST(ShakeRattle, NewtonConvergesQuadratically) {
  const test::SphericalPendulum system;
  const StepResult r =
      constrained_step(system, Quadrature::midpoint, ConstraintScheme::rattle, 0.03, start(system));
  EXPECT_LE(r.iterations, 5);
}

}  // namespace
}  // namespace field::mechanics
