#include "libfield/io/beam_frames.hpp"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataWriter.h>

#include <cstdio>
#include <system_error>

#include "libfield/core/error.hpp"
#include "libfield/io/vtk_file.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::io {

namespace {
vtkNew<vtkDoubleArray> new_array(const char* name, int components, vtkIdType tuples) {
  vtkNew<vtkDoubleArray> array;
  array->SetName(name);
  array->SetNumberOfComponents(components);
  array->SetNumberOfTuples(tuples);
  return array;
}

void set3(vtkDoubleArray* array, vtkIdType k, const Vec3& v) {
  array->SetTuple3(k, v.x(), v.y(), v.z());
}
}  // namespace

BeamFramesWriter::BeamFramesWriter(std::filesystem::path dir, const dcel::DiscreteModel& model,
                                   mesh::Side left, int stride)
    : dir_(std::move(dir)),
      model_(model),
      left_(left),
      selection_(model.mesh().J(), stride),
      index_(dir_ / "beam.pvd") {
  std::error_code ec;
  std::filesystem::create_directories(dir_ / "frames", ec);
  if (ec)
    throw IoError("cannot create the folder '" + (dir_ / "frames").string() + "': " + ec.message() +
                  "; check that the run folder is writable");
}

std::string BeamFramesWriter::frame_name(int j) {
  char name[40];
  std::snprintf(name, sizeof name, "frames/beam_%06d.vtp", j);
  return name;
}

void BeamFramesWriter::slab(int j, const std::vector<lie::SE3>& row, const march::SlabStats&) {
  const mesh::SpacetimeMesh& mesh = model_.mesh();
  FIELD_CHECK(!finished_, "beam frames: row " << j << " after finish()");
  FIELD_CHECK(j == last_j_ + 1, "beam frames: rows must come in order 0, 1, ...: got row "
                                    << j << " after row " << last_j_);
  FIELD_CHECK(j <= mesh.J(),
              "beam frames: row " << j << " outside the mesh (J = " << mesh.J() << ")");
  FIELD_CHECK(static_cast<int>(row.size()) == mesh.A() + 1,
              "beam frames: row " << j << " has " << row.size() << " poses, expected A+1 = "
                                  << mesh.A() + 1 << " (the writer takes time rows)");
  if (last_j_ >= 0 && selection_.selects(last_j_)) write_frame(last_j_, last_, &last_, &row);
  before_.swap(last_);
  last_ = row;
  last_j_ = j;
}

void BeamFramesWriter::finish() {
  if (finished_) return;
  finished_ = true;
  if (last_j_ < 0) return;
  // The last row has no successor: its velocity is that of the previous step, xi_{j-1}.
  if (last_j_ >= 1)
    write_frame(last_j_, last_, &before_, &last_);
  else
    write_frame(last_j_, last_, nullptr, nullptr);
}

void BeamFramesWriter::write_frame(int j, const std::vector<lie::SE3>& row,
                                   const std::vector<lie::SE3>* from,
                                   const std::vector<lie::SE3>* to) {
  const mesh::SpacetimeMesh& mesh = model_.mesh();
  const model::Density& density = model_.density();
  const int A = mesh.A();
  const vtkIdType n = A + 1;

  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(n);
  vtkNew<vtkCellArray> lines;
  for (vtkIdType a = 0; a < A; ++a) {
    const vtkIdType ids[2] = {a, a + 1};
    lines->InsertNextCell(2, ids);
  }

  auto s = new_array("s", 1, n);
  auto q = new_array("q_wxyz", 4, n);
  auto d1 = new_array("d1", 3, n), d2 = new_array("d2", 3, n), d3 = new_array("d3", 3, n);
  auto velocity = new_array("velocity", 3, n);
  auto angular_velocity = new_array("angular_velocity", 3, n);
  for (int a = 0; a <= A; ++a) {
    const lie::SE3& g = row[static_cast<size_t>(a)];
    points->SetPoint(a, g.r.x(), g.r.y(), g.r.z());
    s->SetValue(a, mesh.s(a, left_));
    const Vec4 quat = g.quat();
    q->SetTuple4(a, quat(0), quat(1), quat(2), quat(3));
    set3(d1, a, g.R.col(0));
    set3(d2, a, g.R.col(1));
    set3(d3, a, g.R.col(2));
    // Body velocity xi_j^a = tau^{-1}((g_j^a)^{-1} g_{j+1}^a)/dt (SPEC [S4.1]), shown in space.
    Vec6 xi = Vec6::Zero();
    if (from != nullptr && to != nullptr)
      xi = mesh::convected(model_.tau(), (*from)[static_cast<size_t>(a)],
                           (*to)[static_cast<size_t>(a)], mesh.dt());
    // Spatial velocities Lambda omega, Lambda gamma of the body velocity xi (SPEC [S1], left
    // trivialisation; xi of [S4.1]).
    set3(angular_velocity, a, g.R * xi.head<3>());
    set3(velocity, a, g.R * xi.tail<3>());
  }

  auto Omega = new_array("strain_Omega", 3, A), Gamma = new_array("strain_Gamma", 3, A);
  auto moment = new_array("moment", 3, A), force = new_array("force", 3, A);
  // Segment strain eta_j^a = tau^{-1}((g_j^a)^{-1} g_j^{a+1})/ds (SPEC [S4.1]) and the body stress
  // resultants C (eta - E6) = (moment, force) (SPEC [S3]).
  for (int a = 0; a < A; ++a) {
    const Vec6 eta = mesh::convected(model_.tau(), row[static_cast<size_t>(a)],
                                     row[static_cast<size_t>(a) + 1], mesh.ds());
    const Vec6 stress = density.stress(eta);
    set3(Omega, a, eta.head<3>());
    set3(Gamma, a, eta.tail<3>());
    set3(moment, a, stress.head<3>());
    set3(force, a, stress.tail<3>());
  }

  auto time = new_array("TimeValue", 1, 1);
  time->SetValue(0, mesh.t(j));

  vtkNew<vtkPolyData> beam;
  beam->SetPoints(points);
  beam->SetLines(lines);
  for (vtkDoubleArray* array :
       {s.Get(), q.Get(), d1.Get(), d2.Get(), d3.Get(), velocity.Get(), angular_velocity.Get()})
    beam->GetPointData()->AddArray(array);
  for (vtkDoubleArray* array : {Omega.Get(), Gamma.Get(), moment.Get(), force.Get()})
    beam->GetCellData()->AddArray(array);
  beam->GetFieldData()->AddArray(time);

  const std::string name = frame_name(j);
  vtkNew<vtkXMLPolyDataWriter> writer;
  write_vtk_xml(*writer, *beam, dir_ / name);  // the frame first, then the index
  index_.add(mesh.t(j), name);
}

}  // namespace field::io
