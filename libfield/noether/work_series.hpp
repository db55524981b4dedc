#pragma once
/// The reaction wrenches of the prescribed ends of a time march and the work of the loads and of
/// those ends, row by row (theory §8.1): fed the rows of the march in order, it reports for row j,
/// once row j+1 has arrived,
///   R_j^a  = Ad*_{(g_j^a)^{-1}} (-G_j^a / dt)     spatial reaction at a prescribed end a  (8.5)
///   W_j    = sum_{i=1}^{j} sum_a <L_i^a - [a prescribed] G_i^a, nu_i^a>               (8.7)
///   nu_i^a = (xi_{i-1}^a + xi_i^a) / 2,   L_i^a = dt W_body(i, a) + dt ds q_body(i, a)    (8.6)
/// (W_body the point loads, q_body the distributed loads; gravity is a potential, inside E_j).
/// Every row is computed, whatever the series' stride: W_j is a sum over all rows. Only the nodes
/// that carry a load or a prescribed end are visited, serially: the same bits on any thread count.
/// Cost: one convected velocity per visited node and row (a distributed load on every node of a
/// long beam: about as much as the march's own node update, docs/performance.md).
#include <optional>
#include <type_traits>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/mesh/field.hpp"
#include "libfield/mesh/row_window.hpp"

namespace field::noether {

/// The values of one row j. V: the group's algebra vector (theory (1.7.3) on SE(2)).
template <class V>
struct BasicRowWork {
  int j = 0;
  /// R_j at a = 0 and a = A (spatial: moment about the origin [N m], force [N]); zero on a free
  /// end. Row 0 has no row -1: its reaction leaves out the momentum change of the end node.
  V reaction_left = V::Zero(), reaction_right = V::Zero();
  double work_loads = 0.0;  ///< the loads' part of W_j [J]
  double work_ends = 0.0;   ///< the prescribed ends' part of W_j [J] (0 for clamps)
  double work() const { return work_loads + work_ends; }
};
using RowWork = BasicRowWork<Vec6>;
template <class G>
using RowWorkOf = BasicRowWork<typename G::Algebra>;

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

template <class G>
class WorkSeries {
  using V = typename G::Algebra;

 public:
  WorkSeries(const dcel::DiscreteModel<G>& model, const mesh::Boundary& boundary);

  /// Row j1 (0, 1, ... in order; 0 starts a new march). Returns the values of row j1-1 when
  /// j1 >= 1.
  std::optional<RowWorkOf<G>> add(int j1, const std::vector<typename G::Element>& row);

  /// Continues the sums of a march (a continued time march, io/checkpoint.hpp): the rows fed start
  /// at first-1, row `first` is the first reported, W_j summed from `loads` and `ends`, the parts
  /// of W_{first-1} (work_loads, work_ends of the row the other series reported last).
  void resume(int first, double loads, double ends) {
    first_ = first;
    loads_ = loads;
    ends_ = ends;
  }

  bool left_prescribed() const { return left_; }
  bool right_prescribed() const { return right_; }

 private:
  dcel::DiscreteModel<G> model_;
  bool left_, right_;
  mesh::RowWindowOf<G> window_;  // rows j-1, j, j+1
  double loads_ = 0.0, ends_ = 0.0;
  int first_ = 0;  // the first row reported (resume)
  // xi_{j-1}^a and xi_j^a at the visited nodes (every node with loads, else the prescribed ends):
  // each velocity is computed once, for the two rows whose nu it enters.
  std::vector<V> xi_previous_, xi_;
  std::vector<char> visited_;  // A+1 flags: a load or a prescribed end at node a

  V reaction_body(int j, int a) const;  // -G_j^a / dt, body
};

/// The values of rows 0..J-1 of a whole time field (rows in order through WorkSeries).
template <class G>
std::vector<RowWorkOf<G>> time_work(const dcel::DiscreteModel<G>& model,
                                    const mesh::FieldOf<G>& field, const mesh::Boundary& boundary);

/// Whether a prescribed end of a time field moves (a driven end): its pose on some row differs
/// from row 0's. Its reaction then does work (theory §8.1).
template <class E>
bool end_moves(const mesh::BasicField<E>& field, int a);

}  // namespace field::noether
