// The extension module libfield._libfield (docs/python.md): the case, the time march and the
// Lie-group kernel; python/libfield/__init__.py is the package users import.
#include <pybind11/pybind11.h>

#include "libfield/core/error.hpp"
#include "python/src/case.hpp"
#include "python/src/reconstruct.hpp"
#include "python/src/simulate.hpp"
#include "python/src/static_solve.hpp"

namespace field::python {
void bind_lie(py::module_& m);
}

PYBIND11_MODULE(_libfield, m) {
  namespace py = pybind11;
  m.doc() = "libfield: multisymplectic Lie-group field solver (docs/python.md)";
  m.attr("__version__") = FIELD_VERSION;
  // The library's errors (bad input: file:line:key and what to do) are ValueErrors.
  py::register_exception<field::Error>(m, "FieldError", PyExc_ValueError);
  // A file that cannot be read: an OSError (registered last: tried first, it derives from Error).
  py::register_exception<field::IoError>(m, "FieldIOError", PyExc_OSError);
  field::python::bind_case(m);
  field::python::bind_simulate(m);
  field::python::bind_reconstruct(m);
  field::python::bind_static_solve(m);
  field::python::bind_lie(m);
}
