// [beam] sections given as engineers give them (meshes/README.md, theory §1.3, §1.5): the six
// stiffnesses and four inertias, full 6x6 matrices in the libfield, BeamDyn and GXBeam orders,
// run.toml round trips, and bad input named by file, line and key.
#include <gtest/gtest.h>

#include <sstream>

#include "libfield/core/error.hpp"
#include "libfield/io/case_file.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

const std::string kGrid = "[grid]\nA = 4\nds = 0.25\ndt = 0.01\nJ = 10\n";

std::string with_beam(const std::string& beam) {
  return "format = 1\nmarch = \"time\"\n[beam]\n" + beam + kGrid;
}

// The 3D flying spaghetti of Simo & Vu-Quoc (1988).
const std::string kSpaghetti =
    "section = \"stiffness\"\nEA = 1e4\nGA1 = 1e4\nGA2 = 1e4\nGJ = 500\nEI1 = 500\nEI2 = 500\n"
    "rhoA = 1\nrhoJ1 = 10\nrhoJ2 = 10\nrhoJ3 = 10\n";

std::string matrix_text(const Mat6& m) {
  std::ostringstream out;
  out.precision(17);
  out << "[";
  for (int i = 0; i < 6; ++i) {
    out << (i ? ", [" : "[");
    for (int j = 0; j < 6; ++j) out << (j ? ", " : "") << m(i, j);
    out << "]";
  }
  out << "]";
  return out.str();
}

TEST(CaseSection, StiffnessSectionGivesTheFlyingSpaghetti) {
  test::TempFolder tmp;
  const CaseSpec c = load_case(tmp.write("case.toml", with_beam(kSpaghetti)));
  ASSERT_TRUE(c.law.has_value());
  const model::SectionLaw law = c.section_law();
  EXPECT_EQ(law.C.diagonal(), (Vec6() << 500, 500, 500, 1e4, 1e4, 1e4).finished());
  EXPECT_EQ(law.J.diagonal(), (Vec6() << 10, 10, 10, 1, 1, 1).finished());
  EXPECT_EQ(law.mass_per_length, 1.0);
  EXPECT_TRUE(law.diagonal());
  EXPECT_DOUBLE_EQ(c.wave_speeds().c_E, 100.0);
}

TEST(CaseSection, BeamDynOrderMatchesTheLibfieldOrder) {
  // One coupled law written twice: in our order, and permuted to BeamDyn's (F, M), axis 3.
  Mat6 C = Mat6::Identity() * 10.0, J = Mat6::Identity();
  C(2, 5) = C(5, 2) = 3.0;  // twist-extension
  C(0, 4) = C(4, 0) = -2.0;
  J(1, 3) = J(3, 1) = 0.25;
  const int p[6] = {3, 4, 5, 0, 1, 2};  // BeamDyn entry k is our p[k]
  Mat6 Cb, Jb;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) Cb(i, j) = C(p[i], p[j]), Jb(i, j) = J(p[i], p[j]);
  test::TempFolder tmp;
  const CaseSpec ours = load_case(
      tmp.write("ours.toml", with_beam("section = \"matrix\"\nstiffness = " + matrix_text(C) +
                                       "\ninertia = " + matrix_text(J) + "\n")));
  const CaseSpec theirs = load_case(tmp.write(
      "beamdyn.toml", with_beam("section = \"matrix\"\norder = \"beamdyn\"\nstiffness = " +
                                matrix_text(Cb) + "\ninertia = " + matrix_text(Jb) + "\n")));
  EXPECT_EQ(ours.law->C, C);
  EXPECT_EQ(ours.law->J, J);
  EXPECT_EQ(theirs.law->C, C);
  EXPECT_EQ(theirs.law->J, J);
  EXPECT_FALSE(theirs.law->diagonal());
}

TEST(CaseSection, GivenLawsRoundTripThroughRunToml) {
  Mat6 C = Mat6::Identity() * 10.0 / 3.0, J = Mat6::Identity() * 0.1;
  C(2, 5) = C(5, 2) = 1.0 / 7.0;
  test::TempFolder tmp;
  for (const std::string& beam :
       {kSpaghetti, "section = \"matrix\"\nstiffness = " + matrix_text(C) +
                        "\ninertia = " + matrix_text(J) + "\n"}) {
    const CaseSpec c = load_case(tmp.write("case.toml", with_beam(beam)));
    std::ostringstream out;
    write_case(out, c);
    const CaseSpec b = load_case(tmp.write("run.toml", out.str()));
    ASSERT_TRUE(b.law.has_value()) << out.str();
    EXPECT_EQ(b.law->C, c.law->C);
    EXPECT_EQ(b.law->J, c.law->J);
    EXPECT_EQ(b.law->mass_per_length, c.law->mass_per_length);
  }
}

struct Bad {
  const char* name;
  std::string beam;
  std::vector<std::string> words;  // the message must contain each
  friend void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }
};

class BadSection : public ::testing::TestWithParam<Bad> {};

TEST_P(BadSection, NamesFileLineAndKey) {
  test::TempFolder tmp;
  const auto file = tmp.write("bad.toml", with_beam(GetParam().beam));
  const std::string message = test::error_message([&] { load_case(file); });
  for (const auto& w : GetParam().words) EXPECT_TRUE(test::contains(message, w)) << message;
}

const std::string kIdentity = matrix_text(Mat6::Identity());

Mat6 indefinite() {
  Mat6 m = Mat6::Identity();
  m(0, 1) = m(1, 0) = 2.0;  // eigenvalues 3, -1
  return m;
}

INSTANTIATE_TEST_SUITE_P(
    Errors, BadSection,
    ::testing::Values(
        Bad{"mixed_keys", kSpaghetti + "E = 1e5\n", {"bad.toml:15:", "unknown key [beam] E", "EA"}},
        Bad{"missing",
            "section = \"stiffness\"\nEA = 1\n",
            {"bad.toml:", "missing key [beam] GA1"}},
        Bad{"negative", "section = \"stiffness\"\nEA = -1\n", {"bad.toml:5:", "[beam] EA = -1"}},
        Bad{"geometric_with_stiffness",
            "section = \"square\"\nside = 0.1\nE = 1e5\nnu = 0.3\nrho = 1\nEA = 1\n",
            {"bad.toml:9:", "unknown key [beam] EA"}},
        Bad{"not_spd",
            "section = \"matrix\"\nstiffness = " + matrix_text(indefinite()) +
                "\ninertia = " + kIdentity + "\n",
            {"bad.toml:5:", "[beam] stiffness", "not positive definite",
             "smallest eigenvalue is -1"}},
        Bad{"not_spd_inertia",
            "section = \"matrix\"\nstiffness = " + kIdentity +
                "\ninertia = " + matrix_text(indefinite()) + "\n",
            {"bad.toml:6:", "[beam] inertia", "inertia matrix is not positive definite"}},
        Bad{"not_symmetric",
            "section = \"matrix\"\nstiffness = [[1,0.5,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],"
            "[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]]\ninertia = " +
                kIdentity + "\n",
            {"bad.toml:5:", "[beam] stiffness", "not symmetric"}},
        Bad{"rows",
            "section = \"matrix\"\nstiffness = [[1,0,0,0,0,0]]\ninertia = " + kIdentity + "\n",
            {"bad.toml:5:", "[beam] stiffness", "6 rows of 6 numbers"}},
        Bad{"row_size",
            "section = \"matrix\"\nstiffness = [[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0],"
            "[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]]\ninertia = " +
                kIdentity + "\n",
            {"bad.toml:5:", "[beam] stiffness", "6 numbers", "row 3"}},
        Bad{"order",
            "section = \"matrix\"\norder = \"abaqus\"\n",
            {"bad.toml:5:", "[beam] order", "\"beamdyn\""}},
        Bad{"matrix_with_E",
            "section = \"matrix\"\nstiffness = " + kIdentity + "\ninertia = " + kIdentity +
                "\nE = 1\n",
            {"bad.toml:7:", "unknown key [beam] E"}}),
    [](const ::testing::TestParamInfo<Bad>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace field::io
