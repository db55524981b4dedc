// `field reconstruct` of a cable (theory §1.8 on R^3, docs/cable.md): the space march of theory
// §6.2 from the data of the end a = 0 that a cable's tip.csv holds (positions and the strain of
// the first segment), rebuilding a simulated taut cable where the reconstruction's zero-momentum
// rows have not reached; `field check` passes on the result; a compressed cable is refused by the
// guard of theory §6.2 (6.2.3); bad tip data and keys the cable does not take are refused, naming
// the file, the line and the key, before anything is written; `field info` gives the same verdict.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "libfield/core/types.hpp"
#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

// A taut cable (EA = 100 N, rho A = 1 kg/m, unstretched length 1 m, A = 5) in its elastic catenary
// between pins 2.94 m apart (stretch about 2.9, tension about 190 N), set turning about its chord
// like a skipping rope, under gravity: c_L dt/ds = 0.98 for the time march, ds/(c_T dt) = 1.25
// for the space march (theory §6.2: round-off grows by a modest factor per column).
const char* const kGrid = R"([cable]
EA = 100.0
rhoA = 1.0
reference_tension = 200.0

[grid]
A = 5
ds = 0.2
dt = 0.0196
J = 60

[loads]
gravity = [0.0, 0.0, -9.81]
)";

fs::path simulation_case(const fs::path& dir) {
  const fs::path file = dir / "sim.toml";
  write_text(file, std::string("format = 1\nname = \"taut_cable\"\nmarch = \"time\"\ntheory = "
                               "\"cable\"\n") +
                       kGrid + R"(
[boundary]
left = "clamped"
right = "clamped"

[initial]
configuration = "catenary"
origin = [0.0, 0.0, 0.0]
end = [2.9, 0.0, 0.4]
velocity = "rotation"
omega = [2.0, 0.0, 0.3]
center = [0.0, 0.0, 0.0]
)");
  return file;
}

// The space-march case of the same cable from the tip file `tip`, with `extra` appended.
fs::path reconstruction_case(const fs::path& dir, const fs::path& tip,
                             const std::string& extra = "") {
  const fs::path file = dir / "rec.toml";
  write_text(file, std::string("format = 1\nname = \"taut_cable_reconstruct\"\nmarch = "
                               "\"space\"\ntheory = \"cable\"\n") +
                       kGrid + "\n[tip]\nfile = \"" + tip.string() + "\"\n" + extra);
  return file;
}

// The reconstruction equals the simulation on the rows a <= j <= J - a of column a: its rows
// j = 0 and J are at zero momentum where the simulation's move, and what differs there travels
// one row per column (theory §6.2), as for the planar beam (CliPlanar.Reconstruct*). Measured:
// 2.2e-15 m inside, 9.0e-3 m outside (the cable moves by 3.5e-3 m at its middle).
TEST(CliCableReconstruct, RebuildsTheSimulationFromItsTip) {
  TempFolder tmp;
  const fs::path simulated = tmp / "sim", out = tmp / "rec";
  const CommandResult s = run_field("simulate " + simulation_case(tmp.path()).string() +
                                    " -q --out " + simulated.string());
  ASSERT_EQ(s.code, 0) << s.output;
  const fs::path file = reconstruction_case(tmp.path(), simulated / "tip.csv");
  const CommandResult info = run_field("info " + file.string());
  EXPECT_EQ(info.code, 0) << info.output;
  for (const char* line : {"march: space (field reconstruct)", "tip strains: taut on every row",
                           "stability (theory §6.2): ds/(c_G dt) = 1.25 "})
    EXPECT_NE(info.output.find(line), std::string::npos) << info.output;
  const CommandResult r = run_field("reconstruct " + file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("taut_cable_reconstruct: space march (cable on R^3), A = 5, J = 60"),
            std::string::npos)
      << r.output;
  for (const char* f :
       {"field.csv", "space_series.csv", "cable.pvd", "spacetime.vtu", "summary.json", "run.toml"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  EXPECT_EQ(summary_value(out, "status"), "\"completed\"");
  EXPECT_EQ(summary_value(out, "theory"), "\"cable\"");
  const CommandResult check = run_field("check " + out.string());  // its run.toml is the cable's
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("space march, cable on R^3"), std::string::npos) << check.output;
  // space_series.csv: Q^a = -dt sum_{j<J} N_j^a (theory §7.2), on R^3 a translation momentum
  // (theory (1.8.8)): at column 0, N_j^0 = W'(|eta_j^0|) eta_j^0/|eta_j^0| from the simulation's
  // tip.csv (t, x, y, z, v1..3, eta1..3, tension).
  const std::string series = read_text(out / "space_series.csv");
  EXPECT_EQ(series.substr(0, series.find('\n')),
            "a,s,E_M,Q_lin1,Q_lin2,Q_lin3,noether_residual,newton_max_iterations,"
            "newton_mean_iterations,W_M,E_M_balance");
  Vec3 Q = Vec3::Zero();
  const auto tip = csv_numbers(simulated / "tip.csv");
  for (int j = 0; j < 60; ++j) {
    const Vec3 eta(tip[j][7], tip[j][8], tip[j][9]);
    Q -= 0.0196 * tip[j][10] * eta.normalized();
  }
  const auto q = csv_numbers(out / "space_series.csv");
  ASSERT_FALSE(q.empty());
  EXPECT_LT((Vec3(q[0][3], q[0][4], q[0][5]) - Q).norm(), 1e-12 * Q.norm()) << Q.transpose();

  const auto rec = csv_numbers(out / "field.csv"), sim = csv_numbers(simulated / "field.csv");
  ASSERT_EQ(rec.size(), 61u * 6u);  // rows 0..60 of nodes 0..5, by columns
  ASSERT_EQ(sim.size(), rec.size());
  double inner = 0.0, edge = 0.0, moved = 0.0;
  for (const auto& row : rec) {
    ASSERT_EQ(row.size(), 7u);  // j, a, t, s, x, y, z
    const int j = int(row[0]), a = int(row[1]);
    const std::vector<double>& truth = sim[size_t(j) * 6 + size_t(a)];  // by rows
    ASSERT_EQ(truth[0], j);
    ASSERT_EQ(truth[1], a);
    double d = 0.0;
    for (int c = 4; c < 7; ++c) d = std::max(d, std::abs(row[c] - truth[c]));
    double& worst = a <= j && j <= 60 - a ? inner : edge;
    worst = std::max(worst, d);
    const std::vector<double>& start = sim[size_t(a)];
    moved = std::max(moved, std::abs(truth[5] - start[5]));
  }
  std::printf("cable reconstruction: %.2e m inside, %.2e m outside (moved %.2e m)\n", inner, edge,
              moved);
  EXPECT_LT(inner, 1e-13);
  EXPECT_GT(edge, 1e-3);  // the zero-momentum rows differ (see above)
  EXPECT_GT(moved, 2e-3);
}

// A tip file of a cable with the strain eta_j^0 = (0, 0, s_j).
std::string tip_text(const std::vector<double>& stretch) {
  std::string text = "t,x,y,z,eta1,eta2,eta3\n";
  for (size_t j = 0; j < stretch.size(); ++j)
    text += std::to_string(j * 0.0196) + ",0,0,0,0,0," + std::to_string(stretch[j]) + "\n";
  return text;
}

// The guard of theory §6.2 (6.2.3): tip data of a compressed segment are refused before anything
// is written (exit 4); a cable taut at its tip and compressed further on (a vertical cable at
// rest, pushed up from below: its tension falls by w ds per segment) stops at the first
// compressed segment, a run failure (exit 3) whose outputs hold the columns before it.
TEST(CliCableReconstruct, RefusesACompressedCable) {
  TempFolder tmp;
  std::vector<double> stretch(61, 1.1);
  stretch[17] = 0.95;
  write_text(tmp / "tip.csv", tip_text(stretch));
  const fs::path out = tmp / "rec";
  const fs::path file = reconstruction_case(tmp.path(), tmp / "tip.csv");
  const CommandResult r = run_field("reconstruct " + file.string() + " --out " + out.string());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find("space march: the strain of segment a = 0 (between columns 0 and 1), "
                          "row j = 17 (t = 0.3332 s): the stretch |eta| = 0.95 is not above 1"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("The space march rebuilds a taut cable only (theory §6.2)"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(out));
  const CommandResult info = run_field("info " + file.string());  // the same verdict
  EXPECT_EQ(info.code, 4) << info.output;
  EXPECT_NE(info.output.find("row j = 17 (t = 0.3332 s): the stretch |eta| = 0.95"),
            std::string::npos)
      << info.output;

  // Hanging down from the origin along -z (gravity -z): N^a = (1.5 - a) w ds, w = 9.81 N/m.
  std::string text = "t,x,y,z,eta1,eta2,eta3\n";
  for (int j = 0; j <= 60; ++j)
    text += std::to_string(j * 0.0196) + ",0,0,0,0,0,-" +
            std::to_string(1.0 + 1.5 * 9.81 * 0.2 / 100.0) + "\n";
  write_text(tmp / "tip.csv", text);
  const CommandResult m = run_field("reconstruct " + file.string() + " --out " + out.string());
  EXPECT_EQ(m.code, 3) << m.output;
  EXPECT_NE(m.output.find("field: run failed after column 2: space march: the strain of segment "
                          "a = 2 (between columns 2 and 3), row j = 0 (t = 0 s): the stretch "
                          "|eta| = 0.99"),
            std::string::npos)
      << m.output;
  EXPECT_NE(m.output.find("The outputs hold columns 0..2 and are valid."), std::string::npos)
      << m.output;
  EXPECT_EQ(summary_value(out, "status"), "\"failed\"");
  EXPECT_EQ(csv_rows(out / "field.csv"), 3 * 61);
  // The work of column 2, the one solved column the outputs hold: its solved rows j = 0..J-1
  // (row 0 at zero momentum, row J = 60 the end row; theory §6.2). It read 0 before.
  EXPECT_EQ(summary_number(out, "node_updates"), 60);
  EXPECT_GE(summary_number(out, "newton_iterations"), 60);
}

// Bad tip data (a value that is not a number, a missing column, a grid beyond the data) and keys
// the cable does not take are refused before anything is written, naming the file, the line and
// the value or key.
TEST(CliCableReconstruct, RefusesBadTipDataAndKeys) {
  TempFolder tmp;
  const fs::path tip = tmp / "tip.csv", out = tmp / "rec";
  const std::string good = tip_text(std::vector<double>(61, 1.1));
  const auto refused = [&](const std::string& tip_text, const std::string& extra,
                           const std::string& says) {
    SCOPED_TRACE(says);
    write_text(tip, tip_text);
    const fs::path file = reconstruction_case(tmp.path(), tip, extra);
    const CommandResult r = run_field("reconstruct " + file.string() + " --out " + out.string());
    EXPECT_EQ(r.code, 4) << r.output;
    EXPECT_NE(r.output.find(says), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out)) << r.output;
  };
  std::string nan = good;
  nan.replace(nan.find("0,0,0,0,0,1.1", nan.find("\n0.196")), 13, "0,0,0,0,nan,1.1");
  refused(nan, "", (tmp / "tip.csv").string() + ":12: column 'eta2'");
  std::vector<double> huge(61, 1.1);  // the magnitude rule of theory §12 on column 1 = column 0
  huge[10] = 1e300;                   // + ds eta
  refused(tip_text(huge), "",
          "column 1 (the tip moved by ds eta, its strain) at row j = 10 is at |r| = ");
  std::string no_eta3 = good;
  no_eta3.replace(0, no_eta3.find('\n'), "t,x,y,z,eta1,eta2,eta");
  refused(no_eta3, "", "eta3");
  refused(tip_text(std::vector<double>(40, 1.1)), "", "grid time t_40");
  const std::string at = (tmp / "rec.toml").string() + ":";
  refused(good, "\n[reconstruct]\nmethod = \"driven\"\n",
          "[reconstruct] method = \"driven\": a method other than \"space\" is not supported for "
          "theory = \"cable\"");
  refused(good, "\n[boundary]\nfirst = { prescribed = \"rows.csv\" }\n",
          at + "23: [boundary] first = {...}: a prescribed row is not supported for theory = "
               "\"cable\"");
  refused(good, "noise_position = 0.001\n",
          at + "21: [tip] noise_position = 0.001: the prediction of the error growth (theory "
               "§6.3) is the beam's");
  refused(good, "strain_at = \"tip_point\"\n",
          at + "21: [tip] strain_at = \"tip_point\": strain_at = \"tip_point\" (theory §6.6)");
}

}  // namespace
}  // namespace field::test
