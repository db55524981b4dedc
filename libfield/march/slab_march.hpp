#pragma once
/// The slab march of theory §6, written once over an axis: the time march (theory §6.1, slabs =
/// rows j, nodes a, step dt, unknown xi, time equation J xi) and the space march (theory §6.2,
/// slabs = columns a, nodes j, step ds, unknown eta, space equation -C(eta - eta0)) are the same
/// algorithm with these exchanged (the table of theory §6). Per slab k = 1..N-1: the stop flag,
/// then either the four-node lanes (SE(3)) or node by node (the fluxes of the pairs (i, i+1) of
/// slab k, a barrier, then per node target, Newton start, solve and
/// g_{k+1}^i = g_k^i tau(h y^i)), the serial reduction in node order, the boundary of slab k+1,
/// the bad-slab check, the observers.
///
/// An Axis supplies (G its group, E = G::Element, V = G::Algebra):
///   using Group = G;  static constexpr dcel::NodeEquation kEquation;  Names names;
///   model()                          the dcel::DiscreteModel<G>
///   slabs()                          N: the march produces slabs 2..N (J or A)
///   nodes()                          n: a slab holds n+1 values, pairs i = 0..n-1 (A or J)
///   lo()                             first solved node: nodes lo..n-1 are solved
///   h()                              the step (dt or ds)
///   flux(cur, prev, k, i, f, ft)     the fluxes of pair (i, i+1) of slab k (prev: slab k-1)
///   target(cur, k, i, y, f, ft_b)    the node target m from y_{k-1}^i, the pair's flux f and
///                                    the flux ft_b of the pair before (zero at i = 0)
///   load(cur, k, i)                  the loads of node i as the lanes add them to the target
///   lanes_prev(prev)                 slab k-1 for the lanes (stiffness damping) or null
///   boundary(k, slab, before)        the ends of slab k (before: slab k-1 or null)
///   accept(k, prev, cur, next)       the new slab k+1 from slabs k-1, k before it is handed on:
///                                    throws field::Error where the march cannot go on (the space
///                                    march's branch, theory §6.2); nothing for the time march
///   column(k, i)                     the column whose density is the law of node i in the solve
///                                    that produces slab k (time: i; space: k-1, theory §1.6)
#include <optional>
#include <type_traits>
#include <vector>

#include "libfield/core/error.hpp"
#include "libfield/core/parallel_errors.hpp"
#include "libfield/march/newton_diagnosis.hpp"
#include "libfield/march/slab_check.hpp"
#include "libfield/march/slab_solve.hpp"
#include "libfield/mesh/convected.hpp"

namespace field::march {

/// The words of a march in its messages (theory §6 table): "time march", "row", "node a", "a",
/// "dt", "velocity" and "space march", "column", "row j", "j", "ds", "strain".
struct AxisNames {
  const char* march;      ///< "time march"
  const char* slab;       ///< "row": the slabs
  const char* node;       ///< "node a": one node of a slab
  const char* node_name;  ///< "a": the node index
  const char* step;       ///< "dt"
  const char* rate;       ///< "velocity": the unknown y between slabs 0 and 1
};

/// Slab k of the initial data as given (unless !as_given) and with the boundary applied: finite,
/// no half turn between neighbours (slab_check.hpp). Returns it with the boundary applied.
template <class Axis>
std::vector<typename Axis::Group::Element> check_initial_slab(
    const Axis& axis, int k, std::vector<typename Axis::Group::Element> slab, bool as_given) {
  constexpr bool cayley = lie::is_cayley<typename Axis::Group>();
  for (int pass = as_given ? 0 : 1; pass < 2; ++pass) {
    if (pass == 1) axis.boundary(k, slab, nullptr);
    if (const auto p = check_slab(slab, cayley))
      FIELD_CHECK(false, axis.names.march
                             << ": the initial "
                             << describe(*p, axis.names.slab, k, axis.names.node_name));
  }
  return slab;
}

/// Slabs 0 and 1 node by node: no half turn between them, a finite rate tau^{-1}(g_0^-1 g_1)/h.
template <class Axis>
void check_initial_pair(const Axis& axis, const std::vector<typename Axis::Group::Element>& slab0,
                        const std::vector<typename Axis::Group::Element>& slab1) {
  using G = typename Axis::Group;
  const AxisNames& w = axis.names;
  for (int i = 0; i <= axis.nodes(); ++i) {
    FIELD_CHECK(!check_slab({slab0[i], slab1[i]}, lie::is_cayley<G>()),
                w.march << ": " << w.node << " = " << i << " turns by a half turn between "
                        << w.slab << "s 0 and 1 (no Cayley coordinates, theory §2.1): a smaller "
                        << w.step);
    FIELD_CHECK(mesh::convected<G>(slab0[i], slab1[i], axis.h()).allFinite(),
                w.march << ": the " << w.rate << " of " << w.node << " = " << i << " between "
                        << w.slab << "s 0 and 1 is not finite");
  }
}

/// The march over an axis: its solver, result and observers; run() marches slabs 1..N-1.
template <class Axis>
class SlabMarch {
 public:
  using G = typename Axis::Group;
  using E = typename G::Element;
  using V = typename G::Algebra;
  using Slab = std::vector<E>;

  SlabMarch(const Axis& axis, const std::vector<BasicSlabObserver<E>*>& observers,
            const MarchOptions& options)
      : axis_(axis),
        observers_(observers),
        options_(options),
        solver_(axis.model(), Axis::kEquation, options) {}

  SlabSolver<G>& solver() { return solver_; }
  MarchResult& result() { return result_; }

  /// Hands slab k to the observers.
  void emit(int k, const Slab& slab, const SlabStats& stats) {
    for (auto* o : observers_) o->slab(k, slab, stats);
    result_.last_slab = k;
  }
  MarchResult finish() {
    for (auto* o : observers_) o->finish();
    return result_;
  }
  /// A failed node of slab k: why Newton failed (march/newton_diagnosis.hpp), from its target
  /// and start.
  MarchResult fail_node(int k, int node, const V& m, const V& start) {
    result_.failure = MarchFailure{k, node, 0, 0.0};
    solver_.fill_failure(*result_.failure);
    const NewtonDiagnosis d = diagnose_newton(axis_.model(), axis_.column(k, node), Axis::kEquation,
                                              m, start, options_.newton, result_.failure->residual);
    result_.failure->kind = d.kind;
    result_.failure->iterations_needed = d.iterations_needed;
    return finish();
  }
  /// A new slab with a non-finite value or a half turn between neighbours is not emitted.
  bool bad_slab(int k, const Slab& slab) {
    const auto p = check_slab(slab, lie::is_cayley<G>());
    if (p) result_.failure = MarchFailure{k, p->node, 0, 0.0, p->kind};
    return p.has_value();
  }

  /// Slabs k = 1..N-1 produce slab k+1 from `prev` (slab 0) and `cur` (slab 1, both emitted) and
  /// y^i, the unknown between them (theory §6.1 step 3, §6.2 step 2). One parallel region per
  /// slab: the fluxes of slab k, a barrier, then per node target, Newton start, solve and
  /// g_{k+1}^i; each node writes only its own slots, and the statistics are reduced serially in
  /// node order afterwards, so results do not depend on the thread count.
  MarchResult run(Slab& prev, Slab& cur, std::vector<V>& y) {
    const int n = axis_.nodes();
    // y^{k-2}, y^{k-3}: the Newton start (march::extrapolate).
    std::vector<V> back1(n + 1, V::Zero()), back2(n + 1, V::Zero());
    int k = 1;
    return run(k, prev, cur, y, back1, back2);
  }
  /// The same from slab k (slabs k-1 = `prev` and k = `cur` emitted, `y` = y^{k-1}) with the
  /// Newton start's history back1 = y^{k-2}, back2 = y^{k-3} (march::extrapolate). When the
  /// march completed or was interrupted, k, prev, cur, y, back1 and back2 are on return the state
  /// before slab k+1, from which run() continues bit for bit (march::MarchState); after a failure
  /// they are unspecified.
  MarchResult run(int& k, Slab& prev, Slab& cur, std::vector<V>& y, std::vector<V>& back1,
                  std::vector<V>& back2) {
    const int N = axis_.slabs(), n = axis_.nodes(), lo = axis_.lo();
    const double h = axis_.h();
    Slab next(n + 1);
    std::vector<V> flux(n + 1), flux_tilde(n + 1);
    const int threads = solver_.threads_for(n);
    for (; k < N; ++k) {
      if (options_.stop != nullptr && options_.stop->load(std::memory_order_relaxed)) {
        result_.interrupted = true;
        return finish();
      }
      solver_.begin(n + 1);
      bool on_lanes = false;
      if constexpr (std::is_same_v<E, lie::SE3>) on_lanes = solver_.lanes() != nullptr;
      if (on_lanes) {
        // On lanes (SE(3) only): flux, flux_tilde hold the lanes' fluxes (SlabLanes::fluxes).
        if constexpr (std::is_same_v<E, lie::SE3>) {
          const auto load = [&](int i) -> V { return axis_.load(cur, k, i); };
          solver_.lanes_slab(k, cur, n, lo, n, load, flux, flux_tilde, y, back1, back2, next,
                             axis_.lanes_prev(prev));
        }
      } else {
        // Node by node. Slab k passed check_slab, so lie::cay_inv has values; an exception is
        // still guarded and thrown after the region.
        ParallelErrors errors;
#pragma omp parallel num_threads(threads)
        {
#pragma omp for schedule(static)
          for (int i = 0; i < n; ++i)
            errors.guard(i, [&] { axis_.flux(cur, prev, k, i, flux[i], flux_tilde[i]); });
#pragma omp for schedule(static)
          for (int i = lo; i < n; ++i) {
            const V before = i > 0 ? flux_tilde[i - 1] : V::Zero();
            const V m = axis_.target(cur, k, i, y[i], flux[i], before);
            y[i] = extrapolate(k, y[i], back1[i], back2[i]);
            solver_.solve_node(i, axis_.column(k + 1, i), m, y[i], back1[i]);
            next[i] = G::compose(cur[i], G::tau(h * y[i]));
          }
        }
        errors.rethrow();
      }
      SlabStats stats;
      if (const auto fail = solver_.finish(lo, n, stats, result_))  // back1: y^{k-1}, the start
        return fail_node(k + 1, *fail, target_at(cur, prev, k, *fail, back1[*fail]), back1[*fail]);
      axis_.boundary(k + 1, next, &cur);
      if (bad_slab(k + 1, next)) return finish();
      axis_.accept(k, prev, cur, next);
      emit(k + 1, next, stats);
      std::swap(prev, cur);
      std::swap(cur, next);
    }
    result_.completed = true;
    return finish();
  }

 private:
  const Axis& axis_;
  const std::vector<BasicSlabObserver<E>*>& observers_;
  const MarchOptions& options_;
  SlabSolver<G> solver_;
  MarchResult result_;

  // The target of node i of slab k from slab k alone, for the diagnosis of a failed node.
  V target_at(const Slab& cur, const Slab& prev, int k, int i, const V& y_prev) const {
    V f, f_tilde, unused, before = V::Zero();
    axis_.flux(cur, prev, k, i, f, f_tilde);
    if (i > 0) axis_.flux(cur, prev, k, i - 1, unused, before);
    return axis_.target(cur, k, i, y_prev, f, before);
  }
};

}  // namespace field::march
