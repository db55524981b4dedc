#include "libfield/statics/static_solve.hpp"

#include <Eigen/Sparse>
#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "libfield/statics/static_residual.hpp"

namespace field::statics {

namespace {

/// The free nodes first..last (every node that is not held) and the scale of their updates:
/// rotations in rad, translations in units of ds (theory §4.5).
struct Unknowns {
  int first = 0, last = 0;
  Vec6 scale;
  int nodes() const { return last - first + 1; }
  int size() const { return 6 * nodes(); }
};

template <class G>
Unknowns unknowns(const dcel::DiscreteModel<G>& model, const StaticInput& input) {
  const int A = model.mesh().A();
  FIELD_CHECK(static_cast<int>(input.row.size()) == A + 1,
              "static solve: the row has " << input.row.size() << " poses for A = " << A
                                           << " (A + 1 needed)");
  FIELD_CHECK(input.left_held || input.right_held,
              "static solve: both ends are free, so every rigid motion of an equilibrium is one "
              "too (the Newton matrix is singular): hold (clamp) at least one end");
  Unknowns u;
  u.first = input.left_held ? 1 : 0;
  u.last = input.right_held ? A - 1 : A;
  FIELD_CHECK(u.last >= u.first, "static solve: A = " << A
                                                      << " with both ends held leaves no "
                                                         "free node: use A >= 2");
  const double ds = model.ds();
  u.scale << 1, 1, 1, ds, ds, ds;
  return u;
}

struct ResidualNorms {
  double max_abs = 0.0, max_scale = 0.0;
  double relative() const { return max_scale > 0.0 ? max_abs / max_scale : max_abs; }
};

template <class G>
ResidualNorms residual(const dcel::DiscreteModel<G>& model, const Unknowns& u,
                       const std::vector<lie::SE3>& row, double phi, Eigen::VectorXd& R) {
  R.resize(u.size());
  ResidualNorms n;
  for (int a = u.first; a <= u.last; ++a) {
    const StaticNodeResidual r = static_node_residual(model, row, a, phi);
    R.segment<6>(6 * (a - u.first)) = r.R;
    n.max_abs = std::max(n.max_abs, r.R.cwiseAbs().maxCoeff());
    n.max_scale = std::max(n.max_scale, r.scale);
    if (!std::isfinite(r.R.sum())) n.max_abs = r.R.sum();  // NaN or inf: reported as such
  }
  return n;
}

// Central differences of R_{b-1}, R_b, R_{b+1} in the update of node b (the others do not depend on
// it: the system is block-tridiagonal), with one Richardson step, (4 D(h) - D(2h)) / 3, at h = 1e-4
// of the unknown's scale: truncation O(h^4) (a rotation by h stretches a segment by h^2/2, so the
// truncation of plain central differences grows with EA/EI), round-off ~1e-12 relative: Newton
// then behaves as with the exact matrix, down to the residual's round-off floor (theory §4.5).
template <class G>
std::vector<Eigen::Triplet<double>> jacobian_triplets(const dcel::DiscreteModel<G>& model,
                                                      const Unknowns& u, std::vector<lie::SE3> row,
                                                      double phi) {
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(static_cast<size_t>(u.size()) * 18);
  for (int b = u.first; b <= u.last; ++b) {
    const lie::SE3 g = row[b];
    const int c0 = std::max(u.first, b - 1), c1 = std::min(u.last, b + 1);
    // D(h) for the nodes c0..c1: (R(g tau(h e_k)) - R(g tau(-h e_k))) / 2h.
    const auto central = [&](const Vec6& e, double h, Vec6* d) {
      Vec6 plus[3];
      row[b] = g * G::tau(e);
      for (int c = c0; c <= c1; ++c) plus[c - c0] = static_node_residual(model, row, c, phi).R;
      row[b] = g * G::tau(-e);
      for (int c = c0; c <= c1; ++c)
        d[c - c0] = (plus[c - c0] - static_node_residual(model, row, c, phi).R) / (2.0 * h);
      row[b] = g;
    };
    for (int k = 0; k < 6; ++k) {
      const double h = 1e-4 * u.scale(k);
      Vec6 d1[3], d2[3];
      central(h * Vec6::Unit(k), h, d1);
      central(2.0 * h * Vec6::Unit(k), 2.0 * h, d2);
      for (int c = c0; c <= c1; ++c) {
        const Vec6 column = (4.0 * d1[c - c0] - d2[c - c0]) / 3.0;
        for (int i = 0; i < 6; ++i)
          if (column(i) != 0.0)
            t.emplace_back(6 * (c - u.first) + i, 6 * (b - u.first) + k, column(i));
      }
    }
  }
  return t;
}

template <class G>
LoadStep newton(const dcel::DiscreteModel<G>& model, const Unknowns& u, std::vector<lie::SE3>& row,
                double phi, const StaticOptions& options) {
  LoadStep s;
  s.fraction = phi;
  bool polishing = false;
  Eigen::VectorXd R;
  for (int it = 0; it < options.max_iterations; ++it) {
    const ResidualNorms norms = residual(model, u, row, phi, R);
    NewtonIteration record;
    record.residual = norms.relative();
    if (!std::isfinite(norms.max_abs)) {
      s.iterations.push_back(record);
      s.failure = "the residual is not finite";
      return s;
    }
    const std::vector<Eigen::Triplet<double>> t = jacobian_triplets(model, u, row, phi);
    Eigen::SparseMatrix<double> J(u.size(), u.size());
    J.setFromTriplets(t.begin(), t.end());
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
    lu.compute(J);
    if (lu.info() != Eigen::Success) {
      s.iterations.push_back(record);
      s.failure = "the Newton matrix is singular (" + lu.lastErrorMessage() + ")";
      return s;
    }
    const Eigen::VectorXd delta = lu.solve(-R);
    double step = 0.0, rotation = 0.0;
    for (int i = 0; i < u.size(); ++i) step = std::max(step, std::abs(delta(i)) / u.scale(i % 6));
    for (int a = 0; a < u.nodes(); ++a)
      rotation = std::max(rotation, delta.segment<3>(6 * a).norm());
    if (!std::isfinite(step + rotation)) step = rotation = INFINITY;
    record.step = step;
    record.rotation = rotation;
    s.iterations.push_back(record);
    if (rotation > options.max_rotation) {
      std::ostringstream m;
      m << "a Newton update rotates a node by " << rotation << " rad, more than "
        << options.max_rotation;
      s.failure = m.str();
      return s;
    }
    for (int a = u.first; a <= u.last; ++a)
      row[a] = row[a] * G::tau(delta.segment<6>(6 * (a - u.first)));
    if (polishing) {
      s.converged = true;
      return s;
    }
    polishing = step <= options.step_tolerance;
  }
  std::ostringstream m;
  m << "Newton did not converge in " << options.max_iterations << " iterations";
  s.failure = m.str();
  return s;
}

}  // namespace

template <class G>
double static_relative_residual(const dcel::DiscreteModel<G>& model, const StaticInput& input,
                                const std::vector<lie::SE3>& row, double phi) {
  Eigen::VectorXd R;
  return residual(model, unknowns(model, input), row, phi, R).relative();
}

template <class G>
Eigen::MatrixXd static_jacobian(const dcel::DiscreteModel<G>& model, const StaticInput& input,
                                const std::vector<lie::SE3>& row, double phi) {
  const Unknowns u = unknowns(model, input);
  const std::vector<Eigen::Triplet<double>> t = jacobian_triplets(model, u, row, phi);
  Eigen::SparseMatrix<double> J(u.size(), u.size());
  J.setFromTriplets(t.begin(), t.end());
  return Eigen::MatrixXd(J);
}

template <class G>
StaticResult solve_static(const dcel::DiscreteModel<G>& model, const StaticInput& input,
                          const StaticOptions& options) {
  const Unknowns u = unknowns(model, input);
  FIELD_CHECK(options.steps >= 1 && options.max_iterations >= 1 && options.max_halvings >= 0,
              "static solve: steps = " << options.steps << ", max_iterations = "
                                       << options.max_iterations << ": both must be >= 1");
  StaticResult result;
  result.row = input.row;
  const double nominal = 1.0 / options.steps;
  double d = nominal;
  int halved = 0;  // consecutive halvings of the current step
  while (result.fraction < 1.0) {
    if (options.stop != nullptr && options.stop->load()) {
      result.stopped = true;
      std::ostringstream m;
      m << "the static solve was stopped (by its caller) at load fraction " << result.fraction;
      result.failure = m.str();
      break;
    }
    double target = result.fraction + d;
    if (target > 1.0 - 1e-12) target = 1.0;
    std::vector<lie::SE3> trial = result.row;
    LoadStep s = newton(model, u, trial, target, options);
    result.newton_iterations += static_cast<int>(s.iterations.size());
    const bool ok = s.converged;
    const std::string why = s.failure;
    if (options.on_step) options.on_step(s);
    result.steps.push_back(std::move(s));
    if (ok) {
      result.row = std::move(trial);
      result.fraction = target;
      d = std::min(2.0 * d, nominal);
      halved = 0;
      continue;
    }
    if (halved == options.max_halvings) {
      std::ostringstream m;
      m << "the static solve stopped at load fraction " << result.fraction << ": the step to "
        << target << " failed after " << halved << " halvings (" << why
        << "). The loads may be beyond a limit point (buckling, snap-through) of this beam, or "
           "too large for the steps: raise [static] steps or max_iterations, or check the "
           "loads and the held ends";
      result.failure = m.str();
      break;
    }
    d /= 2.0;
    ++halved;
    ++result.halvings;
  }
  result.converged = result.failure.empty();
  Eigen::VectorXd R;
  result.relative_residual = residual(model, u, result.row, result.fraction, R).relative();
  return result;
}

#define FIELD_INSTANTIATE(G)                                                                     \
  template double static_relative_residual<G>(const dcel::DiscreteModel<G>&, const StaticInput&, \
                                              const std::vector<lie::SE3>&, double);             \
  template Eigen::MatrixXd static_jacobian<G>(const dcel::DiscreteModel<G>&, const StaticInput&, \
                                              const std::vector<lie::SE3>&, double);             \
  template StaticResult solve_static<G>(const dcel::DiscreteModel<G>&, const StaticInput&,       \
                                        const StaticOptions&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::statics
