// The exponential retraction on four nodes at once (lie/exponential_lanes.hpp) against the
// scalar code (lie/exponential.cpp), lane by lane, with lanes on both branches of the
// coefficients (|omega| < 0.5: series) and lanes near a half turn (log's symmetric-part branch)
// beside ordinary ones. theory §2.2.
#include <gtest/gtest.h>

#include <cmath>

#include "libfield/lie/exponential_lanes.hpp"
#include "tests/support/random.hpp"

namespace field::lanes {
namespace {

using test::Random;
using test::rel_err;

// Angles mixed within every batch of four: series, both sides of the switch, closed forms, a
// half turn.
const double kAngles[] = {0.0, 1e-8, 1e-4, 0.3, 0.4999, 0.5001, 1.0, 2.5, 3.0, M_PI - 1e-6};
constexpr int kCount = sizeof(kAngles) / sizeof(kAngles[0]);

Vec6 lane(const V6& x, int l) {
  return (Vec6() << x.w.x[l], x.w.y[l], x.w.z[l], x.v.x[l], x.v.y[l], x.v.z[l]).finished();
}

lie::SE3 lane(const G& g, int l) {
  lie::SE3 e;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e.R(i, j) = g.R.e[i][j][l];
  e.r = Vec3(g.r.x[l], g.r.y[l], g.r.z[l]);
  return e;
}

TEST(ExponentialLanes, EqualsTheScalarCodeInEveryLane) {
  Random rnd(51);
  for (int trial = 0; trial < 40; ++trial) {
    Vec6 x[kWidth];
    lie::SE3 g[kWidth];
    for (int l = 0; l < kWidth; ++l) {
      x[l] = rnd.vec6_with_angle(kAngles[(trial + 3 * l) % kCount], 1.0);
      g[l] = lie::exp_map(x[l]);
    }
    const V6 xs = load(x, kWidth);
    const G e = exp(xs);
    const V6 logs = log(load(g, kWidth));
    for (int l = 0; l < kWidth; ++l) {
      EXPECT_LT(rel_err(lane(e, l).matrix(), g[l].matrix()), 1e-15) << x[l].transpose();
      EXPECT_LT(rel_err(lane(logs, l), lie::log_map(g[l])), 1e-14) << x[l].transpose();
      EXPECT_LT(rel_err(lane(logs, l), x[l]), 1e-9) << x[l].transpose();  // log(exp(x)) = x
    }
  }
}

}  // namespace
}  // namespace field::lanes
