#pragma once
#include <pybind11/pybind11.h>

#include "libfield/io/case_file.hpp"

namespace field::python {

namespace py = pybind11;

/// The static equilibrium of `spec` under its loads (theory §4.5), as `field static` solves it;
/// `callback(k, fraction)` after each load step (None: none).
py::dict static_solve(const io::CaseSpec& spec, const py::object& callback);

void bind_static_solve(py::module_& m);

}  // namespace field::python
