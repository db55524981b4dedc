#include "libfield/noether/space_diagnostics.hpp"

#include "libfield/dcel/residual.hpp"

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
      first_(boundary.first == mesh::Side::prescribed),
      last_(boundary.last == mesh::Side::prescribed) {}

template <class G>
Vec6 SpaceDiagnostics<G>::reaction(int j, int a) const {
  // G_n of theory (4.1) at the prescribed node (j, a); R = Ad*_{g^{-1}} (-G_n / ds), (8.9). Column
  // 0 has no column -1: its reaction is that of a free tip (no stress beyond a = 0, (4.7)).
  const dcel::NodeValues<G> values = [this](int jn, int an) -> const lie::SE3& {
    return columns_[static_cast<size_t>(an % 3)][static_cast<size_t>(jn)];
  };
  const Vec6 G_n = dcel::node_residual(series_.model(), values, j, a).G;
  return lie::spatial_covector(values(j, a), Vec6(-G_n / series_.model().ds()));
}

template <class G>
void SpaceDiagnostics<G>::slab(int a1, const std::vector<lie::SE3>& next,
                               const march::SlabStats& stats) {
  if (first_ || last_) {  // keep columns a1-2..a1: the reactions of column a1-1
    columns_[static_cast<size_t>(a1 % 3)] = next;
  }
  const std::optional<SlabReport> r = series_.add(a1, next);
  if (!r || !sink_) return;
  SpaceColumnDiagnostics out;
  out.a = r->index;
  out.s = series_.model().mesh().s(r->index, mesh::Side::prescribed);
  out.energy = r->energy;
  out.momentum = r->momentum;
  out.balance = r->balance;
  out.newton = stats;
  if (first_) out.reaction_first = reaction(0, r->index);
  if (last_) out.reaction_last = reaction(series_.model().mesh().J(), r->index);
  sink_(out);
}

#define FIELD_INSTANTIATE(G) template class SpaceDiagnostics<G>;
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether
