// The right-angle cantilever of Simo & Vu-Quoc (1988) from its shipped case (meshes/right_angle,
// docs/validation/right_angle.md): the full 30 s at the case's A = 21 (ds = 40/41 m, legs of
// exactly 10 m from [shape] polyline, the corner on node 10 with the section table of theory
// §1.6, "A corner on a node"), dt = ds/2000, streamed; the out-of-plane (e1) displacements of
// the elbow (node 10, s = 10 m) and of the free end (mean of nodes 20 and 21, s = 20 m) against
// the digitised published histories (meshes/right_angle/reference.csv). Measured: RMS
// differences 0.32 m (elbow) and 0.40 m (tip) on peaks of 6.1 m and 9.7 m; 0.35 m and 0.32 m at
// A = 81 (no time shift explains the rest: docs/validation/right_angle.md). The order in ds is the
// ctest right_angle_order (scripts/validation/right_angle.py). A wrong load, section or
// geometry moves the curves by more than these bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/march/time_march.hpp"

namespace field::test {
namespace {

struct Point {
  double t, u;
};

std::vector<Point> reference(const std::string& which) {
  std::ifstream in(std::filesystem::path(FIELD_SOURCE_DIR) / "meshes/right_angle/reference.csv");
  std::vector<Point> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("point", 0) == 0) continue;
    std::istringstream s(line);
    std::string name, t, u;
    std::getline(s, name, ',');
    std::getline(s, t, ',');
    std::getline(s, u, ',');
    if (name == which) out.push_back({std::stod(t), std::stod(u)});
  }
  return out;
}

/// Keeps the e1 displacement of the elbow and of the free end of every row.
class Histories : public march::SlabObserver {
 public:
  Histories(int elbow_node, int A) : elbow_(elbow_node), A_(A) {}
  void slab(int, const std::vector<lie::SE3>& g, const march::SlabStats&) override {
    if (elbow.empty()) elbow_start = g[elbow_].r;
    elbow.push_back(g[elbow_].r.x());
    tip.push_back(0.5 * (g[A_ - 1].r.x() + g[A_].r.x()));
  }
  std::vector<double> elbow, tip;
  Vec3 elbow_start = Vec3::Zero();

 private:
  int elbow_, A_;
};

double linear(const std::vector<double>& u, double dt, double t) {
  const int j = std::min(static_cast<int>(t / dt), static_cast<int>(u.size()) - 2);
  const double w = t / dt - j;
  return (1.0 - w) * u[j] + w * u[j + 1];
}

TEST(RightAngle, ElbowAndTipHistoriesFollowThePublishedCurves) {
  const io::Problem problem(
      io::load_case(std::filesystem::path(FIELD_SOURCE_DIR) / "meshes/right_angle/case.toml"));
  ASSERT_EQ(problem.spec.A, 21);
  ASSERT_NEAR(problem.spec.duration(), 30.0, 1e-9);
  const dcel::DiscreteModel<lie::Se3Cayley> model = problem.model<lie::Se3Cayley>();
  Histories h(10, problem.spec.A);
  march::MarchOptions options;
  options.threads = 1;
  const march::MarchResult r =
      march::time_march(model, io::time_march_input<lie::Se3Cayley>(problem), {&h}, options);
  ASSERT_TRUE(r.completed);
  EXPECT_LT((h.elbow_start - Vec3(0.0, 0.0, 10.0)).norm(), 1e-12);  // node 10: the corner
  const double dt = problem.spec.dt;
  struct Curve {
    const char* name;
    const std::vector<double>& u;
  };
  for (const Curve& c : {Curve{"elbow", h.elbow}, Curve{"tip", h.tip}}) {
    const std::vector<Point> ref = reference(c.name);
    ASSERT_GT(ref.size(), 50u);
    double sum = 0.0, peak = 0.0, ours = 0.0;
    for (const Point& p : ref) {
      sum += std::pow(linear(c.u, dt, p.t) - p.u, 2);
      peak = std::max(peak, std::abs(p.u));
    }
    for (double u : c.u) ours = std::max(ours, std::abs(u));
    const double rms = std::sqrt(sum / ref.size());
    std::printf(
        "[right angle, A = 21] %s: RMS difference from the published curve %.3f m "
        "(%zu points), peak |u| %.2f m (published %.2f m)\n",
        c.name, rms, ref.size(), ours, peak);
    // measured 0.32 m (elbow) and 0.40 m (tip); 0.34 m, 0.34 m at A = 41
    EXPECT_LT(rms, std::string(c.name) == "elbow" ? 0.4 : 0.5) << c.name;
    EXPECT_LT(std::abs(ours - peak), 0.3) << c.name;  // measured 0.02 m, 0.08 m
  }
}

}  // namespace
}  // namespace field::test
