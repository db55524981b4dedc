// [beam] section = "stiffness" (meshes/README.md): the free flight written with the geometric
// section's six stiffnesses and four inertias runs to the same field.csv, byte for byte.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "libfield/model/beam_section.hpp"
#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

std::string shortest17(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

TEST(CliSections, GivenStiffnessesRunTheSameFieldAsTheGeometricSection) {
  TempFolder tmp;
  const fs::path geometric = copy_case(tmp, "free_flight");
  // Its section: square b = 0.1 m, E = 1e5 Pa, nu = 0.35, rho = 1000 kg/m^3.
  const model::BeamSection s = model::BeamSection::square(0.1);
  const model::BeamMaterial m{1e5, 0.35, 1000.0};
  const Vec6 C = model::stiffness_diagonal(s, m), J = model::inertia_diagonal(s, m);
  const std::string given = "section = \"stiffness\"\nEA = " + shortest17(C(5)) +
                            "\nGA1 = " + shortest17(C(3)) + "\nGA2 = " + shortest17(C(4)) +
                            "\nGJ = " + shortest17(C(2)) + "\nEI1 = " + shortest17(C(0)) +
                            "\nEI2 = " + shortest17(C(1)) + "\nrhoA = " + shortest17(J(3)) +
                            "\nrhoJ1 = " + shortest17(J(0)) + "\nrhoJ2 = " + shortest17(J(1)) +
                            "\nrhoJ3 = " + shortest17(J(2)) + "\n";
  const fs::path stiffness = geometric.parent_path() / "stiffness.toml";
  std::string text = read_text(geometric);
  const auto from = text.find("section = \"square\"");
  const auto to = text.find("[grid]");
  ASSERT_NE(from, std::string::npos);
  text.replace(from, to - from, given + "\n");
  write_text(stiffness, text);

  const CommandResult a =
      run_field("simulate " + geometric.string() + " --out " + (tmp / "a").string());
  const CommandResult b =
      run_field("simulate " + stiffness.string() + " --out " + (tmp / "b").string());
  ASSERT_EQ(a.code, 0) << a.output;
  ASSERT_EQ(b.code, 0) << b.output;
  const std::string fa = read_text(tmp / "a" / "field.csv");
  ASSERT_GT(fa.size(), 1000u);
  EXPECT_TRUE(fa == read_text(tmp / "b" / "field.csv")) << "field.csv differs";
  EXPECT_EQ(read_text(tmp / "a" / "tip.csv"), read_text(tmp / "b" / "tip.csv"));
  // field check accepts the run of the given law (the equations hold, theory §10 ii).
  const CommandResult check = run_field("check " + (tmp / "b").string());
  EXPECT_EQ(check.code, 0) << check.output;
}

// A coupled law in BeamDyn's order (theory §1.5): the free flight runs on the general path and
// `field check` accepts it (the equations, the Noether balance and the momentum, theory §10).
TEST(CliSections, CoupledMatrixLawRunsAndPassesTheCheck) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "free_flight");
  // BeamDyn (F1, F2, F3, M1, M2, M3), axis 3 along the beam: the soft beam's values with an
  // extension-twist coupling K36 = 0.15 sqrt(EA GJ) and a mass-offset coupling M15 = 0.17 sqrt(m
  // rhoJ2).
  const std::string beam =
      "section = \"matrix\"\norder = \"beamdyn\"\n"
      "stiffness = [[370.37, 0, 0, 0, 0, 0], [0, 370.37, 0, 0, 0, 0], [0, 0, 1000, 0, 0, 3.8],"
      " [0, 0, 0, 0.8333, 0, 0], [0, 0, 0, 0, 0.8333, 0], [0, 3.8 , 0, 0, 0, 0.6173]]\n"
      "inertia = [[10, 0, 0, 0, 0.05, 0], [0, 10, 0, 0, 0, 0], [0, 0, 10, 0, 0, 0],"
      " [0, 0, 0, 0.008333, 0, 0], [0.05, 0, 0, 0, 0.008333, 0], [0, 0, 0, 0, 0, 0.016667]]\n";
  std::string text = read_text(file);
  const auto from = text.find("section = \"square\"");
  text.replace(from, text.find("[grid]") - from, beam + "\n");
  write_text(file, text);
  const CommandResult bad = run_field("info " + file.string());
  EXPECT_NE(bad.code, 0) << "K36 is not mirrored in K63: not symmetric";
  EXPECT_NE(bad.output.find("not symmetric"), std::string::npos) << bad.output;
  ASSERT_TRUE(edit(file, "[0, 3.8 , 0, 0, 0, 0.6173]", "[0, 0, 3.8, 0, 0, 0.6173]"));
  const CommandResult info = run_field("info " + file.string());
  EXPECT_EQ(info.code, 0) << info.output;
  EXPECT_NE(info.output.find("coupled: general path"), std::string::npos) << info.output;
  const CommandResult run =
      run_field("simulate " + file.string() + " --out " + (tmp / "c").string());
  ASSERT_EQ(run.code, 0) << run.output;
  const CommandResult check = run_field("check " + (tmp / "c").string());
  EXPECT_EQ(check.code, 0) << check.output;
}

}  // namespace
}  // namespace field::test
