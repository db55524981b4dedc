#include "libfield/noether/slab_diagnostics.hpp"

#include "libfield/core/error.hpp"
#include "libfield/noether/energy_balance.hpp"

namespace field::noether {

namespace {

// The balance over the nodes k1..k2 along the slabs, theory §7.2: the prescribed sides excluded.
template <class G>
SlabSeries<G> equation_series(const dcel::DiscreteModel<G>& model, SlabAxis axis,
                              const mesh::Boundary& boundary, const SeriesOptions& options) {
  const SlabSides sides = prescribed_sides(boundary, axis);
  const int K = slab_length(model.mesh(), axis);
  return SlabSeries<G>(model, axis, sides.first ? 1 : 0, sides.last ? K - 1 : K, options);
}

}  // namespace

template <class G>
SlabDiagnostics<G>::SlabDiagnostics(const dcel::DiscreteModel<G>& model, SlabAxis axis,
                                    const mesh::Boundary& boundary, Sink sink,
                                    const SeriesOptions& options)
    : sink_(std::move(sink)),
      axis_(axis),
      series_(equation_series(model, axis, boundary, options)) {
  if (work_applies(model.loads(), boundary, axis)) work_.emplace(model, axis, boundary);
}

template <class G>
void SlabDiagnostics<G>::slab(int i1, const std::vector<typename G::Element>& next,
                              const march::SlabStats& stats) {
  std::optional<SlabWorkOf<G>> w;
  if (work_) w = work_->add(i1, next);  // every slab: W is a sum over all of them
  if (w) work_loads_ = w->work_loads, work_sides_ = w->work_sides;
  const auto r = series_.add(i1, next);
  if (!r || !sink_) return;
  Record out;
  out.index = r->index;
  out.coordinate = slab_coordinate(series_.model().mesh(), axis_, r->index);
  out.energy = r->energy;
  out.momentum = r->momentum;
  out.balance = r->balance;
  out.dissipated = r->dissipated;
  out.newton = stats;
  if (w) {
    FIELD_ASSERT(w->index == r->index,
                 "SlabDiagnostics: work of slab " << w->index << " for slab " << r->index);
    out.reaction_first = w->reaction_first;
    out.reaction_last = w->reaction_last;
    out.work = w->work();
  }
  if (r->index == 0) E0_ = r->energy;
  // (8.8); on columns D = 0 (SlabSeries damps rows only) and this is B~^a of (8.12).
  out.energy_balance = energy_balance(out.energy, E0_, out.work, out.dissipated);
  sink_(out);
}

template <class G>
typename SlabDiagnostics<G>::State SlabDiagnostics<G>::state() const {
  return {E0_, series_.scale_glob(), work_loads_, work_sides_, series_.damping_state()};
}

template <class G>
void SlabDiagnostics<G>::resume(int first, const State& state) {
  series_.resume(first, state.scale_glob, state.damping);
  if (work_) work_->resume(first, state.work_loads, state.work_sides);
  E0_ = state.E0;
  work_loads_ = state.work_loads;
  work_sides_ = state.work_sides;
}

#define FIELD_INSTANTIATE(G) template class SlabDiagnostics<G>;
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether
