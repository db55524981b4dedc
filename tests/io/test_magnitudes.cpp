// The magnitude rule of theory §12 for any node type (io/magnitudes.hpp): the limit
// 1e11 min(ds, c_E dt), the first node beyond it or not finite named with its index.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "libfield/io/magnitudes.hpp"
#include "tests/support/errors.hpp"

namespace field::io {
namespace {

TEST(Magnitudes, TheLimitIsTheSmallerStepTimesTheFactor) {
  EXPECT_DOUBLE_EQ(position_limit(0.1, 0.01, 2.0), 1e11 * 0.02);
  EXPECT_DOUBLE_EQ(position_limit(0.1, 1.0, 2.0), 1e11 * 0.1);
  // A density without a wave speed keeps the spatial step.
  EXPECT_DOUBLE_EQ(position_limit(0.1, 0.01, 0.0), 1e11 * 0.1);
  EXPECT_DOUBLE_EQ(position_limit(0.1, 0.01, NAN), 1e11 * 0.1);
}

TEST(Magnitudes, TheFirstNodeBeyondTheLimitOrNotFiniteIsNamed) {
  const std::vector<Vec3> ok = {Vec3(1, 0, 0), Vec3(0, 2e9, 0)};
  EXPECT_NO_THROW(check_positions(2e9, ok, "row 0, node a ="));
  const std::vector<Vec3> far = {Vec3(1, 0, 0), Vec3(0, 3e9, 0), Vec3(4e9, 0, 0)};
  EXPECT_NE(test::error_message([&] {
              check_positions(2e9, far, "row 0, node a =");
            }).find("row 0, node a = 1 is at |r| = 3e+09 m"),
            std::string::npos);
  const std::vector<Vec3> nan = {Vec3(1, 0, 0), Vec3(NAN, 0, 0)};
  EXPECT_NE(test::error_message([&] {
              check_positions(2e9, nan, "tip at row j =");
            }).find("tip at row j = 1 is at |r| = nan: not finite, the numbers that place it"),
            std::string::npos);
}

}  // namespace
}  // namespace field::io
