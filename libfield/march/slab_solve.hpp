#pragma once
/// Solves the independent node problems of one slab in parallel (theory §5, §6): OpenMP over
/// nodes, each writing its own slot, then a serial reduction in node order, so results do not
/// depend on the thread count.
#include <algorithm>
#include <optional>
#include <type_traits>
#include <vector>

#include "libfield/dcel/diagonal_node.hpp"
#include "libfield/dcel/discrete_model.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/march/slab_lanes.hpp"
#include "libfield/march/time_march.hpp"

namespace field::march {

/// Newton start of slab k from the node's last solutions y1 = y_{k-1}, y2 = y_{k-2},
/// y3 = y_{k-3}: the quadratic extrapolation 3 (y1 - y2) + y3 from k >= 3, the linear one
/// 2 y1 - y2 at k = 2, y1 before (theory §5 start). Shifts the history: y3 <- y2 <- y1.
/// The start only changes the iteration count, not the converged result beyond round-off.
template <class V>
V extrapolate(int k, const V& y1, V& y2, V& y3) {
  V start = y1;
  if (k >= 3)
    start = 3.0 * (y1 - y2) + y3;
  else if (k == 2)
    start = 2.0 * y1 - y2;
  y3 = y2;
  y2 = y1;
  return start;
}

/// Nodes below which a slab runs on one thread, where the cost of a parallel region exceeds the
/// work (measured: a 10-node free flight runs 8x slower on 2).
constexpr int kParallelMinNodes = 64;

/// The reference path (dcel::solve_node, theory §5) takes any group G; the closed-form node
/// solver (dcel::DiagonalNode) and the lanes (SlabLanes) apply to SE(3) only.
template <class G>
class SlabSolver {
  using V = typename G::Algebra;
  /// SE(3), where the closed-form node solver and the lanes exist.
  static constexpr bool kSe3 = std::is_same_v<typename G::Element, lie::SE3>;
  struct NoClosedForm {};
  using ClosedForm = std::conditional_t<kSe3, dcel::DiagonalNode<G>, NoClosedForm>;

 public:
  SlabSolver(const dcel::DiscreteModel<G>& model, dcel::NodeEquation equation,
             const MarchOptions& options);

  /// Solves Phi(y_k) = target_k for k = lo..hi-1 of a time row (node k has column k's law),
  /// starting from y_k (updated in place). Fills `stats`, adds to the counters of `result`, and
  /// returns the first node that did not converge.
  std::optional<int> solve(int lo, int hi, const std::vector<V>& target, std::vector<V>& y,
                           SlabStats& stats, MarchResult& result);
  /// The same in three parts, for loops that fuse the node solve with other per-node work:
  /// begin(n) before the loop, solve_node(k, ...) for distinct k from any thread, then the
  /// serial reduction finish(lo, hi, ...) in node order.
  /// (Sizes only: every solved node's report is written during the slab.)
  void begin(int nodes) { reports_.resize(nodes); }
  /// Node k with the law of column `column` (theory §1.6: the node's column a in the time march,
  /// the slab's column a in the space march; the Axis's column()). `fallback` (the node's
  /// previous solution) is the start of a second attempt when Newton does not converge from y
  /// (an extrapolated start can be poor where the solution is rough).
  void solve_node(int k, int column, const V& target, V& y, const V& fallback) {
    const V start = y;
    dcel::NodeSolveReport r = solve_from(column, target, y);
    if (!r.converged && start != fallback) {
      y = fallback;
      const int spent = r.iterations;
      r = solve_from(column, target, y);
      r.iterations += spent;
    }
    reports_[k] = r;
  }
  std::optional<int> finish(int lo, int hi, SlabStats& stats, MarchResult& result) const;
  /// Iterations and residual of the failed node of the last solve.
  void fill_failure(MarchFailure& failure) const;
  /// Threads for a parallel loop over `nodes` nodes: one below march::kParallelMinNodes.
  int threads_for(int nodes) const { return nodes >= kParallelMinNodes ? threads_ : 1; }
  /// The batched kernel when it applies (SE(3)) and MarchOptions::kernel allows it; null otherwise.
  const SlabLanes* lanes() const { return lanes_ ? &*lanes_ : nullptr; }
  /// One slab on lanes (requires lanes()), in one parallel region: SlabLanes::fluxes of nodes
  /// 0..cross-1 of `cur` (and `prev`, the slab before, for stiffness damping) into flux,
  /// flux_tilde; a barrier; the loads extra_at(i) of the solved
  /// nodes lo..hi-1 when the model has any; then SlabLanes::updates of the solved nodes. Call
  /// begin() before and finish() after, as for solve_node.
  template <class ExtraAt>
  void lanes_slab(int slab, const std::vector<lie::SE3>& cur, int cross, int lo, int hi,
                  const ExtraAt& extra_at, std::vector<Vec6>& flux, std::vector<Vec6>& flux_tilde,
                  std::vector<Vec6>& y, std::vector<Vec6>& back1, std::vector<Vec6>& back2,
                  std::vector<lie::SE3>& next, const lie::SE3* prev = nullptr) {
    constexpr int W = lanes::kWidth;
    const SlabLanes& k = *lanes_;
    if (k.external) extra_.resize(cur.size());
    const Vec6* extra = k.external ? extra_.data() : nullptr;
    const int threads = threads_for(hi - lo);
    const auto body = [&] {
#pragma omp for schedule(static)
      for (int b = 0; b < SlabLanes::batches(cross); ++b)
        k.fluxes(slab, cur.data(), prev, b * W, std::min(W, cross - b * W), flux.data(),
                 flux_tilde.data());
      if (k.external) {
#pragma omp for schedule(static)
        for (int i = lo; i < hi; ++i) extra_[i] = extra_at(i);
      }
      // nowait: the end of the parallel region is the barrier.
#pragma omp for schedule(static) nowait
      for (int b = 0; b < SlabLanes::batches(hi - lo); ++b) {
        const int i0 = lo + b * W;
        k.updates(slab, i0, std::min(W, hi - i0), cur.data(), flux.data(), flux_tilde.data(), extra,
                  y.data(), back1.data(), back2.data(), next.data(), reports_.data());
      }
    };
    // One thread: no parallel region (libgomp's team of one still takes two futex calls a slab).
    if (threads == 1) {
      body();
    } else {
#pragma omp parallel num_threads(threads)
      body();
    }
  }

 private:
  const dcel::DiscreteModel<G>& model_;
  dcel::NodeEquation equation_;
  double h_;
  dcel::NodeSolverOptions newton_;
  // The closed-form solver of G when it applies (beam; none for NodeKernel::reference).
  // One per column a = 0..A-1 when the model is not uniform (theory §1.6: the time equation of
  // node a has J_a, the space equation of column a has C_a and eta0_a), else one.
  std::vector<std::optional<ClosedForm>> closed_form_;
  int threads_;
  std::optional<SlabLanes> lanes_;
  std::vector<Vec6> extra_;  // loads of the solved nodes on lanes (SlabLanes::updates)
  std::vector<dcel::NodeSolveReport> reports_;

  // The node law of column `column`: its density (a non-uniform model), else the model's one.
  dcel::NodeSolveReport solve_from(int column, const V& target, V& y) const {
    const int law = model_.uniform() ? 0 : column;
    if constexpr (kSe3)
      if (!closed_form_.empty() && closed_form_[law])
        return closed_form_[law]->solve(target, y, newton_);
    return dcel::solve_node<G>(model_.density(law), equation_, h_, target, y, newton_);
  }
};

}  // namespace field::march
