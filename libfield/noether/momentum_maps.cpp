#include "libfield/noether/momentum_maps.hpp"

#include "libfield/core/parallel_errors.hpp"
#include "libfield/dcel/damping.hpp"
#include "libfield/dcel/momenta.hpp"

namespace field::noether {

namespace {
template <class G, class Values>
TriangleMapsOf<G> triangle_maps_of(const dcel::DiscreteModel<G>& model, const Values& values, int j,
                                   int a) {
  const typename G::Element& g1 = values(j, a);
  const typename G::Element& g2 = values(j + 1, a);
  const typename G::Element& g3 = values(j, a + 1);
  const auto m = dcel::triangle_momenta(model, j, a, g1, g2, g3);
  const auto D = dcel::vertex_derivatives(model, m);
  TriangleMapsOf<G> t;
  t.M = lie::spatial_covector(g1, m.mu);
  t.N = lie::spatial_covector(g1, m.lambda);
  t.F = lie::spatial_covector(g1, m.f);
  t.J1 = lie::spatial_covector(g1, D.D1);
  t.J2 = lie::spatial_covector(g2, D.D2);
  t.J3 = lie::spatial_covector(g3, D.D3);
  return t;
}
}  // namespace

template <class G>
TriangleMapsOf<G> triangle_maps(const dcel::DiscreteModel<G>& model, const mesh::FieldOf<G>& field,
                                int j, int a) {
  return triangle_maps_of(model, field, j, a);
}

template <class G>
TriangleMapsOf<G> triangle_maps(const dcel::DiscreteModel<G>& model,
                                const mesh::RowWindowOf<G>& rows, int j, int a) {
  return triangle_maps_of(model, rows, j, a);
}

template <class G>
MomentumMaps<G>::MomentumMaps(const dcel::DiscreteModel<G>& model, const mesh::FieldOf<G>& field)
    : model_(model), has_point_loads_(!model.loads().point.empty()) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const int J = mesh.J(), A = mesh.A();
  const long long triangles = static_cast<long long>(J) * A;
  M_.resize(triangles);
  N_.resize(triangles);
  F_.resize(triangles);
  ParallelErrors errors;  // a half turn between neighbours makes cay_inv throw
#pragma omp parallel for schedule(static)
  for (long long k = 0; k < triangles; ++k) {
    errors.guard(k, [&] {
      const int j = static_cast<int>(k / A), a = static_cast<int>(k % A);
      const typename G::Element& g = field(j, a);
      const auto m = dcel::triangle_momenta(model, j, a, g, field(j + 1, a), field(j, a + 1));
      M_[k] = lie::spatial_covector(g, m.mu);
      N_[k] = lie::spatial_covector(g, m.lambda);
      F_[k] = lie::spatial_covector(g, m.f);
    });
  }
  errors.rethrow();
  if (has_point_loads_) {
    W_.resize(static_cast<size_t>(J) * (A + 1));
    for (int j = 0; j < J; ++j)
      for (int a = 0; a <= A; ++a)
        W_[static_cast<size_t>(j) * (A + 1) + a] =
            lie::spatial_covector(field(j, a), model.point_load(field(j, a), j, a));
  }
  if (model.loads().damping.any()) {
    D_.resize(static_cast<size_t>(J + 1) * (A + 1));
#pragma omp parallel for schedule(static)
    for (int j = 0; j <= J; ++j)
      errors.guard(j, [&] {
        for (int a = 0; a <= A; ++a)
          D_[static_cast<size_t>(j) * (A + 1) + a] =
              lie::spatial_covector(field(j, a), dcel::node_damping(model, field, j, a));
      });
    errors.rethrow();
  }
}

template <class G>
typename G::Algebra MomentumMaps<G>::damping(int j, int a) const {
  const mesh::SpacetimeMesh& mesh = model_.mesh();
  if (D_.empty() || j < 0 || j > mesh.J() || a < 0 || a > mesh.A()) return V::Zero();
  return D_[static_cast<size_t>(j) * (mesh.A() + 1) + a];
}

template <class G>
typename G::Algebra MomentumMaps<G>::W(int j, int a) const {
  const mesh::SpacetimeMesh& mesh = model_.mesh();
  if (!has_point_loads_ || j < 0 || j >= mesh.J() || a < 0 || a > mesh.A()) return V::Zero();
  return W_[static_cast<size_t>(j) * (mesh.A() + 1) + a];
}

#define FIELD_INSTANTIATE(G)                                                                       \
  template TriangleMapsOf<G> triangle_maps(const dcel::DiscreteModel<G>&, const mesh::FieldOf<G>&, \
                                           int, int);                                              \
  template TriangleMapsOf<G> triangle_maps(const dcel::DiscreteModel<G>&,                          \
                                           const mesh::RowWindowOf<G>&, int, int);                 \
  template class MomentumMaps<G>;
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether
