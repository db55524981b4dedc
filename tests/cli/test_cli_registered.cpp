// A registered theory through the real program (io/registered_case.hpp, meshes/string_wave: the
// linear string of theory §1.9, which has no code in io/ or apps/): `field info`, `field simulate`
// and `field check` run it with the outputs of every theory (field.csv, tip.csv, string.pvd with
// frames/, spacetime.vtu, the series, summary.json naming the theory); one and two threads give
// the same bytes; bad input is refused naming file, line, key and value.
#include <gtest/gtest.h>

#include <cmath>
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
