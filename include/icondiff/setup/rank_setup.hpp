// Where a rank's factories run and how their values reach the rank's local grid. Two ways:
//  * "compute globally and scatter": the factories run on the whole grid and each rank keeps its
//    points (restrict_*_inputs with the local grid);
//  * on the rank's extended grid (comm/local_grids_from_blocks.hpp): the factories run on the
//    local grid grown by as many C2E2C steps as their values depend on, so no rank holds the
//    whole grid, and the values at the local grid's points are the whole grid's. The few
//    quantities of the whole grid (the mean cell area, nflat_gradp, the boundary rows a LAM must
//    mark) are agreed over MPI here, bit-identical to the one-rank values.
#pragma once

#include <icondiff/config.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/grid/grid.hpp>
#include <icondiff/setup/local_diffusion_inputs.hpp>
#include <icondiff/setup/local_dycore_inputs.hpp>
#include <icondiff/setup/static_fields_setup.hpp>

#if ICONDIFF_HAVE_MPI
#include <mpi.h>
#endif

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace icondiff {

/// How deep the factories' values depend on the grid around a point, in C2E2C steps: the 25
/// Jacobi steps of the topography smoothing (smooth_topography), and the few steps that the
/// metrics and coefficients built on the smoothed heights add. test_mpi_local_setup checks that
/// every static field and initial-state field at every local point equals the whole grid's.
inline constexpr int factory_dependency_steps = 32;

struct RankGrids {
  /// The rank's local grid: the granules run on it.
  Grid local;
  /// Where the factories and the initial state run: the whole grid, or the rank's extended grid
  /// (a caller may move it into the factories and use their copy from then on).
  Grid computed;
  /// On an extended grid: `local` with, as its global indices, the indices of its points in
  /// `computed` (what restrict_to_local picks); empty when `computed` is the whole grid.
  std::optional<Grid> local_in_computed;
  /// The true owners of `computed`'s points when it is an extended grid on several ranks (its own
  /// owner arrays hold the fictitious ownership the factories see); empty otherwise.
  std::array<std::vector<int>, 3> computed_owner;

  /// The grid restrict_to_local takes to pick the local points of fields on `computed`.
  const Grid& rows() const { return local_in_computed ? *local_in_computed : local; }
};

/// The factories run on the whole grid `whole` (every rank), the granules on `local`.
RankGrids whole_grid_rank_grids(Grid whole, Grid local);
/// The factories run on `extended` (local_grids_from_blocks, with the true owners of its points
/// `extended_owner`), the granules on `local`. Throws InvalidArgument when a point of `local` is
/// not in `extended`.
RankGrids extended_rank_grids(Grid local, Grid extended,
                              std::array<std::vector<int>, 3> extended_owner);

/// `computed` (the dycore's bundle on grids.computed) restricted to the rank's local grid, with
/// the local grid as its grid (restrict_dycore_inputs).
template <class MemorySpace>
DycoreInputs<MemorySpace> restrict_dycore_inputs(const DycoreInputs<Kokkos::HostSpace>& computed,
                                                 const RankGrids& grids,
                                                 const std::string& scope = "icondiff::inputs::") {
  DycoreInputs<MemorySpace> in = restrict_dycore_inputs<MemorySpace>(computed, grids.rows(), scope);
  in.grid = DeviceGrid<MemorySpace>(grids.local);
  return in;
}

/// The same for the diffusion's bundle.
template <class MemorySpace>
DiffusionInputs<MemorySpace> restrict_diffusion_inputs(
    const DiffusionInputs<Kokkos::HostSpace>& computed, const RankGrids& grids,
    const std::string& scope = "icondiff::inputs::") {
  DiffusionInputs<MemorySpace> in =
      restrict_diffusion_inputs<MemorySpace>(computed, grids.rows(), scope);
  in.grid = DeviceGrid<MemorySpace>(grids.local);
  return in;
}

#if ICONDIFF_HAVE_MPI
/// Collective: the whole grid's mean cell area from the ranks' local grids: the owned cells'
/// areas summed in global order, each rank continuing the sum of the ranks before it, so the sum
/// is the one-rank mean_cell_area's, bit for bit.
double whole_grid_mean_cell_area(MPI_Comm comm, const Grid& local);

/// Collective: `config` for factories that run on extended grids: resolution-dependent RBF
/// scales (<= 0) fixed from the whole grid's mean characteristic length, and the boundary rows
/// of a limited-area grid checked on the whole grid (ConfigError on every rank, agreed).
StaticsSetupConfig whole_grid_statics_config(MPI_Comm comm, StaticsSetupConfig config,
                                             const RankGrids& grids, double mean_cell_area);

/// Collective: the cell halo exchange the iterating factories need on grids.computed (every cell
/// this rank does not truly own filled from its owner, an MpiHaloExchange on the host); empty when
/// the factories run on the whole grid or on one rank. Calls to it are collective and agree on
/// errors first (agree_on_errors), so a rank that failed in the factories before it, inside
/// collectively(), makes every rank throw instead of hanging.
CellHaloExchange computed_grid_cell_exchange(MPI_Comm comm, const RankGrids& grids);

/// Collective: the quantities of `computed` (statics on grids.computed) that belong to the whole
/// grid set to the whole grid's: mean_cell_area, and nflat_gradp (the minimum of flat_idx_max over
/// all ranks' owned edges) when the dycore's fields were computed.
void set_whole_grid_quantities(MPI_Comm comm, HostStaticInputs& computed, const RankGrids& grids,
                               double mean_cell_area);
#endif

}  // namespace icondiff
