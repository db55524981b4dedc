#include "libfield/noether/time_diagnostics.hpp"

#include "libfield/noether/energy_balance.hpp"

namespace field::noether {

template <class G>
TimeDiagnostics<G>::TimeDiagnostics(const dcel::DiscreteModel<G>& model,
                                    const mesh::Boundary& boundary, Sink sink,
                                    const SeriesOptions& options)
    : sink_(std::move(sink)),
      // Res([j, j] x [a_first, a_last]), theory §7.2: prescribed end columns are excluded.
      series_(model, SlabAxis::row, boundary.left == mesh::Side::prescribed ? 1 : 0,
              boundary.right == mesh::Side::prescribed ? model.mesh().A() - 1 : model.mesh().A(),
              options) {
  if (!model.loads().empty() || boundary.left == mesh::Side::prescribed ||
      boundary.right == mesh::Side::prescribed)
    work_.emplace(model, boundary);
}

template <class G>
void TimeDiagnostics<G>::slab(int j1, const std::vector<typename G::Element>& next,
                              const march::SlabStats& stats) {
  std::optional<RowWorkOf<G>> w;
  if (work_) w = work_->add(j1, next);  // every row: W_j is a sum over all of them
  if (w) work_loads_ = w->work_loads, work_ends_ = w->work_ends;
  const auto r = series_.add(j1, next);
  if (!r || !sink_) return;
  Row out;
  out.j = r->index;
  out.t = series_.model().mesh().t(r->index);
  out.energy = r->energy;
  out.momentum = r->momentum;
  out.balance = r->balance;
  out.dissipated = r->dissipated;
  out.newton = stats;
  if (w) {
    FIELD_ASSERT(w->j == r->index,
                 "TimeDiagnostics: work of row " << w->j << " for row " << r->index);
    out.reaction_left = w->reaction_left;
    out.reaction_right = w->reaction_right;
    out.work = w->work();
  }
  if (r->index == 0) E0_ = r->energy;
  out.energy_balance = energy_balance(out.energy, E0_, out.work, out.dissipated);
  sink_(out);
}

template <class G>
typename TimeDiagnostics<G>::State TimeDiagnostics<G>::state() const {
  return {E0_, series_.scale_glob(), work_loads_, work_ends_, series_.damping_state()};
}

template <class G>
void TimeDiagnostics<G>::resume(int first, const State& state) {
  series_.resume(first, state.scale_glob, state.damping);
  if (work_) work_->resume(first, state.work_loads, state.work_ends);
  E0_ = state.E0;
  work_loads_ = state.work_loads;
  work_ends_ = state.work_ends;
}

#define FIELD_INSTANTIATE(G) template class TimeDiagnostics<G>;
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether
