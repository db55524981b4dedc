#pragma once
/// Streaming diagnostics of a space march (theory §7.2, §8), the transpose of TimeDiagnostics:
/// an observer that keeps the last column and, when column a+1 arrives, reports for column a the
/// spatial-evolution energy E_M^a, the spatial momentum Q^a, the Noether balance of the column
/// R = [equation rows] x [a, a], the Newton statistics of the solve that produced column a+1 and
/// the reactions of the prescribed rows (theory (8.9)), the work of the loads and of those rows
/// and the balance of E_M (theory (8.11), (8.12)). Memory is independent of the number of
/// columns A.
#include <functional>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"
#include "libfield/noether/slab_series.hpp"
#include "libfield/noether/space_work.hpp"

namespace field::noether {

struct SpaceColumnDiagnostics {
  int a = 0;
  double s = 0.0;       ///< mesh.s(a, prescribed) = a ds [m]: the tip a = 0 is prescribed
  double energy = 0.0;  ///< E_M^a [J s/m], theory §8 (not a physical energy, not positive)
  Vec6 momentum;        ///< Q^a = dt sum_{j<J} N_j^a (spatial angular about the origin, linear)
  /// |Res(rows x [a,a])|_inf / max(scale_R, dt max_{a'<=a} sum_j |N_j^a'|): theory §7.2 with
  /// scale_glob taken over the columns so far; columns 1..A-1, else 0
  double balance = 0.0;
  march::SlabStats newton;  ///< Newton statistics of the solve of column a+1
  /// Spatial reaction R_j^a of a prescribed row j = 0 / j = J at this column (theory (8.9): the
  /// momentum per length the prescribed row supplies; angular about the origin [N s], linear
  /// [N s/m]); zero on a natural row
  Vec6 reaction_first = Vec6::Zero(), reaction_last = Vec6::Zero();
  /// W~^a: work of the loads and the prescribed rows over columns 1..a [J s/m], theory (8.11);
  /// 0 with natural rows and no loads
  double work = 0.0;
  /// B~^a = E_M^a - E_M^0 - W~^a [J s/m], theory (8.12): bounded, O(ds^2)
  double energy_balance = 0.0;
};

template <class G>
class SpaceDiagnostics final : public march::SlabObserver {
 public:
  using Sink = std::function<void(const SpaceColumnDiagnostics&)>;
  /// `boundary` selects the rows of the balance (prescribed rows are excluded: what they supply is
  /// a flux through the rectangle's side). Reports columns a = 0..A-1.
  /// `options`: a stride over the columns (0, stride, ... and A-1 are reported) and threads;
  /// the work is summed over every column whatever the stride.
  SpaceDiagnostics(const dcel::DiscreteModel<G>& model, const mesh::Boundary& boundary, Sink sink,
                   const SeriesOptions& options = {});

  void slab(int a, const std::vector<lie::SE3>& column, const march::SlabStats& stats) override;

 private:
  Sink sink_;
  SlabSeries<G> series_;
  SpaceWorkSeries<G> work_;  // reactions and work, every column
  double E0_ = 0.0;          // E_M^0 of the march
};

}  // namespace field::noether
