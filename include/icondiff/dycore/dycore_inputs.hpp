// The dycore's static inputs in one bundle — grid, vertical indices, metric, interpolation and
// edge-geometry fields in one memory space — as ICON holds them for solve_nh and ICON4Py passes
// them to SolveNonhydro (its metric_state_nonhydro, interpolation_state, edge_geometry and
// cell_params). Built by the caller (ICON's arrays wrapped in place, host factories, a test's
// random fields); the Dycore shares its Views.
#pragma once

#include <icondiff/core/state_ops.hpp>
#include <icondiff/dycore/dycore_states.hpp>
#include <icondiff/grid/device_grid.hpp>

#include <string>

namespace icondiff {

template <class MemorySpace>
struct DycoreInputs {
  using memory_space = MemorySpace;

  DeviceGrid<MemorySpace> grid;
  int nlev = 0;
  /// First level whose model surfaces are not flat (VerticalGrid.nflatlev; 0-based).
  int nflatlev = 0;
  /// Last level whose pressure gradient needs no neighbour-level search
  /// (MetricStateNonHydro.nflat_gradp; 0-based): below it the Taylor expansion of
  /// vertoffset_gradp/zdiff_gradp applies.
  int nflat_gradp = 0;
  /// Last level of the Rayleigh damping layer (VerticalGrid.end_index_of_damping_layer;
  /// 0-based): w is damped on levels 1..end_index_of_damping_layer.
  int end_index_of_damping_layer = 0;
  /// First level with moisture (VerticalGrid.kstart_moist; 0-based): the dynamical exner
  /// increment is kept from there down.
  int kstart_moist = 0;
  /// Mean cell area of the (global) grid [m2] (CellParams.mean_cell_area).
  double mean_cell_area = 0;
  DycoreMetricState<MemorySpace> metric;
  DycoreInterpolationState<MemorySpace> interpolation;
  DycoreEdgeParams<MemorySpace> edges;
  DycoreCellParams<MemorySpace> cells;

  FieldSizes sizes() const { return grid.sizes(static_cast<std::size_t>(nlev)); }
};

/// Throws InvalidArgument naming the first thing wrong with `in`: a field whose extents disagree
/// with the grid and nlev, nflatlev/nflat_gradp/end_index_of_damping_layer/kstart_moist outside
/// [0, nlev), a vertoffset_gradp that points
/// outside the column where the pressure gradient reads it (levels > nflat_gradp), a mean cell
/// area that is not positive.
template <class MemorySpace>
void check_dycore_inputs(const DycoreInputs<MemorySpace>& in);

}  // namespace icondiff
