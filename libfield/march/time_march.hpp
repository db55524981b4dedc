#pragma once
/// TIME-MARCH of theory §6.1: the ordinary simulation. From row j = 0 and either row j = 1 or the
/// initial body velocities, solve the DCEL of every node of row j for xi_j^a (one 6x6 Newton
/// problem per node, theory §5; the nodes of a row are independent and solved in parallel) and
/// set g_{j+1}^a = g_j^a tau(dt xi_j^a). Ends a = 0 and a = A are free (zero traction; a = A is the
/// massless ghost) or prescribed for all j.
#include <atomic>
#include <vector>

#include "libfield/dcel/discrete_model.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/lie/se3_groups.hpp"
#include "libfield/march/boundary.hpp"
#include "libfield/march/march_state.hpp"
#include "libfield/march/observer.hpp"

namespace field::march {

/// The initial rows and the ends, in the values of the group S (a G::Space: lie::Se3Group for
/// the beam, lie::Se2Cayley for the planar beam of theory §1.7).
template <class S>
struct BasicTimeMarchInput {
  using Element = typename S::Element;
  using Side = BasicSideSpec<Element>;
  std::vector<Element> row0;  ///< g_0^a, a = 0..A (a free ghost end is overwritten)
  std::vector<Element> row1;  ///< g_1^a; or empty, then velocities are used
  std::vector<typename S::Algebra> velocities;  ///< xi^a(0), a = 0..A (body); when row1 is empty
  Side left = Side::free();                     ///< a = 0, motion indexed by j
  Side right = Side::free();                    ///< a = A, motion indexed by j
  /// When k >= 1: continue a march from its state after row j = k (rows j-1 and j are emitted
  /// again, then j+1..J computed); row0, row1 and velocities are not used.
  MarchState<Element, typename S::Algebra> resume;
};
/// The beam's input on SE(3).
using TimeMarchInput = BasicTimeMarchInput<lie::Se3Group>;
/// The input of the march on G.
template <class G>
using TimeMarchInputOf = BasicTimeMarchInput<typename G::Space>;
/// The observers of the march on G.
template <class G>
using SlabObserversOf = std::vector<BasicSlabObserver<typename G::Element>*>;

/// The code that solves the nodes of a slab (docs/performance.md). All give the same fields to
/// round-off; the two lane builds give the same bits.
enum class NodeKernel {
  automatic,       ///< lanes where they apply (the beam), AVX2 where the CPU has it
  lanes_baseline,  ///< four nodes at a time (march/slab_lanes.hpp), x86-64 baseline (SSE2)
  lanes_avx2,      ///< four nodes at a time, AVX2 (field::Error on a CPU without it)
  per_node,        ///< one node at a time: dcel::CayleyNode / dcel::ExpNode / dcel::solve_node
  reference,       ///< one node at a time with dcel::solve_node (6x6 LU) for every model
};

struct MarchOptions {
  dcel::NodeSolverOptions newton;
  int threads = 0;  ///< OpenMP threads for the node solves; 0: the OpenMP default
  /// Lane kernels apply to the beam (either retraction); other models always run per node.
  NodeKernel kernel = NodeKernel::automatic;
  /// When set (e.g. by a signal handler), the march stops between two slabs: the slabs handed
  /// to the observers so far are complete, finish() is called, the result says `interrupted`.
  const std::atomic<bool>* stop = nullptr;
};

/// The boundary of the time evolution, for residual checks (theory §4).
template <class S>
mesh::Boundary time_boundary(const BasicTimeMarchInput<S>& input) {
  return mesh::Boundary::time_evolution(input.left.side, input.right.side);
}

/// Everything time_march checks before its first row, without marching: sizes, ends, point
/// loads, the node law (positive, finite; a degenerate section fails here), rows 0 and 1 with
/// their ends (finite, no half turn between neighbours under Cayley), the initial velocities and
/// the stresses of row 0 (finite). Throws field::Error naming the row and node. Callers that
/// write files call it before creating them; time_march calls it first.
template <class G>
void check_time_march(const dcel::DiscreteModel<G>& model, const TimeMarchInputOf<G>& input,
                      const MarchOptions& options = {});

/// Runs the march over rows 0..J of model.mesh(), handing each row to the observers in order.
/// Throws field::Error for invalid input (check_time_march), before the first row. After that it
/// never throws for the numbers: a node that does not converge, a non-finite value or a half
/// turn between neighbours in a new row stops the march, reported in the result
/// (MarchFailure::kind); MarchOptions::stop stops it between rows. `end` (optional): when the
/// march completed or was interrupted, its state after the last row (the input.resume of a march
/// that continues it); otherwise end->k = 0.
template <class G>
MarchResult time_march(const dcel::DiscreteModel<G>& model, const TimeMarchInputOf<G>& input,
                       const SlabObserversOf<G>& observers, const MarchOptions& options = {},
                       MarchState<typename G::Element, typename G::Algebra>* end = nullptr);

}  // namespace field::march
