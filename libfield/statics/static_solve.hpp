#pragma once
/// The static solver (theory §4.5): the row g^a, a = 0..A, with R_a = 0 (statics/static_residual)
/// at every node that is not held, by Newton on the left-trivialised updates g^a <- g^a
/// tau(delta_a) with the model's retraction, and load stepping: the loads (gravity, distributed and
/// point loads, at t = 0) are applied in fractions phi = 1/steps, 2/steps, .., 1, each step halved
/// on failure.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"

namespace field::statics {

/// The row to start from (A + 1 poses: the guess at phi = 0, usually the stress-free shape) and the
/// ends: a held end keeps its pose of `row`, a free end has the natural equation of theory §4.
struct StaticInput {
  std::vector<lie::SE3> row;
  bool left_held = false;
  bool right_held = false;
};

struct LoadStep;

struct StaticOptions {
  int steps = 1;            ///< nominal load steps (phi grows by 1/steps, halved on failure)
  int max_iterations = 30;  ///< Newton iterations per load step before the step counts as failed
  int max_halvings = 12;    ///< a step halved more often than this ends the solve
  /// Newton stops when max|delta| <= step_tolerance (rotations [rad], translations over ds), after
  /// one more (polishing) iteration, as the node solver of theory §5.
  double step_tolerance = 1e-12;
  /// A Newton update rotating a node by more than this [rad] fails the load step: the step left
  /// the region where Newton is trusted (translations are not limited: a whole beam may swing).
  double max_rotation = 1.0;
  /// Called after every load step, tried or accepted (e.g. a progress line).
  std::function<void(const LoadStep&)> on_step;
  /// When set (e.g. by on_step), the solve stops before its next load step: the last converged
  /// row, StaticResult::stopped (not converged unless the load was complete).
  const std::atomic<bool>* stop = nullptr;
};

/// One Newton iteration: the relative residual (theory (4.10) for the row) before the update, and
/// the size of the update (as step_tolerance).
struct NewtonIteration {
  double residual = 0.0;
  double step = 0.0;
  double rotation = 0.0;  ///< largest rotation of the update [rad]
};

/// One load step, tried or accepted.
struct LoadStep {
  double fraction = 0.0;  ///< phi of the step
  bool converged = false;
  std::vector<NewtonIteration> iterations;
  std::string failure;  ///< why it failed (empty when converged)
};

struct StaticResult {
  std::vector<lie::SE3> row;  ///< the equilibrium (or the last converged row when !converged)
  bool converged = false;
  double fraction = 0.0;           ///< phi reached
  double relative_residual = 0.0;  ///< theory (4.10) of the final row at phi
  int newton_iterations = 0;       ///< over every step, tried or accepted
  int halvings = 0;
  bool stopped = false;         ///< StaticOptions::stop ended it before the whole load
  std::vector<LoadStep> steps;  ///< every step tried, in order
  std::string failure;          ///< what failed and what to do (empty when converged)
};

/// Relative residual max_a |R_a|_inf / max_a scale_a over the free nodes (0 if all terms vanish).
template <class G>
double static_relative_residual(const dcel::DiscreteModel<G>& model, const StaticInput& input,
                                const std::vector<lie::SE3>& row, double phi = 1.0);

/// The Jacobian of the residual of the free nodes with respect to their updates delta (6 per node,
/// rotation first, node order), by central differences (theory §4.5): dense, for tests.
template <class G>
Eigen::MatrixXd static_jacobian(const dcel::DiscreteModel<G>& model, const StaticInput& input,
                                const std::vector<lie::SE3>& row, double phi = 1.0);

/// Solves the static problem. Throws field::Error for an invalid input (sizes, both ends free:
/// rigid motions make the problem singular); a solve that fails returns converged = false with
/// `failure` saying what to change.
template <class G>
StaticResult solve_static(const dcel::DiscreteModel<G>& model, const StaticInput& input,
                          const StaticOptions& options = {});

}  // namespace field::statics
