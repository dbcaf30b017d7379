// icondiff verify --in SAVEPOINT_IN --out SAVEPOINT_OUT: replays one captured granule call and
// compares its outputs with the expected ones at ICON4Py's datatest tolerances. Per-rank
// savepoints of a decomposed call (icondiff run --savepoints under mpirun, or ICON on many ranks)
// are given as sets: --in DIR/diffusion-init.rank*.nc --out DIR/diffusion-exit.rank*.nc; they are
// put back together on the whole grid and replayed in this one process, which checks every
// rank's owned outputs at once.
#include "commands.hpp"

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/io/diffusion_savepoint.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/rank_savepoints.hpp>

#include <fmt/format.h>

#include <memory>
#include <vector>

namespace icondiff::cli {

namespace {

struct VerifyOptions {
  std::vector<std::string> inputs;
  std::vector<std::string> expected;
  std::string grid;  ///< overrides the savepoint's grid source
  std::string strategy = "fused";
};

/// The savepoints of `paths` (one file, or one per rank of a decomposed call), each of `kind`.
std::vector<DiffusionSavepoint> read_parts(const std::vector<std::string>& paths,
                                           SavepointKind kind, const char* option) {
  std::vector<DiffusionSavepoint> parts;
  for (const std::string& path : paths) {
    parts.push_back(read_diffusion_savepoint(path));
    if (parts.back().kind != kind)
      throw Error(fmt::format("savepoint '{}' is a {} savepoint; {} needs {} savepoints", path,
                              to_string(parts.back().kind), option, to_string(kind)));
  }
  const auto& d = parts.front().decomposition;
  if (d && static_cast<std::size_t>(d->num_ranks) != parts.size())
    throw Error(fmt::format(
        "savepoint '{}' is rank {} of a call on {} ranks; {} needs the savepoints of all {} ranks "
        "(e.g. DIR/{}.rank*.nc), got {} file(s)",
        paths.front(), d->rank, d->num_ranks, option, d->num_ranks, to_string(kind), paths.size()));
  if (!d && parts.size() > 1)
    throw Error(fmt::format("{} got {} savepoints, but '{}' is not one rank's of a decomposed call",
                            option, parts.size(), paths.front()));
  return parts;
}

/// One savepoint on the whole grid from `parts`.
DiffusionSavepoint whole(std::vector<DiffusionSavepoint> parts, const Grid& grid,
                         const std::string& source) {
  if (!parts.front().decomposition) return std::move(parts.front());
  return merge_rank_savepoints(parts, grid, source);
}

int run_verify(const VerifyOptions& o) {
  using Space = Kokkos::DefaultExecutionSpace;
  using M = Space::memory_space;
  std::vector<DiffusionSavepoint> init_parts = read_parts(o.inputs, SavepointKind::Init, "--in");
  std::vector<DiffusionSavepoint> exit_parts = read_parts(o.expected, SavepointKind::Exit, "--out");
  const std::string source = o.grid.empty() ? init_parts.front().grid.source : o.grid;
  if (source.empty())
    throw Error(
        fmt::format("savepoint '{}' names no grid source; pass --grid FILE or --grid "
                    "generate:RnBk",
                    o.inputs.front()));
  const Grid grid = load_grid_source(source);
  const DiffusionSavepoint init = whole(std::move(init_parts), grid, source);
  const DiffusionSavepoint expected = whole(std::move(exit_parts), grid, source);
  check_same_grid(init.grid, grid);
  check_same_grid(expected.grid, grid);
  const std::string from = o.inputs.size() == 1 ? o.inputs.front()
                                                : fmt::format("{} per-rank savepoints ({} ...)",
                                                              o.inputs.size(), o.inputs.front());
  fmt::print("replaying {} ({} cells, {} levels, dtime {} s{}) on {} with the {} strategy\n", from,
             grid.num_cells, init.num_levels(), init.dtime, init.initial_run ? ", initial run" : "",
             source, o.strategy);

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
  app.add_option("--in", o->inputs,
                 "diffusion-init savepoint (inputs of the call), or every rank's of a decomposed "
                 "call")
      ->required();
  app.add_option("--out", o->expected,
                 "diffusion-exit savepoint (expected outputs), or every rank's")
      ->required();
  app.add_option("--grid", o->grid, "grid source, if not the one recorded in the savepoint");
  app.add_option("--strategy", o->strategy, "fused or unfused")
      ->check(CLI::IsMember({"fused", "unfused"}));
  return [o] { return run_verify(*o); };
}

}  // namespace icondiff::cli
