#include "libfield/dcel/momenta.hpp"

#include "libfield/lie/rn.hpp"
#include "libfield/lie/se2.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::dcel {

template <class G>
void time_momenta(const DiscreteModel<G>& model, int a, const typename G::Algebra& xi,
                  typename G::Algebra& mu, typename G::Algebra& mu_tilde) {
  const typename G::Algebra p = model.density(a).kinetic_momentum(xi);
  const typename G::Algebra x = model.dt() * xi;
  mu = G::dtau_inv_dual(x, p);
  mu_tilde = G::dtau_inv_dual(-x, p);  // = Ad*_{tau(x)} mu, theory §0.2
}

template <class G>
void space_momenta(const DiscreteModel<G>& model, int a, const typename G::Algebra& eta,
                   typename G::Algebra& lambda, typename G::Algebra& lambda_tilde) {
  const typename G::Algebra n = model.density(a).stress(eta);
  const typename G::Algebra x = model.ds() * eta;
  lambda = -G::dtau_inv_dual(x, n);
  lambda_tilde = -G::dtau_inv_dual(-x, n);
}

template <class G>
typename G::Algebra time_momentum(const DiscreteModel<G>& model, int a,
                                  const typename G::Algebra& xi) {
  return G::dtau_inv_dual(model.dt() * xi, model.density(a).kinetic_momentum(xi));
}

template <class G>
typename G::Algebra space_momentum(const DiscreteModel<G>& model, int a,
                                   const typename G::Algebra& eta) {
  return -G::dtau_inv_dual(model.ds() * eta, model.density(a).stress(eta));
}

template <class G>
typename G::Algebra time_momentum_tilde(const DiscreteModel<G>& model, int a,
                                        const typename G::Algebra& xi) {
  return G::dtau_inv_dual(-model.dt() * xi, model.density(a).kinetic_momentum(xi));
}

template <class G>
typename G::Algebra space_momentum_tilde(const DiscreteModel<G>& model, int a,
                                         const typename G::Algebra& eta) {
  return -G::dtau_inv_dual(-model.ds() * eta, model.density(a).stress(eta));
}

template <class G>
BasicTriangleMomenta<typename G::Algebra> triangle_momenta(const DiscreteModel<G>& model, int j,
                                                           int a, const typename G::Element& v1,
                                                           const typename G::Element& v2,
                                                           const typename G::Element& v3) {
  BasicTriangleMomenta<typename G::Algebra> m;
  m.xi = mesh::convected<G>(v1, v2, model.dt());
  m.eta = mesh::convected<G>(v1, v3, model.ds());
  time_momenta(model, a, m.xi, m.mu, m.mu_tilde);
  space_momenta(model, a, m.eta, m.lambda, m.lambda_tilde);
  m.f = model.force(v1, j, a);
  return m;
}

template <class G>
BasicVertexDerivatives<typename G::Algebra> vertex_derivatives(
    const DiscreteModel<G>& model, const BasicTriangleMomenta<typename G::Algebra>& m) {
  const double dt = model.dt(), ds = model.ds();
  return {-ds * m.mu - dt * m.lambda + dt * ds * m.f, ds * m.mu_tilde, dt * m.lambda_tilde};
}

#define FIELD_INSTANTIATE(G)                                                                       \
  template void time_momenta(const DiscreteModel<G>&, int, const G::Algebra&, G::Algebra&,         \
                             G::Algebra&);                                                         \
  template void space_momenta(const DiscreteModel<G>&, int, const G::Algebra&, G::Algebra&,        \
                              G::Algebra&);                                                        \
  template G::Algebra time_momentum(const DiscreteModel<G>&, int, const G::Algebra&);              \
  template G::Algebra space_momentum(const DiscreteModel<G>&, int, const G::Algebra&);             \
  template G::Algebra time_momentum_tilde(const DiscreteModel<G>&, int, const G::Algebra&);        \
  template G::Algebra space_momentum_tilde(const DiscreteModel<G>&, int, const G::Algebra&);       \
  template BasicTriangleMomenta<G::Algebra> triangle_momenta(                                      \
      const DiscreteModel<G>&, int, int, const G::Element&, const G::Element&, const G::Element&); \
  template BasicVertexDerivatives<G::Algebra> vertex_derivatives(                                  \
      const DiscreteModel<G>&, const BasicTriangleMomenta<G::Algebra>&);
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::dcel
