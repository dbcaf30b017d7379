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
#include <icondiff/setup/static_fields_setup.hpp>

#include <string>

namespace icondiff {

/// The factories' configurations and results: the static bundle's (static_fields_setup.hpp),
/// under the names the diffusion's callers know.
using DiffusionSetupConfig = StaticsSetupConfig;
using HostDiffusionInputs = HostStaticInputs;

/// Runs the diffusion's factories on `grid` (compute_static_inputs with the diffusion's
/// selection). The interpolation's max_nudging_coefficient is taken from
/// `diffusion` (diffusion_spec §6.9: one value for both). Validates the factories' configurations;
/// the diffusion configuration itself is validated by the granule (Diffusion's constructor).
/// `exchange` as compute_static_inputs's (a rank's extended grid).
HostDiffusionInputs compute_diffusion_inputs(Grid grid, const DiffusionConfig& diffusion,
                                             const DiffusionSetupConfig& setup,
                                             const CellHaloExchange& exchange = {});

/// The granule's input bundle in `MemorySpace`: the diffusion's selection of the static bundle
/// make_static_fields<MemorySpace>(inputs) (Views labelled "icondiff::statics::<name>", vp
/// fields rounded to vp), sharing its Views.
template <class MemorySpace>
DiffusionInputs<MemorySpace> make_diffusion_inputs(const HostDiffusionInputs& inputs);

/// The same from a bundle the caller holds (and may share with other granules: the dycore's
/// make_dycore_inputs takes the same `statics` and `grid`), copying nothing.
template <class MemorySpace>
DiffusionInputs<MemorySpace> make_diffusion_inputs(const HostDiffusionInputs& inputs,
                                                   const StaticFields<MemorySpace>& statics,
                                                   const DeviceGrid<MemorySpace>& grid);

/// The metric part alone (the metrics tests use it). Throws InvalidArgument if the fields'
/// shapes disagree.
template <class MemorySpace>
DiffusionMetricState<MemorySpace> make_diffusion_metric_state(const HostMetricFields& metrics);

}  // namespace icondiff
