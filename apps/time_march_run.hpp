#pragma once
// The time march of theory §6.1 into a run folder, as `field simulate` and the driven
// reconstruction (`field reconstruct`, [reconstruct] method = "driven") both run it: the checks
// and the stability warning, the run folder and its writers (field.csv, tip.csv, the VTK files,
// time_series.csv with the diagnostics, on output threads behind the march), the march, and the
// summary.json keys the two share (docs/output-format.md).
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "apps/run_folder.hpp"
#include "apps/run_outcome.hpp"
#include "apps/series_stats.hpp"
#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/time_case.hpp"
#include "libfield/march/observer.hpp"
#include "libfield/march/stability.hpp"
#include "libfield/march/time_march.hpp"

namespace field::app {

/// What a time march into a run folder leaves for the caller's summary. V: the series' momentum
/// (Vec6 for the beams, the planar beam's embedded; Vec3 for the cable's translations).
template <class V>
struct BasicTimeMarchRun {
  std::filesystem::path dir;
  march::MarchResult result;
  RunOutcome outcome;
  BasicSeriesStats<V> stats;
  march::StabilityNumbers numbers;
  double wall = 0.0;  ///< seconds since `start`, after the last row was written
  /// A continued run (io/checkpoint.hpp): the node updates and Newton iterations of the runs
  /// before it, for summary.json and the next checkpoint (`result` counts this run's).
  long long node_solves_before = 0, newton_iterations_before = 0;
};
using TimeMarchRun = BasicTimeMarchRun<Vec6>;
/// The run of a march on G: its series are those of the output group (io::TimeCase::W).
template <class G>
using TimeMarchRunOf = BasicTimeMarchRun<lie::AlgebraOf<typename io::TimeCase<G>::W>>;

/// The options of the run.
struct TimeMarchRunOptions {
  std::filesystem::path out;                ///< the run folder (empty: runs/<case name>)
  bool tip_csv = true;                      ///< write tip.csv when the case asks for it
  std::vector<march::SlabObserver*> extra;  ///< observers after the writers, before the series
  std::string note;  ///< printed on stderr before the march (unless -q), e.g. the tip data's note
};

/// Checks the case's march input (before anything is written), prints the stability warning,
/// prepares the run folder, marches with the case's writers (io::TimeCase::writers) and the
/// series diagnostics, and returns the outcome: the one run path of every theory. G is an SE(3)
/// group, lie::Se2Cayley for the planar beam (theory §1.7: its rows reach the SE(3) writers
/// embedded in the x-y plane, march::PlanarEmbedding, and its series columns are the embedded
/// ones, march::embed_planar_spatial) or lie::Rn<3> for the cable (theory §1.8). Throws
/// field::Error for an invalid input; an error after output started is a run failure in the
/// outcome (apps/run_outcome.hpp).
template <class G>
TimeMarchRunOf<G> run_time_march(const io::TimeCase<G>& time_case, const TimeMarchRunOptions& run,
                                 const CommonOptions& common, int threads,
                                 std::chrono::steady_clock::time_point start);

/// Whether the energy figure of the run is the energy balance of theory §8.1 (loads or a driven
/// end) rather than the relative energy range.
template <class G>
bool energy_balance_applies(const dcel::DiscreteModel<G>& model,
                            const march::TimeMarchInputOf<G>& input);

/// The summary.json keys of every time march: the outcome, threads, wall time, node updates,
/// Newton iterations, E_0, the energy range or the energy balance, P_0, the stability numbers.
template <class V>
void write_time_march_summary(Summary& summary, const BasicTimeMarchRun<V>& run, int threads);

}  // namespace field::app
