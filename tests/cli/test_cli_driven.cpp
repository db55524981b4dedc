// The driven reconstruction through the real program (docs/reconstruction.md): a beam driven at
// its tip from rest (meshes/driven/simulate.toml) is rebuilt from its tip.csv by `field
// reconstruct` with [reconstruct] method = "driven" to round-off; its tip-strain consistency
// figure is printed and in summary.json; `field check` accepts the run; the sensor keys
// ([tip] time_offset, strain_at) through the program; bad input leaves no run folder.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

/// max |a - b| over the columns from `first` on, after checking that both have the same shape.
double max_difference(const fs::path& a, const fs::path& b, std::size_t first) {
  const auto x = csv_numbers(a), y = csv_numbers(b);
  EXPECT_EQ(x.size(), y.size());
  double d = 0.0;
  for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
    EXPECT_EQ(x[i].size(), y[i].size());
    for (std::size_t k = 0; k < std::min(first, x[i].size()); ++k) EXPECT_EQ(x[i][k], y[i][k]);
    for (std::size_t k = first; k < std::min(x[i].size(), y[i].size()); ++k)
      d = std::max(d, std::abs(x[i][k] - y[i][k]));
  }
  return d;
}

TEST(CliDriven, RebuildsASimulatedDrivenBeamToRoundOff) {
  DrivenRun run;
  // The shipped tip.csv is the simulation's, byte for byte.
  EXPECT_EQ(read_text(run.simulated / "tip.csv"),
            read_text(run.case_file.parent_path() / "tip.csv"));
  const fs::path out = run.tmp / "rec";
  const CommandResult r =
      run_field("reconstruct " + run.case_file.string() + " --tip " +
                (run.simulated / "tip.csv").string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  for (const char* w :
       {"driven reconstruction, time march (cayley) with the tip prescribed, far "
        "end free, A = 10, J = 250",
        "251 samples on the grid", "tip strain, predicted - measured over 250 rows"})
    EXPECT_NE(r.output.find(w), std::string::npos) << w << "\n" << r.output;
  // Same rows, nodes, t and s; poses to round-off. The inputs differ only by the tip rotations'
  // trip through a quaternion (a few eps); the time march is stable and carries that to at
  // most ~50 eps x |r| ~ 1e-14 here (measured 1.1e-14): 1e-12 leaves a factor 100 and is far
  // below any modelling difference (another start, far end or ds gives >= 1e-4).
  EXPECT_LT(max_difference(run.simulated / "field.csv", out / "field.csv", 4), 1e-12);
  EXPECT_LT(summary_number(out, "tip_curvature_misfit_max"), 1e-11);
  EXPECT_LT(summary_number(out, "tip_shear_misfit_max"), 1e-12);
  EXPECT_EQ(summary_number(out, "tip_strain_misfit_rows"), 250);
  EXPECT_NE(read_text(out / "summary.json").find("\"method\": \"driven\""), std::string::npos);
  EXPECT_NE(read_text(out / "run.toml").find("method = \"driven\""), std::string::npos);
  for (const char* f : {"time_series.csv", "beam.pvd", "spacetime.vtu"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  const CommandResult check = run_field("check " + out.string());
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("time march"), std::string::npos) << check.output;

  // The wrong far end: the run completes, and the consistency figure shows it.
  ASSERT_TRUE(edit(run.case_file, "far_end = \"free\"", "far_end = \"clamped\""));
  const fs::path clamped = run.tmp / "clamped";
  const CommandResult c =
      run_field("reconstruct " + run.case_file.string() + " -q --out " + clamped.string());
  ASSERT_EQ(c.code, 0) << c.output;
  EXPECT_GT(summary_number(clamped, "tip_curvature_misfit_max"), 1e-3);
  EXPECT_NE(c.output.find("far end clamped"), std::string::npos) << c.output;
}

TEST(CliDriven, TimeOffsetShiftsTheSensorClock) {
  DrivenRun run;
  // The simulated tip on a sensor clock that starts at t = 10 s, with two samples earlier.
  std::ifstream in(run.simulated / "tip.csv");
  std::string line, text;
  std::getline(in, line);
  text = line + "\n9.99,0,0,0,1,0,0,0,0,0,0,0,0,1\n9.995,0,0,0,1,0,0,0,0,0,0,0,0,1\n";
  int j = 0;
  while (std::getline(in, line)) {
    char t[64];
    std::snprintf(t, sizeof t, "%.17g", 10.0 + j++ * 0.004);
    text += t + line.substr(line.find(',')) + "\n";
  }
  write_text(run.case_file.parent_path() / "late.csv", text);
  ASSERT_TRUE(edit(run.case_file, "file = \"tip.csv\"", "file = \"late.csv\"\ntime_offset = 10.0"));
  const fs::path out = run.tmp / "rec";
  const CommandResult r =
      run_field("reconstruct " + run.case_file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("2 samples before the time offset 10 (lines 2 to 3) ignored"),
            std::string::npos)
      << r.output;
  EXPECT_LT(max_difference(run.simulated / "field.csv", out / "field.csv", 4), 1e-9);
  // Without the key the grid starts at the first sample (t = 9.99): resampled, not the same run.
  ASSERT_TRUE(edit(run.case_file, "time_offset = 10.0", ""));
  const CommandResult first = run_field("reconstruct " + run.case_file.string() + " -q --out " +
                                        (run.tmp / "first").string());
  EXPECT_EQ(first.code, 0) << first.output;
  // A grid that runs past the last sample: exit 4, the file, the line numbers and what to change,
  // and no run folder.
  ASSERT_TRUE(
      edit(run.case_file, "file = \"late.csv\"", "file = \"late.csv\"\ntime_offset = 10.5"));
  const fs::path bad = run.tmp / "bad";
  const CommandResult late =
      run_field("reconstruct " + run.case_file.string() + " --out " + bad.string());
  EXPECT_EQ(late.code, 4) << late.output;
  for (const char* w :
       {"late.csv: grid time t_126 = 0.504 is outside the data's time range [9.99, 11]",
        "(t of lines 2 and 254)", "time offset 10.5", "[tip] time_offset", "(the file of "})
    EXPECT_NE(late.output.find(w), std::string::npos) << w << "\n" << late.output;
  EXPECT_FALSE(fs::exists(bad)) << "a run folder was made";
}

TEST(CliDriven, TipPointStrainIsConvertedAndBadDataLeaveNothing) {
  DrivenRun run;
  ASSERT_TRUE(
      edit(run.case_file, "file = \"tip.csv\"", "file = \"tip.csv\"\nstrain_at = \"tip_point\""));
  const fs::path out = run.tmp / "rec";
  const CommandResult r =
      run_field("reconstruct " + run.case_file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find(
                "tip strains at the point s = 0 converted to the first segment's (theory §6.6)"),
            std::string::npos)
      << r.output;
  // The file holds first-segment strains: read as point strains, they are off by about ds/2
  // d_s eps, which the consistency figure shows (1e-3 and more here).
  EXPECT_GT(summary_number(out, "tip_curvature_misfit_max"), 1e-3);
  EXPECT_NE(read_text(out / "run.toml").find("strain_at = \"tip_point\""), std::string::npos);
  // A bad value in the tip file: file, line, column, value, what to do; no run folder.
  std::string text = read_text(run.case_file.parent_path() / "tip.csv");
  const auto line5 = text.find('\n', text.find('\n', text.find('\n', text.find('\n') + 1) + 1) + 1);
  text.replace(line5 + 1, 1, "x");
  write_text(run.case_file.parent_path() / "tip.csv", text);
  const fs::path bad = run.tmp / "bad";
  const CommandResult b =
      run_field("reconstruct " + run.case_file.string() + " --out " + bad.string());
  EXPECT_EQ(b.code, 4) << b.output;
  for (const char* w : {"tip.csv:5: column 't':", "is not a number"})
    EXPECT_NE(b.output.find(w), std::string::npos) << w << "\n" << b.output;
  EXPECT_FALSE(fs::exists(bad)) << "a run folder was made";
}

}  // namespace
}  // namespace field::test
