#pragma once
/// Streaming diagnostics of a time march (theory §7.2, §8): an observer that keeps the last two
/// rows and, when row j+1 arrives, reports for row j the energy E_j, the total momentum P_j, the
/// Noether balance of the row R = [j, j] x [equation columns] and the Newton statistics of the
/// solve that produced row j+1. Memory is independent of the number of steps.
#include <functional>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "libfield/noether/slab_series.hpp"

namespace field::noether {

struct TimeRowDiagnostics {
  int j = 0;
  double t = 0.0;       ///< t_j [s]
  double energy = 0.0;  ///< E_j [J], theory §8
  Vec6 momentum;        ///< P_j = ds sum_a M_j^a (spatial angular about the origin, linear)
  /// |Res([j,j] x columns)|_inf / max(scale_R, ds max_{j'<=j} sum_a |M_j'^a|): theory §7.2 with
  /// scale_glob taken over the rows so far; rows 1..J-1, else 0
  double balance = 0.0;
  double dissipated = 0.0;  ///< D_j [J], theory (4.20): 0 without damping
  march::SlabStats newton;  ///< Newton statistics of the solve of row j+1
};

template <class G>
class TimeDiagnostics final : public march::SlabObserver {
 public:
  using Sink = std::function<void(const TimeRowDiagnostics&)>;
  /// `boundary` selects the columns of the balance (prescribed ends are excluded: their reaction
  /// is a flux through the rectangle's side).
  /// `options`: a stride over the rows (rows 0, stride, ... and J-1 are reported) and threads.
  TimeDiagnostics(const dcel::DiscreteModel<G>& model, const mesh::Boundary& boundary, Sink sink,
                  const SeriesOptions& options = {});

  void slab(int j, const std::vector<lie::SE3>& row, const march::SlabStats& stats) override;

 private:
  Sink sink_;
  SlabSeries<G> series_;
};

}  // namespace field::noether
