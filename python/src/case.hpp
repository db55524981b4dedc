#pragma once
#include <pybind11/pybind11.h>

#include <string>

namespace field::python {

namespace py = pybind11;

/// The TOML text of a case given as a dict (nested dicts are tables).
std::string case_text(const py::dict& d);

void bind_case(py::module_& m);

}  // namespace field::python
