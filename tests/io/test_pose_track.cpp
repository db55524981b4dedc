// PoseTrack and slerp (libfield/io/pose_track.hpp): resampling on SE(3) (half angle, sign
// continuity, second-order convergence, samples returned bit for bit) and the row checks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>

#include "libfield/io/csv_table.hpp"
#include "libfield/io/pose_track.hpp"
#include "libfield/lie/so3.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/random.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

using test::contains;
using test::error_message;

Vec4 quat_about(const Vec3& axis, double angle) {
  const Vec3 n = axis.normalized();
  return Vec4(std::cos(angle / 2), std::sin(angle / 2) * n(0), std::sin(angle / 2) * n(1),
              std::sin(angle / 2) * n(2));
}

/// Rotation angle between two rotation matrices [rad].
double angle_between(const Mat3& a, const Mat3& b) {
  return Eigen::AngleAxisd(a.transpose() * b).angle();
}

bool bitwise_equal(const lie::SE3& a, const lie::SE3& b) {
  return std::memcmp(a.R.data(), b.R.data(), sizeof(double) * 9) == 0 &&
         std::memcmp(a.r.data(), b.r.data(), sizeof(double) * 3) == 0;
}

/// A table t, x, y, z, qw, qx, qy, qz, v1..v6 built in memory (lines 2, 3, ...).
CsvTable make_table(const std::vector<double>& t, const std::vector<Vec4>& q,
                    const std::vector<Vec3>& r, const std::vector<Vec6>& v = {}) {
  CsvTable table;
  table.path = "memory.csv";
  table.header_line = 1;
  table.columns = {"t", "x", "y", "z", "qw", "qx", "qy", "qz"};
  if (!v.empty()) table.columns.insert(table.columns.end(), {"v1", "v2", "v3", "v4", "v5", "v6"});
  for (std::size_t i = 0; i < t.size(); ++i) {
    std::vector<double> row = {t[i], r[i](0), r[i](1), r[i](2), q[i](0), q[i](1), q[i](2), q[i](3)};
    if (!v.empty())
      for (int c = 0; c < 6; ++c) row.push_back(v[i](c));
    table.rows.push_back(row);
    table.lines.push_back(static_cast<int>(i) + 2);
  }
  return table;
}

const std::vector<std::string> kVectorColumns = {"v1", "v2", "v3", "v4", "v5", "v6"};

TEST(Slerp, MidpointOfTwoRotationsAboutOneAxisIsTheHalfAngle) {
  test::Random rnd;
  double worst = 0.0;
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 axis = rnd.unit3();
    const double a0 = rnd.uniform(-M_PI, M_PI);
    const double a1 = a0 + rnd.uniform(-3.1, 3.1);  // less than pi apart: the shorter arc
    for (const double u : {0.5, 0.1, 0.9, 1.0 / 3.0}) {
      const Vec4 q = slerp(quat_about(axis, a0), quat_about(axis, a1), u);
      const Mat3 expected = lie::rotation_about(axis, a0 + u * (a1 - a0));
      worst = std::max(worst, (lie::rotation_from_quat(q) - expected).cwiseAbs().maxCoeff());
      EXPECT_NEAR(q.norm(), 1.0, 4e-16);
    }
  }
  EXPECT_LT(worst, 2e-15);
}

TEST(Slerp, EndsAndCoincidentOrNearlyCoincidentRotations) {
  const Vec3 axis(1, 2, -0.5);
  const Vec4 q0 = quat_about(axis, 0.7);
  const Vec4 q1 = quat_about(axis, 1.9);
  EXPECT_LT((slerp(q0, q1, 0.0) - q0).norm(), 1e-16);
  EXPECT_LT((slerp(q0, q1, 1.0) - q1).norm(), 3e-16);
  EXPECT_LT((slerp(q0, q0, 0.3) - q0).norm(), 3e-16);  // theta = 0: weights (1 - u, u), no 0/0
  for (const double d : {1e-12, 1e-8, 1e-4}) {
    const Vec4 q = slerp(q0, quat_about(axis, 0.7 + d), 0.25);
    EXPECT_LT((q - quat_about(axis, 0.7 + 0.25 * d)).norm(), 4e-16) << d;  // a few ulps
  }
}

TEST(Slerp, SignContinuityTakesTheShorterArc) {
  // q and -q are the same rotation; interpolating towards -q1 must not turn the long way round.
  const Vec3 axis(0.3, -1, 0.2);
  for (const double a1 : {0.4, 2.0, 3.0}) {
    const Vec4 q0 = quat_about(axis, 0.1);
    const Vec4 q1 = quat_about(axis, a1);
    for (const double u : {0.25, 0.5, 0.75}) {
      const Mat3 plus = lie::rotation_from_quat(slerp(q0, q1, u));
      const Mat3 minus = lie::rotation_from_quat(slerp(q0, -q1, u));
      EXPECT_LT((plus - minus).cwiseAbs().maxCoeff(), 1e-15) << a1 << " " << u;
      EXPECT_LT(angle_between(plus, lie::rotation_about(axis, 0.1 + u * (a1 - 0.1))), 1e-14);
    }
  }
}

TEST(PoseTrack, SignFlippedNeighboursGiveTheSameRotationsAsTheContinuousTrack) {
  // A rotation about one axis sampled every 0.3 rad, with every other quaternion negated.
  const Vec3 axis(1, 1, 0);
  std::vector<double> t;
  std::vector<Vec4> q, q_flipped;
  std::vector<Vec3> r;
  for (int i = 0; i <= 10; ++i) {
    t.push_back(0.1 * i);
    q.push_back(quat_about(axis, 3.0 * t.back()));
    q_flipped.push_back(i % 2 ? Vec4(-q.back()) : q.back());
    r.push_back(Vec3(t.back(), 0, 0));
  }
  const PoseTrack plain = PoseTrack::from_table(make_table(t, q, r), "t", {});
  const PoseTrack flipped = PoseTrack::from_table(make_table(t, q_flipped, r), "t", {});
  double worst = 0.0, worst_angle = 0.0;
  for (int k = 0; k <= 100; ++k) {
    const double key = 0.01 * k + 0.0037 * (k < 100);
    const Mat3 a = plain.pose_at(key).R;
    worst = std::max(worst, (a - flipped.pose_at(key).R).cwiseAbs().maxCoeff());
    // One axis: slerp is exact, angle 3 t (no 2 pi turn between samples).
    worst_angle = std::max(worst_angle, angle_between(a, lie::rotation_about(axis, 3.0 * key)));
  }
  EXPECT_LT(worst, 2e-15);
  EXPECT_LT(worst_angle, 1e-14);
}

TEST(PoseTrack, OnASampleReturnsThatSampleBitForBit) {
  test::Random rnd;
  std::vector<double> t;
  std::vector<Vec4> q;
  std::vector<Vec3> r;
  std::vector<Vec6> v;
  for (int i = 0; i < 20; ++i) {
    t.push_back(0.1 * i);                    // keys like 0.30000000000000004
    const double angle = rnd.uniform(0, 3);  // before the axis: GCC's order (support/random.hpp)
    q.push_back(quat_about(rnd.unit3(), angle));
    r.push_back(rnd.vec3());
    v.push_back(rnd.vec6());
  }
  const PoseTrack track = PoseTrack::from_table(make_table(t, q, r, v), "t", kVectorColumns);
  EXPECT_EQ(track.size(), 20u);
  EXPECT_TRUE(track.on_grid(0.0, 0.1, 20));
  EXPECT_FALSE(track.on_grid(0.0, 0.1, 21));  // 1.9 is the last sample
  EXPECT_FALSE(track.on_grid(0.0, 0.05, 3));
  for (std::size_t i = 0; i < track.size(); ++i) {
    EXPECT_TRUE(bitwise_equal(track.pose_at(track.key(i)), track.pose(i))) << i;
    EXPECT_EQ(track.vector_at(track.key(i)), track.vector(i)) << i;
    EXPECT_EQ(track.pose(i).r, r[i]);
    EXPECT_EQ(track.sample_at(i * 0.1, 0.1), static_cast<long>(i));
  }
}

/// Smooth motion with a rotation axis that turns: slerp is not exact on it.
lie::SE3 smooth_pose(double t) {
  return lie::SE3{lie::rotation_about(Vec3(0, 0, 1), 2.0 * t) *
                      lie::rotation_about(Vec3(1, 0.5, 0), 1.5 * std::sin(3.0 * t)),
                  Vec3(std::sin(2 * t), std::cos(3 * t), t * t)};
}
Vec6 smooth_vector(double t) {
  Vec6 v;
  v << std::sin(t), std::cos(2 * t), t * t * t, std::exp(t), 1.0 / (1 + t), 0.5;
  return v;
}

TEST(PoseTrack, ResamplingConvergesAtSecondOrder) {
  // Samples at t_i = i / N on [0, 1], read at 997 points between them; errors max over them.
  std::vector<double> err_r, err_R, err_v;
  const int Ns[] = {8, 16, 32, 64, 128};
  for (const int N : Ns) {
    std::vector<double> t;
    std::vector<Vec4> q;
    std::vector<Vec3> r;
    std::vector<Vec6> v;
    for (int i = 0; i <= N; ++i) {
      t.push_back(static_cast<double>(i) / N);
      const lie::SE3 g = smooth_pose(t.back());
      q.push_back(i % 3 == 1 ? Vec4(-g.quat()) : g.quat());  // signs as a sensor might give
      r.push_back(g.r);
      v.push_back(smooth_vector(t.back()));
    }
    const PoseTrack track = PoseTrack::from_table(make_table(t, q, r, v), "t", kVectorColumns);
    double er = 0, eR = 0, ev = 0;
    for (int k = 1; k < 998; ++k) {
      const double key = k / 998.0;
      const lie::SE3 exact = smooth_pose(key), g = track.pose_at(key);
      er = std::max(er, (g.r - exact.r).norm());
      eR = std::max(eR, angle_between(g.R, exact.R));
      ev = std::max(ev, (track.vector_at(key) - smooth_vector(key)).norm());
    }
    err_r.push_back(er);
    err_R.push_back(eR);
    err_v.push_back(ev);
  }
  for (std::size_t k = 0; k + 1 < err_r.size(); ++k) {
    const double p_r = std::log2(err_r[k] / err_r[k + 1]);
    const double p_R = std::log2(err_R[k] / err_R[k + 1]);
    const double p_v = std::log2(err_v[k] / err_v[k + 1]);
    std::cout << "N = " << Ns[k] << " -> " << Ns[k + 1] << ": errors position " << err_r[k + 1]
              << " rotation " << err_R[k + 1] << " vector " << err_v[k + 1] << "; orders " << p_r
              << " " << p_R << " " << p_v << "\n";
    // Linear interpolation error h^2/8 max|f''| (slerp: the same on the geodesic between
    // samples): order 2; measured 1.94..2.00 from N = 8 on.
    const double lo = 1.9, hi = 2.1;
    EXPECT_GT(p_r, lo);
    EXPECT_LT(p_r, hi);
    EXPECT_GT(p_R, lo);
    EXPECT_LT(p_R, hi);
    EXPECT_GT(p_v, lo);
    EXPECT_LT(p_v, hi);
  }
}

TEST(PoseTrack, OutsideTheRangeIsAnErrorNamingKeyRangeAndFile) {
  const std::vector<Vec4> q(3, Vec4(1, 0, 0, 0));
  const std::vector<Vec3> r = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)};
  const PoseTrack track = PoseTrack::from_table(make_table({0.5, 1.0, 2.5}, q, r), "t", {});
  const std::string msg = error_message([&] { track.pose_at(2.6); });
  EXPECT_TRUE(contains(msg,
                       "memory.csv: t = 2.6 is outside the data's range "
                       "[0.5, 2.5] (t of lines 2 and 4)"))
      << msg;
  EXPECT_TRUE(contains(error_message([&] { track.pose_at(0.4); }), "t = 0.4 is outside"));
  // Within 1e-9 * span of an end: the end sample.
  EXPECT_EQ(track.pose_at(2.5 + 1e-9).r, r[2]);
  EXPECT_EQ(track.pose_at(0.5 - 1e-9).r, r[0]);
  EXPECT_TRUE(contains(error_message([&] { track.pose_at(2.5 + 3e-9); }), "outside"));
  EXPECT_TRUE(contains(error_message([&] { track.vector_at(1.0); }), "no vector columns"));
}

// ---- rows read from files: the line numbers are the file's -----------------------------------

std::string track_file(const std::string& row3) {
  return "t,x,y,z,qw,qx,qy,qz\n"
         "# comment\n"
         "0.0, 0, 0, 0, 1, 0, 0, 0\n" +
         row3 + "\n" + "0.2, 0, 0, 0, 1, 0, 0, 0\n";
}

PoseTrack read_track(const std::filesystem::path& path) {
  return PoseTrack::from_table(read_csv(path, {"t", "x", "y", "z", "qw", "qx", "qy", "qz"}), "t",
                               {});
}

TEST(PoseTrack, TimesMustIncreaseStrictly) {
  test::TempFolder dir;
  for (const std::string t : {"0.0", "-0.1"}) {
    const auto path = dir.write("track.csv", track_file(t + ", 0, 0, 0, 1, 0, 0, 0"));
    const std::string msg = error_message([&] { read_track(path); });
    EXPECT_TRUE(contains(msg, path.string() + ":4: column 't': " + (t == "0.0" ? "0" : "-0.1") +
                                  " does not increase (previous row, line 3: t = 0)"))
        << msg;
  }
}

TEST(PoseTrack, QuaternionBeyondToleranceIsAnErrorNamingLineAndNorm) {
  test::TempFolder dir;
  const auto path = dir.write("track.csv", track_file("0.1, 0, 0, 0, 1.01, 0, 0, 0"));
  const std::string msg = error_message([&] { read_track(path); });
  EXPECT_TRUE(contains(msg, path.string() + ":4: quaternion (qw, qx, qy, qz) = (1.01, 0, 0, 0)"))
      << msg;
  EXPECT_TRUE(contains(msg, "has norm 1.01, not 1 within 1e-06")) << msg;
  const auto zero = dir.write("zero.csv", track_file("0.1, 0, 0, 0, 0, 0, 0, 0"));
  EXPECT_TRUE(contains(error_message([&] { read_track(zero); }), "has norm 0,")) << msg;
}

TEST(PoseTrack, QuaternionWithinToleranceIsRenormalised) {
  test::TempFolder dir;
  // Norm 1 + 5e-7: the rotation of the normalised quaternion.
  const double c = std::cos(0.3), s = std::sin(0.3), k = 1.0 + 5e-7;
  char row[200];
  std::snprintf(row, sizeof row, "0.1, 1, 2, 3, %.17g, 0, %.17g, 0", k * c, k * s);
  const PoseTrack track = read_track(dir.write("track.csv", track_file(row)));
  EXPECT_LT((track.quat(1) - Vec4(c, 0, s, 0)).norm(), 1e-15);
  EXPECT_LT(std::abs(track.quat(1).norm() - 1.0), 3e-16);
  const Mat3 R = track.pose(1).R;
  EXPECT_LT((R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((R - lie::rotation_about(Vec3::UnitY(), 0.6)).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_EQ(track.pose(1).r, Vec3(1, 2, 3));
}

TEST(PoseTrack, NoRowsIsAnError) {
  test::TempFolder dir;
  const auto path = dir.write("track.csv", "t,x,y,z,qw,qx,qy,qz\n");
  const std::string msg = error_message([&] { read_track(path); });
  EXPECT_TRUE(contains(msg, path.string() + ": no data rows after the header (line 1)")) << msg;
}

}  // namespace
}  // namespace field::io
