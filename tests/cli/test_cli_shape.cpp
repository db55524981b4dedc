// Stress-free shapes through the real program (theory §1.6, meshes/README.md [shape]): a curved
// beam driven at its tip from rest in its stress-free shape is rebuilt from its tip.csv by the
// driven reconstruction, which starts in the same shape, to round-off; the kinked right_angle
// case without its load stays at rest.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

/// The pose columns x, y, z, qw, qx, qy, qz (from column `first`) of every line of a field.csv.
std::vector<std::vector<double>> poses(const fs::path& path, std::size_t first) {
  return csv_numbers(path, first, 7);
}

double max_difference(const std::vector<std::vector<double>>& x,
                      const std::vector<std::vector<double>>& y) {
  EXPECT_EQ(x.size(), y.size());
  double d = 0.0;
  for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i)
    for (std::size_t k = 0; k < std::min(x[i].size(), y[i].size()); ++k)
      d = std::max(d, std::abs(x[i][k] - y[i][k]));
  return d;
}

TEST(CliShape, CurvedBeamDrivenReconstructionStartsInItsShape) {
  TempFolder tmp;
  const fs::path sim = copy_case(tmp, "driven", "simulate.toml");
  const fs::path rec = sim.parent_path() / "case.toml";
  const std::string shape = "[shape]\ncurvature = [0.8, 0.0, 0.3]\n\n[grid]";
  ASSERT_TRUE(edit(sim, "[grid]", shape));
  ASSERT_TRUE(edit(rec, "[grid]", shape));
  ASSERT_TRUE(edit(sim, "configuration = \"straight\"", "configuration = \"stress_free\""));
  const fs::path simulated = tmp / "sim", rebuilt = tmp / "rec";
  const CommandResult s = run_field("simulate " + sim.string() + " --out " + simulated.string());
  ASSERT_EQ(s.code, 0) << s.output;
  const CommandResult r =
      run_field("reconstruct " + rec.string() + " --tip " + (simulated / "tip.csv").string() +
                " --out " + rebuilt.string());
  ASSERT_EQ(r.code, 0) << r.output;
  // field.csv columns j, a, t, s, x, y, z, qw, qx, qy, qz, ...: measured 2.3e-14.
  const double d =
      max_difference(poses(simulated / "field.csv", 4), poses(rebuilt / "field.csv", 4));
  EXPECT_LT(d, 1e-12);
  // The same reconstruction from a straight start would differ by the curvature's sag.
  EXPECT_EQ(run_field("check " + rebuilt.string()).code, 0);
}

TEST(CliShape, RightAngleWithoutLoadStaysAtRest) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "right_angle");
  std::string text = read_text(file);
  const auto from = text.find("[[loads.point]]"), to = text.find("[output]");
  ASSERT_NE(from, std::string::npos);
  text.erase(from, to - from);
  write_text(file, text);
  ASSERT_TRUE(edit(file, "J = 61500", "J = 400"));
  ASSERT_TRUE(edit(file, "\nstride = 20", "\nstride = 1"));
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto all = poses(out / "field.csv", 4);
  ASSERT_EQ(all.size(), 401u * 22u);
  const std::vector<std::vector<double>> first(all.begin(), all.begin() + 22);
  double d = 0.0;
  for (std::size_t j = 0; j <= 400; ++j)
    d = std::max(d, max_difference(first, std::vector<std::vector<double>>(
                                              all.begin() + 22 * j, all.begin() + 22 * (j + 1))));
  EXPECT_LT(d, 1e-10);  // positions ~10 m: measured 8e-12 over 2000 rows
  // Row 0 is the polyline, the exact right angle with the corner on node 10 (theory §1.6, "A
  // corner on a node"): node 10 at z = 10, leg 2 along -e2 at z = 10 in segments of 20/21 m,
  // the ghost node 21 at 11 * 20/21 m along it.
  EXPECT_NEAR(all[10][1], 0.0, 1e-12);
  EXPECT_NEAR(all[10][2], 10.0, 1e-12);
  EXPECT_NEAR(all[21][1], -220.0 / 21.0, 1e-12);
  EXPECT_NEAR(all[21][2], 10.0, 1e-12);
}

}  // namespace
}  // namespace field::test
