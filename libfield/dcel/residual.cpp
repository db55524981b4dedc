#include "libfield/dcel/residual.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/core/parallel_errors.hpp"
#include "libfield/dcel/damping.hpp"
#include "libfield/dcel/momenta.hpp"
#include "libfield/dcel/node_solver.hpp"

namespace field::dcel {

namespace {
template <class V>
double norm_inf(const V& v) {
  return v.cwiseAbs().maxCoeff();
}

// G_n of theory §4 from any node accessor values(j, a): a whole mesh::Field or a RowWindow.
template <class G, class Values>
NodeResidualOf<G> node_residual_of(const DiscreteModel<G>& model, const Values& values, int j,
                                   int a) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const auto derivatives_of = [&](int jt, int at) {
    const auto m =
        triangle_momenta(model, jt, at, values(jt, at), values(jt + 1, at), values(jt, at + 1));
    return vertex_derivatives(model, m);
  };
  NodeResidualOf<G> r;
  const auto add = [&r](const typename G::Algebra& D) {
    r.G += D;
    r.scale += norm_inf(D);
  };
  if (mesh.has_triangle(j, a)) add(derivatives_of(j, a).D1);                 // n = v1
  if (mesh.has_triangle(j - 1, a)) add(derivatives_of(j - 1, a).D2);         // n = v2
  if (mesh.has_triangle(j, a - 1)) add(derivatives_of(j, a - 1).D3);         // n = v3
  if (j < mesh.J()) add(model.dt() * model.point_load(values(j, a), j, a));  // theory §1.4
  if (model.loads().damping.any()) add(node_damping(model, values, j, a));   // theory §4.7
  return r;
}

// The round-off model of residual_floors (docs/theory.md section 7.4).
constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kPositionEps = 2.0;     // error of a stored coordinate [eps |r|_inf]
constexpr double kRotationEps = 8.0;     // rotation error of a stored node [eps]
constexpr double kEvaluationEps = 16.0;  // relative error of an evaluated term [eps]

// Body-frame error bound zeta of a node g -> g tau(zeta): rotation kRotationEps eps, translation
// R^T dr with |dr_i| <= kPositionEps eps |r|_inf (the march rounds r_{j+1} = r_j + R_j t to
// eps/2 |r_i|: a margin of 4).
Vec6 node_error(const lie::SE3& g) {
  Vec6 z;
  z.head<3>().setConstant(kRotationEps * kEps);
  z.tail<3>().setConstant(std::sqrt(3.0) * kPositionEps * kEps * g.r.cwiseAbs().maxCoeff());
  return z;
}
// The same in the plane (theory §1.7): one rotation angle, two coordinates.
Vec3 node_error(const lie::SE2& g) {
  Vec3 z;
  z(0) = kRotationEps * kEps;
  z.tail<2>().setConstant(std::sqrt(2.0) * kPositionEps * kEps * g.r.cwiseAbs().maxCoeff());
  return z;
}

// On R^3 (the cable, theory §1.8): the position's rounding alone.
Vec3 node_error(const Vec3& r) {
  return Vec3::Constant(std::sqrt(3.0) * kPositionEps * kEps * r.cwiseAbs().maxCoeff());
}

// y = tau^{-1}(g0^{-1} g1) / h and the componentwise bound of its change for node errors z0, z1:
// h dy = dtau^{-1}_{hy} (-z0 + Ad_U z1), U = g0^{-1} g1 (theory §3.3).
template <class G, class E = typename G::Element, class V = typename G::Algebra>
V rate_error(const E& g0, const E& g1, const V& z0, const V& z1, double h, V& y) {
  const E U = G::compose(G::inverse(g0), g1);
  y = G::tau_inv(U) / h;
  return G::dtau_inv(h * y).cwiseAbs() * (z0 + G::Ad(U).cwiseAbs() * z1) / h;
}

// Floors of D1, D2, D3 of the triangle (v1, v2, v3): the first-order change of each for the node
// errors, through the Jacobians of mu, mu~ (h = dt, -dt) and lambda, lambda~ (h = ds, -ds) of
// theory §5, plus kEvaluationEps eps |D_k|.
template <class G>
std::array<double, 3> triangle_floors(const DiscreteModel<G>& model, int j, int a,
                                      const typename G::Element& v1, const typename G::Element& v2,
                                      const typename G::Element& v3) {
  using V = typename G::Algebra;
  const double dt = model.dt(), ds = model.ds();
  const V z1 = node_error(v1);
  V xi, eta;
  const V dxi = rate_error<G>(v1, v2, z1, node_error(v2), dt, xi);
  const V deta = rate_error<G>(v1, v3, z1, node_error(v3), ds, eta);
  const auto change = [&](NodeEquation e, double h, const V& y, const V& dy) {
    return norm_inf(V(node_jacobian<G>(model.density(a), e, h, y).cwiseAbs() * dy));
  };
  const auto D = vertex_derivatives(model, triangle_momenta(model, j, a, v1, v2, v3));
  const double e = kEvaluationEps * kEps;
  // Damping (theory §4.7): mu, mu~ enter with 1 + alpha dt/2 at most, and the stress with
  // 1 + beta/dt from row j plus beta/dt from row j-1 (taken as large as row j's).
  const double cm = 1.0 + 0.5 * std::abs(model.loads().damping.mass) * dt;
  const double cs = 1.0 + 2.0 * std::abs(model.loads().damping.stiffness) / dt;
  return {cm * ds * change(NodeEquation::time, dt, xi, dxi) +
              cs * dt * change(NodeEquation::space, ds, eta, deta) + e * norm_inf(D.D1),
          cm * ds * change(NodeEquation::time, -dt, xi, dxi) + e * norm_inf(D.D2),
          cs * dt * change(NodeEquation::space, -ds, eta, deta) + e * norm_inf(D.D3)};
}
}  // namespace

template <class G>
std::vector<double> residual_floors(const DiscreteModel<G>& model, const mesh::FieldOf<G>& field) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const int J = mesh.J(), A = mesh.A();
  std::vector<std::array<double, 3>> triangles(static_cast<size_t>(J) * A);
  ParallelErrors errors;  // a half turn between neighbours makes cay_inv throw
#pragma omp parallel for schedule(static)
  for (int j = 0; j < J; ++j)
    errors.guard(j, [&] {
      for (int a = 0; a < A; ++a)
        triangles[static_cast<size_t>(j) * A + a] =
            triangle_floors(model, j, a, field(j, a), field(j + 1, a), field(j, a + 1));
    });
  errors.rethrow();
  const auto at = [&](int jt, int a_t) { return triangles[static_cast<size_t>(jt) * A + a_t]; };
  std::vector<double> floors(static_cast<size_t>(mesh.node_count()), 0.0);
#pragma omp parallel for schedule(static)
  for (int j = 0; j <= J; ++j)
    for (int a = 0; a <= A; ++a) {
      double f = 0.0;  // the terms of node_residual_of, in its order
      if (mesh.has_triangle(j, a)) f += at(j, a)[0];
      if (mesh.has_triangle(j - 1, a)) f += at(j - 1, a)[1];
      if (mesh.has_triangle(j, a - 1)) f += at(j, a - 1)[2];
      if (j < J)
        f += kEvaluationEps * kEps *
             norm_inf(typename G::Algebra(model.dt() * model.point_load(field(j, a), j, a)));
      floors[static_cast<size_t>(j) * (A + 1) + a] = f;
    }
  return floors;
}

template <class G>
NodeResidualOf<G> node_residual(const DiscreteModel<G>& model, const mesh::FieldOf<G>& field, int j,
                                int a) {
  return node_residual_of(model, field, j, a);
}

template <class G>
NodeResidualOf<G> node_residual(const DiscreteModel<G>& model, const mesh::RowWindowOf<G>& rows,
                                int j, int a) {
  return node_residual_of(model, rows, j, a);
}

template <class G>
NodeResidualOf<G> node_residual(const DiscreteModel<G>& model, const NodeValues<G>& values, int j,
                                int a) {
  return node_residual_of(model, values, j, a);
}

template <class G>
ResidualReport residual_report(const DiscreteModel<G>& model, const mesh::FieldOf<G>& field,
                               const mesh::Boundary& boundary, double tolerance,
                               const std::vector<double>& floors) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const int A = mesh.A();
  const long long count = mesh.node_count();
  std::vector<NodeResidualOf<G>> residuals(static_cast<size_t>(count));
  std::vector<char> is_equation(static_cast<size_t>(count), 0);
  ParallelErrors errors;  // a half turn between neighbours makes cay_inv throw
#pragma omp parallel for schedule(static)
  for (long long n = 0; n < count; ++n) {
    const int j = static_cast<int>(n / (A + 1)), a = static_cast<int>(n % (A + 1));
    if (!mesh.is_equation_node(j, a, boundary)) continue;
    is_equation[n] = 1;
    errors.guard(n, [&] { residuals[n] = node_residual(model, field, j, a); });
  }
  errors.rethrow();
  ResidualReport report;  // serial reduction in node order: independent of the thread count
  for (long long n = 0; n < count; ++n) {
    if (!is_equation[n]) continue;
    ++report.nodes;
    const double g = norm_inf(residuals[n].G);
    if (g > report.max_abs || report.nodes == 1) {
      report.max_abs = g;
      report.worst = {static_cast<int>(n / (A + 1)), static_cast<int>(n % (A + 1))};
    }
    report.max_scale = std::max(report.max_scale, residuals[n].scale);
  }
  report.relative = report.max_scale > 0.0 ? report.max_abs / report.max_scale : 0.0;
  const bool with_floors = !floors.empty();
  FIELD_CHECK(!with_floors || static_cast<long long>(floors.size()) == count,
              "residual_report: " << floors.size() << " floors for " << count << " nodes");
  if (tolerance <= 0.0 && !with_floors) return report;
  bool first = true;
  for (long long n = 0; n < count; ++n) {  // second pass: allowed_n needs max_scale
    if (!is_equation[n]) continue;
    const double floor_n = with_floors ? floors[n] : 0.0;
    if (report.max_scale > 0.0)
      report.max_floor = std::max(report.max_floor, floor_n / report.max_scale);
    const double allowed = std::max(tolerance * report.max_scale, floor_n);
    const double g = norm_inf(residuals[n].G);
    double q = allowed > 0.0 ? g / allowed : (g > 0.0 ? INFINITY : 0.0);
    if (!std::isfinite(g) || !std::isfinite(allowed)) q = INFINITY;  // never accept inf or NaN
    if (q > report.ratio || first) {
      first = false;
      report.ratio = q;
      report.worst_ratio = {static_cast<int>(n / (A + 1)), static_cast<int>(n % (A + 1))};
    }
  }
  return report;
}

#define FIELD_INSTANTIATE(G)                                                                      \
  template std::vector<double> residual_floors(const DiscreteModel<G>&, const mesh::FieldOf<G>&); \
  template NodeResidualOf<G> node_residual(const DiscreteModel<G>&, const mesh::FieldOf<G>&, int, \
                                           int);                                                  \
  template NodeResidualOf<G> node_residual(const DiscreteModel<G>&, const mesh::RowWindowOf<G>&,  \
                                           int, int);                                             \
  template NodeResidualOf<G> node_residual(const DiscreteModel<G>&, const NodeValues<G>&, int,    \
                                           int);                                                  \
  template ResidualReport residual_report(const DiscreteModel<G>&, const mesh::FieldOf<G>&,       \
                                          const mesh::Boundary&, double,                          \
                                          const std::vector<double>&);
FIELD_FOR_EACH_MARCH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::dcel
