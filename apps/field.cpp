// field: the libfield command-line program.
//
// Sample runs:
//   field --version
//   field demo                 # rigid screw motion through both retractions
//
// Exit codes (docs/cli.md): 0 success, 2 usage, 3 solver failure, 4 invalid input, 5 I/O error.
#include <CLI/CLI.hpp>

#include <iostream>

#include "apps/commands.hpp"
#include "libfield/core/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"libfield: multisymplectic Lie-group integrator for geometrically exact beams"};
  app.set_version_flag("--version", std::string("field ") + FIELD_VERSION);
  app.require_subcommand(1);

  const field::app::Runner demo = field::app::add_demo(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help/version (code 0) or the usage error
    return code == 0 ? 0 : 2;
  }
  try {
    if (app.got_subcommand("demo")) return demo();
  } catch (const field::Error& e) {
    std::cerr << "field: error: " << e.what() << "\n";
    return 4;
  }
  return 2;
}
