#pragma once
// One record of the series of a march in a run folder (docs/output-format.md), as every `field`
// march takes it from noether::SlabDiagnostics: a non-finite diagnostic stops the march; else the
// record goes to the running statistics, a line of time_series.csv or space_series.csv and the
// progress line.
#include <cmath>
#include <string>

#include "apps/interrupt.hpp"
#include "apps/progress.hpp"
#include "apps/run_outcome.hpp"
#include "apps/series_stats.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/series_columns.hpp"

namespace field::app {

/// `d`: a noether::BasicSlabRecord of a march with the words `words` (kTimeWords, kSpaceWords);
/// `sides` its prescribed sides, `step` dt or ds (the progress line shows the coordinate of slab
/// i+1).
template <class D, class V>
void take_series_row(const D& d, const MarchWords& words, noether::SlabSides sides, bool damped,
                     double step, RunProblem& found, BasicSeriesStats<V>& stats,
                     io::CsvWriter& series, Progress& progress) {
  if (!found.non_finite.empty()) return;
  found.non_finite = non_finite_diagnostic(d, d.index, words);
  // B holds W and D (theory (8.8), (8.12)): one test covers the three series columns.
  if (found.non_finite.empty() && !(std::isfinite(d.energy_balance) &&
                                    d.reaction_first.allFinite() && d.reaction_last.allFinite()))
    found.non_finite = std::string(words.slab) + " " + std::to_string(d.index) + ": " +
                       words.balance + " is not finite";
  if (!found.non_finite.empty()) return stop_flag().store(true);
  stats.add(d);
  stats.add_balance(d.energy, d.work, d.dissipated, d.energy_balance);
  series.row(io::series_line(d, sides, damped));
  progress.update(d.index + 1, d.coordinate + step, d.newton.max_iterations,
                  stats.balanced ? d.energy_balance : stats.energy_change(d.energy), d.balance);
}

}  // namespace field::app
