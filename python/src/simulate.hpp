#pragma once
#include <pybind11/pybind11.h>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/march/time_march.hpp"

namespace field::python {

namespace py = pybind11;

/// The time march of theory §6.1 of `model` from `input` on `threads` threads, its whole field
/// and its series as the arrays of docs/python.md; `callback(j, t)` after each row (None: none);
/// `extra` (may be null) sees the rows after the series. As `field simulate` marches it (the same
/// march, the same noether::SlabDiagnostics), held in memory instead of written to files.
template <class G>
py::dict time_march_arrays(const io::Problem& problem, const dcel::DiscreteModel<G>& model,
                           const march::TimeMarchInputOf<G>& input, int threads,
                           const py::object& callback, march::SlabObserver* extra = nullptr);

/// The time march of `spec` on `threads` threads; `callback(j, t)` after each row (None: none).
py::dict simulate(const io::CaseSpec& spec, int threads, const py::object& callback);

void bind_simulate(py::module_& m);

}  // namespace field::python
