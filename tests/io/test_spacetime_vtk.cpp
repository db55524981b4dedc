// spacetime.vtu read back with vtkXMLUnstructuredGridReader: point and cell counts for strides 1,
// 2 and 3, the two triangle kinds, (t, s) coordinates; on a marched field with gravity, a clamp
// and point loads the DCEL residual is at round-off (and its maximum is residual_report's), the
// node Noether defect is tiny, and a tampered node stands out; the energy density summed over a
// row matches noether::time_energies (exactly, given the definitions).
#include "libfield/io/spacetime_vtk.hpp"

#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include "libfield/dcel/residual.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/noether/energies.hpp"
#include "tests/support/cable.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

vtkSmartPointer<vtkUnstructuredGrid> read_vtu(const std::filesystem::path& path) {
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(path.string().c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0u) << path;
  vtkSmartPointer<vtkUnstructuredGrid> grid = reader->GetOutput();
  return grid;
}

std::vector<lie::SE3> row_of(const mesh::Field& field, int j) {
  std::vector<lie::SE3> row;
  for (int a = 0; a <= field.mesh().A(); ++a) row.push_back(field(j, a));
  return row;
}

// Feeds the rows of a recorded field to a writer, as the program does for a recorded run.
template <class G>
void write_rows(SpacetimeWriter<G>& writer, const mesh::Field& field) {
  for (int j = 0; j <= field.mesh().J(); ++j) writer.slab(j, row_of(field, j), {});
  writer.finish();
}

TEST(SpacetimeVtk, CountsAndTrianglesForStrides) {
  test::FreeFlight ff;
  ff.J = 10;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const march::TimeMarchInput in = ff.input();
  const mesh::Boundary boundary = march::time_boundary(in);
  const test::TempFolder dir;
  SpacetimeWriter s1(dir / "s1.vtu", model, boundary, 1);
  SpacetimeWriter s2(dir / "s2.vtu", model, boundary, 2);
  SpacetimeWriter s3(dir / "s3.vtu", model, boundary, 3);
  ASSERT_TRUE(march::time_march(model, in, {&s1, &s2, &s3}).completed);
  EXPECT_EQ(s2.output_rows(), 6);  // memory: the output rows only

  const int A = ff.A;
  const std::pair<const char*, std::vector<int>> cases[] = {
      {"s1.vtu", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
      {"s2.vtu", {0, 2, 4, 6, 8, 10}},
      {"s3.vtu", {0, 3, 6, 9, 10}}};  // j % 3 == 0 and j == J
  for (const auto& [name, rows] : cases) {
    const vtkSmartPointer<vtkUnstructuredGrid> grid = read_vtu(dir / name);
    const int n = static_cast<int>(rows.size());
    ASSERT_EQ(grid->GetNumberOfPoints(), n * (A + 1)) << name;
    ASSERT_EQ(grid->GetNumberOfCells(), 2 * (n - 1) * A) << name;
    EXPECT_EQ(grid->GetPoints()->GetDataType(), VTK_DOUBLE);
    for (int k = 0; k < n; ++k)
      for (int a = 0; a <= A; ++a) {
        const double* p = grid->GetPoint(k * (A + 1) + a);
        EXPECT_EQ(p[0], model.mesh().t(rows[k])) << name;
        EXPECT_EQ(p[1], (a + 0.5) * ff.ds) << name;
        EXPECT_EQ(p[2], 0.0);
      }
    vtkDataArray* kind = grid->GetCellData()->GetArray("triangle_kind");
    ASSERT_NE(kind, nullptr);
    vtkNew<vtkIdList> ids;
    for (int k = 0; k + 1 < n; ++k)
      for (int a = 0; a < A; ++a) {
        const vtkIdType c = 2 * (k * A + a), v = k * (A + 1) + a, up = v + A + 1;
        EXPECT_EQ(grid->GetCellType(c), VTK_TRIANGLE);
        grid->GetCellPoints(c, ids);
        EXPECT_EQ(std::vector<vtkIdType>({ids->GetId(0), ids->GetId(1), ids->GetId(2)}),
                  std::vector<vtkIdType>({v, up, v + 1}));  // (j,a), (j+1,a), (j,a+1)
        EXPECT_EQ(kind->GetTuple1(c), 0.0);
        grid->GetCellPoints(c + 1, ids);
        EXPECT_EQ(std::vector<vtkIdType>({ids->GetId(0), ids->GetId(1), ids->GetId(2)}),
                  std::vector<vtkIdType>({up, up + 1, v + 1}));
        EXPECT_EQ(kind->GetTuple1(c + 1), 1.0);
      }
    const std::pair<const char*, int> arrays[] = {{"position", 3},       {"q_wxyz", 4},
                                                  {"energy_density", 1}, {"dcel_residual", 1},
                                                  {"noether_defect", 1}, {"node_kind", 1}};
    for (const auto& [array, components] : arrays) {
      ASSERT_NE(grid->GetPointData()->GetArray(array), nullptr) << array;
      EXPECT_EQ(grid->GetPointData()->GetArray(array)->GetNumberOfComponents(), components);
    }
  }
}

TEST(SpacetimeVtk, ResidualAndDefectOnAMarchedFieldWithLoadsAndAClamp) {
  test::FreeFlight ff;
  ff.J = 12;
  const model::BeamDensity beam = test::soft_beam(Vec3(0.0, 0.0, -9.81));
  model::Loads loads = test::mixed_loads(ff.A);
  loads.point.erase(loads.point.begin());  // point loads on solved nodes only (1 <= a <= A-1)
  loads.point.pop_back();
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  march::TimeMarchInput in = ff.input();
  in.left = march::SideSpec::clamped(in.row0[0]);
  const mesh::Boundary boundary = march::time_boundary(in);
  const test::TempFolder dir;
  march::FieldRecorder recorder(model.mesh(), true);
  SpacetimeWriter writer(dir / "spacetime.vtu", model, boundary, 1);
  SpacetimeWriter strided(dir / "strided.vtu", model, boundary, 5);
  ASSERT_TRUE(march::time_march(model, in, {&recorder, &writer, &strided}).completed);
  const mesh::Field& field = recorder.field();
  const int J = ff.J, A = ff.A;

  const vtkSmartPointer<vtkUnstructuredGrid> grid = read_vtu(dir / "spacetime.vtu");
  ASSERT_EQ(grid->GetNumberOfPoints(), (J + 1) * (A + 1));
  vtkPointData* pd = grid->GetPointData();
  double max_residual = 0.0, max_defect = 0.0;
  for (int j = 0; j <= J; ++j)
    for (int a = 0; a <= A; ++a) {
      const vtkIdType p = j * (A + 1) + a;
      const double* r = pd->GetArray("position")->GetTuple3(p);
      EXPECT_EQ(Vec3(r[0], r[1], r[2]), field(j, a).r);
      const double* q = pd->GetArray("q_wxyz")->GetTuple4(p);
      EXPECT_EQ(Vec4(q[0], q[1], q[2], q[3]), field(j, a).quat());
      const mesh::NodeKind kind = model.mesh().kind(j, a, boundary);
      EXPECT_EQ(pd->GetArray("node_kind")->GetTuple1(p), static_cast<double>(kind));
      const double residual = pd->GetArray("dcel_residual")->GetTuple1(p);
      const double defect = pd->GetArray("noether_defect")->GetTuple1(p);
      if (!model.mesh().is_equation_node(j, a, boundary)) {  // j = 0, j = J, the clamp a = 0
        EXPECT_EQ(residual, 0.0) << "node (" << j << ", " << a << ")";
        EXPECT_EQ(defect, 0.0) << "node (" << j << ", " << a << ")";
      }
      max_residual = std::max(max_residual, residual);
      max_defect = std::max(max_defect, defect);
    }
  const dcel::ResidualReport report = dcel::residual_report(model, field, boundary);
  std::printf("[spacetime.vtu] max dcel_residual %.2e (residual_report %.2e), max defect %.2e\n",
              max_residual, report.relative, max_defect);
  EXPECT_LE(max_residual, 1e-11);            // theory §10 ii
  EXPECT_EQ(max_residual, report.relative);  // the same G_n, the same normalisation
  EXPECT_LE(max_defect, 1e-12);              // theory §10 iii
  EXPECT_GT(max_residual, 0.0);              // computed, not left at zero

  // Stride 5 (rows 0, 5, 10, 12): the same G_n, normalised over the nodes of these rows.
  const std::vector<int> rows = {0, 5, 10, 12};
  double max_scale = 0.0;
  for (const int j : rows)
    for (int a = 0; a <= A; ++a)
      if (model.mesh().is_equation_node(j, a, boundary))
        max_scale = std::max(max_scale, dcel::node_residual(model, field, j, a).scale);
  const vtkSmartPointer<vtkUnstructuredGrid> coarse = read_vtu(dir / "strided.vtu");
  ASSERT_EQ(coarse->GetNumberOfPoints(), 4 * (A + 1));
  for (size_t k = 0; k < rows.size(); ++k)
    for (int a = 0; a <= A; ++a) {
      const bool equation = model.mesh().is_equation_node(rows[k], a, boundary);
      const double expected =
          equation
              ? dcel::node_residual(model, field, rows[k], a).G.cwiseAbs().maxCoeff() / max_scale
              : 0.0;
      EXPECT_EQ(coarse->GetPointData()->GetArray("dcel_residual")->GetTuple1(k * (A + 1) + a),
                expected)
          << "node (" << rows[k] << ", " << a << ")";
      EXPECT_EQ(
          coarse->GetPointData()->GetArray("noether_defect")->GetTuple1(k * (A + 1) + a) == 0.0,
          !equation);
    }

  // A tampered row: node (5, 4) moved by 1e-4 m. Its residual, and those of the nodes sharing a
  // triangle with it, stand out by orders of magnitude.
  const int jt = 5, at = 4;
  mesh::Field tampered = field;
  tampered(jt, at).r.x() += 1e-4;
  SpacetimeWriter bad(dir / "tampered.vtu", model, boundary, 1);
  write_rows(bad, tampered);
  const vtkSmartPointer<vtkUnstructuredGrid> bad_grid = read_vtu(dir / "tampered.vtu");
  vtkDataArray* bad_residual = bad_grid->GetPointData()->GetArray("dcel_residual");
  vtkDataArray* bad_defect = bad_grid->GetPointData()->GetArray("noether_defect");
  const double at_node = bad_residual->GetTuple1(jt * (A + 1) + at);
  std::printf("[spacetime.vtu] tampered node: dcel_residual %.2e, noether_defect %.2e\n", at_node,
              bad_defect->GetTuple1(jt * (A + 1) + at));
  EXPECT_GT(at_node, 1e-6);
  EXPECT_GT(bad_defect->GetTuple1(jt * (A + 1) + at), 1e-6);
  EXPECT_GT(bad_residual->GetTuple1((jt - 1) * (A + 1) + at), 1e-6);  // shares triangle (4, 4)
  EXPECT_LE(bad_residual->GetTuple1(2 * (A + 1) + at), 1e-11);        // far away: untouched
}

TEST(SpacetimeVtk, EnergyDensityMatchesTheRowEnergies) {
  // E_j = ds sum_a [T(xi_j^a) + (V_j^a + V_{j+1}^a) / 2] (theory §8) and the file holds
  // e_j^a = T(xi_j^a) + V_j^a, so E_j = ds sum_a e_j^a + ds/2 sum_a (V_{j+1}^a - V_j^a) exactly.
  test::FreeFlight ff;
  ff.J = 8;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const march::TimeMarchInput in = ff.input();
  const test::TempFolder dir;
  march::FieldRecorder recorder(model.mesh(), true);
  SpacetimeWriter writer(dir / "spacetime.vtu", model, march::time_boundary(in), 1);
  ASSERT_TRUE(march::time_march(model, in, {&recorder, &writer}).completed);
  const std::vector<double> E = noether::time_energies(model, recorder.field());
  const int J = ff.J, A = ff.A;
  const auto V = [&](int j) {  // ds sum_a V_j^a, from the recorded field
    double sum = 0.0;
    for (int a = 0; a < A; ++a)
      sum += beam.strain_energy(mesh::convected<lie::Se3Cayley>(recorder.field()(j, a),
                                                                recorder.field()(j, a + 1), ff.ds));
    return ff.ds * sum;
  };
  const vtkSmartPointer<vtkUnstructuredGrid> grid = read_vtu(dir / "spacetime.vtu");
  vtkDataArray* e = grid->GetPointData()->GetArray("energy_density");
  double worst = 0.0, correction = 0.0;
  for (int j = 0; j <= J; ++j) {
    double row = 0.0;
    for (int a = 0; a <= A; ++a) row += ff.ds * e->GetTuple1(j * (A + 1) + a);
    EXPECT_EQ(e->GetTuple1(j * (A + 1) + A), 0.0);  // a = A: no triangle
    if (j == J) {
      EXPECT_EQ(row, 0.0);  // j = J: no triangle
      continue;
    }
    const double half_step = 0.5 * (V(j + 1) - V(j));
    worst = std::max(worst, std::abs(row + half_step - E[j]) / E[j]);
    correction = std::max(correction, std::abs(half_step) / E[j]);
  }
  std::printf("[spacetime.vtu] energy identity error %.2e (V-average correction %.2e)\n", worst,
              correction);
  EXPECT_LE(worst, 1e-14);      // sums of ~20 positive terms: a few ulps
  EXPECT_GT(correction, 1e-6);  // the correction matters: the test is not vacuous

  // The static arc (theory §11.2): xi = 0 and V constant in time, so ds sum_a e = E_j = 1/2 EI k^2
  // L.
  const int Ja = 3, Aa = 10;
  const dcel::DiscreteModel arc(beam, loads, lie::Se3Cayley{},
                                mesh::SpacetimeMesh(Ja, Aa, 0.005, 0.1));
  Vec6 eta_bar;
  eta_bar << 2, 0, 0, 0, 0, 1;
  mesh::Field field(arc.mesh());
  for (int j = 0; j <= Ja; ++j)
    for (int a = 1; a <= Aa; ++a)
      field(j, a) = field(j, a - 1) * lie::Se3Cayley::tau(0.1 * eta_bar);
  const mesh::Boundary clamped =
      mesh::Boundary::time_evolution(mesh::Side::prescribed, mesh::Side::prescribed);
  SpacetimeWriter arc_writer(dir / "arc.vtu", arc, clamped, 1);
  write_rows(arc_writer, field);
  const vtkSmartPointer<vtkUnstructuredGrid> arc_grid = read_vtu(dir / "arc.vtu");
  const std::vector<double> E_arc = noether::time_energies(arc, field);
  for (int j = 0; j < Ja; ++j) {
    double row = 0.0;
    for (int a = 0; a <= Aa; ++a)
      row +=
          0.1 * arc_grid->GetPointData()->GetArray("energy_density")->GetTuple1(j * (Aa + 1) + a);
    EXPECT_NEAR(row, E_arc[j], 1e-14 * E_arc[j]);
    EXPECT_NEAR(row, 1.6666666666666672, 1e-13);  // theory §11.2
  }
}

TEST(SpacetimeVtk, MemoryIsFlatInTheNumberOfRows) {
  // 3000 rows of 21 nodes, all written (stride 1): the rows go to PATH.rows.part, the writer's
  // memory stays that of a few rows (the old writer held every output row: ~10 MB here).
  const int J = 3000, A = 20;
  const double dt = 0.001, ds = 0.05;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, mesh::SpacetimeMesh(J, A, dt, ds));
  const mesh::Boundary boundary =
      mesh::Boundary::time_evolution(mesh::Side::natural, mesh::Side::natural);
  const test::TempFolder dir;
  const std::filesystem::path path = dir / "spacetime.vtu";
  SpacetimeWriter writer(path, model, boundary, 1);
  std::vector<lie::SE3> row(A + 1);
  const auto push = [&](int j) {  // a beam drifting along e1 and spinning slowly about e3
    for (int a = 0; a <= A; ++a)
      row[a] = lie::SE3{lie::rotation_about(Vec3::UnitZ(), 0.01 * j), Vec3(0.01 * j, 0, a * ds)};
    writer.slab(j, row, {});
  };
  for (int j = 0; j <= 10; ++j) push(j);
  const std::size_t early = writer.memory_bytes();
  const std::filesystem::path rows = dir / "spacetime.vtu.rows.part";
  ASSERT_TRUE(std::filesystem::exists(rows));
  for (int j = 11; j <= J; ++j) push(j);
  EXPECT_EQ(writer.memory_bytes(), early);  // O(A): nothing grows with the rows
  EXPECT_LT(early, 20000u);                 // three rows of 21 poses and one row's values
  EXPECT_EQ(writer.output_rows(), J);       // rows 0..J-1 evaluated, row J waits for finish()
  // On disk instead: 11 doubles a node (position, q, energy, |G|, |Res|, scale_R) for every row
  // written, up to the stream's buffer.
  EXPECT_GE(std::filesystem::file_size(rows), (J - 10) * (A + 1) * 11 * sizeof(double));
  writer.finish();
  EXPECT_FALSE(std::filesystem::exists(rows));
  const vtkSmartPointer<vtkUnstructuredGrid> grid = read_vtu(path);
  ASSERT_EQ(grid->GetNumberOfPoints(), (J + 1) * (A + 1));
  ASSERT_EQ(grid->GetNumberOfCells(), 2 * J * A);
  for (const int j : {0, 1234, J}) {  // rows read back from the temporary file
    const double* r = grid->GetPointData()->GetArray("position")->GetTuple3(j * (A + 1) + 7);
    EXPECT_EQ(Vec3(r[0], r[1], r[2]), Vec3(0.01 * j, 0, 7 * ds));
    EXPECT_EQ(grid->GetPoint(j * (A + 1) + 7)[0], model.mesh().t(j));
  }
}

TEST(SpacetimeVtk, IoErrorNamesThePathWhenTheFolderDoesNotExist) {
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{},
                                  mesh::SpacetimeMesh(2, 2, 0.1, 0.1));
  const mesh::Boundary boundary =
      mesh::Boundary::time_evolution(mesh::Side::natural, mesh::Side::natural);
  const test::TempFolder dir;
  // The rows are streamed to PATH.rows.part from the start: a missing folder fails at once.
  const std::filesystem::path path = dir / "missing" / "spacetime.vtu";
  std::string message =
      test::io_error_message([&] { SpacetimeWriter writer(path, model, boundary, 1); });
  EXPECT_TRUE(test::contains(message, path.string())) << message;
  EXPECT_TRUE(test::contains(message, "No such file or directory")) << message;
  EXPECT_FALSE(std::filesystem::exists(dir / "missing"));

  // A folder removed during the run: finish() cannot write the file and says which.
  std::filesystem::create_directories(dir / "gone");
  const std::filesystem::path gone = dir / "gone" / "spacetime.vtu";
  SpacetimeWriter writer(gone, model, boundary, 1);
  for (int j = 0; j <= 2; ++j) writer.slab(j, std::vector<lie::SE3>(3), {});
  std::filesystem::remove_all(dir / "gone");
  message = test::io_error_message([&] { writer.finish(); });
  EXPECT_TRUE(test::contains(message, gone.string())) << message;
  EXPECT_TRUE(test::contains(message, "No such file or directory")) << message;
  EXPECT_FALSE(std::filesystem::exists(dir / "gone"));
}

// The cable on R^3 (theory §1.8): the same surface with the positions of the points and no
// q_wxyz; on a marched cable (free, falling and stretching) the DCEL residual and the node
// Noether defect are at round-off, and the energy density has the kinetic, strain and potential
// terms of the cable.
TEST(SpacetimeVtk, CableOnR3HasPositionsAndNoFrames) {
  using R3 = lie::Rn<3>;
  const test::FallingCable cable(false);
  const model::Loads none;
  const dcel::DiscreteModel<R3> model(cable.density, none,
                                      mesh::SpacetimeMesh(cable.J, cable.A, cable.dt, cable.ds));
  march::TimeMarchInputOf<R3> in;
  in.row0 = cable.row0;
  in.row1 = cable.row1;
  const mesh::Boundary boundary = march::time_boundary(in);
  const test::TempFolder dir;
  march::BasicFieldRecorder<Vec3> recorder(model.mesh(), true);
  SpacetimeWriter<R3> writer(dir / "cable.vtu", model, boundary, 1);
  ASSERT_TRUE(march::time_march(model, in, {&recorder, &writer}).completed);
  const int J = cable.J, A = cable.A;
  EXPECT_EQ(spacetime_file_bytes(J + 1, A, false), std::filesystem::file_size(dir / "cable.vtu"));

  const vtkSmartPointer<vtkUnstructuredGrid> grid = read_vtu(dir / "cable.vtu");
  ASSERT_EQ(grid->GetNumberOfPoints(), (J + 1) * (A + 1));
  ASSERT_EQ(grid->GetNumberOfCells(), 2 * J * A);
  vtkPointData* pd = grid->GetPointData();
  EXPECT_EQ(pd->GetArray("q_wxyz"), nullptr);
  double max_residual = 0.0, max_defect = 0.0;
  for (int j = 0; j <= J; ++j)
    for (int a = 0; a <= A; ++a) {
      const vtkIdType p = j * (A + 1) + a;
      const double* r = pd->GetArray("position")->GetTuple3(p);
      EXPECT_EQ(Vec3(r[0], r[1], r[2]), recorder.field()(j, a));
      const double* st = grid->GetPoint(p);
      EXPECT_EQ(st[1], (a + 0.5) * cable.ds);
      max_residual = std::max(max_residual, pd->GetArray("dcel_residual")->GetTuple1(p));
      max_defect = std::max(max_defect, pd->GetArray("noether_defect")->GetTuple1(p));
      if (j < J && a < A) {  // T + W + Pi at v1 of the triangle (j, a), theory §8
        const Vec3& g = recorder.field()(j, a);
        const Vec3 xi = (recorder.field()(j + 1, a) - g) / cable.dt;
        const Vec3 eta = (recorder.field()(j, a + 1) - g) / cable.ds;
        const double nu = eta.norm();  // W = 1/2 EA (nu - 1)^2, Pi = -rho A g.r (1.8.2)
        const double e = 0.5 * xi.squaredNorm() + 50.0 * (nu - 1.0) * (nu - 1.0) + 9.81 * g(2);
        EXPECT_NEAR(pd->GetArray("energy_density")->GetTuple1(p), e, 1e-12 * (1.0 + std::abs(e)));
      }
    }
  EXPECT_GT(max_residual, 0.0);
  EXPECT_LT(max_residual, 1e-12);
  EXPECT_LT(max_defect, 1e-12);
}

}  // namespace
}  // namespace field::io
