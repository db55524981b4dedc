#pragma once
/// The reactions of the prescribed sides of a march and the work of the loads and of those sides,
/// slab by slab (theory §8.1), on either axis (slab_axis.hpp): fed the slabs of a march in order,
/// it reports for slab i, once slab i+1 has arrived, with h the step (dt or ds) and rate_i^k the
/// convected rate from slab i to slab i+1 at node k (xi_j^a of a row, eta_j^a of a column, §3.1):
///   R  = Ad*_{g^{-1}} (-G / h)       the spatial reaction at a prescribed side    (8.5), (8.9)
///   W  = sum_{i'=1}^{i} sum_k <L_{i'}^k - [k prescribed] G_{i'}^k, nu_{i'}^k>     (8.7), (8.11)
///   nu_i^k = (rate_{i-1}^k + rate_i^k) / 2                                    (8.6), (8.10)
/// with G the node's G_n of theory (4.1) and L the loads' part of it (node_load, (8.6); gravity is
/// a potential, inside the energies). A time row gives R_j at the ends a = 0, A and W_j; a space
/// column R_j^a at the rows j = 0, J and W~^a. Every slab is computed, whatever the series'
/// stride: W is a sum over all of them. Only the nodes that carry a load or a prescribed side are
/// visited, serially in node order: the same bits on any thread count. Memory: three slabs.
/// Cost: one convected rate per visited node and slab (a distributed load on every node of a long
/// beam: about as much as the march's own node update, docs/performance.md).
#include <array>
#include <optional>
#include <type_traits>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/mesh/field.hpp"
#include "libfield/noether/slab_axis.hpp"

namespace field::noether {

/// The values of one slab i. V: the group's algebra vector (theory (1.7.3) on SE(2)).
template <class V>
struct BasicSlabWork {
  int index = 0;  ///< i: the row j or the column a
  /// The spatial reactions at the slab's sides k = 0 and k = K (zero on a side not prescribed):
  /// R_j at the ends a = 0 / A of row j (8.5) (moment about the origin [N m], force [N]; row 0
  /// has no row -1: its reaction leaves out the momentum change of the end node), or R_j^a at the
  /// rows j = 0 / J of column a (8.9) (angular [N s], linear [N s/m]; column 0 has no column -1:
  /// the reaction of a free tip).
  V reaction_first = V::Zero(), reaction_last = V::Zero();
  double work_loads = 0.0;  ///< the loads' part of W_j [J] or W~^a [J s/m]
  double work_sides = 0.0;  ///< the prescribed sides' part of it (0 for clamps)
  double work() const { return work_loads + work_sides; }
};
template <class G>
using SlabWorkOf = BasicSlabWork<typename G::Algebra>;

/// L_j^a of theory (8.6): the loads' part of G_n at node (j, a) in configuration g, without the
/// potential force (gravity is inside the energies): dt W_body (the point loads, the end wrench's
/// halves) + dt ds q_body (the distributed loads, on the massive nodes a < A); 0 on row J, which
/// has no triangle and no point load (theory (4.1)). The time march's work (8.7) and the space
/// march's (8.11) pair it with their displacements.
template <class G>
typename G::Algebra node_load(const dcel::DiscreteModel<G>& model, const typename G::Element& g,
                              int j, int a) {
  using V = typename G::Algebra;
  const model::Loads& loads = model.loads();
  const int A = model.mesh().A();
  V L = V::Zero();
  if (j >= model.mesh().J()) return L;
  const double dt = model.dt(), ds = model.ds();
  if (!loads.point.empty()) L += dt * model.point_load(g, j, a);
  if constexpr (std::is_same_v<typename G::Element, lie::SE3>)  // none on other groups
    if (!loads.distributed.empty() && a < A)
      L += dt * ds * loads.distributed_body(g, a, A, model.mesh().t(j));
  return L;
}

/// Whether the energy of a march is balanced against work (theory (8.8), (8.12)): loads or a
/// prescribed side. Otherwise W = 0 (free ends or natural rows, no loads).
inline bool work_applies(const model::Loads& loads, const mesh::Boundary& boundary, SlabAxis axis) {
  const SlabSides sides = prescribed_sides(boundary, axis);
  return !loads.empty() || sides.first || sides.last;
}

template <class G>
class WorkSeries {
  using E = typename G::Element;
  using V = typename G::Algebra;

 public:
  WorkSeries(const dcel::DiscreteModel<G>& model, SlabAxis axis, const mesh::Boundary& boundary);

  /// Slab i1 (0, 1, ... in order; 0 starts a new march). Returns the values of slab i1-1 when
  /// i1 >= 1.
  std::optional<SlabWorkOf<G>> add(int i1, const std::vector<E>& slab);

  /// Continues the sums of a march (a continued time march, io/checkpoint.hpp): the slabs fed
  /// start at first-1, slab `first` is the first reported, W summed from `loads` and `sides`, the
  /// parts of W_{first-1} (work_loads, work_sides of the slab the other series reported last).
  void resume(int first, double loads, double sides) {
    first_ = first;
    loads_ = loads;
    sides_ = sides;
  }

 private:
  dcel::DiscreteModel<G> model_;
  SlabAxis axis_;
  SlabSides sides_prescribed_;
  int K_;
  double h_;                             // the step: dt (row) or ds (column)
  std::vector<int> visited_;             // the nodes k with a load or a prescribed side, in order
  std::array<std::vector<E>, 3> slabs_;  // slabs i-1, i, i+1 (slab c in slot c % 3)
  int last_ = -1, held_ = 0;             // the last slab fed and how many are held
  // rate_{i-1}^k and rate_i^k at the visited nodes (indexed by k): each rate is computed once,
  // for the two slabs whose nu it enters.
  std::vector<V> rate_previous_, rate_;
  double loads_ = 0.0, sides_ = 0.0;
  int first_ = 0;  // the first slab reported (resume)

  const E& node(int i, int k) const;    // node k of slab i
  V reaction_body(int i, int k) const;  // -G_n / h at node k of slab i, body
};

/// The values of slabs 0..N-1 of a whole field (slabs in order through WorkSeries): for
/// `field check`.
template <class G>
std::vector<SlabWorkOf<G>> field_work(const dcel::DiscreteModel<G>& model,
                                      const mesh::FieldOf<G>& field, SlabAxis axis,
                                      const mesh::Boundary& boundary);

/// Whether a prescribed end of a time field moves (a driven end): its pose on some row differs
/// from row 0's. Its reaction then does work (theory §8.1).
template <class E>
bool end_moves(const mesh::BasicField<E>& field, int a);

}  // namespace field::noether
