// Observed order 2 of both discrete Lagrangians on the anharmonic oscillator, in q and in the
// energy error, against a fine solution (docs/mechanics.md §2).
#include <gtest/gtest.h>

#include <cmath>

#include "libfield/mechanics/constrained_step.hpp"
#include "tests/mechanics/systems.hpp"

namespace field::mechanics {
namespace {

class OrderTest : public ::testing::TestWithParam<Quadrature> {};

MechanicalState run(const MechanicalSystem& system, Quadrature quadrature, int steps) {
  MechanicalState s{(VectorXd(2) << 0.8, -0.3).finished(), (VectorXd(2) << 0.1, 0.6).finished()};
  for (int k = 0; k < steps; ++k)
    s = constrained_step(system, quadrature, ConstraintScheme::rattle, 2.0 / steps, s).state;
  return s;
}

TEST_P(OrderTest, PositionErrorAtTEqualsTwo) {
  const test::Anharmonic system;
  const MechanicalState reference = run(system, GetParam(), 6400);
  const double e1 = (run(system, GetParam(), 50).q - reference.q).norm();
  const double e2 = (run(system, GetParam(), 100).q - reference.q).norm();
  const double order = std::log2(e1 / e2);
  EXPECT_GE(order, 1.8) << e1 << " " << e2;
  EXPECT_LE(order, 2.2) << e1 << " " << e2;
}

TEST_P(OrderTest, EnergyErrorIsOfOrderTwo) {
  const test::Anharmonic system;
  const MechanicalState s0 = run(system, GetParam(), 0);
  const double e0 = system.energy(s0.q, s0.p);
  const MechanicalState a = run(system, GetParam(), 50), b = run(system, GetParam(), 100);
  const double order =
      std::log2(std::abs(system.energy(a.q, a.p) - e0) / std::abs(system.energy(b.q, b.p) - e0));
  EXPECT_GE(order, 1.8);
  EXPECT_LE(order, 2.2);
}

INSTANTIATE_TEST_SUITE_P(Quadratures, OrderTest,
                         ::testing::Values(Quadrature::trapezoidal, Quadrature::midpoint),
                         [](const auto& p) { return std::string(quadrature_name(p.param)); });

}  // namespace
}  // namespace field::mechanics
