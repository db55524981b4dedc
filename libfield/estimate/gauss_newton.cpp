#include "libfield/estimate/gauss_newton.hpp"

#include <omp.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>

#include <Eigen/CholmodSupport>
#include <Eigen/SparseCholesky>

#include "libfield/core/error.hpp"
#include "libfield/estimate/banded_cholesky.hpp"
#include "libfield/estimate/selected_inverse.hpp"

namespace field::estimate {

namespace {

using SpMat = Eigen::SparseMatrix<double>;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

/// The factorisation of the damped normal matrix; the pattern is analysed once.
class Factor {
 public:
  Factor(SolverOptions::Linear linear, std::vector<int> starts)
      : linear_(linear), banded_(std::move(starts)) {}
  /// Factorises M; false when M is not (numerically) positive definite.
  bool factorize(const SpMat& M) {
    switch (linear_) {
      case SolverOptions::Linear::banded:
        return banded_.factorize(M);
      case SolverOptions::Linear::cholmod_supernodal:
        return run(supernodal_, M);
      case SolverOptions::Linear::cholmod_simplicial:
        return run(simplicial_, M);
      case SolverOptions::Linear::eigen_ldlt:
        return run(ldlt_, M);
    }
    return false;
  }
  Eigen::VectorXd solve(const Eigen::VectorXd& b) {
    switch (linear_) {
      case SolverOptions::Linear::banded:
        return banded_.solve(b);
      case SolverOptions::Linear::cholmod_supernodal:
        return supernodal_.solve(b);
      case SolverOptions::Linear::cholmod_simplicial:
        return simplicial_.solve(b);
      case SolverOptions::Linear::eigen_ldlt:
        return ldlt_.solve(b);
    }
    return b;
  }

 private:
  template <class S>
  bool run(S& solver, const SpMat& M) {
    if (!analysed_) solver.analyzePattern(M);
    analysed_ = true;
    solver.factorize(M);
    return solver.info() == Eigen::Success;
  }
  SolverOptions::Linear linear_;
  BandedCholesky banded_;
  bool analysed_ = false;
  Eigen::CholmodSupernodalLLT<SpMat, Eigen::Lower> supernodal_;
  Eigen::CholmodSimplicialLLT<SpMat, Eigen::Lower> simplicial_;
  Eigen::SimplicialLDLT<SpMat, Eigen::Lower> ldlt_;
};

/// The first scalar unknown of every time row (the unknowns are numbered row by row), and 6 n.
template <class G>
std::vector<int> row_starts(const Problem<G>& problem) {
  std::vector<int> starts;
  int row = -1;
  for (int k = 0; k < problem.unknown_count(); ++k)
    if (problem.nodes()[k].j != row) {
      row = problem.nodes()[k].j;
      starts.push_back(6 * k);
    }
  starts.push_back(6 * problem.unknown_count());
  return starts;
}

}  // namespace

template <class G>
SpMat jacobian(const Problem<G>& problem, const mesh::Field& field, double h, int threads,
               bool analytic) {
  const std::vector<Block>& blocks = problem.blocks();
  const int nb = problem.block_count();
  // Where each block's 6x6 entries go: offset[b] = number of (block, unknown) pairs before b.
  std::vector<long long> offset(static_cast<size_t>(nb) + 1, 0);
  for (int b = 0; b < nb; ++b)
    offset[b + 1] = offset[b] + static_cast<long long>(blocks[b].unknowns.size());
  std::vector<Mat6> values(static_cast<size_t>(offset[nb]));
  threads = std::max(threads, 1);
#pragma omp parallel num_threads(threads)
  {
    mesh::Field local = field;  // each thread's copy (central differences move and restore it)
#pragma omp for schedule(dynamic, 64)
    for (int b = 0; b < nb; ++b) {
      if (analytic) {
        problem.jacobian_blocks(b, local, h, &values[offset[b]]);
        continue;
      }
      for (size_t i = 0; i < blocks[b].unknowns.size(); ++i)
        values[offset[b] + i] = problem.jacobian_block(b, blocks[b].unknowns[i], local, h);
    }
  }
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(values.size() * 36);
  for (int b = 0; b < nb; ++b)
    for (size_t i = 0; i < blocks[b].unknowns.size(); ++i) {
      const Mat6& m = values[offset[b] + i];
      const int col = 6 * blocks[b].unknowns[i];
      for (int c = 0; c < 6; ++c)
        for (int r = 0; r < 6; ++r) triplets.emplace_back(6 * b + r, col + c, m(r, c));
    }
  SpMat Jm(6 * nb, 6 * problem.unknown_count());
  Jm.setFromTriplets(triplets.begin(), triplets.end());
  return Jm;
}

template <class G>
Estimate solve(const Problem<G>& problem, const mesh::Field& start, const SolverOptions& options) {
  const int threads = std::max(options.threads, 1);
  const int n = 6 * problem.unknown_count();
  Estimate out(start);
  mesh::Field& field = out.field;
  Eigen::VectorXd r = problem.residuals(field, threads);
  double cost = problem.cost(r).total();
  out.start_cost = problem.cost(r);
  out.residual_rows = r.size();
  out.unknowns = n;
  FIELD_CHECK(std::isfinite(cost), "estimate: the start field gives a cost of " << cost);

  Factor factor(options.linear, row_starts(problem));
  double lambda = options.lambda0;
  double nu = 2.0;  // growth of lambda on successive rejections (Nielsen)
  SpMat N;
  for (int it = 1; it <= options.max_iterations; ++it) {
    auto t0 = Clock::now();
    const SpMat Jm = jacobian(problem, field, options.fd_step, threads, options.analytic_jacobian);
    const SpMat Jt = Jm.transpose();
    N = Jt * Jm;
    const Eigen::VectorXd grad = Jt * r;
    out.jacobian_seconds += seconds_since(t0);
    out.jacobian_nonzeros = Jm.nonZeros();
    out.normal_nonzeros = N.nonZeros();
    const Eigen::VectorXd diag = N.diagonal().cwiseMax(1e-12 * N.diagonal().maxCoeff());
    Iteration report;
    report.index = it;
    bool accepted = false;
    for (int trial = 0; trial < 30 && !accepted; ++trial) {
      SpMat M = N;
      for (int i = 0; i < n; ++i) M.coeffRef(i, i) += lambda * diag(i);
      t0 = Clock::now();
      const bool ok = factor.factorize(M);
      Eigen::VectorXd delta;
      if (ok) {
        // Two steps of iterative refinement: the normal equations square the condition number.
        delta = factor.solve(-grad);
        for (int refine = 0; refine < 2; ++refine) delta += factor.solve(-grad - M * delta);
      }
      out.factor_seconds += seconds_since(t0);
      report.lambda = lambda;
      if (!ok || !delta.allFinite()) {
        lambda = std::max(10.0 * lambda, 1e-12);
        nu = 2.0;
        ++report.rejected;
        continue;
      }
      // Geodesic acceleration (theory §6.7): the second directional derivative of the residuals
      // along delta, r_vv = (r(g tau(h delta)) - 2 r + r(g tau(-h delta))) / h^2, and the
      // correction a with (N + lambda D) a = -J^T r_vv; the step is delta + a / 2 when the
      // correction is small against delta (2 |a| <= 0.75 |delta|, Transtrum & Sethna), delta
      // otherwise (also where r_vv is round-off, near the solution).
      Eigen::VectorXd step = delta;
      if (options.geodesic_acceleration) {
        const double h = 0.1;
        mesh::Field plus = field, minus = field;
        problem.update(plus, h * delta);
        problem.update(minus, -h * delta);
        const Eigen::VectorXd rvv =
            (problem.residuals(plus, threads) - 2.0 * r + problem.residuals(minus, threads)) /
            (h * h);
        const Eigen::VectorXd b = -(Jt * rvv);
        Eigen::VectorXd accel = factor.solve(b);
        accel += factor.solve(b - M * accel);
        if (2.0 * accel.norm() <= 0.75 * delta.norm()) step += 0.5 * accel;
      }
      report.step = step.cwiseAbs().maxCoeff();
      report.solve_residual = (M * delta + grad).norm() / grad.norm();
      // The decrease the Gauss-Newton model predicts for delta: -delta^T g - 1/2 delta^T N delta
      // (the acceleration corrects the model's curvature, not its prediction).
      const double predicted = -delta.dot(grad) - 0.5 * delta.dot(N * delta);
      mesh::Field trial_field = field;
      problem.update(trial_field, step);
      const Eigen::VectorXd r_trial = problem.residuals(trial_field, threads);
      const double c_trial = problem.cost(r_trial).total();
      report.gain = (cost - c_trial) / predicted;
      if (std::isfinite(c_trial) && c_trial <= cost) {
        field = std::move(trial_field);
        r = r_trial;
        const double decrease = cost - c_trial;
        cost = c_trial;
        // Nielsen's update of the damping from the gain ratio.
        const double q = 2.0 * report.gain - 1.0;
        lambda = std::max(lambda * std::max(1.0 / 3.0, 1.0 - q * q * q), 1e-20);
        nu = 2.0;
        accepted = true;
        out.last_step = report.step;
        // Converged: a step below the tolerance that no longer halves the cost (a tiny step in an
        // ill-conditioned direction can still remove most of it), or a decrease below
        // cost_tolerance of the cost (statistically nothing: noisy data converge there, exact
        // data, whose cost falls by orders per step, at the step tolerance).
        if ((report.step < options.step_tolerance && decrease < cost) ||
            decrease <= options.cost_tolerance * cost + std::numeric_limits<double>::min())
          out.converged = true;
      } else {
        lambda = std::max(lambda * nu, 1e-20);
        nu *= 2.0;
        ++report.rejected;
        if (report.step < options.step_tolerance) {
          out.converged = true;  // no decrease left at the resolution of the step
          break;
        }
      }
    }
    out.iterations = it;
    report.cost = problem.cost(r);
    if (options.on_iteration) options.on_iteration(report);
    if (out.converged || !accepted) break;
  }
  out.cost = problem.cost(r);

  // The Gauss-Newton covariance at the estimate: diagonal blocks of (J^T J)^{-1}.
  const mesh::SpacetimeMesh& mesh = field.mesh();
  const size_t nodes = static_cast<size_t>(mesh.node_count());
  out.sigma_position.assign(nodes, std::numeric_limits<double>::quiet_NaN());
  out.sigma_rotation.assign(nodes, std::numeric_limits<double>::quiet_NaN());
  if (options.covariance) {
    const auto t0 = Clock::now();
    const SpMat Jm = jacobian(problem, field, options.fd_step, threads, options.analytic_jacobian);
    const SpMat Jt = Jm.transpose();
    const SpMat N0 = Jt * Jm;
    const std::vector<Mat6> C = options.linear == SolverOptions::Linear::banded
                                    ? banded_inverse_diagonal_blocks(N0, row_starts(problem))
                                    : inverse_diagonal_blocks(N0);
    for (size_t i = 0; i < nodes; ++i) out.sigma_position[i] = out.sigma_rotation[i] = 0.0;
    for (int k = 0; k < problem.unknown_count(); ++k) {
      const mesh::Node node = problem.nodes()[k];
      const size_t i = static_cast<size_t>(node.j) * (mesh.A() + 1) + node.a;
      out.sigma_rotation[i] = std::sqrt(C[k].topLeftCorner<3, 3>().trace());
      out.sigma_position[i] = std::sqrt(C[k].bottomRightCorner<3, 3>().trace());
    }
    out.covariance_seconds = seconds_since(t0);
  }
  return out;
}

#define FIELD_INSTANTIATE(G)                                                         \
  template SpMat jacobian(const Problem<G>&, const mesh::Field&, double, int, bool); \
  template Estimate solve(const Problem<G>&, const mesh::Field&, const SolverOptions&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::estimate
