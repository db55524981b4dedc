#include "libfield/noether/work_series.hpp"

#include <algorithm>

#include "libfield/core/error.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/dcel/residual.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::noether {

template <class G>
WorkSeries<G>::WorkSeries(const dcel::DiscreteModel<G>& model, SlabAxis axis,
                          const mesh::Boundary& boundary)
    : model_(model),
      axis_(axis),
      sides_prescribed_(prescribed_sides(boundary, axis)),
      K_(slab_length(model.mesh(), axis)),
      h_(axis == SlabAxis::row ? model.dt() : model.ds()) {
  // The loads sit on material points a (theory (8.6); none on row J, (4.1)): along a row on the
  // nodes they name, along a column on every row j < J when the model has any.
  std::vector<char> flags(static_cast<size_t>(K_ + 1), 0);
  if (axis == SlabAxis::row) {
    const int A = K_;
    for (const model::DistributedLoad& load : model.loads().distributed) {
      const int last = load.a_last < 0 ? A - 1 : load.a_last;  // as Loads::distributed_body
      for (int a = std::max(load.a_first, 0); a <= std::min(last, A - 1); ++a)
        flags[static_cast<size_t>(a)] = 1;
    }
    for (const model::PointLoad& load : model.loads().point)
      for (int a = load.end ? load.a - 1 : load.a; a <= load.a; ++a)  // end wrench: A-1, A (§4.6)
        if (a >= 0 && a <= A) flags[static_cast<size_t>(a)] = 1;
  } else if (!model.loads().empty()) {
    std::fill(flags.begin(), flags.end() - 1, 1);
  }
  if (sides_prescribed_.first) flags.front() = 1;
  if (sides_prescribed_.last) flags.back() = 1;
  for (int k = 0; k <= K_; ++k)
    if (flags[static_cast<size_t>(k)]) visited_.push_back(k);
}

template <class G>
const typename G::Element& WorkSeries<G>::node(int i, int k) const {
  FIELD_ASSERT(i <= last_ && i > last_ - held_, "WorkSeries: slab " << i << " is not held (slabs "
                                                                    << last_ - held_ + 1 << ".."
                                                                    << last_ << ")");
  return slabs_[static_cast<size_t>(i % 3)][static_cast<size_t>(k)];
}

template <class G>
typename G::Algebra WorkSeries<G>::reaction_body(int i, int k) const {
  // G_n of theory (4.1) at the prescribed node (the point loads at n included), from slabs
  // i-1..i+1; R_body = -G_n / h, theory (8.5), (8.9).
  const dcel::NodeValues<G> values = [this](int j, int a) -> const E& {
    return axis_ == SlabAxis::row ? node(j, a) : node(a, j);
  };
  const mesh::Node n = slab_node(axis_, i, k);
  V G_n = dcel::node_residual(model_, values, n.j, n.a).G;
  // Row 0 has no row -1: leave out the end node's momentum term -ds mu_0^a of D1 (8.5), with
  // its mass damping -c ds mu_0^a, c = alpha dt/2 (theory (4.18)). Column 0 has no column -1
  // either, but its reaction is that of a free tip: nothing is left out (8.9).
  if (axis_ == SlabAxis::row && i == 0 && k < K_) {
    const double c = 0.5 * model_.loads().damping.mass * model_.dt();
    G_n += model_.ds() * (1.0 + c) * dcel::time_momentum(model_, k, rate_[static_cast<size_t>(k)]);
  }
  return -G_n / h_;
}

template <class G>
std::optional<SlabWorkOf<G>> WorkSeries<G>::add(int i1, const std::vector<E>& slab) {
  FIELD_ASSERT(static_cast<int>(slab.size()) == K_ + 1, "WorkSeries: slab "
                                                            << i1 << " has " << slab.size()
                                                            << " values, expected " << K_ + 1);
  if (i1 == 0) loads_ = sides_ = 0.0;
  if (i1 == 0 || (i1 == first_ - 1 && first_ >= 1)) {  // a new march, or a continued series
    held_ = 0;
    rate_previous_.assign(static_cast<size_t>(K_ + 1), V::Zero());
    rate_.assign(static_cast<size_t>(K_ + 1), V::Zero());
  }
  FIELD_ASSERT(held_ == 0 || i1 == last_ + 1, "WorkSeries: slab " << i1 << " after slab " << last_);
  slabs_[static_cast<size_t>(i1 % 3)] = slab;
  last_ = i1;
  held_ = std::min(held_ + 1, 3);
  if (i1 == 0 || i1 < first_) return std::nullopt;
  const int i = i1 - 1;
  rate_previous_.swap(rate_);  // rate_{i-1}
  for (const int k : visited_)
    rate_[static_cast<size_t>(k)] = mesh::convected<G>(node(i, k), node(i1, k), h_);
  if (i < first_) return std::nullopt;  // a continued series: slab first-1 gives rate_{first-1}
  // nu_i^k = (rate_{i-1}^k + rate_i^k) / 2, theory (8.6), (8.10)
  const auto nu = [this](int k) {
    return 0.5 * (rate_previous_[static_cast<size_t>(k)] + rate_[static_cast<size_t>(k)]);
  };
  SlabWorkOf<G> out;
  out.index = i;
  const V R_first = sides_prescribed_.first ? reaction_body(i, 0) : V::Zero();
  const V R_last = sides_prescribed_.last ? reaction_body(i, K_) : V::Zero();
  if (sides_prescribed_.first) out.reaction_first = lie::spatial_covector(node(i, 0), R_first);
  if (sides_prescribed_.last) out.reaction_last = lie::spatial_covector(node(i, K_), R_last);
  if (i >= 1) {  // W_0 = 0: E_0 and E_i are centred half a step after slabs 0 and i (8.7), (8.11)
    // The loads, serially in node order (theory (8.6)); a clamped node has nu = 0 exactly.
    if (!model_.loads().empty())
      for (const int k : visited_) {
        const mesh::Node n = slab_node(axis_, i, k);
        loads_ += node_load(model_, node(i, k), n.j, n.a).dot(nu(k));
      }
    // The prescribed sides: the reaction h R_body = -G_n against the side's displacement.
    if (sides_prescribed_.first) sides_ += h_ * R_first.dot(nu(0));
    if (sides_prescribed_.last) sides_ += h_ * R_last.dot(nu(K_));
  }
  out.work_loads = loads_;
  out.work_sides = sides_;
  return out;
}

template <class G>
std::vector<SlabWorkOf<G>> field_work(const dcel::DiscreteModel<G>& model,
                                      const mesh::FieldOf<G>& field, SlabAxis axis,
                                      const mesh::Boundary& boundary) {
  const int N = slab_count(model.mesh(), axis), K = slab_length(model.mesh(), axis);
  WorkSeries<G> series(model, axis, boundary);
  std::vector<SlabWorkOf<G>> out;
  std::vector<typename G::Element> slab(static_cast<size_t>(K + 1));
  for (int i = 0; i <= N; ++i) {
    for (int k = 0; k <= K; ++k) {
      const mesh::Node n = slab_node(axis, i, k);
      slab[static_cast<size_t>(k)] = field(n.j, n.a);
    }
    if (std::optional<SlabWorkOf<G>> w = series.add(i, slab)) out.push_back(*w);
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

#define FIELD_INSTANTIATE(G)                      \
  template class WorkSeries<G>;                   \
  template std::vector<SlabWorkOf<G>> field_work( \
      const dcel::DiscreteModel<G>&, const mesh::FieldOf<G>&, SlabAxis, const mesh::Boundary&);
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether
