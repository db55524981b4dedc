#pragma once
/// Discrete momenta of one triangle and the vertex derivatives of L_d, theory §3.3:
///   mu      = (dtau^{-1}_{dt xi})^T  dT/dxi          time momentum
///   mu~     = (dtau^{-1}_{-dt xi})^T dT/dxi = Ad*_{tau(dt xi)} mu
///   lambda  = -(dtau^{-1}_{ds eta})^T  dV/deta       space momentum (stress)
///   lambda~ = -(dtau^{-1}_{-ds eta})^T dV/deta
///   D1 = -ds mu - dt lambda + dt ds f(g_j^a),  D2 = ds mu~,  D3 = dt lambda~.
#include "libfield/dcel/discrete_model.hpp"
#include "libfield/lie/se3.hpp"

namespace field::dcel {

/// V: the group's algebra vector (G::Algebra; Vec6 on SE(3)).
template <class V>
struct BasicTriangleMomenta {
  V xi;            ///< convected velocity xi_j^a
  V eta;           ///< convected strain eta_j^a
  V mu;            ///< time momentum
  V mu_tilde;      ///< mu~
  V lambda;        ///< space momentum
  V lambda_tilde;  ///< lambda~
  V f;             ///< body force per length at v1 (potential + distributed loads)
};
using TriangleMomenta = BasicTriangleMomenta<Vec6>;

/// Left-trivialised derivatives of L_d(j, a) with respect to its three vertices.
template <class V>
struct BasicVertexDerivatives {
  V D1, D2, D3;
};
using VertexDerivatives = BasicVertexDerivatives<Vec6>;

/// Momenta of triangle (j, a) with vertices v1 = g_j^a, v2 = g_{j+1}^a, v3 = g_j^{a+1}.
template <class G>
BasicTriangleMomenta<typename G::Algebra> triangle_momenta(const DiscreteModel<G>& model, int j,
                                                           int a, const typename G::Element& v1,
                                                           const typename G::Element& v2,
                                                           const typename G::Element& v3);
/// D1, D2, D3 from the momenta.
template <class G>
BasicVertexDerivatives<typename G::Algebra> vertex_derivatives(
    const DiscreteModel<G>& model, const BasicTriangleMomenta<typename G::Algebra>& m);

/// The momenta below are those of column a (model.density(a), theory §1.6).
/// mu = (dtau^{-1}_{dt xi})^T dT/dxi and mu~ for a given xi (used by the marches).
template <class G>
void time_momenta(const DiscreteModel<G>& model, int a, const typename G::Algebra& xi,
                  typename G::Algebra& mu, typename G::Algebra& mu_tilde);
/// lambda and lambda~ for a given eta.
template <class G>
void space_momenta(const DiscreteModel<G>& model, int a, const typename G::Algebra& eta,
                   typename G::Algebra& lambda, typename G::Algebra& lambda_tilde);
/// mu alone, (dtau^{-1}_{dt xi})^T dT/dxi: what the diagnostics need (noether/slab_terms).
template <class G>
typename G::Algebra time_momentum(const DiscreteModel<G>& model, int a,
                                  const typename G::Algebra& xi);
/// lambda alone, -(dtau^{-1}_{ds eta})^T dV/deta: what the diagnostics need.
template <class G>
typename G::Algebra space_momentum(const DiscreteModel<G>& model, int a,
                                   const typename G::Algebra& eta);
/// mu~ alone, (dtau^{-1}_{-dt xi})^T dT/dxi: what the time march needs of row j-1.
template <class G>
typename G::Algebra time_momentum_tilde(const DiscreteModel<G>& model, int a,
                                        const typename G::Algebra& xi);
/// lambda~ alone, -(dtau^{-1}_{-ds eta})^T dV/deta: what the space march needs of column a-1.
template <class G>
typename G::Algebra space_momentum_tilde(const DiscreteModel<G>& model, int a,
                                         const typename G::Algebra& eta);

}  // namespace field::dcel
