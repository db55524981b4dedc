// The closed-form Cayley node solve (dcel::CayleyNode) against the reference dcel::solve_node,
// SPEC [S2.1], [S6]: same Phi, same Jacobian, same solution and stopping rule.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>

#include "libfield/dcel/cayley_node.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/problems.hpp"

namespace field::dcel {
namespace {

using lie::Retraction;
using lie::RetractionKind;

// A node problem of each kind, with sizes like the SPEC's cases: free-flight velocities
// (|xi| ~ 5, dt = 0.005) on the soft beam, space-evolution strains (|eta - E6| ~ 0.15,
// ds = 0.1) on the stubby beam of [S11.4] (stiffness ratios EA/EI ~ 3e3).
struct Case {
  NodeEquation equation;
  double h;
  model::BeamDensity beam;
};

std::vector<Case> cases() {
  return {{NodeEquation::time, 0.005, test::soft_beam()},
          {NodeEquation::time, 0.02, test::soft_beam()},
          {NodeEquation::space, 0.1, test::soft_beam()},
          {NodeEquation::space, 0.1, test::SpaceEvolution::beam()}};
}

Vec6 random_y(test::Random& rnd, const Case& c, double scale) {
  if (c.equation == NodeEquation::time) {
    Vec6 y;
    y << rnd.vec3(5.0 * scale), rnd.vec3(2.0 * scale);
    return y;
  }
  return c.beam.reference_strain() + rnd.vec6(0.15 * scale);
}

double rel(const Vec6& a, const Vec6& b) {
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

TEST(CayleyNode, AppliesOnlyToCayleyAndTheBeam) {
  const model::BeamDensity beam = test::soft_beam();
  EXPECT_TRUE(make_cayley_node(beam, Retraction(RetractionKind::cayley), NodeEquation::time, 0.1));
  EXPECT_FALSE(
      make_cayley_node(beam, Retraction(RetractionKind::exponential), NodeEquation::time, 0.1));
}

TEST(CayleyNode, PhiAndJacobianEqualTheReference) {
  // Same formulas of SPEC [S2.1] in another order: equal to round-off (1e-15 relative measured);
  // the Jacobian to 1e-14 relative to its largest entry.
  const Retraction cay(RetractionKind::cayley);
  test::Random rnd(301);
  for (const Case& c : cases()) {
    const CayleyNode node = *make_cayley_node(c.beam, cay, c.equation, c.h);
    for (int trial = 0; trial < 100; ++trial) {
      const Vec6 y = random_y(rnd, c, 1.0 + trial % 3);  // up to |h omega| = 0.3 (time, h = 0.02)
      EXPECT_LT(rel(node.phi(y), node_phi(c.beam, cay, c.equation, c.h, y)), 1e-14);
      const Mat6 ref = node_jacobian(c.beam, cay, c.equation, c.h, y);
      EXPECT_LT((node.jacobian(y) - ref).cwiseAbs().maxCoeff() / ref.cwiseAbs().maxCoeff(), 1e-14)
          << "y = " << y.transpose();
    }
  }
}

TEST(CayleyNode, NewtonStepSolvesTheJacobianSystem) {
  // The block solve (Schur complement of (I + w^/2) K_v) equals a pivoted LU of the assembled
  // Jacobian to round-off times its condition (1e-12 relative; the stubby beam has
  // EA / GJ ~ 2e3).
  const Retraction cay(RetractionKind::cayley);
  test::Random rnd(303);
  for (const Case& c : cases()) {
    const CayleyNode node = *make_cayley_node(c.beam, cay, c.equation, c.h);
    for (int trial = 0; trial < 100; ++trial) {
      const Vec6 y = random_y(rnd, c, 1.0 + trial % 3);
      const Vec6 r = rnd.vec6(1.0);
      const Vec6 ref = node.jacobian(y).partialPivLu().solve(r);
      EXPECT_LT(rel(node.newton_step(y, r), ref), 1e-12) << "y = " << y.transpose();
    }
  }
}

TEST(CayleyNode, SolvesLikeTheReference) {
  // From the previous step's value (a few per cent off), both solvers converge in the same
  // number of iterations (4-5 for these targets, SPEC [S6]) to the same y within the stopping
  // tolerance 1e-14 (1 + max|y|), and the residual is at round-off.
  const Retraction cay(RetractionKind::cayley);
  test::Random rnd(302);
  for (const Case& c : cases()) {
    const CayleyNode node = *make_cayley_node(c.beam, cay, c.equation, c.h);
    for (int trial = 0; trial < 200; ++trial) {
      const Vec6 y_star = random_y(rnd, c, 1.0);
      const Vec6 m = node_phi(c.beam, cay, c.equation, c.h, y_star);
      const Vec6 start = y_star + 0.05 * y_star.cwiseAbs().maxCoeff() * rnd.vec6(1.0);
      Vec6 y_ref = start, y = start;
      const NodeSolveReport ref = solve_node(c.beam, cay, c.equation, c.h, m, y_ref);
      const NodeSolveReport r = node.solve(m, y);
      ASSERT_TRUE(ref.converged);
      EXPECT_TRUE(r.converged);
      EXPECT_EQ(r.iterations, ref.iterations) << "y* = " << y_star.transpose();
      EXPECT_LE(r.iterations, 6);
      const double scale = 1.0 + y_star.cwiseAbs().maxCoeff();
      EXPECT_LT((y - y_ref).cwiseAbs().maxCoeff(), 1e-14 * scale);
      EXPECT_LT((y - y_star).cwiseAbs().maxCoeff(), 1e-14 * scale);
      EXPECT_LT(r.residual, 1e-14 * m.cwiseAbs().maxCoeff());
    }
  }
}

TEST(CayleyNode, ReportsFailureWithoutThrowing) {
  // A non-finite start is an expected failure: reported, not thrown, residual infinite.
  const CayleyNode node = *make_cayley_node(test::soft_beam(), Retraction(RetractionKind::cayley),
                                            NodeEquation::time, 0.005);
  Vec6 y = Vec6::Constant(NAN);
  const NodeSolveReport r = node.solve(Vec6::Ones(), y);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_TRUE(std::isinf(r.residual));
}

TEST(CayleyNode, RejectsInvalidLaw) {
  Vec6 K = Vec6::Ones();
  K(4) = 0.0;
  EXPECT_THROW(CayleyNode(K, Vec6::Zero(), 0.1), Error);
  EXPECT_THROW(CayleyNode(Vec6::Ones(), Vec6::Zero(), 0.0), Error);
}

}  // namespace
}  // namespace field::dcel
