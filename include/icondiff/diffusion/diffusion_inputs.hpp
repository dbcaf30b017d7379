// The granule's static inputs in one bundle: grid, vertical grid, metric, interpolation and
// geometry fields in one memory space. Built from host factories (setup/diffusion_setup.hpp),
// from a savepoint (io/diffusion_savepoint.hpp) or from memory someone else owns
// (wrap_external_state); the granule, the capture functions and the stencil factories all take
// this one struct.
#pragma once

#include <icondiff/core/state_ops.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/grid/vertical_grid.hpp>

#include <string>

namespace icondiff {

template <class MemorySpace>
struct DiffusionInputs {
  using memory_space = MemorySpace;

  DeviceGrid<MemorySpace> grid;
  VerticalGrid vertical;
  DiffusionMetricState<MemorySpace> metric;
  DiffusionInterpolationState<MemorySpace> interpolation;
  DiffusionEdgeParams<MemorySpace> edges;
  DiffusionCellParams<MemorySpace> cells;

  int num_levels() const { return vertical.num_levels(); }
  /// The sizes that fix every field's extents.
  FieldSizes sizes() const { return grid.sizes(static_cast<std::size_t>(num_levels())); }
};

/// Throws InvalidArgument naming the first field whose extents disagree with the grid and the
/// vertical grid (the zd_* fields only when `zdiffusion`).
template <class MemorySpace>
void check_diffusion_inputs(const DiffusionInputs<MemorySpace>& in, bool zdiffusion) {
  const FieldSizes sizes = in.sizes();
  check_state_extents(in.metric, sizes, "diffusion: metric", zdiffusion);
  check_state_extents(in.interpolation, sizes, "diffusion: interpolation", zdiffusion);
  check_state_extents(in.edges, sizes, "diffusion: edge", zdiffusion);
  check_state_extents(in.cells, sizes, "diffusion: cell", zdiffusion);
}

/// Fresh copies of the field structs of `in` in `To`, with `grid` (already in `To`) as the grid.
template <class To, class From>
DiffusionInputs<To> copy_diffusion_inputs(const DiffusionInputs<From>& in,
                                          const DeviceGrid<To>& grid,
                                          const std::string& scope = "icondiff::inputs::") {
  DiffusionInputs<To> out;
  out.grid = grid;
  out.vertical = in.vertical;
  out.metric = copy_state<To>(in.metric, scope);
  out.interpolation = copy_state<To>(in.interpolation, scope);
  out.edges = copy_state<To>(in.edges, scope);
  out.cells = copy_state<To>(in.cells, scope);
  return out;
}

}  // namespace icondiff
