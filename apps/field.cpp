// field: the libfield command-line program (docs/cli.md).
//
// Sample runs:
//   field simulate meshes/free_flight/case.toml --out runs/free_flight
//   field reconstruct meshes/space_evolution/case.toml --out runs/space_evolution
//   field check runs/free_flight
//   field info meshes/cantilever_gravity/case.toml
//
// Exit codes: 0 success, 2 usage, 3 solver failure (or `check` failed), 4 invalid input,
// 5 I/O error.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "apps/commands.hpp"
#include "apps/wait_policy.hpp"
#include "libfield/core/error.hpp"

namespace {

/// The message of an error without the source location FIELD_CHECK appends for developers
/// (" [check '...' failed at file:line]"); set FIELD_DEBUG=1 to keep it.
std::string user_message(const std::exception& e) {
  std::string m = e.what();
  const auto at = m.rfind(" [check '");
  if (at != std::string::npos && !std::getenv("FIELD_DEBUG")) m.erase(at);
  return m;
}

}  // namespace

namespace field::app {

void add_common_options(CLI::App& sub, CommonOptions& common) {
  sub.add_option("--threads", common.threads, "OpenMP threads for the node solves (0: default)")
      ->check(CLI::Range(0, 1024));
  sub.add_flag("--force", common.force, "replace the outputs of an earlier run in DIR");
  sub.add_flag("-q,--quiet", common.quiet, "no progress line and no warnings");
}

}  // namespace field::app

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
                                        {"demo", add_demo(app)}};

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
  } catch (const std::exception& e) {  // e.g. std::bad_alloc
    std::cerr << "field: system error: " << e.what() << "\n";
    return kIoError;
  }
  return kUsage;
}
