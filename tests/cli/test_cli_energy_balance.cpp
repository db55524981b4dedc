// The energy balance and the reactions through the real program (theory §8.1,
// docs/output-format.md, docs/cli.md): with loads (right_angle) the report, the progress line,
// summary.json and `field check` give E_j - E_0 - W_j + D_j in place of the relative energy
// range; a conservative run (free_flight) keeps the range; the clamp of static_cantilever holds
// minus the beam's weight on every row of time_series.csv; the prescribed rows of the shipped
// reconstruction (roundtrip) report their reactions in space_series.csv (theory (8.9)), which
// close the column balance (8.9a), and the natural rows of space_evolution report none.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

std::string header(const fs::path& csv) {
  const std::string text = read_text(csv);
  return text.substr(0, text.find('\n'));
}

TEST(CliEnergyBalance, LoadedRunReportsTheBalance) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "right_angle");
  ASSERT_TRUE(edit(file, "J = 61500", "J = 200"));
  ASSERT_TRUE(edit(file, "\nstride = 20", "\nstride = 1"));  // field check needs every row
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("balance max |E_j - E_0 - W_j + D_j| = "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("(max E - min E)/|E_0|"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("E-E0-W+D "), std::string::npos) << r.output;  // the progress line
  EXPECT_EQ(r.output.find("dE/E"), std::string::npos) << r.output;
  EXPECT_EQ(summary_value(out, "energy_balance_applies"), "true");
  EXPECT_EQ(summary_value(out, "energy_range_relative"), "null");
  EXPECT_LT(summary_number(out, "energy_balance_max"), 1e-6);  // J; the load puts in ~1e-2 J
  EXPECT_EQ(header(out / "time_series.csv"),
            "j,t,E,P_ang1,P_ang2,P_ang3,P_lin1,P_lin2,P_lin3,noether_residual,"
            "newton_max_iterations,newton_mean_iterations,W,E_balance,R0_ang1,R0_ang2,R0_ang3,"
            "R0_lin1,R0_lin2,R0_lin3");
  // Per row: E_balance = E - E_0 - W (no damping), the work grows from 0.
  const auto rows = csv_numbers(out / "time_series.csv");
  ASSERT_EQ(rows.size(), 200u);
  EXPECT_EQ(rows[0][12], 0.0);
  EXPECT_GT(rows.back()[12], 0.0);
  for (const auto& row : rows) EXPECT_EQ(row[13], row[2] - rows[0][2] - row[12]);
  const CommandResult check = run_field("check " + out.string());
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("balance max |E_j - E_0 - W_j| = "), std::string::npos)
      << check.output;
}

TEST(CliEnergyBalance, ConservativeRunKeepsTheRange) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  ASSERT_TRUE(edit(file, "J = 400", "J = 40"));
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("(max E - min E)/|E_0| = "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("dE/E "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("E-E0-W+D"), std::string::npos) << r.output;
  EXPECT_EQ(summary_value(out, "energy_balance_applies"), "false");
  EXPECT_LT(summary_number(out, "energy_range_relative"), 1e-3);
  // No prescribed end: no reaction columns; W = 0, E_balance = E - E_0.
  EXPECT_EQ(header(out / "time_series.csv").find("R0_"), std::string::npos);
  for (const auto& row : csv_numbers(out / "time_series.csv")) EXPECT_EQ(row[12], 0.0);
  const CommandResult check = run_field("check " + out.string());
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("(max - min)/|E_0|"), std::string::npos) << check.output;
}

// A driven end (meshes/driven/simulate.toml: the tip moved by a pose track, far end free): the
// balance replaces the range, the tip's reaction does the work, and the reaction columns are
// there; the driven reconstruction of the same motion reports the same balance.
TEST(CliEnergyBalance, DrivenEndDoesWork) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "driven", "simulate.toml");
  const fs::path out = tmp / "sim", rebuilt = tmp / "rebuilt";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string() + " -q");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("balance max |E_j - E_0 - W_j + D_j| = "), std::string::npos) << r.output;
  EXPECT_EQ(summary_value(out, "energy_balance_applies"), "true");
  const auto rows = csv_numbers(out / "time_series.csv");
  ASSERT_EQ(rows.size(), 250u);
  ASSERT_EQ(rows[0].size(), 20u);  // ... W, E_balance, R0_ang1..R0_lin3
  double work = 0.0;
  for (const auto& row : rows) work = std::max(work, std::abs(row[12]));
  EXPECT_GT(work, 1.0);                                               // J: 2.67 J measured
  EXPECT_LT(summary_number(out, "energy_balance_max"), 1e-3 * work);  // 1.8e-3 J measured
  const CommandResult d = run_field("reconstruct " + (file.parent_path() / "case.toml").string() +
                                    " --out " + rebuilt.string() + " -q");
  ASSERT_EQ(d.code, 0) << d.output;
  EXPECT_EQ(summary_value(rebuilt, "energy_balance_applies"), "true");
  EXPECT_NEAR(summary_number(rebuilt, "energy_balance_max"),
              summary_number(out, "energy_balance_max"), 1e-9);
}

// meshes/static_cantilever released from its equilibrium: the clamp holds the weight
// A ds rho A_c g = 10 (1/9.5) 1000 (0.01) 9.81 N upward, with no moment about e1 or e3, on every
// row; the clamp does no work.
TEST(CliEnergyBalance, StaticCantileverClampHoldsTheWeight) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "static_cantilever");
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("(max E - min E)/|E_0|"), std::string::npos) << r.output;  // a clamp
  const double weight = 10 * (1.0 / 9.5) * 1000.0 * 0.01 * 9.81;
  const auto rows = csv_numbers(out / "time_series.csv");
  ASSERT_EQ(rows.size(), 400u);
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 20u);
    EXPECT_EQ(row[12], 0.0);                       // W
    EXPECT_NEAR(row[19], weight, 1e-10 * weight);  // R0_lin3
    EXPECT_NEAR(row[17], 0.0, 1e-10 * weight);     // R0_lin1
    EXPECT_NEAR(row[14], 0.0, 1e-10 * weight);     // R0_ang1
    EXPECT_LT(row[15], -0.4 * weight);             // R0_ang2: minus the weight's moment
  }
}

// The shipped round trip (meshes/roundtrip, theory §11.5): the reactions of the prescribed rows
// close the column balance (8.9a); the work of those rows and the balance of E_M (theory (8.11),
// (8.12)) are in the series, the report and summary.json. The natural rows of space_evolution
// supply nothing: no reaction columns, no work, the balance is the change of E_M.
TEST(CliEnergyBalance, ReconstructionReportsTheReactionsOfThePrescribedRows) {
  TempFolder tmp;
  const fs::path out = tmp / "run";
  const CommandResult r = run_field(
      "reconstruct " + (fs::path(FIELD_SOURCE_DIR) / "meshes/roundtrip/case.toml").string() +
      " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(header(out / "space_series.csv"),
            "a,s,E_M,Q_ang1,Q_ang2,Q_ang3,Q_lin1,Q_lin2,Q_lin3,noether_residual,"
            "newton_max_iterations,newton_mean_iterations,W_M,E_M_balance,R0_ang1,R0_ang2,"
            "R0_ang3,R0_lin1,R0_lin2,R0_lin3,RJ_ang1,RJ_ang2,RJ_ang3,RJ_lin1,RJ_lin2,RJ_lin3");
  const auto rows = csv_numbers(out / "space_series.csv");
  ASSERT_EQ(rows.size(), 6u);  // columns 0..A-1
  const double ds = 1.0 / 6.0;
  double size = 0.0;
  for (const auto& row : rows)
    for (double v : row) size = std::max(size, std::abs(v));
  // (8.9a) without forces: Q^a - Q^{a-1} = ds (R_0^a + R_J^a), Q^{-1} = 0, from the file's
  // 17 digits (measured 7.5e-13 of the largest value in the library, tests/noether).
  for (size_t a = 0; a < rows.size(); ++a)
    for (int k = 0; k < 6; ++k) {
      const auto& row = rows[a];
      ASSERT_TRUE(std::isfinite(row[14 + k]) && std::isfinite(row[20 + k]));
      const double previous = a == 0 ? 0.0 : rows[a - 1][3 + k];
      EXPECT_NEAR(row[3 + k] - previous, ds * (row[14 + k] + row[20 + k]), 1e-11 * size)
          << "column " << a << ", component " << k;
    }
  // Row 0 of the time march moves at v_d = 0.5 m/s along e2 (test::FreeFlight): R0_lin2 is its
  // momentum per length rho A v_d = 5 N s/m at every column, to the round-off the march
  // amplifies by about 70 per column (theory §10 vi: measured 4.2e-8 at column 5).
  EXPECT_NEAR(rows[0][18], 5.0, 1e-14);
  for (const auto& row : rows) EXPECT_NEAR(row[18], 5.0, 1e-6);
  // W_M and E_M_balance = E_M - E_M^0 - W_M (theory (8.12)): finite, W_M^0 = 0; the rows' work
  // carries the change of E_M, the balance is much smaller (tests/noether: O(ds^2)).
  EXPECT_EQ(rows[0][12], 0.0);
  double change = 0.0;
  for (const auto& row : rows) {
    ASSERT_TRUE(std::isfinite(row[12]) && std::isfinite(row[13]));
    EXPECT_EQ(row[13], row[2] - rows[0][2] - row[12]);
    change = std::max(change, std::abs(row[2] - rows[0][2]));
  }
  EXPECT_NE(r.output.find("balance max |E_M^a - E_M^0 - W_M^a| = "), std::string::npos) << r.output;
  EXPECT_EQ(summary_value(out, "energy_balance_applies"), "true");
  EXPECT_EQ(summary_value(out, "E_M_range_relative"), "null");
  EXPECT_GT(change, 0.0);
  EXPECT_LT(summary_number(out, "energy_balance_max"), 3e-2 * change);  // measured 1.5e-2

  const CommandResult check = run_field("check " + out.string());
  EXPECT_NE(check.output.find("balance max |E_M^a - E_M^0 - W_M^a| = "), std::string::npos)
      << check.output;

  // Natural (zero-momentum) rows supply nothing: no reaction columns, no work; the balance is
  // E_M^a - E_M^0 and the report keeps the relative range.
  const fs::path natural = tmp / "natural";
  const CommandResult n = run_field(
      "reconstruct " + (fs::path(FIELD_SOURCE_DIR) / "meshes/space_evolution/case.toml").string() +
      " --out " + natural.string());
  ASSERT_EQ(n.code, 0) << n.output;
  EXPECT_EQ(header(natural / "space_series.csv").find("R0_"), std::string::npos);
  EXPECT_EQ(header(natural / "space_series.csv").find("RJ_"), std::string::npos);
  const auto natural_rows = csv_numbers(natural / "space_series.csv");
  ASSERT_FALSE(natural_rows.empty());
  for (const auto& row : natural_rows) {
    ASSERT_EQ(row.size(), 14u);
    EXPECT_EQ(row[12], 0.0);
    EXPECT_EQ(row[13], row[2] - natural_rows[0][2]);
  }
  EXPECT_NE(n.output.find("(max E_M - min E_M)/|E_M^0| = "), std::string::npos) << n.output;
  EXPECT_EQ(summary_value(natural, "energy_balance_applies"), "false");
  EXPECT_LT(summary_number(natural, "E_M_range_relative"), 1e-2);
}

}  // namespace
}  // namespace field::test
