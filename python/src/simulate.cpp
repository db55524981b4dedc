// libfield.simulate: the time march of theory §6.1 on a case, the field and the series as numpy
// arrays (issue 17, docs/python.md). The same computation as `field simulate` (the same march,
// the same noether::SlabDiagnostics), held in memory instead of written to files.
#include "python/src/simulate.hpp"

#include <atomic>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "libfield/io/planar_case.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/planar_embedding.hpp"
#include "libfield/march/stability.hpp"
#include "libfield/noether/planar_series_row.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "python/src/point_march.hpp"
#include "python/src/run_arrays.hpp"
#include "python/src/run_memory.hpp"

namespace field::python {

template <class G>
py::dict time_march_arrays(const io::Problem& problem, const dcel::DiscreteModel<G>& model,
                           const march::TimeMarchInputOf<G>& input, int threads,
                           const py::object& callback, march::SlabObserver* extra) {
  constexpr bool planar = std::is_same_v<G, lie::Se2Cayley>;
  using W = typename io::OutputGroup<G>::type;
  const io::CaseSpec& spec = problem.spec;
  std::atomic<bool> stop{false};
  const march::MarchOptions options = march_options(spec, threads, stop);
  march::check_time_march(model, input, options);
  // The stability warnings of `field simulate` (theory §6.1; the planar beam's own wave speeds,
  // theory §1.7).
  march::StabilityNumbers numbers;
  if constexpr (planar)
    numbers = problem.stability(model.density().wave_speeds());
  else
    numbers = problem.stability();
  py::list warnings;
  for (const std::string& w :
       {march::time_march_warning(numbers, spec.dt),
        march::stiffness_damping_warning(numbers, spec.dt, spec.loads.damping.stiffness)})
    if (!w.empty()) warnings.append(w);

  const mesh::Boundary boundary = problem.boundary();
  const bool damped = model.loads().damping.any();
  march::FieldRecorder recorder(problem.mesh, true);
  std::vector<noether::SlabRecord> rows;
  noether::SlabDiagnostics<G> diagnostics(
      model, noether::SlabAxis::row, boundary,
      [&](const auto& row) { rows.push_back(noether::series_row(row)); },
      noether::SeriesOptions{spec.output.series_stride, threads});
  SlabCallback row_callback(
      callback, [&](int j) { return problem.mesh.t(j); }, stop);
  std::vector<march::SlabObserver*> observers{&recorder};
  // The planar diagnostics see the SE(2) rows again, projected (bit for bit) from the embedded
  // ones, as in `field simulate`.
  std::optional<march::PlanarProjection> projection;
  march::append_observer(observers, diagnostics, projection);
  if (extra) observers.push_back(extra);
  observers.push_back(&row_callback);
  march::MarchResult result;
  {
    py::gil_scoped_release release;
    if constexpr (planar) {
      march::PlanarEmbedding embedding(observers);
      result = march::time_march(model, input, {&embedding}, options);
    } else {
      result = march::time_march(model, input, observers, options);
    }
  }
  row_callback.rethrow();

  // The strains and stresses of the planar beam: those of the SE(3) beam of the case in the plane
  // (io/planar_case.hpp), as field_rates.csv and the frames give them.
  const io::OutputModel<G> array_model(problem, model);
  py::dict d = field_arrays<W>(problem, array_model.get(), recorder.field(), result.last_slab + 1,
                               problem.mesh.A() + 1, spec.left_side());
  d["series"] = time_series_arrays(rows, boundary, damped);
  put_march_result(d, result);
  d["warnings"] = warnings;
  d["theory"] = planar ? "planar_beam" : "beam";
  return d;
}

py::dict simulate(const io::CaseSpec& spec, int threads, const py::object& callback) {
  if (spec.march != io::MarchKind::time)
    throw py::value_error(spec.file.string() +
                          ": march = \"space\": this case is a reconstruction: run it with "
                          "libfield.reconstruct");
  if (threads < 1)
    throw py::value_error("threads must be at least 1, got " + std::to_string(threads));
  // A continued run holds the rows from its checkpoint's on; the arrays here are a whole march.
  if (!spec.initial.checkpoint.empty())
    throw py::value_error(spec.named_by(spec.initial.checkpoint) + " = '" +
                          spec.initial.checkpoint.string() +
                          "': libfield.simulate gives a whole march from row 0 and does not "
                          "continue a run; continue it with `field simulate` (docs/cli.md, "
                          "\"Continuing a run\")");
  check_run_memory(spec);  // the whole field is kept, as arrays
  // The cable (theory §1.8) and the registered theories have their own arrays
  // (python/src/point_march.cpp).
  if (spec.theory == io::Theory::cable || spec.theory == io::Theory::registered)
    return simulate_points(spec, threads, callback);
  const io::Problem problem(spec);
  // The case's theory and retraction become the type G here, once (io::with_time_march).
  return io::with_time_march(problem, [&](const auto& model, const auto& input) {
    using G = typename std::decay_t<decltype(model)>::Group;
    return time_march_arrays<G>(problem, model, input, threads, callback);
  });
}

#define FIELD_INSTANTIATE(G)                                                                \
  template py::dict time_march_arrays<G>(const io::Problem&, const dcel::DiscreteModel<G>&, \
                                         const march::TimeMarchInputOf<G>&, int,            \
                                         const py::object&, march::SlabObserver*);
FIELD_FOR_EACH_GROUP_AND_SE2(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

void bind_simulate(py::module_& m) {
  m.def("_simulate", &simulate, py::arg("case"), py::arg("threads") = 1,
        py::arg("callback") = py::none(),
        "The time march of a case (theory §6.1): a dict of numpy arrays (docs/python.md).");
}

}  // namespace field::python
