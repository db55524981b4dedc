#include "libfield/dcel/residual.hpp"

#include <vector>

#include "libfield/dcel/momenta.hpp"

namespace field::dcel {

namespace {
double norm_inf(const Vec6& v) {
  return v.cwiseAbs().maxCoeff();
}

VertexDerivatives derivatives_of(const DiscreteModel& model, const mesh::Field& field, int j,
                                 int a) {
  const TriangleMomenta m =
      triangle_momenta(model, j, a, field(j, a), field(j + 1, a), field(j, a + 1));
  return vertex_derivatives(model, m);
}
}  // namespace

NodeResidual node_residual(const DiscreteModel& model, const mesh::Field& field, int j, int a) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  NodeResidual r;
  const auto add = [&r](const Vec6& D) {
    r.G += D;
    r.scale += norm_inf(D);
  };
  if (mesh.has_triangle(j, a)) add(derivatives_of(model, field, j, a).D1);          // n = v1
  if (mesh.has_triangle(j - 1, a)) add(derivatives_of(model, field, j - 1, a).D2);  // n = v2
  if (mesh.has_triangle(j, a - 1)) add(derivatives_of(model, field, j, a - 1).D3);  // n = v3
  if (j < mesh.J()) add(model.dt() * model.point_load(field(j, a), j, a));          // [S3.1]
  return r;
}

ResidualReport residual_report(const DiscreteModel& model, const mesh::Field& field,
                               const mesh::Boundary& boundary) {
  const mesh::SpacetimeMesh& mesh = model.mesh();
  const int A = mesh.A();
  const long long count = mesh.node_count();
  std::vector<NodeResidual> residuals(static_cast<size_t>(count));
  std::vector<char> is_equation(static_cast<size_t>(count), 0);
#pragma omp parallel for schedule(static)
  for (long long n = 0; n < count; ++n) {
    const int j = static_cast<int>(n / (A + 1)), a = static_cast<int>(n % (A + 1));
    if (!mesh.is_equation_node(j, a, boundary)) continue;
    is_equation[n] = 1;
    residuals[n] = node_residual(model, field, j, a);
  }
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
