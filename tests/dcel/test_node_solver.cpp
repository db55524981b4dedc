// theory §5: the per-node Newton solve Phi(y) = (dtau^{-1}_{hy})^T p(y) = m.
#include <gtest/gtest.h>

#include "libfield/dcel/node_solver.hpp"
#include "tests/support/finite_difference.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/problems.hpp"

namespace field::dcel {
namespace {

template <class G>
class NodeSolver : public ::testing::Test {
 protected:
  model::BeamDensity beam_ = test::soft_beam();
};
TYPED_TEST_SUITE(NodeSolver, test::Se3Groups, test::GroupNames);

TYPED_TEST(NodeSolver, RecoversManufacturedSolution) {
  // m = Phi(y*) for random y*; Newton from a distant start returns y* to round-off.
  test::Random rnd(201);
  for (NodeEquation eq : {NodeEquation::time, NodeEquation::space}) {
    const double h = eq == NodeEquation::time ? 0.005 : 0.1;
    for (int trial = 0; trial < 50; ++trial) {
      Vec6 y_star = rnd.vec6(eq == NodeEquation::time ? 5.0 : 0.5);
      if (eq == NodeEquation::space) y_star += this->beam_.reference_strain();
      const Vec6 m = node_phi<TypeParam>(this->beam_, eq, h, y_star);
      // The theory's fallback start K^{-1} m + y0 (the linearisation at h = 0).
      const Vec6 y0 = eq == NodeEquation::time ? Vec6::Zero() : this->beam_.reference_strain();
      Vec6 y = y0 + this->beam_.kinetic_hessian(y0).inverse() * m;
      if (eq == NodeEquation::space) y = y0 + this->beam_.stress_hessian(y0).inverse() * m;
      const NodeSolveReport r = solve_node<TypeParam>(this->beam_, eq, h, m, y);
      EXPECT_TRUE(r.converged);
      EXPECT_LT((y - y_star).cwiseAbs().maxCoeff() / y_star.cwiseAbs().maxCoeff(), 1e-13)
          << lie::retraction_name<TypeParam>() << " y* = " << y_star.transpose();
      EXPECT_LT(r.residual, 1e-12 * std::max(1.0, m.cwiseAbs().maxCoeff()));
    }
  }
}

TYPED_TEST(NodeSolver, ConvergesFastFromPreviousValue) {
  // Targets like those of the theory's cases: free-flight velocities (|xi| ~ 5, dt = 0.005) and
  // space-evolution strains (|eta - E6| ~ 0.15, ds = 0.1); the start is the previous step's value,
  // off by a few per cent. theory §5: 4-5 iterations including the polishing one; at most 6.
  test::Random rnd(202);
  for (int trial = 0; trial < 100; ++trial) {
    Vec6 xi_star;
    xi_star << rnd.vec3(5.0), rnd.vec3(2.0);
    const Vec6 m = node_phi<TypeParam>(this->beam_, NodeEquation::time, 0.005, xi_star);
    Vec6 xi = xi_star + 0.05 * rnd.vec6(1.0);
    const NodeSolveReport r = solve_node<TypeParam>(this->beam_, NodeEquation::time, 0.005, m, xi);
    EXPECT_TRUE(r.converged);
    EXPECT_LE(r.iterations, 6) << xi_star.transpose();

    const Vec6 eta_star = this->beam_.reference_strain() + rnd.vec6(0.15);
    const Vec6 target = node_phi<TypeParam>(this->beam_, NodeEquation::space, 0.1, eta_star);
    Vec6 eta = eta_star + 0.01 * rnd.vec6(1.0);
    const NodeSolveReport rs =
        solve_node<TypeParam>(this->beam_, NodeEquation::space, 0.1, target, eta);
    EXPECT_TRUE(rs.converged);
    EXPECT_LE(rs.iterations, 6) << eta_star.transpose();
  }
}

TYPED_TEST(NodeSolver, JacobianMatchesFiniteDifferences) {
  test::Random rnd(203);
  for (NodeEquation eq : {NodeEquation::time, NodeEquation::space}) {
    const double h = eq == NodeEquation::time ? 0.02 : 0.1;
    for (int trial = 0; trial < 20; ++trial) {
      Vec6 y0 = rnd.vec6(3.0);
      if (eq == NodeEquation::space) y0 += this->beam_.reference_strain();
      const Mat6 fd = test::jacobian6(
          [&](const Vec6& y) { return node_phi<TypeParam>(this->beam_, eq, h, y); }, y0);
      const Mat6 jac = node_jacobian<TypeParam>(this->beam_, eq, h, y0);
      EXPECT_LT((jac - fd).cwiseAbs().maxCoeff() / jac.cwiseAbs().maxCoeff(), 1e-8)
          << lie::retraction_name<TypeParam>() << " y = " << y0.transpose();
    }
  }
}

TYPED_TEST(NodeSolver, ReportsNonConvergenceWithoutThrowing) {
  Vec6 xi_star;
  xi_star << 1.0, 2.0, 3.0, 0.5, 0.1, 0.2;
  const Vec6 m = node_phi<TypeParam>(this->beam_, NodeEquation::time, 0.005, xi_star);
  Vec6 xi = Vec6::Zero();
  NodeSolverOptions options;
  options.max_iterations = 1;
  NodeSolveReport r;
  EXPECT_NO_THROW(
      r = solve_node<TypeParam>(this->beam_, NodeEquation::time, 0.005, m, xi, options));
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_GT(r.residual, 0.0);
}

}  // namespace
}  // namespace field::dcel
