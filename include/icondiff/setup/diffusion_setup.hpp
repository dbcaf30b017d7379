// Every input of the diffusion granule built from a horizontal grid alone (the geometry layer's
// factories): edge geometry, interpolation coefficients, vertical grid and metric fields, then
// bundled in a memory space. The driver, the benchmarks and the ICON4Py comparison start here.
// The setup layer sits above geometry and the granule: it may include both.
#pragma once

#include <icondiff/diffusion/diffusion_config.hpp>
#include <icondiff/diffusion/diffusion_inputs.hpp>
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
/// `diffusion` (diffusion_spec §6.9: one value for both). Validates the factories' configurations;
/// the diffusion configuration itself is validated by the granule (Diffusion's constructor).
HostDiffusionInputs compute_diffusion_inputs(Grid grid, const DiffusionConfig& diffusion,
                                             const DiffusionSetupConfig& setup);

/// The granule's input bundle in `MemorySpace` from the factories' results: the one place that
/// maps factory names to the granule's (ICON4Py's) names, e.g. rbf_vec_coeff_v1 -> rbf_coeff_1.
/// Views are labelled "icondiff::inputs::<name>"; theta_ref_mc and wgtfac_c are rounded to vp.
template <class MemorySpace>
DiffusionInputs<MemorySpace> make_diffusion_inputs(const HostDiffusionInputs& inputs);

/// The metric part alone (the metrics tests use it). Throws InvalidArgument if the fields'
/// shapes disagree.
template <class MemorySpace>
DiffusionMetricState<MemorySpace> make_diffusion_metric_state(const HostMetricFields& metrics);

}  // namespace icondiff
