// A rank's part of the dycore's static inputs in a standalone decomposition ("compute globally
// and scatter", as local_diffusion_inputs.hpp does for the diffusion): the whole grid's bundle
// restricted to the rank's points, except the two fields that describe the decomposition itself,
// which are recomputed on the local grid as ICON computes them per rank: c_owner_mask (the cells
// this rank owns) and mask_prog_halo_c (its halo cells that are updated prognostically). The
// vertical indices and the mean cell area stay the whole grid's. set_decomposition_masks computes
// those two for any grid (a rank's, or the whole grid when per-rank savepoints are merged).
#pragma once

#include <icondiff/comm/local_fields.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/dycore/dycore_inputs.hpp>
#include <icondiff/geometry/dycore_metric_fields.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/grid/grid.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace icondiff {

/// Sets c_owner_mask (1 for the cells `grid`'s rank owns; every cell of a grid that is not
/// decomposed) and mask_prog_halo_c (compute_mask_prog_halo_c) of `cells`, host fields on
/// `grid`'s cells: the two fields that describe a decomposition, computed per rank as ICON does.
inline void set_decomposition_masks(DycoreCellParams<Kokkos::HostSpace>& cells, const Grid& grid) {
  const std::vector<std::uint8_t> prognostic_halo = compute_mask_prog_halo_c(grid);
  const std::vector<int>& owner = grid.owner_rank(Location::Cell);
  for (std::size_t c = 0; c < cells.c_owner_mask.extent(0); ++c) {
    cells.c_owner_mask(c) = owner.empty() || owner[c] == grid.rank ? 1 : 0;
    cells.mask_prog_halo_c(c) = prognostic_halo[c];
  }
}

/// The bundle `global` (host, whole grid) restricted to the points of `local` (a grid from
/// make_local_grid or grid_from_icon_arrays) in `MemorySpace`, with `local` as its grid and
/// c_owner_mask / mask_prog_halo_c of the local grid. Views are labelled "<scope><field>".
/// Throws InvalidArgument naming a field whose extent is not the whole grid's.
template <class MemorySpace>
DycoreInputs<MemorySpace> restrict_dycore_inputs(const DycoreInputs<Kokkos::HostSpace>& global,
                                                 const Grid& local,
                                                 const std::string& scope = "icondiff::inputs::") {
  using H = Kokkos::HostSpace;
  const FieldSizes sizes = global.sizes();
  DycoreInputs<MemorySpace> in;
  in.grid = DeviceGrid<MemorySpace>(local);
  in.nlev = global.nlev;
  in.nflatlev = global.nflatlev;
  in.nflat_gradp = global.nflat_gradp;
  in.end_index_of_damping_layer = global.end_index_of_damping_layer;
  in.kstart_moist = global.kstart_moist;
  in.mean_cell_area = global.mean_cell_area;
  in.metric = copy_state<MemorySpace>(restrict_to_local(global.metric, local, sizes, scope), scope);
  in.metric.scaling_factor_for_3d_divdamp = copy_view<MemorySpace>(
      scope + "scaling_factor_for_3d_divdamp", global.metric.scaling_factor_for_3d_divdamp);
  in.metric.rayleigh_w = copy_view<MemorySpace>(scope + "rayleigh_w", global.metric.rayleigh_w);
  in.interpolation =
      copy_state<MemorySpace>(restrict_to_local(global.interpolation, local, sizes, scope), scope);
  in.edges = copy_state<MemorySpace>(restrict_to_local(global.edges, local, sizes, scope), scope);
  DycoreCellParams<H> cells = restrict_to_local(global.cells, local, sizes, scope);
  set_decomposition_masks(cells, local);
  in.cells = copy_state<MemorySpace>(cells, scope);
  return in;
}

}  // namespace icondiff
