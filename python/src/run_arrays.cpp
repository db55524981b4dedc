#include "python/src/run_arrays.hpp"

#include <algorithm>
#include <string>

#include "libfield/io/series_columns.hpp"
#include "libfield/mesh/convected.hpp"
#include "python/src/arrays.hpp"

namespace field::python {

march::MarchOptions march_options(const io::CaseSpec& spec, int threads, std::atomic<bool>& stop) {
  march::MarchOptions options;
  options.newton = spec.newton;
  options.threads = threads;
  options.stop = &stop;
  return options;
}

template <class G>
py::dict field_arrays(const io::Problem& problem, const dcel::DiscreteModel<G>& model,
                      const mesh::Field& field, int rows, int nodes, mesh::Side side) {
  return field_arrays<G>(
      problem, model, [&](int j, int a) -> const lie::SE3& { return field(j, a); }, rows, nodes,
      side);
}

template <class G>
py::dict field_arrays(const io::Problem& problem, const dcel::DiscreteModel<G>& model,
                      const std::function<const lie::SE3&(int, int)>& field, int rows, int nodes,
                      mesh::Side side) {
  const mesh::SpacetimeMesh& mesh = problem.mesh;
  const py::ssize_t n_t = rows, n_s = nodes, segments = std::max(nodes - 1, 0);
  Array t({n_t}), s({n_s});
  for (int j = 0; j < n_t; ++j) t.mutable_at(j) = mesh.t(j);
  for (int a = 0; a < n_s; ++a) s.mutable_at(a) = mesh.s(a, side);
  Array poses({n_t, n_s, py::ssize_t(4), py::ssize_t(4)}), positions({n_t, n_s, py::ssize_t(3)}),
      quaternions({n_t, n_s, py::ssize_t(4)});
  Array velocities({std::max<py::ssize_t>(n_t - 1, 0), n_s, py::ssize_t(6)});
  Array strains({n_t, segments, py::ssize_t(6)}), stresses({n_t, segments, py::ssize_t(6)});
  double* pose = poses.mutable_data();
  double* position = positions.mutable_data();
  double* quaternion = quaternions.mutable_data();
  double* velocity = velocities.mutable_data();
  double* strain = strains.mutable_data();
  double* stress = stresses.mutable_data();
  for (int j = 0; j < n_t; ++j) {
    for (int a = 0; a < n_s; ++a) {
      const lie::SE3& g = field(j, a);
      put(pose, g.matrix());
      put(position, g.r);
      put(quaternion, g.quat());  // as field.csv: (w, x, y, z), w >= 0
      // Body velocity xi_j^a (theory §3.1), rows 0..n_t-2.
      if (j + 1 < n_t) put(velocity, mesh::convected<G>(g, field(j + 1, a), mesh.dt()));
    }
    // Segment strain eta_j^a (theory §3.1) and the body stress of the segment's law (theory §1).
    for (int a = 0; a < segments; ++a) {
      const Vec6 eta = mesh::convected<G>(field(j, a), field(j, a + 1), mesh.ds());
      put(strain, eta);
      put(stress, model.density(a).stress(eta));
    }
  }
  py::dict d;
  d["t"] = t, d["s"] = s, d["poses"] = poses, d["positions"] = positions;
  d["quaternions"] = quaternions, d["velocities"] = velocities, d["strains"] = strains;
  d["stresses"] = stresses;
  d["retraction"] = lie::retraction_name<G>();
  return d;
}

namespace {

/// One array per column from the lines of a series.
py::dict columns_dict(const std::vector<std::string>& columns,
                      const std::vector<std::vector<double>>& lines) {
  std::vector<Array> arrays;
  for (std::size_t c = 0; c < columns.size(); ++c)
    arrays.emplace_back(std::vector<py::ssize_t>{static_cast<py::ssize_t>(lines.size())});
  for (std::size_t i = 0; i < lines.size(); ++i)
    for (std::size_t c = 0; c < columns.size(); ++c)
      arrays[c].mutable_at(static_cast<py::ssize_t>(i)) = lines[i][c];
  py::dict d;
  for (std::size_t c = 0; c < columns.size(); ++c) d[py::str(columns[c])] = arrays[c];
  return d;
}

// The lines of a series file (io::series_line).
template <class V>
std::vector<std::vector<double>> series_lines(
    const std::vector<noether::BasicSlabRecord<V>>& records, noether::SlabAxis axis,
    const mesh::Boundary& boundary, bool damped) {
  std::vector<std::vector<double>> lines;
  for (const auto& d : records)
    lines.push_back(io::series_line(d, noether::prescribed_sides(boundary, axis), damped));
  return lines;
}

}  // namespace

py::dict time_series_arrays(const std::vector<noether::SlabRecord>& rows,
                            const mesh::Boundary& boundary, bool damped) {
  return columns_dict(io::time_series_columns(boundary, damped),
                      series_lines(rows, noether::SlabAxis::row, boundary, damped));
}

py::dict point_series_arrays(const std::vector<noether::BasicSlabRecord<Vec3>>& rows,
                             const mesh::Boundary& boundary) {
  return columns_dict(io::time_series_columns(boundary, false, true),
                      series_lines(rows, noether::SlabAxis::row, boundary, false));
}

py::dict point_space_series_arrays(const std::vector<noether::BasicSlabRecord<Vec3>>& columns,
                                   const mesh::Boundary& boundary) {
  return columns_dict(io::space_series_columns(boundary, true),
                      series_lines(columns, noether::SlabAxis::column, boundary, false));
}

py::dict space_series_arrays(const std::vector<noether::SlabRecord>& columns,
                             const mesh::Boundary& boundary) {
  return columns_dict(io::space_series_columns(boundary),
                      series_lines(columns, noether::SlabAxis::column, boundary, false));
}

void put_march_result(py::dict& d, const march::MarchResult& result) {
  d["status"] = result.completed ? "completed" : result.interrupted ? "stopped" : "failed";
  d["node_updates"] = result.node_solves;
  d["newton_iterations"] = result.newton_iterations;
  if (result.failure) {
    py::dict f;
    f["kind"] = march::failure_kind_name(result.failure->kind);
    f["row"] = result.failure->slab;
    f["node"] = result.failure->node;
    f["iterations"] = result.failure->iterations;
    f["residual"] = result.failure->residual;
    d["failure"] = f;
  }
}

#define FIELD_INSTANTIATE(G)                                                                   \
  template py::dict field_arrays<G>(const io::Problem&, const dcel::DiscreteModel<G>&,         \
                                    const mesh::Field&, int, int, mesh::Side);                 \
  template py::dict field_arrays<G>(const io::Problem&, const dcel::DiscreteModel<G>&,         \
                                    const std::function<const lie::SE3&(int, int)>&, int, int, \
                                    mesh::Side);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::python
