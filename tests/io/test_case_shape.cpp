// Stress-free shapes and properties along s in case files (theory §1.6, meshes/README.md):
// [shape] curvature / strain / file, [beam] section = "table" by segment or interpolated in s,
// [initial] configuration = "stress_free", the collapse of per-segment data that is the same
// everywhere to the uniform model, run.toml round trips, and bad input named by file, line, key.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "libfield/core/error.hpp"
#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

const std::string kHead =
    "format = 1\nmarch = \"time\"\n[beam]\nsection = \"square\"\nside = 0.1\nE = 1e5\nnu = 0.35\n"
    "rho = 1000\n";  // 8 lines
const std::string kGrid = "[grid]\nA = 4\nds = 0.25\ndt = 0.001\nJ = 10\n";

const std::string kStraightRows =
    "a,k1,k2,k3,g1,g2,g3\n0,0,0,0,0,0,1\n1,0,0,0,0,0,1\n2,0,0,0,0,0,1\n3,0,0,0,0,0,1\n";
const std::string kKinkedRows =
    "a,k1,k2,k3,g1,g2,g3\n0,0,0,0,0,0,1\n1,6.25,0,0,0,0,1\n2,0,0,0.5,0,0,1.1\n3,0,0,0,0,0,1\n";

Vec6 six(double a, double b, double c, double d, double e, double f) {
  return (Vec6() << a, b, c, d, e, f).finished();
}

TEST(CaseShape, UniformCurvatureIsOneDensity) {
  test::TempFolder tmp;
  const auto file = tmp.write("case.toml", kHead + "[shape]\ncurvature = [0, 2, 0.5]\n" + kGrid);
  const Problem p(load_case(file));
  EXPECT_TRUE(p.segment_data.uniform());
  EXPECT_TRUE(p.segments.empty());
  EXPECT_EQ(p.density.reference_strain(), six(0, 2, 0.5, 0, 0, 1));
  // run.toml writes it as the full strain, which loads back to the same eta0.
  std::ostringstream out;
  write_case(out, p.spec);
  EXPECT_TRUE(test::contains(out.str(), "[shape]\nstrain = [0.0, 2.0, 0.5, 0.0, 0.0, 1.0]"))
      << out.str();
  const CaseSpec back = load_case(tmp.write("run.toml", out.str()));
  EXPECT_EQ(back.shape.strain, p.density.reference_strain());
}

TEST(CaseShape, StraightPerSegmentFileCollapsesToTheUniformModel) {
  // The same eta0 on every row: the uniform model of today (E6), whose lane kernels give the
  // bits of a case without [shape] (scripts/output_md5.sh).
  test::TempFolder tmp;
  tmp.write("shape.csv", kStraightRows);
  const Problem p(
      load_case(tmp.write("case.toml", kHead + "[shape]\nfile = \"shape.csv\"\n" + kGrid)));
  EXPECT_TRUE(p.segment_data.uniform());
  EXPECT_TRUE(p.segments.empty());
  EXPECT_EQ(p.density.reference_strain(), model::BeamDensity::E6());
}

TEST(CaseShape, ReconstructionCaseTakesATableAndAShapeFile) {
  // A space march solves column a with segment a's law (theory §6.2): march = "space" takes the
  // per-segment data of a time march, and run.toml writes them back.
  test::TempFolder tmp;
  tmp.write("shape.csv", kKinkedRows);
  tmp.write("props.csv",
            "a,EA,GA1,GA2,GJ,EI1,EI2,rhoA,rhoJ1,rhoJ2,rhoJ3\n0,4,3,3,2,1,1,1,1,1,2\n"
            "1,4,3,3,2,1,1,1,1,1,2\n2,2,1.5,1.5,1,0.5,0.5,0.5,0.5,0.5,1\n3,4,3,3,2,1,1,1,1,1,2\n");
  const auto file = tmp.write("case.toml",
                              "format = 1\nmarch = \"space\"\n[beam]\nsection = \"table\"\nfile = "
                              "\"props.csv\"\n[shape]\nfile = \"shape.csv\"\n" +
                                  kGrid + "[tip]\nfile = \"tip.csv\"\n");
  const Problem p(load_case(file));
  ASSERT_EQ(p.segments.size(), 4u);
  EXPECT_EQ(p.segments[1]->reference_strain(), six(6.25, 0, 0, 0, 0, 1));
  EXPECT_EQ(p.segment_densities[2].stiffness()(5), 2.0);  // EA of segment 2
  EXPECT_EQ(p.segment_densities[3].stiffness()(5), 4.0);
  std::ostringstream out;
  write_case(out, p.spec);
  EXPECT_TRUE(test::contains(out.str(), "section = \"table\"")) << out.str();
  EXPECT_TRUE(test::contains(out.str(), "[shape]\nfile = ")) << out.str();
}

TEST(CaseShape, KinkedFileGivesOneDensityPerSegmentAndAStressFreeStart) {
  test::TempFolder tmp;
  tmp.write("shape.csv", kKinkedRows);
  const auto file =
      tmp.write("case.toml",
                kHead + "[shape]\nfile = \"shape.csv\"\n" + kGrid +
                    "[boundary]\nleft = \"clamped\"\n[initial]\nconfiguration = \"stress_free\"\n");
  const Problem p(load_case(file));
  ASSERT_EQ(p.segments.size(), 4u);
  EXPECT_EQ(p.segments[1]->reference_strain(), six(6.25, 0, 0, 0, 0, 1));
  EXPECT_EQ(p.segments[2]->reference_strain(), six(0, 0, 0.5, 0, 0, 1.1));
  EXPECT_EQ(p.segments[3]->reference_strain(), model::BeamDensity::E6());
  // Row 0 is the stress-free shape: every segment strain at its eta0, zero strain energy.
  const auto in = time_march_input<lie::Se3Cayley>(p);
  const auto model = p.model<lie::Se3Cayley>();
  for (int a = 0; a < 4; ++a) {
    const Vec6 eta = lie::Se3Cayley::tau_inv(in.row0[a].inverse() * in.row0[a + 1]) / 0.25;
    EXPECT_LT((eta - model.density(a).reference_strain()).cwiseAbs().maxCoeff(), 1e-14) << a;
  }
  std::ostringstream out;
  write_case(out, p.spec);
  const CaseSpec back = load_case(tmp.write("run.toml", out.str()));
  EXPECT_EQ(back.shape.file, p.spec.shape.file);
  EXPECT_EQ(back.initial.configuration, InitialSpec::Configuration::stress_free);
}

TEST(CaseShape, SectionTableInterpolatesAtSegmentMidpoints) {
  // Free left end: s_a = (a + 1/2) ds, midpoints (a + 1) ds = 0.25, 0.5, 0.75, 1 (theory §3.4);
  // EA and rhoA fall linearly from 2 at s = 0 to 1 at s = 1, the rest constant.
  test::TempFolder tmp;
  tmp.write("props.csv",
            "s,EA,GA1,GA2,GJ,EI1,EI2,rhoA,rhoJ1,rhoJ2,rhoJ3\n"
            "0,2,1,1,1,1,1,2,1,1,1\n0.5,1.5,1,1,1,1,1,1.5,1,1,1\n1,1,1,1,1,1,1,1,1,1,1\n");
  const std::string beam =
      "format = 1\nmarch = \"time\"\n[beam]\nsection = \"table\"\nfile = \"props.csv\"\n";
  const Problem p(load_case(tmp.write("case.toml", beam + kGrid)));
  ASSERT_EQ(p.segments.size(), 4u);
  const auto model = p.model<lie::Se3Cayley>();
  for (int a = 0; a < 4; ++a) {
    const double s = (a + 1) * 0.25;
    const auto& d = dynamic_cast<const model::BeamDensity&>(model.density(a));
    EXPECT_DOUBLE_EQ(d.stiffness()(5), 2.0 - s) << a;
    EXPECT_DOUBLE_EQ(d.inertia()(3), 2.0 - s) << a;
    EXPECT_EQ(d.stiffness()(0), 1.0);
  }
  // The wave speeds of the step-size rules are the extremes over the segments: c_E from the
  // stiffest-per-mass segment.
  EXPECT_DOUBLE_EQ(p.density.wave_speeds().c_E, 1.0);
  std::ostringstream out;
  write_case(out, p.spec);
  EXPECT_TRUE(test::contains(out.str(), "section = \"table\"")) << out.str();
}

TEST(CaseShape, SectionTableBySegment) {
  test::TempFolder tmp;
  tmp.write("props.csv",
            "a,EA,GA1,GA2,GJ,EI1,EI2,rhoA,rhoJ1,rhoJ2,rhoJ3\n3,4,1,1,1,1,1,1,1,1,1\n"
            "0,1,1,1,1,1,1,1,1,1,1\n1,2,1,1,1,1,1,1,1,1,1\n2,3,1,1,1,1,1,1,1,1,1\n");
  const std::string beam =
      "format = 1\nmarch = \"time\"\n[beam]\nsection = \"table\"\nfile = \"props.csv\"\n";
  const Problem p(load_case(tmp.write("case.toml", beam + kGrid)));
  ASSERT_EQ(p.segments.size(), 4u);
  const auto model = p.model<lie::Se3Exp>();
  for (int a = 0; a < 4; ++a)
    EXPECT_EQ(dynamic_cast<const model::BeamDensity&>(model.density(a)).stiffness()(5), a + 1.0);
}

struct Bad {
  const char* name;
  std::string text;                                        // the case file after kHead
  std::vector<std::pair<std::string, std::string>> files;  // data files
  std::vector<std::string> words;                          // the message must contain each
  friend void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }
};

class BadShape : public ::testing::TestWithParam<Bad> {};

TEST_P(BadShape, NamesFileLineAndKey) {
  test::TempFolder tmp;
  for (const auto& [name, text] : GetParam().files) tmp.write(name, text);
  const auto file = tmp.write("bad.toml", GetParam().text);
  const std::string message = test::error_message([&] { Problem p(load_case(file)); });
  for (const auto& w : GetParam().words) EXPECT_TRUE(test::contains(message, w)) << message;
}

const std::string kTable =
    "format = 1\nmarch = \"time\"\n[beam]\nsection = \"table\"\n"
    "file = \"props.csv\"\n";  // file on line 5
const std::string kProps = "s,EA,GA1,GA2,GJ,EI1,EI2,rhoA,rhoJ1,rhoJ2,rhoJ3\n";

INSTANTIATE_TEST_SUITE_P(
    Errors, BadShape,
    ::testing::Values(
        Bad{"two_shapes",
            kHead + "[shape]\ncurvature = [1, 0, 0]\nstrain = [0, 0, 0, 0, 0, 1]\n" + kGrid,
            {},
            {"bad.toml:11:", "[shape] strain",
             "exactly one of curvature, strain, file and polyline"}},
        Bad{"short_curvature",
            kHead + "[shape]\ncurvature = [1, 0]\n" + kGrid,
            {},
            {"bad.toml:10:", "[shape] curvature"}},
        Bad{"unknown_key",
            kHead + "[shape]\ncurvature = [1, 0, 0]\ntwist = 1\n" + kGrid,
            {},
            {"bad.toml:11:", "unknown key [shape] twist"}},
        Bad{"missing_segment",
            kHead + "[shape]\nfile = \"shape.csv\"\n" + kGrid,
            {{"shape.csv", "a,k1,k2,k3,g1,g2,g3\n0,0,0,0,0,0,1\n1,0,0,0,0,0,1\n2,0,0,0,0,0,1\n"}},
            {"shape.csv", "segment a = 3 is missing", "4 segments", "bad.toml:10: [shape] file)"}},
        Bad{"segment_out_of_range",
            kHead + "[shape]\nfile = \"shape.csv\"\n" + kGrid,
            {{"shape.csv", kStraightRows + "4,0,0,0,0,0,1\n"}},
            {"shape.csv:6:", "column 'a': segment 4 is out of range"}},
        Bad{"shape_column",
            kHead + "[shape]\nfile = \"shape.csv\"\n" + kGrid,
            {{"shape.csv", "a,k1,k2,k3,g1,g2\n0,0,0,0,0,0\n"}},
            {"shape.csv", "g3"}},
        Bad{"table_not_increasing",
            kTable + kGrid,
            {{"props.csv", kProps + "0,1,1,1,1,1,1,1,1,1,1\n0.6,1,1,1,1,1,1,1,1,1,1\n"
                                    "0.5,1,1,1,1,1,1,1,1,1,1\n"}},
            {"props.csv:4:", "column 's'", "does not increase", "bad.toml:5: [beam] file)"}},
        Bad{"table_short",
            kTable + kGrid,
            {{"props.csv", kProps + "0,1,1,1,1,1,1,1,1,1,1\n0.9,1,1,1,1,1,1,1,1,1,1\n"}},
            {"props.csv", "segment a = 3", "outside the table's s = 0 .. 0.9"}},
        Bad{"table_negative",
            kTable + kGrid,
            {{"props.csv", kProps + "0,1,1,1,1,1,1,1,1,1,1\n1,1,1,1,-2,1,1,1,1,1,1\n"}},
            {"props.csv:3:", "column 'GJ': -2 must be positive"}},
        Bad{"table_s_and_a",
            kTable + kGrid,
            {{"props.csv", "a," + kProps + "0,0,1,1,1,1,1,1,1,1,1,1\n"}},
            {"props.csv", "exactly one of the columns 's'"}},
        Bad{"table_with_E",
            kTable + "E = 1\n" + kGrid,
            {},
            {"bad.toml:6:", "unknown key [beam] E"}}),
    [](const ::testing::TestParamInfo<Bad>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace field::io
