// libfield.simulate and libfield.reconstruct of a case on R^3, the cable (theory §1.8,
// docs/cable.md) or a registered theory (io/registered_case.hpp): the marches of `field simulate`
// and `field reconstruct` (io::CableProblem or io::RegisteredProblem<Rn<3>>, the same
// noether::SlabDiagnostics), held in memory (issue 17, docs/python.md).
#include "python/src/point_march.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "libfield/io/cable_case.hpp"
#include "libfield/io/plain_space_case.hpp"
#include "libfield/io/registered_case.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/space_march.hpp"
#include "libfield/march/stability.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "python/src/arrays.hpp"
#include "python/src/run_arrays.hpp"

namespace field::python {

namespace {

// Rows 0..n_t-1 and nodes 0..n_s-1 of the field: r_j^a; xi = (r_{j+1} - r_j)/dt,
// eta = (r^{a+1} - r^a)/ds (1.8.1) and the cable's tension W'(|eta|), or a registered theory's
// stress dV/deta (s_a on the `side` convention of field.csv).
template <class Problem, class Field>
py::dict point_field_arrays(const Problem& problem, const Field& field, int rows, int nodes,
                            mesh::Side side) {
  using R3 = lie::Rn<3>;
  constexpr bool is_cable = std::is_same_v<Problem, io::CableProblem>;
  const mesh::SpacetimeMesh& mesh = problem.mesh;
  const py::ssize_t n_t = rows, n_s = nodes, segments = std::max(nodes - 1, 0);
  Array t({n_t}), s({n_s}), positions({n_t, n_s, py::ssize_t(3)});
  Array velocities({std::max<py::ssize_t>(n_t - 1, 0), n_s, py::ssize_t(3)});
  Array strains({n_t, segments, py::ssize_t(3)});
  Array tensions = is_cable ? Array({n_t, segments}) : Array({n_t, segments, py::ssize_t(3)});
  for (int j = 0; j < n_t; ++j) t.mutable_at(j) = mesh.t(j);
  for (int a = 0; a < n_s; ++a) s.mutable_at(a) = mesh.s(a, side);
  double* position = positions.mutable_data();
  double* velocity = velocities.mutable_data();
  double* strain = strains.mutable_data();
  double* tension = tensions.mutable_data();
  for (int j = 0; j < n_t; ++j) {
    for (int a = 0; a < n_s; ++a) {
      put(position, field(j, a));
      if (j + 1 < n_t) put(velocity, mesh::convected<R3>(field(j, a), field(j + 1, a), mesh.dt()));
    }
    for (int a = 0; a < segments; ++a) {
      const Vec3 eta = mesh::convected<R3>(field(j, a), field(j, a + 1), mesh.ds());
      put(strain, eta);
      if constexpr (is_cable)
        *tension++ = problem.density.tension(eta.norm());
      else
        put(tension, problem.density->stress(eta));
    }
  }
  py::dict d;
  d["t"] = t, d["s"] = s, d["positions"] = positions, d["velocities"] = velocities;
  d["strains"] = strains;
  d[is_cable ? "tensions" : "stresses"] = tensions;
  return d;
}

template <class Problem>
py::dict point_arrays(const io::CaseSpec& spec, const Problem& problem, int threads,
                      const py::object& callback) {
  using R3 = lie::Rn<3>;
  std::atomic<bool> stop{false};
  const march::MarchOptions options = march_options(spec, threads, stop);
  march::check_time_march(problem.model, problem.input, options);
  py::list warnings;  // theory §6.1 with the theory's wave speeds (the cable's (1.8.6))
  const std::string warning = march::time_march_warning(problem.stability(), spec.dt);
  if (!warning.empty()) warnings.append(warning);

  const mesh::Boundary boundary = march::time_boundary(problem.input);
  march::BasicFieldRecorder<Vec3> recorder(problem.mesh, true);
  std::vector<noether::BasicSlabRecord<Vec3>> rows;
  noether::SlabDiagnostics<R3> diagnostics(
      problem.model, noether::SlabAxis::row, boundary,
      [&](const auto& row) { rows.push_back(row); },
      noether::SeriesOptions{spec.output.series_stride, threads});
  BasicSlabCallback<Vec3> row_callback(
      callback, [&](int j) { return problem.mesh.t(j); }, stop);
  march::MarchResult result;
  {
    py::gil_scoped_release release;
    result = march::time_march(problem.model, problem.input,
                               {&recorder, &diagnostics, &row_callback}, options);
  }
  row_callback.rethrow();

  py::dict d = point_field_arrays(problem, recorder.field(), result.last_slab + 1,
                                  problem.mesh.A() + 1, spec.left_side());
  d["series"] = point_series_arrays(rows, boundary);
  put_march_result(d, result);
  d["warnings"] = warnings;
  d["theory"] = io::theory_name(spec);
  return d;
}

// The space march of theory §6.2 as `field reconstruct` runs it for such a theory
// (apps/cmd_reconstruct.cpp, reconstruct_plain): the tip data from the case's file or from `tip`
// (io::plain_space_input, the magnitude rule and the taut branch of the cable, theory (6.2.3)),
// rows j = 0 and J at zero momentum, the columns as arrays and the series of space_series.csv.
template <class Problem>
py::dict point_space_arrays(const io::CaseSpec& spec, const Problem& problem, int threads,
                            const py::object& callback, const io::CsvTable* tip) {
  using R3 = lie::Rn<3>;
  const double c_E = problem.model.density().wave_speeds().c_E;
  const io::PlainSpaceSetup<R3> setup =
      tip ? io::plain_space_input<R3>(spec, c_E, *tip) : io::plain_space_input<R3>(spec, c_E);
  std::atomic<bool> stop{false};
  const march::MarchOptions options = march_options(spec, threads, stop);
  march::check_space_march(problem.model, setup.input, options);
  py::list warnings;  // theory §6.2 with the theory's wave speeds
  const std::string warning = march::space_march_warning(problem.stability(), spec.dt);
  if (!warning.empty()) warnings.append(warning);

  const mesh::Boundary boundary = march::space_boundary(setup.input);
  march::BasicFieldRecorder<Vec3> recorder(problem.mesh, false);
  std::vector<noether::BasicSlabRecord<Vec3>> columns;
  noether::SlabDiagnostics<R3> diagnostics(
      problem.model, noether::SlabAxis::column, boundary,
      [&](const auto& column) { columns.push_back(column); },
      noether::SeriesOptions{spec.output.series_stride, threads});
  BasicSlabCallback<Vec3> column_callback(
      callback, [&](int a) { return problem.mesh.s(a, mesh::Side::prescribed); }, stop);
  march::MarchResult result;
  {
    py::gil_scoped_release release;
    result = march::space_march(problem.model, setup.input,
                                {&recorder, &diagnostics, &column_callback}, options);
  }
  column_callback.rethrow();

  py::dict d = point_field_arrays(problem, recorder.field(), spec.J + 1, result.last_slab + 1,
                                  mesh::Side::prescribed);
  d["series"] = point_space_series_arrays(columns, boundary);
  put_march_result(d, result);
  d["warnings"] = warnings;
  d["theory"] = io::theory_name(spec);
  d["method"] = "space";
  d["tip_note"] = setup.note;
  return d;
}

// A registered theory on R^3 (the Python module's arrays are points); one on SE(3) is refused,
// naming the program, by `what` ("libfield.simulate", ...).
void refuse_registered_off_r3(const io::CaseSpec& spec, const std::string& what,
                              const std::string& program) {
  const bool on_r3 = io::with_registered_group(
      spec, [](auto group) { return std::is_same_v<decltype(group), lie::Rn<3>>; });
  if (!on_r3)
    throw py::value_error(spec.file.string() + ": theory = \"" + spec.registered.name +
                          "\" runs on SE(3): " + what + " runs the registered theories on R^3; " +
                          "run it with `field " + program + "` (docs/lie-groups.md)");
}

}  // namespace

py::dict simulate_points(const io::CaseSpec& spec, int threads, const py::object& callback) {
  if (spec.theory == io::Theory::cable)
    return point_arrays(spec, io::CableProblem(spec), threads, callback);
  refuse_registered_off_r3(spec, "libfield.simulate", "simulate");
  return point_arrays(spec, io::RegisteredProblem<lie::Rn<3>>(spec), threads, callback);
}

py::dict reconstruct_points(const io::CaseSpec& spec, int threads, const py::object& callback,
                            const io::CsvTable* tip) {
  if (spec.theory == io::Theory::cable)
    return point_space_arrays(spec, io::CableProblem(spec), threads, callback, tip);
  refuse_registered_off_r3(spec, "libfield.reconstruct", "reconstruct");
  return point_space_arrays(spec, io::RegisteredProblem<lie::Rn<3>>(spec), threads, callback, tip);
}

}  // namespace field::python
