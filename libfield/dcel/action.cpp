#include "libfield/dcel/action.hpp"

#include "libfield/mesh/convected.hpp"

namespace field::dcel {

template <class G>
double discrete_lagrangian(const DiscreteModel<G>& model, int a, const lie::SE3& v1,
                           const lie::SE3& v2, const lie::SE3& v3) {
  const Vec6 xi = mesh::convected<G>(v1, v2, model.dt());
  const Vec6 eta = mesh::convected<G>(v1, v3, model.ds());
  return model.dt() * model.ds() * model.density(a).lagrangian(v1, xi, eta);
}

template <class G>
double discrete_action(const DiscreteModel<G>& model, const mesh::Field& field) {
  const mesh::SpacetimeMesh& m = model.mesh();
  double S = 0.0;
  for (int j = 0; j < m.J(); ++j)
    for (int a = 0; a < m.A(); ++a)
      S += discrete_lagrangian(model, a, field(j, a), field(j + 1, a), field(j, a + 1));
  return S;
}

#define FIELD_INSTANTIATE(G)                                                         \
  template double discrete_lagrangian(const DiscreteModel<G>&, int, const lie::SE3&, \
                                      const lie::SE3&, const lie::SE3&);             \
  template double discrete_action(const DiscreteModel<G>&, const mesh::Field&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::dcel
