#pragma once
/// The static equations of one row g^a, a = 0..A (theory §4.5): the DCEL residual (theory §4.1)
/// of a field constant in j, where xi = 0 and every time momentum vanishes, divided by dt:
///   R_a = [a < A] (-lambda^a + phi ds f(g^a)) + [a > 0] lambda~^{a-1} + phi W_body(a),
/// with lambda, lambda~ of segment a's strain eta^a = tau^{-1}((g^a)^{-1} g^{a+1}) / ds and the
/// law of column a (theory §3.3, §1.6), f the weight and distributed loads at t = 0, W the point
/// loads at t = 0, and phi the load fraction of the load stepping. For conservative loads
/// R_a = -dE/dzeta_a, the left-trivialised gradient of the static energy E (static_energy).
#include <vector>

#include "libfield/dcel/discrete_model.hpp"

namespace field::statics {

/// R_a and the size of its terms, |-lambda^a + phi ds f|_inf + |lambda~^{a-1}|_inf + |phi W|_inf:
/// the scale of dcel::node_residual over dt, the yardstick of theory §4.4.
struct StaticNodeResidual {
  Vec6 R = Vec6::Zero();
  double scale = 0.0;
};

/// R_a of the row (A + 1 poses) at load fraction phi.
template <class G>
StaticNodeResidual static_node_residual(const dcel::DiscreteModel<G>& model,
                                        const std::vector<lie::SE3>& row, int a, double phi = 1.0);

/// The static energy of the row at load fraction phi: the strain energy ds sum_a V_a(eta^a) plus
/// phi times the potential of gravity, ds sum_{a<A} Pi_a(g^a), and of the world-frame forces
/// (distributed: -ds F.r^a on its nodes; point: -F.r^a). Moments and follower loads have no
/// potential and are left out; the residual has them.
template <class G>
double static_energy(const dcel::DiscreteModel<G>& model, const std::vector<lie::SE3>& row,
                     double phi = 1.0);

}  // namespace field::statics
