// libfield.simulate of a case on R^3, the cable (theory §1.8, docs/cable.md) or a registered
// theory (io/registered_case.hpp): the march of `field simulate` (io::CableProblem or
// io::RegisteredProblem<Rn<3>>, the same noether::SlabDiagnostics), held in memory (issue 17,
// docs/python.md).
#include "python/src/point_march.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "libfield/io/cable_case.hpp"
#include "libfield/io/registered_case.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/stability.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "python/src/arrays.hpp"
#include "python/src/run_arrays.hpp"

namespace field::python {

namespace {

template <class Problem>
py::dict point_arrays(const io::CaseSpec& spec, const Problem& problem, int threads,
                      const py::object& callback) {
  using R3 = lie::Rn<3>;
  constexpr bool is_cable = std::is_same_v<Problem, io::CableProblem>;
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

  // r_j^a; xi = (r_{j+1} - r_j)/dt, eta = (r^{a+1} - r^a)/ds (1.8.1) and the cable's tension
  // W'(|eta|), or a registered theory's stress dV/deta.
  const mesh::SpacetimeMesh& mesh = problem.mesh;
  const auto& field = recorder.field();
  const py::ssize_t n_t = result.last_slab + 1, n_s = mesh.A() + 1, segments = mesh.A();
  Array t({n_t}), s({n_s}), positions({n_t, n_s, py::ssize_t(3)});
  Array velocities({std::max<py::ssize_t>(n_t - 1, 0), n_s, py::ssize_t(3)});
  Array strains({n_t, segments, py::ssize_t(3)});
  Array tensions = is_cable ? Array({n_t, segments}) : Array({n_t, segments, py::ssize_t(3)});
  for (int j = 0; j < n_t; ++j) t.mutable_at(j) = mesh.t(j);
  for (int a = 0; a < n_s; ++a) s.mutable_at(a) = mesh.s(a, spec.left_side());
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
  d["series"] = point_series_arrays(rows, boundary);
  put_march_result(d, result);
  d["warnings"] = warnings;
  d["theory"] = io::theory_name(spec);
  return d;
}

}  // namespace

py::dict simulate_points(const io::CaseSpec& spec, int threads, const py::object& callback) {
  if (spec.theory == io::Theory::cable)
    return point_arrays(spec, io::CableProblem(spec), threads, callback);
  const bool on_r3 = io::with_registered_group(
      spec, [](auto group) { return std::is_same_v<decltype(group), lie::Rn<3>>; });
  if (!on_r3)
    throw py::value_error(spec.file.string() + ": theory = \"" + spec.registered.name +
                          "\" runs on SE(3): libfield.simulate runs the registered theories on "
                          "R^3; run it with `field simulate` (docs/lie-groups.md)");
  return point_arrays(spec, io::RegisteredProblem<lie::Rn<3>>(spec), threads, callback);
}

}  // namespace field::python
