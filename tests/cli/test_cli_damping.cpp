// [damping] (theory §4.7) through the program: a damped cantilever runs, its time_series.csv has
// the column dissipated_energy (D_j, growing), and `field check` accepts the run (the residual and
// the balance carry the damping terms); bad values are errors at file:line: [damping] key;
// stiffness damping beyond its stability limit (theory (4.21)) is a warning of `field info` and
// `field simulate`, and the limit is where the march turns unstable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

bool has(const CommandResult& r, const std::string& part) {
  return r.output.find(part) != std::string::npos;
}

TEST(CliDamping, DampedCantileverRunsWithItsDissipationAndPassesTheCheck) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "damped_cantilever");
  ASSERT_TRUE(edit(file, "J = 8000", "J = 1200"));
  const fs::path out = tmp.path() / "run";
  const CommandResult run =
      run_field("simulate " + file.string() + " --out " + out.string() + " -q");
  ASSERT_EQ(run.code, 0) << run.output;
  const std::string series = read_text(out / "time_series.csv");
  EXPECT_NE(series.find("E_balance,R0_ang1,R0_ang2,R0_ang3,R0_lin1,R0_lin2,R0_lin3,"
                        "dissipated_energy\n"),
            std::string::npos)
      << series.substr(0, 400);
  const std::vector<std::vector<double>> rows = csv_numbers(out / "time_series.csv");
  ASSERT_EQ(rows.size(), 1200u);
  EXPECT_EQ(rows.front().back(), 0.0);  // D_0 = 0
  for (size_t j = 1; j < rows.size(); ++j) EXPECT_GE(rows[j].back(), rows[j - 1].back()) << j;
  EXPECT_GT(rows.back().back(), 1e-2);  // J of kinetic energy drained by t = 0.6 s
  // The energy balance B_j = E_j - E_0 - W_j + D_j (column 13, theory §8.1 with (4.20)): O(dt^2),
  // 4.2e-5 J here against D = 0.68 J and |E_j - E_0| up to 0.68 J.
  double worst = 0.0;
  for (const std::vector<double>& row : rows) worst = std::max(worst, std::abs(row[13]));
  EXPECT_LT(worst, 1e-3 * rows.back().back());
  EXPECT_EQ(summary_value(out, "energy_balance_applies"), "true");
  const CommandResult check = run_field("check " + out.string());
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_TRUE(has(check, "check passed")) << check.output;
}

TEST(CliDamping, StiffnessDampingBeyondItsLimitIsWarnedAndGrows) {
  // damped_cantilever: c_E dt/ds = 0.475, dt omega_c/2 = 0.527, so omega_max dt = 1.0541 and
  // (4.21) gives beta < (2 - 1.1111/2) dt / 1.1111 = 1.3 dt = 6.5e-4 s. Marched over its 8000
  // rows, beta = 6.2e-4 keeps the balance at 4.0e-5 J; 6.8e-4 lets it grow to 4.1e3 J (measured).
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "damped_cantilever");
  const std::string original = read_text(file);
  const CommandResult info = run_field("info " + file.string());
  ASSERT_EQ(info.code, 0) << info.output;
  EXPECT_TRUE(has(info,
                  "stiffness damping stable for beta < 0.00065 s = 1.3 dt (theory (4.21))  "
                  "stable\n"))
      << info.output;
  EXPECT_FALSE(has(info, "warning: [damping]")) << info.output;
  struct Run {
    const char* beta;
    bool warned;
  };
  for (const Run& run : {Run{"6.2e-4", false}, Run{"6.8e-4", true}}) {
    write_text(file, original);
    ASSERT_TRUE(edit(file, "stiffness = 3.0e-4", std::string("stiffness = ") + run.beta));
    const CommandResult i = run_field("info " + file.string());
    EXPECT_EQ(has(i, "(theory (4.21))  UNSTABLE\n"), run.warned) << i.output;
    EXPECT_EQ(has(i, "warning: [damping] stiffness beta = "), run.warned) << i.output;
    const fs::path out = tmp.path() / (std::string("run") + run.beta);
    const CommandResult r =
        run_field("simulate " + file.string() + " --out " + out.string() + " -q");
    ASSERT_EQ(r.code, 0) << r.output;
    const std::string warning =
        "field: warning: [damping] stiffness beta = 0.00068 s is beyond the stability limit of "
        "the time march (theory (4.21): beta omega_max^2 dt < 2 - (omega_max dt)^2/2): with "
        "omega_max dt = 1.05409";
    EXPECT_EQ(has(r, warning), run.warned) << r.output;
    const double balance = summary_number(out, "energy_balance_max");
    if (run.warned) {
      EXPECT_GT(balance, 1.0) << run.beta;  // the fastest modes grow: 4.1e3 J
    } else {
      EXPECT_LT(balance, 1e-3) << run.beta;  // 4.0e-5 J, O(dt^2)
    }
  }
}

TEST(CliDamping, BadValuesAreErrorsAtTheirKey) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "damped_cantilever");
  const std::string original = read_text(file);
  const auto info = [&] { return run_field("info " + file.string()); };
  // Lines 39 (mass) and 40 (stiffness) of meshes/damped_cantilever/case.toml.
  for (const auto& [from, to, message] :
       {std::tuple{"mass = 0.4 ", "mass = -0.4 ", ":39: [damping] mass = -0.4: must be >= 0"},
        std::tuple{"mass = 0.4 ", "mass = nan ", ":39: [damping] mass = nan: must be finite"},
        std::tuple{"stiffness = 3.0e-4", "stiffness = inf",
                   ":40: [damping] stiffness = inf: must be finite"},
        std::tuple{"stiffness = 3.0e-4", "stiffness = -1e-3",
                   ":40: [damping] stiffness = -0.001: must be >= 0"},
        std::tuple{"stiffness = 3.0e-4", "stiffnes = 1e-3",
                   ":40: unknown key [damping] stiffnes"}}) {
    write_text(file, original);
    ASSERT_TRUE(edit(file, from, to));
    const CommandResult r = info();
    EXPECT_EQ(r.code, 4) << r.output;
    EXPECT_TRUE(has(r, file.string() + message)) << r.output;
  }

  // Mass damping beyond alpha = 2/dt (theory (4.19)): a warning of info and simulate.
  write_text(file, original);
  ASSERT_TRUE(edit(file, "mass = 0.4 ", "mass = 1e6 "));
  ASSERT_TRUE(edit(file, "J = 8000 ", "J = 4 "));
  const std::string mass = "warning: [damping] mass alpha = 1e+06 1/s gives alpha dt/2 = 250 > 1";
  EXPECT_TRUE(has(info(), mass)) << info().output;
  const CommandResult run =
      run_field("simulate " + file.string() + " -q --out " + (tmp.path() / "mass").string());
  EXPECT_EQ(run.code, 0) << run.output;
  EXPECT_TRUE(has(run, "field: " + mass)) << run.output;

  // A space march has no damping.
  const fs::path space = copy_case(tmp, "space_evolution");
  write_text(space, read_text(space) + "\n[damping]\nmass = 0.1\n");
  const CommandResult r = run_field("info " + space.string());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_TRUE(has(r, "[damping] belongs to march = \"time\" cases")) << r.output;
}

}  // namespace
}  // namespace field::test
