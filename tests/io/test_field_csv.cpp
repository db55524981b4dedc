// field.csv: a free-flight time march (rows) and a space evolution (columns) written with strides
// 1 and 3/4, read back: row set of the stride rule, t and s of the mesh, every pose equal to the
// recorded field (positions exactly, rotations through the 17-digit quaternion to 1e-15);
// assemble_field rebuilds the field and refuses a strided file; the reader names file, line and
// value for malformed files.
#include "libfield/io/field_csv.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "tests/support/cases.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

// max over the entries of |R - R_ref| and |r - r_ref| (max-norm).
struct PoseErrors {
  double R = 0.0, r = 0.0;
};
PoseErrors compare(const FieldCsv& csv, const mesh::Field& field) {
  PoseErrors e;
  for (size_t k = 0; k < csv.g.size(); ++k) {
    const lie::SE3& ref = field(csv.j[k], csv.a[k]);
    e.R = std::max(e.R, (csv.g[k].R - ref.R).cwiseAbs().maxCoeff());
    e.r = std::max(e.r, (csv.g[k].r - ref.r).cwiseAbs().maxCoeff());
  }
  return e;
}

TEST(FieldCsv, TimeMarchRowsWithStrides) {
  test::FreeFlight ff;
  ff.J = 13;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const test::TempFolder dir;
  march::FieldRecorder recorder(model.mesh(), true);
  FieldCsvWriter every(dir / "field1.csv", model.mesh(), true, mesh::Side::natural, 1);
  FieldCsvWriter third(dir / "field3.csv", model.mesh(), true, mesh::Side::natural, 3);
  const march::MarchResult r = march::time_march(model, ff.input(), {&recorder, &every, &third});
  ASSERT_TRUE(r.completed);
  EXPECT_FALSE(std::filesystem::exists(dir / "field1.csv.part"));  // finish() renamed them

  const int A = ff.A, J = ff.J;
  const FieldCsv all = read_field_csv(dir / "field1.csv");
  ASSERT_EQ(all.g.size(), static_cast<size_t>((J + 1) * (A + 1)));
  for (size_t k = 0; k < all.g.size(); ++k) {  // order: row by row, a = 0..A
    EXPECT_EQ(all.j[k], static_cast<int>(k) / (A + 1));
    EXPECT_EQ(all.a[k], static_cast<int>(k) % (A + 1));
    EXPECT_EQ(all.t[k], model.mesh().t(all.j[k]));
    EXPECT_EQ(all.s[k], (all.a[k] + 0.5) * ff.ds);  // free left end, theory §3.4
    EXPECT_EQ(all.line[k], static_cast<long long>(k) + 2);
  }
  const PoseErrors e1 = compare(all, recorder.field());
  EXPECT_EQ(e1.r, 0.0);    // 17 significant digits: the same doubles
  EXPECT_LE(e1.R, 1e-15);  // R -> quaternion -> R: a few ulps
  std::printf("[field.csv] rotation round trip through the quaternion: %.2e\n", e1.R);

  const FieldCsv strided = read_field_csv(dir / "field3.csv");
  std::set<int> rows(strided.j.begin(), strided.j.end());
  EXPECT_EQ(rows, (std::set<int>{0, 3, 6, 9, 12, 13}));  // j % 3 == 0 and j == J
  EXPECT_EQ(strided.g.size(), rows.size() * (A + 1));
  const PoseErrors e3 = compare(strided, recorder.field());
  EXPECT_EQ(e3.r, 0.0);
  EXPECT_LE(e3.R, 1e-15);

  const mesh::Field field = assemble_field(all, model.mesh(), true);
  EXPECT_EQ(field.layout(), mesh::Layout::by_row);
  for (int j = 0; j <= J; ++j)
    for (int a = 0; a <= A; ++a) {
      EXPECT_EQ(field(j, a).r, recorder.field()(j, a).r);
      EXPECT_LE((field(j, a).R - recorder.field()(j, a).R).cwiseAbs().maxCoeff(), 1e-15);
    }

  const std::string message =
      test::error_message([&] { assemble_field(strided, model.mesh(), true); });
  EXPECT_TRUE(test::contains(message, "field3.csv")) << message;
  EXPECT_TRUE(test::contains(message, "node (1, 0) is missing")) << message;
  EXPECT_TRUE(test::contains(message, "stride 1")) << message;
}

TEST(FieldCsv, SpaceMarchColumns) {
  test::SpaceEvolution se;
  se.J = 20;
  const model::BeamDensity beam = test::SpaceEvolution::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, se.mesh());
  const test::TempFolder dir;
  march::FieldRecorder recorder(model.mesh(), false);
  FieldCsvWriter every(dir / "field1.csv", model.mesh(), false, mesh::Side::open, 1);
  FieldCsvWriter fourth(dir / "field4.csv", model.mesh(), false, mesh::Side::open, 4);
  const march::MarchResult r = march::space_march(model, se.input(), {&recorder, &every, &fourth});
  ASSERT_TRUE(r.completed);

  const int A = se.A, J = se.J;
  const FieldCsv all = read_field_csv(dir / "field1.csv");
  ASSERT_EQ(all.g.size(), static_cast<size_t>((J + 1) * (A + 1)));
  for (size_t k = 0; k < all.g.size(); ++k) {  // order: column by column, j = 0..J
    EXPECT_EQ(all.a[k], static_cast<int>(k) / (J + 1));
    EXPECT_EQ(all.j[k], static_cast<int>(k) % (J + 1));
    EXPECT_EQ(all.s[k], all.a[k] * se.ds);  // tip a = 0 given: s = a ds
  }
  const PoseErrors e1 = compare(all, recorder.field());
  EXPECT_EQ(e1.r, 0.0);
  EXPECT_LE(e1.R, 1e-15);

  const FieldCsv strided = read_field_csv(dir / "field4.csv");
  EXPECT_EQ(std::set<int>(strided.a.begin(), strided.a.end()), (std::set<int>{0, 4, 8, 10}));
  EXPECT_EQ(strided.g.size(), 4u * (J + 1));

  const mesh::Field field = assemble_field(all, model.mesh(), false);
  EXPECT_EQ(field.layout(), mesh::Layout::by_column);
  EXPECT_EQ(field(J, A).r, recorder.field()(J, A).r);
  const std::string message =
      test::error_message([&] { assemble_field(strided, model.mesh(), false); });
  EXPECT_TRUE(test::contains(message, "node (0, 1) is missing")) << message;  // column order
}

TEST(FieldCsv, WriterKeepsTheLastSlabOfAnInterruptedMarch) {
  const mesh::SpacetimeMesh m(10, 2, 0.1, 0.5);
  const test::TempFolder dir;
  {
    FieldCsvWriter writer(dir / "field.csv", m, true, mesh::Side::prescribed, 4);
    const std::vector<lie::SE3> row(3);
    for (int j = 0; j <= 6; ++j) writer.slab(j, row, {});  // stops at row 6 (not a multiple)
    writer.finish();
  }
  const FieldCsv csv = read_field_csv(dir / "field.csv");
  EXPECT_EQ(std::set<int>(csv.j.begin(), csv.j.end()), (std::set<int>{0, 4, 6}));
  EXPECT_EQ(csv.s[1], 0.5);  // prescribed left end: s = a ds
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(FieldCsv, ReaderNamesFileLineAndValue) {
  const test::TempFolder dir;
  const std::filesystem::path path = dir / "field.csv";
  const std::string header = "j,a,t,s,x,y,z,qw,qx,qy,qz\n";
  const std::string good = "0,0,0,0.05,0,0,0.05,1,0,0,0\n";
  const auto message_for = [&](const std::string& text) {
    write_text(path, text);
    return test::error_message([&] { read_field_csv(path); });
  };
  std::string m = message_for("j,a,t,s,x,y,z,qw,qx,qy\n" + good);
  EXPECT_TRUE(test::contains(m, path.string() + " line 1: column 'qz' is missing")) << m;
  m = message_for(header + good + "0,1,0,0.15,0,0,0.15,1,0,0\n");
  EXPECT_TRUE(test::contains(m, " line 3: 10 values for 11 columns")) << m;
  m = message_for(header + good + "0,1,0,0.15,0,zero,0.15,1,0,0,0\n");
  EXPECT_TRUE(test::contains(m, " line 3, column 'y': 'zero' is not a number")) << m;
  m = message_for(header + "0,0,0,0.05,nan,0,0.05,1,0,0,0\n");
  EXPECT_TRUE(test::contains(m, " line 2, column 'x': nan is not finite")) << m;
  m = message_for(header + "0,0.5,0,0.05,0,0,0.05,1,0,0,0\n");
  EXPECT_TRUE(test::contains(m, " line 2, column 'a': 0.5 is not a node index")) << m;
  m = message_for(header + good + "0,1,0,0.15,0,0,0.15,1,0,0,0.01\n");
  EXPECT_TRUE(test::contains(m, " line 3: the quaternion (1, 0, 0, 0.01) has norm 1.00005")) << m;
  EXPECT_TRUE(test::contains(m, "not 1 (to 1e-6)")) << m;

  write_text(path, header + good + "1,0,0.1,0.05,0,0,0.05,1,0,0,1e-3\n");  // norm 1 + 5e-7
  const FieldCsv csv = read_field_csv(path);
  ASSERT_EQ(csv.g.size(), 2u);
  EXPECT_LE((csv.g[1].R.transpose() * csv.g[1].R - Mat3::Identity()).norm(), 1e-15);

  const mesh::SpacetimeMesh mesh(1, 1, 0.1, 0.1);
  write_text(path, header + good + good);
  m = test::error_message([&] { assemble_field(read_field_csv(path), mesh, true); });
  EXPECT_TRUE(test::contains(m, " line 3: node (0, 0) appears a second time (first at line 2)"))
      << m;
  write_text(path, header + "0,2,0,0.05,0,0,0.05,1,0,0,0\n");
  m = test::error_message([&] { assemble_field(read_field_csv(path), mesh, true); });
  EXPECT_TRUE(test::contains(m, " line 2: node (0, 2) is outside the mesh")) << m;

  const std::string io = test::io_error_message([&] { read_field_csv(dir / "none.csv"); });
  EXPECT_TRUE(test::contains(io, (dir / "none.csv").string())) << io;
}

// The points of R^3 (the cable, theory §1.8) through the same writer and reader: the columns j,
// a, t, s, x, y, z (lie::Coordinates<Vec3>), every row of stride 2 and the last, the points'
// doubles back bit for bit, assemble_field's checks and the reader's messages with the names of
// the point's columns.
TEST(FieldCsv, PointsOfR3) {
  const test::TempFolder dir;
  const std::filesystem::path path = dir / "field.csv";
  const mesh::SpacetimeMesh mesh(3, 2, 0.1, 0.25);
  mesh::BasicField<Vec3> points(mesh);
  {
    BasicFieldCsvWriter<Vec3> writer(path, mesh, true, mesh::Side::prescribed, 2);
    for (int j = 0; j <= 3; ++j) {
      std::vector<Vec3> row;
      for (int a = 0; a <= 2; ++a) {
        points(j, a) = Vec3(0.1 * a + 1.0 / 3.0, -j / 7.0, 1e-300 * (a + 1));
        row.push_back(points(j, a));
      }
      writer.slab(j, row, march::SlabStats{});
    }
    writer.finish();
  }
  std::string header;
  std::getline(std::ifstream(path), header);
  EXPECT_EQ(header, "j,a,t,s,x,y,z");
  const BasicFieldCsv<Vec3> csv = read_field_csv<Vec3>(path);
  ASSERT_EQ(csv.g.size(), 9u);  // rows 0, 2 and the last, 3
  std::set<int> rows(csv.j.begin(), csv.j.end());
  EXPECT_EQ(rows, (std::set<int>{0, 2, 3}));
  for (std::size_t k = 0; k < csv.g.size(); ++k) {
    EXPECT_EQ(csv.g[k], points(csv.j[k], csv.a[k])) << k;
    EXPECT_EQ(csv.s[k], mesh.s(csv.a[k], mesh::Side::prescribed));
  }
  // Row 1 is not in the file: assemble_field names it.
  std::string m = test::error_message([&] { assemble_field(csv, mesh, true); });
  EXPECT_TRUE(test::contains(m, "node (1, 0) is missing")) << m;
  write_text(path, "j,a,t,s,x,y\n0,0,0,0,1,2\n");
  m = test::error_message([&] { read_field_csv<Vec3>(path); });
  EXPECT_TRUE(test::contains(m,
                             "line 1: column 'z' is missing; the header must name the columns "
                             "j,a,t,s,x,y,z"))
      << m;
}

}  // namespace
}  // namespace field::io
