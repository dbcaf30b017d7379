// Subcommands of the `icondiff` driver. Each registers its options on the CLI11 app and returns
// the function that runs it.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace icondiff::cli {

using Command = std::function<int()>;

/// `icondiff grid-info --grid FILE [--json]`: sizes, zones and checks of an ICON grid file.
Command add_grid_info_command(CLI::App& app);

}  // namespace icondiff::cli
