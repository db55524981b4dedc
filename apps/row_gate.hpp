#pragma once
// The rows of a run as the outputs see them when they run behind the march, on a thread of their
// own (docs/performance.md, "Series diagnostics"): a non-finite diagnostic of row j, found while
// the diagnostics take row j+1, stops the run after row j+1 (apps/run_outcome.hpp). On the
// march's thread the stop flag does that; behind it the march has already gone on. The gate
// passes each row, in order, to its observers until the problem is found and none after, and
// keeps what the march result would have said had the march stopped there: the files, the
// counts and summary.json are those of the run with everything on the march's thread.
#include <cmath>
#include <exception>
#include <utility>
#include <vector>

#include "apps/run_outcome.hpp"
#include "libfield/march/observer.hpp"

namespace field::app {

/// E: the elements of the rows (lie::SE3 for the beams, Vec3 for the cable).
template <class E>
class BasicRowGate final : public march::BasicSlabObserver<E> {
 public:
  /// `observers` in the order they run on the march's thread (the diagnostics, which set
  /// `problem.non_finite`, among them); `problem` is read on the thread that calls slab().
  BasicRowGate(std::vector<march::BasicSlabObserver<E>*> observers, const RunProblem& problem)
      : observers_(std::move(observers)), problem_(problem) {}

  void slab(int index, const std::vector<E>& values, const march::SlabStats& stats) override {
    if (!problem_.non_finite.empty()) return;  // the row after the one that raised it was the last
    for (march::BasicSlabObserver<E>* o : observers_) o->slab(index, values, stats);
    last_ = index;  // every observer has it
    node_solves_ += stats.solved_nodes;
    newton_iterations_ += std::llround(stats.mean_iterations * stats.solved_nodes);
  }
  void finish() override {
    finished_ = true;
    for (march::BasicSlabObserver<E>* o : observers_) o->finish();
  }
  /// After an error of the run, finishes the observers (best effort, as march_safely does) unless
  /// finish() ran: an error raised on the outputs' thread ends it before the gate is finished.
  void finish_after_error() {
    if (finished_) return;
    finished_ = true;
    for (march::BasicSlabObserver<E>* o : observers_) try {
        o->finish();
      } catch (const std::exception&) {  // keep finishing the others
      }
  }

  /// The outcome with the march's thread's bits: `result` and `problem` as the march and
  /// march_safely left them, made those of the march that stops where the observers did.
  /// `last_slab` is the march's last slab (J for a time march).
  void settle(march::MarchResult& result, RunProblem& problem, int last_slab) const {
    if (!problem.non_finite.empty()) {
      // The march ran on past the row that raised it (and may have failed or stopped further
      // on): the result of the march that read the stop flag after last_, the end of the loop
      // when last_ is its last slab.
      result = march::MarchResult{};
      result.completed = last_ == last_slab;
      result.interrupted = !result.completed;
      result.last_slab = last_;
      result.node_solves = node_solves_;
      result.newton_iterations = newton_iterations_;
      problem.error.clear();
      problem.error_slab = -1;
    } else if (!problem.error.empty()) {  // the last row every observer received
      problem.error_slab = last_;
      result.last_slab = last_;
    }
  }

 private:
  std::vector<march::BasicSlabObserver<E>*> observers_;
  const RunProblem& problem_;
  bool finished_ = false;
  int last_ = -1;
  long long node_solves_ = 0, newton_iterations_ = 0;
};
using RowGate = BasicRowGate<lie::SE3>;

}  // namespace field::app
