// Coupled (full symmetric positive-definite 6x6) section laws that vary along s (theory §1.5,
// §1.6; [beam] section = "table" with the columns K11..K66, M11..M66, meshes/README.md): a
// matrix table with zero coupling gives the laws of the engineering table bit for bit, by
// segment and interpolated in s; a tapered coupled table gives the interpolated matrices at the
// segment midpoints; the coupled beam marches on the general per-node path and keeps the
// momentum of a free beam; a matrix that is not positive definite is named by file and line.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <sstream>

#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/io/section_table.hpp"
#include "libfield/noether/balance.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

const std::string kGrid = "[grid]\nA = 4\nds = 0.25\ndt = 0.001\nJ = 10\n";
const std::string kTable =
    "format = 1\nmarch = \"time\"\n[beam]\nsection = \"table\"\nfile = \"props.csv\"\n";

// A law's matrices as a row of the coupled form (upper triangles, libfield order).
std::string matrix_row(const Mat6& C, const Mat6& J) {
  std::ostringstream out;
  out.precision(17);
  const char* sep = "";
  for (const Mat6* M : {&C, &J})
    for (int i = 0; i < 6; ++i)
      for (int j = i; j < 6; ++j) {
        out << sep << (*M)(i, j);
        sep = ",";
      }
  return out.str();
}

std::string matrix_header(const std::string& key) {
  std::string h = key;
  for (const std::string& c : section_matrix_columns()) h += "," + c;
  return h + "\n";
}

// Engineering constants EA, GA1, GA2, GJ, EI1, EI2, rhoA, rhoJ1, rhoJ2, rhoJ3 of a taper.
std::array<double, 10> constants(double f) {
  return {2.0 * f, 1.5 * f, 1.2 * f, 0.8 * f, 0.6 * f, 0.7 * f, 1.1 * f, 0.3 * f, 0.4 * f, 0.5 * f};
}

TEST(CaseCoupledTable, UncoupledMatricesGiveTheEngineeringLawsBitForBit) {
  for (const std::string key : {"a", "s"}) {
    std::ostringstream eng, mat;
    eng.precision(17);
    eng << key << ",EA,GA1,GA2,GJ,EI1,EI2,rhoA,rhoJ1,rhoJ2,rhoJ3\n";
    mat << matrix_header(key);
    // By segment: a = 0..3; in s: rows at s = 0, 0.5, 1 (midpoints 0.25 .. 1 interpolated).
    const std::vector<double> keys =
        key == "a" ? std::vector<double>{0, 1, 2, 3} : std::vector<double>{0.0, 0.5, 1.0};
    for (std::size_t r = 0; r < keys.size(); ++r) {
      const auto k = constants(1.0 + 0.3 * r);
      eng << keys[r];
      for (double v : k) eng << "," << v;
      eng << "\n";
      const model::SectionLaw law = model::SectionLaw::stiffnesses(k[0], k[1], k[2], k[3], k[4],
                                                                   k[5], k[6], k[7], k[8], k[9]);
      mat << keys[r] << "," << matrix_row(law.C, law.J) << "\n";
    }
    test::TempFolder tmp;
    tmp.write("props.csv", eng.str());
    const Problem by_constants(load_case(tmp.write("case.toml", kTable + kGrid)));
    tmp.write("props.csv", mat.str());
    const Problem by_matrices(load_case(tmp.write("case.toml", kTable + kGrid)));
    ASSERT_EQ(by_constants.segment_data.laws.size(), 4u) << key;
    ASSERT_EQ(by_matrices.segment_data.laws.size(), 4u) << key;
    for (int a = 0; a < 4; ++a) {
      const model::SectionLaw& x = by_constants.segment_data.laws[a];
      const model::SectionLaw& y = by_matrices.segment_data.laws[a];
      EXPECT_EQ(x.C, y.C) << key << a;
      EXPECT_EQ(x.J, y.J) << key << a;
      EXPECT_EQ(x.mass_per_length, y.mass_per_length) << key << a;
      EXPECT_TRUE(y.diagonal());
    }
  }
}

// A coupled law: the diagonal law of constants(f) with extension-twist and bending-shear
// coupling in C and a centre-of-mass offset in J (positive definite for these sizes).
model::SectionLaw coupled(double f) {
  const auto k = constants(f);
  model::SectionLaw law =
      model::SectionLaw::stiffnesses(k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9]);
  law.C(2, 5) = law.C(5, 2) = 0.3 * f;   // twist - extension
  law.C(0, 4) = law.C(4, 0) = -0.1 * f;  // bending d1 - shear d2
  law.J(0, 5) = law.J(5, 0) = 0.05 * f;  // rotation - translation (offset centre of mass)
  return model::SectionLaw::matrices(law.C, law.J);
}

TEST(CaseCoupledTable, TaperedCoupledTableInterpolatesTheMatricesAtTheMidpoints) {
  // Free left end: midpoints s = 0.25, 0.5, 0.75, 1 (theory §3.4); rows at s = 0 and 1 with
  // f = 1 and 2: segment a has the law of f = 1 + (a + 1)/4, entry by entry.
  test::TempFolder tmp;
  const model::SectionLaw l0 = coupled(1.0), l1 = coupled(2.0);
  tmp.write("props.csv", matrix_header("s") + "0," + matrix_row(l0.C, l0.J) + "\n1," +
                             matrix_row(l1.C, l1.J) + "\n");
  const Problem p(load_case(tmp.write("case.toml", kTable + kGrid)));
  ASSERT_EQ(p.segments.size(), 4u);
  for (int a = 0; a < 4; ++a) {
    const model::SectionLaw& law = p.segment_data.laws[a];
    const model::SectionLaw expected = coupled(1.0 + 0.25 * (a + 1));
    EXPECT_LT((law.C - expected.C).cwiseAbs().maxCoeff(), 1e-15 * expected.C.norm()) << a;
    EXPECT_LT((law.J - expected.J).cwiseAbs().maxCoeff(), 1e-15 * expected.J.norm()) << a;
    EXPECT_FALSE(law.diagonal());
  }
  // Free-free, at rest but for a uniform spin and drift: the coupled per-node path keeps the
  // total momentum of the free beam (theory §7) to round-off.
  const std::string spin =
      "[initial]\nvelocity = \"uniform\"\nxi = [0.3, -0.2, 0.5, 0.1, 0.0, 0.2]\n";
  const Problem q(load_case(tmp.write("spin.toml", kTable + kGrid + spin)));
  const auto model = q.model<lie::Se3Cayley>();
  const test::RecordedRun r = test::record_time_march(model, time_march_input<lie::Se3Cayley>(q));
  ASSERT_TRUE(r.result.completed);
  const noether::MomentumMaps maps(model, r.field);
  const Vec6 P0 = noether::total_time_momentum(maps, 0);
  double drift = 0.0;
  for (int j = 1; j < 10; ++j)
    drift = std::max(drift, (noether::total_time_momentum(maps, j) - P0).cwiseAbs().maxCoeff());
  const double size = P0.cwiseAbs().maxCoeff();
  EXPECT_GT(size, 0.01);
  EXPECT_LT(drift, 1e-12 * size);
}

TEST(CaseCoupledTable, NotPositiveDefiniteNamesFileAndLine) {
  test::TempFolder tmp;
  model::SectionLaw bad = coupled(1.0);
  bad.C(2, 5) = bad.C(5, 2) = 10.0;  // |C36| > sqrt(C33 C66): indefinite
  const model::SectionLaw good = coupled(1.0);
  tmp.write("props.csv", matrix_header("s") + "0," + matrix_row(good.C, good.J) + "\n1," +
                             matrix_row(bad.C, bad.J) + "\n");
  const auto file = tmp.write("case.toml", kTable + kGrid);
  const std::string message = test::error_message([&] { Problem p(load_case(file)); });
  for (const std::string w :
       {"props.csv:3:", "stiffness (K)", "smallest eigenvalue", "case.toml:5: [beam] file"})
    EXPECT_TRUE(test::contains(message, w)) << message;
}

}  // namespace
}  // namespace field::io
