// A rank's part of the granule's inputs in a standalone decomposition ("compute globally and
// scatter"): every rank runs the factories on the whole grid (diffusion_setup.hpp), then keeps
// the values at its local points (comm/local_fields.hpp restrict_to_local). Bit-identical to the
// single-rank inputs by construction; the cost is that every rank holds the whole grid once
// during set-up (see docs/user/distributed.md for when that stops being acceptable).
#pragma once

#include <icondiff/comm/local_fields.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/diffusion/diffusion_inputs.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/grid/grid.hpp>

#include <string>

namespace icondiff {

/// The bundle `global` (host, whole grid) restricted to the points of `local` (a grid from
/// make_local_grid or grid_from_icon_arrays) in `MemorySpace`, with `local` as its grid.
/// Views are labelled "<scope><field>". Throws InvalidArgument naming a field whose extent is not
/// the whole grid's.
template <class MemorySpace>
DiffusionInputs<MemorySpace> restrict_diffusion_inputs(
    const DiffusionInputs<Kokkos::HostSpace>& global, const Grid& local,
    const std::string& scope = "icondiff::inputs::") {
  const FieldSizes sizes = global.sizes();
  DiffusionInputs<MemorySpace> in;
  in.grid = DeviceGrid<MemorySpace>(local);
  in.vertical = global.vertical;
  in.metric = copy_state<MemorySpace>(restrict_to_local(global.metric, local, sizes, scope), scope);
  in.interpolation =
      copy_state<MemorySpace>(restrict_to_local(global.interpolation, local, sizes, scope), scope);
  in.edges = copy_state<MemorySpace>(restrict_to_local(global.edges, local, sizes, scope), scope);
  in.cells = copy_state<MemorySpace>(restrict_to_local(global.cells, local, sizes, scope), scope);
  return in;
}

}  // namespace icondiff
