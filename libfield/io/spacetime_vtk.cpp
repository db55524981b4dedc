#include "libfield/io/spacetime_vtk.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <system_error>

#include "libfield/core/error.hpp"
#include "libfield/dcel/residual.hpp"
#include "libfield/io/atomic_file.hpp"
#include "libfield/io/vtk_file.hpp"
#include "libfield/lie/rn.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/noether/balance.hpp"

namespace field::io {

namespace {

template <class V>
double norm_inf(const V& v) {
  return v.cwiseAbs().maxCoeff();
}

// An output row in the temporary file: t_j, then the node values of the row, array after array,
// each with A+1 entries (docs/output-format.md): position (3), q_wxyz (4; none for a field
// without frames, the cable on R^3), energy density, |G_n|_inf, |Res|_inf, scale_R (float64),
// then node_kind (int32).
enum Field { kPosition, kQuat, kEnergy, kG, kRes, kScaleR, kKind, kFields };
const int kComponents[kFields] = {3, 4, 1, 1, 1, 1, 1};

int components(int f, bool frames) {
  return f == kQuat && !frames ? 0 : kComponents[f];
}

// Byte offset of field f in a row record of n nodes (after t_j).
std::uint64_t field_offset(int f, std::uint64_t n, bool frames) {
  std::uint64_t offset = sizeof(double);
  for (int k = 0; k < f; ++k) offset += components(k, frames) * n * sizeof(double);
  return offset;
}

std::uint64_t record_bytes(std::uint64_t n, bool frames) {
  return field_offset(kKind, n, frames) + n * sizeof(std::int32_t);
}

// The XML of a grid of `rows` output rows of n nodes (2 (rows-1) (n-1) triangles).
VtkAppendedLayout grid_layout(std::uint64_t rows, std::uint64_t n, bool frames) {
  const std::uint64_t points = rows * n, cells = rows > 0 ? 2 * (rows - 1) * (n - 1) : 0;
  VtkAppendedLayout layout;
  layout.line(4, "<Piece NumberOfPoints=\"" + std::to_string(points) + "\" NumberOfCells=\"" +
                     std::to_string(cells) + "\">");
  layout.line(6, "<PointData>");
  layout.array("Float64", "position", 3, 3 * points, 8);
  if (frames) layout.array("Float64", "q_wxyz", 4, 4 * points, 8);
  layout.array("Float64", "energy_density", 1, points, 8);
  layout.array("Float64", "dcel_residual", 1, points, 8);
  layout.array("Float64", "noether_defect", 1, points, 8);
  layout.array("Int32", "node_kind", 1, points, 8);
  layout.line(6, "</PointData>");
  layout.line(6, "<CellData>");
  layout.array("Int32", "triangle_kind", 1, cells, 8);
  layout.line(6, "</CellData>");
  layout.line(6, "<Points>");
  layout.array("Float64", "Points", 3, 3 * points, 8);
  layout.line(6, "</Points>");
  layout.line(6, "<Cells>");
  layout.array("Int64", "connectivity", 1, 3 * cells, 8);
  layout.array("Int64", "offsets", 1, cells, 8);
  layout.array("UInt8", "types", 1, cells, 8);
  layout.line(6, "</Cells>");
  layout.line(4, "</Piece>");
  return layout;
}

template <class T>
void append_values(std::string& out, const std::vector<T>& values) {
  append_raw(out, values.data(), values.size() * sizeof(T));
}

}  // namespace

std::uint64_t spacetime_file_bytes(long long rows, int A, bool frames) {
  const VtkAppendedLayout layout =
      grid_layout(static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(A) + 1, frames);
  return vtk_file_begin("UnstructuredGrid").size() + layout.xml().size() +
         vtk_appended_begin("UnstructuredGrid").size() + layout.appended_bytes() +
         vtk_file_end().size();
}

template <class Group>
SpacetimeWriter<Group>::SpacetimeWriter(std::filesystem::path path,
                                        const dcel::DiscreteModel<Group>& model,
                                        const mesh::Boundary& boundary, int stride)
    : path_(std::move(path)),
      model_(model),
      boundary_(boundary),
      selection_(model.mesh().J(), stride),
      window_(model.mesh(), 3),
      rows_path_(path_.string() + ".rows.part"),
      column_N_(static_cast<size_t>(model.mesh().A()), 0.0) {
  errno = 0;
  rows_out_.open(rows_path_, std::ios::binary | std::ios::trunc);
  if (!rows_out_)
    throw IoError("cannot open '" + rows_path_.string() + "' for writing (the rows of '" +
                  path_.string() + "'): " + last_os_error() +
                  "; check that the output folder exists and is writable");
}

template <class Group>
SpacetimeWriter<Group>::~SpacetimeWriter() {
  if (rows_out_.is_open()) rows_out_.close();
  std::error_code ignored;
  std::filesystem::remove(rows_path_, ignored);  // the rows are in the .vtu, or of no use
}

template <class Group>
std::size_t SpacetimeWriter<Group>::memory_bytes() const {
  const size_t n = static_cast<size_t>(model_.mesh().A()) + 1;
  return static_cast<size_t>(window_.capacity()) * n * sizeof(Element) +
         record_.capacity() * sizeof(double) + kinds_.capacity() * sizeof(std::int32_t) +
         column_N_.capacity() * sizeof(double);
}

template <class Group>
void SpacetimeWriter<Group>::slab(int j, const std::vector<Element>& row, const march::SlabStats&) {
  FIELD_CHECK(!finished_, "spacetime.vtu: row " << j << " after finish()");
  window_.push(j, row);  // checks the order and the size
  if (j >= 1 && selection_.selects(j - 1)) process_row(j - 1, true);
}

template <class Group>
void SpacetimeWriter<Group>::finish() {
  if (finished_) return;
  finished_ = true;
  const int last = window_.last_row();
  if (last >= 0) process_row(last, last == model_.mesh().J());
  write();
}

template <class Group>
void SpacetimeWriter<Group>::process_row(int j, bool complete) {
  const mesh::SpacetimeMesh& mesh = model_.mesh();
  const int A = mesh.A();
  const size_t n = static_cast<size_t>(A) + 1;
  record_.assign(field_offset(kKind, n, kFrames) / sizeof(double),
                 0.0);  // zeros: for incomplete rows
  double* const values = record_.data();
  values[0] = mesh.t(j);
  double* const position = values + field_offset(kPosition, n, kFrames) / sizeof(double);
  [[maybe_unused]] double* const quat = values + field_offset(kQuat, n, kFrames) / sizeof(double);
  double* const energy = values + field_offset(kEnergy, n, kFrames) / sizeof(double);
  double* const G = values + field_offset(kG, n, kFrames) / sizeof(double);
  double* const res = values + field_offset(kRes, n, kFrames) / sizeof(double);
  double* const scale_R = values + field_offset(kScaleR, n, kFrames) / sizeof(double);
  kinds_.resize(n);
  for (int a = 0; a <= A; ++a) {
    const Element& g = window_(j, a);
    if constexpr (kFrames) {
      for (int c = 0; c < 3; ++c) position[3 * a + c] = g.r(c);
      const Vec4 q = g.quat();
      for (int c = 0; c < 4; ++c) quat[4 * a + c] = q(c);
    } else {  // a point of R^3 (the cable, theory §1.8)
      for (int c = 0; c < 3; ++c) position[3 * a + c] = g(c);
    }
    kinds_[a] = static_cast<std::int32_t>(mesh.kind(j, a, boundary_));
  }
  if (complete) {
    if (mesh.has_triangle(j, 0)) {
      // Terms of scale_glob from the triangles of row j (theory §7.2) and the energy density.
      double sum_M = 0.0;
      for (int a = 0; a < A; ++a) {
        const noether::TriangleMapsOf<Group> t = noether::triangle_maps(model_, window_, j, a);
        sum_M += norm_inf(t.M);
        column_N_[a] += norm_inf(t.N);
        const Element& g = window_(j, a);
        const lie::AlgebraOf<Group> xi = mesh::convected<Group>(g, window_(j + 1, a), mesh.dt());
        const lie::AlgebraOf<Group> eta = mesh::convected<Group>(g, window_(j, a + 1), mesh.ds());
        // Energy density at v1 of triangle (j, a), T + V + Pi (theory §8); its row sum is E_j up
        // to the strain-energy average: ds sum_a e = E_j - ds/2 sum_a (V_{j+1} - V_j)
        // (docs/output-format.md).
        const auto& density = model_.density(a);  // column a's (theory §1.6)
        energy[a] = density.kinetic_energy(xi) + density.strain_energy(eta) + density.potential(g);
      }
      time_scale_ = std::max(time_scale_, mesh.ds() * sum_M);
    }
    for (int a = 0; a <= A; ++a) {
      if (!mesh.is_equation_node(j, a, boundary_)) continue;
      const dcel::NodeResidualOf<Group> r = dcel::node_residual(model_, window_, j, a);
      max_scale_ = std::max(max_scale_, r.scale);
      G[a] = norm_inf(r.G);
      const noether::BalanceResultOf<Group> b = noether::node_balance(model_, window_, j, a);
      res[a] = norm_inf(b.residual);
      scale_R[a] = b.scale_R;
    }
  }
  // The row goes to the temporary file: memory O(A), whatever the number of rows.
  errno = 0;
  rows_out_.write(reinterpret_cast<const char*>(values),
                  static_cast<std::streamsize>(field_offset(kKind, n, kFrames)));
  rows_out_.write(reinterpret_cast<const char*>(kinds_.data()),
                  static_cast<std::streamsize>(n * sizeof(std::int32_t)));
  if (!rows_out_)
    throw IoError("cannot write row " + std::to_string(j) + " to '" + rows_path_.string() +
                  "' (the rows of '" + path_.string() + "'): " + last_os_error() +
                  "; check the free space and the permissions of the folder");
  ++rows_;
}

template <class Group>
void SpacetimeWriter<Group>::write() {
  const mesh::SpacetimeMesh& mesh = model_.mesh();
  const int A = mesh.A();
  const std::uint64_t n = static_cast<std::uint64_t>(A) + 1;
  const std::uint64_t rows = static_cast<std::uint64_t>(rows_);
  const std::uint64_t record = record_bytes(n, kFrames);

  errno = 0;
  rows_out_.close();
  if (!rows_out_)
    throw IoError("cannot write '" + rows_path_.string() + "' (the rows of '" + path_.string() +
                  "'): " + last_os_error() +
                  "; check the free space and the permissions of the folder");
  std::ifstream in(rows_path_, std::ios::binary);
  if (!in)
    throw IoError("cannot read back '" + rows_path_.string() + "' (the rows of '" + path_.string() +
                  "'): " + last_os_error());

  double scale_glob = time_scale_;
  for (const double sum : column_N_) scale_glob = std::max(scale_glob, mesh.dt() * sum);

  const VtkAppendedLayout layout = grid_layout(rows, n, kFrames);
  std::string chunk;  // one row of one array at a time: memory O(A)
  std::vector<double> a_values, b_values;
  const auto read = [&](std::uint64_t k, int f, std::vector<double>& to) {
    to.resize(components(f, kFrames) * n);
    in.seekg(static_cast<std::streamoff>(k * record + field_offset(f, n, kFrames)));
    in.read(reinterpret_cast<char*>(to.data()), static_cast<std::streamsize>(to.size() * 8));
    if (!in)
      throw IoError("cannot read back '" + rows_path_.string() + "' (the rows of '" +
                    path_.string() + "'): " + last_os_error());
  };
  const auto block = [&](std::ostream& out, const char* type, std::uint64_t values) {
    chunk.clear();
    append_block_header(chunk, values * VtkAppendedLayout::size_of(type));
    out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    chunk.clear();
  };
  const auto put = [&](std::ostream& out) {
    out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    chunk.clear();
  };

  write_file_atomically(path_, [&](std::ostream& out) {
    out << vtk_file_begin("UnstructuredGrid") << layout.xml()
        << vtk_appended_begin("UnstructuredGrid");
    const std::uint64_t points = rows * n, cells = rows > 0 ? 2 * (rows - 1) * (n - 1) : 0;
    // Point data: position, q_wxyz (with frames), energy_density as stored.
    for (const int f : {kPosition, kQuat, kEnergy}) {
      if (components(f, kFrames) == 0) continue;
      block(out, "Float64", components(f, kFrames) * points);
      for (std::uint64_t k = 0; k < rows; ++k) {
        read(k, f, a_values);
        append_values(chunk, a_values);
        put(out);
      }
    }
    // dcel_residual: |G_n| over the field's scale (theory §4).
    block(out, "Float64", points);
    for (std::uint64_t k = 0; k < rows; ++k) {
      read(k, kG, a_values);
      for (double& v : a_values) v = max_scale_ > 0.0 ? v / max_scale_ : 0.0;
      append_values(chunk, a_values);
      put(out);
    }
    // noether_defect: the Noether defect of the node's rectangle over max(scale_R, scale_glob)
    // (theory §7.2).
    block(out, "Float64", points);
    for (std::uint64_t k = 0; k < rows; ++k) {
      read(k, kRes, a_values);
      read(k, kScaleR, b_values);
      for (std::uint64_t a = 0; a < n; ++a) {
        const double scale = std::max(b_values[a], scale_glob);
        a_values[a] = scale > 0.0 ? a_values[a] / scale : 0.0;
      }
      append_values(chunk, a_values);
      put(out);
    }
    // node_kind (int32).
    block(out, "Int32", points);
    for (std::uint64_t k = 0; k < rows; ++k) {
      kinds_.resize(n);
      in.seekg(static_cast<std::streamoff>(k * record + field_offset(kKind, n, kFrames)));
      in.read(reinterpret_cast<char*>(kinds_.data()),
              static_cast<std::streamsize>(n * sizeof(std::int32_t)));
      if (!in)
        throw IoError("cannot read back '" + rows_path_.string() + "' (the rows of '" +
                      path_.string() + "'): " + last_os_error());
      append_values(chunk, kinds_);
      put(out);
    }
    // triangle_kind: 0 for the theory's triangle, 1 for the complementary one, cell after cell.
    block(out, "Int32", cells);
    for (std::uint64_t k = 0; k + 1 < rows; ++k) {
      kinds_.resize(2 * (n - 1));
      for (std::uint64_t c = 0; c < kinds_.size(); ++c)
        kinds_[c] = static_cast<std::int32_t>(c % 2);
      append_values(chunk, kinds_);
      put(out);
    }
    // Points (t_j, s_a, 0).
    block(out, "Float64", 3 * points);
    double t = 0.0;
    for (std::uint64_t k = 0; k < rows; ++k) {
      in.seekg(static_cast<std::streamoff>(k * record));
      in.read(reinterpret_cast<char*>(&t), sizeof t);
      if (!in)
        throw IoError("cannot read back '" + rows_path_.string() + "' (the rows of '" +
                      path_.string() + "'): " + last_os_error());
      a_values.resize(3 * n);
      for (int a = 0; a <= A; ++a) {
        a_values[3 * a] = t;
        a_values[3 * a + 1] = mesh.s(a, boundary_.left);
        a_values[3 * a + 2] = 0.0;
      }
      append_values(chunk, a_values);
      put(out);
    }
    // Cells: for the cell (k, a) of the grid of output rows, the triangles (j_k, a),
    // (j_k+1, a), (j_k, a+1) and (j_k+1, a), (j_k+1, a+1), (j_k, a+1) (point ids k n + a).
    block(out, "Int64", 3 * cells);
    std::vector<std::int64_t> ids;
    for (std::uint64_t k = 0; k + 1 < rows; ++k) {
      ids.clear();
      for (std::uint64_t a = 0; a + 1 < n; ++a) {
        const std::int64_t v = static_cast<std::int64_t>(k * n + a), up = v + n;
        ids.insert(ids.end(), {v, up, v + 1, up, up + 1, v + 1});
      }
      append_values(chunk, ids);
      put(out);
    }
    block(out, "Int64", cells);
    for (std::uint64_t k = 0; k + 1 < rows; ++k) {
      ids.clear();
      for (std::uint64_t c = 2 * k * (n - 1); c < 2 * (k + 1) * (n - 1); ++c)
        ids.push_back(static_cast<std::int64_t>(3 * (c + 1)));
      append_values(chunk, ids);
      put(out);
    }
    block(out, "UInt8", cells);
    for (std::uint64_t k = 0; k + 1 < rows; ++k) {
      chunk.assign(2 * (n - 1), static_cast<char>(5));  // VTK_TRIANGLE
      put(out);
    }
    out << vtk_file_end();
  });
  in.close();
  std::error_code ignored;
  std::filesystem::remove(rows_path_, ignored);
}

#define FIELD_INSTANTIATE(G) template class SpacetimeWriter<G>;
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
FIELD_INSTANTIATE(lie::Rn<3>)
#undef FIELD_INSTANTIATE

}  // namespace field::io
