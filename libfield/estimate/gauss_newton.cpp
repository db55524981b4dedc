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

/// The normal equations N = J^T J, g = J^T r and the factorisation of N + diag(shift): banded
/// (J^T J accumulated from the Jacobian's blocks, estimate/normal_equations) or, for the sparse
/// factorisations, the sparse J^T J of the sparse J (their pattern analysed once).
template <class G>
class Normal {
 public:
  Normal(const Problem<G>& problem, const SolverOptions& options)
      : problem_(problem),
        options_(options),
        threads_(std::max(options.threads, 1)),
        banded_(options.linear == SolverOptions::Linear::banded),
        normal_(problem),
        cholesky_(row_starts(problem), threads_) {}
  /// N and g at `field` with residuals r.
  void assemble(const mesh::Field& field, const Eigen::VectorXd& r) {
    if (banded_) {
      normal_.assemble(field, r, options_.fd_step, threads_, options_.analytic_jacobian);
      return;
    }
    const SpMat Jm =
        jacobian(problem_, field, options_.fd_step, threads_, options_.analytic_jacobian);
    Jt_ = Jm.transpose();
    N_ = Jt_ * Jm;
    g_ = Jt_ * r;
  }
  const Eigen::VectorXd& gradient() const { return banded_ ? normal_.gradient() : g_; }
  Eigen::VectorXd diagonal() const { return banded_ ? normal_.N().diagonal() : N_.diagonal(); }
  Eigen::VectorXd transpose_times(const Eigen::VectorXd& v) const {
    return banded_ ? normal_.transpose_times(v, threads_) : Eigen::VectorXd(Jt_ * v);
  }
  /// Factorises M = N + diag(shift); false when M is not (numerically) positive definite.
  bool factorize(const Eigen::VectorXd& shift) {
    shift_ = shift;
    if (banded_) return cholesky_.factorize(normal_.N(), shift);
    M_ = N_;
    for (Eigen::Index i = 0; i < M_.rows(); ++i) M_.coeffRef(i, i) += shift(i);
    switch (options_.linear) {
      case SolverOptions::Linear::cholmod_supernodal:
        return run(supernodal_);
      case SolverOptions::Linear::cholmod_simplicial:
        return run(simplicial_);
      case SolverOptions::Linear::eigen_ldlt:
        return run(ldlt_);
      case SolverOptions::Linear::banded:
        break;
    }
    return false;
  }
  /// M x.
  Eigen::VectorXd damped_times(const Eigen::VectorXd& x) const {
    return banded_ ? Eigen::VectorXd(normal_.N().times(x, threads_) + shift_.cwiseProduct(x))
                   : Eigen::VectorXd(M_ * x);
  }
  /// x with M x = b (after a successful factorize).
  Eigen::VectorXd solve(const Eigen::VectorXd& b) {
    switch (options_.linear) {
      case SolverOptions::Linear::banded:
        return cholesky_.solve(b);
      case SolverOptions::Linear::cholmod_supernodal:
        return supernodal_.solve(b);
      case SolverOptions::Linear::cholmod_simplicial:
        return simplicial_.solve(b);
      case SolverOptions::Linear::eigen_ldlt:
        return ldlt_.solve(b);
    }
    return b;
  }
  /// The diagonal 6x6 blocks of N^{-1} (theory §6.7).
  std::vector<Mat6> inverse_diagonal_blocks() const {
    return banded_ ? banded_inverse_diagonal_blocks(normal_.N(), threads_)
                   : estimate::inverse_diagonal_blocks(N_);
  }
  long long jacobian_nonzeros() const { return normal_.jacobian_nonzeros(); }
  long long normal_nonzeros() const { return normal_.normal_nonzeros(); }

 private:
  template <class S>
  bool run(S& solver) {
    if (!analysed_) solver.analyzePattern(M_);
    analysed_ = true;
    solver.factorize(M_);
    return solver.info() == Eigen::Success;
  }
  const Problem<G>& problem_;
  const SolverOptions& options_;
  int threads_;
  bool banded_;
  NormalEquations<G> normal_;
  BandedCholesky cholesky_;
  SpMat Jt_, N_, M_;
  Eigen::VectorXd g_, shift_;
  bool analysed_ = false;
  Eigen::CholmodSupernodalLLT<SpMat, Eigen::Lower> supernodal_;
  Eigen::CholmodSimplicialLLT<SpMat, Eigen::Lower> simplicial_;
  Eigen::SimplicialLDLT<SpMat, Eigen::Lower> ldlt_;
};

}  // namespace

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

  Normal<G> normal(problem, options);
  double lambda = options.lambda0;
  double nu = 2.0;  // growth of lambda on successive rejections (Nielsen)
  for (int it = 1; it <= options.max_iterations; ++it) {
    auto t0 = Clock::now();
    normal.assemble(field, r);
    const Eigen::VectorXd& grad = normal.gradient();
    out.jacobian_seconds += seconds_since(t0);
    out.jacobian_nonzeros = normal.jacobian_nonzeros();
    out.normal_nonzeros = normal.normal_nonzeros();
    const Eigen::VectorXd N_diagonal = normal.diagonal();
    const Eigen::VectorXd diag = N_diagonal.cwiseMax(1e-12 * N_diagonal.maxCoeff());
    Iteration report;
    report.index = it;
    bool accepted = false;
    for (int trial = 0; trial < 30 && !accepted; ++trial) {
      t0 = Clock::now();
      const bool ok = normal.factorize(lambda * diag);
      Eigen::VectorXd delta, Md;
      if (ok) {
        // An inexact Gauss-Newton step (theory §6.7): refined (at most twice) only while the
        // relative residual |M delta + g| / |g| exceeds options.solve_tolerance. The normal
        // equations square the condition number, but the gain ratio below judges the step.
        delta = normal.solve(-grad);
        Md = normal.damped_times(delta);
        for (int refine = 0;
             refine < 2 && (Md + grad).norm() > options.solve_tolerance * grad.norm(); ++refine) {
          delta += normal.solve(-grad - Md);
          Md = normal.damped_times(delta);
        }
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
        const Eigen::VectorXd b = -normal.transpose_times(rvv);
        const Eigen::VectorXd accel = normal.solve(b);  // a correction: one solve
        if (2.0 * accel.norm() <= 0.75 * delta.norm()) step += 0.5 * accel;
      }
      report.step = step.cwiseAbs().maxCoeff();
      // M delta (above) gives the solve's residual and the model's curvature N delta =
      // M delta - lambda D delta.
      report.solve_residual = (Md + grad).norm() / grad.norm();
      // The decrease the Gauss-Newton model predicts for delta: -delta^T g - 1/2 delta^T N delta
      // (the acceleration corrects the model's curvature, not its prediction).
      const double predicted =
          -delta.dot(grad) - 0.5 * delta.dot(Md - lambda * diag.cwiseProduct(delta));
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
    if (options.stop != nullptr && options.stop->load()) {
      out.stopped = true;
      break;
    }
  }
  out.cost = problem.cost(r);

  // The Gauss-Newton covariance at the estimate: diagonal blocks of (J^T J)^{-1}.
  const mesh::SpacetimeMesh& mesh = field.mesh();
  const size_t nodes = static_cast<size_t>(mesh.node_count());
  out.sigma_position.assign(nodes, std::numeric_limits<double>::quiet_NaN());
  out.sigma_rotation.assign(nodes, std::numeric_limits<double>::quiet_NaN());
  if (options.covariance) {
    const auto t0 = Clock::now();
    normal.assemble(field, r);
    std::vector<Mat6> C;
    try {
      C = normal.inverse_diagonal_blocks();
    } catch (const Error& error) {  // the estimate stands without its standard deviations
      out.covariance_error = error.what();
      out.covariance_seconds = seconds_since(t0);
      return out;
    }
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

#define FIELD_INSTANTIATE(G) \
  template Estimate solve(const Problem<G>&, const mesh::Field&, const SolverOptions&);
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::estimate
