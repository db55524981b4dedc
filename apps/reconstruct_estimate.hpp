#pragma once
// `field reconstruct` with [reconstruct] method = "estimate" (docs/reconstruction.md, theory
// §6.7): the estimator over the whole (t, s) mesh, started from the space march where section
// §6.3's prediction calls it reliable and from the driven time march otherwise.
#include <chrono>
#include <filesystem>

#include "apps/commands.hpp"
#include "libfield/dcel/discrete_model.hpp"
#include "libfield/io/case_setup.hpp"

namespace field::app {

/// Runs the estimator of `problem` into `out` (default runs/<name>): field.csv by rows,
/// field_std.csv (standard deviations per node), VTK files, run.toml and summary.json with the
/// cost split by term. Returns the exit code (docs/cli.md).
template <class G>
int reconstruct_estimate(const std::filesystem::path& out, const CommonOptions& common,
                         std::chrono::steady_clock::time_point start, const io::Problem& problem,
                         int threads, const dcel::DiscreteModel<G>& model);

}  // namespace field::app
