// D1 L_d, D2 L_d and d/dq1 D1 L_d against central differences (docs/mechanics.md §2).
#include <gtest/gtest.h>

#include "libfield/mechanics/discrete_lagrangian.hpp"
#include "tests/mechanics/systems.hpp"

namespace field::mechanics {
namespace {

class DiscreteLagrangianTest : public ::testing::TestWithParam<Quadrature> {};

TEST_P(DiscreteLagrangianTest, SlotDerivativesMatchCentralDifferences) {
  const test::Anharmonic system;
  const Quadrature quadrature = GetParam();
  const double h = 0.1, e = 1e-6;
  const VectorXd q0 = (VectorXd(2) << 0.3, -0.7).finished();
  const VectorXd q1 = (VectorXd(2) << 0.45, -0.62).finished();
  const VectorXd d1 = d1_discrete_lagrangian(system, quadrature, h, q0, q1);
  const VectorXd d2 = d2_discrete_lagrangian(system, quadrature, h, q0, q1);
  const MatrixXd d1q1 = d1_discrete_lagrangian_d_q1(system, quadrature, h, q0, q1);
  for (Index i = 0; i < 2; ++i) {
    const VectorXd de = VectorXd::Unit(2, i) * e;
    const double fd1 = (discrete_lagrangian(system, quadrature, h, q0 + de, q1) -
                        discrete_lagrangian(system, quadrature, h, q0 - de, q1)) /
                       (2 * e);
    const double fd2 = (discrete_lagrangian(system, quadrature, h, q0, q1 + de) -
                        discrete_lagrangian(system, quadrature, h, q0, q1 - de)) /
                       (2 * e);
    EXPECT_NEAR(d1(i), fd1, 1e-8 * (1 + std::abs(fd1))) << i;
    EXPECT_NEAR(d2(i), fd2, 1e-8 * (1 + std::abs(fd2))) << i;
    const VectorXd column = (d1_discrete_lagrangian(system, quadrature, h, q0, q1 + de) -
                             d1_discrete_lagrangian(system, quadrature, h, q0, q1 - de)) /
                            (2 * e);
    EXPECT_LT((d1q1.col(i) - column).cwiseAbs().maxCoeff(), 1e-7) << i;
  }
}

TEST_P(DiscreteLagrangianTest, ApproximatesTheActionOfALinearMotionToSecondOrder) {
  // Free particle: L_d is exact for straight lines, whatever the quadrature.
  const MechanicalSystem free(MatrixXd::Identity(2, 2) * 3.0);
  const VectorXd q0 = (VectorXd(2) << 1.0, 2.0).finished(),
                 q1 = (VectorXd(2) << 1.5, 1.0).finished();
  const double h = 0.25;
  EXPECT_DOUBLE_EQ(discrete_lagrangian(free, GetParam(), h, q0, q1),
                   0.5 * 3.0 * (q1 - q0).squaredNorm() / h);
}

INSTANTIATE_TEST_SUITE_P(Quadratures, DiscreteLagrangianTest,
                         ::testing::Values(Quadrature::trapezoidal, Quadrature::midpoint),
                         [](const auto& p) { return std::string(quadrature_name(p.param)); });

}  // namespace
}  // namespace field::mechanics
