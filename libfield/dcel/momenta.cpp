#include "libfield/dcel/momenta.hpp"

#include "libfield/mesh/convected.hpp"

namespace field::dcel {

template <class G>
void time_momenta(const DiscreteModel<G>& model, int a, const Vec6& xi, Vec6& mu, Vec6& mu_tilde) {
  const Vec6 p = model.density(a).kinetic_momentum(xi);
  const Vec6 x = model.dt() * xi;
  mu = G::dtau_inv_dual(x, p);
  mu_tilde = G::dtau_inv_dual(-x, p);  // = Ad*_{tau(x)} mu, theory §0.2
}

template <class G>
void space_momenta(const DiscreteModel<G>& model, int a, const Vec6& eta, Vec6& lambda,
                   Vec6& lambda_tilde) {
  const Vec6 n = model.density(a).stress(eta);
  const Vec6 x = model.ds() * eta;
  lambda = -G::dtau_inv_dual(x, n);
  lambda_tilde = -G::dtau_inv_dual(-x, n);
}

template <class G>
Vec6 time_momentum(const DiscreteModel<G>& model, int a, const Vec6& xi) {
  return G::dtau_inv_dual(model.dt() * xi, model.density(a).kinetic_momentum(xi));
}

template <class G>
Vec6 space_momentum(const DiscreteModel<G>& model, int a, const Vec6& eta) {
  return -G::dtau_inv_dual(model.ds() * eta, model.density(a).stress(eta));
}

template <class G>
Vec6 time_momentum_tilde(const DiscreteModel<G>& model, int a, const Vec6& xi) {
  return G::dtau_inv_dual(-model.dt() * xi, model.density(a).kinetic_momentum(xi));
}

template <class G>
Vec6 space_momentum_tilde(const DiscreteModel<G>& model, int a, const Vec6& eta) {
  return -G::dtau_inv_dual(-model.ds() * eta, model.density(a).stress(eta));
}

template <class G>
TriangleMomenta triangle_momenta(const DiscreteModel<G>& model, int j, int a, const lie::SE3& v1,
                                 const lie::SE3& v2, const lie::SE3& v3) {
  TriangleMomenta m;
  m.xi = mesh::convected<G>(v1, v2, model.dt());
  m.eta = mesh::convected<G>(v1, v3, model.ds());
  time_momenta(model, a, m.xi, m.mu, m.mu_tilde);
  space_momenta(model, a, m.eta, m.lambda, m.lambda_tilde);
  m.f = model.force(v1, j, a);
  return m;
}

template <class G>
VertexDerivatives vertex_derivatives(const DiscreteModel<G>& model, const TriangleMomenta& m) {
  const double dt = model.dt(), ds = model.ds();
  return {-ds * m.mu - dt * m.lambda + dt * ds * m.f, ds * m.mu_tilde, dt * m.lambda_tilde};
}

#define FIELD_INSTANTIATE(G)                                                                    \
  template void time_momenta(const DiscreteModel<G>&, int, const Vec6&, Vec6&, Vec6&);          \
  template void space_momenta(const DiscreteModel<G>&, int, const Vec6&, Vec6&, Vec6&);         \
  template Vec6 time_momentum(const DiscreteModel<G>&, int, const Vec6&);                       \
  template Vec6 space_momentum(const DiscreteModel<G>&, int, const Vec6&);                      \
  template Vec6 time_momentum_tilde(const DiscreteModel<G>&, int, const Vec6&);                 \
  template Vec6 space_momentum_tilde(const DiscreteModel<G>&, int, const Vec6&);                \
  template TriangleMomenta triangle_momenta(const DiscreteModel<G>&, int, int, const lie::SE3&, \
                                            const lie::SE3&, const lie::SE3&);                  \
  template VertexDerivatives vertex_derivatives(const DiscreteModel<G>&, const TriangleMomenta&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::dcel
