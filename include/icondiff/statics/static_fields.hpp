// The model's static fields — interpolation coefficients, metric fields, edge and cell geometry —
// described ONCE for every granule (issue 32): one macro per field, named ICONDIFF_STATIC_<name>,
// expanding FIELD(name, type, location, neighbours, levels, presence, units, long_name, ICON,
// ICON4Py) as core/field_spec.hpp defines it. A granule's static state struct is a *selection*
// of these macros (diffusion/diffusion_states.hpp, dycore/dycore_states.hpp), so a field has one
// name, type, shape and documentation wherever it is used; `StaticFields<M>` holds them all, one
// View per field, and each granule takes its selection from one bundle by name without a copy
// (`share_from`), so two granules of one grid share one copy (docs/dev/statics.md).
//
// Names: the granule's existing (ICON4Py) names; where ICON4Py's own classes disagree
// (DiffusionMetricState.theta_ref_mc = MetricStateNonHydro.reference_theta_at_cells_on_model_
// levels) the diffusion's short name is kept and the ICON4Py column lists both. Fields only the
// solve_nh granule (issue 28) will read use MetricStateNonHydro's / InterpolationState's names.
// Which granule and program reads which field is not written here: `static_field_users()`
// (setup/static_fields_setup.hpp) derives it from the selections.
#pragma once

#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/types.hpp>

namespace icondiff {

// clang-format off
// FIELD(name, type, location, neighbours, levels, presence, units, long_name, ICON, ICON4Py)

// ---- Metric fields (ICON p_nh%metrics) ----------------------------------------------------------
#define ICONDIFF_STATIC_theta_ref_mc(FIELD)                                                        \
  FIELD(theta_ref_mc, vp, Cell, None, Full, Required, "K",                                         \
        "reference virtual potential temperature at full levels", "p_nh%metrics%theta_ref_mc",     \
        "DiffusionMetricState.theta_ref_mc, MetricStateNonHydro.reference_theta_at_cells_on_model_levels")
#define ICONDIFF_STATIC_wgtfac_c(FIELD)                                                            \
  FIELD(wgtfac_c, vp, Cell, None, Half, Required, "1",                                             \
        "weight of level k in the interpolation to half level k", "p_nh%metrics%wgtfac_c",         \
        "DiffusionMetricState.wgtfac_c, MetricStateNonHydro.wgtfac_c")
#define ICONDIFF_STATIC_zd_vertoffset(FIELD)                                                       \
  FIELD(zd_vertoffset, int, Cell, C2E2C, Full, ZDiffusion, "1",                                    \
        "level offset k' - k of the neighbour level used by truly horizontal temperature "        \
        "diffusion",                                                                               \
        "p_nh%metrics%zd_vertidx (absolute levels of a point list; here dense and relative)",      \
        "DiffusionMetricState.zd_vertoffset")
#define ICONDIFF_STATIC_zd_diffcoef(FIELD)                                                         \
  FIELD(zd_diffcoef, wp, Cell, None, Full, ZDiffusion, "1",                                        \
        "coefficient of truly horizontal temperature diffusion (0: none)",                         \
        "p_nh%metrics%zd_diffcoef (point list; here dense)", "DiffusionMetricState.zd_diffcoef")
#define ICONDIFF_STATIC_zd_intcoef(FIELD)                                                          \
  FIELD(zd_intcoef, wp, Cell, C2E2C, Full, ZDiffusion, "1",                                        \
        "weight of level k + zd_vertoffset (1 - weight: the level below) at the neighbour",        \
        "p_nh%metrics%zd_intcoef (point list; here dense)", "DiffusionMetricState.zd_intcoef")
#define ICONDIFF_STATIC_reference_rho_at_edges_on_model_levels(FIELD)                              \
  FIELD(reference_rho_at_edges_on_model_levels, vp, Edge, None, Full, Required, "kg m-3",          \
        "reference density at edges", "p_nh%metrics%rho_ref_me",                                   \
        "MetricStateNonHydro.reference_rho_at_edges_on_model_levels")
#define ICONDIFF_STATIC_reference_theta_at_edges_on_model_levels(FIELD)                            \
  FIELD(reference_theta_at_edges_on_model_levels, vp, Edge, None, Full, Required, "K",             \
        "reference virtual potential temperature at edges", "p_nh%metrics%theta_ref_me",           \
        "MetricStateNonHydro.reference_theta_at_edges_on_model_levels")
#define ICONDIFF_STATIC_reference_rho_at_cells_on_model_levels(FIELD)                              \
  FIELD(reference_rho_at_cells_on_model_levels, vp, Cell, None, Full, Required, "kg m-3",          \
        "reference density at full levels", "p_nh%metrics%rho_ref_mc",                             \
        "MetricStateNonHydro.reference_rho_at_cells_on_model_levels")
#define ICONDIFF_STATIC_reference_exner_at_cells_on_model_levels(FIELD)                            \
  FIELD(reference_exner_at_cells_on_model_levels, vp, Cell, None, Full, Required, "1",             \
        "reference Exner pressure at full levels", "p_nh%metrics%exner_ref_mc",                    \
        "MetricStateNonHydro.reference_exner_at_cells_on_model_levels")
#define ICONDIFF_STATIC_reference_theta_at_cells_on_half_levels(FIELD)                             \
  FIELD(reference_theta_at_cells_on_half_levels, vp, Cell, None, Half, Required, "K",              \
        "reference virtual potential temperature at half levels", "p_nh%metrics%theta_ref_ic",     \
        "MetricStateNonHydro.reference_theta_at_cells_on_half_levels")
#define ICONDIFF_STATIC_ddz_of_reference_exner_at_cells_on_half_levels(FIELD)                      \
  FIELD(ddz_of_reference_exner_at_cells_on_half_levels, vp, Cell, None, Half, Required, "m-1",     \
        "vertical derivative of the reference Exner pressure at half levels",                      \
        "p_nh%metrics%d_exner_dz_ref_ic",                                                          \
        "MetricStateNonHydro.ddz_of_reference_exner_at_cells_on_half_levels")
#define ICONDIFF_STATIC_d2dexdz2_fac1_mc(FIELD)                                                    \
  FIELD(d2dexdz2_fac1_mc, vp, Cell, None, Full, Required, "m-2 K-1",                               \
        "first vertical derivative of the reference Exner pressure over theta_ref, per layer",     \
        "p_nh%metrics%d2dexdz2_fac1_mc", "MetricStateNonHydro.d2dexdz2_fac1_mc")
#define ICONDIFF_STATIC_d2dexdz2_fac2_mc(FIELD)                                                    \
  FIELD(d2dexdz2_fac2_mc, vp, Cell, None, Full, Required, "m-2 K-1",                               \
        "vertical derivative of d_exner_dz_ref / theta_ref at full levels",                        \
        "p_nh%metrics%d2dexdz2_fac2_mc", "MetricStateNonHydro.d2dexdz2_fac2_mc")
#define ICONDIFF_STATIC_time_extrapolation_parameter_for_exner(FIELD)                              \
  FIELD(time_extrapolation_parameter_for_exner, vp, Cell, None, Full, Required, "1",               \
        "temporal extrapolation factor of the Exner pressure (reduced over steep slopes)",         \
        "p_nh%metrics%exner_exfac", "MetricStateNonHydro.time_extrapolation_parameter_for_exner")
#define ICONDIFF_STATIC_ddxn_z_full(FIELD)                                                         \
  FIELD(ddxn_z_full, vp, Edge, None, Full, Required, "1",                                          \
        "slope of the model levels normal to the edge", "p_nh%metrics%ddxn_z_full",                \
        "MetricStateNonHydro.ddxn_z_full")
#define ICONDIFF_STATIC_ddxt_z_full(FIELD)                                                         \
  FIELD(ddxt_z_full, vp, Edge, None, Full, Required, "1",                                          \
        "slope of the model levels tangential to the edge", "p_nh%metrics%ddxt_z_full",            \
        "MetricStateNonHydro.ddxt_z_full")
#define ICONDIFF_STATIC_ddqz_z_full_e(FIELD)                                                       \
  FIELD(ddqz_z_full_e, vp, Edge, None, Full, Required, "m", "layer thickness at edges",            \
        "p_nh%metrics%ddqz_z_full_e", "MetricStateNonHydro.ddqz_z_full_e")
#define ICONDIFF_STATIC_inv_ddqz_z_full(FIELD)                                                     \
  FIELD(inv_ddqz_z_full, vp, Cell, None, Full, Required, "m-1", "inverse layer thickness",         \
        "p_nh%metrics%inv_ddqz_z_full", "MetricStateNonHydro.inv_ddqz_z_full")
#define ICONDIFF_STATIC_ddqz_z_half(FIELD)                                                         \
  FIELD(ddqz_z_half, vp, Cell, None, Half, Required, "m",                                          \
        "distance between the full levels around half level k", "p_nh%metrics%ddqz_z_half",       \
        "MetricStateNonHydro.ddqz_z_half")
#define ICONDIFF_STATIC_wgtfacq_c(FIELD)                                                           \
  FIELD(wgtfacq_c, vp, Cell, None, Full, Required, "1",                                            \
        "weights of levels nlev-1, nlev-2, nlev-3 in the extrapolation to the surface (only "     \
        "those three levels are set)",                                                             \
        "p_nh%metrics%wgtfacq_c(:,1:3,:) (levels nlev, nlev-1, nlev-2)",                           \
        "MetricStateNonHydro.wgtfacq_c")
#define ICONDIFF_STATIC_wgtfac_e(FIELD)                                                            \
  FIELD(wgtfac_e, vp, Edge, None, Half, Required, "1",                                             \
        "weight of level k in the interpolation to half level k, at edges",                        \
        "p_nh%metrics%wgtfac_e", "MetricStateNonHydro.wgtfac_e")
#define ICONDIFF_STATIC_wgtfacq_e(FIELD)                                                           \
  FIELD(wgtfacq_e, vp, Edge, None, Full, Required, "1",                                            \
        "weights of levels nlev-1, nlev-2, nlev-3 in the extrapolation to the surface at edges "  \
        "(only those three levels are set)",                                                       \
        "p_nh%metrics%wgtfacq_e(:,1:3,:) (levels nlev, nlev-1, nlev-2)",                           \
        "MetricStateNonHydro.wgtfacq_e")
#define ICONDIFF_STATIC_vertoffset_gradp(FIELD)                                                    \
  FIELD(vertoffset_gradp, int, Edge, E2C, Full, Required, "1",                                     \
        "level offset of the neighbour cell level used by the pressure gradient below nflat_gradp",\
        "p_nh%metrics%vertidx_gradp (absolute levels; here relative)",                             \
        "MetricStateNonHydro.vertoffset_gradp")
#define ICONDIFF_STATIC_zdiff_gradp(FIELD)                                                         \
  FIELD(zdiff_gradp, vp, Edge, E2C, Full, Required, "m",                                           \
        "height of the edge's level above the neighbour cell level used by the pressure gradient",\
        "p_nh%metrics%zdiff_gradp", "MetricStateNonHydro.zdiff_gradp")
#define ICONDIFF_STATIC_pg_exdist(FIELD)                                                           \
  FIELD(pg_exdist, vp, Edge, None, Full, Required, "m",                                            \
        "extrapolation distance of the hydrostatic correction (0: none)",                          \
        "p_nh%metrics%pg_exdist (point list; here dense)", "MetricStateNonHydro.pg_exdist")
#define ICONDIFF_STATIC_horizontal_mask_for_3d_divdamp(FIELD)                                      \
  FIELD(horizontal_mask_for_3d_divdamp, wp, Edge, None, None, Required, "1",                       \
        "horizontal mask of the dw/dz term of the divergence damping", "p_nh%metrics%hmask_dd3d",  \
        "MetricStateNonHydro.horizontal_mask_for_3d_divdamp")
#define ICONDIFF_STATIC_exner_w_explicit_weight_parameter(FIELD)                                   \
  FIELD(exner_w_explicit_weight_parameter, wp, Cell, None, None, Required, "1",                    \
        "explicit weight of the vertical wind in the vertically implicit solver",                  \
        "p_nh%metrics%vwind_expl_wgt", "MetricStateNonHydro.exner_w_explicit_weight_parameter")
#define ICONDIFF_STATIC_exner_w_implicit_weight_parameter(FIELD)                                   \
  FIELD(exner_w_implicit_weight_parameter, wp, Cell, None, None, Required, "1",                    \
        "implicit weight of the vertical wind in the vertically implicit solver",                  \
        "p_nh%metrics%vwind_impl_wgt", "MetricStateNonHydro.exner_w_implicit_weight_parameter")
#define ICONDIFF_STATIC_coeff1_dwdz(FIELD)                                                         \
  FIELD(coeff1_dwdz, vp, Cell, None, Full, Required, "m-1",                                        \
        "weight of w(k-1) - w(k) in the second-order dw/dz at half level k (level 0 unused)",      \
        "p_nh%metrics%coeff1_dwdz", "MetricStateNonHydro.coeff1_dwdz")
#define ICONDIFF_STATIC_coeff2_dwdz(FIELD)                                                         \
  FIELD(coeff2_dwdz, vp, Cell, None, Full, Required, "m-1",                                        \
        "weight of w(k) - w(k+1) in the second-order dw/dz at half level k (level 0 unused)",      \
        "p_nh%metrics%coeff2_dwdz", "MetricStateNonHydro.coeff2_dwdz")
#define ICONDIFF_STATIC_coeff_gradekin(FIELD)                                                      \
  FIELD(coeff_gradekin, vp, Edge, E2C, None, Required, "m-1",                                      \
        "coefficients of the kinetic energy gradient from the edge's cells",                       \
        "p_nh%metrics%coeff_gradekin", "MetricStateNonHydro.coeff_gradekin")
#define ICONDIFF_STATIC_mask_prog_halo_c(FIELD)                                                    \
  FIELD(mask_prog_halo_c, int, Cell, None, None, Required, "1",                                    \
        "1 for a halo cell that is updated prognostically (not a nest boundary cell)",             \
        "p_nh%metrics%mask_prog_halo_c", "MetricStateNonHydro.mask_prog_halo_c")

// ---- Interpolation coefficients (ICON p_int) ----------------------------------------------------
#define ICONDIFF_STATIC_e_bln_c_s(FIELD)                                                           \
  FIELD(e_bln_c_s, wp, Cell, C2E, None, Required, "1",                                             \
        "bilinear interpolation weights from edges to the cell centre", "p_int%e_bln_c_s",         \
        "DiffusionInterpolationState.e_bln_c_s, InterpolationState.e_bln_c_s")
#define ICONDIFF_STATIC_rbf_coeff_1(FIELD)                                                         \
  FIELD(rbf_coeff_1, wp, Vertex, V2E, None, Required, "1",                                         \
        "RBF reconstruction weights of the eastward wind at vertices",                             \
        "p_int%rbf_vec_coeff_v(1,:,:,:)", "DiffusionInterpolationState.rbf_coeff_1")
#define ICONDIFF_STATIC_rbf_coeff_2(FIELD)                                                         \
  FIELD(rbf_coeff_2, wp, Vertex, V2E, None, Required, "1",                                         \
        "RBF reconstruction weights of the northward wind at vertices",                            \
        "p_int%rbf_vec_coeff_v(2,:,:,:)", "DiffusionInterpolationState.rbf_coeff_2")
#define ICONDIFF_STATIC_geofac_div(FIELD)                                                          \
  FIELD(geofac_div, wp, Cell, C2E, None, Required, "m-1", "geometric factors of the divergence",   \
        "p_int%geofac_div", "DiffusionInterpolationState.geofac_div, InterpolationState.geofac_div")
#define ICONDIFF_STATIC_geofac_n2s(FIELD)                                                          \
  FIELD(geofac_n2s, wp, Cell, C2E2CO, None, Required, "m-2",                                       \
        "geometric factors of the scalar Laplacian (slot 0: the cell itself)",                     \
        "p_int%geofac_n2s", "DiffusionInterpolationState.geofac_n2s, InterpolationState.geofac_n2s")
#define ICONDIFF_STATIC_geofac_grg_x(FIELD)                                                        \
  FIELD(geofac_grg_x, wp, Cell, C2E2CO, None, Required, "m-1",                                     \
        "Green-Gauss gradient factors, eastward (slot 0: the cell itself)",                        \
        "p_int%geofac_grg(:,:,:,1)",                                                               \
        "DiffusionInterpolationState.geofac_grg_x, InterpolationState.geofac_grg_x")
#define ICONDIFF_STATIC_geofac_grg_y(FIELD)                                                        \
  FIELD(geofac_grg_y, wp, Cell, C2E2CO, None, Required, "m-1",                                     \
        "Green-Gauss gradient factors, northward (slot 0: the cell itself)",                       \
        "p_int%geofac_grg(:,:,:,2)",                                                               \
        "DiffusionInterpolationState.geofac_grg_y, InterpolationState.geofac_grg_y")
#define ICONDIFF_STATIC_nudgecoeff_e(FIELD)                                                        \
  FIELD(nudgecoeff_e, wp, Edge, None, None, Required, "1", "lateral boundary nudging coefficient", \
        "p_int%nudgecoeff_e",                                                                      \
        "DiffusionInterpolationState.nudgecoeff_e, InterpolationState.nudgecoeff_e")
#define ICONDIFF_STATIC_c_lin_e(FIELD)                                                             \
  FIELD(c_lin_e, wp, Edge, E2C, None, Required, "1",                                               \
        "linear interpolation weights from cells to the edge", "p_int%c_lin_e",                    \
        "InterpolationState.c_lin_e")
#define ICONDIFF_STATIC_c_intp(FIELD)                                                              \
  FIELD(c_intp, wp, Vertex, V2C, None, Required, "1",                                              \
        "area weights of the interpolation from cells to the vertex", "p_int%cells_aw_verts",      \
        "InterpolationState.c_intp")
#define ICONDIFF_STATIC_e_flx_avg(FIELD)                                                           \
  FIELD(e_flx_avg, wp, Edge, E2C2EO, None, Required, "1",                                          \
        "weights of the flux averaging over the edge and its four neighbours (slot 0: itself)",    \
        "p_int%e_flx_avg", "InterpolationState.e_flx_avg")
#define ICONDIFF_STATIC_geofac_grdiv(FIELD)                                                        \
  FIELD(geofac_grdiv, wp, Edge, E2C2EO, None, Required, "m-1",                                     \
        "factors of the gradient of the divergence (slot 0: the edge itself)",                     \
        "p_int%geofac_grdiv", "InterpolationState.geofac_grdiv")
#define ICONDIFF_STATIC_geofac_rot(FIELD)                                                          \
  FIELD(geofac_rot, wp, Vertex, V2E, None, Required, "m-1",                                        \
        "geometric factors of the curl at vertices", "p_int%geofac_rot",                           \
        "InterpolationState.geofac_rot")
#define ICONDIFF_STATIC_rbf_vec_coeff_e(FIELD)                                                     \
  FIELD(rbf_vec_coeff_e, wp, Edge, E2C2E, None, Required, "1",                                     \
        "RBF reconstruction weights of the tangential wind at edges", "p_int%rbf_vec_coeff_e",     \
        "InterpolationState.rbf_vec_coeff_e")
#define ICONDIFF_STATIC_pos_on_tplane_e_1(FIELD)                                                   \
  FIELD(pos_on_tplane_e_1, wp, Edge, E2C, None, Required, "m",                                     \
        "edge midpoint on the tangent plane of the cell centre, normal component",                 \
        "p_int%pos_on_tplane_e(:,:,:,1)", "InterpolationState.pos_on_tplane_e_1")
#define ICONDIFF_STATIC_pos_on_tplane_e_2(FIELD)                                                   \
  FIELD(pos_on_tplane_e_2, wp, Edge, E2C, None, Required, "m",                                     \
        "edge midpoint on the tangent plane of the cell centre, tangential component",             \
        "p_int%pos_on_tplane_e(:,:,:,2)", "InterpolationState.pos_on_tplane_e_2")

// ---- Edge geometry (ICON p_patch%edges) ---------------------------------------------------------
#define ICONDIFF_STATIC_tangent_orientation(FIELD)                                                 \
  FIELD(tangent_orientation, wp, Edge, None, None, Required, "1",                                  \
        "orientation of the edge tangent (+1 or -1)", "p_patch%edges%tangent_orientation",         \
        "EdgeParams.tangent_orientation")
#define ICONDIFF_STATIC_inverse_primal_edge_lengths(FIELD)                                         \
  FIELD(inverse_primal_edge_lengths, wp, Edge, None, None, Required, "m-1",                        \
        "inverse primal edge length", "p_patch%edges%inv_primal_edge_length",                      \
        "EdgeParams.inverse_primal_edge_lengths")
#define ICONDIFF_STATIC_inverse_vertex_vertex_lengths(FIELD)                                       \
  FIELD(inverse_vertex_vertex_lengths, wp, Edge, None, None, Required, "m-1",                      \
        "inverse distance between the two far vertices of the edge diamond",                       \
        "p_patch%edges%inv_vert_vert_length", "EdgeParams.inverse_vertex_vertex_lengths")
#define ICONDIFF_STATIC_inverse_dual_edge_lengths(FIELD)                                           \
  FIELD(inverse_dual_edge_lengths, wp, Edge, None, None, Required, "m-1",                          \
        "inverse dual edge length", "p_patch%edges%inv_dual_edge_length",                          \
        "EdgeParams.inverse_dual_edge_lengths")
#define ICONDIFF_STATIC_edge_areas(FIELD)                                                          \
  FIELD(edge_areas, wp, Edge, None, None, Required, "m2", "area of the edge diamond",              \
        "p_patch%edges%area_edge", "EdgeParams.edge_areas")
#define ICONDIFF_STATIC_coriolis_frequency(FIELD)                                                  \
  FIELD(coriolis_frequency, wp, Edge, None, None, Required, "s-1",                                 \
        "Coriolis parameter 2 Omega sin(latitude) at the edge midpoint", "p_patch%edges%f_e",      \
        "EdgeParams.coriolis_frequency")
#define ICONDIFF_STATIC_primal_normal_vert_x(FIELD)                                                \
  FIELD(primal_normal_vert_x, wp, Edge, E2C2V, None, Required, "1",                                \
        "primal normal at the diamond vertices, eastward component",                               \
        "p_patch%edges%primal_normal_vert(:,:,1:4)%v1", "EdgeParams.primal_normal_vert[0]")
#define ICONDIFF_STATIC_primal_normal_vert_y(FIELD)                                                \
  FIELD(primal_normal_vert_y, wp, Edge, E2C2V, None, Required, "1",                                \
        "primal normal at the diamond vertices, northward component",                              \
        "p_patch%edges%primal_normal_vert(:,:,1:4)%v2", "EdgeParams.primal_normal_vert[1]")
#define ICONDIFF_STATIC_dual_normal_vert_x(FIELD)                                                  \
  FIELD(dual_normal_vert_x, wp, Edge, E2C2V, None, Required, "1",                                  \
        "dual normal at the diamond vertices, eastward component",                                 \
        "p_patch%edges%dual_normal_vert(:,:,1:4)%v1", "EdgeParams.dual_normal_vert[0]")
#define ICONDIFF_STATIC_dual_normal_vert_y(FIELD)                                                  \
  FIELD(dual_normal_vert_y, wp, Edge, E2C2V, None, Required, "1",                                  \
        "dual normal at the diamond vertices, northward component",                                \
        "p_patch%edges%dual_normal_vert(:,:,1:4)%v2", "EdgeParams.dual_normal_vert[1]")
#define ICONDIFF_STATIC_primal_normal_cell_x(FIELD)                                                \
  FIELD(primal_normal_cell_x, wp, Edge, E2C, None, Required, "1",                                  \
        "primal normal at the edge's cells, eastward component",                                   \
        "p_patch%edges%primal_normal_cell(:,:,:)%v1", "EdgeParams.primal_normal_cell[0]")
#define ICONDIFF_STATIC_primal_normal_cell_y(FIELD)                                                \
  FIELD(primal_normal_cell_y, wp, Edge, E2C, None, Required, "1",                                  \
        "primal normal at the edge's cells, northward component",                                  \
        "p_patch%edges%primal_normal_cell(:,:,:)%v2", "EdgeParams.primal_normal_cell[1]")
#define ICONDIFF_STATIC_dual_normal_cell_x(FIELD)                                                  \
  FIELD(dual_normal_cell_x, wp, Edge, E2C, None, Required, "1",                                    \
        "dual normal at the edge's cells, eastward component",                                     \
        "p_patch%edges%dual_normal_cell(:,:,:)%v1", "EdgeParams.dual_normal_cell[0]")
#define ICONDIFF_STATIC_dual_normal_cell_y(FIELD)                                                  \
  FIELD(dual_normal_cell_y, wp, Edge, E2C, None, Required, "1",                                    \
        "dual normal at the edge's cells, northward component",                                    \
        "p_patch%edges%dual_normal_cell(:,:,:)%v2", "EdgeParams.dual_normal_cell[1]")

// ---- Cell geometry and decomposition (ICON p_patch%cells) ---------------------------------------
/// `cell_area` as the grid and ICON4Py's grid factory call it (ICON4Py's CellParams.area).
#define ICONDIFF_STATIC_cell_area(FIELD)                                                           \
  FIELD(cell_area, wp, Cell, None, None, Required, "m2", "cell area", "p_patch%cells%area",        \
        "CellParams.area")
#define ICONDIFF_STATIC_c_owner_mask(FIELD)                                                        \
  FIELD(c_owner_mask, int, Cell, None, None, Required, "1", "1 for a cell this rank owns",         \
        "p_patch%cells%decomp_info%owner_mask", "solve_nh_init(c_owner_mask)")

// ---- The lists ----------------------------------------------------------------------------------
#define ICONDIFF_STATIC_METRIC_FIELDS(FIELD)                                                       \
  ICONDIFF_STATIC_theta_ref_mc(FIELD)                                                              \
  ICONDIFF_STATIC_wgtfac_c(FIELD)                                                                  \
  ICONDIFF_STATIC_zd_vertoffset(FIELD)                                                             \
  ICONDIFF_STATIC_zd_diffcoef(FIELD)                                                               \
  ICONDIFF_STATIC_zd_intcoef(FIELD)                                                                \
  ICONDIFF_STATIC_reference_rho_at_edges_on_model_levels(FIELD)                                    \
  ICONDIFF_STATIC_reference_theta_at_edges_on_model_levels(FIELD)                                  \
  ICONDIFF_STATIC_reference_rho_at_cells_on_model_levels(FIELD)                                    \
  ICONDIFF_STATIC_reference_exner_at_cells_on_model_levels(FIELD)                                  \
  ICONDIFF_STATIC_reference_theta_at_cells_on_half_levels(FIELD)                                   \
  ICONDIFF_STATIC_ddz_of_reference_exner_at_cells_on_half_levels(FIELD)                            \
  ICONDIFF_STATIC_d2dexdz2_fac1_mc(FIELD)                                                          \
  ICONDIFF_STATIC_d2dexdz2_fac2_mc(FIELD)                                                          \
  ICONDIFF_STATIC_time_extrapolation_parameter_for_exner(FIELD)                                    \
  ICONDIFF_STATIC_ddxn_z_full(FIELD)                                                               \
  ICONDIFF_STATIC_ddxt_z_full(FIELD)                                                               \
  ICONDIFF_STATIC_ddqz_z_full_e(FIELD)                                                             \
  ICONDIFF_STATIC_inv_ddqz_z_full(FIELD)                                                           \
  ICONDIFF_STATIC_ddqz_z_half(FIELD)                                                               \
  ICONDIFF_STATIC_wgtfacq_c(FIELD)                                                                 \
  ICONDIFF_STATIC_wgtfac_e(FIELD)                                                                  \
  ICONDIFF_STATIC_wgtfacq_e(FIELD)                                                                 \
  ICONDIFF_STATIC_vertoffset_gradp(FIELD)                                                          \
  ICONDIFF_STATIC_zdiff_gradp(FIELD)                                                               \
  ICONDIFF_STATIC_pg_exdist(FIELD)                                                                 \
  ICONDIFF_STATIC_horizontal_mask_for_3d_divdamp(FIELD)                                            \
  ICONDIFF_STATIC_exner_w_explicit_weight_parameter(FIELD)                                         \
  ICONDIFF_STATIC_exner_w_implicit_weight_parameter(FIELD)                                         \
  ICONDIFF_STATIC_coeff1_dwdz(FIELD)                                                               \
  ICONDIFF_STATIC_coeff2_dwdz(FIELD)                                                               \
  ICONDIFF_STATIC_coeff_gradekin(FIELD)                                                            \
  ICONDIFF_STATIC_mask_prog_halo_c(FIELD)

#define ICONDIFF_STATIC_INTERPOLATION_FIELDS(FIELD)                                                \
  ICONDIFF_STATIC_e_bln_c_s(FIELD)                                                                 \
  ICONDIFF_STATIC_rbf_coeff_1(FIELD)                                                               \
  ICONDIFF_STATIC_rbf_coeff_2(FIELD)                                                               \
  ICONDIFF_STATIC_geofac_div(FIELD)                                                                \
  ICONDIFF_STATIC_geofac_n2s(FIELD)                                                                \
  ICONDIFF_STATIC_geofac_grg_x(FIELD)                                                              \
  ICONDIFF_STATIC_geofac_grg_y(FIELD)                                                              \
  ICONDIFF_STATIC_nudgecoeff_e(FIELD)                                                              \
  ICONDIFF_STATIC_c_lin_e(FIELD)                                                                   \
  ICONDIFF_STATIC_c_intp(FIELD)                                                                    \
  ICONDIFF_STATIC_e_flx_avg(FIELD)                                                                 \
  ICONDIFF_STATIC_geofac_grdiv(FIELD)                                                              \
  ICONDIFF_STATIC_geofac_rot(FIELD)                                                                \
  ICONDIFF_STATIC_rbf_vec_coeff_e(FIELD)                                                           \
  ICONDIFF_STATIC_pos_on_tplane_e_1(FIELD)                                                         \
  ICONDIFF_STATIC_pos_on_tplane_e_2(FIELD)

#define ICONDIFF_STATIC_EDGE_FIELDS(FIELD)                                                         \
  ICONDIFF_STATIC_tangent_orientation(FIELD)                                                       \
  ICONDIFF_STATIC_inverse_primal_edge_lengths(FIELD)                                               \
  ICONDIFF_STATIC_inverse_vertex_vertex_lengths(FIELD)                                             \
  ICONDIFF_STATIC_inverse_dual_edge_lengths(FIELD)                                                 \
  ICONDIFF_STATIC_edge_areas(FIELD)                                                                \
  ICONDIFF_STATIC_coriolis_frequency(FIELD)                                                        \
  ICONDIFF_STATIC_primal_normal_vert_x(FIELD)                                                      \
  ICONDIFF_STATIC_primal_normal_vert_y(FIELD)                                                      \
  ICONDIFF_STATIC_dual_normal_vert_x(FIELD)                                                        \
  ICONDIFF_STATIC_dual_normal_vert_y(FIELD)                                                        \
  ICONDIFF_STATIC_primal_normal_cell_x(FIELD)                                                      \
  ICONDIFF_STATIC_primal_normal_cell_y(FIELD)                                                      \
  ICONDIFF_STATIC_dual_normal_cell_x(FIELD)                                                        \
  ICONDIFF_STATIC_dual_normal_cell_y(FIELD)

#define ICONDIFF_STATIC_CELL_FIELDS(FIELD)                                                         \
  ICONDIFF_STATIC_cell_area(FIELD)                                                                 \
  ICONDIFF_STATIC_c_owner_mask(FIELD)

/// Every static field, each once.
#define ICONDIFF_STATIC_FIELDS(FIELD)                                                              \
  ICONDIFF_STATIC_METRIC_FIELDS(FIELD)                                                             \
  ICONDIFF_STATIC_INTERPOLATION_FIELDS(FIELD)                                                      \
  ICONDIFF_STATIC_EDGE_FIELDS(FIELD)                                                               \
  ICONDIFF_STATIC_CELL_FIELDS(FIELD)
// clang-format on

/// Every static field of one grid (or rank) in one memory space, plus the vertical profiles
/// (plain (levels) Views beside the list, which describes horizontal fields). A View nobody asked
/// for stays empty (setup/static_fields_setup.hpp builds only the fields of the granules in use).
template <class MemorySpace>
struct StaticFields {
  ICONDIFF_STATE_FIELDS(ICONDIFF_STATIC_FIELDS)
  /// (nlev + 1): Klemp's Rayleigh damping coefficient of w on half levels (ICON rayleigh_w;
  /// 0 below the damping layer).
  Kokkos::View<wp*, FieldLayout, MemorySpace> rayleigh_w;
  /// (nlev): scalfac_dd3d, the vertical profile of the dw/dz term of the divergence damping.
  Kokkos::View<wp*, FieldLayout, MemorySpace> scaling_factor_for_3d_divdamp;
};

}  // namespace icondiff
