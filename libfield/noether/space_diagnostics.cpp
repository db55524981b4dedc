#include "libfield/noether/space_diagnostics.hpp"

#include <algorithm>

namespace field::noether {

SpaceDiagnostics::SpaceDiagnostics(const dcel::DiscreteModel& model, const mesh::Boundary& boundary,
                                   Sink sink)
    : model_(model),
      j_first_(boundary.first == mesh::Side::prescribed ? 1 : 0),
      j_last_(boundary.last == mesh::Side::prescribed ? model.mesh().J() - 1 : model.mesh().J()),
      sink_(std::move(sink)) {}

void SpaceDiagnostics::slab(int a1, const std::vector<lie::SE3>& next,
                            const march::SlabStats& stats) {
  const double next_node_energy = slab_node_energy(model_, SlabAxis::column, next);
  if (a1 == 0) scale_glob_ = 0.0;  // a new march
  if (a1 > 0) {
    const int a = a1 - 1;
    SlabTerms terms = slab_terms(model_, SlabAxis::column, a, column_, next);
    SpaceColumnDiagnostics out;
    out.a = a;
    out.s = model_.mesh().s(a, mesh::Side::prescribed);
    out.energy =
        slab_energy(model_, SlabAxis::column, terms, column_node_energy_, next_node_energy);
    out.momentum = slab_momentum(terms);
    out.newton = stats;
    scale_glob_ = std::max(scale_glob_, slab_scale(terms, j_first_, j_last_));
    if (have_previous_)  // Res([j_first, j_last] x [a, a]), SPEC [S8.2]
      out.balance = slab_balance(previous_, terms, j_first_, j_last_, scale_glob_).relative;
    if (sink_) sink_(out);
    previous_ = std::move(terms);
  }
  have_previous_ = a1 > 0;
  column_ = next;
  column_node_energy_ = next_node_energy;
}

}  // namespace field::noether
