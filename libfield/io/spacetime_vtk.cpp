#include "libfield/io/spacetime_vtk.hpp"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <algorithm>

#include "libfield/core/error.hpp"
#include "libfield/dcel/residual.hpp"
#include "libfield/io/vtk_file.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/noether/balance.hpp"

namespace field::io {

namespace {
double norm_inf(const Vec6& v) {
  return v.cwiseAbs().maxCoeff();
}
}  // namespace

SpacetimeWriter::SpacetimeWriter(std::filesystem::path path, const dcel::DiscreteModel& model,
                                 const mesh::Boundary& boundary, int stride)
    : path_(std::move(path)),
      model_(model),
      boundary_(boundary),
      selection_(model.mesh().J(), stride),
      window_(model.mesh(), 3),
      column_N_(static_cast<size_t>(model.mesh().A()), 0.0) {}

void SpacetimeWriter::slab(int j, const std::vector<lie::SE3>& row, const march::SlabStats&) {
  FIELD_CHECK(!finished_, "spacetime.vtu: row " << j << " after finish()");
  window_.push(j, row);  // checks the order and the size
  if (j >= 1 && selection_.selects(j - 1)) process_row(j - 1, true);
}

void SpacetimeWriter::finish() {
  if (finished_) return;
  finished_ = true;
  const int last = window_.last_row();
  if (last >= 0) process_row(last, last == model_.mesh().J());
  write();
}

void SpacetimeWriter::process_row(int j, bool complete) {
  const mesh::SpacetimeMesh& mesh = model_.mesh();
  const model::Density& density = model_.density();
  const int A = mesh.A();
  OutputRow out;
  out.j = j;
  out.g = window_.row(j);
  out.kind.resize(A + 1);
  out.energy.assign(A + 1, 0.0);
  out.G.assign(A + 1, 0.0);
  out.res.assign(A + 1, 0.0);
  out.scale_R.assign(A + 1, 0.0);
  for (int a = 0; a <= A; ++a) out.kind[a] = static_cast<int>(mesh.kind(j, a, boundary_));
  if (complete) {
    if (mesh.has_triangle(j, 0)) {
      // Terms of scale_glob from the triangles of row j (SPEC [S8.2]) and the energy density.
      double sum_M = 0.0;
      for (int a = 0; a < A; ++a) {
        const noether::TriangleMaps t = noether::triangle_maps(model_, window_, j, a);
        sum_M += norm_inf(t.M);
        column_N_[a] += norm_inf(t.N);
        const lie::SE3& g = window_(j, a);
        const Vec6 xi = mesh::convected(model_.tau(), g, window_(j + 1, a), mesh.dt());
        const Vec6 eta = mesh::convected(model_.tau(), g, window_(j, a + 1), mesh.ds());
        // Energy density at v1 of triangle (j, a), T + V + Pi (SPEC [S9]); its row sum is E_j up
        // to the strain-energy average: ds sum_a e = E_j - ds/2 sum_a (V_{j+1} - V_j)
        // (docs/output-format.md).
        out.energy[a] =
            density.kinetic_energy(xi) + density.strain_energy(eta) + density.potential(g);
      }
      time_scale_ = std::max(time_scale_, mesh.ds() * sum_M);
    }
    for (int a = 0; a <= A; ++a) {
      if (!mesh.is_equation_node(j, a, boundary_)) continue;
      const dcel::NodeResidual r = dcel::node_residual(model_, window_, j, a);
      max_scale_ = std::max(max_scale_, r.scale);
      out.G[a] = norm_inf(r.G);
      const noether::BalanceResult b = noether::node_balance(model_, window_, j, a);
      out.res[a] = norm_inf(b.residual);
      out.scale_R[a] = b.scale_R;
    }
  }
  rows_.push_back(std::move(out));
}

void SpacetimeWriter::write() const {
  const mesh::SpacetimeMesh& mesh = model_.mesh();
  const int A = mesh.A();
  const vtkIdType per_row = A + 1;
  const vtkIdType n = static_cast<vtkIdType>(rows_.size()) * per_row;

  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(n);
  const auto new_array = [n](const char* name, int components) {
    vtkNew<vtkDoubleArray> array;
    array->SetName(name);
    array->SetNumberOfComponents(components);
    array->SetNumberOfTuples(n);
    return array;
  };
  auto position = new_array("position", 3);
  auto q = new_array("q_wxyz", 4);
  auto energy = new_array("energy_density", 1);
  auto residual = new_array("dcel_residual", 1);
  auto defect = new_array("noether_defect", 1);
  vtkNew<vtkIntArray> kind;
  kind->SetName("node_kind");
  kind->SetNumberOfTuples(n);

  double scale_glob = time_scale_;
  for (const double sum : column_N_) scale_glob = std::max(scale_glob, mesh.dt() * sum);

  for (size_t k = 0; k < rows_.size(); ++k) {
    const OutputRow& row = rows_[k];
    for (int a = 0; a <= A; ++a) {
      const vtkIdType p = static_cast<vtkIdType>(k) * per_row + a;
      const lie::SE3& g = row.g[static_cast<size_t>(a)];
      points->SetPoint(p, mesh.t(row.j), mesh.s(a, boundary_.left), 0.0);
      position->SetTuple3(p, g.r.x(), g.r.y(), g.r.z());
      const Vec4 quat = g.quat();
      q->SetTuple4(p, quat(0), quat(1), quat(2), quat(3));
      kind->SetValue(p, row.kind[a]);
      energy->SetValue(p, row.energy[a]);
      // |G_n| over the field's scale (SPEC [S5]); the Noether defect of the node's rectangle over
      // max(scale_R, scale_glob) (SPEC [S8.2]).
      residual->SetValue(p, max_scale_ > 0.0 ? row.G[a] / max_scale_ : 0.0);
      const double scale = std::max(row.scale_R[a], scale_glob);
      defect->SetValue(p, scale > 0.0 ? row.res[a] / scale : 0.0);
    }
  }

  vtkNew<vtkCellArray> triangles;
  vtkNew<vtkIntArray> triangle_kind;
  triangle_kind->SetName("triangle_kind");
  for (size_t k = 0; k + 1 < rows_.size(); ++k)
    for (int a = 0; a < A; ++a) {
      const vtkIdType v = static_cast<vtkIdType>(k) * per_row + a;  // (j_k, a)
      const vtkIdType lagrangian[3] = {v, v + per_row, v + 1};
      const vtkIdType complementary[3] = {v + per_row, v + per_row + 1, v + 1};
      triangles->InsertNextCell(3, lagrangian);
      triangle_kind->InsertNextValue(0);
      triangles->InsertNextCell(3, complementary);
      triangle_kind->InsertNextValue(1);
    }

  vtkNew<vtkUnstructuredGrid> grid;
  grid->SetPoints(points);
  grid->SetCells(VTK_TRIANGLE, triangles);
  for (vtkDoubleArray* array :
       {position.Get(), q.Get(), energy.Get(), residual.Get(), defect.Get()})
    grid->GetPointData()->AddArray(array);
  grid->GetPointData()->AddArray(kind);
  grid->GetCellData()->AddArray(triangle_kind);

  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  write_vtk_xml(*writer, *grid, path_);
}

}  // namespace field::io
