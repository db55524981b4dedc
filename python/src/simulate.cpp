// libfield.simulate: the time march of theory §6.1 on a case, the field and the series as numpy
// arrays (issue 17, docs/python.md). The same computation as `field simulate` (the same march,
// the same noether::TimeDiagnostics), held in memory instead of written to files.
#include "python/src/simulate.hpp"

#include <atomic>
#include <string>
#include <vector>

#include "libfield/march/field_recorder.hpp"
#include "libfield/march/stability.hpp"
#include "libfield/noether/time_diagnostics.hpp"
#include "python/src/run_arrays.hpp"
#include "python/src/run_memory.hpp"

namespace field::python {

template <class G>
py::dict time_march_arrays(const io::Problem& problem, const dcel::DiscreteModel<G>& model,
                           const march::TimeMarchInput& input, int threads,
                           const py::object& callback, march::SlabObserver* extra) {
  const io::CaseSpec& spec = problem.spec;
  std::atomic<bool> stop{false};
  march::MarchOptions options;
  options.newton = spec.newton;
  options.threads = threads;
  options.stop = &stop;
  march::check_time_march(model, input, options);
  // The stability warnings of `field simulate` (theory §6.1).
  const march::StabilityNumbers numbers = problem.stability();
  py::list warnings;
  for (const std::string& w :
       {march::time_march_warning(numbers, spec.dt),
        march::stiffness_damping_warning(numbers, spec.dt, spec.loads.damping.stiffness)})
    if (!w.empty()) warnings.append(w);

  const mesh::Boundary boundary = problem.boundary();
  const bool damped = model.loads().damping.any();
  march::FieldRecorder recorder(problem.mesh, true);
  std::vector<noether::TimeRowDiagnostics> rows;
  noether::TimeDiagnostics<G> diagnostics(
      model, boundary, [&](const noether::TimeRowDiagnostics& row) { rows.push_back(row); },
      noether::SeriesOptions{spec.output.series_stride, threads});
  SlabCallback row_callback(
      callback, [&](int j) { return problem.mesh.t(j); }, stop);
  std::vector<march::SlabObserver*> observers{&recorder, &diagnostics};
  if (extra) observers.push_back(extra);
  observers.push_back(&row_callback);
  march::MarchResult result;
  {
    py::gil_scoped_release release;
    result = march::time_march(model, input, observers, options);
  }
  row_callback.rethrow();

  py::dict d = field_arrays(problem, model, recorder.field(), result.last_slab + 1,
                            problem.mesh.A() + 1, spec.left_side());
  d["series"] = time_series_arrays(rows, boundary, damped);
  put_march_result(d, result);
  d["warnings"] = warnings;
  return d;
}

py::dict simulate(const io::CaseSpec& spec, int threads, const py::object& callback) {
  if (spec.march != io::MarchKind::time)
    throw py::value_error(spec.file.string() +
                          ": march = \"space\": this case is a reconstruction: run it with "
                          "libfield.reconstruct");
  if (spec.theory != io::Theory::beam)
    throw py::value_error(spec.file.string() +
                          ": only theory = \"beam\" runs from Python yet (the planar beam and the "
                          "cable: run `field simulate`)");
  if (threads < 1)
    throw py::value_error("threads must be at least 1, got " + std::to_string(threads));
  check_run_memory(spec);  // the whole field is kept, as arrays
  const io::Problem problem(spec);
  return problem.with_model([&](const auto& model) {
    using G = typename std::decay_t<decltype(model)>::Group;
    return time_march_arrays<G>(problem, model, io::time_march_input<G>(problem), threads,
                                callback);
  });
}

#define FIELD_INSTANTIATE(G)                                                                   \
  template py::dict time_march_arrays<G>(const io::Problem&, const dcel::DiscreteModel<G>&,    \
                                         const march::TimeMarchInput&, int, const py::object&, \
                                         march::SlabObserver*);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

void bind_simulate(py::module_& m) {
  m.def("_simulate", &simulate, py::arg("case"), py::arg("threads") = 1,
        py::arg("callback") = py::none(),
        "The time march of a case (theory §6.1): a dict of numpy arrays (docs/python.md).");
}

}  // namespace field::python
