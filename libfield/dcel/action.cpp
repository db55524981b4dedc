#include "libfield/dcel/action.hpp"

#include "libfield/lie/rn.hpp"
#include "libfield/lie/se2.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::dcel {

template <class G>
double discrete_lagrangian(const DiscreteModel<G>& model, int a, const typename G::Element& v1,
                           const typename G::Element& v2, const typename G::Element& v3) {
  const typename G::Algebra xi = mesh::convected<G>(v1, v2, model.dt());
  const typename G::Algebra eta = mesh::convected<G>(v1, v3, model.ds());
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

// The planar beam's group (docs/theory.md §1.7): L_d of one triangle, for the tests.
template double discrete_lagrangian(const DiscreteModel<lie::Se2Cayley>&, int, const lie::SE2&,
                                    const lie::SE2&, const lie::SE2&);

#define FIELD_INSTANTIATE(G)                                                         \
  template double discrete_lagrangian(const DiscreteModel<G>&, int, const lie::SE3&, \
                                      const lie::SE3&, const lie::SE3&);             \
  template double discrete_action(const DiscreteModel<G>&, const mesh::Field&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

// The cable's group R^3 (docs/theory.md §1.8): L_d of one triangle, for the tests.
template double discrete_lagrangian(const DiscreteModel<lie::Rn<3>>&, int, const Vec3&, const Vec3&,
                                    const Vec3&);

}  // namespace field::dcel
