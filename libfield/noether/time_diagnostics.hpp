#pragma once
/// Streaming diagnostics of a time march (theory §7.2, §8): an observer that keeps the last two
/// rows and, when row j+1 arrives, reports for row j the energy E_j, the total momentum P_j, the
/// Noether balance of the row R = [j, j] x [equation columns] and the Newton statistics of the
/// solve that produced row j+1, and the reactions of the prescribed ends, the work W_j and the
/// energy balance of theory §8.1. Memory is independent of the number of steps.
#include <functional>
#include <optional>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "libfield/noether/slab_series.hpp"
#include "libfield/noether/work_series.hpp"

namespace field::noether {

/// V: the group's algebra vector. On SE(3) momentum and reactions are (angular about the origin
/// (3), linear (3)); on SE(2) (angular about the origin, about the plane's normal; linear (2)),
/// theory (1.7.3).
template <class V>
struct BasicTimeRowDiagnostics {
  int j = 0;
  double t = 0.0;       ///< t_j [s]
  double energy = 0.0;  ///< E_j [J], theory §8
  V momentum;           ///< P_j = ds sum_a M_j^a (spatial angular about the origin, linear)
  /// |Res([j,j] x columns)|_inf / max(scale_R, ds max_{j'<=j} sum_a |M_j'^a|): theory §7.2 with
  /// scale_glob taken over the rows so far; rows 1..J-1, else 0
  double balance = 0.0;
  march::SlabStats newton;  ///< Newton statistics of the solve of row j+1
  /// Spatial reaction wrench R_j of a prescribed end a = 0 / a = A (theory (8.5)); zero when free
  V reaction_left = V::Zero(), reaction_right = V::Zero();
  double work = 0.0;        ///< W_j: work of the loads and the prescribed ends, rows 1..j [J] (8.7)
  double dissipated = 0.0;  ///< D_j: energy dissipated over rows 1..j [J] (4.20); 0 undamped
  double energy_balance = 0.0;  ///< B_j = E_j - E_0 - W_j + D_j [J] (8.8)
};
using TimeRowDiagnostics = BasicTimeRowDiagnostics<Vec6>;

/// What the series of a time march carries from row to row, after the last row it reported: E_0,
/// the balance's scale_glob (theory §7.2), the two parts of W_j (theory (8.7)) and, damped, D_j
/// and the damping terms of the row before (SlabSeries::damping_state). A series that continues
/// a march from it (resume) reports the rows after bit for bit (io/checkpoint.hpp).
template <class V>
struct BasicTimeSeriesState {
  double E0 = 0.0;
  double scale_glob = 0.0;
  double work_loads = 0.0, work_ends = 0.0;
  std::optional<DampingState<V>> damping;
};
using TimeSeriesState = BasicTimeSeriesState<Vec6>;

template <class G>
class TimeDiagnostics final : public march::BasicSlabObserver<typename G::Element> {
 public:
  using Row = BasicTimeRowDiagnostics<typename G::Algebra>;
  using Sink = std::function<void(const Row&)>;
  /// `boundary` selects the columns of the balance (prescribed ends are excluded: their reaction
  /// is a flux through the rectangle's side).
  /// `options`: a stride over the rows (rows 0, stride, ... and J-1 are reported) and threads;
  /// the work is summed over every row whatever the stride.
  TimeDiagnostics(const dcel::DiscreteModel<G>& model, const mesh::Boundary& boundary, Sink sink,
                  const SeriesOptions& options = {});

  void slab(int j, const std::vector<typename G::Element>& row,
            const march::SlabStats& stats) override;

  using State = BasicTimeSeriesState<typename G::Algebra>;
  /// The state after the last row reported.
  State state() const;
  /// Continues the series of a march that reported rows ..first-1 and left `state`: the rows fed
  /// start at first-1 (a continued time march emits rows first-1 and first again), row `first`
  /// is the first reported.
  void resume(int first, const State& state);

 private:
  Sink sink_;
  SlabSeries<G> series_;
  std::optional<WorkSeries<G>> work_;          // set when there are loads or prescribed ends
  double E0_ = 0.0;                            // E_0 of the march
  double work_loads_ = 0.0, work_ends_ = 0.0;  // W_j of the last row reported
};

}  // namespace field::noether
