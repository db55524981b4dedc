#pragma once
/// What every run of the Python module returns (docs/python.md, "What a run holds"): the field
/// as numpy arrays, the series as a dict of arrays, the march's status; and the per-row callback.
#include <pybind11/pybind11.h>

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/mesh/field.hpp"
#include "libfield/noether/slab_diagnostics.hpp"

namespace field::python {

namespace py = pybind11;

/// Calls callback(k, x) with the GIL (nothing when it is None or has raised before): true when the
/// caller should stop, that is when it returned a false value (not None) or raised (the exception
/// kept in `error`, to be raised again once the C++ has returned).
inline bool callback_says_stop(const py::object& callback, int k, double x,
                               std::optional<py::error_already_set>& error) {
  if (callback.is_none() || error) return error.has_value();
  py::gil_scoped_acquire gil;
  try {
    const py::object go_on = callback(k, x);
    return !go_on.is_none() && !PyObject_IsTrue(go_on.ptr());
  } catch (py::error_already_set& e) {
    error.emplace(std::move(e));
    return true;
  }
}

/// Calls callback(k, x_k) after each slab k (a row j at t_j, or a column a at s_a), with the GIL.
/// A return value that is false (not None) stops the march between slabs; an exception stops it
/// too and is raised again by rethrow(). E: the node value (lie::SE3, or Vec3 for the cable).
template <class E>
class BasicSlabCallback final : public march::BasicSlabObserver<E> {
 public:
  BasicSlabCallback(py::object callback, std::function<double(int)> coordinate,
                    std::atomic<bool>& stop)
      : callback_(std::move(callback)), coordinate_(std::move(coordinate)), stop_(stop) {}

  void slab(int k, const std::vector<E>&, const march::SlabStats&) override {
    if (!callback_.is_none() && !error_ && callback_says_stop(callback_, k, coordinate_(k), error_))
      stop_ = true;
  }
  /// Raises the callback's exception, if any (with the GIL held).
  void rethrow() {
    if (error_) throw *error_;
  }

 private:
  py::object callback_;
  std::function<double(int)> coordinate_;
  std::atomic<bool>& stop_;
  std::optional<py::error_already_set> error_;
};
using SlabCallback = BasicSlabCallback<lie::SE3>;

/// The march options of `spec` ([newton]) on `threads` threads, stopped between slabs by `stop`.
march::MarchOptions march_options(const io::CaseSpec& spec, int threads, std::atomic<bool>& stop);

/// Rows 0..n_t-1 and nodes 0..n_s-1 of `field` as the arrays t, s, poses, positions,
/// quaternions, velocities, strains and stresses (s_a on the `side` convention of field.csv).
template <class G>
py::dict field_arrays(const io::Problem& problem, const dcel::DiscreteModel<G>& model,
                      const mesh::Field& field, int n_t, int n_s, mesh::Side side);
/// The same from the pose of each node (j, a).
template <class G>
py::dict field_arrays(const io::Problem& problem, const dcel::DiscreteModel<G>& model,
                      const std::function<const lie::SE3&(int, int)>& field, int n_t, int n_s,
                      mesh::Side side);

/// The series of time_series.csv and space_series.csv (docs/output-format.md), one array per
/// column.
py::dict time_series_arrays(const std::vector<noether::SlabRecord>& rows,
                            const mesh::Boundary& boundary, bool damped);
/// The time_series.csv of a march on R^3 (the cable, theory §1.8; a registered theory): P and the
/// reactions as their linear parts.
py::dict point_series_arrays(const std::vector<noether::BasicSlabRecord<Vec3>>& rows,
                             const mesh::Boundary& boundary);
py::dict space_series_arrays(const std::vector<noether::SlabRecord>& columns,
                             const mesh::Boundary& boundary);
/// The space_series.csv of a space march on R^3: Q and the reactions as their linear parts.
py::dict point_space_series_arrays(const std::vector<noether::BasicSlabRecord<Vec3>>& columns,
                                   const mesh::Boundary& boundary);

/// status ("completed", "stopped" or "failed"), node_updates, newton_iterations and, after a
/// failure, failure (kind, row or column, node, iterations, residual) into `d`.
void put_march_result(py::dict& d, const march::MarchResult& result);

}  // namespace field::python
