#include "python/src/arrays.hpp"

#include <sstream>

namespace field::python {

namespace {
std::string joined(const std::vector<py::ssize_t>& shape) {
  std::ostringstream out;
  for (std::size_t k = 0; k < shape.size(); ++k) out << (k ? ", " : "") << shape[k];
  return out.str();
}
}  // namespace

std::vector<py::ssize_t> leading_shape(const Array& x, const std::vector<py::ssize_t>& tail,
                                       const std::string& what) {
  const auto n = static_cast<py::ssize_t>(tail.size());
  std::vector<py::ssize_t> shape(x.shape(), x.shape() + x.ndim());
  bool fits = x.ndim() >= n;
  for (py::ssize_t k = 0; fits && k < n; ++k) fits = shape[x.ndim() - n + k] == tail[k];
  if (!fits)
    throw py::value_error(what + ": expected an array of shape (..., " + joined(tail) + "), got (" +
                          joined(shape) + (shape.size() == 1 ? ",)" : ")"));
  shape.resize(static_cast<std::size_t>(x.ndim() - n));
  return shape;
}

Array new_array(std::vector<py::ssize_t> leading, const std::vector<py::ssize_t>& tail) {
  leading.insert(leading.end(), tail.begin(), tail.end());
  return Array(leading);
}

py::ssize_t count(const std::vector<py::ssize_t>& leading) {
  py::ssize_t n = 1;
  for (const py::ssize_t d : leading) n *= d;
  return n;
}

}  // namespace field::python
