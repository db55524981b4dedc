#include "libfield/noether/time_diagnostics.hpp"

#include <algorithm>

namespace field::noether {

TimeDiagnostics::TimeDiagnostics(const dcel::DiscreteModel& model, const mesh::Boundary& boundary,
                                 Sink sink)
    : model_(model),
      a_first_(boundary.left == mesh::Side::prescribed ? 1 : 0),
      a_last_(boundary.right == mesh::Side::prescribed ? model.mesh().A() - 1 : model.mesh().A()),
      sink_(std::move(sink)) {}

void TimeDiagnostics::slab(int j1, const std::vector<lie::SE3>& next,
                           const march::SlabStats& stats) {
  const double next_node_energy = slab_node_energy(model_, SlabAxis::row, next);
  if (j1 == 0) scale_glob_ = 0.0;  // a new march
  if (j1 > 0) {
    const int j = j1 - 1;
    SlabTerms terms = slab_terms(model_, SlabAxis::row, j, row_, next);
    TimeRowDiagnostics out;
    out.j = j;
    out.t = model_.mesh().t(j);
    out.energy = slab_energy(model_, SlabAxis::row, terms, row_node_energy_, next_node_energy);
    out.momentum = slab_momentum(terms);
    out.newton = stats;
    scale_glob_ = std::max(scale_glob_, slab_scale(terms, a_first_, a_last_));
    if (have_previous_)  // Res([j, j] x [a_first, a_last]), SPEC [S8.2]
      out.balance = slab_balance(previous_, terms, a_first_, a_last_, scale_glob_).relative;
    if (sink_) sink_(out);
    previous_ = std::move(terms);
  }
  have_previous_ = j1 > 0;
  row_ = next;
  row_node_energy_ = next_node_energy;
}

}  // namespace field::noether
