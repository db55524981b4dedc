#pragma once
/// The discrete action S_d = sum_{j<J, a<A} dt ds l(g_j^a, xi_j^a, eta_j^a), theory §3.1
/// (potential at vertex v1). Used by the tests: G_n must be its gradient.
#include "libfield/dcel/discrete_model.hpp"
#include "libfield/mesh/field.hpp"

namespace field::dcel {

/// L_d(j, a) = dt ds l_a(g_j^a, xi_j^a, eta_j^a) (l_a: the density of column a, theory §1.6).
template <class G>
double discrete_lagrangian(const DiscreteModel<G>& model, int a, const typename G::Element& v1,
                           const typename G::Element& v2, const typename G::Element& v3);
/// S_d of the whole field (serial sum in triangle order).
template <class G>
double discrete_action(const DiscreteModel<G>& model, const mesh::Field& field);

}  // namespace field::dcel
