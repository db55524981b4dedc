// libfield.static_solve: the static equilibrium of theory §4.5 of a time-march case under its
// loads, as `field static` solves it (io::static_input, io::static_options,
// statics::solve_static), the row as the arrays of one row (issue 17, docs/python.md).
#include "python/src/static_solve.hpp"

#include <atomic>
#include <optional>
#include <string>

#include "libfield/io/case_setup.hpp"
#include "libfield/io/static_setup.hpp"
#include "libfield/statics/static_residual.hpp"
#include "libfield/statics/static_solve.hpp"
#include "python/src/arrays.hpp"
#include "python/src/run_arrays.hpp"

namespace field::python {

namespace {

template <class G>
py::dict solve(const io::Problem& problem, const dcel::DiscreteModel<G>& model,
               const py::object& callback) {
  const io::CaseSpec& spec = problem.spec;
  const statics::StaticInput input = io::static_input<G>(problem);
  statics::StaticOptions options = io::static_options(spec);
  std::optional<py::error_already_set> error;
  std::atomic<bool> stop{false};
  options.stop = &stop;
  int step = 0;
  options.on_step = [&](const statics::LoadStep& s) {
    if (callback_says_stop(callback, step++, s.fraction, error)) stop = true;
  };
  std::optional<statics::StaticResult> result;
  {
    py::gil_scoped_release release;
    result.emplace(statics::solve_static(model, input, options));
  }
  if (error) throw *error;
  const std::vector<lie::SE3>& row = result->row;
  py::dict d = field_arrays<G>(
      problem, model, [&](int, int a) -> const lie::SE3& { return row[a]; }, 1,
      static_cast<int>(row.size()), spec.left_side());
  d["status"] = result->converged ? "converged" : result->stopped ? "stopped" : "failed";
  if (!result->converged) d["failure"] = result->failure;
  d["load_fraction"] = result->fraction;
  d["relative_residual"] = result->relative_residual;
  d["newton_iterations"] = result->newton_iterations;
  d["halvings"] = result->halvings;
  d["static_energy"] = statics::static_energy(model, row, result->fraction);
  py::list steps;
  for (const statics::LoadStep& s : result->steps) {
    py::dict sd;
    sd["fraction"] = s.fraction;
    sd["converged"] = s.converged;
    py::list residuals;
    for (const auto& it : s.iterations) residuals.append(it.residual);
    sd["residuals"] = residuals;
    steps.append(sd);
  }
  d["steps"] = steps;
  d["warnings"] = py::list();
  return d;
}

}  // namespace

py::dict static_solve(const io::CaseSpec& spec, const py::object& callback) {
  if (spec.march != io::MarchKind::time)
    throw py::value_error(spec.file.string() +
                          ": march = \"space\": the static solver takes a time-march case "
                          "(march = \"time\")");
  if (spec.theory != io::Theory::beam)
    throw py::value_error(spec.file.string() +
                          ": the static solver (theory §4.5) takes SE(3) beams only, as `field "
                          "static` (docs/lie-groups.md)");
  const io::Problem problem(spec);
  return problem.with_model([&](const auto& model) {
    using G = typename std::decay_t<decltype(model)>::Group;
    return solve<G>(problem, model, callback);
  });
}

void bind_static_solve(py::module_& m) {
  m.def("_static_solve", &static_solve, py::arg("case"), py::arg("callback") = py::none(),
        "The static equilibrium of a case under its loads (theory §4.5): a dict of numpy arrays "
        "(docs/python.md).");
}

}  // namespace field::python
