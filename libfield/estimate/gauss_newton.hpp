#pragma once
/// Levenberg-Marquardt on the group for the estimator's least-squares problem (estimate/problem,
/// theory §6.7): normal equations (J^T J + lambda diag(J^T J)) delta = -J^T r, the step corrected
/// by its geodesic acceleration, lambda by Nielsen's rule from 1e-12, with J^T J accumulated
/// block-banded in time rows (estimate/normal_equations) and its block-banded Cholesky
/// factorisation (estimate/banded_cholesky; SuiteSparse CHOLMOD on the sparse J^T J through
/// Eigen as an option, docs/reconstruction.md for the measurements behind the choice), the
/// analytic Jacobian blocks (Problem::jacobian_blocks), the update g <- g tau(delta), and at the
/// end the Gauss-Newton covariance (J^T J)^{-1}: its diagonal 6x6 blocks by the two-sided Schur
/// complements of the banded factorisation (the selected inverse after a sparse one).
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include <Eigen/SparseCore>

#include "libfield/estimate/normal_equations.hpp"
#include "libfield/estimate/problem.hpp"

namespace field::estimate {

/// One Levenberg-Marquardt iteration, for progress output.
struct Iteration {
  int index = 0;
  CostTerms cost;               ///< after the iteration (the accepted field)
  double lambda = 0.0;          ///< damping used
  double step = 0.0;            ///< max |delta| of the last trial
  int rejected = 0;             ///< trials rejected in this iteration
  double gain = 0.0;            ///< actual over predicted decrease of the last trial
  double solve_residual = 0.0;  ///< |M delta + J^T r| / |J^T r| of the last trial's solve
};

struct SolverOptions {
  /// The Cholesky factorisation of the normal equations: the block-banded one in time rows
  /// (estimate/banded_cholesky, also the covariance), or a sparse one (the covariance then by
  /// estimate/selected_inverse).
  enum class Linear { banded, cholmod_supernodal, cholmod_simplicial, eigen_ldlt };
  Linear linear = Linear::banded;
  int max_iterations = 50;
  double step_tolerance = 1e-11;  ///< converged when max |delta| falls below
  /// Converged when an accepted step lowers the cost by no more than this fraction of it: a
  /// change of the estimate of about (2 cost_tolerance cost)^{1/2} standard deviations (§6.7).
  double cost_tolerance = 1e-8;
  /// The Jacobian blocks: analytic (Problem::jacobian_blocks) or all by central differences
  /// (Problem::jacobian_block, the first version; for checks and measurements).
  bool analytic_jacobian = true;
  double fd_step = 1e-6;              ///< central-difference step (loads, damping, or every block)
  double lambda0 = 1e-12;             ///< initial damping, relative to diag(J^T J) (§6.7)
  int threads = 1;                    ///< OpenMP threads (results do not depend on them)
  bool geodesic_acceleration = true;  ///< the second-order correction of each step (§6.7)
  bool covariance = true;             ///< compute the standard deviations
  /// The relative residual |M delta + g| / |g| up to which a step's solve is refined (at most
  /// twice); the geodesic acceleration's correction is one solve (theory §6.7).
  double solve_tolerance = 1e-2;
  std::function<void(const Iteration&)> on_iteration;
  /// When set (e.g. by on_iteration), the solve stops after the current iteration: the estimate
  /// so far, Estimate::stopped, and its covariance when asked.
  const std::atomic<bool>* stop = nullptr;
};

struct Estimate {
  explicit Estimate(const mesh::Field& start) : field(start) {}
  mesh::Field field;
  CostTerms start_cost, cost;
  int iterations = 0;
  bool converged = false;
  bool stopped = false;  ///< SolverOptions::stop ended it before convergence
  double last_step = 0.0;
  /// Per node (index j (A+1) + a): square roots of the traces of the position and rotation
  /// blocks of the covariance [m], [rad]; 0 at fixed nodes, NaN when not computed.
  std::vector<double> sigma_position, sigma_rotation;
  /// Why the covariance could not be computed (J^T J numerically singular at the estimate), or
  /// empty; the estimate itself stands, the standard deviations are NaN.
  std::string covariance_error;
  long long residual_rows = 0, unknowns = 0, jacobian_nonzeros = 0, normal_nonzeros = 0;
  double jacobian_seconds = 0.0, factor_seconds = 0.0, covariance_seconds = 0.0;
};

/// Minimises 1/2 |r|^2 from `start` (a field on the problem's mesh, by rows).
template <class G>
Estimate solve(const Problem<G>& problem, const mesh::Field& start, const SolverOptions& options);

}  // namespace field::estimate
