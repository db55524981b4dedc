// The lane type of the batched node updates (core/lanes.hpp): every operation acts lane by lane.
#include <gtest/gtest.h>

#include <cmath>

#include "libfield/core/lanes.hpp"

namespace field::lanes {
namespace {

TEST(Lanes, ArithmeticActsLaneByLane) {
  const Lane a{1.0, -2.0, 3.5, 1e-300}, b{0.5, 4.0, -1.0, 1e300};
  const Lane s = a * b + 2.0 * a - b / 4.0;
  for (int l = 0; l < kWidth; ++l) EXPECT_EQ(s[l], a[l] * b[l] + 2.0 * a[l] - b[l] / 4.0);
}

TEST(Lanes, SelectPicksPerLane) {
  const Lane a{1, 2, 3, 4}, b{-1, -2, -3, -4};
  const Mask m = a > Lane{0, 5, 0, 5};
  const Lane s = select(m, a, b);
  EXPECT_EQ(s[0], 1);
  EXPECT_EQ(s[1], -2);
  EXPECT_EQ(s[2], 3);
  EXPECT_EQ(s[3], -4);
  const Mask t = select(m, splat_mask(false), splat_mask(true));
  EXPECT_EQ(t[0], 0);
  EXPECT_EQ(t[1], -1);
}

TEST(Lanes, AbsMaxFiniteAny) {
  const Lane x{-0.0, -3.0, INFINITY, -INFINITY};
  const Lane ax = abs(x);
  EXPECT_EQ(ax[0], 0.0);
  EXPECT_FALSE(std::signbit(ax[0]));
  EXPECT_EQ(ax[1], 3.0);
  EXPECT_EQ(ax[2], INFINITY);
  EXPECT_EQ(ax[3], INFINITY);
  EXPECT_TRUE(std::isnan(abs(splat(-NAN))[0]));

  const Lane m = max(Lane{1, NAN, 3, -1}, Lane{2, 5, 1, -2});
  EXPECT_EQ(m[0], 2);
  EXPECT_EQ(m[1], 5);  // a NaN in the first argument gives the second
  EXPECT_EQ(m[2], 3);
  EXPECT_EQ(m[3], -1);

  const Mask f = finite(Lane{1.0, NAN, INFINITY, -1e308});
  EXPECT_NE(f[0], 0);
  EXPECT_EQ(f[1], 0);
  EXPECT_EQ(f[2], 0);
  EXPECT_NE(f[3], 0);
  EXPECT_TRUE(any(f));
  EXPECT_FALSE(any(splat_mask(false)));
  EXPECT_TRUE(any(Mask{0, 0, 0, -1}));
}

}  // namespace
}  // namespace field::lanes
