#pragma once
#include <pybind11/pybind11.h>

#include "libfield/io/case_file.hpp"

namespace field::python {

namespace py = pybind11;

/// The time march of a cable case (theory §1.8, docs/cable.md) as `field simulate` marches it:
/// positions, velocities, strains and tensions as arrays, the series of its time_series.csv.
py::dict simulate_cable(const io::CaseSpec& spec, int threads, const py::object& callback);

}  // namespace field::python
