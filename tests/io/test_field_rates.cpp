// field_rates.csv (io/field_rates.hpp): its header; the rows of field.csv's stride rule; every
// value equal, bit for bit, to the VTK frame of the same row read back with
// vtkXMLPolyDataReader (the frames hold the spatial velocity R xi and the segment values as cell
// data); the last node's segment fields empty; a march of a single row has zero velocities.
#include "libfield/io/field_rates.hpp"

#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkXMLPolyDataReader.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "libfield/io/frames.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/time_march.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/problems.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

// The fields of every line of a CSV file, split at the commas (an empty field stays empty).
std::vector<std::vector<std::string>> csv_fields(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> lines;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields(1);
    for (const char c : line) {
      if (c == ',')
        fields.emplace_back();
      else
        fields.back() += c;
    }
    lines.push_back(fields);
  }
  return lines;
}

double number(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  EXPECT_TRUE(!text.empty() && end == text.c_str() + text.size()) << "'" << text << "'";
  return v;
}

Vec3 vtk3(vtkDataArray* array, vtkIdType k) {
  const double* v = array->GetTuple3(k);
  return Vec3(v[0], v[1], v[2]);
}

TEST(FieldRates, ValuesEqualThoseOfTheVtkFramesOfTheSameRow) {
  test::FreeFlight ff;
  ff.J = 7;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const test::TempFolder dir;
  march::FieldRecorder recorder(model.mesh(), true);
  FramesWriter frames(dir.path(), model, mesh::Side::natural, 3);
  FieldRatesWriter rates(dir / "field_rates.csv", model, mesh::Side::natural, 3);
  ASSERT_TRUE(march::time_march(model, ff.input(), {&recorder, &frames, &rates}).completed);
  const int A = ff.A;

  const auto lines = csv_fields(dir / "field_rates.csv");
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front(), field_rates_columns());
  EXPECT_EQ(
      field_rates_columns(),
      (std::vector<std::string>{"j",  "a",  "t",  "s",  "w1", "w2", "w3", "v1", "v2", "v3", "k1",
                                "k2", "k3", "g1", "g2", "g3", "m1", "m2", "m3", "n1", "n2", "n3"}));
  const std::vector<int> rows = {0, 3, 6, 7};  // j % 3 == 0 and j == J, as field.csv
  ASSERT_EQ(lines.size(), 1 + rows.size() * (A + 1));
  EXPECT_EQ(rates.rows(), static_cast<long long>(rows.size() * (A + 1)));
  std::size_t line = 1;
  for (const int j : rows) {
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName((dir / frame_name("beam", j)).string().c_str());
    reader->Update();
    ASSERT_EQ(reader->GetErrorCode(), 0u) << j;
    vtkPolyData* frame = reader->GetOutput();
    vtkPointData* pd = frame->GetPointData();
    vtkCellData* cd = frame->GetCellData();
    for (int a = 0; a <= A; ++a, ++line) {
      const std::vector<std::string>& f = lines[line];
      ASSERT_EQ(f.size(), 22u) << "line " << line + 1;
      EXPECT_EQ(number(f[0]), j);
      EXPECT_EQ(number(f[1]), a);
      EXPECT_EQ(number(f[2]), model.mesh().t(j));
      EXPECT_EQ(number(f[3]), pd->GetArray("s")->GetTuple1(a));
      Vec6 xi;
      for (int c = 0; c < 6; ++c) xi(c) = number(f[4 + c]);
      // The frames show the body velocity in space, R xi (theory §0.2).
      const Mat3& R = recorder.field()(j, a).R;
      EXPECT_EQ(vtk3(pd->GetArray("angular_velocity"), a), R * xi.head<3>()) << j << " " << a;
      EXPECT_EQ(vtk3(pd->GetArray("velocity"), a), R * xi.tail<3>()) << j << " " << a;
      EXPECT_GT(xi.norm(), 0.1);  // the beam moves
      if (a == A) {               // the ghost node A has no segment (A, A+1)
        for (int c = 10; c < 22; ++c) EXPECT_TRUE(f[c].empty()) << "column " << c;
        continue;
      }
      const Vec3 values[4] = {Vec3(number(f[10]), number(f[11]), number(f[12])),
                              Vec3(number(f[13]), number(f[14]), number(f[15])),
                              Vec3(number(f[16]), number(f[17]), number(f[18])),
                              Vec3(number(f[19]), number(f[20]), number(f[21]))};
      const char* names[4] = {"strain_Omega", "strain_Gamma", "moment", "force"};
      for (int k = 0; k < 4; ++k)
        EXPECT_EQ(values[k], vtk3(cd->GetArray(names[k]), a)) << names[k] << " " << j << " " << a;
      // The bending beam is stressed (row 0 is straight; the free end's segment A-1 unstressed,
      // (4.4)).
      if (j > 0 && a < A - 1) {
        EXPECT_GT(values[2].norm(), 0.0);
      }
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "field_rates.csv.part"));
}

TEST(FieldRates, ASingleRowHasZeroVelocities) {
  test::FreeFlight ff;
  ff.J = 4;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const test::TempFolder dir;
  {
    FieldRatesWriter rates(dir / "field_rates.csv", model, mesh::Side::natural, 1);
    rates.slab(0, ff.input().row0, march::SlabStats{});
    rates.finish();
  }
  const auto lines = csv_fields(dir / "field_rates.csv");
  ASSERT_EQ(lines.size(), 1u + ff.A + 1);
  for (std::size_t k = 1; k < lines.size(); ++k)
    for (int c = 4; c < 10; ++c) EXPECT_EQ(lines[k][c], "0") << k << " " << c;
  // The straight row 0 is unstrained: eta = E6 = (0, 0, 0, 0, 0, 1) up to the round-off of the
  // positions' differences, and the node A has no segment.
  EXPECT_NEAR(number(lines[1][15]), 1.0, 1e-14);
  EXPECT_TRUE(lines.back()[15].empty());
}

}  // namespace
}  // namespace field::io
