// Know before you march (theory §6.3) through the real program: `field info` and `field
// reconstruct` print the predicted far-end error and the recoverable bandwidth; above
// [tip] max_predicted_error the space march refuses before the run folder is made (exit 4) with
// the numbers and what would work; raising the bound lets it run; the [tip] keys are validated.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTipFile = "file = \"tip.csv\"";

TEST(CliPrediction, InfoPrintsThePrediction) {
  const CommandResult r = run_field(
      "info " + (fs::path(FIELD_SOURCE_DIR) / "meshes/space_evolution/case.toml").string());
  EXPECT_EQ(r.code, 0) << r.output;
  for (const char* w : {"prediction of the space march (theory §6.3)", "exact data: round-off only",
                        "predicted far-end error", "bound 0.1 m", "recoverable bandwidth: up to",
                        "(74.8 Hz, mode 299)"})
    EXPECT_NE(r.output.find(w), std::string::npos) << w << "\n" << r.output;
  EXPECT_EQ(r.output.find("EXCEEDED"), std::string::npos) << r.output;
}

TEST(CliPrediction, NoisyDataAreRefusedWithTheNumbers) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "space_evolution");
  ASSERT_TRUE(edit(file, kTipFile,
                   "file = \"tip.csv\"\nnoise_position = 1e-3\nnoise_angle = 1e-3\n"
                   "noise_strain = 1e-3"));
  const CommandResult info = run_field("info " + file.string());
  EXPECT_EQ(info.code, 0) << info.output;
  for (const char* w : {"grid-stable, but data error grows too much", "EXCEEDED",
                        "`field reconstruct` refuses this case"})
    EXPECT_NE(info.output.find(w), std::string::npos) << w << "\n" << info.output;
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("reconstruct " + file.string() + " --out " + out.string());
  EXPECT_EQ(r.code, 4) << r.output;
  for (const char* w :
       {"field: invalid input:", "case.toml: the space march is predicted to be unreliable",
        "far-end position error of 0.103 m", "above [tip] max_predicted_error = 0.1 m",
        "only frequencies up to 92.7 rad/s are recoverable", "driven time march",
        "raise [tip] max_predicted_error"})
    EXPECT_NE(r.output.find(w), std::string::npos) << w << "\n" << r.output;
  EXPECT_FALSE(fs::exists(out)) << "a run folder was made";
  // The bound raised to 0.5 m: the march runs and records the prediction in summary.json (the
  // whole grid is then recoverable).
  ASSERT_TRUE(edit(file, kTipFile, "file = \"tip.csv\"\nmax_predicted_error = 0.5"));
  const CommandResult ok = run_field("reconstruct " + file.string() + " -q --out " + out.string());
  EXPECT_EQ(ok.code, 0) << ok.output;
  const std::string summary = read_text(out / "summary.json");
  for (const char* w : {"\"predicted_far_end_error\": 0.1027", "\"recoverable_bandwidth\": 469.66"})
    EXPECT_NE(summary.find(w), std::string::npos) << w << "\n" << summary;
  const std::string run_toml = read_text(out / "run.toml");
  EXPECT_NE(run_toml.find("max_predicted_error = 0.5"), std::string::npos) << run_toml;
}

TEST(CliPrediction, SpaceMarchOutsideItsStableRangeIsRefused) {
  // meshes/driven marched in s: ds/(c_G dt) = 4.1. Round-off alone is predicted to give 0.031 m
  // at the far end (under the bound) but a twist of 14.3 rad (the torsion channel, 65.5 per
  // column at the top frequency, moves no position linearly): refused before the march, which
  // would fail in Newton at column 5 (theory §6.3, "Outside the stable range").
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "driven");
  ASSERT_TRUE(edit(file, "method = \"driven\"", "method = \"space\" #"));
  ASSERT_TRUE(edit(file, "far_end = \"free\"", "# far_end"));
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("reconstruct " + file.string() + " --out " + out.string());
  EXPECT_EQ(r.code, 4) << r.output;
  for (const char* w :
       {"ds/(c_G dt) = 4.1", "position 0.0311 m, rotation 14.3 rad; bound 0.1 m  EXCEEDED",
        "far-end position error of 0.0311 m and a rotation error of 14.3 rad, not below 1 rad",
        "65.5 per column", "([reconstruct] method = \"driven\""})
    EXPECT_NE(r.output.find(w), std::string::npos) << w << "\n" << r.output;
  EXPECT_EQ(r.output.find("raise [tip] max_predicted_error"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out)) << "a run folder was made";
}

TEST(CliPrediction, SlenderBeamWarnsOfGrowingModes) {
  // L/b = 20 on the same tip data: the march breaks down at column 8 (theory §6.3); info says why.
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "space_evolution");
  ASSERT_TRUE(edit(file, "side = 0.2", "side = 0.05"));
  const CommandResult r = run_field("info " + file.string());
  EXPECT_EQ(r.code, 0) << r.output;
  for (const char* w : {"grid-stable, but the data excite growing modes",
                        "warning: the tip data's own content grows to 101 m at the far end"})
    EXPECT_NE(r.output.find(w), std::string::npos) << w << "\n" << r.output;
}

TEST(CliPrediction, MovingTipAtAZeroMomentumRowIsReported) {
  // The first quarter of space_evolution's data (T = 0.5 s of 2): the tip moves fastest at
  // t = T, where the ghost row holds the beam at rest.
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "space_evolution");
  ASSERT_TRUE(edit(file, "T = 2.0 ", "T = 0.5 "));
  ASSERT_TRUE(edit(file, "J = 300 ", "J = 75 "));
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("reconstruct " + file.string() + " -q --out " + out.string());
  EXPECT_EQ(r.code, 0) << r.output;
  for (const char* w : {"field: warning: the tip still moves at t = T (rows J-1 to J)",
                        "[boundary] last = \"zero_momentum\" holds the beam at rest",
                        "more than half the grid's top frequency"})
    EXPECT_NE(r.output.find(w), std::string::npos) << w << "\n" << r.output;
  EXPECT_EQ(r.output.find("moves at t = 0"), std::string::npos) << r.output;
}

TEST(CliPrediction, GapInTheTipDataIsReported) {
  // Ten samples of space_evolution's tip.csv removed (t = 0.6667 .. 0.7333 s): the data are
  // resampled and 11 grid rows fall inside one gap.
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "space_evolution");
  const fs::path tip = file.parent_path() / "tip.csv";
  std::istringstream in(read_text(tip));
  std::string text, line;
  for (int n = 1; std::getline(in, line); ++n)
    if (n < 104 || n > 113) text += line + "\n";
  write_text(tip, text);
  const CommandResult r = run_field("info " + file.string());
  EXPECT_EQ(r.code, 0) << r.output;
  for (const char* w : {"samples resampled on the grid",
                        "tip.csv: a gap of 0.07333 s between the samples at t = 0.66 and "
                        "0.7333333333 s (lines 103 and 104), more than 2 dt = 0.01333 s: the 10 "
                        "grid rows inside it are interpolated"})
    EXPECT_NE(r.output.find(w), std::string::npos) << w << "\n" << r.output;
}

struct BadKey {
  const char* edit;
  const char* words;
};

TEST(CliPrediction, BadNoiseKeysAreRefused) {
  for (const BadKey& c :
       {BadKey{"noise_position = -1e-3", "[tip] noise_position = -0.001: must be >= 0"},
        BadKey{"noise_angle = 4.0", "[tip] noise_angle = 4.0: must be < pi"},
        BadKey{"noise_strain = \"small\"", "[tip] noise_strain = \"small\": expected a number"},
        BadKey{"max_predicted_error = 0.0", "[tip] max_predicted_error = 0.0: must be > 0"},
        BadKey{"noise = 1e-3", "unknown key [tip] noise"}}) {
    TempFolder tmp;
    const fs::path file = copy_case(tmp, "space_evolution");
    ASSERT_TRUE(edit(file, kTipFile, std::string("file = \"tip.csv\"\n") + c.edit));
    const CommandResult r = run_field("info " + file.string());
    EXPECT_EQ(r.code, 4) << r.output;
    EXPECT_NE(r.output.find(c.words), std::string::npos) << c.words << "\n" << r.output;
    EXPECT_NE(r.output.find("case.toml:"), std::string::npos) << r.output;
  }
}

}  // namespace
}  // namespace field::test
