// icondiff verify --in SAVEPOINT_IN --out SAVEPOINT_OUT: replays one captured granule call and
// compares its outputs with the expected ones. The granule is the savepoint's: a diffusion call
// (ICON4Py's datatest tolerances) or a solve_nh substep (bit for bit: the granule is
// deterministic). Per-rank savepoints of a decomposed call (icondiff run --savepoints under
// mpirun, ICON on many ranks, a decomposed solve_nh driver) are given as sets: --in
// DIR/diffusion-init.rank*.nc --out DIR/diffusion-exit.rank*.nc; they are put back together on the
// whole grid and replayed in this one process, which checks every rank's owned outputs at once.
#include "commands.hpp"

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/dycore/solve_nonhydro.hpp>
#include <icondiff/io/diffusion_savepoint.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/rank_savepoints.hpp>
#include <icondiff/io/solve_nh_savepoint.hpp>

#include <fmt/format.h>

#include <memory>
#include <vector>

namespace icondiff::cli {

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;

struct VerifyOptions {
  std::vector<std::string> inputs;
  std::vector<std::string> expected;
  std::string grid;  ///< overrides the savepoint's grid source
  std::string strategy = "fused";
};

// ---- What differs per granule: reading, describing and replaying a call -----------------------

template <class Savepoint>
struct Granule;

template <>
struct Granule<DiffusionSavepoint> {
  static DiffusionSavepoint read(const std::string& path) { return read_diffusion_savepoint(path); }
  static std::string describe(const DiffusionSavepoint& init) {
    return fmt::format("dtime {} s{}", init.dtime, init.initial_run ? ", initial run" : "");
  }
  static SavepointComparison replay(const DiffusionSavepoint& init,
                                    const DiffusionSavepoint& expected, const DeviceGrid<M>& grid,
                                    const VerifyOptions& o) {
    fmt::print("with the {} strategy\n", o.strategy);
    DiffusionOptions<Space> options;
    options.strategy = parse_strategy(o.strategy);
    Diffusion<Space> diffusion(init.config, diffusion_inputs_from_savepoint(init, grid), options);
    auto prognostic = mirror_copy<M>(init.prognostic);
    auto diagnostic = mirror_copy<M>(init.diagnostic);
    diffusion.run(diagnostic, prognostic, init.dtime, init.initial_run);
    return compare_diffusion_outputs(expected, prognostic, diagnostic);
  }
};

template <>
struct Granule<SolveNhSavepoint> {
  static SolveNhSavepoint read(const std::string& path) { return read_solve_nh_savepoint(path); }
  static std::string describe(const SolveNhSavepoint& init) {
    const SolveNhStep& s = init.step;
    return fmt::format("dtime {} s, substep {} of {}{}{}", s.dtime,
                       s.at_first_substep  ? "first"
                       : s.at_last_substep ? "last"
                                           : "later",
                       s.ndyn_substeps_var, s.at_initial_timestep ? ", initial time step" : "",
                       s.lprep_adv ? ", prep_adv" : "");
  }
  static SavepointComparison replay(const SolveNhSavepoint& init, const SolveNhSavepoint& expected,
                                    const DeviceGrid<M>& grid, const VerifyOptions&) {
    fmt::print("on a fresh granule, expecting every output bit for bit\n");
    SolveNonhydro<Space> granule(init.config, dycore_inputs_from_savepoint(init, grid), init.vct_a);
    auto diagnostic = mirror_copy<M>(init.diagnostic);
    auto current = mirror_copy<M>(init.current);
    auto next = mirror_copy<M>(init.next);
    auto prep_adv = mirror_copy<M>(init.prep_adv);
    granule.time_step(diagnostic, current, next, prep_adv, init.step);
    return compare_solve_nh_outputs(expected, diagnostic, next, prep_adv);
  }
};

// ---- The same for every granule ---------------------------------------------------------------

/// The identity every file of `paths` must have.
void check_identities(const std::vector<std::string>& paths, const SavepointIdentity& expected,
                      const char* option) {
  for (const std::string& path : paths) {
    const SavepointIdentity identity = identify_savepoint(path);
    if (identity != expected)
      throw Error(fmt::format(
          "savepoint '{}' is a {} savepoint; {} needs {} savepoints{}", path, identity.name(),
          option, expected.name(),
          identity.granule != expected.granule
              ? fmt::format(" (the --in savepoint is a {} one)", to_string(expected.granule))
              : ""));
  }
}

/// The savepoints of `paths` (one file, or one per rank of a decomposed call), each of `kind`.
template <class Savepoint>
std::vector<Savepoint> read_parts(const std::vector<std::string>& paths,
                                  const SavepointIdentity& identity, const char* option) {
  check_identities(paths, identity, option);
  std::vector<Savepoint> parts;
  for (const std::string& path : paths) parts.push_back(Granule<Savepoint>::read(path));
  const auto& d = parts.front().decomposition;
  if (d && static_cast<std::size_t>(d->num_ranks) != parts.size())
    throw Error(fmt::format(
        "savepoint '{}' is rank {} of a call on {} ranks; {} needs the savepoints of all {} ranks "
        "(e.g. DIR/{}.rank*.nc), got {} file(s)",
        paths.front(), d->rank, d->num_ranks, option, d->num_ranks, identity.name(), paths.size()));
  if (!d && parts.size() > 1)
    throw Error(fmt::format("{} got {} savepoints, but '{}' is not one rank's of a decomposed call",
                            option, parts.size(), paths.front()));
  return parts;
}

/// One savepoint on the whole grid from `parts`.
template <class Savepoint>
Savepoint whole(std::vector<Savepoint> parts, const Grid& grid, const std::string& source) {
  if (!parts.front().decomposition) return std::move(parts.front());
  return merge_rank_savepoints(parts, grid, source);
}

template <class Savepoint>
int verify(const VerifyOptions& o, SavepointGranule granule) {
  std::vector<Savepoint> init_parts =
      read_parts<Savepoint>(o.inputs, {granule, SavepointKind::Init}, "--in");
  std::vector<Savepoint> exit_parts =
      read_parts<Savepoint>(o.expected, {granule, SavepointKind::Exit}, "--out");
  const std::string source = o.grid.empty() ? init_parts.front().grid.source : o.grid;
  if (source.empty())
    throw Error(
        fmt::format("savepoint '{}' names no grid source; pass --grid FILE or --grid "
                    "generate:RnBk",
                    o.inputs.front()));
  const Grid grid = load_grid_source(source);
  const Savepoint init = whole(std::move(init_parts), grid, source);
  const Savepoint expected = whole(std::move(exit_parts), grid, source);
  check_same_grid(init.grid, grid);
  check_same_grid(expected.grid, grid);
  const std::string from = o.inputs.size() == 1 ? o.inputs.front()
                                                : fmt::format("{} per-rank savepoints ({} ...)",
                                                              o.inputs.size(), o.inputs.front());
  fmt::print("replaying the {} call {} ({} cells, {} levels, {}) on {} ", to_string(granule), from,
             grid.num_cells, init.num_levels(), Granule<Savepoint>::describe(init), source);

  const DeviceGrid<M> device(grid);
  const SavepointComparison comparison = Granule<Savepoint>::replay(init, expected, device, o);
  fmt::print("{}", format_comparison(comparison));
  return comparison.passed() ? 0 : 1;
}

int run_verify(const VerifyOptions& o) {
  // The kind of the first --in file decides the granule; every other file must agree.
  switch (identify_savepoint(o.inputs.front()).granule) {
    case SavepointGranule::Diffusion:
      return verify<DiffusionSavepoint>(o, SavepointGranule::Diffusion);
    case SavepointGranule::SolveNh: return verify<SolveNhSavepoint>(o, SavepointGranule::SolveNh);
  }
  return 2;
}

}  // namespace

Command add_verify_command(CLI::App& app) {
  auto o = std::make_shared<VerifyOptions>();
  app.add_option("--in", o->inputs,
                 "init savepoint (diffusion-init or solve_nh-init: the inputs of the call), or "
                 "every rank's of a decomposed call")
      ->required();
  app.add_option("--out", o->expected,
                 "exit savepoint of the same granule (the expected outputs), or every rank's")
      ->required();
  app.add_option("--grid", o->grid, "grid source, if not the one recorded in the savepoint");
  app.add_option("--strategy", o->strategy, "fused or unfused (the diffusion's kernels)")
      ->check(CLI::IsMember({"fused", "unfused"}));
  return [o] { return run_verify(*o); };
}

}  // namespace icondiff::cli
