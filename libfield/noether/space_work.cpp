#include "libfield/noether/space_work.hpp"

#include "libfield/dcel/residual.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/noether/work_series.hpp"

namespace field::noether {

template <class G>
SpaceWorkSeries<G>::SpaceWorkSeries(const dcel::DiscreteModel<G>& model,
                                    const mesh::Boundary& boundary)
    : model_(model),
      first_(boundary.first == mesh::Side::prescribed),
      last_(boundary.last == mesh::Side::prescribed) {
  const int J = model.mesh().J();
  // Loads act on rows 0..J-1 (none on row J, theory (4.1)); the prescribed rows do work too.
  const bool loaded = !model.loads().empty();
  for (int j = 0; j <= J; ++j)
    if ((loaded && j < J) || (j == 0 && first_) || (j == J && last_)) rows_.push_back(j);
}

template <class G>
Vec6 SpaceWorkSeries<G>::reaction_body(int j, int a) const {
  // G_n of theory (4.1) at the prescribed node (j, a) (the point loads at n included); R_body =
  // -G_n / ds, (8.9). Column 0 has no column -1: its reaction is that of a free tip (no stress
  // beyond a = 0, (4.7)).
  const dcel::NodeValues<G> values = [this](int jn, int an) -> const lie::SE3& {
    return node(jn, an);
  };
  return Vec6(-dcel::node_residual(model_, values, j, a).G / model_.ds());
}

template <class G>
std::optional<ColumnWork> SpaceWorkSeries<G>::add(int a1, const std::vector<lie::SE3>& column) {
  if (rows_.empty()) {  // natural rows, no loads: no reaction, no work
    if (a1 == 0) return std::nullopt;
    ColumnWork out;
    out.a = a1 - 1;
    return out;
  }
  const int J = model_.mesh().J();
  if (a1 == 0) {
    loads_ = rows_work_ = 0.0;
    eta_previous_.assign(static_cast<size_t>(J + 1), Vec6::Zero());
    eta_.assign(static_cast<size_t>(J + 1), Vec6::Zero());
  }
  columns_[static_cast<size_t>(a1 % 3)] = column;
  if (a1 == 0) return std::nullopt;
  const int a = a1 - 1;
  const double ds = model_.ds();
  eta_previous_.swap(eta_);  // eta^{a-1}
  for (const int j : rows_)
    eta_[static_cast<size_t>(j)] = mesh::convected<G>(node(j, a), node(j, a1), ds);
  // nu~_j^a = (eta_j^{a-1} + eta_j^a) / 2, theory (8.10)
  const auto nu = [this](int j) {
    return Vec6(0.5 * (eta_previous_[static_cast<size_t>(j)] + eta_[static_cast<size_t>(j)]));
  };
  ColumnWork out;
  out.a = a;
  const Vec6 first = first_ ? reaction_body(0, a) : Vec6::Zero();
  const Vec6 last = last_ ? reaction_body(J, a) : Vec6::Zero();
  if (first_) out.reaction_first = lie::spatial_covector(node(0, a), first);
  if (last_) out.reaction_last = lie::spatial_covector(node(J, a), last);
  if (a >= 1) {  // W~^0 = 0: E_M^0 and E_M^a are centred at s_{1/2} and s_{a+1/2} (8.11)
    // The loads, serially in row order (theory (8.6), (8.11)).
    if (!model_.loads().empty())
      for (const int j : rows_) loads_ += node_load(model_, node(j, a), j, a).dot(nu(j));
    // The prescribed rows: ds R_body = -G_n against the row's strain displacement.
    if (first_) rows_work_ += ds * first.dot(nu(0));
    if (last_) rows_work_ += ds * last.dot(nu(J));
  }
  out.work_loads = loads_;
  out.work_rows = rows_work_;
  return out;
}

template <class G>
std::vector<ColumnWork> space_work(const dcel::DiscreteModel<G>& model, const mesh::Field& field,
                                   const mesh::Boundary& boundary) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  SpaceWorkSeries<G> series(model, boundary);
  std::vector<ColumnWork> out;
  std::vector<lie::SE3> column(static_cast<size_t>(mesh.J() + 1));
  for (int a = 0; a <= mesh.A(); ++a) {
    for (int j = 0; j <= mesh.J(); ++j) column[static_cast<size_t>(j)] = field(j, a);
    if (std::optional<ColumnWork> w = series.add(a, column)) out.push_back(*w);
  }
  return out;
}

#define FIELD_INSTANTIATE(G)                                                                     \
  template class SpaceWorkSeries<G>;                                                             \
  template std::vector<ColumnWork> space_work(const dcel::DiscreteModel<G>&, const mesh::Field&, \
                                              const mesh::Boundary&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether
