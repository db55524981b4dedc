#pragma once
// `field simulate` of a cable case (theory §1.8, `theory = "cable"`, docs/cable.md): the time
// march of theory §6.1 on R^3 into a run folder with field.csv (positions), tip.csv (the end
// a = 0: position, velocity, strain, tension), cable.pvd + frames/ (polylines with velocity,
// stretch and tension), spacetime.vtu (the whole run as a surface over (t, s)), time_series.csv
// (E_j, the translation momentum P_j, the Noether residual, the work W_j and balance B_j of a
// driven end, the reactions of the held ends), run.toml and summary.json.
#include <chrono>
#include <filesystem>

#include "apps/commands.hpp"
#include "libfield/io/case_file.hpp"

namespace field::app {

/// Runs the cable case `spec` into `out` (empty: runs/<case name>) and prints the report; returns
/// the exit code (docs/cli.md). Throws field::Error for an invalid case before anything is
/// written.
int simulate_cable(const io::CaseSpec& spec, const std::filesystem::path& out,
                   const CommonOptions& common, int threads,
                   std::chrono::steady_clock::time_point start);

/// `field info` of a cable case: the law, the grid, row 0 (the catenary's H and V), the wave
/// speeds and the stability number of theory §6.1; returns the exit code.
int info_cable(const io::CaseSpec& spec);

}  // namespace field::app
