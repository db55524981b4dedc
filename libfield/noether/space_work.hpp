#pragma once
/// The reactions of the prescribed rows of a space march and the work of the loads and of those
/// rows, column by column (theory §8.1): the transpose of WorkSeries, (j, dt, xi) <-> (a, ds, eta).
/// Fed the columns of the march in order, it reports for column a, once column a+1 has arrived,
///   R_j^a    = Ad*_{(g_j^a)^{-1}} (-G_j^a / ds)    at a prescribed row j = 0 / j = J     (8.9)
///   W~^a     = sum_{b=1}^{a} sum_j <L_j^b - [j prescribed] G_j^b, nu~_j^b>              (8.11)
///   nu~_j^b  = (eta_j^{b-1} + eta_j^b) / 2                                              (8.10)
/// (L the loads of (8.6), node_load; gravity is a potential, inside E_M). Every column is
/// computed, whatever the series' stride: W~^a is a sum over all of them. Only the rows that carry
/// a load (every row, when the model has loads) or are prescribed are visited, serially in row
/// order: the same bits on any thread count. Memory: three columns, independent of A.
#include <array>
#include <optional>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/mesh/field.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"

namespace field::noether {

/// Whether a space march's E_M is balanced against work (theory (8.12)): loads or a prescribed
/// row. Otherwise W~ = 0, and E_M is conserved to O(ds^2).
inline bool space_work_applies(const model::Loads& loads, const mesh::Boundary& boundary) {
  return !loads.empty() || boundary.first == mesh::Side::prescribed ||
         boundary.last == mesh::Side::prescribed;
}

/// The values of one column a.
struct ColumnWork {
  int a = 0;
  /// R_j^a at the rows j = 0 and j = J (spatial: angular about the origin [N s], linear
  /// [N s/m]); zero on a natural row.
  Vec6 reaction_first = Vec6::Zero(), reaction_last = Vec6::Zero();
  double work_loads = 0.0;  ///< the loads' part of W~^a [J s/m]
  double work_rows = 0.0;   ///< the prescribed rows' part of W~^a [J s/m]
  double work() const { return work_loads + work_rows; }
};

template <class G>
class SpaceWorkSeries {
 public:
  SpaceWorkSeries(const dcel::DiscreteModel<G>& model, const mesh::Boundary& boundary);

  /// Column a1 (0, 1, ... in order; 0 starts a new march). Returns the values of column a1-1
  /// when a1 >= 1.
  std::optional<ColumnWork> add(int a1, const std::vector<lie::SE3>& column);

 private:
  dcel::DiscreteModel<G> model_;
  bool first_, last_;      // rows j = 0 / j = J prescribed
  std::vector<int> rows_;  // the visited rows, in order
  // Columns a-1, a, a+1 (column c in slot c % 3): G_n at (j, a) of theory (4.1) needs them.
  std::array<std::vector<lie::SE3>, 3> columns_;
  // eta_j^{a-1} and eta_j^a on the visited rows (indexed by j): each strain is computed once, for
  // the two columns whose nu~ it enters.
  std::vector<Vec6> eta_previous_, eta_;
  double loads_ = 0.0, rows_work_ = 0.0;

  const lie::SE3& node(int j, int a) const {
    return columns_[static_cast<size_t>(a % 3)][static_cast<size_t>(j)];
  }
  Vec6 reaction_body(int j, int a) const;  // -G_j^a / ds, body
};

/// The values of columns 0..A-1 of a whole space field (columns in order through
/// SpaceWorkSeries): for `field check`.
template <class G>
std::vector<ColumnWork> space_work(const dcel::DiscreteModel<G>& model, const mesh::Field& field,
                                   const mesh::Boundary& boundary);

}  // namespace field::noether
