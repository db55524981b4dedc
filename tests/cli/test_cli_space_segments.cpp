// A reconstruction of a beam whose law and stress-free shape vary along s through the real
// program (theory §1.6, §6.2; [beam] section = "table" and [shape] file in a march = "space"
// case): the time march of a tapered, curved beam is rebuilt by `field reconstruct` from its
// tip.csv, with rows 0 and J prescribed from its field.csv, to round-off in the first columns (as
// the uniform round trip, test_cli.cpp), and `field check` accepts the reconstruction.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "libfield/model/beam_section.hpp"
#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

std::string number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// The section table of the roundtrip beam (square b = 0.1 m, E = 1e5 Pa, nu = 0.35, rho = 1000
// kg/m^3) over its 6 segments, the stiffnesses of segment a scaled by 1 - taper a and the
// inertias by its square.
std::string tapered_table(double taper) {
  const model::BeamSection section = model::BeamSection::square(0.1);
  const model::BeamMaterial material{1e5, 0.35, 1000.0};
  const Vec6 C = model::stiffness_diagonal(section, material);
  const Vec6 J = model::inertia_diagonal(section, material);
  std::string table = "a,EA,GA1,GA2,GJ,EI1,EI2,rhoA,rhoJ1,rhoJ2,rhoJ3\n";
  for (int a = 0; a < 6; ++a) {
    const double f = 1.0 - taper * a;
    table += std::to_string(a);
    for (const double c : {C(5), C(3), C(4), C(2), C(0), C(1)}) table += "," + number(f * c);
    for (const double m : {J(3), J(0), J(1), J(2)}) table += "," + number(f * f * m);
    table += "\n";
  }
  return table;
}

// Replaces the [beam] section of `file` by `beam` (up to [grid]).
void replace_beam(const fs::path& file, const std::string& beam) {
  std::string text = read_text(file);
  const auto from = text.find("section = \"square\"");
  ASSERT_NE(from, std::string::npos);
  text.replace(from, text.find("[grid]") - from, beam);
  write_text(file, text);
}

TEST(CliSpaceSegments, EqualTableRowsReconstructTheUniformBytes) {
  // A table whose rows are all the roundtrip section: the uniform law (io::segment_laws), the
  // same field.csv as the shipped geometric section.
  TempFolder tmp;
  const fs::path rec = copy_case(tmp, "roundtrip");
  const fs::path table = rec.parent_path() / "table.toml";
  write_text(rec.parent_path() / "table.csv", tapered_table(0.0));
  write_text(table, read_text(rec));
  replace_beam(table, "section = \"table\"\nfile = \"table.csv\"\n\n");
  const CommandResult a =
      run_field("reconstruct " + rec.string() + " --out " + (tmp / "a").string());
  const CommandResult b =
      run_field("reconstruct " + table.string() + " --out " + (tmp / "b").string());
  ASSERT_EQ(a.code, 0) << a.output;
  ASSERT_EQ(b.code, 0) << b.output;
  const std::string fa = read_text(tmp / "a" / "field.csv");
  ASSERT_GT(fa.size(), 1000u);
  EXPECT_TRUE(fa == read_text(tmp / "b" / "field.csv")) << "field.csv differs";
  EXPECT_EQ(read_text(tmp / "a" / "space_series.csv"), read_text(tmp / "b" / "space_series.csv"));
}

TEST(CliSpaceSegments, TaperedCurvedBeamRoundTripsThroughTheTipFile) {
  TempFolder tmp;
  const fs::path sim = copy_case(tmp, "roundtrip", "simulate.toml");
  const fs::path rec = sim.parent_path() / "case.toml";
  // The roundtrip beam tapered by 8 % per segment; a curved, twisted, stretched stress-free shape
  // that differs in every segment.
  std::string shape = "a,k1,k2,k3,g1,g2,g3\n";
  for (int a = 0; a < 6; ++a)
    shape += std::to_string(a) + "," + number(0.3 + 0.1 * a) + ",-0.2," + number(0.15 + 0.05 * a) +
             ",0,0," + number(1.0 + 0.02 * a) + "\n";
  write_text(sim.parent_path() / "table.csv", tapered_table(0.08));
  write_text(sim.parent_path() / "shape.csv", shape);
  for (const fs::path& file : {sim, rec})
    replace_beam(file,
                 "section = \"table\"\nfile = \"table.csv\"\n\n[shape]\nfile = \"shape.csv\"\n\n");
  ASSERT_TRUE(edit(sim, "configuration = \"straight\"", "configuration = \"stress_free\""));
  const fs::path time_run = tmp / "time", space_run = tmp / "space";
  const CommandResult s = run_field("simulate " + sim.string() + " --out " + time_run.string());
  ASSERT_EQ(s.code, 0) << s.output;
  // Rows 0 and J from the time march's own field.csv (the shipped rows.csv is the uniform beam's).
  const std::string rows = (time_run / "field.csv").string();
  ASSERT_TRUE(edit(rec, "\"rows.csv\", j = 0", "\"" + rows + "\", j = 0"));
  ASSERT_TRUE(edit(rec, "\"rows.csv\", j = 100", "\"" + rows + "\", j = 100"));
  const CommandResult info = run_field("info " + rec.string());
  EXPECT_EQ(info.code, 0) << info.output;
  const CommandResult r =
      run_field("reconstruct " + rec.string() + " --tip " + (time_run / "tip.csv").string() +
                " --out " + space_run.string());
  ASSERT_EQ(r.code, 0) << r.output;
  // field.csv columns j, a, t, s, x, y, z, qw, qx, qy, qz: the time march by rows, the space
  // march by columns. Columns a = 0..3 as in the uniform round trip (measured 6.9e-14 and 4.9e-12
  // in columns 2 and 3: the 17 digits of the CSV files, amplified).
  const auto time_lines = csv_numbers(time_run / "field.csv", 0, 11);
  const auto space_lines = csv_numbers(space_run / "field.csv", 0, 11);
  ASSERT_EQ(time_lines.size(), 101u * 7u);
  ASSERT_EQ(space_lines.size(), time_lines.size());
  double err[4] = {0, 0, 0, 0};
  for (const auto& t : time_lines) {
    const int j = static_cast<int>(t[0]), a = static_cast<int>(t[1]);
    if (a > 3) continue;
    const auto& x = space_lines[static_cast<std::size_t>(a * 101 + j)];
    ASSERT_EQ(static_cast<int>(x[0]), j);
    ASSERT_EQ(static_cast<int>(x[1]), a);
    for (int k = 4; k < 11; ++k) err[a] = std::max(err[a], std::abs(t[k] - x[k]));
  }
  for (int a = 0; a <= 3; ++a) {
    std::printf("[cli tapered round trip] column %d: max difference %.2e\n", a, err[a]);
    EXPECT_LE(err[a], 1e-10) << "column " << a;
  }
  const CommandResult check = run_field("check " + space_run.string());
  EXPECT_EQ(check.code, 0) << check.output;
}

}  // namespace
}  // namespace field::test
