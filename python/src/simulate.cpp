// libfield.simulate: the time march of theory §6.1 on a case, the field and the series as numpy
// arrays (issue 17, docs/python.md). The same computation as `field simulate` (the same march,
// the same noether::TimeDiagnostics), held in memory instead of written to files.
#include "python/src/simulate.hpp"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "libfield/io/case_setup.hpp"
#include "libfield/io/series_columns.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/noether/time_diagnostics.hpp"
#include "python/src/arrays.hpp"
#include "python/src/run_memory.hpp"

namespace field::python {

namespace {

/// Calls callback(j, t_j) after each row, with the GIL. A return value that is false (not None)
/// stops the march between rows; an exception stops it too and is raised again afterwards.
class RowCallback final : public march::SlabObserver {
 public:
  RowCallback(py::object callback, const mesh::SpacetimeMesh& mesh, std::atomic<bool>& stop)
      : callback_(std::move(callback)), mesh_(mesh), stop_(stop) {}

  void slab(int j, const std::vector<lie::SE3>&, const march::SlabStats&) override {
    if (callback_.is_none() || error_) return;
    py::gil_scoped_acquire gil;
    try {
      const py::object go_on = callback_(j, mesh_.t(j));
      if (!go_on.is_none() && !PyObject_IsTrue(go_on.ptr())) stop_ = true;
    } catch (py::error_already_set& e) {
      error_.emplace(std::move(e));
      stop_ = true;
    }
  }
  /// Raises the callback's exception, if any (with the GIL held).
  void rethrow() {
    if (error_) throw *error_;
  }

 private:
  py::object callback_;
  const mesh::SpacetimeMesh& mesh_;
  std::atomic<bool>& stop_;
  std::optional<py::error_already_set> error_;
};

const char* status_of(const march::MarchResult& r) {
  if (r.completed) return "completed";
  if (r.interrupted) return "stopped";
  return "failed";
}

/// Rows 0..rows-1 of the recorded field as the arrays of docs/python.md.
template <class G>
py::dict field_arrays(const io::Problem& problem, const dcel::DiscreteModel<G>& model,
                      const mesh::Field& field, int rows) {
  const mesh::SpacetimeMesh& mesh = problem.mesh;
  const py::ssize_t n_t = rows, n_s = mesh.A() + 1, segments = mesh.A();
  Array t({n_t}), s({n_s});
  for (int j = 0; j < n_t; ++j) t.mutable_at(j) = mesh.t(j);
  for (int a = 0; a < n_s; ++a) s.mutable_at(a) = mesh.s(a, problem.spec.left_side());
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
  return d;
}

/// The series of time_series.csv (docs/output-format.md), one array per column.
py::dict series_arrays(const std::vector<noether::TimeRowDiagnostics>& rows,
                       const mesh::Boundary& boundary, bool damped) {
  const std::vector<std::string> columns = io::time_series_columns(boundary, damped);
  std::vector<Array> arrays;
  for (std::size_t c = 0; c < columns.size(); ++c)
    arrays.emplace_back(std::vector<py::ssize_t>{static_cast<py::ssize_t>(rows.size())});
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::vector<double> line = io::time_series_line(rows[i], boundary, damped);
    for (std::size_t c = 0; c < columns.size(); ++c)
      arrays[c].mutable_at(static_cast<py::ssize_t>(i)) = line[c];
  }
  py::dict d;
  for (std::size_t c = 0; c < columns.size(); ++c) d[py::str(columns[c])] = arrays[c];
  return d;
}

template <class G>
py::dict march_beam(const io::Problem& problem, int threads, const py::object& callback) {
  const io::CaseSpec& spec = problem.spec;
  const dcel::DiscreteModel<G> model = problem.model<G>();
  const march::TimeMarchInput input = io::time_march_input<G>(problem);
  std::atomic<bool> stop{false};
  march::MarchOptions options;
  options.newton = spec.newton;
  options.threads = threads;
  options.stop = &stop;
  march::check_time_march(model, input, options);

  const mesh::Boundary boundary = problem.boundary();
  const bool damped = model.loads().damping.any();
  march::FieldRecorder recorder(problem.mesh, true);
  std::vector<noether::TimeRowDiagnostics> rows;
  noether::TimeDiagnostics<G> diagnostics(
      model, boundary, [&](const noether::TimeRowDiagnostics& row) { rows.push_back(row); },
      noether::SeriesOptions{spec.output.series_stride, threads});
  RowCallback row_callback(callback, problem.mesh, stop);
  march::MarchResult result;
  {
    py::gil_scoped_release release;
    result = march::time_march(model, input, {&recorder, &diagnostics, &row_callback}, options);
  }
  row_callback.rethrow();

  py::dict d = field_arrays(problem, model, recorder.field(), result.last_slab + 1);
  d["series"] = series_arrays(rows, boundary, damped);
  d["status"] = status_of(result);
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
  d["retraction"] = lie::retraction_name<G>();
  return d;
}

}  // namespace

py::dict simulate(const io::CaseSpec& spec, int threads, const py::object& callback) {
  if (spec.march != io::MarchKind::time)
    throw py::value_error(spec.file.string() +
                          ": march = \"space\": this case is a reconstruction (not available from "
                          "Python yet: run `field reconstruct`)");
  if (spec.theory != io::Theory::beam)
    throw py::value_error(spec.file.string() +
                          ": only theory = \"beam\" runs from Python yet (the planar beam and the "
                          "cable: run `field simulate`)");
  if (threads < 1)
    throw py::value_error("threads must be at least 1, got " + std::to_string(threads));
  check_run_memory(spec);  // the whole field is kept, as arrays
  const io::Problem problem(spec);
  return lie::with_group(spec.retraction, [&](auto group) {
    return march_beam<decltype(group)>(problem, threads, callback);
  });
}

void bind_simulate(py::module_& m) {
  m.def("_simulate", &simulate, py::arg("case"), py::arg("threads") = 1,
        py::arg("callback") = py::none(),
        "The time march of a case (theory §6.1): a dict of numpy arrays (docs/python.md).");
}

}  // namespace field::python
