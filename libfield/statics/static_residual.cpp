#include "libfield/statics/static_residual.hpp"

#include "libfield/dcel/momenta.hpp"

namespace field::statics {

namespace {

template <class G>
Vec6 segment_strain(const dcel::DiscreteModel<G>& model, const std::vector<lie::SE3>& row, int a) {
  return G::tau_inv(row[a].inverse() * row[a + 1]) / model.ds();  // theory (3.3)
}

}  // namespace

template <class G>
StaticNodeResidual static_node_residual(const dcel::DiscreteModel<G>& model,
                                        const std::vector<lie::SE3>& row, int a, double phi) {
  const int A = model.mesh().A();
  FIELD_CHECK(static_cast<int>(row.size()) == A + 1,
              "static_node_residual: " << row.size() << " poses for A = " << A);
  StaticNodeResidual r;
  Vec6 lambda, lambda_tilde;
  if (a < A) {  // node a is v1 of segment a: -lambda^a + ds f(g^a) (theory (3.12) over dt)
    dcel::space_momenta(model, a, segment_strain(model, row, a), lambda, lambda_tilde);
    const Vec6 f = phi * model.ds() * model.force(row[a], 0, a);
    r.R += f - lambda;
    r.scale += r.R.cwiseAbs().maxCoeff();  // |D1| / dt, as dcel::node_residual
  }
  if (a > 0) {  // node a is v3 of segment a-1: lambda~^{a-1} (theory (3.14) over dt)
    dcel::space_momenta(model, a - 1, segment_strain(model, row, a - 1), lambda, lambda_tilde);
    r.R += lambda_tilde;
    r.scale += lambda_tilde.cwiseAbs().maxCoeff();
  }
  // theory §1.4, (4.1) over dt; an end wrench whole on node A, the end in statics (§4.5)
  const Vec6 W = phi * model.loads().static_point_body(row[a], a, model.mesh().t(0));
  r.R += W;
  r.scale += W.cwiseAbs().maxCoeff();
  return r;
}

template <class G>
double static_energy(const dcel::DiscreteModel<G>& model, const std::vector<lie::SE3>& row,
                     double phi) {
  const int A = model.mesh().A();
  const double ds = model.ds();
  const model::Loads& loads = model.loads();
  double E = 0.0;
  for (int a = 0; a < A; ++a)
    E += ds * (model.density(a).strain_energy(segment_strain(model, row, a)) +
               phi * model.density(a).potential(row[a]));
  for (const model::DistributedLoad& d : loads.distributed) {
    if (d.frame != model::LoadFrame::world) continue;
    const Vec3 F = d.wrench.at(0.0).tail<3>();
    const int last = d.a_last < 0 ? A - 1 : d.a_last;
    for (int a = d.a_first; a <= last; ++a) E -= phi * ds * F.dot(row[a].r);
  }
  for (const model::PointLoad& p : loads.point)
    if (p.frame == model::LoadFrame::world) E -= phi * p.wrench.at(0.0).tail<3>().dot(row[p.a].r);
  return E;
}

#define FIELD_INSTANTIATE(G)                                                                      \
  template StaticNodeResidual static_node_residual<G>(const dcel::DiscreteModel<G>&,              \
                                                      const std::vector<lie::SE3>&, int, double); \
  template double static_energy<G>(const dcel::DiscreteModel<G>&, const std::vector<lie::SE3>&,   \
                                   double);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::statics
