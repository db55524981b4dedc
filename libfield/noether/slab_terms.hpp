#pragma once
/// The terms of the Noether balance theory §7.2 and of the energies theory §8 that belong to one
/// slab of a march, for streaming diagnostics: slab i is a time row j (triangles (j, a), a =
/// 0..A-1, from rows j and j+1) or a space column a (triangles (j, a), j = 0..J-1, from columns a
/// and a+1). Along the slab the index is k = a (row) or k = j (column); K = A or J triangles. Rows
/// and columns are the transposes of each other:
///   row j:     cross_k = ds M_j^k,  along_k = dt N_j^k   (P_j = sum_k cross_k)
///   column a:  cross_k = dt N_k^a,  along_k = ds M_k^a   (Q^a = sum_k cross_k)
/// and the balance of the one-slab rectangle (k1..k2 along slab i) reads
///   Res = sum_{k=k1}^{k2} (cross_k^{i-1} - cross_k^i + dt ds F_k^i + dt W_k^i)
///         + along_{k1-1}^i - along_{k2}^i          (terms of missing triangles are zero).
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/noether/balance.hpp"
#include "libfield/noether/slab_axis.hpp"

namespace field::noether {

/// Spatial covectors of one slab (see the file comment), each already multiplied by its weight.
/// V: the group's algebra vector (Vec6 on SE(3), Vec3 on SE(2), theory (1.7.3)).
template <class V>
struct BasicSlabTerms {
  std::vector<V> cross;  ///< K terms: ds M (row) or dt N (column): flux to the next slab
  std::vector<V> along;  ///< K terms: dt N (row) or ds M (column): flux along the slab
  /// K terms: dt ds F (potential and distributed loads); empty when the slab has no body forces
  /// (SlabTermsLanes::forces(): every term would be zero)
  std::vector<V> force;
  /// K+1 terms: dt W (point loads) at the nodes, zero on row J; empty when the model has none
  std::vector<V> point;
  /// sum_k T(xi_j^k) (row) or sum_k [V(eta_k^a) - <dV/deta, eta_k^a>] (column) [J/m]
  double triangle_energy = 0.0;
};
using SlabTerms = BasicSlabTerms<Vec6>;
template <class G>
using SlabTermsOf = BasicSlabTerms<typename G::Algebra>;

/// The terms are computed node by node, so that a caller can share the nodes among threads
/// (each node writes its own slots) and then sum in node order (SlabSeries, one parallel region
/// per slab). Node k = 0..K-1 of the convected quantity between neighbours along a slab:
/// eta_j^k = tau^{-1}((g_j^k)^{-1} g_j^{k+1}) / ds (row j) or xi_k^a (column a), theory §3.1.
/// Both the node energy of the slab and its triangles use it (as their eta or xi): computed once.
template <class G>
typename G::Algebra along_at(const dcel::DiscreteModel<G>& model, SlabAxis axis,
                             const std::vector<typename G::Element>& slab, int k);

/// Node k's part of the node energy of a slab (row j or column c), from the slab and its along_at
/// values `along`, as the energy of slab i (i = j or c, or the slab before) takes it: V_j^k with
/// column k's law (row j), or W_k^c with column i's law (column c: E_M^i takes l_i throughout,
/// theory §8, §1.6) [J/m]; the slab's is the sum over k < K.
template <class G>
double node_energy_at(const dcel::DiscreteModel<G>& model, SlabAxis axis, int i,
                      const std::vector<typename G::Element>& slab,
                      const std::vector<typename G::Algebra>& along, int k);

/// The terms of slab i (from the slab, A+1 or J+1 values) sized in `t` (its buffers reused),
/// with their point loads and triangle_energy = 0: triangle_at fills the rest, and the sum of its
/// returns in order is triangle_energy. `forces` = false leaves t.force empty (no body forces).
template <class G>
void slab_terms_begin(const dcel::DiscreteModel<G>& model, SlabAxis axis, int i,
                      const std::vector<typename G::Element>& slab, SlabTermsOf<G>& t,
                      bool forces = true);
/// The same into new terms.
template <class G>
SlabTermsOf<G> slab_terms_begin(const dcel::DiscreteModel<G>& model, SlabAxis axis, int i,
                                const std::vector<typename G::Element>& slab);

/// Triangle k of slab i, from the slab, its along_at values `along` and the next slab: writes
/// t.cross[k], t.along[k] and t.force[k]; returns its energy term, T(xi) (row) or
/// V(eta) - <dV/deta, eta> (column).
template <class G>
double triangle_at(const dcel::DiscreteModel<G>& model, SlabAxis axis, int i,
                   const std::vector<typename G::Element>& slab,
                   const std::vector<typename G::Algebra>& along,
                   const std::vector<typename G::Element>& next, int k, SlabTermsOf<G>& t);

/// t.force[k] of triangle k (triangle_at, SlabTermsLanes); nothing when t.force is empty.
template <class G>
void force_at(const dcel::DiscreteModel<G>& model, SlabAxis axis, int i,
              const std::vector<typename G::Element>& slab, int k, SlabTermsOf<G>& t);

/// E_j = ds [sum_a T + (sum_a V_j^a + sum_a V_{j+1}^a)/2] (row) or
/// E_M^a = dt [sum_j (V - <dV/deta, eta>) + (sum_j W_j^a + sum_j W_j^{a+1})/2] (column), theory §8.
template <class G>
double slab_energy(const dcel::DiscreteModel<G>& model, SlabAxis axis, const SlabTermsOf<G>& terms,
                   double node_energy, double next_node_energy);

/// P_j (row) or Q^a (column): sum_k cross_k, theory §7.2.
template <class V>
V slab_momentum(const BasicSlabTerms<V>& terms);

/// sum_{k=k1}^{min(k2, K-1)} |cross_k|_inf: the slab's share of scale_glob of theory §7.2
/// (ds sum_a |M_j^a| for a row, dt sum_j |N_j^a| for a column).
template <class V>
double slab_scale(const BasicSlabTerms<V>& slab, int k1, int k2);

/// Res of the one-slab rectangle k1..k2 (0 <= k1 <= k2 <= K) along slab i, from the terms of
/// slabs i-1 and i, with relative = |Res|_inf / max(scale_R, scale_glob). While streaming, the
/// whole-field scale_glob is unknown; the diagnostics pass the largest slab_scale seen so far,
/// which becomes the theory's value (its first part for rows, its second for columns) at the end.
template <class V>
BasicBalanceResult<V> slab_balance(const BasicSlabTerms<V>& before, const BasicSlabTerms<V>& slab,
                                   int k1, int k2, double scale_glob);

}  // namespace field::noether
