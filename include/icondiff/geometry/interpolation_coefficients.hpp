// Interpolation coefficients of the diffusion granule (diffusion_spec.md §2.6, §4.4) and of the
// dycore (ICON4Py's solve_nh_init), built from a grid alone, as ICON4Py's interpolation factory
// builds them (model/common/src/icon4py/model/common/interpolation/{interpolation_factory.py,
// interpolation_fields.py, rbf_interpolation.py, stencils/compute_nudgecoeffs.py};
// metrics/compute_coeff_gradekin.py).
//
// Every table is a row-major HostTable (points, slots) whose slots follow the connectivity the
// spec names: C2E for geofac_div and e_bln_c_s, C2E2CO (self first) for geofac_n2s, geofac_grg_*
// and c_bln_avg, E2C for c_lin_e, V2E for geofac_rot and the RBF coefficients; for the dycore's
// coefficients V2C (c_intp), E2C2EO (self first: e_flx_avg, geofac_grdiv), E2C2E
// (rbf_vec_coeff_e) and E2C (pos_on_tplane_e_1/2, coeff_gradekin). A missing neighbour
// (pentagon slot, lateral boundary) always has coefficient 0, and so has every point ICON4Py does
// not compute (the rows before its horizontal start, e.g. lateral boundary row 1 of a LAM grid).
// Formulas and sources per field: docs/dev/interpolation.md.
#pragma once

#include <icondiff/core/host_table.hpp>
#include <icondiff/geometry/edge_geometry.hpp>
#include <icondiff/grid/grid.hpp>

#include <functional>
#include <string>
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

  /// interpol_nml:rbf_vec_kern_e: kernel of the edge vector reconstruction (rbf_vec_coeff_e). The
  /// default is ICON's and ICON4Py's (rbf_interpolation.DEFAULT_RBF_KERNEL[EDGE]): 3, the inverse
  /// multiquadric.
  RbfKernel rbf_kernel_edge = RbfKernel::InverseMultiquadric;

  /// interpol_nml:rbf_vec_scale_e: kernel scale on the unit sphere (radians) of rbf_vec_coeff_e. As
  /// in ICON, a value <= 0 (ICON's default -1) selects the resolution-dependent default,
  /// default_rbf_scale_edge().
  double rbf_scale_edge = -1.0;

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

  // ---- The dycore's (solve_nh) coefficients, ICON4Py's solve_nh_init arguments: empty unless
  // ---- compute_dycore_interpolation_coefficients added them ------------------------------------
  /// (V,6) V2C: area-weighted cell-to-vertex interpolation (interpolation_fields.
  /// compute_cells_aw_verts, ICON4Py CELL_AW_VERTS, ICON cells_aw_verts; solve_nh's c_intp).
  HostTable<double> c_intp;
  /// (E,5) E2C2EO: flux averaging weights consistent with the mass-conserving c_bln_avg
  /// (interpolation_fields.compute_e_flx_avg; ICON e_flx_avg).
  HostTable<double> e_flx_avg;
  /// (E,5) E2C2EO: gradient of the divergence (interpolation_fields.compute_geofac_grdiv).
  HostTable<double> geofac_grdiv;
  /// (E,2) E2C: position of the cell centres E2C[e,k] on the tangent plane of the edge midpoint,
  /// along the edge normal (1) and the edge tangent (2), metres (interpolation_fields.
  /// compute_pos_on_tplane_e_x_y, ICON4Py POS_ON_TPLANE_E_X / _Y; ICON pos_on_tplane_e(:,:,:,1/2)).
  HostTable<double> pos_on_tplane_e_1, pos_on_tplane_e_2;
  /// (E,4) E2C2E: RBF weights reconstructing the tangential wind at an edge from the normal wind
  /// on its four diamond edges (rbf_interpolation.compute_rbf_interpolation_coeffs_edge; ICON
  /// rbf_vec_coeff_e).
  HostTable<double> rbf_vec_coeff_e;
  /// (E,2) E2C: coefficients of the kinetic-energy gradient (metrics/compute_coeff_gradekin.py;
  /// ICON4Py's metrics factory computes it, but it depends on the grid only).
  HostTable<double> coeff_gradekin;

  /// The RBF kernel scale the vertex coefficients were built with (radians on the unit sphere).
  double rbf_scale_vertex = 0.0;
  /// The RBF kernel scale the edge coefficients were built with (radians on the unit sphere).
  double rbf_scale_edge = 0.0;
};

/// Computes every coefficient from the grid's connectivity, coordinates, lengths, areas,
/// orientations and refin_ctrl (a grid read from an ICON file or generated). Validates `config`
/// (ConfigError), needs Kokkos to be initialized (the RBF systems are solved with Kokkos Kernels'
/// batched dense solvers on the default host execution space), and throws GridError if the grid
/// lacks a field or an RBF system is not positive definite.
/// Fills the cells of a (cells, width) table that this rank does not own with their owners'
/// values: what a factory that iterates over neighbours (compute_c_bln_avg's sweeps) needs between
/// its steps on a rank's part of the grid, as ICON exchanges there. Empty: no exchange (a grid that
/// is not decomposed, or a part that holds every cell its values depend on).
using CellHaloExchange = std::function<void(HostTable<double>&)>;

InterpolationCoefficients compute_interpolation_coefficients(const Grid& grid,
                                                             const InterpolationConfig& config,
                                                             const CellHaloExchange& exchange = {});

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
/// sweeps over all cells (about 1 s for R2B5's 81920 cells on one core). With `exchange`, the
/// weights and the residuals are exchanged after every sweep (the values at every cell then
/// depend on the whole grid, which a rank's part does not hold).
HostTable<double> compute_c_bln_avg(const Grid& grid, double divavg_cntrwgt,
                                    const CellHaloExchange& exchange = {});
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

/// Adds the dycore's coefficients (the members after nudgecoeff_e) to `out`, which must hold the
/// diffusion's (compute_interpolation_coefficients: c_bln_avg, geofac_div) of the same grid;
/// `edges` = compute_edge_geometry(grid). Kept apart so that a diffusion-only setup does not pay
/// for them (setup/static_fields_setup.hpp runs it when a dycore granule is selected).
void compute_dycore_interpolation_coefficients(const Grid& grid, const EdgeGeometry& edges,
                                               const InterpolationConfig& config,
                                               InterpolationCoefficients& out);

// ---- The dycore's coefficients one by one (ICON4Py 0.2.0 solve_nh_init) ------------------------
// Each follows the ICON4Py function named beside it in its order of operations (docs/dev/
// interpolation.md says, per field, where the result can still differ from ICON4Py's in the last
// bits). All of them are host loops, none needs Kokkos.

/// (V,6) V2C on vertices from boundary row 2 (interpolation_fields.compute_cells_aw_verts):
/// c_intp[v,j] = 0.5 / A'_v * sum over the edges e of v adjacent to cell V2C[v,j] of
/// edge_vertex_distance(e, v) * edge_cell_distance(e, V2C[v,j]). Missing and repeated V2E/V2C
/// slots are skipped (0), as ICON4Py skips them.
HostTable<double> compute_c_intp(const Grid& grid);
/// (E,5) E2C2EO (interpolation_fields.compute_e_flx_avg): the four diamond weights from boundary
/// row 4, the central weight and the normalisation (sum_k e_flx_avg[e,k] n_e . n_k = 1) from row
/// 5; row 4 keeps unnormalised diamond weights and a zero centre, rows 1-3 are 0, as in ICON4Py.
/// `c_bln_avg` = compute_c_bln_avg (the mass-conserving one), `edges` = compute_edge_geometry
/// (the Cartesian normals). Throws GridError if the grid's E2C / C2E / C2E2C / E2C2E disagree.
HostTable<double> compute_e_flx_avg(const Grid& grid, const EdgeGeometry& edges,
                                    const HostTable<double>& c_bln_avg,
                                    const HostTable<double>& geofac_div);
/// (E,5) E2C2EO from boundary row 2 (interpolation_fields.compute_geofac_grdiv):
/// sum_k geofac_grdiv[e,k] vn[E2C2EO[e,k]] = (div vn(E2C[e,1]) - div vn(E2C[e,0])) /
/// dual_edge_length[e] with div = geofac_div.
HostTable<double> compute_geofac_grdiv(const Grid& grid, const HostTable<double>& geofac_div);
/// (E,2) E2C from boundary row 2 (interpolation_fields.compute_pos_on_tplane_e_x_y): the gnomonic
/// projection of cell centre E2C[e,k] onto the tangent plane of the edge midpoint, times the
/// sphere radius, in the (primal normal, dual normal) basis of the edge: pos_on_tplane_e_1 along
/// the normal, pos_on_tplane_e_2 along the tangent (m). `edges` = compute_edge_geometry(grid).
void compute_pos_on_tplane_e(const Grid& grid, const EdgeGeometry& edges,
                             HostTable<double>& pos_on_tplane_e_1,
                             HostTable<double>& pos_on_tplane_e_2);
/// (E,4) E2C2E on edges [start(LateralBoundary2), end(Local)) (rbf_interpolation.
/// compute_rbf_interpolation_coeffs_edge): weights c with vt(e) ~ sum_k c_k vn(E2C2E[e,k]), the
/// component along the edge's dual normal (tangent). `scale` in radians on the unit sphere (> 0).
/// Throws GridError if a system is singular or gives non-finite coefficients.
HostTable<double> compute_rbf_vec_coeff_e(const Grid& grid, const EdgeGeometry& edges,
                                          RbfKernel kernel, double scale);
/// (E,2) E2C from boundary row 2 (metrics/compute_coeff_gradekin.py):
/// [d1 / d0 / dual_edge_length, d0 / d1 / dual_edge_length], d_k = edge_cell_distance[e,k].
HostTable<double> compute_coeff_gradekin(const Grid& grid);

// ---- The RBF scale
// -------------------------------------------------------------------------------

/// ICON's geometry_info%mean_characteristic_length (metres): sqrt of the mean cell area, where the
/// mean is that of the global RnBk grid the grid belongs to, 4 pi R^2 / (20 n^2 4^k), as in ICON
/// (mo_model_domimp_patches.set_missing_geometry_info) and ICON4Py (geometry.
/// _compute_analytical_means, the default use_analytical_means). For a grid without a known root
/// and level (grid_root <= 0) it is the sqrt of the mean of cell_area over the grid (ICON4Py's
/// use_analytical_means=False).
double mean_characteristic_length(const Grid& grid);
/// The same from the whole grid's root, level, radius and mean cell area (used only when the
/// root and level are unknown): for a rank's part, whose own cells are not the whole grid's.
double mean_characteristic_length(int grid_root, int grid_level, double sphere_radius,
                                  double mean_cell_area);

/// ICON init_nudgecoeffs' check: a limited-area grid (largest refin_c_ctrl `max_row` > 0) must
/// mark at least nudge_zone_width + 4 cell rows. Throws ConfigError naming `grid_name` otherwise.
/// The factories check a grid that is not decomposed themselves; a rank's part shows only some
/// rows, so a decomposed set-up checks the largest row of all ranks with this.
void check_lateral_boundary_rows(int max_row, const std::string& grid_name,
                                 const InterpolationConfig& config);

/// ICON's resolution-dependent default of rbf_vec_scale_v for a sphere
/// (mo_interpol_config.configure_interpolation; ICON4Py rbf_interpolation.
/// compute_default_rbf_scale_vertex), with resol = mean_characteristic_length / 1000 (km):
///   0.5                                    if resol >= 2 km
///   0.5 / (1 + 1.8 * ln(2 / resol)^3)      if resol <  2 km
/// and then multiplied by (resol / 0.125)^0.96 if resol <= 0.125 km. Tuned for the Gaussian kernel.
double default_rbf_scale_vertex(double mean_characteristic_length_m);

/// ICON's resolution-dependent default of rbf_vec_scale_e for a sphere
/// (mo_interpol_config.configure_interpolation; ICON4Py rbf_interpolation.
/// compute_default_rbf_scale_edge), with resol = mean_characteristic_length / 1000 (km):
///   0.5                                    if resol >= 2 km
///   0.5 / (1 + 0.4 * ln(2 / resol)^2)      if resol <  2 km
/// and then multiplied by (resol / 0.125)^0.325 if resol <= 0.125 km. Tuned for the inverse
/// multiquadric kernel.
double default_rbf_scale_edge(double mean_characteristic_length_m);

}  // namespace icondiff
