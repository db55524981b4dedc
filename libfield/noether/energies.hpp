#pragma once
/// Discrete energies of theory §8 (definitions chosen by the theory):
///   V_j^a = V(eta_j^a) + Pi(g_j^a)                                   0 <= j <= J, a <= A-1
///   E_j   = ds sum_{a<A} [ T(xi_j^a) + (V_j^a + V_{j+1}^a)/2 ]           0 <= j <= J-1
///   W_j^a = -T(xi_j^a) + Pi(g_j^a)                                   j <= J-1, 0 <= a <= A
///   E_M^a = dt sum_{j<J} [ V(eta_j^a) - <dV/deta, eta_j^a> + (W_j^a + W_j^{a+1})/2 ]   a <= A-1
/// (for the beam the first bracket term is -1/2 (eta - E6).C(eta + E6)).
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/mesh/field.hpp"

namespace field::noether {

/// V_j^a = V(eta_j^a) + Pi(g_j^a): the potential part of E_j at one triangle [J/m].
template <class S>
double time_potential_term(const model::Density<S>& d, const typename S::Algebra& eta,
                           const typename S::Element& g) {
  return d.strain_energy(eta) + d.potential(g);
}
/// W_j^a = -T(xi_j^a) + Pi(g_j^a): the node part of E_M^a [J/m].
template <class S>
double space_node_term(const model::Density<S>& d, const typename S::Algebra& xi,
                       const typename S::Element& g) {
  return -d.kinetic_energy(xi) + d.potential(g);
}
/// V(eta) - <dV/deta, eta> (= -1/2 (eta - E6).C(eta + E6) for the beam): the strain part of
/// E_M^a [J/m].
template <class S>
double space_strain_term(const model::Density<S>& d, const typename S::Algebra& eta) {
  return d.strain_energy(eta) - d.stress(eta).dot(eta);
}

/// Physical energy E_j of every row j = 0..J-1 (time-centred) [J].
template <class G>
std::vector<double> time_energies(const dcel::DiscreteModel<G>& model,
                                  const mesh::BasicField<typename G::Element>& field);
/// Spatial-evolution energy E_M^a of every column a = 0..A-1 (space-centred) [J s / m].
template <class G>
std::vector<double> space_energies(const dcel::DiscreteModel<G>& model,
                                   const mesh::BasicField<typename G::Element>& field);

}  // namespace field::noether
