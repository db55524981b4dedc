// field: the libfield command-line program (docs/cli.md).
//
// Sample runs:
//   field simulate meshes/free_flight/case.toml --out runs/free_flight
//   field reconstruct meshes/space_evolution/case.toml --out runs/space_evolution
//   field check runs/free_flight
//   field info meshes/cantilever_gravity/case.toml
//
// Exit codes: 0 success, 2 usage, 3 run failure (or `check` failed), 4 invalid input,
// 5 I/O error, 128 + signal for a run stopped by SIGINT or SIGTERM (docs/cli.md).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "apps/wait_policy.hpp"
#include "libfield/core/error.hpp"

namespace field::app {

std::string user_message(const std::exception& e) {
  std::string m = e.what();
  const auto at = m.rfind(" [check '");
  if (at != std::string::npos && !std::getenv("FIELD_DEBUG")) m.erase(at);
  return m;
}

void add_common_options(CLI::App& sub, CommonOptions& common) {
  // One message for text, fractions and values out of range (CLI::Range says "not in range"
  // also for "abc").
  const CLI::Validator whole_0_1024(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const long value = std::strtol(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || errno != 0 || value < 0 || value > 1024)
          return "must be a whole number from 0 to 1024 (0: the default), got '" + text + "'";
        return {};
      },
      "INT in 0..1024");
  sub.add_option("--threads", common.threads,
                 "OpenMP threads for the node solves (0, the default: one for slabs under 2048 "
                 "nodes, else OpenMP's default)")
      ->check(whole_0_1024);
  sub.add_flag("--force", common.force, "replace the outputs of an earlier run in DIR");
  sub.add_flag("-q,--quiet", common.quiet, "no progress line and no notes (warnings still print)");
  sub.add_flag("--no-progress", common.no_progress,
               "no progress line (notes and warnings still print): for logs of long runs");
}

CLI::Validator positive_number(double high, const std::string& meaning) {
  char bound[32];
  std::snprintf(bound, sizeof bound, "%g", high);
  const std::string range = std::isinf(high) ? std::string("a positive finite number")
                                             : "a number in (0, " + std::string(bound) + "]";
  return CLI::Validator(
      [range, high, meaning](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        // Written so that NaN fails too; inf fails as not finite.
        if (text.empty() || *end != '\0' || !(value > 0.0 && value <= high) || std::isinf(value))
          return "must be " + range + " (" + meaning + "), got '" + text + "'";
        return {};
      },
      std::isinf(high) ? "NUMBER > 0" : "NUMBER in (0, " + std::string(bound) + "]");
}

CLI::Validator path_value() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (text.empty()) return "is empty: give a path (an unset shell variable?)";
        if (text[0] == '-')
          return "'" + text + "' looks like an option, not a path: give the path (./" + text +
                 " for a name that starts with '-')";
        return {};
      },
      "PATH");
}

}  // namespace field::app

namespace {

/// Levenshtein distance, for "did you mean".
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

/// The message for a first argument that is not a subcommand (empty when it is one or an
/// option): the nearest subcommand within two edits, or the list.
std::string unknown_subcommand(int argc, char** argv, const std::vector<std::string>& names) {
  if (argc < 2 || argv[1][0] == '-') return {};
  const std::string word = argv[1];
  if (std::find(names.begin(), names.end(), word) != names.end()) return {};
  std::string list, nearest;
  std::size_t best = 3;
  for (const std::string& n : names) {
    list += (list.empty() ? "" : ", ") + n;
    const std::size_t d = distance(word, n);
    if (d < best || (word.size() >= 3 && n.rfind(word, 0) == 0 && d < 100)) {
      best = std::min(d, best);
      nearest = n;
    }
  }
  std::string m = "field: unknown subcommand '" + word + "'";
  if (!nearest.empty()) m += "; did you mean '" + nearest + "'?";
  return m + " (subcommands: " + list + "; field --help lists them)";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace field::app;
  keep_arguments(argv);  // for the passive OpenMP wait (apps/wait_policy.hpp)
  CLI::App app{"libfield: multisymplectic Lie-group integrator for geometrically exact beams"};
  app.set_version_flag("--version", std::string("field ") + FIELD_VERSION);
  app.require_subcommand(1);

  CommonOptions common;  // --threads, --force, -q on every subcommand (apps/commands.hpp)

  std::map<std::string, Runner> runners{{"simulate", add_simulate(app, common)},
                                        {"reconstruct", add_reconstruct(app, common)},
                                        {"check", add_check(app, common)},
                                        {"info", add_info(app, common)},
                                        {"static", add_static(app, common)},
                                        {"mechanics", add_mechanics(app, common)},
                                        {"demo", add_demo(app)}};

  std::vector<std::string> names;
  for (const auto& [name, run] : runners) names.push_back(name);
  if (const std::string m = unknown_subcommand(argc, argv, names); !m.empty()) {
    std::cerr << m << "\n";
    return kUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help/version (code 0) or the usage error
    return code == 0 ? kSuccess : kUsage;
  }
  try {
    for (auto& [name, run] : runners)
      if (app.got_subcommand(name)) return run();
  } catch (const field::IoError& e) {
    std::cerr << "field: I/O error: " << user_message(e) << "\n";
    return kIoError;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "field: I/O error: " << e.what() << "\n";
    return kIoError;
  } catch (const field::Error& e) {
    std::cerr << "field: invalid input: " << user_message(e) << "\n";
    return kInvalidInput;
  } catch (const std::bad_alloc&) {
    std::cerr << "field: system error: out of memory (the system refused an allocation): use a "
                 "smaller grid, a larger [output] stride or [output] vtk = false; `field info "
                 "CASE.toml` prints the memory estimate\n";
    return kIoError;
  } catch (const std::exception& e) {
    std::cerr << "field: system error: " << e.what() << "\n";
    return kIoError;
  }
  return kUsage;
}
