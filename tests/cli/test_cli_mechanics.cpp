// `field mechanics` on the shipped cases (shortened): exit codes, CSV columns and rows,
// conservation read from the CSV, frames, and the failures (docs/mechanics.md §7).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

/// The values of column `name` of a CSV file written by the program.
std::vector<double> column(const std::filesystem::path& path, const std::string& name) {
  std::istringstream in(read_text(path));
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream h(line);
  for (std::string cell; std::getline(h, cell, ',');) header.push_back(cell);
  std::size_t index = header.size();
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) index = i;
  EXPECT_LT(index, header.size()) << name;
  std::vector<double> values;
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string cell;
    for (std::size_t i = 0; i <= index; ++i) std::getline(row, cell, ',');
    values.push_back(std::stod(cell));
  }
  return values;
}

double spread(const std::vector<double>& v) {
  double lo = v.front(), hi = v.front();
  for (double x : v) lo = std::min(lo, x), hi = std::max(hi, x);
  return hi - lo;
}

TEST(CliMechanics, DoublePendulumCase) {
  const TempFolder folder;
  const auto case_file = copy_case(folder, "double_pendulum");
  ASSERT_TRUE(edit(case_file, "steps = 20000", "steps = 2000"));
  const CommandResult r = run_field("mechanics '" + case_file.string() + "' --out '" +
                                    (folder.path() / "run").string() + "'");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("max constraint residual"), std::string::npos) << r.output;
  const auto csv = folder.path() / "run" / "mechanics.csv";
  EXPECT_EQ(csv_rows(csv), 201);
  for (double g : column(csv, "constraint_residual")) EXPECT_LT(g, 1e-14);
  // Round-off: q_k+1 is rounded to eps |q|, p_k+1 = M (q_k+1 - q_k)/h + ... to eps |q| m / h
  // ~ 4e-13 per step at h = 1e-3, a random walk over 2000 steps (docs/mechanics.md §5).
  EXPECT_LT(spread(column(csv, "momentum_z")), 3e-11);
  EXPECT_LT(spread(column(csv, "energy")), 1e-2);
  EXPECT_GT(spread(column(csv, "z2")), 0.1);  // it moves
  EXPECT_TRUE(std::filesystem::exists(folder.path() / "run" / "frames" / "frame_000100.vtp"));
  EXPECT_NE(read_text(folder.path() / "run" / "mechanics.pvd").find("timestep=\"2\""),
            std::string::npos);
  // A second run into the same folder needs --force.
  const CommandResult again = run_field("mechanics '" + case_file.string() + "' --out '" +
                                        (folder.path() / "run").string() + "'");
  EXPECT_EQ(again.code, 5) << again.output;
  EXPECT_NE(again.output.find("--force"), std::string::npos) << again.output;
}

TEST(CliMechanics, RigidBodyBothForms) {
  const TempFolder folder;
  const auto case_file = copy_case(folder, "rigid_body");
  ASSERT_TRUE(edit(case_file, "steps = 3000", "steps = 500"));
  ASSERT_EQ(run_field("mechanics -q '" + case_file.string() + "' --out '" +
                      (folder.path() / "lie").string() + "'")
                .code,
            0);
  ASSERT_TRUE(edit(case_file, "form = \"lie_group\"", "form = \"rotation_matrix\""));
  const CommandResult r = run_field("mechanics -q '" + case_file.string() + "' --out '" +
                                    (folder.path() / "r9").string() + "'");
  ASSERT_EQ(r.code, 0) << r.output;
  for (const char* form : {"lie", "r9"}) {
    const auto csv = folder.path() / form / "mechanics.csv";
    EXPECT_EQ(csv_rows(csv), 501);
    for (const char* pi : {"pi_x", "pi_y", "pi_z"}) EXPECT_LT(spread(column(csv, pi)), 1e-12);
    EXPECT_LT(spread(column(csv, "energy")), 1e-11);
  }
  // The two forms give the same rotations (docs/mechanics.md §6.2).
  for (const char* q : {"qw", "qx", "qy", "qz"}) {
    const auto a = column(folder.path() / "lie" / "mechanics.csv", q);
    const auto b = column(folder.path() / "r9" / "mechanics.csv", q);
    for (std::size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-10) << q << " " << i;
  }
}

TEST(CliMechanics, FailuresHaveTheirExitCodes) {
  const TempFolder folder;
  const auto case_file = copy_case(folder, "double_pendulum");
  ASSERT_TRUE(edit(case_file, "m2 = 1.0", "m2 = 0"));
  CommandResult r = run_field("mechanics '" + case_file.string() + "' --out '" +
                              (folder.path() / "a").string() + "'");
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find("case.toml:18: [double_pendulum] m2 = 0: must be > 0"), std::string::npos)
      << r.output;
  ASSERT_TRUE(edit(case_file, "m2 = 0", "m2 = 1.0"));
  ASSERT_TRUE(edit(case_file, "h = 0.001", "h = 5.0"));
  ASSERT_TRUE(edit(case_file, "[method]", "[method]\nmax_iterations = 3"));
  r = run_field("mechanics '" + case_file.string() + "' --out '" + (folder.path() / "b").string() +
                "'");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("field: solver failed: mechanics: Newton"), std::string::npos)
      << r.output;
}

TEST(CliMechanics, OverflowingInitialStateIsRefusedBeforeAnyOutput) {
  // Every input is finite and positive, but the energy 1/2 m |v|^2 overflows: the program says
  // so and writes nothing, rather than a row of "inf".
  const TempFolder folder;
  const auto case_file = copy_case(folder, "double_pendulum");
  ASSERT_TRUE(edit(case_file, "v1 = [0.0, 1.0, 0.0]", "v1 = [0.0, 1e200, 0.0]"));
  const auto out = folder.path() / "out";
  const CommandResult r =
      run_field("mechanics '" + case_file.string() + "' --out '" + out.string() + "'");
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find("the initial state's energy, momenta or positions overflow"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace field::test
