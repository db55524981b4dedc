#pragma once
// Subcommands of the `field` program, one file each (apps/cmd_*.cpp).
#include <CLI/CLI.hpp>

#include <functional>

namespace field::app {

/// A registered subcommand returns its exit code (docs/cli.md) when run.
using Runner = std::function<int()>;

/// `field demo`: a short demonstration of the SE(3) kernel.
Runner add_demo(CLI::App& app);

}  // namespace field::app
