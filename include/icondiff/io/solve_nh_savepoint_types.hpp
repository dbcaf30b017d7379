// The savepoint of one solve_nh granule call (SolveNonhydro::time_step, one dynamics substep) in
// memory: SolveNhSavepoint holds host copies of every input of the call ("solve_nh-init") or of
// every output ("solve_nh-exit"), with the one-line capture and replay helpers. The grid
// reference, SavepointKind, SavepointFileError and mirror_copy are the diffusion's
// (savepoint_types.hpp). Files: solve_nh_savepoint_file.hpp; comparison:
// solve_nh_savepoint_comparison.hpp; all three through solve_nh_savepoint.hpp. Kokkos must be
// initialised before capturing (the fields are Kokkos Views).
//
// The granule's own temporaries (SolveNonhydro::local_fields()) are not part of a savepoint: a
// substep replayed on a fresh granule equals the original call bit for bit, at a first and at a
// later substep (test_solve_nh_savepoint checks it; docs/dev/savepoints.md, "solve_nh").
#pragma once

#include <icondiff/core/state_ops.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/dycore/dycore_config.hpp>
#include <icondiff/dycore/dycore_inputs.hpp>
#include <icondiff/dycore/solve_nonhydro_states.hpp>
#include <icondiff/io/savepoint_types.hpp>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace icondiff {

/// One solve_nh granule call, on the host. Fields are (points[, slots][, levels]) LayoutLeft
/// Views exactly as in the state structs; half-level fields have nlev + 1 levels.
///
/// An init savepoint holds every input of time_step(space, diagnostic, current, next, prep_adv,
/// step) of a granule built as SolveNonhydro(config, inputs, vct_a): all members. An exit
/// savepoint holds the outputs `next`, `diagnostic` (max_vertical_cfl included) and `prep_adv`;
/// its `current` and the fields of `inputs` are empty, while the scalars (config, step, grid,
/// vct_a, inputs' vertical indices and mean cell area, metadata, decomposition) are the init's.
struct SolveNhSavepoint {
  using memory_space = Kokkos::HostSpace;

  SavepointKind kind = SavepointKind::Init;  ///< Init: "solve_nh-init", Exit: "solve_nh-exit"
  DycoreConfig config;
  SolveNhStep step;  ///< the scalars of the substep
  SavepointGridReference grid;
  /// ICON's vct_a: the nlev + 1 nominal half-level heights the granule's constructor takes.
  std::vector<double> vct_a;
  /// The static inputs: nlev, nflatlev, nflat_gradp, end_index_of_damping_layer, kstart_moist,
  /// mean_cell_area, the metric (with its two profiles scaling_factor_for_3d_divdamp and
  /// rayleigh_w), interpolation, edge and cell fields. Its `grid` is left empty: the grid is not
  /// stored (`grid` above says where to get it), the replay supplies it
  /// (dycore_inputs_from_savepoint).
  DycoreInputs<memory_space> inputs;

  SolveNhPrognosticState<memory_space> current;  ///< init only: the time level `now`
  SolveNhPrognosticState<memory_space> next;     ///< the time level `new`
  /// The diagnostic state (the optional limited-area tendencies and IAU increments only when
  /// the call had them) and max_vertical_cfl: incoming (init) or outgoing (exit).
  SolveNhDiagnosticState<memory_space> diagnostic;
  SolveNhPrepAdvection<memory_space> prep_adv;

  /// Set when the call ran on one rank of a decomposed grid (as DiffusionSavepoint's): the fields
  /// hold that rank's local points, owned and halo; merge_rank_savepoints puts a set back
  /// together.
  std::optional<RankPoints> decomposition;

  /// Free-form text, as DiffusionSavepoint::metadata.
  std::map<std::string, std::string> metadata;

  int num_levels() const { return inputs.nlev; }
};

// ---- Moving the solve_nh structs between memory spaces ----------------------------------------
// What a field list does not describe travels too: the diagnostic state's max_vertical_cfl, the
// metric state's two level profiles, the input bundle's scalars.

/// mirror_copy of the diagnostic state, with max_vertical_cfl.
template <class To, class From>
SolveNhDiagnosticState<To> mirror_copy(const SolveNhDiagnosticState<From>& state) {
  SolveNhDiagnosticState<To> out = copy_state<To>(state, "icondiff::savepoint::");
  out.max_vertical_cfl = state.max_vertical_cfl;
  return out;
}

/// mirror_copy of the dycore's metric state, with scaling_factor_for_3d_divdamp and rayleigh_w.
template <class To, class From>
DycoreMetricState<To> mirror_copy(const DycoreMetricState<From>& state) {
  const std::string scope = "icondiff::savepoint::";
  DycoreMetricState<To> out = copy_state<To>(state, scope);
  out.scaling_factor_for_3d_divdamp =
      copy_view<To>(scope + "scaling_factor_for_3d_divdamp", state.scaling_factor_for_3d_divdamp);
  out.rayleigh_w = copy_view<To>(scope + "rayleigh_w", state.rayleigh_w);
  return out;
}

/// The static inputs in `To` with their scalars; the grid is left empty (set it: a DeviceGrid
/// is built from a host Grid, not copied).
template <class To, class From>
DycoreInputs<To> mirror_copy_without_grid(const DycoreInputs<From>& in) {
  DycoreInputs<To> out;
  out.nlev = in.nlev;
  out.nflatlev = in.nflatlev;
  out.nflat_gradp = in.nflat_gradp;
  out.end_index_of_damping_layer = in.end_index_of_damping_layer;
  out.kstart_moist = in.kstart_moist;
  out.mean_cell_area = in.mean_cell_area;
  out.metric = mirror_copy<To>(in.metric);
  out.interpolation = mirror_copy<To>(in.interpolation);
  out.edges = mirror_copy<To>(in.edges);
  out.cells = mirror_copy<To>(in.cells);
  return out;
}

// ---- Capture and replay -----------------------------------------------------------------------

/// An init savepoint of the call time_step(diagnostic, current, next, prep_adv, step) of a
/// granule built as SolveNonhydro(config, inputs, vct_a) (copied to the host now; call it before
/// time_step updates them).
template <class MemorySpace>
SolveNhSavepoint capture_solve_nh_init(const DycoreConfig& config,
                                       const SavepointGridReference& grid,
                                       const DycoreInputs<MemorySpace>& inputs,
                                       const std::vector<double>& vct_a,
                                       const SolveNhDiagnosticState<MemorySpace>& diagnostic,
                                       const SolveNhPrognosticState<MemorySpace>& current,
                                       const SolveNhPrognosticState<MemorySpace>& next,
                                       const SolveNhPrepAdvection<MemorySpace>& prep_adv,
                                       const SolveNhStep& step,
                                       std::map<std::string, std::string> metadata = {}) {
  using H = Kokkos::HostSpace;
  SolveNhSavepoint s;
  s.kind = SavepointKind::Init;
  s.config = config;
  s.step = step;
  s.grid = grid;
  s.vct_a = vct_a;
  s.inputs = mirror_copy_without_grid<H>(inputs);
  s.current = mirror_copy<H>(current);
  s.next = mirror_copy<H>(next);
  s.diagnostic = mirror_copy<H>(diagnostic);
  s.prep_adv = mirror_copy<H>(prep_adv);
  s.metadata = std::move(metadata);
  return s;
}

/// The exit savepoint that belongs to `init` (the same scalars, grid, metadata and
/// decomposition) holding host copies of the outputs (call it after time_step).
template <class MemorySpace>
SolveNhSavepoint capture_solve_nh_exit(const SolveNhSavepoint& init,
                                       const SolveNhDiagnosticState<MemorySpace>& diagnostic,
                                       const SolveNhPrognosticState<MemorySpace>& next,
                                       const SolveNhPrepAdvection<MemorySpace>& prep_adv) {
  using H = Kokkos::HostSpace;
  SolveNhSavepoint s;
  s.kind = SavepointKind::Exit;
  s.config = init.config;
  s.step = init.step;
  s.grid = init.grid;
  s.vct_a = init.vct_a;
  s.inputs.nlev = init.inputs.nlev;
  s.inputs.nflatlev = init.inputs.nflatlev;
  s.inputs.nflat_gradp = init.inputs.nflat_gradp;
  s.inputs.end_index_of_damping_layer = init.inputs.end_index_of_damping_layer;
  s.inputs.kstart_moist = init.inputs.kstart_moist;
  s.inputs.mean_cell_area = init.inputs.mean_cell_area;
  s.metadata = init.metadata;
  s.decomposition = init.decomposition;
  s.next = mirror_copy<H>(next);
  s.diagnostic = mirror_copy<H>(diagnostic);
  s.prep_adv = mirror_copy<H>(prep_adv);
  return s;
}

/// The static inputs of an init savepoint in `MemorySpace` on `grid` (which must be the grid the
/// savepoint was captured on: throws GridError naming the first difference otherwise).
template <class MemorySpace>
DycoreInputs<MemorySpace> dycore_inputs_from_savepoint(const SolveNhSavepoint& savepoint,
                                                       const DeviceGrid<MemorySpace>& grid) {
  check_same_grid(savepoint.grid, grid);
  DycoreInputs<MemorySpace> in = mirror_copy_without_grid<MemorySpace>(savepoint.inputs);
  in.grid = grid;
  return in;
}

}  // namespace icondiff
