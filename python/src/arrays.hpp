#pragma once
/// numpy arrays from and to the library's fixed-size values (docs/python.md): C-contiguous
/// float64 arrays whose trailing dimensions hold one value, any leading shape.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <Eigen/Core>

#include <string>
#include <vector>

namespace field::python {

namespace py = pybind11;
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// The leading shape of `x` whose trailing dimensions must be `tail` (e.g. {6} or {4, 4});
/// ValueError naming `what` otherwise.
std::vector<py::ssize_t> leading_shape(const Array& x, const std::vector<py::ssize_t>& tail,
                                       const std::string& what);

/// A new array of shape leading + tail.
Array new_array(std::vector<py::ssize_t> leading, const std::vector<py::ssize_t>& tail);

/// Copies `m` to `out` in row-major order (numpy's) and advances `out` past it.
template <class M>
void put(double*& out, const Eigen::MatrixBase<M>& m) {
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) *out++ = m(r, c);
}
/// The same without advancing.
template <class M>
void store(double* out, const Eigen::MatrixBase<M>& m) {
  put(out, m);
}

/// Number of values in a leading shape.
py::ssize_t count(const std::vector<py::ssize_t>& leading);

}  // namespace field::python
