#pragma once
// Subcommands of the `field` program, one file each (apps/cmd_*.cpp). Exit codes: docs/cli.md.
#include <CLI/CLI.hpp>

#include <exception>
#include <functional>
#include <string>

namespace field::app {

/// Exit codes of `field` (docs/cli.md).
enum ExitCode : int {
  kSuccess = 0,
  kUsage = 2,         ///< bad command line
  kSolverFailed = 3,  ///< a node did not converge, or `field check` found a residual too large
  kInvalidInput = 4,  ///< a case or data file is invalid (field::Error)
  kIoError = 5,       ///< a file could not be read or written (field::IoError)
};

/// Flags shared by every subcommand.
struct CommonOptions {
  int threads = 0;     ///< --threads N (0: OpenMP default)
  bool force = false;  ///< --force: overwrite the outputs in a non-empty DIR
  bool quiet = false;  ///< -q: no progress line and no notes (warnings and errors still print)
  bool no_progress = false;  ///< --no-progress: no progress line (notes, warnings, errors print)

  /// Whether progress lines print (the march's line, the estimator's iterations, the load steps).
  bool progress() const { return !quiet && !no_progress; }
};

/// The message of an error without the source location FIELD_CHECK appends for developers
/// (" [check '...' failed at file:line]"); set FIELD_DEBUG=1 to keep it.
std::string user_message(const std::exception& e);

/// Adds --threads, --force and -q to a subcommand.
void add_common_options(CLI::App& sub, CommonOptions& common);

/// A number in (0, high] (high = infinity: any positive finite one), with one message for text,
/// NaN, inf and values out of range that says what the option is (`meaning`); CLI::PositiveNumber
/// let NaN through and printed its bound with 300 digits.
CLI::Validator positive_number(double high, const std::string& meaning);

/// A path given to --out or --tip: not empty (an unset shell variable made `--out $DIR` write to
/// the default folder) and not starting with '-' (`--out -q` made a folder named -q).
CLI::Validator path_value();

/// A registered subcommand returns its exit code when run.
using Runner = std::function<int()>;

Runner add_simulate(CLI::App& app, CommonOptions& common);
Runner add_reconstruct(CLI::App& app, CommonOptions& common);
Runner add_check(CLI::App& app, CommonOptions& common);
Runner add_info(CLI::App& app, CommonOptions& common);
/// `field static CASE.toml`: the static equilibrium of a time-march case (theory §4.5).
Runner add_static(CLI::App& app, CommonOptions& common);
/// `field mechanics CASE.toml`: a discrete mechanics case (docs/mechanics.md).
Runner add_mechanics(CLI::App& app, CommonOptions& common);
/// `field demo`: a short demonstration of the SE(3) kernel.
Runner add_demo(CLI::App& app);

}  // namespace field::app
