#include "libfield/noether/slab_terms.hpp"

#include <algorithm>

#include "libfield/core/error.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/noether/energies.hpp"

namespace field::noether {

template <class G>
typename G::Algebra along_at(const dcel::DiscreteModel<G>& model, SlabAxis axis,
                             const std::vector<typename G::Element>& slab, int k) {
  const double h = axis == SlabAxis::row ? model.ds() : model.dt();
  return mesh::convected<G>(slab[k], slab[k + 1], h);
}

template <class G>
double node_energy_at(const dcel::DiscreteModel<G>& model, SlabAxis axis, int i,
                      const std::vector<typename G::Element>& slab,
                      const std::vector<typename G::Algebra>& along, int k) {
  // Row: V_j^k of column k. Column: W_j^c in the law of column i, whose E_M^i it enters.
  return axis == SlabAxis::row ? time_potential_term(model.density(k), along[k], slab[k])
                               : space_node_term(model.density(i), along[k], slab[k]);
}

template <class G>
void slab_terms_begin(const dcel::DiscreteModel<G>& model, SlabAxis axis, int i,
                      const std::vector<typename G::Element>& slab, SlabTermsOf<G>& t,
                      bool forces) {
  const bool row = axis == SlabAxis::row;
  const int K = row ? model.mesh().A() : model.mesh().J();
  FIELD_ASSERT(static_cast<int>(slab.size()) == K + 1,
               "slab_terms: a slab of " << slab.size() << " values, expected " << K + 1);
  t.cross.resize(K);
  t.along.resize(K);
  t.force.resize(forces ? K : 0);
  t.point.clear();
  t.triangle_energy = 0.0;
  if (!model.loads().point.empty()) {
    t.point.assign(K + 1, G::Algebra::Zero());
    for (int k = 0; k <= K; ++k) {
      const int j = row ? i : k, a = row ? k : i;
      if (j < model.mesh().J())  // point loads act on rows j <= J-1 (theory §1.4)
        t.point[k] = model.dt() * lie::spatial_covector(slab[k], model.point_load(slab[k], j, a));
    }
  }
}

template <class G>
SlabTermsOf<G> slab_terms_begin(const dcel::DiscreteModel<G>& model, SlabAxis axis, int i,
                                const std::vector<typename G::Element>& slab) {
  SlabTermsOf<G> t;
  slab_terms_begin(model, axis, i, slab, t);
  return t;
}

template <class G>
double triangle_at(const dcel::DiscreteModel<G>& model, SlabAxis axis, int i,
                   const std::vector<typename G::Element>& slab,
                   const std::vector<typename G::Algebra>& along,
                   const std::vector<typename G::Element>& next, int k, SlabTermsOf<G>& t) {
  // Triangle (j, a) has vertices g_j^a, g_{j+1}^a, g_j^{a+1}; the momenta of theory §3.3
  // (dcel::triangle_momenta), with the convected quantity along the slab from along_at.
  const bool row = axis == SlabAxis::row;
  const double dt = model.dt(), ds = model.ds();
  const typename G::Element& g1 = slab[k];
  using V = typename G::Algebra;
  const V xi = row ? mesh::convected<G>(g1, next[k], dt) : along[k];
  const V eta = row ? along[k] : mesh::convected<G>(g1, next[k], ds);
  const int a = row ? k : i;  // the triangle's column (theory §1.6)
  const V M = lie::spatial_covector(g1, dcel::time_momentum(model, a, xi));
  const V N = lie::spatial_covector(g1, dcel::space_momentum(model, a, eta));
  t.cross[k] = row ? ds * M : dt * N;
  t.along[k] = row ? dt * N : ds * M;
  force_at(model, axis, i, slab, k, t);
  return row ? model.density(a).kinetic_energy(xi) : space_strain_term(model.density(a), eta);
}

template <class G>
void force_at(const dcel::DiscreteModel<G>& model, SlabAxis axis, int i,
              const std::vector<typename G::Element>& slab, int k, SlabTermsOf<G>& t) {
  if (t.force.empty()) return;
  const bool row = axis == SlabAxis::row;
  const int j = row ? i : k, a = row ? k : i;
  const typename G::Element& g1 = slab[k];
  t.force[k] = model.dt() * model.ds() * lie::spatial_covector(g1, model.force(g1, j, a));
}

template <class G>
double slab_energy(const dcel::DiscreteModel<G>& model, SlabAxis axis, const SlabTermsOf<G>& terms,
                   double node_energy, double next_node_energy) {
  const double h = axis == SlabAxis::row ? model.ds() : model.dt();
  return h * (terms.triangle_energy + 0.5 * (node_energy + next_node_energy));
}

template <class V>
V slab_momentum(const BasicSlabTerms<V>& terms) {
  V sum = V::Zero();
  for (const V& c : terms.cross) sum += c;
  return sum;
}

template <class V>
double slab_scale(const BasicSlabTerms<V>& slab, int k1, int k2) {
  const int K = static_cast<int>(slab.cross.size());
  double sum = 0.0;
  for (int k = k1; k <= std::min(k2, K - 1); ++k) sum += slab.cross[k].cwiseAbs().maxCoeff();
  return sum;
}

template <class V>
BasicBalanceResult<V> slab_balance(const BasicSlabTerms<V>& before, const BasicSlabTerms<V>& slab,
                                   int k1, int k2, double scale_glob) {
  const int K = static_cast<int>(slab.cross.size());
  FIELD_ASSERT(0 <= k1 && k1 <= k2 && k2 <= K, "slab_balance: range " << k1 << ".." << k2);
  BasicBalanceSum<V> sum;
  for (int k = k1; k <= std::min(k2, K - 1); ++k) {
    sum.add(before.cross[k]);
    sum.add(-slab.cross[k]);
    if (!slab.force.empty()) sum.add(slab.force[k]);  // empty: zero terms, which add nothing
  }
  if (!slab.point.empty())
    for (int k = k1; k <= k2; ++k) sum.add(slab.point[k]);
  if (k1 > 0) sum.add(slab.along[k1 - 1]);
  if (k2 < K) sum.add(-slab.along[k2]);
  return sum.result(scale_glob);
}

#define FIELD_INSTANTIATE(G)                                                                     \
  template G::Algebra along_at(const dcel::DiscreteModel<G>&, SlabAxis,                          \
                               const std::vector<G::Element>&, int);                             \
  template double node_energy_at(const dcel::DiscreteModel<G>&, SlabAxis, int,                   \
                                 const std::vector<G::Element>&, const std::vector<G::Algebra>&, \
                                 int);                                                           \
  template void slab_terms_begin(const dcel::DiscreteModel<G>&, SlabAxis, int,                   \
                                 const std::vector<G::Element>&, SlabTermsOf<G>&, bool);         \
  template SlabTermsOf<G> slab_terms_begin(const dcel::DiscreteModel<G>&, SlabAxis, int,         \
                                           const std::vector<G::Element>&);                      \
  template double triangle_at(const dcel::DiscreteModel<G>&, SlabAxis, int,                      \
                              const std::vector<G::Element>&, const std::vector<G::Algebra>&,    \
                              const std::vector<G::Element>&, int, SlabTermsOf<G>&);             \
  template void force_at(const dcel::DiscreteModel<G>&, SlabAxis, int,                           \
                         const std::vector<G::Element>&, int, SlabTermsOf<G>&);                  \
  template double slab_energy(const dcel::DiscreteModel<G>&, SlabAxis, const SlabTermsOf<G>&,    \
                              double, double);
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

// The algebra vectors of SE(3) and SE(2).
#define FIELD_INSTANTIATE(V)                                                                      \
  template V slab_momentum(const BasicSlabTerms<V>&);                                             \
  template double slab_scale(const BasicSlabTerms<V>&, int, int);                                 \
  template BasicBalanceResult<V> slab_balance(const BasicSlabTerms<V>&, const BasicSlabTerms<V>&, \
                                              int, int, double);
FIELD_INSTANTIATE(Vec6)
FIELD_INSTANTIATE(Vec3)
#undef FIELD_INSTANTIATE

}  // namespace field::noether
