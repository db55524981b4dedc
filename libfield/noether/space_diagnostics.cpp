#include "libfield/noether/space_diagnostics.hpp"

#include "libfield/core/error.hpp"
#include "libfield/noether/energy_balance.hpp"

namespace field::noether {

template <class G>
SpaceDiagnostics<G>::SpaceDiagnostics(const dcel::DiscreteModel<G>& model,
                                      const mesh::Boundary& boundary, Sink sink,
                                      const SeriesOptions& options)
    : sink_(std::move(sink)),
      // Res([j_first, j_last] x [a, a]), theory §7.2: prescribed rows are excluded.
      series_(model, SlabAxis::column, boundary.first == mesh::Side::prescribed ? 1 : 0,
              boundary.last == mesh::Side::prescribed ? model.mesh().J() - 1 : model.mesh().J(),
              options),
      work_(model, boundary) {}

template <class G>
void SpaceDiagnostics<G>::slab(int a1, const std::vector<lie::SE3>& next,
                               const march::SlabStats& stats) {
  const std::optional<ColumnWork> w = work_.add(a1, next);  // every column: W~^a sums them all
  const std::optional<SlabReport> r = series_.add(a1, next);
  if (!r || !sink_) return;
  FIELD_ASSERT(w && w->a == r->index,
               "SpaceDiagnostics: work of column " << (w ? w->a : -1) << " for " << r->index);
  SpaceColumnDiagnostics out;
  out.a = r->index;
  out.s = series_.model().mesh().s(r->index, mesh::Side::prescribed);
  out.energy = r->energy;
  out.momentum = r->momentum;
  out.balance = r->balance;
  out.newton = stats;
  out.reaction_first = w->reaction_first;
  out.reaction_last = w->reaction_last;
  out.work = w->work();
  if (r->index == 0) E0_ = r->energy;
  // B~^a = E_M^a - E_M^0 - W~^a, theory (8.12): the space march dissipates nothing.
  out.energy_balance = energy_balance(out.energy, E0_, out.work, 0.0);
  sink_(out);
}

#define FIELD_INSTANTIATE(G) template class SpaceDiagnostics<G>;
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether
