#pragma once
/// Streaming diagnostics of a march on either axis (theory §7.2, §8, §8.1; slab_axis.hpp): an
/// observer that keeps the last slabs and, when slab i+1 arrives, reports for slab i its energy,
/// its total momentum, the Noether balance of the slab R = [i, i] x [the equation nodes along
/// it], the Newton statistics of the solve that produced slab i+1, the reactions of the prescribed
/// sides, the work and the energy balance. A time row j gives E_j, P_j, R_j (8.5), W_j (8.7), D_j
/// (4.20) and B_j (8.8); a space column a gives E_M^a, Q^a, R_j^a (8.9), W~^a (8.11) and B~^a
/// (8.12), the same formula with D = 0 (the space march has no damping). SlabSeries computes the
/// energy, momentum and balance, WorkSeries the reactions and the work. Memory is independent of
/// the number of slabs.
#include <functional>
#include <optional>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "libfield/noether/slab_series.hpp"
#include "libfield/noether/work_series.hpp"

namespace field::noether {

/// The values reported for slab i. V: the group's algebra vector. Momentum and reactions are
/// spatial: on SE(3) (angular about the origin (3), linear (3)); on SE(2) (angular about the
/// origin, about the plane's normal; linear (2)), theory (1.7.3).
template <class V>
struct BasicSlabRecord {
  int index = 0;            ///< i: the row j or the column a
  double coordinate = 0.0;  ///< t_j [s] or s_a = a ds [m] (slab_coordinate)
  /// E_j [J] or E_M^a [J s/m], theory §8 (E_M is not a physical energy, not positive)
  double energy = 0.0;
  /// P_j = ds sum_a M_j^a or Q^a = dt sum_{j<J} N_j^a (theory §7)
  V momentum = V::Zero();
  /// |Res(R)|_inf / max(scale_R, scale_glob) with scale_glob the largest slab scale so far: theory
  /// §7.2; slabs 1..N-1, else 0
  double balance = 0.0;
  march::SlabStats newton;  ///< Newton statistics of the solve of slab i+1
  /// The spatial reactions at the slab's prescribed sides k = 0 and k = K (BasicSlabWork): R_j at
  /// the ends a = 0 / A (8.5), R_j^a at the rows j = 0 / J (8.9); zero on a side not prescribed
  V reaction_first = V::Zero(), reaction_last = V::Zero();
  /// W_j over rows 1..j [J] (8.7) or W~^a over columns 1..a [J s/m] (8.11): the loads and the
  /// prescribed sides; 0 without either
  double work = 0.0;
  double dissipated = 0.0;  ///< D_j: energy dissipated over rows 1..j [J] (4.20); 0 undamped
  /// B_j = E_j - E_0 - W_j + D_j [J] (8.8), or B~^a = E_M^a - E_M^0 - W~^a [J s/m] (8.12)
  double energy_balance = 0.0;
};
using SlabRecord = BasicSlabRecord<Vec6>;

/// What the series carries from slab to slab, after the last slab it reported: E_0, the balance's
/// scale_glob (theory §7.2), the two parts of W (theory (8.7)) and, damped, D_j and the damping
/// terms of the row before (SlabSeries::damping_state). A series that continues a time march from
/// it (resume) reports the rows after bit for bit (io/checkpoint.hpp).
template <class V>
struct BasicSeriesState {
  double E0 = 0.0;
  double scale_glob = 0.0;
  double work_loads = 0.0, work_sides = 0.0;
  std::optional<DampingState<V>> damping;
};

template <class G>
class SlabDiagnostics final : public march::BasicSlabObserver<typename G::Element> {
 public:
  using Record = BasicSlabRecord<typename G::Algebra>;
  using Sink = std::function<void(const Record&)>;
  /// The slabs of a march along `axis`. `boundary` gives the prescribed sides: they are left out
  /// of the balance (their reaction is a flux through the rectangle's side) and their reactions
  /// are reported. `options`: a stride over the slabs (0, stride, ... and N-1 are reported) and
  /// threads; the work is summed over every slab whatever the stride.
  SlabDiagnostics(const dcel::DiscreteModel<G>& model, SlabAxis axis,
                  const mesh::Boundary& boundary, Sink sink, const SeriesOptions& options = {});

  void slab(int i, const std::vector<typename G::Element>& values,
            const march::SlabStats& stats) override;

  using State = BasicSeriesState<typename G::Algebra>;
  /// The state after the last slab reported.
  State state() const;
  /// Continues the series of a march that reported slabs ..first-1 and left `state`: the slabs
  /// fed start at first-1 (a continued time march emits rows first-1 and first again), slab
  /// `first` is the first reported.
  void resume(int first, const State& state);

 private:
  Sink sink_;
  SlabAxis axis_;
  SlabSeries<G> series_;
  std::optional<WorkSeries<G>> work_;           // set when there are loads or prescribed sides
  double E0_ = 0.0;                             // E_0 (E_M^0) of the march
  double work_loads_ = 0.0, work_sides_ = 0.0;  // W of the last slab reported
};

}  // namespace field::noether
