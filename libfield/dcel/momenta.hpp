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

struct TriangleMomenta {
  Vec6 xi;            ///< convected velocity xi_j^a
  Vec6 eta;           ///< convected strain eta_j^a
  Vec6 mu;            ///< time momentum
  Vec6 mu_tilde;      ///< mu~
  Vec6 lambda;        ///< space momentum
  Vec6 lambda_tilde;  ///< lambda~
  Vec6 f;             ///< body force per length at v1 (potential + distributed loads)
};

/// Left-trivialised derivatives of L_d(j, a) with respect to its three vertices.
struct VertexDerivatives {
  Vec6 D1, D2, D3;
};

/// Momenta of triangle (j, a) with vertices v1 = g_j^a, v2 = g_{j+1}^a, v3 = g_j^{a+1}.
template <class G>
TriangleMomenta triangle_momenta(const DiscreteModel<G>& model, int j, int a, const lie::SE3& v1,
                                 const lie::SE3& v2, const lie::SE3& v3);
/// D1, D2, D3 from the momenta.
template <class G>
VertexDerivatives vertex_derivatives(const DiscreteModel<G>& model, const TriangleMomenta& m);

/// The momenta below are those of column a (model.density(a), theory §1.6).
/// mu = (dtau^{-1}_{dt xi})^T dT/dxi and mu~ for a given xi (used by the marches).
template <class G>
void time_momenta(const DiscreteModel<G>& model, int a, const Vec6& xi, Vec6& mu, Vec6& mu_tilde);
/// lambda and lambda~ for a given eta.
template <class G>
void space_momenta(const DiscreteModel<G>& model, int a, const Vec6& eta, Vec6& lambda,
                   Vec6& lambda_tilde);
/// mu alone, (dtau^{-1}_{dt xi})^T dT/dxi: what the diagnostics need (noether/slab_terms).
template <class G>
Vec6 time_momentum(const DiscreteModel<G>& model, int a, const Vec6& xi);
/// lambda alone, -(dtau^{-1}_{ds eta})^T dV/deta: what the diagnostics need.
template <class G>
Vec6 space_momentum(const DiscreteModel<G>& model, int a, const Vec6& eta);
/// mu~ alone, (dtau^{-1}_{-dt xi})^T dT/dxi: what the time march needs of row j-1.
template <class G>
Vec6 time_momentum_tilde(const DiscreteModel<G>& model, int a, const Vec6& xi);
/// lambda~ alone, -(dtau^{-1}_{-ds eta})^T dV/deta: what the space march needs of column a-1.
template <class G>
Vec6 space_momentum_tilde(const DiscreteModel<G>& model, int a, const Vec6& eta);

}  // namespace field::dcel
