#pragma once
#include <pybind11/pybind11.h>

#include "libfield/io/case_file.hpp"
#include "libfield/io/csv_table.hpp"

namespace field::python {

namespace py = pybind11;

/// The time march of a case on R^3 as `field simulate` marches it: the cable (theory §1.8,
/// docs/cable.md) or a registered theory on R^3 (io/registered_case.hpp, e.g. the string of
/// theory §1.9): positions, velocities and strains as arrays, the cable's tensions or a
/// registered theory's stresses dV/deta, the series of its time_series.csv.
py::dict simulate_points(const io::CaseSpec& spec, int threads, const py::object& callback);

/// The space march of theory §6.2 of such a case as `field reconstruct` runs it: the tip data
/// from the case's [tip] file, or from `tip` when given (the columns t, x, y, z, eta1..3); the
/// same arrays by columns, the series of its space_series.csv, method "space" and tip_note.
py::dict reconstruct_points(const io::CaseSpec& spec, int threads, const py::object& callback,
                            const io::CsvTable* tip);

}  // namespace field::python
