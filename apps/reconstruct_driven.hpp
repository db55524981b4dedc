#pragma once
// `field reconstruct` with [reconstruct] method = "driven" (docs/reconstruction.md): the time
// march of theory §6.1 with the measured tip prescribed as the end a = 0, started at rest, and
// the tip strain it predicts compared with the measured one.
#include <chrono>
#include <filesystem>

#include "apps/commands.hpp"
#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/case_setup.hpp"

namespace field::app {

/// Runs the driven reconstruction of `problem` into `out` (default runs/<name>): field.csv by
/// rows, time_series.csv, VTK files, run.toml and summary.json with the tip-strain consistency
/// figures. Returns the exit code (docs/cli.md).
template <class G>
int reconstruct_driven(const std::filesystem::path& out, const CommonOptions& common,
                       std::chrono::steady_clock::time_point start, const io::Problem& problem,
                       int threads, const dcel::DiscreteModel<G>& model);

}  // namespace field::app
