// The extensible cable of theory §1.8 through the real program (`theory = "cable"`,
// meshes/hanging_cable, io/cable_case.hpp): the case loads; the cable released at rest in its
// elastic catenary stays at rest to O(ds^2); its translation momentum changes by the impulse of
// gravity and of the pins to round-off (theory (1.8.8), (8.5a)); `field check` passes; one and two
// threads give the same bytes; `field info` prints the law and `field static` refuses; keys the
// cable does not take are refused with file, line, key and value.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

// Largest distance of any node of any row of field.csv (columns j, a, t, s, x, y, z) from row 0.
double largest_motion(const fs::path& field_csv) {
  const auto rows = csv_numbers(field_csv);
  std::vector<std::vector<double>> row0;
  double d = 0.0;
  for (const auto& r : rows) {
    EXPECT_EQ(r.size(), 7u);
    if (r[0] == 0.0) row0.push_back(r);
    const auto& r0 = row0.at(static_cast<size_t>(r[1]));
    d = std::max(d, std::hypot(r[4] - r0[4], r[5] - r0[5], r[6] - r0[6]));
  }
  return d;
}

TEST(CliCable, HangingCableStaysAtRestAndItsMomentumTakesTheImpulses) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "hanging_cable");
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("time march (cable on R^3)"), std::string::npos) << r.output;
  for (const char* f : {"field.csv", "time_series.csv", "cable.pvd", "frames/cable_000000.vtp",
                        "frames/cable_000640.vtp", "summary.json", "run.toml"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  EXPECT_EQ(summary_value(out, "status"), "\"completed\"");
  // The keys of every time march (apps/time_march_run.hpp): the cable has no cut-off term.
  EXPECT_EQ(summary_value(out, "theory"), "\"cable\"");
  EXPECT_EQ(summary_number(out, "cutoff_term"), 0.0);

  // At rest to O(ds^2): 1.9e-4 m over 1 s at A = 32 (the catenary is 0.3 m deep).
  const double moved = largest_motion(out / "field.csv");
  EXPECT_LT(moved, 2.5e-4);
  EXPECT_GT(moved, 1e-6);  // not trivially: the grid's catenary is not exactly at rest
  EXPECT_LT(summary_number(out, "energy_range_relative"), 1e-8);

  // P_j - P_{j-1} = dt (A ds rho A g + R0_j + RA_j) (theory (1.8.8), (8.5a)), to round-off.
  const auto s = csv_numbers(out / "time_series.csv");
  ASSERT_EQ(s.size(), 640u);
  const double dt = 1.5625e-3, weight = 32 * (1.0 / 32) * 1.0 * -9.81;
  double worst = 0.0, balance = 0.0;
  for (size_t k = 1; k < s.size(); ++k) {
    ASSERT_EQ(s[k].size(), 17u);  // j t E P_lin1..3 residual newton(2) W E_balance R0_lin RA_lin
    for (int c = 0; c < 3; ++c) {
      const double g = c == 2 ? weight : 0.0;
      const double dP = s[k][3 + c] - s[k - 1][3 + c];
      worst = std::max(worst, std::abs(dP - dt * (g + s[k][11 + c] + s[k][14 + c])));
    }
    balance = std::max(balance, s[k][6]);
  }
  EXPECT_LT(worst, 1e-13);  // |dt R| ~ 8e-3 N s
  EXPECT_LT(balance, 1e-12);

  // Order 2 in ds at c_L dt/ds = 0.5: A = 64 moves about 4 times less.
  ASSERT_TRUE(edit(file, "A = 32", "A = 64"));
  ASSERT_TRUE(edit(file, "dt = 1.5625e-3", "dt = 7.8125e-4"));
  ASSERT_TRUE(edit(file, "J = 640", "J = 1280"));
  const fs::path fine = tmp / "fine";
  ASSERT_EQ(run_field("simulate " + file.string() + " --out " + fine.string()).code, 0);
  const double order = std::log2(moved / largest_motion(fine / "field.csv"));
  EXPECT_GT(order, 1.8);
  EXPECT_LT(order, 2.2);

  // run.toml is the same cable case.
  const CommandResult again =
      run_field("simulate " + (out / "run.toml").string() + " --out " + (tmp / "again").string());
  ASSERT_EQ(again.code, 0) << again.output;
  EXPECT_EQ(read_text(tmp / "again" / "field.csv"), read_text(out / "field.csv"));
}

// `field check` passes on a cable run written with stride 1; one and two threads write the same
// bytes; `field info` prints the cable's law and `field static` refuses the case.
TEST(CliCable, CheckThreadsInfoAndStatic) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "hanging_cable");
  ASSERT_TRUE(edit(file, "J = 640", "J = 200"));
  ASSERT_TRUE(edit(file, "stride = 10", "stride = 1"));
  const fs::path one = tmp / "one", two = tmp / "two";
  ASSERT_EQ(run_field("simulate " + file.string() + " --threads 1 --out " + one.string()).code, 0);
  ASSERT_EQ(run_field("simulate " + file.string() + " --threads 2 --out " + two.string()).code, 0);
  for (const char* f : {"field.csv", "time_series.csv", "frames/cable_000100.vtp"})
    EXPECT_EQ(read_text(one / f), read_text(two / f)) << f;

  const CommandResult check = run_field("check " + one.string());
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("cable on R^3 (theory §1.8), rows 0..200"), std::string::npos)
      << check.output;
  EXPECT_NE(check.output.find("check passed"), std::string::npos) << check.output;

  const CommandResult info = run_field("info " + file.string());
  EXPECT_EQ(info.code, 0) << info.output;
  EXPECT_NE(info.output.find("EA = 100 N, rho A = 1 kg/m, linear-elastic law"), std::string::npos)
      << info.output;
  EXPECT_NE(info.output.find("c_L dt/ds = 0.5"), std::string::npos) << info.output;
  const CommandResult statics = run_field("static " + file.string());
  EXPECT_EQ(statics.code, 4) << statics.output;
  EXPECT_NE(statics.output.find("theory = \"cable\": the static solver"), std::string::npos)
      << statics.output;
}

// The swinging cable (pinned, free end, released horizontal): the energy stays within 3.1e-3 J
// over the second (4.9 J released), the Noether balance at round-off; the free end's ghost
// continues the initial axis (1.8.7). The report's figure is the range max E - min E (3.03e-3 J);
// the largest deviation max |E_j - E_0| of the same series is the 2.505e-3 J of the unit test
// Cable.SwingingCableEnergyIsBoundedSecondOrder (the same set-up:
// Cable.SwingingCableCaseIsThisSetUp).
TEST(CliCable, SwingingCableKeepsItsEnergy) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "swinging_cable");
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(summary_value(out, "status"), "\"completed\"");
  const double range =
      summary_number(out, "energy_range_relative") * std::abs(summary_number(out, "E_0"));
  EXPECT_LT(range, 3.1e-3);
  EXPECT_GT(range, 1e-4);
  double low = 0.0, high = 0.0, deviation = 0.0;  // E_j - E_0 from time_series.csv
  const auto series = csv_numbers(out / "time_series.csv");
  for (const auto& row : series) {
    const double dE = row[2] - series.front()[2];
    low = std::min(low, dE);
    high = std::max(high, dE);
    deviation = std::max(deviation, std::abs(dE));
  }
  EXPECT_NEAR(high - low, range, 1e-6 * range);
  EXPECT_LT(deviation, 2.51e-3);
  EXPECT_GT(range - deviation, 0.1 * range);  // E_j swings to both sides of E_0
  EXPECT_LT(summary_number(out, "noether_residual_max"), 1e-12);
  double lowest = 0.0;  // the free end swings down through about -1 m (near t = 0.5 s)
  for (const auto& row : csv_numbers(out / "field.csv")) lowest = std::min(lowest, row[6]);
  EXPECT_LT(lowest, -0.9);
}

// What the cable does not take is refused before anything is written, naming the file, the key
// and the value.
TEST(CliCable, RefusesWhatTheCableDoesNotTake) {
  struct Case {
    std::string from, to, says;
  };
  const std::vector<Case> cases = {
      {"EA = 100.0", "EA = -1.0", "[cable] EA = -1"},
      {"rhoA = 1.0", "rhoA = \"heavy\"", "[cable] rhoA = \"heavy\""},
      {"EA = 100.0", "EA = 100.0\nEI = 3.0", "[cable] EI"},
      {"march = \"time\"", "march = \"time\"\nretraction = \"exp\"", "retraction = \"exp\""},
      {"[grid]", "[beam]\nsection = \"circle\"\n\n[grid]", "[beam]"},
      {"right = \"clamped\"", "right = \"free\"", "[initial] configuration = \"catenary\""},
      {"right = \"clamped\"", "right = { prescribed = \"m.csv\" }",
       "is outside the data's range"},  // a path that does not cover [0, T]
      {"end = [0.9, 0.0, 0.3]", "end = [0.0, 0.0, 0.3]", "[initial] end = [0.0, 0.0, 0.3]"},
      {"configuration = \"catenary\"", "configuration = \"arc\"",
       "[initial] configuration = \"arc\""},
      {"[output]", "[damping]\nmass = 0.1\n\n[output]", "damping"},
      {"gravity = [0.0, 0.0, -9.81]",
       "gravity = [0.0, 0.0, -9.81]\n[[loads.point]]\nnode = 3\n"
       "wrench = [0, 0, 0, 0, 0, 1]",
       "[loads] point"},
      // The magnitude rule of theory §12: 1e11 min(ds, c_L dt) = 1.5625e9 m here.
      {"origin = [0.0, 0.0, 0.0]\nend = [0.9, 0.0, 0.3]",
       "origin = [2e9, 0.0, 0.0]\nend = [2000000000.9, 0.0, 0.3]",
       "[initial] row 0, node a = 0 is at |r| = 2e+09 m from the origin, beyond the limit 1e11 "
       "min(ds, c_E dt) = 1.5625e+09 m"},
      // A catenary that cannot be solved names the case and its keys (it named neither), and a
      // tiny gravity is not squared to 0 on the way (span NaN).
      {"rhoA = 1.0", "rhoA = 1e-300",
       "[initial] configuration = \"catenary\" with [cable] EA = 100 N, weight rhoA |gravity| = "
       "9.81e-300 N/m (give EA, rhoA and gravity of magnitudes double precision can solve for): "
       "elastic catenary: no solution for span 0.9 m, rise 0.3 m"},
      {"gravity = [0.0, 0.0, -9.81]", "gravity = [0.0, 0.0, -1e-200]",
       "weight rhoA |gravity| = 1e-200 N/m"},
  };
  for (const Case& c : cases) expect_refused("hanging_cable", c.from, c.to, c.says);
  // A [cable] table in a beam case.
  TempFolder tmp;
  const fs::path beam = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(beam, "[grid]", "[cable]\nEA = 1.0\n\n[grid]"));
  const CommandResult r = run_field("info " + beam.string());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find("[cable] belongs to theory = \"cable\""), std::string::npos) << r.output;
}

}  // namespace
}  // namespace field::test
