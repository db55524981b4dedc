// Issue 15 through the real program: what can be validated is refused before the run folder is
// made (exit 4 or 5, no folder), what fails after output started is a run failure (exit 3,
// summary.json with its status, every file a complete valid prefix, no *.part, a message naming
// the row and node and what to change), and the program's own messages (docs/cli.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <utility>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

/// No temporary file left anywhere in DIR.
bool no_part_files(const fs::path& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().extension() == ".part") return false;
  return true;
}

/// A case edited by several replacements, run, refused before any output.
struct Refused {
  const char* name;
  const char* shipped;  ///< meshes/<shipped>
  std::vector<std::pair<std::string, std::string>> edits;
  int code;
  std::vector<std::string> words;
  friend void PrintTo(const Refused& r, std::ostream* os) { *os << r.name; }
};

class RefusedBeforeOutput : public ::testing::TestWithParam<Refused> {};

TEST_P(RefusedBeforeOutput, NoRunFolder) {
  const Refused c = GetParam();
  TempFolder tmp;
  const fs::path file = copy_case(tmp, c.shipped);
  for (const auto& [from, to] : c.edits) ASSERT_TRUE(edit(file, from, to)) << from;
  write_text(file.parent_path() / "turned.csv",  // node 3 turned by pi about d1 against node 2
             "a,x,y,z,qw,qx,qy,qz\n0,0,0,0,1,0,0,0\n1,0,0,0.1,1,0,0,0\n2,0,0,0.2,1,0,0,0\n"
             "3,0,0,0.3,0,1,0,0\n4,0,0,0.4,1,0,0,0\n5,0,0,0.5,1,0,0,0\n6,0,0,0.6,1,0,0,0\n");
  // No --out: the default runs/<name> under the working folder must not appear either.
  const CommandResult r = run_field("simulate " + file.string(), tmp.path());
  EXPECT_EQ(r.code, c.code) << r.output;
  for (const auto& w : c.words)
    EXPECT_NE(r.output.find(w), std::string::npos) << w << "\n" << r.output;
  EXPECT_FALSE(fs::exists(tmp / "runs")) << "a run folder was made";
}

INSTANTIATE_TEST_SUITE_P(
    Issue15, RefusedBeforeOutput,
    ::testing::Values(
        // Class 3: errors that used to be raised inside the march, after the folder was made.
        Refused{
            "degenerate_section",
            "free_flight",
            {{"side = 0.1", "side = 1e-80"}},
            4,
            {"case.toml", "[beam] side = 1e-80", "inertia", "outside the range of normal doubles"}},
        Refused{"non_finite_stability_limit",
                "free_flight",
                {{"E = 1.0e5", "E = 1.0e300"}, {"rho = 1000.0", "rho = 1.0e-300"}},
                4,
                {"case.toml", "stability numbers", "not finite"}},
        Refused{
            "half_turn_on_a_first_order_start",
            "rigid_spin",
            {{"configuration = \"straight\"", "configuration = \"file\"\nfile = \"turned.csv\""},
             {"origin = [0.0, 0.0, -0.05]\naxis = [0.0, 0.0, 1.0]\n", ""}},
            4,
            {"row 0", "nodes a = 2 and 3", "half turn"}},
        // The march's own checks named no file (check_time_march).
        Refused{"end_wrench_1e308",
                "flying_spaghetti",
                {{"wrenches = [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]",
                  "wrenches = [[0.0, 0.0, 0.0, 1e308, 0.0, 0.0]"}},
                4,
                {"flying_spaghetti/case.toml: time march: the free end a = A of row 0 does not "
                 "take the end wrench"}},
        Refused{"control_character_in_the_name",
                "free_flight",
                {{"name = \"free_flight\"", "name = \"free\\u0000flight\""}},
                4,
                {"case.toml:8", "name"}},  // the message quotes the value raw up to its NUL
        Refused{"bell_in_the_name",
                "free_flight",
                {{"name = \"free_flight\"", "name = \"free\\u0007flight\""}},
                4,
                {"case.toml:8", "control characters", "free\\u0007flight"}},
        // Class 5: magnitudes that make the computation meaningless (docs/cli.md, "Magnitudes").
        Refused{"origin_1e308",
                "free_flight",
                {{"origin = [0.0, 0.0, 0.0]", "origin = [1e308, 0.0, 0.0]"}},
                4,
                {"row 0, node a = 0", "|r| = 1e+308", "Magnitudes"}},
        Refused{"origin_beyond_the_rule",
                "free_flight",
                {{"origin = [0.0, 0.0, 0.0]", "origin = [0.0, 1e12, 0.0]"}},
                4,
                {"|r| = 1e+12", "1e11 min(ds, c_E dt) = 5e+09 m"}},
        Refused{"length_1e308", "free_flight", {{"ds = 0.1 ", "L = 1e308 "}}, 4, {"not finite"}},
        Refused{"dt_subnormal", "free_flight", {{"dt = 0.005 ", "dt = 5e-324 "}}, 4, {"dt"}},
        Refused{"velocity_1e100",
                "rigid_spin",
                {{"xi = [0.0, 0.0, 3.0, 0.0, 0.0, 0.3]", "xi = [0.0, 0.0, 0.0, 0.0, 0.0, 1e100]"},
                 {"start = \"first_order\"", "start = \"second_order\""}},
                4,
                {"row 1 (row 0 moved by dt xi(0)), node a = 0", "Magnitudes"}},
        // Class 8: sizes beyond memory are refused with the estimate (exit 5).
        Refused{"beyond_memory",
                "free_flight",
                {{"A = 10 ", "A = 200000000 "},
                 {"velocity = \"file\"", "velocity = \"zero\""},
                 {"velocity_file = \"velocities.csv\"", ""}},
                5,
                {"the run needs about", "GiB", "available", "field info"}}),
    [](const ::testing::TestParamInfo<Refused>& p) { return std::string(p.param.name); });

TEST(CliFailures, TipShiftedFarAwayIsRefused) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "space_evolution");
  ASSERT_TRUE(
      edit(file.parent_path() / "tip.csv", "\n0.0,0.0,0.0,0.0,1.0,", "\n0.0,1e300,0.0,0.0,1.0,"));
  const CommandResult r =
      run_field("reconstruct " + file.string() + " --out " + (tmp / "run").string());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find("tip.csv: the tip at row j = 0"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(tmp / "run"));
}

TEST(CliFailures, InfoPrintsTheEstimateOfACaseBeyondMemory) {
  // 10^8 nodes per row: about 260 GiB, beyond this machine (and CI's).
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(file, "A = 10 ", "A = 100000000 "));
  const CommandResult r = run_field("info " + file.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("peak memory about"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("TOO LARGE"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("c_E dt/ds"), std::string::npos) << r.output;  // and the rest
}

/// Runs a case edited by `edits`; expects exit 3, the status, the words, and valid outputs.
/// `extra`: a file written next to the case (name, content). `nodes`: A + 1 of the case.
fs::path expect_run_failure(const TempFolder& tmp, const char* shipped, int nodes,
                            const std::vector<std::pair<std::string, std::string>>& edits,
                            const std::string& status, const std::vector<std::string>& words,
                            const std::pair<std::string, std::string>& extra = {}) {
  const fs::path file = copy_case(tmp, shipped);
  if (!extra.first.empty()) write_text(file.parent_path() / extra.first, extra.second);
  for (const auto& [from, to] : edits) EXPECT_TRUE(edit(file, from, to)) << from;
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  EXPECT_EQ(r.code, 3) << r.output;
  for (const auto& w : words)
    EXPECT_NE(r.output.find(w), std::string::npos) << w << "\n" << r.output;
  EXPECT_EQ(summary_value(out, "status"), "\"" + status + "\"") << read_text(out / "summary.json");
  EXPECT_EQ(summary_value(out, "exit_code"), "3");
  EXPECT_TRUE(no_part_files(out));
  const int last = std::stoi(summary_value(out, "last_row"));
  EXPECT_EQ(csv_rows(out / "field.csv"), (last + 1) * nodes);  // whole rows 0..last_row
  return out;
}

TEST(CliFailures, IterationLimitSaysRaiseMaxIterations) {
  TempFolder tmp;
  const fs::path out = expect_run_failure(
      tmp, "free_flight", 11, {{"[output]", "[solver]\nmax_iterations = 2\n\n[output]"}},
      "solver_failed",
      {"could not be computed", "node a = ", "still converging", "raise max_iterations"});
  EXPECT_EQ(summary_value(out, "failure"), "\"iteration_limit\"");
}

TEST(CliFailures, DivergenceOutsideTheStableRangeSaysSo) {
  TempFolder tmp;
  const fs::path out = expect_run_failure(tmp, "free_flight", 11, {{"dt = 0.005", "dt = 0.03"}},
                                          "solver_failed", {"warning", "outside the stable range"});
  EXPECT_EQ(summary_value(out, "failure"), "\"diverged\"");
}

TEST(CliFailures, NonFiniteEnergyStopsTheRun) {
  // E = rho = 1e300 (c_E = 1 m/s) and the rigid screw motion at v = 1e6 m/s: the node problems
  // (the exact rigid rows, zero strain) and every pose are finite, but the kinetic energy of
  // row 0 overflows. A run failure naming the row, not a completed run with inf in
  // time_series.csv.
  TempFolder tmp;
  const fs::path out = expect_run_failure(
      tmp, "rigid_spin", 7,
      {{"E = 1.0e5", "E = 1.0e300"},
       {"rho = 1000.0", "rho = 1.0e300"},
       {"xi = [0.0, 0.0, 3.0, 0.0, 0.0, 0.3]", "xi = [0.0, 0.0, 0.0, 0.0, 0.0, 1e6]"}},
      "non_finite", {"row 0: the energy E_j = inf is not finite", "rows 0..1"});
  EXPECT_EQ(csv_rows(out / "time_series.csv"), 0);  // no line with inf
}

TEST(CliFailures, NodeProblemThatOverflowsIsNonFinite) {
  // E = rho = 1e300, the arc stretched by 1e6, Cayley: the node kernel's products overflow at
  // row 1. Said as such, not "raise max_iterations".
  TempFolder tmp;
  const fs::path out = expect_run_failure(
      tmp, "rigid_spin", 7,
      {{"configuration = \"straight\"",
        "configuration = \"arc\"\nstrain = [0.0, 0.0, 0.0, 0.0, 0.0, 1e6]"},
       {"E = 1.0e5", "E = 1.0e300"},
       {"rho = 1000.0", "rho = 1.0e300"},
       {"xi = [0.0, 0.0, 3.0, 0.0, 0.0, 0.3]", "xi = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]"},
       {"start = \"first_order\"", "start = \"second_order\""}},
      "non_finite", {"row 1 could not be computed", "overflowed double precision"});
  EXPECT_EQ(summary_value(out, "failure"), "\"non_finite\"");
}

TEST(CliFailures, HalfTurnOfAPrescribedEndIsARunFailure) {
  // The left end's track turns by pi about d1 at row 10 (a sample at every t_j = j dt, so that
  // the poses are the samples bit for bit): the march stops before that row, naming nodes 0 and 1
  // (node 1 is at rest).
  TempFolder tmp;
  std::string track = "t,x,y,z,qw,qx,qy,qz\n";
  for (int j = 0; j <= 200; ++j) {
    char line[128];
    std::snprintf(line, sizeof line, "%.17g,0,0,-0.05,%s\n", j * 0.005,
                  j < 10 ? "1,0,0,0" : "0,1,0,0");
    track += line;
  }
  const fs::path out = expect_run_failure(
      tmp, "rigid_spin", 7,
      {{"left = \"free\"", "left = { prescribed = \"left.csv\" }"},
       {"xi = [0.0, 0.0, 3.0, 0.0, 0.0, 0.3]", "xi = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]"}},
      "half_turn", {"row 10 could not be computed", "nodes a = 0 and 1", "half turn"},
      {"left.csv", track});
  EXPECT_EQ(summary_value(out, "last_row"), "9");
}

TEST(CliFailures, ProgramMessages) {
  const CommandResult typo = run_field("simulat x.toml");
  EXPECT_EQ(typo.code, 2);
  EXPECT_NE(typo.output.find("unknown subcommand 'simulat'; did you mean 'simulate'?"),
            std::string::npos)
      << typo.output;
  const CommandResult other = run_field("frobnicate");
  EXPECT_EQ(other.code, 2);
  EXPECT_NE(other.output.find("reconstruct, simulate"), std::string::npos) << other.output;
  EXPECT_EQ(other.output.find("did you mean"), std::string::npos) << other.output;
  for (const char* bad : {"abc", "1.5", "2000", "-1"}) {
    const CommandResult t = run_field(std::string("simulate x.toml --threads ") + bad);
    EXPECT_EQ(t.code, 2) << bad;
    EXPECT_NE(t.output.find("must be a whole number from 0 to 1024"), std::string::npos)
        << t.output;
  }
}

TEST(CliFailures, QuietKeepsTheWarnings) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(file, "dt = 0.005", "dt = 0.03"));
  const CommandResult r =
      run_field("simulate " + file.string() + " -q --out " + (tmp / "run").string());
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.output.find("field: warning: time march outside its stable range"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("row  "), std::string::npos) << r.output;  // no progress line
}

TEST(CliFailures, NoProgressKeepsTheNotesAndTheWarnings) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(file, "dt = 0.005", "dt = 0.03"));
  const CommandResult r =
      run_field("simulate " + file.string() + " --no-progress --out " + (tmp / "run").string());
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.output.find("field: warning: time march outside its stable range"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("row  "), std::string::npos) << r.output;  // no progress line
  // The report counts the frames written (rows 0..L of the failed march), not those planned.
  const std::size_t at = r.output.find("frames of rows 0..");
  ASSERT_NE(at, std::string::npos) << r.output;
  const int last = std::stoi(r.output.substr(at + 18));
  EXPECT_LT(last, 400) << r.output;
  int frames = 0;
  for ([[maybe_unused]] const auto& f : fs::directory_iterator(tmp / "run" / "frames")) ++frames;
  EXPECT_EQ(frames, last + 1);
  EXPECT_NE(r.output.find(std::to_string(last + 1) + " frames of rows 0.." + std::to_string(last)),
            std::string::npos)
      << r.output;
  // The tip resampling note of a reconstruction prints; its column progress does not.
  const CommandResult s = run_field(
      "reconstruct " + (fs::path(FIELD_SOURCE_DIR) / "meshes/space_evolution/case.toml").string() +
      " --no-progress --out " + (tmp / "se").string());
  EXPECT_EQ(s.code, 0) << s.output;
  EXPECT_NE(s.output.find("samples on the grid"), std::string::npos) << s.output;
  EXPECT_EQ(s.output.find("column  "), std::string::npos) << s.output;
}

TEST(CliFailures, OneRigidNodeHasNoStepSizeWarning) {
  // A = 1 with a free end: one massive node, its only cell held at the ghost's strain (theory
  // §4.6), a rigid body with no elastic waves; the step-size rule of theory §6.1 does not apply.
  // The same dt and ds with the end a = A clamped is a node on a spring: the warning stays.
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(file, "A = 10 ", "A = 1 "));
  ASSERT_TRUE(edit(file, "ds = 0.1 ", "ds = 1.0 "));
  ASSERT_TRUE(edit(file, "dt = 0.005 ", "dt = 0.2 "));
  ASSERT_TRUE(edit(file, "J = 400 ", "J = 10 "));
  write_text(file.parent_path() / "velocities.csv",
             "a,w1,w2,w3,v1,v2,v3\n0,0.1,1,0.2,0,0.5,0\n1,0.1,1,0.2,0,0.5,0\n");
  const CommandResult info = run_field("info " + file.string());
  EXPECT_EQ(info.code, 0) << info.output;
  EXPECT_NE(info.output.find("no elastic waves (A = 1 with a free end: one rigid node)"),
            std::string::npos)
      << info.output;
  EXPECT_EQ(info.output.find("warning"), std::string::npos) << info.output;
  const CommandResult r =
      run_field("simulate " + file.string() + " -q --out " + (tmp / "run").string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.find("warning"), std::string::npos) << r.output;

  ASSERT_TRUE(edit(file, "right = \"free\"", "right = \"clamped\""));
  const CommandResult clamped = run_field("info " + file.string());
  EXPECT_NE(clamped.output.find("warning: time march outside its stable range"), std::string::npos)
      << clamped.output;
}

}  // namespace
}  // namespace field::test
