#pragma once
/// The gradient G_n of the discrete action (plus the virtual work of the point loads) at a node,
/// theory §4: G_n = sum of D_k over every triangle having n as vertex k, + dt W_body(n). Every
/// node kind of theory §4 is this one sum: interior DCEL, zero traction at a = 0, the ghost a = A
/// (lambda~ = 0), zero momentum at j = 0, the ghost row j = J (mu~ = 0) and the corners. At a
/// prescribed node G_n is the reaction wrench (body frame) the constraint must supply.
#include <functional>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/mesh/field.hpp"
#include "libfield/mesh/row_window.hpp"

namespace field::dcel {

/// V: the group's algebra vector (Vec6 on SE(3), Vec3 on SE(2)).
template <class V>
struct BasicNodeResidual {
  V G = V::Zero();     ///< G_n (body covector, units of action: J s)
  double scale = 0.0;  ///< sum of |D_k| (and |dt W|) at the node: the size of the terms
};
using NodeResidual = BasicNodeResidual<Vec6>;
/// The node residual of the march on G.
template <class G>
using NodeResidualOf = BasicNodeResidual<typename G::Algebra>;

/// G_n and its scale at node (j, a) of the field.
template <class G>
NodeResidualOf<G> node_residual(const DiscreteModel<G>& model, const mesh::FieldOf<G>& field, int j,
                                int a);
/// The same G_n from a window holding the rows j-1 (when j >= 1), j and j+1 (when j < J): for
/// streaming observers of a time march (io::SpacetimeWriter). Same code as the Field version.
template <class G>
NodeResidualOf<G> node_residual(const DiscreteModel<G>& model, const mesh::RowWindowOf<G>& rows,
                                int j, int a);
/// The same G_n from any accessor values(j, a) of the nodes around (j, a): rows j-1..j+1 of
/// columns a-1..a+1 (the last columns of a space march, noether::WorkSeries).
template <class G>
using NodeValues = std::function<const typename G::Element&(int, int)>;
template <class G>
NodeResidualOf<G> node_residual(const DiscreteModel<G>& model, const NodeValues<G>& values, int j,
                                int a);

/// The round-off floor of G_n at every node (index j (A+1) + a): how large |G_n|_inf can be in a
/// field that a march produced correctly and field.csv stored, from the actual terms at the node
/// (positions, rates, the Jacobians of the momenta; docs/theory.md section 7.4):
///   floor_n = 16 eps scale_n + sum over the D_k at n of the first-order change of D_k when every
///             position moves by 2 eps |r|_inf per component and every rotation by 8 eps.
/// 0 at the unused node (J, A). Parallel over rows, each value computed alone: independent of the
/// thread count.
template <class G>
std::vector<double> residual_floors(const DiscreteModel<G>& model, const mesh::FieldOf<G>& field);

/// max |G_n| / max scale_n over the equation nodes of the boundary (theory §4) and, when a
/// tolerance or the floors are given, the worst ratio |G_n|_inf / allowed_n with
///   allowed_n = max(tolerance max_m scale_m, floor_n)
/// (the check passes when ratio <= 1).
struct ResidualReport {
  double max_abs = 0.0;    ///< max_n |G_n|_inf
  double max_scale = 0.0;  ///< max_n scale_n
  double relative = 0.0;   ///< max_abs / max_scale (0 when there are no equation nodes)
  mesh::Node worst;        ///< node of max |G_n|
  long long nodes = 0;     ///< equation nodes checked
  double ratio = 0.0;      ///< max_n |G_n|_inf / allowed_n (0 without tolerance and floors)
  mesh::Node worst_ratio;  ///< node of `ratio`
  double max_floor = 0.0;  ///< max_n floor_n / max_scale over the equation nodes
};
template <class G>
ResidualReport residual_report(const DiscreteModel<G>& model, const mesh::FieldOf<G>& field,
                               const mesh::Boundary& boundary, double tolerance = 0.0,
                               const std::vector<double>& floors = {});

}  // namespace field::dcel
