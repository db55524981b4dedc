// The round-off stop of the closed-form node solve (theory §5): node problems whose Newton steps
// stall at round-off above the step rule's tolerance, found by a search over random diagonal laws
// with a large ratio K_v / K_w (a thin rod: rho A / rho I = 4 / r^2 ~ 1e6 for r = 2 mm) and
// targets m = Phi(y*). By the step rule alone the iteration never stops (a MarchFailure in a
// march); with the stop at the residual's round-off floor, DiagonalNode and DiagonalNodeLanes
// converge to y* at round-off.
#include <gtest/gtest.h>

#include <cmath>

#include "libfield/dcel/diagonal_node.hpp"
#include "libfield/dcel/diagonal_node_lanes.hpp"

namespace field::dcel {
namespace {

struct Stall {
  Vec6 K, y0, y_star, start;
  double h;
};

Vec6 v6(double a, double b, double c, double d, double e, double f) {
  return (Vec6() << a, b, c, d, e, f).finished();
}

// exp: a time law (y0 = 0), K_v / K_w ~ 1e6.
Stall exp_stall() {
  return {v6(0.13641369801597295, 0.26893257445247359, 0.12859756220638671, 154780.71613331631,
             76302.047712861444, 160979.3230066098),
          Vec6::Zero(),
          v6(-7.4851869462954586, -4.0281515542389137, 4.4445452436982436, 0.27615350728523563,
             -4.1879930384480044, 3.9471279843961944),
          v6(-7.2739081259885578, -3.9273758264331762, 4.4515324982076558, 0.049115908072988879,
             -3.8185029391740342, 3.8267295742858325),
          0.0012010141392846435};
}

// Cayley: a space law (y0 = E6), K_v / K_w ~ 5e8.
Stall cayley_stall() {
  return {v6(0.041728249585692934, 0.010549328020105124, 0.02134902866954606, 17222001.358182032,
             9341732.9128187038, 12619316.621909091),
          v6(0, 0, 0, 0, 0, 1),
          v6(-0.062348699890234414, 0.033727534116568855, -0.10835925608752647,
             -0.023332552383264097, -0.034726872276866251, 1.0376854813883756),
          v6(-0.091943571357592915, 0.039117852847197619, -0.14389861149848726,
             -0.015775282780613749, -0.024087363217599918, 1.0604214746375702),
          0.0033471144729885459};
}

Vec6 at(const lanes::V6& x, int l) {
  return (Vec6() << x.w.x[l], x.w.y[l], x.w.z[l], x.v.x[l], x.v.y[l], x.v.z[l]).finished();
}

template <class G>
void check(const Stall& s) {
  const DiagonalNode<G> node(s.K, s.y0, s.h);
  const Vec6 m = node.phi(s.y_star);
  const double scale = 1.0 + s.y_star.cwiseAbs().maxCoeff();
  const NodeSolverOptions options;

  // The step rule alone, with exact Newton steps: y reaches y* to round-off, but no step of the
  // iteration limit is below tolerance (1 + max|y|): the stall.
  Vec6 y = s.start;
  bool met = false;
  for (int i = 0; i < options.max_iterations; ++i) {
    const Vec6 dy = node.newton_step(y, node.phi(y) - m);
    y -= dy;
    met |= dy.cwiseAbs().maxCoeff() <= options.tolerance * (1.0 + y.cwiseAbs().maxCoeff());
  }
  EXPECT_FALSE(met);
  EXPECT_LT((y - s.y_star).cwiseAbs().maxCoeff(), 1e-11 * scale);

  // The solve stops at the round-off floor.
  Vec6 y1 = s.start;
  const NodeSolveReport r = node.solve(m, y1, options);
  EXPECT_TRUE(r.converged);
  EXPECT_LE(r.iterations, 12);
  EXPECT_LT((y1 - s.y_star).cwiseAbs().maxCoeff(), 1e-11 * scale);

  // The lanes, in every lane: the same iterations and bits as the scalar solve.
  const DiagonalNodeLanes<G> lanes4(s.K, s.y0, s.h);
  Vec6 m4[lanes::kWidth], s4[lanes::kWidth];
  for (int l = 0; l < lanes::kWidth; ++l) {
    m4[l] = m;
    s4[l] = s.start;
  }
  lanes::V6 y4 = lanes::load(s4, lanes::kWidth);
  LanesReport report;
  lanes4.solve(lanes::load(m4, lanes::kWidth), y4, lanes::splat_mask(true), options, report);
  for (int l = 0; l < lanes::kWidth; ++l) {
    EXPECT_NE(report.converged[l], 0);
    EXPECT_EQ(report.iterations[l], r.iterations);
    EXPECT_EQ(at(y4, l), y1);
  }
}

TEST(NodeRoundOff, ExpStallStopsAtTheResidualFloor) {
  check<lie::Se3Exp>(exp_stall());
}

TEST(NodeRoundOff, CayleyStallStopsAtTheResidualFloor) {
  check<lie::Se3Cayley>(cayley_stall());
}

}  // namespace
}  // namespace field::dcel
