// The discrete Noether theorem (docs/mechanics.md §4): the momentum map of a symmetry of L_d and
// g is conserved to round-off by SHAKE and RATTLE, with either quadrature.
#include <gtest/gtest.h>

#include <tuple>

#include "libfield/mechanics/constrained_step.hpp"
#include "libfield/mechanics/double_pendulum.hpp"
#include "libfield/mechanics/momentum_map.hpp"
#include "tests/mechanics/systems.hpp"

namespace field::mechanics {
namespace {

using Case = std::tuple<Quadrature, ConstraintScheme>;
class NoetherTest : public ::testing::TestWithParam<Case> {};

TEST_P(NoetherTest, AngularMomentumAboutTheVerticalIsConserved) {
  const auto [quadrature, scheme] = GetParam();
  const test::SphericalPendulum system;  // V and g are invariant under rotations about e_z
  const LinearSymmetry symmetry = rotation_symmetry(Vec3::UnitZ(), 1);
  const VectorXd q = (VectorXd(3) << 1.2, 0.0, -0.9).finished();
  MechanicalState state{q, project_momentum(system, q, (VectorXd(3) << 0.3, 1.1, 0.2).finished())};
  const double j0 = momentum_map(symmetry, state.q, state.p);
  ASSERT_GT(std::abs(j0), 0.5);
  double drift = 0.0;
  for (int k = 0; k < 1000; ++k) {
    state = constrained_step(system, quadrature, scheme, 0.02, state).state;
    drift = std::max(drift, std::abs(momentum_map(symmetry, state.q, state.p) - j0));
  }
  EXPECT_LT(drift, 1e-13 * std::abs(j0));
}

TEST_P(NoetherTest, AMomentumThatIsNotASymmetryIsNotConserved) {
  // The same map about e_x: gravity breaks the symmetry, J_x changes (the test above can fail).
  const auto [quadrature, scheme] = GetParam();
  const test::SphericalPendulum system;
  const LinearSymmetry symmetry = rotation_symmetry(Vec3::UnitX(), 1);
  const VectorXd q = (VectorXd(3) << 1.2, 0.0, -0.9).finished();
  MechanicalState state{q, project_momentum(system, q, (VectorXd(3) << 0.3, 1.1, 0.2).finished())};
  const double j0 = momentum_map(symmetry, state.q, state.p);
  for (int k = 0; k < 100; ++k)
    state = constrained_step(system, quadrature, scheme, 0.02, state).state;
  EXPECT_GT(std::abs(momentum_map(symmetry, state.q, state.p) - j0), 1e-3);
}

INSTANTIATE_TEST_SUITE_P(
    Schemes, NoetherTest,
    ::testing::Combine(::testing::Values(Quadrature::trapezoidal, Quadrature::midpoint),
                       ::testing::Values(ConstraintScheme::shake, ConstraintScheme::rattle)),
    [](const auto& p) {
      return std::string(quadrature_name(std::get<0>(p.param))) + "_" +
             scheme_name(std::get<1>(p.param));
    });

TEST(Noether, TranslationMomentumOfAFreeSystemIsConserved) {
  // Two particles with an interaction that depends on q1 - q0 only: b = (1, 1), A = 0.
  struct Pair : MechanicalSystem {
    Pair() : MechanicalSystem((MatrixXd(2, 2) << 1.0, 0.0, 0.0, 3.0).finished()) {}
    double potential(const VectorXd& q) const override { return std::cosh(q(1) - q(0)); }
    VectorXd potential_gradient(const VectorXd& q) const override {
      const double s = std::sinh(q(1) - q(0));
      return (VectorXd(2) << -s, s).finished();
    }
    MatrixXd potential_hessian(const VectorXd& q) const override {
      const double c = std::cosh(q(1) - q(0));
      return (MatrixXd(2, 2) << c, -c, -c, c).finished();
    }
  } system;
  const LinearSymmetry translation{MatrixXd::Zero(2, 2), VectorXd::Ones(2)};
  for (const Quadrature quadrature : {Quadrature::trapezoidal, Quadrature::midpoint}) {
    MechanicalState state{(VectorXd(2) << 0.0, 1.0).finished(),
                          (VectorXd(2) << 2.0, -0.5).finished()};
    const double j0 = momentum_map(translation, state.q, state.p);
    for (int k = 0; k < 500; ++k)
      state = constrained_step(system, quadrature, ConstraintScheme::rattle, 0.05, state).state;
    // Round-off: p_k+1 = M (q_k+1 - q_k)/h + ... carries eps |q| |M| / h ~ 1e-12 (|q| ~ 50).
    EXPECT_NEAR(momentum_map(translation, state.q, state.p), j0, 1e-11);
  }
}

}  // namespace
}  // namespace field::mechanics
