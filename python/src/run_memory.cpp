#include "python/src/run_memory.hpp"

#include <pybind11/pybind11.h>

#include <string>

#include "libfield/io/memory_estimate.hpp"
#include "libfield/lie/se3.hpp"

namespace field::python {

double field_bytes_per_node() {
  return sizeof(lie::SE3) + sizeof(double) * (16 + 3 + 4 + 6 + 6 + 6);
}

void check_run_memory(const io::CaseSpec& spec) {
  const std::string shortfall = io::memory_shortfall(
      spec, io::estimate_memory(spec, field_bytes_per_node()),
      "use a smaller grid ([grid] A, J), or run the `field` program, which writes the field to "
      "files as it marches instead of keeping it (docs/cli.md)");
  if (shortfall.empty()) return;
  PyErr_SetString(PyExc_MemoryError, shortfall.c_str());
  throw pybind11::error_already_set();
}

}  // namespace field::python
