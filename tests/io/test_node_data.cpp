// Node data for case files (libfield/io/node_data.hpp): poses, velocities and prescribed-end
// tracks from CSV, every node once, errors naming file, line and value.
#include <gtest/gtest.h>

#include "libfield/io/node_data.hpp"
#include "libfield/lie/so3.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

using test::contains;
using test::error_message;

TEST(NodePoses, RowsInAnyOrderWithExtraColumns) {
  test::TempFolder dir;
  const double c = std::cos(0.25), s = std::sin(0.25);  // half angle of 0.5 rad about e3
  char rotated[128];
  std::snprintf(rotated, sizeof rotated, "2, 0.2, 0, 0.3, %.17g, 0, 0, %.17g, x", c, s);
  const auto path = dir.write("row0.csv", std::string("a,x,y,z,qw,qx,qy,qz,label\n") +
                                              "1, 0, 0, 0.15, 1, 0, 0, 0, mid\n" + rotated +
                                              "\n0, 0, 0, 0.05, -1, 0, 0, 0, tip\n");
  const std::vector<lie::SE3> g = read_node_poses(path, 3);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].r, Vec3(0, 0, 0.05));
  EXPECT_EQ(g[0].R, Mat3::Identity());  // -1 is the identity too
  EXPECT_EQ(g[1].r, Vec3(0, 0, 0.15));
  EXPECT_LT((g[2].R - lie::rotation_about(Vec3::UnitZ(), 0.5)).cwiseAbs().maxCoeff(), 4e-16);
  EXPECT_EQ(g[2].r, Vec3(0.2, 0, 0.3));
}

TEST(NodePoses, RowOfARunsFieldCsvSelectedByJ) {
  test::TempFolder dir;
  std::string text = "j,a,t,s,x,y,z,qw,qx,qy,qz\n";
  for (int j = 0; j <= 2; ++j)
    for (int a = 0; a <= 3; ++a) {
      char row[128];
      std::snprintf(row, sizeof row, "%d,%d,%g,%g,%d,0,%g,1,0,0,0\n", j, a, 0.1 * j,
                    0.25 * (a + 0.5), j, 0.25 * (a + 0.5));
      text += row;
    }
  const auto path = dir.write("field.csv", text);
  const std::vector<lie::SE3> g = read_node_poses(path, 4, 2);
  ASSERT_EQ(g.size(), 4u);
  for (int a = 0; a <= 3; ++a) EXPECT_EQ(g[a].r, Vec3(2, 0, 0.25 * (a + 0.5)));
  // Without j the file has every a three times.
  const std::string msg = error_message([&] { read_node_poses(path, 4); });
  EXPECT_TRUE(contains(msg, path.string() + ":6: column 'a': node 0 given twice (first on line 2)"))
      << msg;
  const std::string msg2 = error_message([&] { read_node_poses(path, 4, 3); });
  EXPECT_TRUE(contains(msg2, path.string() + ": no row with j = 3")) << msg2;
  const auto no_j = dir.write("no_j.csv", "a,x,y,z,qw,qx,qy,qz\n0,0,0,0,1,0,0,0\n");
  EXPECT_TRUE(contains(error_message([&] { read_node_poses(no_j, 1, 0); }), "no column 'j'"));
}

TEST(NodePoses, EveryNodeOnceErrorsNameLineAndValue) {
  test::TempFolder dir;
  const std::string header = "a,x,y,z,qw,qx,qy,qz\n";
  const std::string r0 = "0,0,0,0,1,0,0,0\n", r1 = "1,0,0,0,1,0,0,0\n";
  struct Case {
    std::string text;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {header + r0 + r1, ": node a = 2 is missing; the case has 3 nodes, a = 0..2"},
      {header + r0 + r1 + r1, ":4: column 'a': node 1 given twice (first on line 3)"},
      {header + r0 + r1 + "3,0,0,0,1,0,0,0\n",
       ":4: column 'a': node 3 is out of range; the case "
       "has 3 nodes, a = 0..2"},
      {header + r0 + "1.5,0,0,0,1,0,0,0\n", ":3: column 'a': 1.5 is not a whole number"},
      {header + r0 + r1 + "2,0,0,0,0.9,0,0,0\n",
       ":4: quaternion (qw, qx, qy, qz) = (0.9, 0, 0, 0) has norm 0.9"},
      {header + r0 + r1 + "2,0,0,0,1,0,0\n", ":4: 7 fields, but the header (line 1) has 8"},
  };
  for (const Case& c : cases) {
    const auto path = dir.write("row0.csv", c.text);
    const std::string msg = error_message([&] { read_node_poses(path, 3); });
    EXPECT_TRUE(contains(msg, path.string() + c.expected)) << msg;
  }
}

TEST(NodeVelocities, ColumnsInSpecOrder) {
  test::TempFolder dir;
  const auto path = dir.write("velocities.csv",
                              "v3,v2,v1,w3,w2,w1,a\n"
                              "6,5,4,3,2,1,1\n"
                              "-6,-5,-4,-3,-2,-1,0\n");
  const std::vector<Vec6> xi = read_node_velocities(path, 2);
  ASSERT_EQ(xi.size(), 2u);
  Vec6 expected;
  expected << 1, 2, 3, 4, 5, 6;  // (omega, gamma), theory §0.2
  EXPECT_EQ(xi[1], expected);
  EXPECT_EQ(xi[0], -expected);
  const std::string msg = error_message([&] { read_node_velocities(path, 3); });
  EXPECT_TRUE(contains(msg, path.string() + ": node a = 2 is missing")) << msg;
  const auto missing = dir.write("bad.csv", "a,w1,w2,w3,v1,v2\n0,0,0,0,0,0\n");
  EXPECT_TRUE(contains(error_message([&] { read_node_velocities(missing, 1); }), "no column 'v3'"));
}

TEST(PoseTrackFile, PrescribedEndMotion) {
  test::TempFolder dir;
  const auto path = dir.write("clamp.csv",
                              "t,x,y,z,qw,qx,qy,qz\n"
                              "0,0,0,0,1,0,0,0\n"
                              "1,2,0,0,0,0,0,1\n");
  const PoseTrack track = read_pose_track(path);
  EXPECT_EQ(track.size(), 2u);
  const lie::SE3 g = track.pose_at(0.5);
  EXPECT_LT((g.r - Vec3(1, 0, 0)).norm(), 1e-16);
  EXPECT_LT((g.R - lie::rotation_about(Vec3::UnitZ(), M_PI / 2)).cwiseAbs().maxCoeff(), 1e-15);
  const std::string msg = error_message([&] { track.pose_at(1.5); });
  EXPECT_TRUE(contains(msg, path.string() + ": t = 1.5 is outside the data's range [0, 1]")) << msg;
}

}  // namespace
}  // namespace field::io
