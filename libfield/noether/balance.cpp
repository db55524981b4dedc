#include "libfield/noether/balance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "libfield/core/error.hpp"
#include "libfield/dcel/damping.hpp"

namespace field::noether {

namespace {
template <class V>
double norm_inf(const V& v) {
  return v.cwiseAbs().maxCoeff();
}
}  // namespace

template <class G>
BalanceResultOf<G> noether_balance(const MomentumMaps<G>& maps, const Rectangle& R) {
  return noether_balance(maps, R, global_scale(maps));
}

template <class G>
BalanceResultOf<G> noether_balance(const MomentumMaps<G>& maps, const Rectangle& R,
                                   double scale_glob) {
  const double dt = maps.model().dt(), ds = maps.model().ds();
  BasicBalanceSum<typename G::Algebra> sum;
  for (int a = R.a1; a <= R.a2; ++a) {
    sum.add(ds * maps.M(R.j1 - 1, a));
    sum.add(-ds * maps.M(R.j2, a));
  }
  for (int j = R.j1; j <= R.j2; ++j) {
    sum.add(dt * maps.N(j, R.a1 - 1));
    sum.add(-dt * maps.N(j, R.a2));
  }
  for (int j = R.j1; j <= R.j2; ++j)
    for (int a = R.a1; a <= R.a2; ++a) {
      sum.add(dt * ds * maps.F(j, a));
      sum.add(dt * maps.W(j, a));
      if (maps.damped()) sum.add(maps.damping(j, a));  // theory §4.7
    }
  return sum.result(scale_glob);
}

template <class G>
BalanceResultOf<G> node_balance(const dcel::DiscreteModel<G>& model,
                                const mesh::RowWindowOf<G>& rows, int j, int a) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const double dt = model.dt(), ds = model.ds();
  BalanceResultOf<G> out;
  const auto add = [&out](const typename G::Algebra& term) {
    out.residual += term;
    out.scale_R += norm_inf(term);
  };
  // Same terms and order as noether_balance on R = [j, j] x [a, a]; missing triangles add 0.
  const bool below = mesh.has_triangle(j - 1, a), here = mesh.has_triangle(j, a),
             left = mesh.has_triangle(j, a - 1);
  using Maps = TriangleMapsOf<G>;
  const Maps t = here ? triangle_maps(model, rows, j, a) : Maps{};
  if (below) add(ds * triangle_maps(model, rows, j - 1, a).M);
  if (here) add(-ds * t.M);
  if (left) add(dt * triangle_maps(model, rows, j, a - 1).N);
  if (here) add(-dt * t.N);
  if (here) add(dt * ds * t.F);
  if (j < mesh.J()) add(dt * lie::spatial_covector(rows(j, a), model.point_load(rows(j, a), j, a)));
  if (model.loads().damping.any())  // theory §4.7
    add(lie::spatial_covector(rows(j, a), dcel::node_damping(model, rows, j, a)));
  out.relative = norm_inf(out.residual) / std::max(out.scale_R, 1e-300);
  return out;
}

namespace {
/// |r| of a node: its position, the element itself on R^3 (the cable, theory §1.8).
template <class E>
double position_norm(const E& g) {
  return g.r.norm();
}
double position_norm(const Vec3& r) {
  return r.norm();
}
}  // namespace

template <class E>
BalanceFloor::BalanceFloor(const mesh::BasicField<E>& field,
                           const std::vector<double>& node_floors) {
  const int J = field.mesh().J(), A = field.mesh().A();
  FIELD_CHECK(static_cast<long long>(node_floors.size()) == field.mesh().node_count(),
              "BalanceFloor: " << node_floors.size() << " floors for " << field.mesh().node_count()
                               << " nodes");
  columns_ = A + 2;
  table_.assign(static_cast<size_t>(J + 2) * columns_, 0.0);
  for (int j = 0; j <= J; ++j)
    for (int a = 0; a <= A; ++a) {
      const double f = std::sqrt(3.0) * (1.0 + position_norm(field(j, a))) *
                       node_floors[static_cast<size_t>(j) * (A + 1) + a];
      const size_t k = static_cast<size_t>(j + 1) * columns_ + a + 1;
      table_[k] = f + table_[k - 1] + table_[k - columns_] - table_[k - columns_ - 1];
    }
}

double BalanceFloor::operator()(const Rectangle& R) const {
  const auto T = [this](int j, int a) {  // sum over j' <= j, a' <= a
    return table_[static_cast<size_t>(j + 1) * columns_ + a + 1];
  };
  const double sum = T(R.j2, R.a2) - T(R.j1 - 1, R.a2) - T(R.j2, R.a1 - 1) + T(R.j1 - 1, R.a1 - 1);
  return std::max(sum, 0.0);  // the differences round to eps times the table's size
}

template BalanceFloor::BalanceFloor(const mesh::BasicField<lie::SE3>&, const std::vector<double>&);
template BalanceFloor::BalanceFloor(const mesh::BasicField<lie::SE2>&, const std::vector<double>&);
template BalanceFloor::BalanceFloor(const mesh::BasicField<Vec3>&, const std::vector<double>&);

double BalanceFloor::allowed(const Rectangle& R, double scale_R, double scale_glob,
                             double tolerance) const {
  const double S = std::max({scale_R, scale_glob, 1e-300});
  const double rows = R.j2 - R.j1 + 1, columns = R.a2 - R.a1 + 1;
  const double terms = 2 * rows + 2 * columns + rows * columns;
  return std::max(tolerance * S,
                  10 * std::numeric_limits<double>::epsilon() * terms * S + (*this)(R));
}

template <class G>
double global_scale(const MomentumMaps<G>& maps) {
  const mesh::SpacetimeMesh& mesh = maps.model().mesh();
  double time_part = 0.0, space_part = 0.0;
  for (int j = 0; j < mesh.J(); ++j) {
    double sum = 0.0;
    for (int a = 0; a < mesh.A(); ++a) sum += norm_inf(maps.M(j, a));
    time_part = std::max(time_part, mesh.ds() * sum);
  }
  for (int a = 0; a < mesh.A(); ++a) {
    double sum = 0.0;
    for (int j = 0; j < mesh.J(); ++j) sum += norm_inf(maps.N(j, a));
    space_part = std::max(space_part, mesh.dt() * sum);
  }
  return std::max(time_part, space_part);
}

template <class G>
typename G::Algebra total_time_momentum(const MomentumMaps<G>& maps, int j) {
  typename G::Algebra P = G::Algebra::Zero();
  for (int a = 0; a < maps.model().mesh().A(); ++a) P += maps.M(j, a);
  return maps.model().ds() * P;
}

template <class G>
typename G::Algebra total_space_momentum(const MomentumMaps<G>& maps, int a) {
  typename G::Algebra Q = G::Algebra::Zero();
  for (int j = 0; j < maps.model().mesh().J(); ++j) Q += maps.N(j, a);
  return maps.model().dt() * Q;
}

#define FIELD_INSTANTIATE(G)                                                                     \
  template BalanceResultOf<G> noether_balance(const MomentumMaps<G>&, const Rectangle&);         \
  template BalanceResultOf<G> noether_balance(const MomentumMaps<G>&, const Rectangle&, double); \
  template BalanceResultOf<G> node_balance(const dcel::DiscreteModel<G>&,                        \
                                           const mesh::RowWindowOf<G>&, int, int);               \
  template double global_scale(const MomentumMaps<G>& maps);                                     \
  template G::Algebra total_time_momentum(const MomentumMaps<G>& maps, int j);                   \
  template G::Algebra total_space_momentum(const MomentumMaps<G>& maps, int a);
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::noether
