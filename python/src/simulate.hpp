#pragma once
#include <pybind11/pybind11.h>

#include "libfield/io/case_file.hpp"

namespace field::python {

namespace py = pybind11;

/// The time march of `spec` on `threads` threads; `callback(j, t)` after each row (None: none).
py::dict simulate(const io::CaseSpec& spec, int threads, const py::object& callback);

void bind_simulate(py::module_& m);

}  // namespace field::python
