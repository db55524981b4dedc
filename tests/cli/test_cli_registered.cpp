// A registered theory through the real program (io/registered_case.hpp, meshes/string_wave: the
// linear string of theory §1.9, which has no code in io/ or apps/): `field info`, `field simulate`
// and `field check` run it with the outputs of every theory (field.csv, tip.csv, string.pvd with
// frames/, spacetime.vtu, the series, summary.json naming the theory); one and two threads give
// the same bytes; bad input is refused naming file, line, key and value.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

TEST(CliRegistered, TheStringRunsAndChecksWithTheOutputsOfEveryTheory) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "string_wave");
  const CommandResult info = run_field("info " + file.string());
  ASSERT_EQ(info.code, 0) << info.output;
  for (const char* says :
       {"theory: \"string\" (registered", "k = 1  (stiffness k [N]", "reference_strain = [1, 0, 0]",
        "velocity: uniform xi = [0, 0, 1]", "c_E dt/ds = 0.5"})
    EXPECT_NE(info.output.find(says), std::string::npos) << says << "\n" << info.output;

  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("time march (\"string\" on R^3)"), std::string::npos) << r.output;
  for (const char* f :
       {"field.csv", "tip.csv", "time_series.csv", "string.pvd", "frames/string_000000.vtp",
        "frames/string_000160.vtp", "spacetime.vtu", "run.toml"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  EXPECT_EQ(summary_value(out, "theory"), "\"string\"");
  EXPECT_EQ(read_text(out / "tip.csv").substr(0, 39), "t,x,y,z,xi1,xi2,xi3,eta1,eta2,eta3\n0,0,");
  // Node a moves as a free node (z = t, the uniform velocity) until the clamps' influence, one
  // node a step, reaches it: the middle a = 20 on row j = 20 (t = 0.125 s).
  int seen = 0;
  for (const auto& row : csv_numbers(out / "field.csv")) {
    if (row[0] != 20 || row[1] != 20) continue;
    EXPECT_NEAR(row[6], 0.125, 1e-15);
    ++seen;
  }
  EXPECT_EQ(seen, 1);
  const CommandResult check = run_field("check " + out.string());
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("theory \"string\" (registered) on R^3"), std::string::npos)
      << check.output;
  EXPECT_NE(check.output.find("check passed"), std::string::npos) << check.output;

  // The same bytes on two threads (fixed-order reductions), and run.toml runs again.
  const fs::path two = tmp / "two";
  ASSERT_EQ(
      run_field("simulate " + (out / "run.toml").string() + " --threads 2 -q --out " + two.string())
          .code,
      0);
  for (const char* f : {"field.csv", "tip.csv", "time_series.csv", "frames/string_000080.vtp"})
    EXPECT_EQ(read_text(out / f), read_text(two / f)) << f;
}

// `field reconstruct` of a registered theory: the string simulated at c dt = ds (the lattice's
// exact step, theory (1.9.3)) and rebuilt by the space march of theory §6.2 from its tip.csv
// (the generic reader, io/plain_space_case.hpp) equals the simulation on the rows the
// zero-momentum rows j = 0 and J have not reached (a <= j <= J - a); `field check` passes.
TEST(CliRegistered, TheStringIsRebuiltFromItsTip) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "string_wave");
  ASSERT_TRUE(edit(file, "dt = 6.25e-3", "dt = 0.0125"));
  ASSERT_TRUE(edit(file, "J = 160", "J = 80"));
  const fs::path sim = tmp / "sim";
  ASSERT_EQ(run_field("simulate " + file.string() + " -q --out " + sim.string()).code, 0);
  const fs::path rec_case = tmp / "rec.toml";
  write_text(rec_case, R"(format = 1
march = "space"
theory = "string"

[string]
rho = 0.25
k = 1.0
reference_strain = [1.0, 0.0, 0.0]

[grid]
A = 40
ds = 0.025
J = 80
dt = 0.0125

[tip]
file = "sim/tip.csv"
)");
  const CommandResult info = run_field("info " + rec_case.string());
  EXPECT_EQ(info.code, 0) << info.output;
  EXPECT_NE(info.output.find("ds/(c_G dt) = 1 (<= 1 needed)"), std::string::npos) << info.output;
  const fs::path rec = tmp / "rec";
  const CommandResult r = run_field("reconstruct " + rec_case.string() + " --out " + rec.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("space march (\"string\" on R^3)"), std::string::npos) << r.output;
  std::map<std::pair<int, int>, std::vector<double>> simulated;
  for (const auto& row : csv_numbers(sim / "field.csv"))
    simulated[{int(row[0]), int(row[1])}] = {row[4], row[5], row[6]};
  double inside = 0.0, outside = 0.0;
  int nodes = 0;
  for (const auto& row : csv_numbers(rec / "field.csv")) {
    const int j = int(row[0]), a = int(row[1]);
    const std::vector<double>& s = simulated.at({j, a});
    const double d = std::hypot(row[4] - s[0], row[5] - s[1], row[6] - s[2]);
    double& worst = a <= j && j <= 80 - a ? inside : outside;
    worst = std::max(worst, d);
    ++nodes;
  }
  EXPECT_EQ(nodes, 81 * 41);
  EXPECT_LT(inside, 1e-14);  // measured 7.2e-16 m
  EXPECT_GT(outside, 0.1);   // the rows' zero momentum is not the simulation's
  const CommandResult check = run_field("check " + rec.string());
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("space march, theory \"string\" (registered) on R^3"),
            std::string::npos)
      << check.output;
}

TEST(CliRegistered, BadInputIsRefusedBeforeAnythingIsWritten) {
  expect_refused("string_wave", "k = 1.0", "k = 0.0", "[string] k = 0.0: must be > 0");
  expect_refused("string_wave", "theory = \"string\"", "theory = \"strings\"",
                 "expected one of \"beam\", \"planar_beam\", \"cable\", \"string\"");
  expect_refused("string_wave", "rho = 0.25", "rho = 0.25\ndensity = 3.0",
                 "unknown key [string] density (allowed here: k, reference_strain, rho");
  expect_refused("string_wave", "right = \"clamped\"", "right = { prescribed = \"m.csv\" }",
                 "a prescribed end is not supported for theory = \"string\"");
}

}  // namespace
}  // namespace field::test
