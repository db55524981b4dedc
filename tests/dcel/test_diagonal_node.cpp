// The closed-form node solve dcel::DiagonalNode<G> and its four-lane form DiagonalNodeLanes<G>,
// for both retractions (theory §2.1, §2.2, §5), against the reference dcel::solve_node (6x6 LU of
// the Jacobian with G::newton_M): same Phi, same Jacobian (and the Jacobian against finite
// differences of Phi), same Newton step, same solution and stopping rule.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "libfield/dcel/diagonal_node.hpp"
#include "libfield/dcel/diagonal_node_lanes.hpp"
#include "libfield/lie/exponential.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/problems.hpp"

namespace field::dcel {
namespace {

// A node problem of each kind, with sizes like the theory's cases: free-flight velocities
// (|xi| ~ 5, dt = 0.005) on the soft beam, space-evolution strains (|eta - E6| ~ 0.15,
// ds = 0.1) on the stubby beam of theory §11.4 (stiffness ratios EA/EI ~ 3e3); and a large
// step, |h omega| up to 0.9 (time, h = 0.06), so that both branches of the exponential's
// coefficients (|omega| < 0.5: series) are used.
struct Case {
  NodeEquation equation;
  double h;
  model::BeamDensity beam;
};

std::vector<Case> cases() {
  return {{NodeEquation::time, 0.005, test::soft_beam()},
          {NodeEquation::time, 0.02, test::soft_beam()},
          {NodeEquation::time, 0.06, test::soft_beam()},
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

double rel(const Mat6& a, const Mat6& b) {
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

template <class G>
constexpr bool kIsExp = std::is_same_v<G, lie::Se3Exp>;

template <class G>
DiagonalNode<G> node_for(const Case& c) {
  return *make_diagonal_node<G>(c.beam, c.equation, c.h);
}

template <class G>
class DiagonalNodeTest : public ::testing::Test {};
TYPED_TEST_SUITE(DiagonalNodeTest, test::Se3Groups, test::GroupNames);

// march::SlabSolver<G> alone makes it (the type chooses).
TYPED_TEST(DiagonalNodeTest, AppliesToTheBeam) {
  const model::BeamDensity beam = test::soft_beam();
  EXPECT_TRUE(make_diagonal_node<TypeParam>(beam, NodeEquation::time, 0.1));
  EXPECT_TRUE(make_diagonal_node<TypeParam>(beam, NodeEquation::space, 0.1));
}

TYPED_TEST(DiagonalNodeTest, PhiAndJacobianEqualTheReference) {
  // The same formulas of theory §2.1 / §2.2 in another order: Phi equal to round-off (1e-15
  // relative measured; the exponential's uses the blocks of lie/exponential_blocks.hpp, as
  // lie::dexp_inv_dual), the Jacobian against dcel::node_jacobian, i.e.
  // dtau_inv^T K + h newton_M, to 1e-14 relative to its largest entry; the exponential's also
  // against the complex-step M (the former Newton helper, exact to round-off).
  using G = TypeParam;
  test::Random rnd(kIsExp<G> ? 401 : 301);
  for (const Case& c : cases()) {
    const DiagonalNode<G> node = node_for<G>(c);
    const Vec6 K = c.equation == NodeEquation::time ? c.beam.inertia() : c.beam.stiffness();
    const Vec6 y0 = c.equation == NodeEquation::time ? Vec6::Zero() : c.beam.reference_strain();
    for (int trial = 0; trial < 100; ++trial) {
      const Vec6 y = random_y(rnd, c, 1.0 + trial % 3);
      EXPECT_LT(rel(node.phi(y), node_phi<G>(c.beam, c.equation, c.h, y)),
                kIsExp<G> ? 1e-15 : 1e-14);
      const Mat6 jac = node.jacobian(y);
      EXPECT_LT(rel(jac, node_jacobian<G>(c.beam, c.equation, c.h, y)), 1e-14)
          << "y = " << y.transpose();
      if constexpr (kIsExp<G>) {
        const Vec6 x = c.h * y;
        const Mat6 complex_step = lie::dexp_inv(x).transpose() * K.asDiagonal() +
                                  c.h * lie::exp_newton_M_complex_step(x, K.cwiseProduct(y - y0));
        EXPECT_LT(rel(jac, complex_step), 1e-14) << "y = " << y.transpose();
      }
    }
  }
}

TYPED_TEST(DiagonalNodeTest, JacobianEqualsFiniteDifferences) {
  // Central differences of Phi, step 1e-6 relative: truncation and cancellation ~1e-9.
  using G = TypeParam;
  test::Random rnd(kIsExp<G> ? 402 : 304);
  for (const Case& c : cases()) {
    const DiagonalNode<G> node = node_for<G>(c);
    for (int trial = 0; trial < 20; ++trial) {
      const Vec6 y = random_y(rnd, c, 1.0 + trial % 3);
      Mat6 fd;
      for (int k = 0; k < 6; ++k) {
        const double e = 1e-6 * (1.0 + std::abs(y(k)));
        Vec6 yp = y, ym = y;
        yp(k) += e;
        ym(k) -= e;
        fd.col(k) = (node.phi(yp) - node.phi(ym)) / (2.0 * e);
      }
      EXPECT_LT(rel(node.jacobian(y), fd), 1e-8) << "y = " << y.transpose();
    }
  }
}

TYPED_TEST(DiagonalNodeTest, NewtonStepSolvesTheJacobianSystem) {
  // The block solve (the (2,2) block in closed form and a 3x3 Schur complement) equals a pivoted
  // LU of the assembled Jacobian to round-off times its condition (1e-12 relative; the stubby
  // beam has EA / GJ ~ 2e3).
  using G = TypeParam;
  test::Random rnd(kIsExp<G> ? 403 : 303);
  for (const Case& c : cases()) {
    const DiagonalNode<G> node = node_for<G>(c);
    for (int trial = 0; trial < 100; ++trial) {
      const Vec6 y = random_y(rnd, c, 1.0 + trial % 3);
      const Vec6 r = rnd.vec6(1.0);
      const Vec6 ref = node.jacobian(y).partialPivLu().solve(r);
      EXPECT_LT(rel(node.newton_step(y, r), ref), 1e-12) << "y = " << y.transpose();
    }
  }
}

TYPED_TEST(DiagonalNodeTest, SolvesLikeTheReference) {
  // From a start a few per cent off (a previous step's value), both solvers converge (4-5
  // iterations, theory §5) to the same y within the stopping tolerance 1e-14 (1 + max|y|); the
  // residual is at round-off. The iteration counts agree but where a step lands at the stopping
  // threshold, which the round-off of the two Newton steps (block solve against 6x6 LU) moves,
  // by one iteration: measured 3 of the 1000 exponential problems (as many with the chord steps
  // switched off: the round-off, not the freeze), 0 of the Cayley ones with GCC's inputs.
  using G = TypeParam;
  test::Random rnd(kIsExp<G> ? 404 : 302);
  int differing = 0;
  for (const Case& c : cases()) {
    const DiagonalNode<G> node = node_for<G>(c);
    for (int trial = 0; trial < 200; ++trial) {
      const Vec6 y_star = random_y(rnd, c, 1.0);
      const Vec6 m = node_phi<G>(c.beam, c.equation, c.h, y_star);
      const Vec6 start = y_star + 0.05 * y_star.cwiseAbs().maxCoeff() * rnd.vec6(1.0);
      Vec6 y_ref = start, y = start;
      const NodeSolveReport ref = solve_node<G>(c.beam, c.equation, c.h, m, y_ref);
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
  std::printf("[%s node] iteration counts differ from solve_node in %d of 1000 problems\n",
              lie::retraction_name<G>().c_str(), differing);
  EXPECT_LE(differing, 10);
}

TYPED_TEST(DiagonalNodeTest, ReportsFailureWithoutThrowing) {
  // A non-finite start is an expected failure: reported, not thrown, residual infinite.
  const DiagonalNode<TypeParam> node =
      node_for<TypeParam>({NodeEquation::time, 0.005, test::soft_beam()});
  Vec6 y = Vec6::Constant(NAN);
  const NodeSolveReport r = node.solve(Vec6::Ones(), y);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_TRUE(std::isinf(r.residual));
}

TYPED_TEST(DiagonalNodeTest, RejectsInvalidLaw) {
  using Node = DiagonalNode<TypeParam>;
  Vec6 K = Vec6::Ones();
  K(4) = 0.0;
  EXPECT_THROW(Node(K, Vec6::Zero(), 0.1), Error);
  EXPECT_THROW(Node(Vec6::Ones(), Vec6::Zero(), 0.0), Error);
}

// --- DiagonalNodeLanes: the same solve on four nodes at once --------------------------------

template <class G>
DiagonalNodeLanes<G> lanes_for(const Case& c) {
  return c.equation == NodeEquation::time
             ? DiagonalNodeLanes<G>(c.beam.inertia(), Vec6::Zero(), c.h)
             : DiagonalNodeLanes<G>(c.beam.stiffness(), c.beam.reference_strain(), c.h);
}

// One out-of-line copy per group of the forced-inline lanes phi and solve: every call site
// would otherwise expand them whole (a minute of compile time in the sanitized build).
template <class G>
__attribute__((noinline)) lanes::V6 lanes_phi(const DiagonalNodeLanes<G>& n, const lanes::V6& y) {
  return n.phi(y);
}

template <class G>
__attribute__((noinline)) void lanes_solve(const DiagonalNodeLanes<G>& n, const lanes::V6& m,
                                           lanes::V6& y, const lanes::Mask& active,
                                           const NodeSolverOptions& options, LanesReport& report) {
  n.solve(m, y, active, options, report);
}

Vec6 at(const lanes::V6& x, int l) {
  return (Vec6() << x.w.x[l], x.w.y[l], x.w.z[l], x.v.x[l], x.v.y[l], x.v.z[l]).finished();
}

// Four node problems (target, start) near the previous-step situation of SolvesLikeTheReference,
// lane l with y* of size 1 + (trial + l) % 3.
struct Batch {
  Vec6 y_star[lanes::kWidth], m[lanes::kWidth], start[lanes::kWidth];
};

template <class G>
Batch batch(test::Random& rnd, const Case& c, const DiagonalNode<G>& node, int trial) {
  Batch b;
  for (int l = 0; l < lanes::kWidth; ++l) {
    b.y_star[l] = random_y(rnd, c, 1.0 + (trial + l) % 3);
    b.m[l] = node.phi(b.y_star[l]);
    b.start[l] = b.y_star[l] + 0.05 * b.y_star[l].cwiseAbs().maxCoeff() * rnd.vec6(1.0);
  }
  return b;
}

template <class G>
class DiagonalNodeLanesTest : public ::testing::Test {};
TYPED_TEST_SUITE(DiagonalNodeLanesTest, test::Se3Groups, test::GroupNames);

TYPED_TEST(DiagonalNodeLanesTest, PhiEqualsDiagonalNode) {
  // The same blocks (T = Lane) as DiagonalNode (T = double): equal to round-off.
  using G = TypeParam;
  test::Random rnd(kIsExp<G> ? 412 : 311);
  for (const Case& c : cases()) {
    const DiagonalNode<G> node = node_for<G>(c);
    const DiagonalNodeLanes<G> lanes4 = lanes_for<G>(c);
    for (int trial = 0; trial < 50; ++trial) {
      Vec6 y[lanes::kWidth];
      for (Vec6& v : y) v = random_y(rnd, c, 1.0 + trial % 3);
      const lanes::V6 phi = lanes_phi(lanes4, lanes::load(y, lanes::kWidth));
      for (int l = 0; l < lanes::kWidth; ++l) EXPECT_LT(rel(at(phi, l), node.phi(y[l])), 1e-15);
    }
  }
}

TYPED_TEST(DiagonalNodeLanesTest, SolvesLikeDiagonalNodeInEveryLane) {
  // Lane by lane: Phi at y* to round-off, converged, the same iteration count as
  // DiagonalNode::solve, the same y within the stopping tolerance, residual at round-off; and the
  // same y as the independent reference dcel::solve_node (6x6 LU of lie::cay_newton_M's
  // Jacobian: DiagonalNode and the lanes share the block formulas of dcel/*_arithmetic.hpp). With
  // h = 0.06 some exponential lanes have |h omega| >= 0.5 (closed forms, computed lane by lane)
  // beside series lanes. For the exponential the lanes are held to DiagonalNode only: with |y*|
  // up to 3 x these problems' sizes, its solve_node lands up to 1e-12 (1 + max|y|) away
  // (measured), beyond the stopping tolerance; at 1 x, SolvesLikeTheReference holds it to 1e-14.
  using G = TypeParam;
  test::Random rnd(kIsExp<G> ? 411 : 312);
  int closed_lanes = 0;
  for (const Case& c : cases()) {
    const DiagonalNode<G> node = node_for<G>(c);
    const DiagonalNodeLanes<G> lanes4 = lanes_for<G>(c);
    for (int trial = 0; trial < 50; ++trial) {
      const Batch b = batch(rnd, c, node, trial);
      for (int l = 0; l < lanes::kWidth; ++l)
        closed_lanes += c.h * b.y_star[l].template head<3>().norm() >= 0.5;
      const lanes::V6 phi = lanes_phi(lanes4, lanes::load(b.y_star, lanes::kWidth));
      lanes::V6 y = lanes::load(b.start, lanes::kWidth);
      LanesReport report;
      lanes_solve(lanes4, lanes::load(b.m, lanes::kWidth), y, lanes::splat_mask(true), {}, report);
      for (int l = 0; l < lanes::kWidth; ++l) {
        EXPECT_LT(rel(at(phi, l), b.m[l]), 1e-15);
        Vec6 y_ref = b.start[l];
        const NodeSolveReport ref = node.solve(b.m[l], y_ref);
        ASSERT_TRUE(ref.converged);
        EXPECT_NE(report.converged[l], 0);
        EXPECT_EQ(report.iterations[l], ref.iterations) << "lane " << l;
        const double scale = 1.0 + b.y_star[l].cwiseAbs().maxCoeff();
        EXPECT_LT((at(y, l) - y_ref).cwiseAbs().maxCoeff(), 1e-14 * scale);
        EXPECT_LT(report.residual[l], 1e-14 * b.m[l].cwiseAbs().maxCoeff());
        if constexpr (!kIsExp<G>) {
          Vec6 y_lu = b.start[l];
          ASSERT_TRUE(solve_node<G>(c.beam, c.equation, c.h, b.m[l], y_lu).converged);
          EXPECT_LT((at(y, l) - y_lu).cwiseAbs().maxCoeff(), 1e-14 * scale);
        }
      }
    }
  }
  EXPECT_GT(closed_lanes, 50);
}

TYPED_TEST(DiagonalNodeLanesTest, ALanesResultDoesNotDependOnItsNeighbours) {
  // The same node problem in lane 0 and in lane 3, beside different problems (on the
  // exponential's closed-form branch too: h = 0.06, |y*| up to 3 x) and beside a lane whose
  // start is NaN: the same bits, the same iterations (the stopping rule is per lane).
  using G = TypeParam;
  const Case c = cases()[2];  // h = 0.06
  const DiagonalNode<G> node = node_for<G>(c);
  const DiagonalNodeLanes<G> lanes4 = lanes_for<G>(c);
  test::Random rnd(kIsExp<G> ? 413 : 313);
  Vec6 m1[4], s1[4], m2[4], s2[4];
  for (int l = 0; l < 4; ++l) {
    const Vec6 a = random_y(rnd, c, 0.3), b = random_y(rnd, c, 3.0);
    m1[l] = node.phi(a);
    s1[l] = 1.02 * a;
    m2[l] = node.phi(b);
    s2[l] = 1.02 * b;
  }
  m2[3] = m1[0];
  s2[3] = s1[0];
  s2[1] = Vec6::Constant(NAN);
  lanes::V6 y1 = lanes::load(s1, 4), y2 = lanes::load(s2, 4);
  LanesReport r1, r2;
  lanes_solve(lanes4, lanes::load(m1, 4), y1, lanes::splat_mask(true), {}, r1);
  lanes_solve(lanes4, lanes::load(m2, 4), y2, lanes::splat_mask(true), {}, r2);
  EXPECT_EQ(at(y1, 0), at(y2, 3));
  EXPECT_EQ(r1.iterations[0], r2.iterations[3]);
  EXPECT_EQ(r1.residual[0], r2.residual[3]);
  EXPECT_NE(r1.converged[0], 0);
  EXPECT_EQ(r2.converged[1], 0);  // the NaN lane fails after one update, residual infinite
  EXPECT_EQ(r2.iterations[1], 1.0);
  EXPECT_TRUE(std::isinf(r2.residual[1]));
  for (int l : {0, 2, 3}) EXPECT_NE(r2.converged[l], 0) << "lane " << l;
}

TYPED_TEST(DiagonalNodeLanesTest, InactiveLanesAndTheIterationLimit) {
  // Lanes outside `active` keep their y and report; max_iterations stops every lane.
  using G = TypeParam;
  const Case c = cases()[3];  // space, soft beam
  const DiagonalNode<G> node = node_for<G>(c);
  const DiagonalNodeLanes<G> lanes4 = lanes_for<G>(c);
  test::Random rnd(kIsExp<G> ? 414 : 314);
  const Batch b = batch(rnd, c, node, 0);
  lanes::V6 y = lanes::load(b.start, 4);
  LanesReport report;
  report.residual = lanes::splat(-1.0);
  const lanes::Mask active{-1, 0, -1, 0};
  lanes_solve(lanes4, lanes::load(b.m, 4), y, active, {}, report);
  for (int l : {1, 3}) {
    EXPECT_EQ(at(y, l), b.start[l]);
    EXPECT_EQ(report.iterations[l], 0.0);
    EXPECT_EQ(report.residual[l], -1.0);
  }
  for (int l : {0, 2}) EXPECT_NE(report.converged[l], 0);

  lanes::V6 y2 = lanes::load(b.start, 4);
  LanesReport limited;
  NodeSolverOptions two;
  two.max_iterations = 2;
  lanes_solve(lanes4, lanes::load(b.m, 4), y2, lanes::splat_mask(true), two, limited);
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
