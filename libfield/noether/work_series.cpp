#include "libfield/noether/work_series.hpp"

#include <algorithm>

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
      window_(model.mesh(), 3) {
  const int A = model.mesh().A();
  visited_.assign(static_cast<size_t>(A + 1), 0);
  for (const model::DistributedLoad& load : model.loads().distributed) {
    const int last = load.a_last < 0 ? A - 1 : load.a_last;  // as Loads::distributed_body
    for (int a = std::max(load.a_first, 0); a <= std::min(last, A - 1); ++a)
      visited_[static_cast<size_t>(a)] = 1;
  }
  for (const model::PointLoad& load : model.loads().point)
    for (int a = load.end ? load.a - 1 : load.a; a <= load.a; ++a)  // end wrench: A-1, A (§4.6)
      if (a >= 0 && a <= A) visited_[static_cast<size_t>(a)] = 1;
  if (left_) visited_.front() = 1;
  if (right_) visited_.back() = 1;
}

template <class G>
typename G::Algebra WorkSeries<G>::reaction_body(int j, int a) const {
  // G_n of theory §4.1 (the point loads at n included); R_body = -G_n / dt (theory §4.2).
  V G_n = dcel::node_residual(model_, window_, j, a).G;
  // Row 0 has no row -1: leave out the end node's momentum term -ds mu_0^a of D1 (8.5), with
  // its mass damping -c ds mu_0^a, c = alpha dt/2 (theory (4.18)).
  if (j == 0 && a < model_.mesh().A()) {
    const double c = 0.5 * model_.loads().damping.mass * model_.dt();
    G_n += model_.ds() * (1.0 + c) * dcel::time_momentum(model_, a, xi_[static_cast<size_t>(a)]);
  }
  return -G_n / model_.dt();
}

template <class G>
std::optional<RowWorkOf<G>> WorkSeries<G>::add(int j1,
                                               const std::vector<typename G::Element>& row) {
  const int A = model_.mesh().A();
  if (j1 == 0) {
    window_.clear();
    loads_ = ends_ = 0.0;
    xi_previous_.assign(static_cast<size_t>(A + 1), V::Zero());
    xi_.assign(static_cast<size_t>(A + 1), V::Zero());
  }
  if (j1 == first_ - 1 && first_ >= 1) {  // a continued series: its first row
    window_.clear();
    xi_previous_.assign(static_cast<size_t>(A + 1), V::Zero());
    xi_.assign(static_cast<size_t>(A + 1), V::Zero());
  }
  window_.push(j1, row);
  if (j1 == 0 || j1 < first_) return std::nullopt;
  const int j = j1 - 1;
  const double dt = model_.dt();
  xi_previous_.swap(xi_);  // xi_{j-1}
  for (int a = 0; a <= A; ++a)
    if (visited_[static_cast<size_t>(a)])
      xi_[static_cast<size_t>(a)] = mesh::convected<G>(window_(j, a), window_(j + 1, a), dt);
  if (j < first_) return std::nullopt;  // a continued series: row first-1 gives xi_{first-1} only
  // nu_j^a = (xi_{j-1}^a + xi_j^a) / 2, theory (8.6)
  const auto nu = [this](int a) {
    return 0.5 * (xi_previous_[static_cast<size_t>(a)] + xi_[static_cast<size_t>(a)]);
  };
  RowWorkOf<G> out;
  out.j = j;
  const V left = left_ ? reaction_body(j, 0) : V::Zero();
  const V right = right_ ? reaction_body(j, A) : V::Zero();
  if (left_) out.reaction_left = lie::spatial_covector(window_(j, 0), left);
  if (right_) out.reaction_right = lie::spatial_covector(window_(j, A), right);
  if (j >= 1) {  // W_0 = 0: E_0 and E_j are centred at t_{1/2} and t_{j+1/2} (8.7)
    // The loads, serially in node order (theory (8.6)); a clamped node has nu = 0 exactly.
    if (!model_.loads().empty())
      for (int a = 0; a <= A; ++a)
        if (visited_[static_cast<size_t>(a)])  // else no load there
          loads_ += node_load(model_, window_(j, a), j, a).dot(nu(a));
    // The prescribed ends: the reaction dt R_body = -G_n against the end's motion.
    if (left_) ends_ += dt * left.dot(nu(0));
    if (right_) ends_ += dt * right.dot(nu(A));
  }
  out.work_loads = loads_;
  out.work_ends = ends_;
  return out;
}

template <class G>
std::vector<RowWorkOf<G>> time_work(const dcel::DiscreteModel<G>& model,
                                    const mesh::FieldOf<G>& field, const mesh::Boundary& boundary) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  WorkSeries<G> series(model, boundary);
  std::vector<RowWorkOf<G>> out;
  std::vector<typename G::Element> row(static_cast<size_t>(mesh.A() + 1));
  for (int j = 0; j <= mesh.J(); ++j) {
    for (int a = 0; a <= mesh.A(); ++a) row[static_cast<size_t>(a)] = field(j, a);
    if (std::optional<RowWorkOf<G>> w = series.add(j, row)) out.push_back(*w);
  }
  return out;
}

namespace {
template <class E>
bool differ(const E& g, const E& h) {
  return g.R != h.R || g.r != h.r;
}
bool differ(const Vec3& r, const Vec3& q) {  // R^3: the position (the cable, theory §1.8)
  return r != q;
}
}  // namespace

template <class E>
bool end_moves(const mesh::BasicField<E>& field, int a) {
  const E& g0 = field(0, a);
  for (int j = 1; j <= field.mesh().J(); ++j)
    if (differ(field(j, a), g0)) return true;
  return false;
}

template bool end_moves(const mesh::BasicField<lie::SE3>&, int);
template bool end_moves(const mesh::BasicField<lie::SE2>&, int);
template bool end_moves(const mesh::BasicField<Vec3>&, int);

#define FIELD_INSTANTIATE(G)                                                  \
  template class WorkSeries<G>;                                               \
  template std::vector<RowWorkOf<G>> time_work(const dcel::DiscreteModel<G>&, \
                                               const mesh::FieldOf<G>&, const mesh::Boundary&);
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether
