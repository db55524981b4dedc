// The `field` program end to end (docs/cli.md): every shipped case runs (short versions), the
// outputs re-read, `field check` passes on good runs and fails on a tampered one, and every bad
// input gives its exit code and a message naming the problem, without partial output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

/// The value of `"key": number` in summary.json.
double summary_number(const fs::path& dir, const std::string& key) {
  const std::string text = read_text(dir / "summary.json");
  const auto at = text.find("\"" + key + "\":");
  if (at == std::string::npos) return NAN;
  return std::strtod(text.c_str() + at + key.size() + 3, nullptr);
}

/// The numbers of the field.csv line of node (j, a).
std::vector<double> field_line(const fs::path& dir, int j, int a) {
  std::ifstream in(dir / "field.csv");
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<double> v;
    std::stringstream s(line);
    std::string cell;
    while (std::getline(s, cell, ',')) v.push_back(std::strtod(cell.c_str(), nullptr));
    if (v.size() >= 2 && int(v[0]) == j && int(v[1]) == a) return v;
  }
  return {};
}

TEST(Cli, VersionHelpAndUsageErrors) {
  EXPECT_EQ(run_field("--version").code, 0);
  EXPECT_NE(run_field("--version").output.find("field 0."), std::string::npos);
  for (const char* sub : {"simulate", "reconstruct", "check", "info"}) {
    const CommandResult help = run_field(std::string(sub) + " --help");
    EXPECT_EQ(help.code, 0) << sub;
    EXPECT_NE(help.output.find("--threads"), std::string::npos) << help.output;
  }
  EXPECT_EQ(run_field("").code, 2);          // a subcommand is required
  EXPECT_EQ(run_field("simulate").code, 2);  // CASE is required
  EXPECT_EQ(run_field("simulate x.toml --bogus").code, 2);
  EXPECT_EQ(run_field("simulate x.toml --threads -1").code, 2);
}

// NaN passed CLI::PositiveNumber (a check at tolerance NaN failed with exit 3, a demo at dt = NaN
// printed NaN), and a tolerance of 1e308 overflowed to a failed check: usage errors that say the
// range, without CLI11's 300-digit bound.
TEST(Cli, NumbersOfOptionsOutsideTheirRangeAreUsageErrors) {
  const auto refused = [](const std::string& arguments, const std::string& says) {
    const CommandResult r = run_field(arguments);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(says), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("179769313486231570814527423731704356798070567525844996598917"),
              std::string::npos)
        << r.output;
  };
  refused("check x --residual-tol nan",
          "--residual-tol: must be a number in (0, 1] (a relative tolerance; default 1e-11), got "
          "'nan'");
  refused("check x --noether-tol 1e308", "--noether-tol: must be a number in (0, 1]");
  refused("check x --model-error-multiple inf",
          "--model-error-multiple: must be a positive finite number");
  refused("demo --dt nan", "--dt: must be a number in (0, 1]");
  refused("demo --dt 0", "--dt: must be a number in (0, 1]");
}

// `field demo` prints its last step whatever the number of steps (13 steps: the lines of steps
// 0, 2, ..., 12 and 13; it left out step 13 when the steps were not a multiple of 5).
TEST(Cli, DemoPrintsItsLastStep) {
  const CommandResult r = run_field("demo --steps 13");
  EXPECT_EQ(r.code, 0) << r.output;
  // t = 13 x 0.005 s = 0.065 s, z = 0.3 m/s x t = 0.0195 m: once for each retraction.
  std::size_t count = 0;
  for (std::size_t at = r.output.find("0.065   0.019500"); at != std::string::npos;
       at = r.output.find("0.065   0.019500", at + 1))
    ++count;
  EXPECT_EQ(count, 2u) << r.output;
}

// `--out $DIR` with DIR unset wrote to runs/<name>, and `--out -q` to a folder named -q (exit 0).
TEST(Cli, AnEmptyOrOptionLikePathIsAUsageError) {
  for (const std::string& arguments :
       {std::string("simulate x.toml --out ''"), std::string("static x.toml --out ''"),
        std::string("mechanics x.toml --out ''"), std::string("reconstruct x.toml --tip ''")}) {
    const CommandResult r = run_field(arguments);
    EXPECT_EQ(r.code, 2) << arguments << "\n" << r.output;
    EXPECT_NE(r.output.find(": is empty: give a path"), std::string::npos) << r.output;
  }
  const CommandResult r = run_field("simulate x.toml --out -q");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--out: '-q' looks like an option, not a path"), std::string::npos)
      << r.output;
}

TEST(Cli, FreeFlightMatchesTheSpecAndChecks) {
  TempFolder tmp;
  const fs::path out = tmp / "run";
  const CommandResult r = run_field(
      "simulate " + (fs::path(FIELD_SOURCE_DIR) / "meshes/free_flight/case.toml").string() +
      " --out " + out.string() + " -q");
  ASSERT_EQ(r.code, 0) << r.output;
  // theory §11.1 reference numbers (energies 1e-10 relative, positions 1e-9).
  EXPECT_NEAR(summary_number(out, "E_0"), 1.997667319357268, 2e-10);
  const std::vector<double> n0 = field_line(out, 400, 0), n9 = field_line(out, 400, 9);
  ASSERT_EQ(n0.size(), 11u);
  ASSERT_EQ(n9.size(), 11u);
  EXPECT_NEAR(n0[4], -0.021451103040201, 1e-9);
  EXPECT_NEAR(n0[5], 0.999397685788082, 1e-9);
  EXPECT_NEAR(n0[6], 0.695549178559315, 1e-9);
  EXPECT_NEAR(n9[4], 0.79600679161953, 1e-9);
  EXPECT_NEAR(n9[5], 1.000548776248011, 1e-9);
  EXPECT_NEAR(n9[6], 0.321000080625862, 1e-9);
  EXPECT_NEAR(n0[2], 2.0, 1e-15);   // t_400
  EXPECT_NEAR(n0[3], 0.05, 1e-15);  // s_0 = ds/2, free left end
  // Every node of every row, one series line per row 0..J-1, one frame per row.
  EXPECT_EQ(csv_rows(out / "field.csv"), 401 * 11);
  EXPECT_EQ(csv_rows(out / "time_series.csv"), 400);
  EXPECT_EQ(csv_rows(out / "tip.csv"), 401);
  EXPECT_TRUE(fs::exists(out / "frames/beam_000400.vtp"));
  EXPECT_TRUE(fs::exists(out / "spacetime.vtu"));
  EXPECT_TRUE(fs::exists(out / "run.toml"));
  for (const auto& e : fs::recursive_directory_iterator(out))
    EXPECT_NE(e.path().extension(), ".part") << e.path();
  EXPECT_NE(read_text(out / "summary.json").find("\"completed\""), std::string::npos);

  const CommandResult check = run_field("check " + out.string());
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("check passed"), std::string::npos) << check.output;

  // Tamper with one coordinate of one interior node: the check must fail with exit code 3.
  const std::vector<double> v = field_line(out, 200, 5);
  std::string text = read_text(out / "field.csv");
  char from[64];
  std::snprintf(from, sizeof from, "\n200,5,");
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  const auto x_at =
      text.find(',', text.find(',', text.find(',', text.find(',', at + 1) + 1) + 1) + 1) + 1;
  text.insert(x_at, "1");  // x -> 1x: a gross change
  write_text(out / "field.csv", text);
  const CommandResult bad = run_field("check " + out.string());
  EXPECT_EQ(bad.code, 3) << bad.output;
  EXPECT_NE(bad.output.find("FAILED"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("j = 200"), std::string::npos) << bad.output;
}

/// Shipped time-march cases, shortened to `rows` rows.
struct ShortCase {
  const char* name;
  const char* file;
  const char* J_from;
  const char* J_to;
  int nodes;  // A + 1
  int J;
  const char* extra_from = nullptr;  // a second edit, e.g. the [output] stride
  const char* extra_to = nullptr;
  friend void PrintTo(const ShortCase& c, std::ostream* os) { *os << c.name; }
};

class ShippedTimeCase : public ::testing::TestWithParam<ShortCase> {};

TEST_P(ShippedTimeCase, RunsAndChecks) {
  const ShortCase c = GetParam();
  TempFolder tmp;
  const fs::path file = copy_case(tmp, c.name, c.file);
  ASSERT_TRUE(edit(file, c.J_from, c.J_to)) << file;
  if (c.extra_from) {
    ASSERT_TRUE(edit(file, c.extra_from, c.extra_to)) << file;
  }
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(csv_rows(out / "field.csv"), (c.J + 1) * c.nodes);
  EXPECT_EQ(csv_rows(out / "time_series.csv"), c.J);
  // Not a terminal: plain progress lines on stderr, the last one for the last row.
  EXPECT_NE(r.output.find("row " + std::to_string(c.J) + "/" + std::to_string(c.J)),
            std::string::npos)
      << r.output;
  const CommandResult check = run_field("check " + out.string());
  EXPECT_EQ(check.code, 0) << check.output;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ShippedTimeCase,
    ::testing::Values(ShortCase{"free_flight", "case.toml", "J = 400", "J = 40", 11, 40},
                      ShortCase{"rigid_spin", "case.toml", "J = 200", "J = 20", 7, 20},
                      ShortCase{"static_arc", "case.toml", "J = 200", "J = 20", 11, 20},
                      ShortCase{"cantilever_gravity", "case.toml", "J = 2000", "J = 100", 11, 100},
                      ShortCase{"right_angle", "case.toml", "J = 61500", "J = 100", 22, 100,
                                "\nstride = 20", "\nstride = 1"},
                      ShortCase{"roundtrip", "simulate.toml", "\nJ = 100", "\nJ = 30", 7, 30}),
    [](const ::testing::TestParamInfo<ShortCase>& p) { return std::string(p.param.name); });

TEST(Cli, LoadsAndAPrescribedEndSurviveTheCheck) {
  // Loads of every kind and an end moving by a CSV track: `field check` rebuilds the model
  // from run.toml, so a residual <= 1e-11 means the case file, the run and run.toml agree.
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "cantilever_gravity");
  ASSERT_TRUE(edit(file, "J = 2000", "J = 200"));
  ASSERT_TRUE(edit(file, "left = \"clamped\"", "left = { prescribed = \"left.csv\" }"));
  write_text(file.parent_path() / "left.csv",
             "t,x,y,z,qw,qx,qy,qz\n"
             "0,0,0,0,0.7071067811865476,0,0.7071067811865476,0\n"
             "0.05,0,0,0.01,0.7071067811865476,0,0.7071067811865476,0\n"
             "0.1,0.02,0,0.01,0.6532814824381883,0.2705980500730985,0.6532814824381883,"
             "0.2705980500730985\n");
  write_text(file,
             read_text(file) +
                 "\n[[loads.distributed]]\nframe = \"body\"\nwrench = [0, 0, 0.1, 0, 0.5, 0]\n"
                 "nodes = [2, 6]\n\n[[loads.point]]\nnode = 9\nframe = \"world\"\n"
                 "times = [0.0, 0.05, 0.1]\nwrenches = [[0, 0, 0, 0, 0, 0], [0.01, 0, 0, 0, 2, 0], "
                 "[0, 0, 0, 0, 0, 0]]\n");
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const std::vector<double> tip = field_line(out, 200, 0);  // the prescribed end at t = 0.1
  ASSERT_EQ(tip.size(), 11u);
  EXPECT_NEAR(tip[4], 0.02, 1e-15);
  EXPECT_NEAR(tip[6], 0.01, 1e-15);
  const CommandResult check = run_field("check " + out.string());
  EXPECT_EQ(check.code, 0) << check.output;
}

TEST(Cli, SpaceEvolutionReconstructsAndChecks) {
  TempFolder tmp;
  const fs::path out = tmp / "run";
  const CommandResult r = run_field(
      "reconstruct " + (fs::path(FIELD_SOURCE_DIR) / "meshes/space_evolution/case.toml").string() +
      " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("on the grid"), std::string::npos) << r.output;  // tip note
  EXPECT_EQ(csv_rows(out / "field.csv"), 301 * 11);
  EXPECT_EQ(csv_rows(out / "space_series.csv"), 10);
  EXPECT_TRUE(fs::exists(out / "frames/beam_000300.vtp"));
  const CommandResult check = run_field("check " + out.string());
  EXPECT_EQ(check.code, 0) << check.output;
}

TEST(Cli, RoundTripThroughTheTipFile) {
  // simulate exports tip.csv; reconstruct --tip reads it back: the first reconstructed columns
  // agree with the time march to round-off (theory §10 vi).
  TempFolder tmp;
  const fs::path sim = copy_case(tmp, "roundtrip", "simulate.toml");
  const fs::path time_run = tmp / "time", space_run = tmp / "space";
  ASSERT_EQ(run_field("simulate " + sim.string() + " --out " + time_run.string()).code, 0);
  // The case names no tip file: --tip gives it; without it the run is refused, naming the key.
  const fs::path rec = sim.parent_path() / "case.toml";
  ASSERT_TRUE(edit(rec, "file = \"tip.csv\"", ""));
  const CommandResult refused =
      run_field("reconstruct " + rec.string() + " --out " + space_run.string());
  EXPECT_EQ(refused.code, 4) << refused.output;
  EXPECT_NE(refused.output.find("[tip] file is not given"), std::string::npos) << refused.output;
  EXPECT_FALSE(fs::exists(space_run));
  const CommandResult r =
      run_field("reconstruct " + rec.string() + " --tip " + (time_run / "tip.csv").string() +
                " --out " + space_run.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const CommandResult check = run_field("check " + space_run.string());  // run.toml names it
  EXPECT_EQ(check.code, 0) << check.output;
  for (int a = 0; a <= 3; ++a) {
    double err = 0.0;
    for (int j = 0; j <= 100; j += 7) {
      const std::vector<double> t = field_line(time_run, j, a), s = field_line(space_run, j, a);
      ASSERT_EQ(t.size(), 11u);
      ASSERT_EQ(s.size(), 11u);
      for (int k = 4; k < 11; ++k) err = std::max(err, std::abs(t[k] - s[k]));
    }
    EXPECT_LE(err, 1e-10) << "column " << a;
  }
}

TEST(Cli, ThreadCountDoesNotChangeTheBytes) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(file, "J = 400", "J = 10"));
  ASSERT_TRUE(edit(file, "A = 10 ", "A = 100 "));  // > 64 nodes per row: parallel
  ASSERT_TRUE(edit(file, "velocity = \"file\"",
                   "velocity = \"uniform\"\nxi = [0.1, 0.2, 0.3, 0.0, 0.1, 0.0]"));
  ASSERT_TRUE(edit(file, "velocity_file", "# velocity_file"));
  ASSERT_EQ(
      run_field("simulate " + file.string() + " --out " + (tmp / "one").string() + " --threads 1")
          .code,
      0);
  ASSERT_EQ(
      run_field("simulate " + file.string() + " --out " + (tmp / "two").string() + " --threads 2")
          .code,
      0);
  EXPECT_EQ(read_text(tmp / "one/field.csv"), read_text(tmp / "two/field.csv"));
  EXPECT_EQ(read_text(tmp / "one/time_series.csv"), read_text(tmp / "two/time_series.csv"));
}

TEST(Cli, InfoPrintsStabilityWithoutRunning) {
  const CommandResult r =
      run_field("info " + (fs::path(FIELD_SOURCE_DIR) / "meshes/free_flight/case.toml").string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("c_E dt/ds = 0.500"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("c_E = 10 m/s"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("4000 node updates"), std::string::npos) << r.output;  // 10 x 400
  const CommandResult s = run_field(
      "info " + (fs::path(FIELD_SOURCE_DIR) / "meshes/space_evolution/case.toml").string());
  EXPECT_EQ(s.code, 0) << s.output;
  EXPECT_NE(s.output.find("ds/(c_G dt) = 0.779"), std::string::npos) << s.output;
  EXPECT_NE(s.output.find("2700 node updates"), std::string::npos) << s.output;  // 9 x 300
}

TEST(Cli, SolverFailureKeepsTheValidRowsAndSaysSo) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(file, "dt = 0.005", "dt = 0.03"));  // c_E dt/ds = 3: far outside
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("warning"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("did not converge"), std::string::npos) << r.output;
  EXPECT_NE(read_text(out / "summary.json").find("solver_failed"), std::string::npos);
  const int last = int(summary_number(out, "last_row"));
  EXPECT_GT(last, 0);
  EXPECT_EQ(csv_rows(out / "field.csv"), (last + 1) * 11);
  EXPECT_EQ(run_field("check " + out.string()).code, 0);  // what was written is valid
}

/// A bad input: the edit, the expected exit code and words the message must contain.
struct BadInput {
  const char* name;
  const char* from;
  const char* to;
  int code;
  std::vector<std::string> words;
  friend void PrintTo(const BadInput& b, std::ostream* os) { *os << b.name; }
};

class BadCase : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadCase, ExitCodeMessageAndNoOutput) {
  const BadInput b = GetParam();
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(file, b.from, b.to)) << b.from;
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  EXPECT_EQ(r.code, b.code) << r.output;
  for (const auto& w : b.words)
    EXPECT_NE(r.output.find(w), std::string::npos) << w << "\n" << r.output;
  EXPECT_FALSE(fs::exists(out)) << "partial output left behind";
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, BadCase,
    ::testing::Values(
        BadInput{
            "negative_dt", "dt = 0.005", "dt = -0.005", 4, {"case.toml:", "dt = -0.005", "> 0"}},
        BadInput{"poisson", "nu = 0.35", "nu = 0.7", 4, {"nu = 0.7", "(-1, 0.5)"}},
        BadInput{
            "unknown_key", "rho = 1000.0", "rho = 1000.0\nYoung = 3", 4, {"unknown key", "Young"}},
        BadInput{"wrong_type", "A = 10 ", "A = \"ten\" ", 4, {"A = \"ten\"", "integer"}},
        BadInput{"missing_key", "E = 1.0e5", "", 4, {"missing key", "E"}},
        BadInput{"not_finite", "side = 0.1", "side = nan", 4, {"side", "finite"}},
        BadInput{"toml_syntax", "[grid]", "[grid", 4, {"case.toml:", "TOML"}},
        BadInput{"missing_file", "velocities.csv", "nowhere.csv", 5, {"nowhere.csv"}},
        BadInput{
            "bad_choice", "\"second_order\"", "\"third_order\"", 4, {"third_order", "first_order"}},
        BadInput{"T_not_multiple", "J = 400", "T = 2.0012", 4, {"T = 2.0012", "multiple"}}),
    [](const ::testing::TestParamInfo<BadInput>& p) { return std::string(p.param.name); });

TEST(Cli, BadDataFilesNameTheLine) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  const fs::path csv = file.parent_path() / "velocities.csv";
  ASSERT_TRUE(edit(csv, "\n3,", "\n3,nan,"));  // line 8: a NaN and one column too many
  const CommandResult r =
      run_field("simulate " + file.string() + " --out " + (tmp / "run").string());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find("velocities.csv"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("8"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(tmp / "run"));

  const fs::path space = copy_case(tmp, "space_evolution");
  const fs::path tip = space.parent_path() / "tip.csv";
  ASSERT_TRUE(edit(tip, ",0.9999999939888513,", ",0.99,"));  // non-unit quaternion
  const CommandResult t =
      run_field("reconstruct " + space.string() + " --out " + (tmp / "sp").string());
  EXPECT_EQ(t.code, 4) << t.output;
  EXPECT_NE(t.output.find("tip.csv"), std::string::npos) << t.output;
  EXPECT_FALSE(fs::exists(tmp / "sp"));
}

TEST(Cli, OutputFolderIsNotOverwrittenWithoutForce) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "rigid_spin");
  ASSERT_TRUE(edit(file, "J = 200", "J = 5"));
  const fs::path out = tmp / "run";
  ASSERT_EQ(run_field("simulate " + file.string() + " --out " + out.string()).code, 0);
  write_text(out / "notes.txt", "mine");
  const CommandResult again = run_field("simulate " + file.string() + " --out " + out.string());
  EXPECT_EQ(again.code, 5) << again.output;
  EXPECT_NE(again.output.find("--force"), std::string::npos) << again.output;
  const CommandResult forced =
      run_field("simulate " + file.string() + " --out " + out.string() + " --force");
  EXPECT_EQ(forced.code, 0) << forced.output;
  EXPECT_EQ(read_text(out / "notes.txt"), "mine");  // only the run's own files are replaced
  EXPECT_EQ(run_field("check " + (tmp / "nowhere").string()).code, 5);
}

TEST(Cli, ForceNeverReplacesAnInput) {
  // --out the case's own folder: its tip.csv is an input under a name the run writes; refused
  // even with --force (exit 5), and the tip file stays.
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "space_evolution");
  const std::string tip = read_text(file.parent_path() / "tip.csv");
  const CommandResult r = run_field("reconstruct " + file.string() + " --out " +
                                    file.parent_path().string() + " --force");
  EXPECT_EQ(r.code, 5) << r.output;
  EXPECT_NE(r.output.find("tip.csv"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("choose another --out"), std::string::npos) << r.output;
  EXPECT_EQ(read_text(file.parent_path() / "tip.csv"), tip);
}

}  // namespace
}  // namespace field::test
