// The planar beam of theory §1.7 through the real program (`theory = "planar_beam"`,
// meshes/planar_cantilever): `field simulate` marches it on SE(2) and writes the SE(3) outputs of
// the beam embedded in the x-y plane (march::PlanarEmbedding); they equal those of the SE(3) case
// of the same beam in the plane (row 0 given as a file of the embedded poses) to round-off.
// `field reconstruct` rebuilds a planar beam from its tip by the space march on SE(2) (theory
// §6.2), equal to the SE(3) space march of the same beam to round-off. Keys the planar beam does
// not support are refused with file, line and key.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace field::test {
namespace {

namespace fs = std::filesystem;

// The SE(3) case of the planar case `planar` in the same folder: no `theory` key, row 0 read from
// row0.csv, the poses of row 0 of the planar run's field.csv (columns a, x..qz).
fs::path se3_twin(const fs::path& planar, const fs::path& planar_run) {
  const fs::path file = planar.parent_path() / "se3.toml";
  write_text(file, read_text(planar));
  EXPECT_TRUE(edit(file, "theory = \"planar_beam\"", ""));
  EXPECT_TRUE(
      edit(file, "configuration = \"straight\"", "configuration = \"file\"\nfile = \"row0.csv\""));
  EXPECT_TRUE(edit(file, "origin = [0.0, 0.0, 0.0]", ""));
  EXPECT_TRUE(edit(file, "axis = [1.0, 0.0, 0.0]", ""));
  EXPECT_TRUE(edit(file, "name = \"planar_cantilever\"", "name = \"se3\""));
  std::string rows = "a,x,y,z,qw,qx,qy,qz\n";
  const std::string text = read_text(planar_run / "field.csv");
  std::stringstream in(text);
  std::string line;
  std::getline(in, line);  // j,a,t,s,x,y,z,qw,qx,qy,qz
  while (std::getline(in, line) && line.rfind("0,", 0) == 0) {
    std::vector<std::string> cells;
    std::stringstream s(line);
    for (std::string cell; std::getline(s, cell, ',');) cells.push_back(cell);
    rows += cells[1];
    for (int k = 4; k < 11; ++k) rows += "," + cells[k];
    rows += "\n";
  }
  write_text(planar.parent_path() / "row0.csv", rows);
  return file;
}

TEST(CliPlanar, CantileverEqualsTheSe3BeamInThePlane) {
  TempFolder tmp;
  const fs::path planar = copy_case(tmp, "planar_cantilever");
  const fs::path out2 = tmp / "planar", out3 = tmp / "se3";
  const CommandResult r2 = run_field("simulate " + planar.string() + " --out " + out2.string());
  ASSERT_EQ(r2.code, 0) << r2.output;
  EXPECT_NE(r2.output.find("planar beam on SE(2)"), std::string::npos) << r2.output;
  for (const char* f : {"field.csv", "time_series.csv", "tip.csv", "beam.pvd", "spacetime.vtu",
                        "summary.json", "run.toml"})
    EXPECT_TRUE(fs::exists(out2 / f)) << f;
  EXPECT_EQ(summary_value(out2, "status"), "\"completed\"");
  EXPECT_EQ(summary_value(out2, "theory"), "\"planar_beam\"");

  const fs::path se3 = se3_twin(planar, out2);
  const CommandResult r3 = run_field("simulate " + se3.string() + " --out " + out3.string());
  ASSERT_EQ(r3.code, 0) << r3.output;
  EXPECT_EQ(summary_value(out3, "theory"), "\"beam\"");

  // field.csv: the same rows, nodes and poses (x, y, z, qw..qz) to round-off.
  const auto f2 = csv_numbers(out2 / "field.csv"), f3 = csv_numbers(out3 / "field.csv");
  ASSERT_EQ(f2.size(), f3.size());
  ASSERT_EQ(f2.size(), 101u * 11u);  // rows 0, 10, .., 1000 (stride 10) of nodes 0..10
  double pose = 0.0, moved = 0.0;
  for (size_t k = 0; k < f2.size(); ++k) {
    ASSERT_EQ(f2[k].size(), 11u);
    EXPECT_EQ(f2[k][0], f3[k][0]);
    EXPECT_EQ(f2[k][1], f3[k][1]);
    for (int c = 4; c < 11; ++c) pose = std::max(pose, std::abs(f2[k][c] - f3[k][c]));
    EXPECT_EQ(f2[k][6], 0.0);  // in the plane z = 0
    moved = std::max(moved, std::abs(f2[k][5]));
  }
  EXPECT_LT(pose, 1e-12);
  EXPECT_GT(moved, 1e-2);  // the tip fell

  // time_series.csv: the same energy, momentum map, work, balance and clamp reaction, to 1e-9 of
  // each column's largest value or of 1 (SI units): the reaction is a difference of stresses,
  // EA/ds ~ 1e6 times the poses' round-off (8e-11 of it here); E_j ~ 3e-5 J is the sum of the
  // kinetic, strain and gravity energies of ~1 J (they differ by 2e-12 J). E_balance is finite.
  const auto s2 = csv_numbers(out2 / "time_series.csv"), s3 = csv_numbers(out3 / "time_series.csv");
  ASSERT_EQ(s2.size(), s3.size());
  ASSERT_EQ(s2.size(), 1000u);
  for (int c : {2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15, 16, 17, 18, 19}) {
    SCOPED_TRACE(c);
    double scale = 0.0, diff = 0.0;
    for (size_t k = 0; k < s2.size(); ++k) {
      ASSERT_EQ(s2[k].size(), 20u);  // ..., W, E_balance, R0_ang1..R0_lin3
      ASSERT_EQ(s3[k].size(), 20u);
      EXPECT_TRUE(std::isfinite(s2[k][c]));
      scale = std::max(scale, std::abs(s3[k][c]));
      diff = std::max(diff, std::abs(s2[k][c] - s3[k][c]));
    }
    EXPECT_LE(diff, 1e-9 * std::max(scale, 1.0));
  }

  // run.toml is a planar case again.
  const CommandResult again =
      run_field("simulate " + (out2 / "run.toml").string() + " --out " + (tmp / "again").string());
  ASSERT_EQ(again.code, 0) << again.output;
  EXPECT_EQ(read_text(tmp / "again" / "field.csv"), read_text(out2 / "field.csv"));
}

// An initial velocity in the plane, uniform or from a file, with either start (theory §6.1): the
// planar march equals the SE(3) beam given the same body velocity (Omega2 turns the beam about
// the normal, V1 and V3 move it in the plane; march/planar_embedding.hpp) to round-off.
TEST(CliPlanar, AnInitialVelocityEqualsTheSe3BeamInThePlane) {
  for (const char* start : {"second_order", "first_order"}) {
    for (const bool from_file : {false, true}) {
      SCOPED_TRACE(std::string(start) + (from_file ? ", file" : ", uniform"));
      TempFolder tmp;
      const fs::path planar = copy_case(tmp, "planar_cantilever");
      ASSERT_TRUE(edit(planar, "right = \"free\"", "right = \"free\"\nleft = \"free\""));
      ASSERT_TRUE(edit(planar, "left = \"clamped\"\n", ""));
      std::string velocity = "velocity = \"uniform\"\nxi = [0.0, 2.0, 0.0, 0.3, 0.0, -0.5]";
      if (from_file) {
        std::string rows = "a,w1,w2,w3,v1,v2,v3\n";
        for (int a = 0; a <= 10; ++a)
          rows += std::to_string(a) + ",0," + std::to_string(0.2 * a) + ",0,0.1,0," +
                  std::to_string(-0.05 * a) + "\n";
        write_text(planar.parent_path() / "v.csv", rows);
        velocity = "velocity = \"file\"\nvelocity_file = \"v.csv\"";
      }
      ASSERT_TRUE(edit(planar, "velocity = \"zero\"", velocity));
      ASSERT_TRUE(edit(planar, "stride = 10", "stride = 1"));  // field check reads every row
      ASSERT_TRUE(edit(planar, "J = 1000", "J = 200"));
      ASSERT_TRUE(
          edit(planar, "start = \"second_order\"", std::string("start = \"") + start + "\""));
      const fs::path out2 = tmp / "planar", out3 = tmp / "se3";
      const CommandResult r2 = run_field("simulate " + planar.string() + " --out " + out2.string());
      ASSERT_EQ(r2.code, 0) << r2.output;
      const fs::path se3 = se3_twin(planar, out2);
      const CommandResult r3 = run_field("simulate " + se3.string() + " --out " + out3.string());
      ASSERT_EQ(r3.code, 0) << r3.output;
      const auto f2 = csv_numbers(out2 / "field.csv"), f3 = csv_numbers(out3 / "field.csv");
      ASSERT_EQ(f2.size(), f3.size());
      double pose = 0.0, turned = 0.0;
      for (size_t k = 0; k < f2.size(); ++k) {
        for (int c = 4; c < 11; ++c) pose = std::max(pose, std::abs(f2[k][c] - f3[k][c]));
        EXPECT_EQ(f2[k][6], 0.0);                        // in the plane z = 0
        turned = std::max(turned, std::abs(f2[k][10]));  // qz: a turn about the normal
      }
      // The SE(2) and SE(3) arithmetic round differently, by ~1e-14 a row (200 rows).
      EXPECT_LT(pose, 1e-11);
      EXPECT_GT(turned, 0.05);  // about 0.2 rad in 0.1 s
      const CommandResult check = run_field("check " + out2.string());
      EXPECT_EQ(check.code, 0) << check.output;
    }
  }
  // A file's velocity out of the plane is refused with the file and the node.
  TempFolder tmp;
  const fs::path planar = copy_case(tmp, "planar_cantilever");
  write_text(planar.parent_path() / "v.csv",
             "a,w1,w2,w3,v1,v2,v3\n0,0,0,0,0,0,0\n1,0,0,0,0,0.5,0\n2,0,0,0,0,0,0\n"
             "3,0,0,0,0,0,0\n4,0,0,0,0,0,0\n5,0,0,0,0,0,0\n6,0,0,0,0,0,0\n"
             "7,0,0,0,0,0,0\n8,0,0,0,0,0,0\n9,0,0,0,0,0,0\n10,0,0,0,0,0,0\n");
  ASSERT_TRUE(
      edit(planar, "velocity = \"zero\"", "velocity = \"file\"\nvelocity_file = \"v.csv\""));
  const CommandResult r =
      run_field("simulate " + planar.string() + " --out " + (tmp / "o").string());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find("v.csv: node a = 1: the velocity (Omega1, Omega3, V2) = (0, 0, 0.5) is "
                          "not in the x-y plane"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(tmp / "o"));
}

// `field check` checks a planar run as written (the SE(3) beam in the plane, whose DCEL equations
// and Noether balance the planar field satisfies to round-off); `field info` prints the planar
// law; `field static` refuses the case.
TEST(CliPlanar, CheckInfoAndStatic) {
  TempFolder tmp;
  const fs::path file = copy_case(tmp, "planar_cantilever");
  ASSERT_TRUE(edit(file, "J = 1000", "J = 200"));
  ASSERT_TRUE(edit(file, "stride = 10", "stride = 1"));  // field check needs every row
  const fs::path out = tmp / "run";
  ASSERT_EQ(run_field("simulate " + file.string() + " --out " + out.string()).code, 0);
  const CommandResult check = run_field("check " + out.string());
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("planar beam (theory §1.7): checked as written"), std::string::npos)
      << check.output;
  EXPECT_NE(check.output.find("check passed"), std::string::npos) << check.output;
  const CommandResult info = run_field("info " + file.string());
  EXPECT_EQ(info.code, 0) << info.output;
  EXPECT_NE(info.output.find("theory: planar beam on SE(2) in the x-y plane (theory §1.7), from "
                             "the section below: EI = 83.3333 N m^2, EA = 100000 N, GA = 37037 N, "
                             "rho A = 10 kg/m, rho I = 0.00833333 kg m"),
            std::string::npos)
      << info.output;
  const CommandResult statics = run_field("static " + file.string());
  EXPECT_EQ(statics.code, 4) << statics.output;
  EXPECT_NE(statics.output.find("the static solver (theory §4.5) takes SE(3) beams only"),
            std::string::npos)
      << statics.output;
}

// What the planar beam does not support yet is refused before anything is written, with the
// file, the line and the key.
TEST(CliPlanar, RefusesWhatThePlanarBeamDoesNotSupport) {
  struct Case {
    std::string from, to, says;
  };
  const std::vector<Case> cases = {
      {"gravity = [0.0, -9.81, 0.0]", "gravity = [0.0, -9.81, 1.0]", "[loads] gravity"},
      {"axis = [1.0, 0.0, 0.0]", "axis = [1.0, 0.0, 0.5]", "[initial] axis"},
      {"origin = [0.0, 0.0, 0.0]", "origin = [0.0, 0.0, 2.0]", "[initial] origin"},
      {"velocity = \"zero\"", "velocity = \"uniform\"\nxi = [0.5, 0, 0, 0, 0, 1]", "[initial] xi"},
      {"march = \"time\"", "march = \"time\"\nretraction = \"exp\"", "retraction"},
      {"right = \"free\"", "right = { prescribed = \"m.csv\" }", "[boundary] right"},
      {"[output]", "[damping]\nmass = 0.1\n\n[output]", "damping"},
      {"[output]", "[shape]\ncurvature = [0.0, 1.0, 0.0]\n\n[output]", "shape"},
  };
  for (const Case& c : cases) expect_refused("planar_cantilever", c.from, c.to, c.says);
}

// A planar space-march case (theory §6.2) rebuilding the planar cantilever from `tip`: clamped
// at a = 0, so the tip is at rest and its strain carries the motion; A = 4 columns of ds = 0.1 m.
fs::path planar_space_case(const fs::path& folder, const fs::path& tip) {
  const fs::path file = folder / "reconstruct.toml";
  write_text(file,
             "format = 1\nname = \"planar_reconstruct\"\nmarch = \"space\"\n"
             "theory = \"planar_beam\"\n\n[beam]\nsection = \"square\"\nside = 0.1\n"
             "E = 1.0e7\nnu = 0.35\nrho = 1000.0\n\n[grid]\nA = 4\nds = 0.1\ndt = 5.0e-4\n"
             "J = 100\n\n[tip]\nfile = \"" +
                 tip.string() + "\"\n\n[loads]\ngravity = [0.0, -9.81, 0.0]\n");
  return file;
}

// `field reconstruct` of a planar case: the space march on SE(2) from the tip.csv of a planar
// `field simulate` equals the SE(3) space march of the same case without `theory` to round-off
// (observed 3e-14 in the poses), and both equal the simulation on the rows that the end rows'
// conditions have not reached: the space march's rows j = 0 and J are at zero momentum, the
// simulation's row J moves (and its row 0 is the second-order start's), and what differs there
// travels one row per column (theory §6.2), so column a agrees on rows a <= j <= J - a (observed
// 4e-14 at a = 4, round-off grown by the space march outside its stable range).
TEST(CliPlanar, ReconstructEqualsTheSe3SpaceMarchAndTheSimulation) {
  TempFolder tmp;
  const fs::path sim = copy_case(tmp, "planar_cantilever");
  ASSERT_TRUE(edit(sim, "L = 1.0", "ds = 0.1"));
  ASSERT_TRUE(edit(sim, "A = 10", "A = 4"));
  ASSERT_TRUE(edit(sim, "J = 1000", "J = 100"));
  ASSERT_TRUE(edit(sim, "stride = 10", "stride = 1"));
  const fs::path simulated = tmp / "sim", out2 = tmp / "planar", out3 = tmp / "se3";
  ASSERT_EQ(run_field("simulate " + sim.string() + " -q --out " + simulated.string()).code, 0);
  const fs::path planar = planar_space_case(tmp.path(), simulated / "tip.csv");
  const CommandResult r2 = run_field("reconstruct " + planar.string() + " --out " + out2.string());
  ASSERT_EQ(r2.code, 0) << r2.output;
  EXPECT_NE(r2.output.find("planar_reconstruct: space march (planar beam on SE(2), cayley)"),
            std::string::npos)
      << r2.output;
  for (const char* f :
       {"field.csv", "space_series.csv", "beam.pvd", "spacetime.vtu", "summary.json", "run.toml"})
    EXPECT_TRUE(fs::exists(out2 / f)) << f;
  EXPECT_EQ(summary_value(out2, "status"), "\"completed\"");
  const CommandResult check = run_field("check " + out2.string());  // its run.toml is planar
  EXPECT_EQ(check.code, 0) << check.output;
  const fs::path se3 = tmp.path() / "se3.toml";
  write_text(se3, read_text(planar));
  ASSERT_TRUE(edit(se3, "theory = \"planar_beam\"", ""));
  const CommandResult r3 = run_field("reconstruct " + se3.string() + " --out " + out3.string());
  ASSERT_EQ(r3.code, 0) << r3.output;
  EXPECT_EQ(summary_value(out2, "theory"), "\"planar_beam\"");
  EXPECT_EQ(summary_value(out3, "theory"), "\"beam\"");
  EXPECT_NE(r3.output.find("space march (cayley)"), std::string::npos) << r3.output;

  const auto f2 = csv_numbers(out2 / "field.csv"), f3 = csv_numbers(out3 / "field.csv");
  const auto simulation = csv_numbers(simulated / "field.csv");
  ASSERT_EQ(f2.size(), 101u * 5u);  // rows 0..100 of nodes 0..4, by columns
  ASSERT_EQ(f3.size(), f2.size());
  ASSERT_EQ(simulation.size(), f2.size());
  double twin = 0.0, inner = 0.0, edge = 0.0, moved = 0.0;
  for (size_t k = 0; k < f2.size(); ++k) {
    ASSERT_EQ(f2[k].size(), 11u);
    ASSERT_EQ(f3[k].size(), 11u);
    EXPECT_EQ(f2[k][0], f3[k][0]);
    EXPECT_EQ(f2[k][1], f3[k][1]);
    EXPECT_EQ(f2[k][6], 0.0);  // in the plane z = 0
    for (int c = 4; c < 11; ++c) twin = std::max(twin, std::abs(f2[k][c] - f3[k][c]));
    // The simulation's field.csv is by rows (j, a), the reconstruction's by columns (a, j).
    const int a = int(f2[k][1]), j = int(f2[k][0]);
    const std::vector<double>& s = simulation[size_t(j) * 5 + size_t(a)];
    ASSERT_EQ(s[0], j);
    ASSERT_EQ(s[1], a);
    double d = 0.0;
    for (int c = 4; c < 11; ++c) d = std::max(d, std::abs(f2[k][c] - s[c]));
    double& worst = a <= j && j <= 100 - a ? inner : edge;
    worst = std::max(worst, d);
    moved = std::max(moved, std::abs(f2[k][5]));
  }
  EXPECT_LT(twin, 1e-12);
  EXPECT_LT(inner, 1e-12);
  EXPECT_GT(edge, 1e-5);   // the end rows' conditions differ (see above)
  EXPECT_GT(moved, 5e-3);  // the far end fell
}

// A tip file out of the plane is refused before anything is written, naming the file, the row
// and the value; so are prescribed rows and a reconstruction method other than the space march,
// naming the key.
TEST(CliPlanar, ReconstructRefusesATipOutOfThePlaneAndOtherMethods) {
  TempFolder tmp;
  const std::string rest = "0,0,0,0.5,0.5,0.5,0.5,0,0,0,0,0,1\n";
  std::string tip = "t,x,y,z,qw,qx,qy,qz,Omega1,Omega2,Omega3,Gamma1,Gamma2,Gamma3\n";
  for (int j = 0; j <= 100; ++j)
    tip += std::to_string(j * 5e-4) + "," +
           (j == 7 ? std::string("0,0,0.001,0.5,0.5,0.5,0.5,0,0,0,0,0,1\n") : rest);
  write_text(tmp / "tip.csv", tip);
  const fs::path file = planar_space_case(tmp.path(), tmp / "tip.csv");
  const fs::path out = tmp / "run";
  const CommandResult r = run_field("reconstruct " + file.string() + " --out " + out.string());
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find((tmp / "tip.csv").string() +
                          ": the tip at row j = 7 of the grid (t = 0.0035 s) is not in the x-y "
                          "plane: z/L = 0.0025"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(out));

  const std::string text = read_text(file);
  write_text(file, text + "\n[boundary]\nfirst = { prescribed = \"tip.csv\" }\n");
  const CommandResult p = run_field("reconstruct " + file.string() + " --out " + out.string());
  EXPECT_EQ(p.code, 4) << p.output;
  EXPECT_NE(p.output.find("[boundary] first"), std::string::npos) << p.output;
  EXPECT_NE(p.output.find("a prescribed row is not supported for theory = \"planar_beam\""),
            std::string::npos)
      << p.output;
  EXPECT_FALSE(fs::exists(out));

  write_text(file, text + "\n[reconstruct]\nmethod = \"driven\"\n");
  const CommandResult d = run_field("reconstruct " + file.string() + " --out " + out.string());
  EXPECT_EQ(d.code, 4) << d.output;
  EXPECT_NE(d.output.find(file.string() + ":"), std::string::npos) << d.output;
  EXPECT_NE(d.output.find("[reconstruct] method = \"driven\": a method other than \"space\" is "
                          "not supported for theory = \"planar_beam\""),
            std::string::npos)
      << d.output;
  EXPECT_NE(d.output.find("or run the same case with theory = \"beam\", which has the driven and "
                          "estimate methods"),
            std::string::npos)
      << d.output;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace field::test
