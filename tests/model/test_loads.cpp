// External loads of theory §1.4: the piecewise-linear time table, and the body covectors of
// distributed and point wrenches in the world and body (follower) frames.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/lie/se3.hpp"
#include "libfield/model/loads.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/random.hpp"

namespace field::model {
namespace {

using test::contains;
using test::error_message;

using lie::SE3;
using test::Random;
using test::rel_err;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Vec6 wrench(double m1, double m2, double m3, double f1, double f2, double f3) {
  return (Vec6() << m1, m2, m3, f1, f2, f3).finished();
}

// Body covector (R^T M, R^T F) of a world wrench (M, F), theory §1.4.
Vec6 world_to_body(const SE3& g, const Vec6& w) {
  Vec6 q;
  q << g.R.transpose() * w.head<3>(), g.R.transpose() * w.tail<3>();
  return q;
}

// ---------------------------------------------------------------------------------------------
// TimeTable

class TimeTableTest : public ::testing::Test {
 protected:
  // Non-uniform spacing, so that a wrong interval length shows.
  const std::vector<double> times_ = {-1.0, 0.5, 3.0, 3.25};
  const std::vector<Vec6> values_ = {wrench(1, 2, 3, 4, 5, 6), wrench(-2, 0, 7, 1, 1, 1),
                                     wrench(0, 0, 0, 10, -10, 3), wrench(8, 8, 8, -8, -8, -8)};
  const TimeTable table_{times_, values_};
};

TEST_F(TimeTableTest, ExactAtTheNodes) {
  for (size_t k = 0; k < times_.size(); ++k)
    EXPECT_EQ(table_.at(times_[k]), values_[k]) << "row " << k;
}

TEST_F(TimeTableTest, MidpointsAreTheAverages) {
  for (size_t k = 0; k + 1 < times_.size(); ++k) {
    const double t = 0.5 * (times_[k] + times_[k + 1]);
    const Vec6 expected = 0.5 * (values_[k] + values_[k + 1]);
    EXPECT_LT(rel_err(table_.at(t), expected), 1e-15) << "interval " << k;
  }
}

TEST_F(TimeTableTest, LinearInsideEachInterval) {
  for (size_t k = 0; k + 1 < times_.size(); ++k) {
    for (double w : {1e-9, 0.1, 0.25, 0.9, 1.0 - 1e-9}) {
      const double t = times_[k] + w * (times_[k + 1] - times_[k]);
      const double w_exact = (t - times_[k]) / (times_[k + 1] - times_[k]);
      const Vec6 expected = (1.0 - w_exact) * values_[k] + w_exact * values_[k + 1];
      EXPECT_LT(rel_err(table_.at(t), expected), 1e-14) << "interval " << k << " w " << w;
    }
  }
  // One hand value: t = 1.75 is half-way between 0.5 and 3.0.
  EXPECT_LT(rel_err(table_.at(1.75), wrench(-1, 0, 3.5, 5.5, -4.5, 2)), 1e-15);
  // t = 0.0 is two thirds of the way from -1 to 0.5: v0/3 + 2 v1/3.
  EXPECT_LT(rel_err(table_.at(0.0), wrench(-1, 2.0 / 3, 17.0 / 3, 2, 7.0 / 3, 8.0 / 3)), 1e-15);
}

TEST_F(TimeTableTest, HoldsTheEndValuesOutsideTheRange) {
  for (double t : {-1e300, -100.0, -1.0 - 1e-12}) EXPECT_EQ(table_.at(t), values_.front()) << t;
  for (double t : {3.25 + 1e-12, 4.0, 1e300}) EXPECT_EQ(table_.at(t), values_.back()) << t;
}

TEST(TimeTable, Constant) {
  const Vec6 v = wrench(1, -2, 3, -4, 5, -6);
  const TimeTable c = TimeTable::constant(v);
  for (double t : {-1e9, -1.0, 0.0, 1e-300, 0.5, 1e9}) EXPECT_EQ(c.at(t), v) << t;
  // A single row at any time is a constant as well.
  const TimeTable one({7.0}, {v});
  for (double t : {-3.0, 7.0, 9.0}) EXPECT_EQ(one.at(t), v) << t;
}

TEST_F(TimeTableTest, RejectsNaNTime) {
  // A NaN time passes neither end test; it must not read past the table.
  const std::string msg = error_message([&] { table_.at(kNaN); });
  EXPECT_TRUE(contains(msg, "nan")) << msg;
  EXPECT_THROW(TimeTable::constant(Vec6::Ones()).at(kNaN), Error);
  EXPECT_EQ(table_.at(std::numeric_limits<double>::infinity()), values_.back());
  EXPECT_EQ(table_.at(-std::numeric_limits<double>::infinity()), values_.front());
}

TEST(TimeTable, TwoRowsRamp) {
  const TimeTable ramp({0.0, 2.0}, {Vec6::Zero(), wrench(0, 0, 0, 0, 0, 4)});
  EXPECT_EQ(ramp.at(0.5), wrench(0, 0, 0, 0, 0, 1));
  EXPECT_EQ(ramp.at(1.0), wrench(0, 0, 0, 0, 0, 2));
  EXPECT_EQ(ramp.at(2.0), wrench(0, 0, 0, 0, 0, 4));
}

TEST(TimeTable, RejectsNonIncreasingTimes) {
  const Vec6 v = Vec6::Ones();
  std::string msg = error_message([&] { TimeTable({0.0, 1.0, 1.0}, {v, v, v}); });
  EXPECT_TRUE(contains(msg, "increase")) << msg;
  EXPECT_TRUE(contains(msg, "row 2")) << msg;
  msg = error_message([&] { TimeTable({0.0, 2.0, 1.0, 3.0}, {v, v, v, v}); });
  EXPECT_TRUE(contains(msg, "row 2")) << msg;
  EXPECT_TRUE(contains(msg, "t = 1")) << msg;
  msg = error_message([&] { TimeTable({5.0, -1.0}, {v, v}); });
  EXPECT_TRUE(contains(msg, "row 1")) << msg;
}

TEST(TimeTable, RejectsSizeMismatchAndEmptyTables) {
  const Vec6 v = Vec6::Ones();
  std::string msg = error_message([&] { TimeTable({0.0, 1.0, 2.0}, {v, v}); });
  EXPECT_TRUE(contains(msg, "3 times")) << msg;
  EXPECT_TRUE(contains(msg, "2 values")) << msg;
  msg = error_message([&] { TimeTable({0.0}, {v, v}); });
  EXPECT_TRUE(contains(msg, "1 times")) << msg;
  EXPECT_TRUE(contains(msg, "2 values")) << msg;
  msg = error_message([&] { TimeTable({}, {}); });
  EXPECT_TRUE(contains(msg, "at least one row")) << msg;
}

TEST(TimeTable, RejectsNonFiniteRows) {
  const Vec6 v = Vec6::Ones();
  std::string msg = error_message([&] { TimeTable({0.0, kNaN, 2.0}, {v, v, v}); });
  EXPECT_TRUE(contains(msg, "row 1")) << msg;
  EXPECT_TRUE(contains(msg, "not finite")) << msg;
  Vec6 bad = v;
  bad(4) = kNaN;
  msg = error_message([&] { TimeTable({0.0, 1.0, 2.0}, {v, v, bad}); });
  EXPECT_TRUE(contains(msg, "row 2")) << msg;
  bad(4) = std::numeric_limits<double>::infinity();
  msg = error_message([&] { TimeTable({0.0}, {bad}); });
  EXPECT_TRUE(contains(msg, "row 0")) << msg;
}

// ---------------------------------------------------------------------------------------------
// Loads

DistributedLoad distributed(LoadFrame frame, const Vec6& w, int a_first = 0, int a_last = -1) {
  DistributedLoad load;
  load.frame = frame;
  load.wrench = TimeTable::constant(w);
  load.a_first = a_first;
  load.a_last = a_last;
  return load;
}

PointLoad point(int a, LoadFrame frame, const Vec6& w) {
  PointLoad load;
  load.a = a;
  load.frame = frame;
  load.wrench = TimeTable::constant(w);
  return load;
}

TEST(Loads, EmptyByDefault) {
  Loads loads;
  EXPECT_TRUE(loads.empty());
  Random rnd(1);
  const SE3 g = rnd.se3();
  for (int a = 0; a <= 5; ++a) {
    EXPECT_EQ(loads.distributed_body(g, a, 5, 0.3), Vec6::Zero());
    EXPECT_EQ(loads.point_body(g, a, 0.3), Vec6::Zero());
  }
  loads.point.push_back(point(0, LoadFrame::world, Vec6::Ones()));
  EXPECT_FALSE(loads.empty());
  Loads only_distributed;
  only_distributed.distributed.push_back(distributed(LoadFrame::body, Vec6::Ones()));
  EXPECT_FALSE(only_distributed.empty());
  // Defaults of the load structs: world frame, zero wrench, all massive nodes.
  const DistributedLoad d;
  EXPECT_EQ(d.frame, LoadFrame::world);
  EXPECT_EQ(d.a_first, 0);
  EXPECT_EQ(d.a_last, -1);
  EXPECT_EQ(d.wrench.at(1.0), Vec6::Zero());
  const PointLoad p;
  EXPECT_EQ(p.frame, LoadFrame::world);
  EXPECT_EQ(p.wrench.at(1.0), Vec6::Zero());
}

TEST(Loads, DistributedWorldLoadIsRotatedIntoTheBody) {
  Random rnd(2);
  for (int trial = 0; trial < 20; ++trial) {
    const SE3 g = rnd.se3(3.0);
    const Vec6 w = rnd.vec6(10.0);
    Loads loads;
    loads.distributed.push_back(distributed(LoadFrame::world, w));
    const Vec6 q = loads.distributed_body(g, 2, 6, 0.0);
    EXPECT_LT(rel_err(q, world_to_body(g, w)), 1e-15);
    // Back in space (theory §1.4): the same force, and the moment about the origin M + r x F.
    Vec6 spatial;
    spatial << w.head<3>() + g.r.cross(w.tail<3>()), w.tail<3>();
    EXPECT_LT(rel_err(lie::spatial_covector(g, q), spatial), 1e-14);
  }
}

TEST(Loads, WorldLoadAtAKnownRotation) {
  // Lambda = rotation by +pi/2 about e3: d1 = e2, d2 = -e1, d3 = e3.
  SE3 g;
  g.R << 0, -1, 0, 1, 0, 0, 0, 0, 1;
  g.r = Vec3(5, 6, 7);  // the translation plays no role: moments are about the centre line
  Loads loads;
  loads.distributed.push_back(distributed(LoadFrame::world, wrench(0, 0, 2, 3, 0, -1)));
  // Force 3 e1 = -3 d2; moment 2 e3 = 2 d3; force -e3 = -d3.
  EXPECT_EQ(loads.distributed_body(g, 0, 3, 0.0), wrench(0, 0, 2, 0, -3, -1));
}

TEST(Loads, DistributedBodyLoadIsUnchanged) {
  Random rnd(3);
  for (int trial = 0; trial < 10; ++trial) {
    const SE3 g = rnd.se3(3.0);
    const Vec6 w = rnd.vec6(10.0);
    Loads loads;
    loads.distributed.push_back(distributed(LoadFrame::body, w));
    EXPECT_EQ(loads.distributed_body(g, 0, 4, 1.0), w);
  }
}

TEST(Loads, DistributedNodeRange) {
  const int A = 6;
  const SE3 g;  // identity: body = world
  const Vec6 w = wrench(1, 2, 3, 4, 5, 6);
  {
    // a_last = -1: every massive node 0..A-1, not the ghost node A.
    Loads loads;
    loads.distributed.push_back(distributed(LoadFrame::world, w));
    for (int a = 0; a < A; ++a) EXPECT_EQ(loads.distributed_body(g, a, A, 0.0), w) << a;
    EXPECT_EQ(loads.distributed_body(g, A, A, 0.0), Vec6::Zero());
  }
  {
    // Nodes 2..4 inclusive.
    Loads loads;
    loads.distributed.push_back(distributed(LoadFrame::world, w, 2, 4));
    for (int a = 0; a <= A; ++a) {
      const Vec6 expected = (a >= 2 && a <= 4) ? w : Vec6::Zero();
      EXPECT_EQ(loads.distributed_body(g, a, A, 0.0), expected) << a;
    }
  }
  {
    // From node 3 to the last massive node; a single node.
    Loads loads;
    loads.distributed.push_back(distributed(LoadFrame::world, w, 3, -1));
    loads.distributed.push_back(distributed(LoadFrame::body, 2.0 * w, 1, 1));
    for (int a = 0; a <= A; ++a) {
      Vec6 expected = Vec6::Zero();
      if (a >= 3 && a <= A - 1) expected += w;
      if (a == 1) expected += 2.0 * w;
      EXPECT_EQ(loads.distributed_body(g, a, A, 0.0), expected) << a;
    }
  }
  {
    // The same load on a longer beam reaches further: "-1" follows A.
    Loads loads;
    loads.distributed.push_back(distributed(LoadFrame::world, w));
    EXPECT_EQ(loads.distributed_body(g, 8, 10, 0.0), w);
    EXPECT_EQ(loads.distributed_body(g, 8, 8, 0.0), Vec6::Zero());
  }
}

TEST(Loads, SeveralDistributedLoadsAddUp) {
  Random rnd(4);
  const SE3 g = rnd.se3(2.0);
  const Vec6 w1 = rnd.vec6(5.0), w2 = rnd.vec6(5.0), w3 = rnd.vec6(5.0);
  Loads loads;
  loads.distributed.push_back(distributed(LoadFrame::world, w1));
  loads.distributed.push_back(distributed(LoadFrame::body, w2));
  loads.distributed.push_back(distributed(LoadFrame::world, w3, 0, 2));
  const int A = 5;
  for (int a = 0; a <= A; ++a) {
    Vec6 expected = Vec6::Zero();
    if (a <= A - 1) expected += world_to_body(g, w1) + w2;
    if (a <= 2) expected += world_to_body(g, w3);
    EXPECT_LT(rel_err(loads.distributed_body(g, a, A, 0.0), expected), 1e-14) << a;
  }
}

TEST(Loads, DistributedLoadFollowsItsTimeTable) {
  Random rnd(5);
  const SE3 g = rnd.se3(2.0);
  const Vec6 w0 = rnd.vec6(5.0), w1 = rnd.vec6(5.0);
  DistributedLoad load;
  load.frame = LoadFrame::world;
  load.wrench = TimeTable({0.0, 2.0}, {w0, w1});
  Loads loads;
  loads.distributed.push_back(load);
  EXPECT_LT(rel_err(loads.distributed_body(g, 1, 4, -1.0), world_to_body(g, w0)), 1e-15);
  EXPECT_LT(
      rel_err(loads.distributed_body(g, 1, 4, 0.5), world_to_body(g, Vec6(0.75 * w0 + 0.25 * w1))),
      1e-14);
  EXPECT_LT(rel_err(loads.distributed_body(g, 1, 4, 1.0), world_to_body(g, Vec6(0.5 * (w0 + w1)))),
            1e-14);
  EXPECT_LT(rel_err(loads.distributed_body(g, 1, 4, 5.0), world_to_body(g, w1)), 1e-15);
}

TEST(Loads, PointLoadAtItsNodeOnly) {
  Random rnd(6);
  for (int trial = 0; trial < 10; ++trial) {
    const SE3 g = rnd.se3(3.0);
    const Vec6 w = rnd.vec6(10.0);
    for (LoadFrame frame : {LoadFrame::world, LoadFrame::body}) {
      Loads loads;
      loads.point.push_back(point(4, frame, w));
      const Vec6 expected = frame == LoadFrame::world ? world_to_body(g, w) : w;
      for (int a = 0; a <= 6; ++a) {
        const Vec6 q = loads.point_body(g, a, 0.7);
        if (a == 4) {
          EXPECT_LT(rel_err(q, expected), 1e-15) << a;
        } else {
          EXPECT_EQ(q, Vec6::Zero()) << a;
        }
        // A point load is not a distributed load.
        EXPECT_EQ(loads.distributed_body(g, a, 6, 0.7), Vec6::Zero()) << a;
      }
    }
  }
}

TEST(Loads, PointLoadsAddUpAndFollowTheirTables) {
  Random rnd(7);
  const SE3 g = rnd.se3(3.0);
  const Vec6 w1 = rnd.vec6(10.0), w2 = rnd.vec6(10.0), w3 = rnd.vec6(10.0);
  Loads loads;
  loads.point.push_back(point(0, LoadFrame::world, w1));
  loads.point.push_back(point(0, LoadFrame::body, w2));
  PointLoad ramp;
  ramp.a = 3;
  ramp.frame = LoadFrame::world;
  ramp.wrench = TimeTable({1.0, 3.0}, {Vec6::Zero(), w3});
  loads.point.push_back(ramp);
  // Distributed loads do not show up in point_body.
  loads.distributed.push_back(distributed(LoadFrame::body, Vec6::Ones()));
  for (double t : {0.0, 1.5, 2.0, 4.0}) {
    EXPECT_LT(rel_err(loads.point_body(g, 0, t), Vec6(world_to_body(g, w1) + w2)), 1e-14) << t;
    const double s = std::clamp((t - 1.0) / 2.0, 0.0, 1.0);
    EXPECT_LT(rel_err(loads.point_body(g, 3, t), world_to_body(g, Vec6(s * w3))), 1e-14) << t;
    EXPECT_EQ(loads.point_body(g, 1, t), Vec6::Zero()) << t;
  }
}

}  // namespace
}  // namespace field::model
