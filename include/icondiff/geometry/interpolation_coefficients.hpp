// Interpolation coefficients of the diffusion granule (diffusion_spec.md §2.6, §4.4), built from a
// grid alone, as ICON4Py's interpolation factory builds them
// (model/common/src/icon4py/model/common/interpolation/{interpolation_factory.py,
// interpolation_fields.py, rbf_interpolation.py, stencils/compute_nudgecoeffs.py}).
//
// Every table is a row-major HostTable (points, slots) whose slots follow the connectivity the
// spec names: C2E for geofac_div and e_bln_c_s, C2E2CO (self first) for geofac_n2s, geofac_grg_*
// and c_bln_avg, E2C for c_lin_e, V2E for geofac_rot and the RBF coefficients. A missing neighbour
// (pentagon slot, lateral boundary) always has coefficient 0, and so has every point ICON4Py does
// not compute (the rows before its horizontal start, e.g. lateral boundary row 1 of a LAM grid).
// Formulas and sources per field: docs/dev/interpolation.md.
#pragma once

#include <icondiff/core/host_table.hpp>
#include <icondiff/geometry/edge_geometry.hpp>
#include <icondiff/grid/grid.hpp>

#include <vector>

namespace icondiff {

/// interpol_nml:rbf_vec_kern_v (ICON4Py rbf_interpolation.InterpolationKernel). ICON accepts 1
/// and 3.
enum class RbfKernel : int {
  Gaussian = 1,             ///< phi(r) = exp(-(r/scale)^2)
  InverseMultiquadric = 3,  ///< phi(r) = 1/sqrt(1 + (r/scale)^2)
};

/// The part of ICON4Py's InterpolationConfig (interpolation_factory.py) that the diffusion
/// granule's coefficients depend on, with the ICON namelist variable beside each field.
struct InterpolationConfig {
  /// dynamics_nml:divavg_cntrwgt: weight of the central cell in c_bln_avg (ICON and ICON4Py: 0.5).
  double divergence_averaging_central_cell_weight = 0.5;

  /// interpol_nml:nudge_max_coeff **already multiplied by 5** (ICON's mo_interpol_nml scales the
  /// namelist value by the dynamics-to-physics time step ratio; ICON4Py stores the scaled value).
  /// The default is ICON4Py's InterpolationConfig default, 0.375 (= 5 * 0.075, the MCH setup),
  /// while ICON4Py's DiffusionConfig (and icondiff's) defaults to 0.1 (= 5 * 0.02, ICON's namelist
  /// default). diffusion_spec §2.1, §6.9: nudgecoeff_e and the granule's nudgezone_diff must come
  /// from ONE value, so a driver must set DiffusionConfig::max_nudging_coefficient and this field
  /// to the same number.
  double max_nudging_coefficient = 0.375;

  /// interpol_nml:nudge_efold_width: e-folding width of the nudging profile in cell rows.
  double nudge_efold_width = 2.0;

  /// interpol_nml:nudge_zone_width: width of the nudging zone in cell rows. The default is
  /// ICON4Py's (10); ICON's namelist default is 8. ICON's "negative = take boundary_depth_index
  /// - 4 from the grid file" is not supported (rejected by validate()).
  int nudge_zone_width = 10;

  /// interpol_nml:rbf_vec_kern_v: kernel of the vertex vector reconstruction (rbf_vec_coeff_v).
  RbfKernel rbf_kernel_vertex = RbfKernel::Gaussian;

  /// interpol_nml:rbf_vec_scale_v: kernel scale on the unit sphere (radians). As in ICON, a value
  /// <= 0 (ICON's default -1) selects the resolution-dependent default, default_rbf_scale_vertex().
  double rbf_scale_vertex = -1.0;

  /// Throws ConfigError naming the field, its ICON namelist name, the value and what is allowed.
  void validate() const;
};

/// The interpolation state of the diffusion granule and the coefficients the metrics factory needs.
struct InterpolationCoefficients {
  /// (C,3) C2E: divergence, l_e * o_ce / A_c (interpolation_fields.compute_geofac_div).
  HostTable<double> geofac_div;
  /// (V,6) V2E: curl, l'_e * o_ve / A'_v (interpolation_fields.compute_geofac_rot).
  HostTable<double> geofac_rot;
  /// (C,4) C2E2CO, self first: scalar Laplacian div(grad)
  /// (interpolation_fields.compute_geofac_n2s).
  HostTable<double> geofac_n2s;
  /// (C,4) C2E2CO: Green-Gauss gradient, eastward / northward component at the cell centre
  /// (interpolation_fields.compute_geofac_grg).
  HostTable<double> geofac_grg_x, geofac_grg_y;
  /// (C,3) C2E: bilinear edge-to-cell interpolation (interpolation_fields.compute_e_bln_c_s).
  HostTable<double> e_bln_c_s;
  /// (C,4) C2E2CO: mass-conserving bilinear cell average (interpolation_fields.
  /// compute_mass_conserving_bilinear_cell_average_weight); used for maxslp_avg/maxhgtd_avg.
  HostTable<double> c_bln_avg;
  /// (E,2) E2C: linear cell-to-edge interpolation (interpolation_fields.compute_c_lin_e).
  HostTable<double> c_lin_e;
  /// (V,6) V2E: RBF weights reconstructing the eastward (v1) / northward (v2) wind at a vertex
  /// from the normal wind on its edges (rbf_interpolation.compute_rbf_interpolation_coeffs_vertex;
  /// ICON rbf_vec_coeff_v(:,1,:) / (:,2,:); the spec's rbf_coeff_1 / rbf_coeff_2).
  HostTable<double> rbf_vec_coeff_v1, rbf_vec_coeff_v2;
  /// (E) lateral-boundary nudging coefficient (stencils/compute_nudgecoeffs.py).
  std::vector<double> nudgecoeff_e;

  /// The RBF kernel scale the vertex coefficients were built with (radians on the unit sphere).
  double rbf_scale_vertex = 0.0;
};

/// Computes every coefficient from the grid's connectivity, coordinates, lengths, areas,
/// orientations and refin_ctrl (a grid read from an ICON file or generated). Validates `config`
/// (ConfigError), needs Kokkos to be initialized (the RBF systems are solved with Kokkos Kernels'
/// batched dense solvers on the default host execution space), and throws GridError if the grid
/// lacks a field or an RBF system is not positive definite.
InterpolationCoefficients compute_interpolation_coefficients(const Grid& grid,
                                                             const InterpolationConfig& config);

// ---- The factories one by one ------------------------------------------------------------------
// For callers that need only some fields (the metrics factory needs only c_bln_avg). Each checks
// the grid fields it reads (GridError) and computes exactly what compute_interpolation_coefficients
// stores; ranges and zero rows as documented there and in docs/dev/interpolation.md.

/// (C,3) C2E: l_e o_ce / A_c on every cell (interpolation_fields.compute_geofac_div).
HostTable<double> compute_geofac_div(const Grid& grid);
/// (V,6) V2E: dual_edge_length o_ve / dual_area (interpolation_fields.compute_geofac_rot).
HostTable<double> compute_geofac_rot(const Grid& grid);
/// (C,4) C2E2CO from boundary row 2 (interpolation_fields.compute_geofac_n2s).
HostTable<double> compute_geofac_n2s(const Grid& grid, const HostTable<double>& geofac_div);
/// (E,2) E2C from boundary row 2 (interpolation_fields.compute_c_lin_e).
HostTable<double> compute_c_lin_e(const Grid& grid);
/// (C,4) C2E2CO from boundary row 2 (interpolation_fields.compute_geofac_grg); `edges` =
/// compute_edge_geometry(grid) (the normals at the cell centres).
void compute_geofac_grg(const Grid& grid, const EdgeGeometry& edges,
                        const HostTable<double>& geofac_div, const HostTable<double>& c_lin_e,
                        HostTable<double>& geofac_grg_x, HostTable<double>& geofac_grg_y);
/// (C,3) C2E on every cell (interpolation_fields.compute_e_bln_c_s).
HostTable<double> compute_e_bln_c_s(const Grid& grid);
/// (C,4) C2E2CO from boundary row 2, mass conservation enforced from row 3
/// (interpolation_fields.compute_mass_conserving_bilinear_cell_average_weight). Throws
/// InvalidArgument unless 0 <= divavg_cntrwgt <= 1. The costly one: ICON's 1000 relaxation
/// sweeps over all cells (about 1 s for R2B5's 81920 cells on one core).
HostTable<double> compute_c_bln_avg(const Grid& grid, double divavg_cntrwgt);
/// (V,6) V2E on vertices [start(LateralBoundary2), end(Local)), the eastward (v1) and northward
/// (v2) weights (rbf_interpolation.compute_rbf_interpolation_coeffs_vertex). `scale` in radians
/// on the unit sphere (> 0); `edges` = compute_edge_geometry(grid) (the Cartesian normals).
/// Needs Kokkos to be initialized; throws GridError if a system is not positive definite.
void compute_rbf_vec_coeff_v(const Grid& grid, const EdgeGeometry& edges, RbfKernel kernel,
                             double scale, HostTable<double>& rbf_vec_coeff_v1,
                             HostTable<double>& rbf_vec_coeff_v2);
/// (E) from the NUDGING_LEVEL_2 edge row (stencils/compute_nudgecoeffs.py); validates `config`
/// and, on a limited-area grid, that it marks enough cell rows (ConfigError).
std::vector<double> compute_nudgecoeff_e(const Grid& grid, const InterpolationConfig& config);

// ---- The RBF scale
// -------------------------------------------------------------------------------

/// ICON's geometry_info%mean_characteristic_length (metres): sqrt of the mean cell area, where the
/// mean is that of the global RnBk grid the grid belongs to, 4 pi R^2 / (20 n^2 4^k), as in ICON
/// (mo_model_domimp_patches.set_missing_geometry_info) and ICON4Py (geometry.
/// _compute_analytical_means, the default use_analytical_means). For a grid without a known root
/// and level (grid_root <= 0) it is the sqrt of the mean of cell_area over the grid (ICON4Py's
/// use_analytical_means=False).
double mean_characteristic_length(const Grid& grid);

/// ICON's resolution-dependent default of rbf_vec_scale_v for a sphere
/// (mo_interpol_config.configure_interpolation; ICON4Py rbf_interpolation.
/// compute_default_rbf_scale_vertex), with resol = mean_characteristic_length / 1000 (km):
///   0.5                                    if resol >= 2 km
///   0.5 / (1 + 1.8 * ln(2 / resol)^3)      if resol <  2 km
/// and then multiplied by (resol / 0.125)^0.96 if resol <= 0.125 km. Tuned for the Gaussian kernel.
double default_rbf_scale_vertex(double mean_characteristic_length_m);

}  // namespace icondiff
