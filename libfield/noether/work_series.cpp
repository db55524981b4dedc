#include "libfield/noether/work_series.hpp"

#include "libfield/core/error.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/dcel/residual.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::noether {

template <class G>
WorkSeries<G>::WorkSeries(const dcel::DiscreteModel<G>& model, const mesh::Boundary& boundary)
    : model_(model),
      left_(boundary.left == mesh::Side::prescribed),
      right_(boundary.right == mesh::Side::prescribed),
      window_(model.mesh(), 3) {}

template <class G>
Vec6 WorkSeries<G>::reaction_body(int j, int a) const {
  // G_n of theory §4.1 (the point loads at n included); R_body = -G_n / dt (theory §4.2).
  Vec6 G_n = dcel::node_residual(model_, window_, j, a).G;
  if (j == 0 && a < model_.mesh().A()) {
    // Row 0 has no row -1: leave out the end node's momentum term -ds mu_0^a of D1 (8.5).
    G_n +=
        model_.ds() * dcel::time_momentum(
                          model_, a, mesh::convected<G>(window_(0, a), window_(1, a), model_.dt()));
  }
  return -G_n / model_.dt();
}

template <class G>
Vec6 WorkSeries<G>::nu(int j, int a) const {
  const double dt = model_.dt();
  return 0.5 * (mesh::convected<G>(window_(j - 1, a), window_(j, a), dt) +
                mesh::convected<G>(window_(j, a), window_(j + 1, a), dt));
}

template <class G>
std::optional<RowWork> WorkSeries<G>::add(int j1, const std::vector<lie::SE3>& row) {
  if (j1 == 0) {
    window_.clear();
    loads_ = ends_ = 0.0;
  }
  window_.push(j1, row);
  if (j1 == 0) return std::nullopt;
  const int j = j1 - 1, A = model_.mesh().A();
  const double dt = model_.dt(), ds = model_.ds(), t = model_.mesh().t(j);
  const model::Loads& loads = model_.loads();
  RowWork out;
  out.j = j;
  if (left_) out.reaction_left = lie::spatial_covector(window_(j, 0), reaction_body(j, 0));
  if (right_) out.reaction_right = lie::spatial_covector(window_(j, A), reaction_body(j, A));
  if (j >= 1) {  // W_0 = 0: E_0 and E_j are centred at t_{1/2} and t_{j+1/2} (8.7)
    // The loads, serially in node order (theory (8.6)); a clamped node has nu = 0 exactly.
    if (!loads.empty())
      for (int a = 0; a <= A; ++a) {
        const lie::SE3& g = window_(j, a);
        Vec6 L = Vec6::Zero();
        if (!loads.point.empty()) L += dt * model_.point_load(g, j, a);
        if (!loads.distributed.empty() && a < A) L += dt * ds * loads.distributed_body(g, a, A, t);
        if (L.isZero(0.0)) continue;
        loads_ += L.dot(nu(j, a));
      }
    // The prescribed ends: the reaction dt R_body = -G_n against the end's motion.
    if (left_) ends_ += dt * reaction_body(j, 0).dot(nu(j, 0));
    if (right_) ends_ += dt * reaction_body(j, A).dot(nu(j, A));
  }
  out.work_loads = loads_;
  out.work_ends = ends_;
  return out;
}

template <class G>
std::vector<RowWork> time_work(const dcel::DiscreteModel<G>& model, const mesh::Field& field,
                               const mesh::Boundary& boundary) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  WorkSeries<G> series(model, boundary);
  std::vector<RowWork> out;
  std::vector<lie::SE3> row(static_cast<size_t>(mesh.A() + 1));
  for (int j = 0; j <= mesh.J(); ++j) {
    for (int a = 0; a <= mesh.A(); ++a) row[static_cast<size_t>(a)] = field(j, a);
    if (std::optional<RowWork> w = series.add(j, row)) out.push_back(*w);
  }
  return out;
}

bool end_moves(const mesh::Field& field, int a) {
  const lie::SE3& g0 = field(0, a);
  for (int j = 1; j <= field.mesh().J(); ++j)
    if (field(j, a).R != g0.R || field(j, a).r != g0.r) return true;
  return false;
}

#define FIELD_INSTANTIATE(G)                                                                 \
  template class WorkSeries<G>;                                                              \
  template std::vector<RowWork> time_work(const dcel::DiscreteModel<G>&, const mesh::Field&, \
                                          const mesh::Boundary&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether
