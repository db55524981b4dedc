// The cable of theory §1.8 in motion through the real program: initial velocities (theory
// (1.8.10), the start (1.8.11)), driven ends (a prescribed path, the reaction, work and energy
// balance of theory §8.1 on R^3, (1.8.12)), tip.csv and spacetime.vtu, --no-progress, and the
// refusal of every bad new key with file, line, key and what to do.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

constexpr double kPi = 3.14159265358979323846;

// The rows of field.csv (columns j, a, t, s, x, y, z) by j: rows[j][a] = (x, y, z).
std::vector<std::vector<std::vector<double>>> field_rows(const fs::path& field_csv) {
  std::vector<std::vector<std::vector<double>>> rows;
  for (const auto& r : csv_numbers(field_csv)) {
    const auto j = static_cast<size_t>(r.at(0));
    if (rows.size() <= j) rows.resize(j + 1);
    rows[j].push_back({r.at(4), r.at(5), r.at(6)});
  }
  return rows;
}

// The swinging cable (A = 16, ds = 1/16 m, dt = 2.5e-3 s, J = 400) made free-free and
// weightless, without VTK files, with `initial` added to its [initial] table.
fs::path free_cable(const TempFolder& tmp, const std::string& initial) {
  const fs::path file = copy_case(tmp, "swinging_cable");
  EXPECT_TRUE(edit(file, "left = \"clamped\"", "left = \"free\""));
  EXPECT_TRUE(edit(file, "gravity = [0.0, 0.0, -9.81]", "gravity = [0.0, 0.0, 0.0]"));
  EXPECT_TRUE(edit(file, "stride = 4", "stride = 4\nvtk = false"));  // frames not needed
  EXPECT_TRUE(
      edit(file, "axis = [1.0, 0.0, 0.0]    # horizontal", "axis = [1.0, 0.0, 0.0]\n" + initial));
  return file;
}

// A free cable with a uniform velocity and no weight translates: r_j^a = r_0^a + t_j v (the start
// (1.8.11) has F_0 = 0 on the unstretched cable, every later row keeps eta and n = 0); its
// momentum is M v throughout; tip.csv carries v; a velocity file with v on every node gives the
// same bytes.
TEST(CliCableMotion, FreeCableWithAUniformVelocityTranslates) {
  TempFolder tmp;
  const fs::path file = free_cable(tmp, "velocity = \"uniform\"\nxi = [0.3, -0.2, 0.5]");
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const double v[3] = {0.3, -0.2, 0.5}, dt = 2.5e-3;
  const auto rows = field_rows(out / "field.csv");
  ASSERT_EQ(rows.size(), 401u);  // stride 4: rows 0, 4, ..., 400
  double worst = 0.0;
  for (size_t j = 0; j < rows.size(); ++j) {
    if (rows[j].empty()) continue;
    ASSERT_EQ(rows[j].size(), 17u);
    for (size_t a = 0; a < 17; ++a)
      for (int c = 0; c < 3; ++c)
        worst = std::max(worst, std::abs(rows[j][a][c] - rows[0][a][c] - j * dt * v[c]));
  }
  EXPECT_LT(worst, 1e-13);  // positions up to 1.2 m
  // P_j = A ds rhoA v = 1 kg x v on every row, to round-off.
  double drift = 0.0;
  for (const auto& s : csv_numbers(out / "time_series.csv"))
    for (int c = 0; c < 3; ++c) drift = std::max(drift, std::abs(s.at(3 + c) - v[c]));
  EXPECT_LT(drift, 1e-13);  // xi = (r_{j+1} - r_j)/dt carries eps |r|/dt ~ 1e-13
  // tip.csv: t, x, y, z, v1..3, eta1..3, tension; the tip moves with v, the first segment keeps
  // its row-0 strain (1, 0, 0) and carries no tension.
  const std::string head = "t,x,y,z,v1,v2,v3,eta1,eta2,eta3,tension\n0,0.03125,0,0,";
  EXPECT_EQ(read_text(out / "tip.csv").substr(0, head.size()), head);
  const auto tip = csv_numbers(out / "tip.csv");
  ASSERT_EQ(tip.size(), 401u);
  for (const auto& row : tip) {
    ASSERT_EQ(row.size(), 11u);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(row[4 + c], v[c], 1e-12);
    EXPECT_NEAR(row[7], 1.0, 1e-12);
    EXPECT_LT(std::abs(row[10]), 1e-9);
  }
  // run.toml is the same case, and so are the same velocities node by node from a file (columns
  // a, v1, v2, v3).
  const fs::path again = tmp / "again";
  ASSERT_EQ(run_field("simulate " + (out / "run.toml").string() + " --out " + again.string()).code,
            0);
  EXPECT_EQ(read_text(again / "field.csv"), read_text(out / "field.csv"));
  std::ostringstream csv;
  csv << "a,v1,v2,v3\n";
  for (int a = 16; a >= 0; --a) csv << a << ",0.3,-0.2,0.5\n";  // any order
  write_text(file.parent_path() / "v.csv", csv.str());
  ASSERT_TRUE(edit(file, "velocity = \"uniform\"\nxi = [0.3, -0.2, 0.5]",
                   "velocity = \"file\"\nvelocity_file = \"v.csv\""));
  const fs::path from_file = tmp / "file";
  ASSERT_EQ(run_field("simulate " + file.string() + " --out " + from_file.string()).code, 0);
  EXPECT_EQ(read_text(from_file / "field.csv"), read_text(out / "field.csv"));
  const fs::path file_again = tmp / "file_again";
  ASSERT_EQ(
      run_field("simulate " + (from_file / "run.toml").string() + " --out " + file_again.string())
          .code,
      0);
  EXPECT_EQ(read_text(file_again / "field.csv"), read_text(out / "field.csv"));
}

// A rigid rotation omega x (r - c) about the centre of mass: row 1 is the start (1.8.11),
// r_1 = r_0 + dt v + dt^2/2 g on the unstretched cable (first_order: r_0 + dt v); the momentum
// stays 0 (the spin has none) up to the impulse of gravity (1.8.8).
TEST(CliCableMotion, RigidRotationStartsByTheSecondOrderRule) {
  TempFolder tmp;
  // Free left end: the massive nodes a = 0..15 sit at s_a = (a + 1/2) ds, their centre at 0.5 m.
  const fs::path file =
      free_cable(tmp, "velocity = \"rotation\"\nomega = [0.0, 0.0, 2.0]\ncenter = [0.5, 0.0, 0.0]");
  ASSERT_TRUE(edit(file, "gravity = [0.0, 0.0, 0.0]", "gravity = [0.0, 0.0, -9.81]"));
  ASSERT_TRUE(edit(file, "stride = 4", "stride = 1"));
  const double dt = 2.5e-3, g = -9.81;
  for (const std::string start : {"second_order", "first_order"}) {
    SCOPED_TRACE(start);
    if (start == "first_order") {
      ASSERT_TRUE(edit(file, "center = [0.5, 0.0, 0.0]",
                       "center = [0.5, 0.0, 0.0]\nstart = \"first_order\""));
    }
    const fs::path out = tmp / start;
    const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
    ASSERT_EQ(r.code, 0) << r.output;
    const auto rows = field_rows(out / "field.csv");
    ASSERT_EQ(rows.size(), 401u);
    const double fall = start == "second_order" ? 0.5 * dt * dt * g : 0.0;
    for (size_t a = 0; a < 16; ++a) {  // the massive nodes; node 16 is the ghost (1.8.7)
      const auto& r0 = rows[0][a];
      const double x = r0[0] - 0.5;  // omega x (r - c) = 2 (-y, x, 0) with y = 0
      EXPECT_NEAR(rows[1][a][0], r0[0], 1e-15);
      EXPECT_NEAR(rows[1][a][1], r0[1] + dt * 2.0 * x, 1e-15);
      EXPECT_NEAR(rows[1][a][2], r0[2] + fall, 1e-15);
    }
    // P_j = t-centred impulse of the weight, M g (j + 1/2) dt from P_0 = M g dt/2 (1.8.8).
    const auto s = csv_numbers(out / "time_series.csv");
    double worst = 0.0;
    for (size_t k = 1; k < s.size(); ++k) {
      worst = std::max({worst, std::abs(s[k][3]), std::abs(s[k][4])});
      worst = std::max(worst, std::abs(s[k][5] - s[k - 1][5] - dt * g));
    }
    EXPECT_LT(worst, 1e-12);  // 16 nodes of xi ~ 1 m/s, each with eps |r|/dt ~ 1e-13
    // The spin stretches the cable (the centrifugal tension): its tip segment is longer than ds.
    const auto tip = csv_numbers(out / "tip.csv");
    double stretch = 0.0;
    for (const auto& row : tip) stretch = std::max(stretch, std::hypot(row[7], row[8], row[9]));
    EXPECT_GT(stretch, 1.0001);
    // run.toml keeps the rotation and the start.
    const fs::path again = tmp / (start + "_again");
    ASSERT_EQ(
        run_field("simulate " + (out / "run.toml").string() + " --out " + again.string()).code, 0);
    EXPECT_EQ(read_text(again / "field.csv"), read_text(out / "field.csv"));
  }
}

// A path file for the left end: x = x(t) sampled at t_k = k h, k = 0..n.
void write_path(const fs::path& path, double h, int n, double (*x)(double)) {
  std::ostringstream csv;
  csv.precision(17);
  csv << "t,x,y,z\n";
  for (int k = 0; k <= n; ++k) csv << k * h << "," << x(k * h) << ",0,0\n";
  write_text(path, csv.str());
}

// A straight free cable at rest in translation with v, its left end driven along r0 + v t: the
// whole cable translates rigidly, the driven end needs no force (R^0 = 0), does no work, and
// the energy balance (8.8) holds to round-off; `field check` passes on the run.
TEST(CliCableMotion, DrivenEndAtConstantVelocityTranslatesTheCable) {
  TempFolder tmp;
  const fs::path file = free_cable(tmp, "velocity = \"uniform\"\nxi = [0.4, 0.0, 0.0]");
  ASSERT_TRUE(edit(file, "left = \"free\"", "left = { prescribed = \"path.csv\" }"));
  ASSERT_TRUE(edit(file, "stride = 4", "stride = 1"));
  write_text(file.parent_path() / "path.csv", "t,x,y,z\n0,0,0,0\n1,0.4,0,0\n");
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const CommandResult check = run_field("check " + out.string());  // the driven end read again
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(r.output.find("balance max |E_j - E_0 - W_j + D_j|"), std::string::npos) << r.output;
  EXPECT_EQ(summary_value(out, "energy_balance_applies"), "true");
  const auto rows = field_rows(out / "field.csv");
  double worst = 0.0;
  for (size_t j = 0; j < rows.size(); ++j)
    for (size_t a = 0; a < rows[j].size(); ++a)
      worst = std::max({worst, std::abs(rows[j][a][0] - rows[0][a][0] - 0.4 * j * 2.5e-3),
                        std::abs(rows[j][a][1]), std::abs(rows[j][a][2])});
  EXPECT_LT(worst, 1e-13);
  const auto s = csv_numbers(out / "time_series.csv");
  ASSERT_EQ(s.at(0).size(), 14u);  // j t E P(3) residual newton(2) W E_balance R0_lin(3)
  double reaction = 0.0, work = 0.0, balance = 0.0;
  for (const auto& row : s) {
    reaction = std::max({reaction, std::abs(row[11]), std::abs(row[12]), std::abs(row[13])});
    work = std::max(work, std::abs(row[9]));
    balance = std::max(balance, std::abs(row[10]));
  }
  EXPECT_LT(reaction, 1e-9);  // [N]; |dt R| is round-off of terms ~ 1e-2 N s
  EXPECT_LT(work, 1e-12);
  EXPECT_LT(balance, 1e-12);
}

double swing_path(double t) {  // 0.1 m to the side and back in 0.5 s, starting at rest
  return 0.05 * (1.0 - std::cos(2.0 * kPi * t / 0.5));
}

// The swinging cable with its pin driven sideways and back: the momentum balance (8.5a) with the
// reaction holds to round-off; the energy balance B_j = E_j - E_0 - W_j (8.8) is O(dt^2).
TEST(CliCableMotion, DrivenEndEnergyBalanceIsSecondOrder) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "swinging_cable");
  ASSERT_TRUE(edit(file, "left = \"clamped\"", "left = { prescribed = \"path.csv\" }"));
  // 0.5 s at dt = 1.25 ms and 0.625 ms (at 2.5 ms the order is still 2.15, pre-asymptotic).
  ASSERT_TRUE(edit(file, "dt = 2.5e-3 ", "dt = 1.25e-3 "));
  ASSERT_TRUE(edit(file, "stride = 4", "stride = 4\nvtk = false"));
  write_path(file.parent_path() / "path.csv", 6.25e-4, 800, swing_path);
  std::vector<double> balances;
  for (const int k : {1, 2}) {
    if (k == 2) {
      ASSERT_TRUE(edit(file, "dt = 1.25e-3 ", "dt = 6.25e-4 "));
      ASSERT_TRUE(edit(file, "J = 400 ", "J = 800 "));
    }
    const fs::path out = tmp / ("run" + std::to_string(k));
    const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
    ASSERT_EQ(r.code, 0) << r.output;
    const double dt = 1.25e-3 / k, weight = -9.81;  // A ds rhoA g = 1 kg x g
    const auto s = csv_numbers(out / "time_series.csv");
    double momentum = 0.0, work = 0.0, balance = 0.0;
    for (size_t i = 1; i < s.size(); ++i)
      for (int c = 0; c < 3; ++c)
        momentum = std::max(momentum, std::abs(s[i][3 + c] - s[i - 1][3 + c] -
                                               dt * ((c == 2 ? weight : 0.0) + s[i][11 + c])));
    for (const auto& row : s) {
      work = std::max(work, std::abs(row[9]));
      balance = std::max(balance, std::abs(row[10]));
    }
    EXPECT_LT(momentum, 1e-13);
    EXPECT_GT(work, 0.5);  // the driven end works on the cable: 0.83 J
    EXPECT_NEAR(summary_number(out, "energy_balance_max"), balance, 1e-6 * balance);
    balances.push_back(balance);
  }
  const double order = std::log2(balances[0] / balances[1]);
  EXPECT_GT(order, 1.8) << balances[0] << " " << balances[1];
  EXPECT_LT(order, 2.2) << balances[0] << " " << balances[1];
}

// tip.csv and spacetime.vtu of the hanging cable: the columns, finite values, the tip's tension
// that of the catenary's first segment, a spacetime surface without frames; one and two threads
// write the same bytes.
TEST(CliCableMotion, TipAndSpacetimeFiles) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "hanging_cable");
  ASSERT_TRUE(edit(file, "J = 640", "J = 100"));
  const fs::path one = tmp / "one", two = tmp / "two";
  ASSERT_EQ(run_field("simulate " + file.string() + " --threads 1 --out " + one.string()).code, 0);
  ASSERT_EQ(run_field("simulate " + file.string() + " --threads 2 --out " + two.string()).code, 0);
  for (const char* f : {"tip.csv", "spacetime.vtu"})
    EXPECT_EQ(read_text(one / f), read_text(two / f)) << f;
  const auto tip = csv_numbers(one / "tip.csv");
  const auto series = csv_numbers(one / "time_series.csv");
  ASSERT_EQ(tip.size(), 101u);
  ASSERT_EQ(series.size(), 100u);
  for (size_t j = 0; j < tip.size(); ++j) {
    const auto& row = tip[j];
    ASSERT_EQ(row.size(), 11u);
    for (const double v : row) EXPECT_TRUE(std::isfinite(v));
    EXPECT_EQ(row[1], 0.0);  // the pin at the origin
    EXPECT_EQ(row[4], 0.0);
    if (j == series.size()) continue;
    // The pin's reaction (1.8.12) is R_j^0 = -n(eta_j^0) - ds rhoA g (the pinned node does not
    // accelerate): its tension |R_j^0 + ds rhoA g| is the tip's, written by another code path.
    const double g = -9.81 / 32;
    const double pull = std::hypot(series[j][11], series[j][12], series[j][13] + g);
    EXPECT_NEAR(row[10], pull, 1e-12 * pull) << "row " << j;
  }
  // Row 0: the tension of the catenary (1.8.9) at the first segment's middle s = ds/2,
  // sqrt(H^2 + (w ds/2 - V)^2) with H = 4.863, V = 2.9289 N (`field info`), ds = 1/32 m, up to
  // the O(ds^2) of the chord (0.17 %).
  EXPECT_NEAR(tip[0][10], std::hypot(4.863, 9.81 / 64 - 2.9289), 2e-3 * 5.6);
  const std::string vtu = read_text(one / "spacetime.vtu");
  // vtk_stride "auto" writes every row of 100: 101 rows of 33 nodes, 2 x 100 x 32 triangles.
  EXPECT_NE(vtu.find("<Piece NumberOfPoints=\"3333\" NumberOfCells=\"6400\">"), std::string::npos);
  for (const char* name : {"\"position\"", "\"energy_density\"", "\"dcel_residual\"",
                           "\"noether_defect\"", "\"node_kind\""})
    EXPECT_NE(vtu.find(name), std::string::npos) << name;
  EXPECT_EQ(vtu.find("q_wxyz"), std::string::npos);  // points of R^3 have no frames
}

// --no-progress keeps the warnings and drops the progress line, which a cable run prints
// otherwise (one line every 5 % when stderr is not a terminal).
TEST(CliCableMotion, NoProgressPrintsNoProgressLine) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "swinging_cable");
  ASSERT_TRUE(edit(file, "dt = 2.5e-3 ", "dt = 6.5e-3 "));  // c_L dt/ds = 1.04: a warning
  ASSERT_TRUE(edit(file, "J = 400 ", "J = 20 "));
  const CommandResult with =
      run_field("simulate " + file.string() + " --out " + (tmp / "a").string());
  EXPECT_NE(with.output.find("row 20/20  t = "), std::string::npos) << with.output;
  const CommandResult r =
      run_field("simulate " + file.string() + " --no-progress --out " + (tmp / "b").string());
  EXPECT_NE(r.output.find("field: warning: time march outside its stable range"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("/20  t = "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("swinging_cable: time march (cable on R^3)"), std::string::npos)
      << r.output;
}

// Every new key refused with the case file, the line, the key and what to do; the data files
// with their own file and line and the case key that named them.
TEST(CliCableMotion, RefusesBadVelocitiesAndPaths) {
  struct Case {
    std::string from, to, says;
  };
  const std::string axis = "axis = [1.0, 0.0, 0.0]    # horizontal";
  const std::vector<Case> cases = {
      {axis, axis + "\nvelocity = \"spin\"", "[initial] velocity = \"spin\""},
      {axis, axis + "\nxi = [1.0, 0.0, 0.0]",
       "[initial] xi = [1.0, 0.0, 0.0]: is read with velocity = \"uniform\" only"},
      {axis, axis + "\nvelocity = \"uniform\"", "[initial] xi: required"},
      {axis, axis + "\nvelocity = \"uniform\"\nxi = [1.0, 0.0]", "[initial] xi = [1.0, 0.0]"},
      {axis, axis + "\nvelocity = \"uniform\"\nxi = [1.0, 0.0, 0.0]\nomega = [0.0, 0.0, 1.0]",
       "remove it or set velocity = \"rotation\""},
      {axis, axis + "\nvelocity = \"rotation\"", "[initial] omega: required"},
      {axis, axis + "\nvelocity = \"rotation\"\nomega = [0.0, 0.0, 1.0]\ncenter = \"middle\"",
       "[initial] center = \"middle\""},
      {axis, axis + "\nvelocity = \"file\"", "[initial] velocity_file: required"},
      {axis, axis + "\nvelocity = \"file\"\nvelocity_file = \"v.csv\"", "node a = 3 is missing"},
      {"left = \"clamped\"", "left = { prescribed = \"m.csv\", speed = 1.0 }", "speed"},
      {"left = \"clamped\"", "left = { prescribed = \"m.csv\" }",
       "t = 0.0025 is outside the data's range [0, 0]"},
      {"left = \"clamped\"", "left = { prescribed = \"late.csv\" }",
       "start the path at the end of row 0"},
      {"left = \"clamped\"", "left = { prescribed = \"bad.csv\" }", "column"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.to);
    TempFolder tmp;
    const fs::path file = copy_case(tmp, "swinging_cable");
    ASSERT_TRUE(edit(file, c.from, c.to));
    const fs::path dir = file.parent_path();
    write_text(dir / "m.csv", "t,x,y,z,qw,qx,qy,qz\n0,1,0,0,0.5,0.5,0.5,0.5\n");
    write_text(dir / "v.csv", "a,v1,v2,v3\n0,0,0,0\n1,0,0,0\n2,0,0,0\n");
    write_text(dir / "late.csv", "t,x,y,z\n0,0.1,0,0\n2,0.1,0,0\n");
    write_text(dir / "bad.csv", "t,x,y\n0,0,0\n2,0,0\n");
    const fs::path out = tmp / "run";
    const CommandResult r = run_field("simulate " + file.string() + " --out " + out.string());
    EXPECT_EQ(r.code, 4) << r.output;
    EXPECT_NE(r.output.find(file.string() + ":"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out)) << r.output;
  }
}

}  // namespace
}  // namespace field::test
