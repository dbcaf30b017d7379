// icondiff verify --in SAVEPOINT_IN --out SAVEPOINT_OUT: replays one captured granule call and
// compares its outputs with the expected ones at ICON4Py's datatest tolerances.
#include "commands.hpp"

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/io/diffusion_savepoint.hpp>
#include <icondiff/io/grid_source.hpp>

#include <fmt/format.h>

#include <memory>

namespace icondiff::cli {

namespace {

struct VerifyOptions {
  std::string input;
  std::string expected;
  std::string grid;  ///< overrides the savepoint's grid source
  std::string strategy = "fused";
};

int run_verify(const VerifyOptions& o) {
  using Space = Kokkos::DefaultExecutionSpace;
  using M = Space::memory_space;
  const DiffusionSavepoint init = read_diffusion_savepoint(o.input);
  if (init.kind != SavepointKind::Init)
    throw Error(
        fmt::format("savepoint '{}' is a {} savepoint; --in needs a diffusion-init savepoint",
                    o.input, to_string(init.kind)));
  const DiffusionSavepoint expected = read_diffusion_savepoint(o.expected);
  if (expected.kind != SavepointKind::Exit)
    throw Error(
        fmt::format("savepoint '{}' is a {} savepoint; --out needs a diffusion-exit savepoint",
                    o.expected, to_string(expected.kind)));
  const std::string source = o.grid.empty() ? init.grid.source : o.grid;
  if (source.empty())
    throw Error(fmt::format(
        "savepoint '{}' names no grid source; pass --grid FILE or --grid generate:RnBk", o.input));
  const Grid grid = load_grid_source(source);
  check_same_grid(init.grid, grid);
  check_same_grid(expected.grid, grid);
  fmt::print("replaying {} ({} cells, {} levels, dtime {} s{}) on {} with the {} strategy\n",
             o.input, grid.num_cells, init.num_levels(), init.dtime,
             init.initial_run ? ", initial run" : "", source, o.strategy);

  const DeviceGrid<M> device(grid);
  DiffusionOptions<Space> options;
  options.strategy = parse_strategy(o.strategy);
  Diffusion<Space> diffusion(init.config, diffusion_inputs_from_savepoint(init, device), options);
  auto prognostic = mirror_copy<M>(init.prognostic);
  auto diagnostic = mirror_copy<M>(init.diagnostic);
  diffusion.run(diagnostic, prognostic, init.dtime, init.initial_run);
  const SavepointComparison comparison =
      compare_diffusion_outputs(expected, prognostic, diagnostic);
  fmt::print("{}", format_comparison(comparison));
  return comparison.passed() ? 0 : 1;
}

}  // namespace

Command add_verify_command(CLI::App& app) {
  auto o = std::make_shared<VerifyOptions>();
  app.add_option("--in", o->input, "diffusion-init savepoint (inputs of the call)")->required();
  app.add_option("--out", o->expected, "diffusion-exit savepoint (expected outputs)")->required();
  app.add_option("--grid", o->grid, "grid source, if not the one recorded in the savepoint");
  app.add_option("--strategy", o->strategy, "fused or unfused")
      ->check(CLI::IsMember({"fused", "unfused"}));
  return [o] { return run_verify(*o); };
}

}  // namespace icondiff::cli
