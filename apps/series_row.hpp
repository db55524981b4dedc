#pragma once
// One row of the series of a time march in a run folder (docs/output-format.md), as every `field`
// march takes it from noether::TimeDiagnostics: a non-finite diagnostic stops the march; else the
// row goes to the running statistics, a line of time_series.csv and the progress line.
#include <cmath>
#include <string>

#include "apps/interrupt.hpp"
#include "apps/progress.hpp"
#include "apps/run_outcome.hpp"
#include "apps/series_stats.hpp"
#include "libfield/io/csv_writer.hpp"
#include "libfield/io/series_columns.hpp"

namespace field::app {

/// `d`: a noether::BasicTimeRowDiagnostics; `dt` the time step (the progress line shows t_{j+1}).
template <class D, class V>
void take_series_row(const D& d, const mesh::Boundary& boundary, bool damped, double dt,
                     RunProblem& found, BasicSeriesStats<V>& stats, io::CsvWriter& series,
                     Progress& progress) {
  if (!found.non_finite.empty()) return;
  found.non_finite = non_finite_diagnostic(d, d.j, kTimeWords, "E_j", "P_j");
  // B_j holds W_j and D_j (theory (8.8)): one test covers the three series columns.
  if (found.non_finite.empty() && !(std::isfinite(d.energy_balance) &&
                                    d.reaction_left.allFinite() && d.reaction_right.allFinite()))
    found.non_finite = "row " + std::to_string(d.j) +
                       ": the energy balance E_j - E_0 - W_j + D_j or a reaction "
                       "wrench is not finite";
  if (!found.non_finite.empty()) return stop_flag().store(true);
  stats.add(d);
  stats.add_balance(d.energy, d.work, d.dissipated, d.energy_balance);
  series.row(io::time_series_line(d, boundary, damped));
  progress.update(d.j + 1, d.t + dt, d.newton.max_iterations,
                  stats.balanced ? d.energy_balance : stats.energy_change(d.energy), d.balance);
}

}  // namespace field::app
