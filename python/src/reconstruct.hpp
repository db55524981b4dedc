#pragma once
#include <pybind11/pybind11.h>

#include "libfield/io/case_file.hpp"

namespace field::python {

namespace py = pybind11;

/// The reconstruction `field reconstruct` runs for `spec` ([reconstruct] method: the space march,
/// the driven time march or the estimator), with the tip data of `tip` (a dict of arrays: t,
/// strains and poses or positions and quaternions) instead of the case's tip file when not None.
py::dict reconstruct(const io::CaseSpec& spec, int threads, const py::object& callback,
                     const py::object& tip);

void bind_reconstruct(py::module_& m);

}  // namespace field::python
