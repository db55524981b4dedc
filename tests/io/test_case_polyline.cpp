// The stress-free shape as a centreline polyline with frames (theory §1.6, (1.6.4); [shape]
// polyline, meshes/README.md): eta0_a = tau^{-1}(g_a^{-1} g_{a+1}) / ds of the poses at the nodes.
// A circular arc gives the uniform-curvature strain (exactly with exp, the closed form
// (2 tan(theta/2)/ds, 0, 0, 0, 0, tan(theta/2)/(theta/2)) with Cayley), stations between the
// nodes are interpolated, the beam started in the shape stays at rest, and bad polylines are
// named by file, line and key.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/lie/so3.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

const std::string kHead =
    "format = 1\nmarch = \"time\"\n[beam]\nsection = \"square\"\nside = 0.1\nE = 1e5\nnu = 0.35\n"
    "rho = 1000\n";  // 8 lines

// kappa = 2 rad/m about d1 from the pose g0: g(s) = g0 exp(s (kappa e1, e3)), rows at s = s0 +
// k h, k = 0..n.
std::string arc_rows(double kappa, double s0, double h, int n, const lie::SE3& g0) {
  std::ostringstream out;
  out.precision(17);
  out << "s,x,y,z,qw,qx,qy,qz\n";
  for (int k = 0; k <= n; ++k) {
    const double s = s0 + k * h, th = kappa * s;
    const lie::SE3 local{lie::rotation_about(Vec3::UnitX(), th),
                         Vec3(0.0, -(1.0 - std::cos(th)) / kappa, std::sin(th) / kappa)};
    const lie::SE3 g = g0 * local;
    const Vec4 q = g.quat();
    out << s << "," << g.r.x() << "," << g.r.y() << "," << g.r.z() << "," << q(0) << "," << q(1)
        << "," << q(2) << "," << q(3) << "\n";
  }
  return out.str();
}

const lie::SE3 kBase{lie::rotation_about(Vec3(0.3, -0.5, 0.8).normalized(), 0.7),
                     Vec3(0.2, -0.1, 0.4)};

std::string grid(int A, double ds, const std::string& left, const std::string& retraction) {
  return "retraction = \"" + retraction + "\"\n" + kHead +
         "[shape]\npolyline = \"arc.csv\"\n[grid]\nA = " + std::to_string(A) +
         "\nds = " + std::to_string(ds) + "\ndt = 0.002\nJ = 200\n[boundary]\nleft = \"" + left +
         "\"\n[initial]\nconfiguration = \"stress_free\"\n";
}

TEST(CasePolyline, ArcAtTheNodesGivesTheUniformCurvature) {
  // Clamped-free: s_a = a ds, a = 0..A (the ghost included in the rows).
  const double kappa = 2.0, ds = 0.125, th = kappa * ds;
  const int A = 8;
  for (const std::string retraction : {"exp", "cayley"}) {
    test::TempFolder tmp;
    tmp.write("arc.csv", arc_rows(kappa, 0.0, ds, A, kBase));
    const Problem p(load_case(tmp.write("case.toml", grid(A, ds, "clamped", retraction))));
    const Vec6 expected = retraction == "exp" ? (Vec6() << kappa, 0, 0, 0, 0, 1).finished()
                                              : (Vec6() << 2 * std::tan(th / 2) / ds, 0, 0, 0, 0,
                                                 std::tan(th / 2) / (th / 2))
                                                    .finished();
    ASSERT_EQ(p.segment_data.reference_strains.size(), static_cast<size_t>(A)) << retraction;
    for (int a = 0; a < A; ++a)
      EXPECT_LT((p.segment_data.reference_strains[a] - expected).cwiseAbs().maxCoeff(), 1e-13)
          << retraction << " a = " << a;
    // Cayley's polyline strain differs from [shape] curvature = kappa by O((kappa ds)^2):
    // (kappa ds)^2/12 relative, 0.0052 here.
    if (retraction == "cayley") {
      EXPECT_NEAR(expected(0) / kappa - 1.0, th * th / 12.0, th * th * th * th / 50.0);
    }
  }
}

TEST(CasePolyline, StationsBetweenTheNodesAreInterpolated) {
  // Stations every ds/8 on a free-free beam (s_a = (a + 1/2) ds, off the stations by ds/2 at
  // most): slerp and linear positions between stations give eta0 = the arc's to O(h^2).
  const double kappa = 2.0, ds = 0.125;
  const int A = 8;
  test::TempFolder tmp;
  tmp.write("arc.csv", arc_rows(kappa, 0.0, ds / 8, 8 * A + 8, kBase));
  const Problem p(load_case(tmp.write("case.toml", grid(A, ds, "free", "exp"))));
  for (int a = 0; a < A; ++a) {
    const Vec6 d =
        p.segment_data.reference_strains[a] - (Vec6() << kappa, 0, 0, 0, 0, 1).finished();
    EXPECT_LT(d.cwiseAbs().maxCoeff(), 1e-3) << a;  // (kappa h)^2/8 = 1e-3 of the chord
  }
}

TEST(CasePolyline, GhostBeyondTheLastStationContinuesTheLastSegment) {
  // Clamped-free, rows up to the physical end s = (A - 1/2) ds: the ghost segment A-1 takes the
  // strain of segment A-2.
  const double kappa = 2.0, ds = 0.125;
  const int A = 8;
  test::TempFolder tmp;
  tmp.write("arc.csv", arc_rows(kappa, 0.0, ds / 2, 2 * A - 1, kBase));
  const Problem p(load_case(tmp.write("case.toml", grid(A, ds, "clamped", "exp"))));
  ASSERT_EQ(p.segments.size(), static_cast<size_t>(A));
  EXPECT_EQ(p.segment_data.reference_strains[A - 1], p.segment_data.reference_strains[A - 2]);
  EXPECT_LT(std::abs(p.segment_data.reference_strains[A - 1](0) - kappa), 1e-12);
}

TYPED_TEST_SUITE_P(PolylineStart);
template <class G>
class PolylineStart : public ::testing::Test {};

TYPED_TEST_P(PolylineStart, BeamStartedInThePolylineStaysAtRest) {
  // Row 0 is the polyline at the nodes, to round-off; marched 200 rows at rest it stays there
  // (a beam started straight in the same case moves by centimetres: it stores
  // 1/2 EI kappa^2 L).
  const double kappa = 2.0, ds = 0.125;
  const int A = 8;
  const std::string retraction = std::is_same_v<TypeParam, lie::Se3Exp> ? "exp" : "cayley";
  for (const std::string left : {"clamped", "free"}) {
    test::TempFolder tmp;
    const double s0 = left == "free" ? ds / 2 : 0.0;
    tmp.write("arc.csv", arc_rows(kappa, s0, ds, A, kBase));
    const Problem p(load_case(tmp.write("case.toml", grid(A, ds, left, retraction))));
    const auto in = time_march_input<TypeParam>(p);
    const std::vector<lie::SE3> nodes = [&] {
      std::vector<lie::SE3> out;
      for (int a = 0; a <= A; ++a) {
        const double th = kappa * (s0 + a * ds);
        out.push_back(kBase *
                      lie::SE3{lie::rotation_about(Vec3::UnitX(), th),
                               Vec3(0.0, -(1.0 - std::cos(th)) / kappa, std::sin(th) / kappa)});
      }
      return out;
    }();
    for (int a = 0; a <= A; ++a) {
      EXPECT_LT((in.row0[a].r - nodes[a].r).cwiseAbs().maxCoeff(), 1e-14) << left << a;
      EXPECT_LT((in.row0[a].R - nodes[a].R).cwiseAbs().maxCoeff(), 1e-14) << left << a;
    }
    const test::RecordedRun r = test::record_time_march(p.model<TypeParam>(), in, 1);
    ASSERT_TRUE(r.result.completed);
    double motion = 0.0;
    for (int j = 0; j <= r.field.mesh().J(); ++j)
      for (int a = 0; a <= A; ++a)
        motion = std::max({motion, (r.field(j, a).r - r.field(0, a).r).cwiseAbs().maxCoeff(),
                           (r.field(j, a).R - r.field(0, a).R).cwiseAbs().maxCoeff()});
    EXPECT_LE(motion, 1e-12) << left;
  }
}
REGISTER_TYPED_TEST_SUITE_P(PolylineStart, BeamStartedInThePolylineStaysAtRest);
INSTANTIATE_TYPED_TEST_SUITE_P(Groups, PolylineStart, test::Se3Groups, test::GroupNames);

TEST(CasePolyline, RunTomlKeepsThePolylineAndLeavesOutOriginAndAxis) {
  test::TempFolder tmp;
  tmp.write("arc.csv", arc_rows(2.0, 0.0, 0.125, 8, kBase));
  const Problem p(load_case(tmp.write("case.toml", grid(8, 0.125, "clamped", "cayley"))));
  std::ostringstream out;
  write_case(out, p.spec);
  EXPECT_TRUE(test::contains(out.str(), "[shape]\npolyline = ")) << out.str();
  EXPECT_FALSE(test::contains(out.str(), "origin =")) << out.str();
  const Problem back(load_case(tmp.write("run.toml", out.str())));
  EXPECT_EQ(back.segment_data.reference_strains, p.segment_data.reference_strains);
}

struct Bad {
  const char* name;
  std::string text;                // the case file
  std::string rows;                // arc.csv
  std::vector<std::string> words;  // the message must contain each
  friend void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }
};

class BadPolyline : public ::testing::TestWithParam<Bad> {};

TEST_P(BadPolyline, NamesFileLineAndKey) {
  test::TempFolder tmp;
  tmp.write("arc.csv", GetParam().rows);
  const auto file = tmp.write("bad.toml", GetParam().text);
  const std::string message = test::error_message([&] { Problem p(load_case(file)); });
  for (const auto& w : GetParam().words) EXPECT_TRUE(test::contains(message, w)) << message;
}

const std::string kHeader = "s,x,y,z,qw,qx,qy,qz\n";
// Case of 2 segments, clamped-free, ds = 0.5: nodes at s = 0, 0.5 and the ghost at 1; the
// polyline key on line 11.
const std::string kCase = grid(2, 0.5, "clamped", "cayley");

INSTANTIATE_TEST_SUITE_P(
    Errors, BadPolyline,
    ::testing::Values(Bad{"s_not_increasing",
                          kCase,
                          kHeader + "0,0,0,0,1,0,0,0\n0.5,0,0,0.5,1,0,0,0\n0.5,0,0,1,1,0,0,0\n",
                          {"arc.csv:4:", "column 's'", "does not increase",
                           "bad.toml:11: [shape] polyline)"}},
                      Bad{"not_unit_quaternion",
                          kCase,
                          kHeader + "0,0,0,0,1,0,0,0\n1,0,0,1,0.9,0,0,0\n",
                          {"arc.csv:3:", "has norm 0.9", "bad.toml:11: [shape] polyline)"}},
                      Bad{"does_not_cover_the_nodes",
                          kCase,
                          kHeader + "0.1,0,0,0,1,0,0,0\n1,0,0,1,1,0,0,0\n",
                          {"arc.csv", "s = 0 is outside the data's range [0.1, 1]"}},
                      Bad{"turns_by_pi",
                          kCase,
                          kHeader + "0,0,0,0,1,0,0,0\n0.5,0,0,0.5,1,0,0,0\n1,0,0,0.5,0,1,0,0\n",
                          {"arc.csv", "segment a = 1", "turns the frame by 3.14159"}},
                      Bad{"columns", kCase, "s,x,y,z,qw,qx,qy\n0,0,0,0,1,0,0\n", {"arc.csv", "qz"}},
                      Bad{"file_and_polyline",
                          kHead + "[shape]\nfile = \"a.csv\"\npolyline = \"arc.csv\"\n",
                          kHeader,
                          {"bad.toml:10:", "[shape] file",
                           "exactly one of curvature, strain, file and polyline"}},
                      Bad{"origin_with_polyline",
                          kCase + "origin = [1, 0, 0]\n",
                          kHeader + "0,0,0,0,1,0,0,0\n1,0,0,1,1,0,0,0\n",
                          {"bad.toml:21:", "[initial] origin",
                           "the [shape] polyline places the stress-free beam"}}),
    [](const ::testing::TestParamInfo<Bad>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace field::io
