#include "libfield/noether/space_diagnostics.hpp"

namespace field::noether {

template <class G>
SpaceDiagnostics<G>::SpaceDiagnostics(const dcel::DiscreteModel<G>& model,
                                      const mesh::Boundary& boundary, Sink sink,
                                      const SeriesOptions& options)
    : sink_(std::move(sink)),
      // Res([j_first, j_last] x [a, a]), theory §7.2: prescribed rows are excluded.
      series_(model, SlabAxis::column, boundary.first == mesh::Side::prescribed ? 1 : 0,
              boundary.last == mesh::Side::prescribed ? model.mesh().J() - 1 : model.mesh().J(),
              options) {}

template <class G>
void SpaceDiagnostics<G>::slab(int a1, const std::vector<lie::SE3>& next,
                               const march::SlabStats& stats) {
  const std::optional<SlabReport> r = series_.add(a1, next);
  if (!r || !sink_) return;
  SpaceColumnDiagnostics out;
  out.a = r->index;
  out.s = series_.model().mesh().s(r->index, mesh::Side::prescribed);
  out.energy = r->energy;
  out.momentum = r->momentum;
  out.balance = r->balance;
  out.newton = stats;
  sink_(out);
}

#define FIELD_INSTANTIATE(G) template class SpaceDiagnostics<G>;
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether
