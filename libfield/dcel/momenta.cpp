#include "libfield/dcel/momenta.hpp"

#include "libfield/mesh/convected.hpp"

namespace field::dcel {

void time_momenta(const DiscreteModel& model, const Vec6& xi, Vec6& mu, Vec6& mu_tilde) {
  const Vec6 p = model.density().kinetic_momentum(xi);
  const Vec6 x = model.dt() * xi;
  mu = model.tau().dtau_inv_dual(x, p);
  mu_tilde = model.tau().dtau_inv_dual(-x, p);  // = Ad*_{tau(x)} mu, theory §0.2
}

void space_momenta(const DiscreteModel& model, const Vec6& eta, Vec6& lambda, Vec6& lambda_tilde) {
  const Vec6 n = model.density().stress(eta);
  const Vec6 x = model.ds() * eta;
  lambda = -model.tau().dtau_inv_dual(x, n);
  lambda_tilde = -model.tau().dtau_inv_dual(-x, n);
}

Vec6 time_momentum(const DiscreteModel& model, const Vec6& xi) {
  return model.tau().dtau_inv_dual(model.dt() * xi, model.density().kinetic_momentum(xi));
}

Vec6 space_momentum(const DiscreteModel& model, const Vec6& eta) {
  return -model.tau().dtau_inv_dual(model.ds() * eta, model.density().stress(eta));
}

Vec6 time_momentum_tilde(const DiscreteModel& model, const Vec6& xi) {
  return model.tau().dtau_inv_dual(-model.dt() * xi, model.density().kinetic_momentum(xi));
}

Vec6 space_momentum_tilde(const DiscreteModel& model, const Vec6& eta) {
  return -model.tau().dtau_inv_dual(-model.ds() * eta, model.density().stress(eta));
}

TriangleMomenta triangle_momenta(const DiscreteModel& model, int j, int a, const lie::SE3& v1,
                                 const lie::SE3& v2, const lie::SE3& v3) {
  TriangleMomenta m;
  m.xi = mesh::convected(model.tau(), v1, v2, model.dt());
  m.eta = mesh::convected(model.tau(), v1, v3, model.ds());
  time_momenta(model, m.xi, m.mu, m.mu_tilde);
  space_momenta(model, m.eta, m.lambda, m.lambda_tilde);
  m.f = model.force(v1, j, a);
  return m;
}

VertexDerivatives vertex_derivatives(const DiscreteModel& model, const TriangleMomenta& m) {
  const double dt = model.dt(), ds = model.ds();
  return {-ds * m.mu - dt * m.lambda + dt * ds * m.f, ds * m.mu_tilde, dt * m.lambda_tilde};
}

}  // namespace field::dcel
