#pragma once
// How a run of `field simulate` / `field reconstruct` ended (docs/cli.md, "Exit codes" and "What
// each failure leaves"): the status written to summary.json, the exit code and the message on
// stderr, from the march's result, a non-finite diagnostic found by the program, or an error
// raised after the outputs were started.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "apps/run_folder.hpp"
#include "libfield/core/error.hpp"
#include "libfield/march/observer.hpp"

namespace field::app {

/// The words of a march: "row", "a", "dt" (time) or "column", "j", "ds" (space), and the names
/// of its series' energy, momentum and energy balance (theory §8, (8.8), (8.12)).
struct MarchWords {
  const char* slab;
  const char* node;
  const char* step;
  const char* energy;
  const char* momentum;
  const char* balance;  ///< the balance and the reactions, as a non-finite diagnostic names them
};
inline constexpr MarchWords kTimeWords{
    "row", "a",   "dt",
    "E_j", "P_j", "the energy balance E_j - E_0 - W_j + D_j or a reaction wrench"};
inline constexpr MarchWords kSpaceWords{
    "column", "j",   "ds",
    "E_M^a",  "Q^a", "the balance E_M^a - E_M^0 - W_M^a or a reaction of a prescribed row"};

/// What went wrong besides the march's own result.
struct RunProblem {
  std::string non_finite;  ///< a non-finite diagnostic: "row 12: the energy E_j = inf ..."
  std::string error;       ///< an error raised by the march or a writer after output started
  int error_slab = -1;     ///< the last slab every observer received before the error
};

/// Empty when the diagnostics of slab `index` (energy, momentum, balance) are finite; otherwise
/// a sentence naming the slab and the first non-finite quantity.
template <class Diagnostics>
std::string non_finite_diagnostic(const Diagnostics& d, int index, const MarchWords& w) {
  char buf[256];
  if (!std::isfinite(d.energy))
    std::snprintf(buf, sizeof buf, "%s %d: the energy %s = %g is not finite", w.slab, index,
                  w.energy, d.energy);
  else if (!d.momentum.allFinite())
    std::snprintf(buf, sizeof buf, "%s %d: the momentum %s holds a non-finite component", w.slab,
                  index, w.momentum);
  else if (!std::isfinite(d.balance))
    std::snprintf(buf, sizeof buf, "%s %d: the Noether balance = %g is not finite", w.slab, index,
                  d.balance);
  else
    return {};
  return buf;
}

/// Runs `march(observers)` (a call of march::time_march or space_march). A field::Error it
/// raises after output started (not an IoError: that stays an I/O error, exit 5) becomes a run
/// failure in `problem`, with the last slab every observer received and the node updates and
/// Newton iterations of the slabs up to it; the observers are then finished (best effort), so
/// that the files are closed as valid prefixes.
/// E: the node value of the march (lie::SE3 for the beam, Vec3 for the cable).
template <class March, class E = lie::SE3>
march::MarchResult march_safely(const March& march,
                                std::vector<march::BasicSlabObserver<E>*> observers,
                                RunProblem& problem) {
  struct Counter final : march::BasicSlabObserver<E> {
    int last = -1;
    long long nodes = 0;
    double iterations = 0.0;  // sums of whole numbers: exact
    void slab(int index, const std::vector<E>&, const march::SlabStats& stats) override {
      last = index;
      nodes += stats.solved_nodes;
      iterations += std::round(stats.mean_iterations * stats.solved_nodes);
    }
  } counter;
  observers.push_back(&counter);  // last: it sees a slab once every writer has it
  try {
    return march(observers);
  } catch (const IoError&) {
    throw;
  } catch (const Error& e) {
    problem.error = user_message(e);
    problem.error_slab = counter.last;
    for (march::BasicSlabObserver<E>* o : observers) try {
        o->finish();
      } catch (const std::exception&) {  // keep finishing the others
      }
    march::MarchResult r;  // the work of the slabs the outputs hold
    r.last_slab = counter.last;
    r.node_solves = counter.nodes;
    r.newton_iterations = static_cast<long long>(counter.iterations);
    return r;
  }
}

struct RunOutcome {
  std::string status;   ///< completed, interrupted, solver_failed, non_finite, half_turn, failed
  int exit_code = 0;    ///< docs/cli.md
  std::string message;  ///< for stderr ("field: ..."); empty when completed
  int last_slab = -1;   ///< the last complete slab in the outputs
};

/// The outcome of a march. `warning` is the stability warning (empty inside the stable range);
/// `newton_tolerance`, `newton_max_iterations` are the [solver] settings, for the advice.
RunOutcome run_outcome(const march::MarchResult& result, const RunProblem& problem,
                       const MarchWords& words, const std::string& warning, double newton_tolerance,
                       int newton_max_iterations);

/// The keys of the outcome in summary.json: status, exit_code, last_<slab>, and where it failed
/// failure (the kind), failed_<slab>, failed_<node name>, failed_iterations, failed_residual,
/// message; signal for an interrupted run.
void write_outcome(Summary& summary, const RunOutcome& outcome, const march::MarchResult& result,
                   const MarchWords& words);

}  // namespace field::app
