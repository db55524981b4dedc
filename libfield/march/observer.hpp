#pragma once
/// Streaming interface of the marches: a march keeps only the slabs it needs and hands every
/// finished slab (a time row for the time march, a space column for the space march) to its
/// observers, in order, so that memory does not grow with the number of steps.
#include <optional>
#include <vector>

#include "libfield/lie/se3.hpp"

namespace field::march {

/// Newton statistics of the nodes solved to produce one slab.
struct SlabStats {
  int solved_nodes = 0;          ///< nodes solved (0 for data slabs)
  int max_iterations = 0;        ///< max Newton iterations over the slab
  double mean_iterations = 0.0;  ///< mean Newton iterations over the slab
  double max_residual = 0.0;     ///< max |Phi(y) - m| over the slab
};

/// Receives the slabs of a march in order: index 0, 1, ... (j for time, a for space). E: the node
/// value (a group's Element).
template <class E>
class BasicSlabObserver {
 public:
  virtual ~BasicSlabObserver() = default;
  /// `values` holds the slab: A+1 values g_j^a (time march) or J+1 values g_j^a (space march).
  virtual void slab(int index, const std::vector<E>& values, const SlabStats& stats) = 0;
  /// Called once after the last slab (also after a failure).
  virtual void finish() {}
};

/// The beam's observer on SE(3).
using SlabObserver = BasicSlabObserver<lie::SE3>;

/// Why a march stopped early (docs/cli.md says what the program suggests for each).
enum class FailureKind {
  iteration_limit,  ///< Newton was still converging when it reached its iteration limit
  stalled,          ///< Newton settled at round-off level above its tolerance
  diverged,         ///< Newton did not approach a solution (the step is too large)
  non_finite,       ///< a value of the slab (or the node problem) is not finite (inf or NaN)
  half_turn,        ///< two neighbouring nodes are turned by a half turn (no Cayley coordinates)
};

/// A short name of the kind, for summary.json ("iteration_limit", "non_finite", ...).
inline const char* failure_kind_name(FailureKind kind) {
  switch (kind) {
    case FailureKind::iteration_limit:
      return "iteration_limit";
    case FailureKind::stalled:
      return "stalled";
    case FailureKind::diverged:
      return "diverged";
    case FailureKind::non_finite:
      return "non_finite";
    case FailureKind::half_turn:
      return "half_turn";
  }
  return "";
}

/// Where and why a march stopped early.
struct MarchFailure {
  int slab = 0;           ///< index of the slab that could not be computed
  int node = 0;           ///< node index within the slab (a for time, j for space)
  int iterations = 0;     ///< Newton iterations spent
  double residual = 0.0;  ///< max |Phi(y) - m| at the last iterate
  FailureKind kind = FailureKind::diverged;
  /// iteration_limit: the iterations Newton needed from the same start with a larger limit.
  int iterations_needed = 0;
};

/// Outcome of a march. Every slab up to last_slab was computed and handed to the observers.
struct MarchResult {
  bool completed = false;
  bool interrupted = false;             ///< MarchOptions::stop was set: stopped between slabs
  int last_slab = -1;                   ///< last valid slab index
  std::optional<MarchFailure> failure;  ///< set when a node solve did not converge
  long long node_solves = 0;            ///< node updates performed
  long long newton_iterations = 0;      ///< total Newton iterations
};

}  // namespace field::march
