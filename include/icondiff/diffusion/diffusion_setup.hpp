// Every input of the diffusion granule built from a horizontal grid alone (issue 3's factories):
// edge geometry, interpolation coefficients, vertical grid and metric fields, then copied to a
// memory space. The driver, the benchmarks and the ICON4Py comparison all start here.
#pragma once

#include <icondiff/diffusion/diffusion_config.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/geometry/edge_geometry.hpp>
#include <icondiff/geometry/interpolation_coefficients.hpp>
#include <icondiff/geometry/metric_fields.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/grid/vertical_grid.hpp>

#include <string>

namespace icondiff {

struct DiffusionSetupConfig {
  VerticalGridConfig vertical = mch_ch_r04b09_vertical_config();
  MetricsConfig metrics = mch_ch_r04b09_metrics_config();
  InterpolationConfig interpolation;
};

/// The factories' results on the host.
struct HostDiffusionInputs {
  Grid grid;
  EdgeGeometry edges;
  InterpolationCoefficients interpolation;
  HostMetricFields metrics;  ///< includes the VerticalGrid
};

/// Runs every factory on `grid`. The interpolation's max_nudging_coefficient is taken from
/// `diffusion` (diffusion_spec §6.9: one value for both). Validates the configurations.
HostDiffusionInputs compute_diffusion_inputs(Grid grid, const DiffusionConfig& diffusion,
                                             const DiffusionSetupConfig& setup);

/// The granule's inputs in one memory space.
template <class MemorySpace>
struct DeviceDiffusionInputs {
  DeviceGrid<MemorySpace> grid;
  VerticalGrid vertical;
  DiffusionMetricState<MemorySpace> metric;
  DiffusionInterpolationState<MemorySpace> interpolation;
  DiffusionEdgeParams<MemorySpace> edges;
  DiffusionCellParams<MemorySpace> cells;
};

/// Copies the host inputs to `MemorySpace` (Views labelled "icondiff::setup::<name>").
template <class MemorySpace>
DeviceDiffusionInputs<MemorySpace> to_device(const HostDiffusionInputs& inputs);

}  // namespace icondiff
