// Subcommands of the `icondiff` driver. Each registers its options on the CLI11 app and returns
// the function that runs it.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace icondiff::cli {

using Command = std::function<int()>;

/// `icondiff grid-info --grid FILE [--json]`: sizes, zones and checks of an ICON grid file.
Command add_grid_info_command(CLI::App& app);

/// `icondiff run`: the diffusion granule on a grid with a Jablonowski-Williamson state.
Command add_run_command(CLI::App& app);

/// The options of `icondiff run`, whose command returns 0 once they are checked (configuration
/// resolved and validated, ranges, memory, output paths) before any grid is read or generated:
/// what the configuration-file fuzz harness (fuzz/fuzz_run_config.cpp) runs.
Command add_run_checks_command(CLI::App& app);

/// `icondiff verify --in SAVEPOINT_IN --out SAVEPOINT_OUT`: replay one call and compare.
Command add_verify_command(CLI::App& app);

/// `icondiff compare-timers OURS.json OPENACC.json`: per-stencil speed-up against ICON OpenACC.
Command add_compare_timers_command(CLI::App& app);

}  // namespace icondiff::cli
