// The fields the diffusion granule reads and writes (diffusion_spec.md §4), as Kokkos Views in
// one memory space, each struct described ONCE by its field list (core/field_spec.hpp): the
// members, extent checks, host/device copies, savepoint variables and test inputs all come from
// these lists. Names are ICON4Py's (DiffusionDiagnosticState, PrognosticState,
// DiffusionMetricState, DiffusionInterpolationState, EdgeParams, CellParams).
//
// Every field is (points[, slots][, levels]) in FieldLayout (point index fastest); half-level
// fields have nlev + 1 levels. Views may be unmanaged wrappers of memory the caller owns (e.g.
// Fortran arrays, with a leading dimension >= the number of points; core/view_copy.hpp).
#pragma once

#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/types.hpp>

namespace icondiff {

// clang-format off
// FIELD(name, type, location, neighbours, levels, presence, units, long_name, ICON, ICON4Py)

/// In/out state (§4.1).
#define ICONDIFF_DIFFUSION_PROGNOSTIC_FIELDS(FIELD)                                                \
  FIELD(vn, wp, Edge, None, Full, Required, "m s-1",                                               \
        "normal velocity component at edge midpoints", "p_nh_state%prog%vn", "PrognosticState.vn") \
  FIELD(w, wp, Cell, None, Half, Required, "m s-1", "vertical velocity at half levels",            \
        "p_nh_state%prog%w", "PrognosticState.w")                                                  \
  FIELD(theta_v, wp, Cell, None, Full, Required, "K", "virtual potential temperature",             \
        "p_nh_state%prog%theta_v", "PrognosticState.theta_v")                                      \
  FIELD(exner, wp, Cell, None, Full, Required, "1", "Exner pressure", "p_nh_state%prog%exner",     \
        "PrognosticState.exner")

/// Turbulence diagnostics (§4.2).
#define ICONDIFF_DIFFUSION_DIAGNOSTIC_FIELDS(FIELD)                                                \
  FIELD(hdef_ic, vp, Cell, None, Half, Required, "s-2",                                            \
        "squared horizontal wind deformation at half levels", "p_nh_state%diag%hdef_ic",           \
        "DiffusionDiagnosticState.hdef_ic")                                                        \
  FIELD(div_ic, vp, Cell, None, Half, Required, "s-1",                                             \
        "horizontal wind divergence at half levels", "p_nh_state%diag%div_ic",                     \
        "DiffusionDiagnosticState.div_ic")                                                         \
  FIELD(dwdx, vp, Cell, None, Half, Required, "s-1", "eastward derivative of w at half levels",    \
        "p_nh_state%diag%dwdx", "DiffusionDiagnosticState.dwdx")                                   \
  FIELD(dwdy, vp, Cell, None, Half, Required, "s-1", "northward derivative of w at half levels",   \
        "p_nh_state%diag%dwdy", "DiffusionDiagnosticState.dwdy")

/// Metric fields (§4.3).
#define ICONDIFF_DIFFUSION_METRIC_FIELDS(FIELD)                                                    \
  FIELD(theta_ref_mc, vp, Cell, None, Full, Required, "K",                                         \
        "reference virtual potential temperature at full levels",                                 \
        "p_nh_state%metrics%theta_ref_mc", "DiffusionMetricState.theta_ref_mc")                    \
  FIELD(wgtfac_c, vp, Cell, None, Half, Required, "1",                                             \
        "weight of level k in the interpolation to half level k", "p_nh_state%metrics%wgtfac_c",   \
        "DiffusionMetricState.wgtfac_c")                                                           \
  FIELD(zd_vertoffset, int, Cell, C2E2C, Full, ZDiffusion, "1",                                    \
        "level offset k' - k of the neighbour level used by truly horizontal temperature "        \
        "diffusion",                                                                               \
        "p_nh_state%metrics%zd_vertidx (absolute levels of a point list; here dense and relative)",\
        "DiffusionMetricState.zd_vertoffset")                                                      \
  FIELD(zd_diffcoef, wp, Cell, None, Full, ZDiffusion, "1",                                        \
        "coefficient of truly horizontal temperature diffusion (0: none)",                         \
        "p_nh_state%metrics%zd_diffcoef (point list; here dense)",                                 \
        "DiffusionMetricState.zd_diffcoef")                                                        \
  FIELD(zd_intcoef, wp, Cell, C2E2C, Full, ZDiffusion, "1",                                        \
        "weight of level k + zd_vertoffset (1 - weight: the level below) at the neighbour",        \
        "p_nh_state%metrics%zd_intcoef (point list; here dense)",                                  \
        "DiffusionMetricState.zd_intcoef")

/// Interpolation coefficients (§4.4); slots in the order of the named connectivity.
#define ICONDIFF_DIFFUSION_INTERPOLATION_FIELDS(FIELD)                                             \
  FIELD(e_bln_c_s, wp, Cell, C2E, None, Required, "1",                                             \
        "bilinear interpolation weights from edges to the cell centre", "p_int_state%e_bln_c_s",   \
        "DiffusionInterpolationState.e_bln_c_s")                                                   \
  FIELD(rbf_coeff_1, wp, Vertex, V2E, None, Required, "1",                                         \
        "RBF reconstruction weights of the eastward wind at vertices",                             \
        "p_int_state%rbf_vec_coeff_v(1,:,:,:)", "DiffusionInterpolationState.rbf_coeff_1")         \
  FIELD(rbf_coeff_2, wp, Vertex, V2E, None, Required, "1",                                         \
        "RBF reconstruction weights of the northward wind at vertices",                            \
        "p_int_state%rbf_vec_coeff_v(2,:,:,:)", "DiffusionInterpolationState.rbf_coeff_2")         \
  FIELD(geofac_div, wp, Cell, C2E, None, Required, "m-1", "geometric factors of the divergence",   \
        "p_int_state%geofac_div", "DiffusionInterpolationState.geofac_div")                        \
  FIELD(geofac_n2s, wp, Cell, C2E2CO, None, Required, "m-2",                                       \
        "geometric factors of the scalar Laplacian (slot 0: the cell itself)",                     \
        "p_int_state%geofac_n2s", "DiffusionInterpolationState.geofac_n2s")                        \
  FIELD(geofac_grg_x, wp, Cell, C2E2CO, None, Required, "m-1",                                     \
        "Green-Gauss gradient factors, eastward (slot 0: the cell itself)",                        \
        "p_int_state%geofac_grg(:,:,:,1)", "DiffusionInterpolationState.geofac_grg_x")             \
  FIELD(geofac_grg_y, wp, Cell, C2E2CO, None, Required, "m-1",                                     \
        "Green-Gauss gradient factors, northward (slot 0: the cell itself)",                       \
        "p_int_state%geofac_grg(:,:,:,2)", "DiffusionInterpolationState.geofac_grg_y")             \
  FIELD(nudgecoeff_e, wp, Edge, None, None, Required, "1", "lateral boundary nudging coefficient", \
        "p_int_state%nudgecoeff_e", "DiffusionInterpolationState.nudgecoeff_e")

/// Edge geometry (§4.5).
#define ICONDIFF_DIFFUSION_EDGE_FIELDS(FIELD)                                                      \
  FIELD(tangent_orientation, wp, Edge, None, None, Required, "1",                                  \
        "orientation of the edge tangent (+1 or -1)", "p_patch%edges%tangent_orientation",         \
        "EdgeParams.tangent_orientation")                                                          \
  FIELD(inverse_primal_edge_lengths, wp, Edge, None, None, Required, "m-1",                        \
        "inverse primal edge length", "p_patch%edges%inv_primal_edge_length",                      \
        "EdgeParams.inverse_primal_edge_lengths")                                                  \
  FIELD(inverse_vertex_vertex_lengths, wp, Edge, None, None, Required, "m-1",                      \
        "inverse distance between the two far vertices of the edge diamond",                       \
        "p_patch%edges%inv_vert_vert_length", "EdgeParams.inverse_vertex_vertex_lengths")          \
  FIELD(inverse_dual_edge_lengths, wp, Edge, None, None, Required, "m-1",                          \
        "inverse dual edge length", "p_patch%edges%inv_dual_edge_length",                          \
        "EdgeParams.inverse_dual_edge_lengths")                                                    \
  FIELD(edge_areas, wp, Edge, None, None, Required, "m2", "area of the edge diamond",              \
        "p_patch%edges%area_edge", "EdgeParams.edge_areas")                                        \
  FIELD(primal_normal_vert_x, wp, Edge, E2C2V, None, Required, "1",                                \
        "primal normal at the diamond vertices, eastward component",                               \
        "p_patch%edges%primal_normal_vert(:,:,1:4)%v1", "EdgeParams.primal_normal_vert[0]")        \
  FIELD(primal_normal_vert_y, wp, Edge, E2C2V, None, Required, "1",                                \
        "primal normal at the diamond vertices, northward component",                              \
        "p_patch%edges%primal_normal_vert(:,:,1:4)%v2", "EdgeParams.primal_normal_vert[1]")        \
  FIELD(dual_normal_vert_x, wp, Edge, E2C2V, None, Required, "1",                                  \
        "dual normal at the diamond vertices, eastward component",                                 \
        "p_patch%edges%dual_normal_vert(:,:,1:4)%v1", "EdgeParams.dual_normal_vert[0]")            \
  FIELD(dual_normal_vert_y, wp, Edge, E2C2V, None, Required, "1",                                  \
        "dual normal at the diamond vertices, northward component",                                \
        "p_patch%edges%dual_normal_vert(:,:,1:4)%v2", "EdgeParams.dual_normal_vert[1]")

/// Cell geometry (§4.5). `cell_area` as the grid and ICON4Py's grid factory call it (ICON4Py's
/// CellParams.area).
#define ICONDIFF_DIFFUSION_CELL_FIELDS(FIELD)                                                      \
  FIELD(cell_area, wp, Cell, None, None, Required, "m2", "cell area", "p_patch%cells%area",        \
        "CellParams.area")
// clang-format on

template <class MemorySpace>
struct DiffusionPrognosticState {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DIFFUSION_PROGNOSTIC_FIELDS)
};

template <class MemorySpace>
struct DiffusionDiagnosticState {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DIFFUSION_DIAGNOSTIC_FIELDS)
};

template <class MemorySpace>
struct DiffusionMetricState {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DIFFUSION_METRIC_FIELDS)
};

template <class MemorySpace>
struct DiffusionInterpolationState {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DIFFUSION_INTERPOLATION_FIELDS)
};

template <class MemorySpace>
struct DiffusionEdgeParams {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DIFFUSION_EDGE_FIELDS)
};

template <class MemorySpace>
struct DiffusionCellParams {
  ICONDIFF_STATE_FIELDS(ICONDIFF_DIFFUSION_CELL_FIELDS)
};

}  // namespace icondiff
