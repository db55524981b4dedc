// Beam frames: the .pvd parsed with VTK's XML parser and every .vtp read back with
// vtkXMLPolyDataReader: frame set of the stride rule, point and cell counts, arrays and component
// counts, TimeValue, positions, quaternions and directors equal to the recorded field (float64);
// the velocity of a rigid screw motion, the strain and stress of the static arc and the zero
// stress of a straight unstrained beam; an interrupted run leaves a readable index.
#include "libfield/io/frames.hpp"

#include <gtest/gtest.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLPolyDataWriter.h>

#include <cstring>

#include <cstdlib>
#include <fstream>

#include "libfield/mesh/convected.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/temp_folder.hpp"

namespace field::io {
namespace {

// (timestep, file) of every DataSet of a .pvd, parsed with VTK's XML parser (independent of
// io::read_pvd).
std::vector<PvdEntry> parse_pvd(const std::filesystem::path& path) {
  vtkNew<vtkXMLDataParser> parser;
  parser->SetFileName(path.string().c_str());
  EXPECT_EQ(parser->Parse(), 1) << path;
  vtkXMLDataElement* root = parser->GetRootElement();
  std::vector<PvdEntry> entries;
  if (root == nullptr) return entries;
  EXPECT_STREQ(root->GetName(), "VTKFile");
  EXPECT_STREQ(root->GetAttribute("type"), "Collection");
  vtkXMLDataElement* collection = root->FindNestedElementWithName("Collection");
  if (collection == nullptr) {
    ADD_FAILURE() << "no Collection element in " << path;
    return entries;
  }
  for (int k = 0; k < collection->GetNumberOfNestedElements(); ++k) {
    vtkXMLDataElement* e = collection->GetNestedElement(k);
    EXPECT_STREQ(e->GetName(), "DataSet");
    entries.push_back({std::strtod(e->GetAttribute("timestep"), nullptr), e->GetAttribute("file")});
  }
  return entries;
}

vtkSmartPointer<vtkPolyData> read_vtp(const std::filesystem::path& path) {
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName(path.string().c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0u) << path;
  vtkSmartPointer<vtkPolyData> data = reader->GetOutput();
  return data;
}

Vec3 vec3_of(vtkDataArray* array, vtkIdType k) {
  const double* v = array->GetTuple3(k);
  return Vec3(v[0], v[1], v[2]);
}

// The arrays of a frame with their component counts, point data then cell data.
void expect_arrays(vtkPolyData* beam, int A) {
  const std::pair<const char*, int> point_arrays[] = {
      {"s", 1},        {"q_wxyz", 4},          {"d1", 3}, {"d2", 3}, {"d3", 3},
      {"velocity", 3}, {"angular_velocity", 3}};
  for (const auto& [name, components] : point_arrays) {
    vtkDataArray* array = beam->GetPointData()->GetArray(name);
    ASSERT_NE(array, nullptr) << name;
    EXPECT_EQ(array->GetNumberOfComponents(), components) << name;
    EXPECT_EQ(array->GetNumberOfTuples(), A + 1) << name;
    EXPECT_EQ(array->GetDataType(), VTK_DOUBLE) << name;
  }
  for (const char* name : {"strain_Omega", "strain_Gamma", "moment", "force"}) {
    vtkDataArray* array = beam->GetCellData()->GetArray(name);
    ASSERT_NE(array, nullptr) << name;
    EXPECT_EQ(array->GetNumberOfComponents(), 3) << name;
    EXPECT_EQ(array->GetNumberOfTuples(), A) << name;
  }
}

TEST(BeamFrames, FreeFlightFramesMatchTheRecordedField) {
  test::FreeFlight ff;
  ff.J = 7;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const test::TempFolder dir;
  march::FieldRecorder recorder(model.mesh(), true);
  FramesWriter frames(dir.path(), model, mesh::Side::natural, 3);
  ASSERT_TRUE(march::time_march(model, ff.input(), {&recorder, &frames}).completed);
  const mesh::Field& field = recorder.field();
  const int A = ff.A, J = ff.J;

  const std::vector<int> expected = {0, 3, 6, 7};  // j % 3 == 0 and j == J
  const std::vector<PvdEntry> pvd = parse_pvd(dir / "beam.pvd");
  ASSERT_EQ(pvd.size(), expected.size());
  const std::vector<PvdEntry> own = read_pvd(dir / "beam.pvd");
  ASSERT_EQ(own.size(), expected.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    const int j = expected[k];
    EXPECT_EQ(pvd[k].time, model.mesh().t(j));  // 17 digits
    EXPECT_EQ(pvd[k].file, frame_name("beam", j));
    EXPECT_EQ(own[k].time, pvd[k].time);
    EXPECT_EQ(own[k].file, pvd[k].file);
  }
  EXPECT_EQ(frame_name("beam", 7), "frames/beam_000007.vtp");
  EXPECT_FALSE(std::filesystem::exists(dir / "beam.pvd.part"));

  for (const PvdEntry& entry : pvd) {
    const int j = static_cast<int>(std::lround(entry.time / ff.dt));
    const vtkSmartPointer<vtkPolyData> poly = read_vtp(dir / entry.file);
    ASSERT_EQ(poly->GetNumberOfPoints(), A + 1);
    EXPECT_EQ(poly->GetNumberOfLines(), A);
    EXPECT_EQ(poly->GetPoints()->GetDataType(), VTK_DOUBLE);
    expect_arrays(poly, A);
    vtkDataArray* time = poly->GetFieldData()->GetArray("TimeValue");
    ASSERT_NE(time, nullptr);
    ASSERT_EQ(time->GetNumberOfTuples(), 1);
    EXPECT_EQ(time->GetTuple1(0), model.mesh().t(j));

    // The velocity of frame j is that of the step j -> j+1; the last frame (j = J) has xi_{J-1}.
    const int from = j < J ? j : J - 1;
    vtkPointData* pd = poly->GetPointData();
    for (int a = 0; a <= A; ++a) {
      const lie::SE3& g = field(j, a);
      EXPECT_EQ(Vec3(poly->GetPoint(a)), g.r) << "frame " << j << " node " << a;
      EXPECT_EQ(pd->GetArray("s")->GetTuple1(a), (a + 0.5) * ff.ds);
      const double* q = pd->GetArray("q_wxyz")->GetTuple4(a);
      EXPECT_EQ(Vec4(q[0], q[1], q[2], q[3]), g.quat());
      EXPECT_EQ(vec3_of(pd->GetArray("d1"), a), g.R.col(0));
      EXPECT_EQ(vec3_of(pd->GetArray("d2"), a), g.R.col(1));
      EXPECT_EQ(vec3_of(pd->GetArray("d3"), a), g.R.col(2));
      const Vec6 xi = mesh::convected<lie::Se3Cayley>(field(from, a), field(from + 1, a), ff.dt);
      EXPECT_LE((vec3_of(pd->GetArray("angular_velocity"), a) - g.R * xi.head<3>()).norm(),
                1e-15 * (1.0 + xi.norm()));
      EXPECT_LE((vec3_of(pd->GetArray("velocity"), a) - g.R * xi.tail<3>()).norm(),
                1e-15 * (1.0 + xi.norm()));
    }
    vtkCellData* cd = poly->GetCellData();
    for (int a = 0; a < A; ++a) {
      const Vec6 eta = mesh::convected<lie::Se3Cayley>(field(j, a), field(j, a + 1), ff.ds);
      const Vec6 stress = beam.stress(eta);
      EXPECT_EQ(vec3_of(cd->GetArray("strain_Omega"), a), eta.head<3>());
      EXPECT_EQ(vec3_of(cd->GetArray("strain_Gamma"), a), eta.tail<3>());
      EXPECT_EQ(vec3_of(cd->GetArray("moment"), a), stress.head<3>());
      EXPECT_EQ(vec3_of(cd->GetArray("force"), a), stress.tail<3>());
    }
  }
}

// Frame j of a recorded field built as a vtkPolyData and written by VTK's own XML writer (raw
// appended data, 64-bit headers): what BeamFramesWriter wrote through the VTK pipeline before it
// wrote the files directly.
template <class G>
void write_with_vtk(const dcel::DiscreteModel<G>& model, const mesh::Field& field, int j,
                    mesh::Side left, const std::filesystem::path& path) {
  const mesh::SpacetimeMesh& m = model.mesh();
  const int A = m.A();
  const auto array = [](const char* name, int components, vtkIdType tuples) {
    vtkNew<vtkDoubleArray> a;
    a->SetName(name);
    a->SetNumberOfComponents(components);
    a->SetNumberOfTuples(tuples);
    return a;
  };
  const auto set3 = [](vtkDoubleArray* a, vtkIdType k, const Vec3& v) {
    a->SetTuple3(k, v.x(), v.y(), v.z());
  };
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(A + 1);
  vtkNew<vtkCellArray> lines;
  for (vtkIdType a = 0; a < A; ++a) {
    const vtkIdType ids[2] = {a, a + 1};
    lines->InsertNextCell(2, ids);
  }
  auto s = array("s", 1, A + 1), q = array("q_wxyz", 4, A + 1);
  auto d1 = array("d1", 3, A + 1), d2 = array("d2", 3, A + 1), d3 = array("d3", 3, A + 1);
  auto v = array("velocity", 3, A + 1), w = array("angular_velocity", 3, A + 1);
  const int from = j < m.J() ? j : j - 1;  // the last row has the velocity of the step before
  for (int a = 0; a <= A; ++a) {
    const lie::SE3& g = field(j, a);
    points->SetPoint(a, g.r.x(), g.r.y(), g.r.z());
    s->SetValue(a, m.s(a, left));
    const Vec4 quat = g.quat();
    q->SetTuple4(a, quat(0), quat(1), quat(2), quat(3));
    set3(d1, a, g.R.col(0));
    set3(d2, a, g.R.col(1));
    set3(d3, a, g.R.col(2));
    const Vec6 xi = mesh::convected<lie::Se3Cayley>(field(from, a), field(from + 1, a), m.dt());
    set3(w, a, g.R * xi.head<3>());
    set3(v, a, g.R * xi.tail<3>());
  }
  auto Omega = array("strain_Omega", 3, A), Gamma = array("strain_Gamma", 3, A);
  auto moment = array("moment", 3, A), force = array("force", 3, A);
  for (int a = 0; a < A; ++a) {
    const Vec6 eta = mesh::convected<lie::Se3Cayley>(field(j, a), field(j, a + 1), m.ds());
    const Vec6 stress = model.density().stress(eta);
    set3(Omega, a, eta.head<3>());
    set3(Gamma, a, eta.tail<3>());
    set3(moment, a, stress.head<3>());
    set3(force, a, stress.tail<3>());
  }
  auto time = array("TimeValue", 1, 1);
  time->SetValue(0, m.t(j));
  vtkNew<vtkPolyData> beam;
  beam->SetPoints(points);
  beam->SetLines(lines);
  for (vtkDoubleArray* a : {s.Get(), q.Get(), d1.Get(), d2.Get(), d3.Get(), v.Get(), w.Get()})
    beam->GetPointData()->AddArray(a);
  for (vtkDoubleArray* a : {Omega.Get(), Gamma.Get(), moment.Get(), force.Get()})
    beam->GetCellData()->AddArray(a);
  beam->GetFieldData()->AddArray(time);
  vtkNew<vtkXMLPolyDataWriter> writer;
  writer->SetFileName(path.string().c_str());
  writer->SetInputData(beam);
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();
  writer->SetCompressorTypeToNone();
  writer->SetHeaderTypeToUInt64();
  ASSERT_EQ(writer->Write(), 1);
}

// Every array of `data` (point, cell and field data, in order), the points and the lines, bit for
// bit equal to `expected`'s.
void expect_same_bits(vtkPolyData* data, vtkPolyData* expected, const std::string& what) {
  const auto same = [&](vtkDataArray* a, vtkDataArray* b, const std::string& name) {
    ASSERT_NE(a, nullptr) << what << " " << name;
    ASSERT_NE(b, nullptr) << what << " " << name;
    EXPECT_STREQ(a->GetName(), b->GetName()) << what;
    EXPECT_EQ(a->GetDataType(), b->GetDataType()) << what << " " << name;
    ASSERT_EQ(a->GetNumberOfComponents(), b->GetNumberOfComponents()) << what << " " << name;
    ASSERT_EQ(a->GetNumberOfTuples(), b->GetNumberOfTuples()) << what << " " << name;
    for (vtkIdType t = 0; t < a->GetNumberOfTuples(); ++t)
      for (int c = 0; c < a->GetNumberOfComponents(); ++c) {
        const double x = a->GetComponent(t, c), y = b->GetComponent(t, c);
        EXPECT_EQ(std::memcmp(&x, &y, sizeof x), 0)
            << what << " " << name << " tuple " << t << " component " << c << ": " << x << " " << y;
      }
  };
  for (const auto& [ours, theirs] :
       {std::pair<vtkFieldData*, vtkFieldData*>{data->GetPointData(), expected->GetPointData()},
        {data->GetCellData(), expected->GetCellData()},
        {data->GetFieldData(), expected->GetFieldData()}}) {
    ASSERT_EQ(ours->GetNumberOfArrays(), theirs->GetNumberOfArrays()) << what;
    for (int k = 0; k < ours->GetNumberOfArrays(); ++k)
      same(ours->GetArray(k), theirs->GetArray(k), theirs->GetArray(k)->GetName());
  }
  same(data->GetPoints()->GetData(), expected->GetPoints()->GetData(), "points");
  same(data->GetLines()->GetConnectivityArray(), expected->GetLines()->GetConnectivityArray(),
       "connectivity");
  same(data->GetLines()->GetOffsetsArray(), expected->GetLines()->GetOffsetsArray(), "offsets");
  EXPECT_EQ(data->GetNumberOfVerts() + data->GetNumberOfPolys() + data->GetNumberOfStrips(), 0);
}

TEST(BeamFrames, SameArraysAndBitsAsVtksOwnWriter) {
  // free_flight with gravity: every frame written directly equals, read back by VTK, the frame
  // VTK's writer makes of the same vtkPolyData (the writer before the direct one).
  test::FreeFlight ff;
  ff.J = 9;
  const model::BeamDensity beam = test::soft_beam(Vec3(0.0, 0.0, -9.81));
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const test::TempFolder dir;
  march::FieldRecorder recorder(model.mesh(), true);
  FramesWriter frames(dir.path(), model, mesh::Side::natural, 4);
  ASSERT_TRUE(march::time_march(model, ff.input(), {&recorder, &frames}).completed);
  int compared = 0;
  for (const int j : {0, 4, 8, 9}) {
    const std::filesystem::path reference = dir / ("vtk_" + std::to_string(j) + ".vtp");
    write_with_vtk(model, recorder.field(), j, mesh::Side::natural, reference);
    expect_same_bits(read_vtp(dir / frame_name("beam", j)), read_vtp(reference),
                     "frame " + std::to_string(j));
    ++compared;
  }
  EXPECT_EQ(compared, 4);
  EXPECT_EQ(std::filesystem::file_size(dir / frame_name("beam", 4)),
            frame_bytes<lie::SE3>(model.density(), ff.A));
}

TEST(BeamFrames, RigidSpinVelocityAndZeroStress) {
  // rigid_spin of theory §11.2: g_1 = g_0 tau(dt xi), exact solution g_j = g_0 tau(dt xi)^j.
  const int J = 10, A = 6;
  const double dt = 0.005, ds = 0.1;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, mesh::SpacetimeMesh(J, A, dt, ds));
  Vec6 xi;
  xi << 0, 0, 3, 0, 0, 0.3;
  march::TimeMarchInput in;
  for (int a = 0; a <= A; ++a) {
    in.row0.push_back(lie::SE3{Mat3::Identity(), Vec3(0, 0, a * ds)});
    in.row1.push_back(in.row0.back() * lie::Se3Cayley::tau(dt * xi));
  }
  const test::TempFolder dir;
  march::FieldRecorder recorder(model.mesh(), true);
  FramesWriter frames(dir.path(), model, mesh::Side::natural, 5);
  ASSERT_TRUE(march::time_march(model, in, {&recorder, &frames}).completed);

  double velocity_error = 0.0, stress_max = 0.0;
  for (const PvdEntry& entry : parse_pvd(dir / "beam.pvd")) {
    const int j = static_cast<int>(std::lround(entry.time / dt));
    const vtkSmartPointer<vtkPolyData> poly = read_vtp(dir / entry.file);
    ASSERT_EQ(poly->GetNumberOfPoints(), A + 1);
    for (int a = 0; a <= A; ++a) {
      const Mat3& R = recorder.field()(j, a).R;
      const Vec3 v = vec3_of(poly->GetPointData()->GetArray("velocity"), a);
      const Vec3 w = vec3_of(poly->GetPointData()->GetArray("angular_velocity"), a);
      velocity_error = std::max({velocity_error, (v - R * xi.tail<3>()).cwiseAbs().maxCoeff(),
                                 (w - R * xi.head<3>()).cwiseAbs().maxCoeff()});
    }
    for (int a = 0; a < A; ++a)
      for (const char* name : {"moment", "force"})
        stress_max = std::max(
            stress_max, vec3_of(poly->GetCellData()->GetArray(name), a).cwiseAbs().maxCoeff());
  }
  std::printf("[rigid spin frames] velocity error %.2e, max |stress| %.2e N\n", velocity_error,
              stress_max);
  // xi = tau^{-1}(g_j^{-1} g_{j+1}) / dt: round-off of the poses (1e-16 x |r| ~ 1e-16) over dt.
  EXPECT_LE(velocity_error, 1e-12);
  // Straight, unstrained: stress = C (eta - E6) with |C| <= EA = 1000 N and eta - E6 at the
  // round-off of the positions over ds (1e-16 x 0.6 m / 0.1 m ~ 1e-15): bound EA x 1e-14.
  EXPECT_LE(stress_max, 1000.0 * 1e-14);
}

TEST(BeamFrames, StaticArcStrainAndStress) {
  // static_arc of theory §11.2: g_0^a = tau(ds eta)^a, eta = (2,0,0,0,0,1), both ends clamped.
  const int J = 4, A = 10;
  const double dt = 0.005, ds = 0.1;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, mesh::SpacetimeMesh(J, A, dt, ds));
  Vec6 eta_bar;
  eta_bar << 2, 0, 0, 0, 0, 1;
  march::TimeMarchInput in;
  lie::SE3 g;
  for (int a = 0; a <= A; ++a) {
    in.row0.push_back(g);
    g = g * lie::Se3Cayley::tau(ds * eta_bar);
  }
  in.row1 = in.row0;
  in.left = march::SideSpec::clamped(in.row0.front());
  in.right = march::SideSpec::clamped(in.row0.back());
  const test::TempFolder dir;
  FramesWriter frames(dir.path(), model, mesh::Side::prescribed, 1);
  ASSERT_TRUE(march::time_march(model, in, {&frames}).completed);

  const Vec3 moment_expected = beam.stress(eta_bar).head<3>();  // (2 EI, 0, 0)
  EXPECT_NEAR(moment_expected.x(), 2.0 * beam.stiffness()(0), 1e-15);
  const std::vector<PvdEntry> pvd = parse_pvd(dir / "beam.pvd");
  ASSERT_EQ(pvd.size(), static_cast<size_t>(J + 1));
  double strain_error = 0.0, moment_error = 0.0, force_max = 0.0, speed_max = 0.0;
  for (const PvdEntry& entry : pvd) {
    const vtkSmartPointer<vtkPolyData> poly = read_vtp(dir / entry.file);
    EXPECT_EQ(poly->GetPointData()->GetArray("s")->GetTuple1(3), 3 * ds);  // clamped: s = a ds
    vtkCellData* cd = poly->GetCellData();
    for (int a = 0; a < A; ++a) {
      strain_error = std::max(
          {strain_error,
           (vec3_of(cd->GetArray("strain_Omega"), a) - eta_bar.head<3>()).cwiseAbs().maxCoeff(),
           (vec3_of(cd->GetArray("strain_Gamma"), a) - eta_bar.tail<3>()).cwiseAbs().maxCoeff()});
      moment_error =
          std::max(moment_error,
                   (vec3_of(cd->GetArray("moment"), a) - moment_expected).cwiseAbs().maxCoeff());
      force_max = std::max(force_max, vec3_of(cd->GetArray("force"), a).cwiseAbs().maxCoeff());
    }
    for (int a = 0; a <= A; ++a)
      speed_max =
          std::max(speed_max, vec3_of(poly->GetPointData()->GetArray("velocity"), a).norm());
  }
  std::printf("[static arc frames] strain error %.2e, moment error %.2e N m, max |force| %.2e N\n",
              strain_error, moment_error, force_max);
  EXPECT_LE(strain_error, 1e-12);
  EXPECT_LE(moment_error, 1e-12);        // EI = 0.83 N m^2 times the strain error
  EXPECT_LE(force_max, 1000.0 * 1e-12);  // EA = 1000 N times the strain error
  EXPECT_LE(speed_max, 1e-12);
}

TEST(BeamFrames, InterruptedRunLeavesAReadableIndex) {
  const mesh::SpacetimeMesh m(10, 3, 0.1, 0.25);
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, m);
  const test::TempFolder dir;
  std::vector<lie::SE3> row(4);
  FramesWriter frames(dir.path(), model, mesh::Side::natural, 2);
  for (int j = 0; j <= 4; ++j) {
    for (int a = 0; a <= 3; ++a) row[a].r = Vec3(0.01 * j, 0, 0.25 * a);
    frames.slab(j, row, {});
  }
  // Row 4 waits for row 5 (its velocity): the index lists rows 0 and 2.
  std::vector<PvdEntry> pvd = parse_pvd(dir / "beam.pvd");
  ASSERT_EQ(pvd.size(), 2u);
  EXPECT_EQ(pvd[1].file, "frames/beam_000002.vtp");
  EXPECT_TRUE(std::filesystem::exists(dir / "frames/beam_000002.vtp"));
  EXPECT_FALSE(std::filesystem::exists(dir / "frames/beam_000004.vtp"));
  frames.finish();  // the march stopped at row 4: its frame is written with xi_3
  pvd = parse_pvd(dir / "beam.pvd");
  ASSERT_EQ(pvd.size(), 3u);
  const vtkSmartPointer<vtkPolyData> last = read_vtp(dir / pvd[2].file);
  EXPECT_NEAR(vec3_of(last->GetPointData()->GetArray("velocity"), 1).x(), 0.1, 1e-14);
}

TEST(BeamFrames, IoErrorWhenTheFramesFolderCannotBeCreated) {
  const test::TempFolder dir;
  std::ofstream(dir / "run") << "a file, not a folder";
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{},
                                  mesh::SpacetimeMesh(2, 2, 0.1, 0.1));
  const std::string message = test::io_error_message(
      [&] { FramesWriter frames(dir / "run", model, mesh::Side::natural, 1); });
  EXPECT_TRUE(test::contains(message, (dir / "run" / "frames").string())) << message;
}

// A density that says nothing about its outputs (a linear string on R^3: T = m |xi|^2 / 2,
// V = k |eta - e1|^2 / 2, no potential): the frames of any theory (io/frames.hpp) show the
// group's point data (R^3: velocity) and the default segment quantities, "strain" and "stress"
// (model::Density::segment_quantities), in frames/field_NNNNNN.vtp and field.pvd: a new density
// gets its frames without a line in io/.
class LinearString final : public model::Density<lie::Rn<3>> {
 public:
  double kinetic_energy(const Vec3& xi) const override { return 0.5 * m * xi.squaredNorm(); }
  Vec3 kinetic_momentum(const Vec3& xi) const override { return m * xi; }
  Mat3 kinetic_hessian(const Vec3&) const override { return m * Mat3::Identity(); }
  double strain_energy(const Vec3& eta) const override {
    return 0.5 * k * (eta - Vec3::UnitX()).squaredNorm();
  }
  Vec3 stress(const Vec3& eta) const override { return k * (eta - Vec3::UnitX()); }
  Mat3 stress_hessian(const Vec3&) const override { return k * Mat3::Identity(); }
  Vec3 reference_strain() const override { return Vec3::UnitX(); }
  double potential(const Vec3&) const override { return 0.0; }
  Vec3 potential_force(const Vec3&) const override { return Vec3::Zero(); }
  bool has_potential() const override { return false; }
  model::WaveSpeeds wave_speeds() const override { return {std::sqrt(k / m), 0.0, 0.0}; }
  double m = 2.0, k = 50.0;
};

TEST(Frames, ADensityWithoutOutputsGetsTheDefaultQuantities) {
  const LinearString string;
  const model::Loads loads;
  const double dt = 0.1, ds = 0.25;
  const dcel::DiscreteModel<lie::Rn<3>> model(string, loads, mesh::SpacetimeMesh(1, 2, dt, ds));
  const std::vector<Vec3> row0 = {Vec3(0, 0, 0), Vec3(0.3, 0, 0), Vec3(0.5, 0.1, 0)};
  const std::vector<Vec3> row1 = {Vec3(0, 0.01, 0), Vec3(0.3, 0.02, 0), Vec3(0.5, 0.1, 0.03)};
  const test::TempFolder dir;
  {
    FramesWriter frames(dir.path(), model, mesh::Side::prescribed, 1);
    frames.slab(0, row0, {});
    frames.slab(1, row1, {});
    frames.finish();
  }
  const std::vector<PvdEntry> pvd = parse_pvd(dir / "field.pvd");
  ASSERT_EQ(pvd.size(), 2u);
  EXPECT_EQ(pvd[0].file, "frames/field_000000.vtp");
  const vtkSmartPointer<vtkPolyData> poly = read_vtp(dir / pvd[0].file);
  ASSERT_EQ(poly->GetNumberOfPoints(), 3);
  ASSERT_EQ(poly->GetNumberOfCells(), 2);
  vtkPointData* pd = poly->GetPointData();
  vtkCellData* cd = poly->GetCellData();
  ASSERT_EQ(pd->GetNumberOfArrays(), 2);  // s, velocity
  ASSERT_EQ(cd->GetNumberOfArrays(), 2);  // strain, stress
  for (const char* name : {"strain", "stress"})
    ASSERT_EQ(cd->GetArray(name)->GetNumberOfComponents(), 3) << name;
  for (int a = 0; a <= 2; ++a) {
    EXPECT_EQ(Vec3(poly->GetPoint(a)), row0[a]);
    EXPECT_EQ(pd->GetArray("s")->GetTuple1(a), a * ds);
    EXPECT_EQ(vec3_of(pd->GetArray("velocity"), a), Vec3((row1[a] - row0[a]) / dt));
  }
  for (int a = 0; a < 2; ++a) {
    const Vec3 eta = (row0[a + 1] - row0[a]) / ds;
    EXPECT_EQ(vec3_of(cd->GetArray("strain"), a), eta);
    EXPECT_EQ(vec3_of(cd->GetArray("stress"), a), string.stress(eta));
  }
  EXPECT_EQ(std::filesystem::file_size(dir / pvd[1].file), frame_bytes<Vec3>(string, 2));
}

}  // namespace
}  // namespace field::io
