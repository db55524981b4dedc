#include "libfield/dcel/residual.hpp"

#include <vector>

#include "libfield/core/parallel_errors.hpp"
#include "libfield/dcel/momenta.hpp"

namespace field::dcel {

namespace {
double norm_inf(const Vec6& v) {
  return v.cwiseAbs().maxCoeff();
}

// G_n of SPEC [S5] from any node accessor values(j, a): a whole mesh::Field or a RowWindow.
template <class Values>
NodeResidual node_residual_of(const DiscreteModel& model, const Values& values, int j, int a) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const auto derivatives_of = [&](int jt, int at) {
    const TriangleMomenta m =
        triangle_momenta(model, jt, at, values(jt, at), values(jt + 1, at), values(jt, at + 1));
    return vertex_derivatives(model, m);
  };
  NodeResidual r;
  const auto add = [&r](const Vec6& D) {
    r.G += D;
    r.scale += norm_inf(D);
  };
  if (mesh.has_triangle(j, a)) add(derivatives_of(j, a).D1);                 // n = v1
  if (mesh.has_triangle(j - 1, a)) add(derivatives_of(j - 1, a).D2);         // n = v2
  if (mesh.has_triangle(j, a - 1)) add(derivatives_of(j, a - 1).D3);         // n = v3
  if (j < mesh.J()) add(model.dt() * model.point_load(values(j, a), j, a));  // [S3.1]
  return r;
}
}  // namespace

NodeResidual node_residual(const DiscreteModel& model, const mesh::Field& field, int j, int a) {
  return node_residual_of(model, field, j, a);
}

NodeResidual node_residual(const DiscreteModel& model, const mesh::RowWindow& rows, int j, int a) {
  return node_residual_of(model, rows, j, a);
}

ResidualReport residual_report(const DiscreteModel& model, const mesh::Field& field,
                               const mesh::Boundary& boundary) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const int A = mesh.A();
  const long long count = mesh.node_count();
  std::vector<NodeResidual> residuals(static_cast<size_t>(count));
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
  return report;
}

}  // namespace field::dcel
