// The closed-form Cayley node solve (dcel::CayleyNode) against the reference dcel::solve_node,
// theory §2.1, §5: same Phi, same Jacobian, same solution and stopping rule.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>

#include "libfield/dcel/diagonal_node.hpp"
#include "libfield/dcel/diagonal_node_lanes.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/problems.hpp"

namespace field::dcel {
namespace {

// A node problem of each kind, with sizes like the theory's cases: free-flight velocities
// (|xi| ~ 5, dt = 0.005) on the soft beam, space-evolution strains (|eta - E6| ~ 0.15,
// ds = 0.1) on the stubby beam of theory §11.4 (stiffness ratios EA/EI ~ 3e3).
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

// Only for Cayley: march::SlabSolver<lie::Se3Cayley> alone makes it (the type chooses).
TEST(CayleyNode, AppliesToTheBeam) {
  const model::BeamDensity beam = test::soft_beam();
  EXPECT_TRUE(make_diagonal_node<lie::Se3Cayley>(beam, NodeEquation::time, 0.1));
}

TEST(CayleyNode, PhiAndJacobianEqualTheReference) {
  // Same formulas of theory §2.1 in another order: equal to round-off (1e-15 relative measured);
  // the Jacobian to 1e-14 relative to its largest entry.
  test::Random rnd(301);
  for (const Case& c : cases()) {
    const CayleyNode node = *make_diagonal_node<lie::Se3Cayley>(c.beam, c.equation, c.h);
    for (int trial = 0; trial < 100; ++trial) {
      const Vec6 y = random_y(rnd, c, 1.0 + trial % 3);  // up to |h omega| = 0.3 (time, h = 0.02)
      EXPECT_LT(rel(node.phi(y), node_phi<lie::Se3Cayley>(c.beam, c.equation, c.h, y)), 1e-14);
      const Mat6 ref = node_jacobian<lie::Se3Cayley>(c.beam, c.equation, c.h, y);
      EXPECT_LT((node.jacobian(y) - ref).cwiseAbs().maxCoeff() / ref.cwiseAbs().maxCoeff(), 1e-14)
          << "y = " << y.transpose();
    }
  }
}

TEST(CayleyNode, NewtonStepSolvesTheJacobianSystem) {
  // The block solve (Schur complement of (I + w^/2) K_v) equals a pivoted LU of the assembled
  // Jacobian to round-off times its condition (1e-12 relative; the stubby beam has
  // EA / GJ ~ 2e3).
  test::Random rnd(303);
  for (const Case& c : cases()) {
    const CayleyNode node = *make_diagonal_node<lie::Se3Cayley>(c.beam, c.equation, c.h);
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
  // number of iterations, to one (see the end), (4-5 for these targets, theory §5) to the same y
  // within the stopping tolerance 1e-14 (1 + max|y|), and the residual is at round-off.
  test::Random rnd(302);
  int differing = 0;
  for (const Case& c : cases()) {
    const CayleyNode node = *make_diagonal_node<lie::Se3Cayley>(c.beam, c.equation, c.h);
    for (int trial = 0; trial < 200; ++trial) {
      const Vec6 y_star = random_y(rnd, c, 1.0);
      const Vec6 m = node_phi<lie::Se3Cayley>(c.beam, c.equation, c.h, y_star);
      const Vec6 start = y_star + 0.05 * y_star.cwiseAbs().maxCoeff() * rnd.vec6(1.0);
      Vec6 y_ref = start, y = start;
      const NodeSolveReport ref = solve_node<lie::Se3Cayley>(c.beam, c.equation, c.h, m, y_ref);
      const NodeSolveReport r = node.solve(m, y);
      ASSERT_TRUE(ref.converged);
      EXPECT_TRUE(r.converged);
      EXPECT_LE(std::abs(r.iterations - ref.iterations), 1) << "y* = " << y_star.transpose();
      differing += r.iterations != ref.iterations;
      EXPECT_LE(r.iterations, 6);
      const double scale = 1.0 + y_star.cwiseAbs().maxCoeff();
      EXPECT_LT((y - y_ref).cwiseAbs().maxCoeff(), 1e-14 * scale);
      EXPECT_LT((y - y_star).cwiseAbs().maxCoeff(), 1e-14 * scale);
      EXPECT_LT(r.residual, 1e-14 * m.cwiseAbs().maxCoeff());
    }
  }
  // As for ExpNode.SolvesLikeTheReference: equal but where a step lands at the stopping threshold
  // (round-off of the block solve against 6x6 LU decides): 0 of these 800 problems with GCC's
  // inputs, 2 with the inputs clang drew before support/random.hpp sequenced its draws.
  EXPECT_LE(differing, 8);
}

TEST(CayleyNode, ReportsFailureWithoutThrowing) {
  // A non-finite start is an expected failure: reported, not thrown, residual infinite.
  const CayleyNode node =
      *make_diagonal_node<lie::Se3Cayley>(test::soft_beam(), NodeEquation::time, 0.005);
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

// --- CayleyNodeLanes: the same solve on four nodes at once ----------------------------------

CayleyNodeLanes lanes_for(const Case& c) {
  return c.equation == NodeEquation::time
             ? CayleyNodeLanes(c.beam.inertia(), Vec6::Zero(), c.h)
             : CayleyNodeLanes(c.beam.stiffness(), c.beam.reference_strain(), c.h);
}

Vec6 at(const lanes::V6& x, int l) {
  return (Vec6() << x.w.x[l], x.w.y[l], x.w.z[l], x.v.x[l], x.v.y[l], x.v.z[l]).finished();
}

// Four node problems (target, start) near the previous-step situation of SolvesLikeTheReference.
struct Batch {
  Vec6 y_star[lanes::kWidth], m[lanes::kWidth], start[lanes::kWidth];
};

Batch batch(test::Random& rnd, const Case& c, const CayleyNode& node) {
  Batch b;
  for (int l = 0; l < lanes::kWidth; ++l) {
    b.y_star[l] = random_y(rnd, c, 1.0);
    b.m[l] = node.phi(b.y_star[l]);
    b.start[l] = b.y_star[l] + 0.05 * b.y_star[l].cwiseAbs().maxCoeff() * rnd.vec6(1.0);
  }
  return b;
}

TEST(CayleyNodeLanes, PhiEqualsCayleyNode) {
  test::Random rnd(311);
  for (const Case& c : cases()) {
    const CayleyNode node = *make_diagonal_node<lie::Se3Cayley>(c.beam, c.equation, c.h);
    const CayleyNodeLanes lanes4 = lanes_for(c);
    for (int trial = 0; trial < 50; ++trial) {
      Vec6 y[lanes::kWidth];
      for (Vec6& v : y) v = random_y(rnd, c, 1.0 + trial % 3);
      const lanes::V6 phi = lanes4.phi(lanes::load(y, lanes::kWidth));
      for (int l = 0; l < lanes::kWidth; ++l) EXPECT_LT(rel(at(phi, l), node.phi(y[l])), 1e-15);
    }
  }
}

TEST(CayleyNodeLanes, SolvesLikeCayleyNodeInEveryLane) {
  // Lane by lane: converged, the same iteration count as CayleyNode::solve, the same y within
  // the stopping tolerance, residual at round-off; and the same y as the independent reference
  // dcel::solve_node (6x6 LU of lie::cay_newton_M's Jacobian: CayleyNode and the lanes share
  // the block formulas of dcel/cayley_arithmetic.hpp).
  test::Random rnd(312);
  for (const Case& c : cases()) {
    const CayleyNode node = *make_diagonal_node<lie::Se3Cayley>(c.beam, c.equation, c.h);
    const CayleyNodeLanes lanes4 = lanes_for(c);
    for (int trial = 0; trial < 50; ++trial) {
      const Batch b = batch(rnd, c, node);
      lanes::V6 y = lanes::load(b.start, lanes::kWidth);
      CayleyNodeLanes::Report report;
      lanes4.solve(lanes::load(b.m, lanes::kWidth), y, lanes::splat_mask(true), {}, report);
      for (int l = 0; l < lanes::kWidth; ++l) {
        Vec6 y_ref = b.start[l];
        const NodeSolveReport ref = node.solve(b.m[l], y_ref);
        ASSERT_TRUE(ref.converged);
        EXPECT_NE(report.converged[l], 0);
        EXPECT_EQ(report.iterations[l], ref.iterations) << "lane " << l;
        const double scale = 1.0 + b.y_star[l].cwiseAbs().maxCoeff();
        EXPECT_LT((at(y, l) - y_ref).cwiseAbs().maxCoeff(), 1e-14 * scale);
        EXPECT_LT(report.residual[l], 1e-14 * b.m[l].cwiseAbs().maxCoeff());
        Vec6 y_lu = b.start[l];
        ASSERT_TRUE(solve_node<lie::Se3Cayley>(c.beam, c.equation, c.h, b.m[l], y_lu).converged);
        EXPECT_LT((at(y, l) - y_lu).cwiseAbs().maxCoeff(), 1e-14 * scale);
      }
    }
  }
}

TEST(CayleyNodeLanes, ALanesResultDoesNotDependOnItsNeighbours) {
  // The same node problem in lane 0 and in lane 3, beside different problems, and beside a lane
  // whose start is NaN: the same bits, the same iterations (the stopping rule is per lane).
  const Case c = cases()[0];
  const CayleyNode node = *make_diagonal_node<lie::Se3Cayley>(c.beam, c.equation, c.h);
  const CayleyNodeLanes lanes4 = lanes_for(c);
  test::Random rnd(313);
  Batch b1 = batch(rnd, c, node), b2 = batch(rnd, c, node);
  b2.m[3] = b1.m[0];
  b2.start[3] = b1.start[0];
  b2.start[1] = Vec6::Constant(NAN);
  lanes::V6 y1 = lanes::load(b1.start, 4), y2 = lanes::load(b2.start, 4);
  CayleyNodeLanes::Report r1, r2;
  lanes4.solve(lanes::load(b1.m, 4), y1, lanes::splat_mask(true), {}, r1);
  lanes4.solve(lanes::load(b2.m, 4), y2, lanes::splat_mask(true), {}, r2);
  EXPECT_EQ(at(y1, 0), at(y2, 3));
  EXPECT_EQ(r1.iterations[0], r2.iterations[3]);
  EXPECT_EQ(r1.residual[0], r2.residual[3]);
  EXPECT_EQ(r2.converged[1], 0);  // the NaN lane fails after one update, residual infinite
  EXPECT_EQ(r2.iterations[1], 1.0);
  EXPECT_TRUE(std::isinf(r2.residual[1]));
  for (int l : {0, 2, 3}) EXPECT_NE(r2.converged[l], 0) << "lane " << l;
}

TEST(CayleyNodeLanes, InactiveLanesAndTheIterationLimit) {
  // Lanes outside `active` keep their y and report; max_iterations stops every lane.
  const Case c = cases()[2];
  const CayleyNode node = *make_diagonal_node<lie::Se3Cayley>(c.beam, c.equation, c.h);
  const CayleyNodeLanes lanes4 = lanes_for(c);
  test::Random rnd(314);
  const Batch b = batch(rnd, c, node);
  lanes::V6 y = lanes::load(b.start, 4);
  CayleyNodeLanes::Report report;
  report.residual = lanes::splat(-1.0);
  const lanes::Mask active{-1, 0, -1, 0};
  lanes4.solve(lanes::load(b.m, 4), y, active, {}, report);
  for (int l : {1, 3}) {
    EXPECT_EQ(at(y, l), b.start[l]);
    EXPECT_EQ(report.iterations[l], 0.0);
    EXPECT_EQ(report.residual[l], -1.0);
  }
  for (int l : {0, 2}) EXPECT_NE(report.converged[l], 0);

  lanes::V6 y2 = lanes::load(b.start, 4);
  CayleyNodeLanes::Report limited;
  NodeSolverOptions two;
  two.max_iterations = 2;
  lanes4.solve(lanes::load(b.m, 4), y2, lanes::splat_mask(true), two, limited);
  for (int l = 0; l < 4; ++l) {
    Vec6 y_ref = b.start[l];
    const NodeSolveReport ref = node.solve(b.m[l], y_ref, two);
    EXPECT_EQ(limited.iterations[l], 2.0);
    EXPECT_EQ(limited.converged[l] != 0, ref.converged);
    EXPECT_FALSE(ref.converged);  // 2 updates cannot meet the rule from a 5 % start
  }
}

}  // namespace
}  // namespace field::dcel
