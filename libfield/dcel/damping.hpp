#pragma once
/// Damping forces of the time march in the discrete Lagrange-d'Alembert principle, theory §4.7.
/// Per triangle (j, a), with c = alpha dt / 2 and b = beta / dt (model::Damping):
///   sigma_d   = b (n(eta_j^a) - n(eta_{j-1}^a)),  0 on row j = 0     damping stress beta C deta/dt
///   lambda_d  = -(dtau^{-1}_{ds eta})^T sigma_d,  lambda~_d = -(dtau^{-1}_{-ds eta})^T sigma_d
///   D1_d = -c ds mu - dt lambda_d,   D2_d = -c ds mu~,   D3_d = dt lambda~_d
/// are added to D1, D2, D3 of theory (3.12)-(3.14). They depend on rows j-1, j, j+1 only, so the
/// march stays explicit (the Newton target is divided by 1 + c) and a RowWindow of three rows
/// evaluates them.
#include <algorithm>
#include <vector>

#include "libfield/core/lanes.hpp"
#include "libfield/dcel/discrete_model.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/mesh/field.hpp"

namespace field::dcel {

/// lambda_d and lambda~_d of column a for the strains eta = eta_j^a and eta_prev = eta_{j-1}^a.
template <class G>
void damping_fluxes(const DiscreteModel<G>& model, int a, const typename G::Algebra& eta,
                    const typename G::Algebra& eta_prev, typename G::Algebra& lambda_d,
                    typename G::Algebra& lambda_tilde_d) {
  const auto& density = model.density(a);
  const double b = model.loads().damping.stiffness / model.dt();
  const typename G::Algebra sigma = b * (density.stress(eta) - density.stress(eta_prev));
  const typename G::Algebra x = model.ds() * eta;
  lambda_d = -G::dtau_inv_dual(x, sigma);
  lambda_tilde_d = -G::dtau_inv_dual(-x, sigma);
}

/// D1_d = -c ds mu - dt lambda_d, D2_d = -c ds mu~, D3_d = dt lambda~_d from the momenta and,
/// with stiffness damping on row j >= 1, the damping fluxes (else lambda_d = null: D3_d = zero).
/// The one formula of the per-node path (V = Vec6) and the lanes (V = lanes::V6,
/// noether::SlabTermsLanes::damping).
template <class V>
FIELD_LANES_INLINE BasicVertexDerivatives<V> damping_terms(double c, double dt, double ds,
                                                           const V& mu, const V& mu_tilde,
                                                           const V* lambda_d,
                                                           const V* lambda_tilde_d, const V& zero) {
  BasicVertexDerivatives<V> D{(-c * ds) * mu, (-c * ds) * mu_tilde, zero};
  if (lambda_d != nullptr) {
    D.D1 = D.D1 - dt * *lambda_d;
    D.D3 = dt * *lambda_tilde_d;
  }
  return D;
}

/// D1_d, D2_d, D3_d of triangle (j, a) from its momenta; eta_prev = eta_{j-1}^a (unused on row 0
/// or without stiffness damping).
template <class G, class V = typename G::Algebra>
BasicVertexDerivatives<V> damping_derivatives(const DiscreteModel<G>& model, int j, int a,
                                              const BasicTriangleMomenta<V>& m, const V& eta_prev) {
  const double dt = model.dt(), ds = model.ds();
  const double c = 0.5 * model.loads().damping.mass * dt;
  V lambda_d, lambda_tilde_d;
  const bool stiffness = j >= 1 && model.loads().damping.stiffness != 0.0;
  if (stiffness) damping_fluxes(model, a, m.eta, eta_prev, lambda_d, lambda_tilde_d);
  return damping_terms<V>(c, dt, ds, m.mu, m.mu_tilde, stiffness ? &lambda_d : nullptr,
                          &lambda_tilde_d, V::Zero());
}

/// The damping part of G_n at node (j, a) (body covector, J s): the D_k_d of the triangles having
/// the node as vertex k, as theory (4.1). `values(j, a)` is a mesh::Field or a RowWindow holding
/// rows j-1 (j >= 1), j and j+1 (j < J).
template <class G, class Values>
typename G::Algebra node_damping(const DiscreteModel<G>& model, const Values& values, int j,
                                 int a) {
  using V = typename G::Algebra;
  const mesh::SpacetimeMesh& mesh = model.mesh();
  // D2_d has no stiffness part: row jt-1 is read only for D1_d and D3_d (rows j-1..j+1).
  const auto derivatives_of = [&](int jt, int at, bool stiffness) {
    const BasicTriangleMomenta<V> m =
        triangle_momenta(model, jt, at, values(jt, at), values(jt + 1, at), values(jt, at + 1));
    V eta_prev = V::Zero();
    if (stiffness && jt >= 1 && model.loads().damping.stiffness != 0.0)
      eta_prev = mesh::convected<G>(values(jt - 1, at), values(jt - 1, at + 1), model.ds());
    return damping_derivatives(model, jt, at, m, eta_prev);
  };
  V G_d = V::Zero();
  if (mesh.has_triangle(j, a)) G_d += derivatives_of(j, a, true).D1;           // n = v1
  if (mesh.has_triangle(j - 1, a)) G_d += derivatives_of(j - 1, a, false).D2;  // n = v2
  if (mesh.has_triangle(j, a - 1)) G_d += derivatives_of(j, a - 1, true).D3;   // n = v3
  return G_d;
}

/// D_j - D_{j-1} (1 <= j <= J-1) of theory (4.7.6): minus the work of the damping forces of row j
/// along the centred displacement, -sum_{a=0}^{A} < G_d(j, a), (xi_{j-1}^a + xi_j^a)/2 > [J].
/// `values` holds rows j-1, j, j+1.
template <class G, class Values>
double dissipation_increment(const DiscreteModel<G>& model, const Values& values, int j) {
  double work = 0.0;
  for (int a = 0; a <= model.mesh().A(); ++a) {
    const typename G::Algebra xi_bar =
        0.5 * (mesh::convected<G>(values(j - 1, a), values(j, a), model.dt()) +
               mesh::convected<G>(values(j, a), values(j + 1, a), model.dt()));
    work += node_damping(model, values, j, a).dot(xi_bar);
  }
  return -work;
}

/// The dissipated energy D_j of rows j = 0..J-1 (theory (4.7.6)): D_0 = 0, D_j = D_{j-1} +
/// dissipation_increment(j). All zero without damping.
template <class G>
std::vector<double> dissipated_energy(const DiscreteModel<G>& model,
                                      const mesh::BasicField<typename G::Element>& field) {
  const int J = model.mesh().J();
  std::vector<double> D(static_cast<size_t>(std::max(J, 0)), 0.0);
  if (!model.loads().damping.any()) return D;
  for (int j = 1; j < J; ++j) D[j] = D[j - 1] + dissipation_increment(model, field, j);
  return D;
}

}  // namespace field::dcel
