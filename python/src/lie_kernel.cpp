// libfield.lie: the Lie-group kernel of docs/lie-groups.md on numpy arrays (issue 17): each
// function maps over the leading dimensions of its arguments, e.g. tau of an (n, 6) array of
// se(3) vectors is an (n, 4, 4) array of homogeneous matrices.
#include <pybind11/pybind11.h>

#include <string>

#include "libfield/lie/se2.hpp"
#include "libfield/lie/se3_groups.hpp"
#include "python/src/arrays.hpp"

namespace field::python {

namespace {

/// The matrix representation of G's elements: (4, 4) on SE(3), (3, 3) on SE(2).
template <class G>
constexpr py::ssize_t kMatrixSize = G::dim == 6 ? 4 : 3;

template <class G>
using MatrixOf = Eigen::Matrix<double, kMatrixSize<G>, kMatrixSize<G>, Eigen::RowMajor>;

/// An element from its homogeneous matrix (row-major, as numpy stores it).
template <class G>
typename G::Element element(const double* m) {
  const MatrixOf<G> M = Eigen::Map<const MatrixOf<G>>(m);
  typename G::Element g;
  constexpr int n = kMatrixSize<G> - 1;
  g.R = M.template topLeftCorner<n, n>();
  g.r = M.template topRightCorner<n, 1>();
  return g;
}

template <class G>
void store_element(const typename G::Element& g, double* out) {
  store(out, G::matrix(g));
}

template <class G>
using Vec = typename G::Algebra;

template <class G>
Vec<G> algebra(const double* x) {
  return Eigen::Map<const Vec<G>>(x);
}

/// Applies f(in, out) to every value of `x` (trailing shape `in`), into an array of trailing
/// shape `out`, without the GIL.
template <class F>
Array map1(const Array& x, const std::vector<py::ssize_t>& in, const std::vector<py::ssize_t>& out,
           const std::string& what, F f) {
  const auto leading = leading_shape(x, in, what);
  Array y = new_array(leading, out);
  py::ssize_t in_size = 1, out_size = 1;
  for (const auto d : in) in_size *= d;
  for (const auto d : out) out_size *= d;
  const double* px = x.data();
  double* py_ = y.mutable_data();
  const py::ssize_t n = count(leading);
  {
    py::gil_scoped_release release;
    for (py::ssize_t k = 0; k < n; ++k) f(px + k * in_size, py_ + k * out_size);
  }
  return y;
}

/// The same for two arguments with the same leading shape.
template <class F>
Array map2(const Array& x, const Array& z, const std::vector<py::ssize_t>& in_x,
           const std::vector<py::ssize_t>& in_z, const std::vector<py::ssize_t>& out,
           const std::string& what, F f) {
  const auto leading = leading_shape(x, in_x, what + " (first argument)");
  if (leading_shape(z, in_z, what + " (second argument)") != leading)
    throw py::value_error(what + ": the two arguments have different leading shapes");
  Array y = new_array(leading, out);
  py::ssize_t sx = 1, sz = 1, so = 1;
  for (const auto d : in_x) sx *= d;
  for (const auto d : in_z) sz *= d;
  for (const auto d : out) so *= d;
  const double* px = x.data();
  const double* pz = z.data();
  double* py_ = y.mutable_data();
  const py::ssize_t n = count(leading);
  {
    py::gil_scoped_release release;
    for (py::ssize_t k = 0; k < n; ++k) f(px + k * sx, pz + k * sz, py_ + k * so);
  }
  return y;
}

template <class G>
void bind_group(py::module_& m, const char* name, const char* doc) {
  constexpr py::ssize_t n = G::dim, M = kMatrixSize<G>;
  const std::string prefix = std::string(name) + ".";
  py::class_<G> c(m, name, doc);
  c.attr("dim") = static_cast<int>(G::dim);
  c.def_static(
      "tau",
      [prefix](const Array& x) {
        return map1(x, {n}, {M, M}, prefix + "tau", [](const double* in, double* out) {
          store_element<G>(G::tau(algebra<G>(in)), out);
        });
      },
      py::arg("x"), "The retraction tau(x) of algebra vectors (..., n) as matrices (theory §2).");
  c.def_static(
      "tau_inv",
      [prefix](const Array& g) {
        return map1(g, {M, M}, {n}, prefix + "tau_inv",
                    [](const double* in, double* out) { store(out, G::tau_inv(element<G>(in))); });
      },
      py::arg("g"), "tau^{-1} of group elements given as matrices (near the identity).");
  c.def_static(
      "dtau_inv",
      [prefix](const Array& x) {
        return map1(x, {n}, {n, n}, prefix + "dtau_inv",
                    [](const double* in, double* out) { store(out, G::dtau_inv(algebra<G>(in))); });
      },
      py::arg("x"), "The right-trivialised dtau^{-1}_x (theory §2), (..., n, n).");
  c.def_static(
      "dtau_inv_dual",
      [prefix](const Array& x, const Array& p) {
        return map2(x, p, {n}, {n}, {n}, prefix + "dtau_inv_dual",
                    [](const double* a, const double* b, double* out) {
                      store(out, G::dtau_inv_dual(algebra<G>(a), algebra<G>(b)));
                    });
      },
      py::arg("x"), py::arg("p"), "(dtau^{-1}_x)^T p for covectors p.");
  c.def_static(
      "Ad",
      [prefix](const Array& g) {
        return map1(g, {M, M}, {n, n}, prefix + "Ad",
                    [](const double* in, double* out) { store(out, G::Ad(element<G>(in))); });
      },
      py::arg("g"), "The adjoint matrices Ad_g (theory §0.2).");
  c.def_static(
      "Ad_dual",
      [prefix](const Array& g, const Array& mu) {
        return map2(g, mu, {M, M}, {n}, {n}, prefix + "Ad_dual",
                    [](const double* a, const double* b, double* out) {
                      store(out, G::Ad_dual(element<G>(a), algebra<G>(b)));
                    });
      },
      py::arg("g"), py::arg("mu"), "Ad*_g mu = (Ad_g)^T mu for covectors mu.");
  c.def_static(
      "compose",
      [prefix](const Array& g, const Array& h) {
        return map2(g, h, {M, M}, {M, M}, {M, M}, prefix + "compose",
                    [](const double* a, const double* b, double* out) {
                      store_element<G>(G::compose(element<G>(a), element<G>(b)), out);
                    });
      },
      py::arg("g"), py::arg("h"), "The products g h.");
  c.def_static(
      "inverse",
      [prefix](const Array& g) {
        return map1(g, {M, M}, {M, M}, prefix + "inverse", [](const double* in, double* out) {
          store_element<G>(G::inverse(element<G>(in)), out);
        });
      },
      py::arg("g"), "The inverses g^{-1}.");
}

}  // namespace

void bind_lie(py::module_& m) {
  py::module_ lie = m.def_submodule(
      "lie", "The Lie-group kernel on numpy arrays (docs/lie-groups.md, docs/python.md)");
  bind_group<lie::Se3Cayley>(lie, "SE3Cayley", "SE(3) with the Cayley retraction (theory §2.1)");
  bind_group<lie::Se3Exp>(lie, "SE3Exp", "SE(3) with the exponential retraction (theory §2.2)");
  bind_group<lie::Se2Cayley>(lie, "SE2Cayley",
                             "SE(2) with the Cayley retraction (theory §1.7, docs/lie-groups.md)");
}

}  // namespace field::python
