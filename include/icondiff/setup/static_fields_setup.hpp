// The model's static fields of one grid built by the host factories (geometry/) into ONE bundle,
// StaticFields<M> (statics/static_fields.hpp), from which every granule takes its selection by
// name without a copy: the diffusion (make_diffusion_inputs), the dycore programs
// (make_dycore_inputs) and, later, the solve_nh granule. Only the fields of the granules asked for
// are computed and allocated (StaticFieldSelection), so a diffusion-only run pays nothing for the
// dycore's fields. docs/dev/statics.md.
#pragma once

#include <icondiff/diffusion/diffusion_inputs.hpp>
#include <icondiff/dycore/dycore_inputs.hpp>
#include <icondiff/geometry/dycore_metric_fields.hpp>
#include <icondiff/geometry/edge_geometry.hpp>
#include <icondiff/geometry/interpolation_coefficients.hpp>
#include <icondiff/geometry/metric_fields.hpp>
#include <icondiff/grid/grid.hpp>
#include <icondiff/grid/vertical_grid.hpp>
#include <icondiff/statics/static_fields.hpp>

#include <string>
#include <vector>

namespace icondiff {

/// The factories' configurations (ICON namelist names beside each field of each struct).
struct StaticsSetupConfig {
  VerticalGridConfig vertical = mch_ch_r04b09_vertical_config();
  MetricsConfig metrics = mch_ch_r04b09_metrics_config();
  InterpolationConfig interpolation;
};

/// Which granules' static fields a bundle holds.
struct StaticFieldSelection {
  bool diffusion = true;
  /// The four dycore programs of Dycore<ExecSpace>.
  bool dycore = false;
  /// Every static array of ICON4Py 0.2.0's solve_nh_init (the solve_nh granule; a superset of
  /// `dycore`).
  bool solve_nh = false;

  static StaticFieldSelection all() { return {true, true, true}; }
  /// Whether a field of this name is read by a selected granule.
  bool needs(const std::string& field) const;
  /// Whether the dycore's metric and interpolation factories must run.
  bool needs_dycore_factories() const { return dycore || solve_nh; }
};

/// The factories' results of one grid: what a bundle is filled from.
struct HostStaticInputs {
  Grid grid;
  EdgeGeometry edges;
  InterpolationCoefficients interpolation;  ///< the dycore's members only when selected
  HostMetricFields metrics;                 ///< includes the VerticalGrid
  HostDycoreMetricFields dycore_metrics;    ///< empty unless the dycore was selected
  int kstart_moist = 0;                     ///< (0-based) first level of moist physics
  /// The whole grid's mean cell area (mean_cell_area(grid); a decomposed set-up sets the whole
  /// grid's, setup/rank_setup.hpp).
  double mean_cell_area = 0.0;
  StaticFieldSelection selection;
};

/// Runs the factories the selection needs on `grid`. Validates the configurations (ConfigError).
/// `exchange`: the cell halo exchange of a rank's extended grid (setup/rank_setup.hpp) for the
/// factories that iterate; empty for a whole grid.
HostStaticInputs compute_static_inputs(Grid grid, const StaticsSetupConfig& config,
                                       const StaticFieldSelection& selection,
                                       const CellHaloExchange& exchange = {});

/// The bundle in `MemorySpace`: one View per field the selection needs (labelled
/// "icondiff::statics::<name>", converted to the field's element type, e.g. vp), the others
/// empty; the vertical profiles when the dycore is selected.
template <class MemorySpace>
StaticFields<MemorySpace> make_static_fields(const HostStaticInputs& inputs);

/// The vertical indices the dycore programs take beside their fields (0-based levels).
struct DycoreVerticalIndices {
  int nlev = 0;
  int nflatlev = 0;
  int nflat_gradp = 0;
  int end_index_of_damping_layer = 0;
  int kstart_moist = 0;
};

/// The dycore programs' input bundle sharing `statics`' Views (which must hold the dycore's
/// fields), with `indices`, `grid` and the grid's mean cell area.
template <class MemorySpace>
DycoreInputs<MemorySpace> make_dycore_inputs(const DycoreVerticalIndices& indices,
                                             const StaticFields<MemorySpace>& statics,
                                             const DeviceGrid<MemorySpace>& grid,
                                             double mean_cell_area);

/// The same with the indices and the mean cell area of `inputs` (which must have selected the
/// dycore).
template <class MemorySpace>
DycoreInputs<MemorySpace> make_dycore_inputs(const HostStaticInputs& inputs,
                                             const StaticFields<MemorySpace>& statics,
                                             const DeviceGrid<MemorySpace>& grid);

/// The mean of the cells' areas (ICON4Py's GridGeometry mean_cell_area; every cell of the grid).
double mean_cell_area(const Grid& grid);

/// Who reads a static field: "diffusion", the dycore programs by ICON4Py name
/// ("compute_rho_theta_pgrad_and_update_vn", ...) and "solve_nh" (an argument of
/// solve_nh_init); empty for a name that is not a static field.
std::vector<std::string> static_field_users(const std::string& field);

}  // namespace icondiff
