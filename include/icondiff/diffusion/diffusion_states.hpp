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
#include <icondiff/statics/static_fields.hpp>

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

/// The static fields (§4.3–§4.5): the diffusion's selection of the model's static fields, each
/// described once in statics/static_fields.hpp.
#define ICONDIFF_DIFFUSION_METRIC_FIELDS(FIELD)                                                    \
  ICONDIFF_STATIC_theta_ref_mc(FIELD)                                                              \
  ICONDIFF_STATIC_wgtfac_c(FIELD)                                                                  \
  ICONDIFF_STATIC_zd_vertoffset(FIELD)                                                             \
  ICONDIFF_STATIC_zd_diffcoef(FIELD)                                                               \
  ICONDIFF_STATIC_zd_intcoef(FIELD)

#define ICONDIFF_DIFFUSION_INTERPOLATION_FIELDS(FIELD)                                             \
  ICONDIFF_STATIC_e_bln_c_s(FIELD)                                                                 \
  ICONDIFF_STATIC_rbf_coeff_1(FIELD)                                                               \
  ICONDIFF_STATIC_rbf_coeff_2(FIELD)                                                               \
  ICONDIFF_STATIC_geofac_div(FIELD)                                                                \
  ICONDIFF_STATIC_geofac_n2s(FIELD)                                                                \
  ICONDIFF_STATIC_geofac_grg_x(FIELD)                                                              \
  ICONDIFF_STATIC_geofac_grg_y(FIELD)                                                              \
  ICONDIFF_STATIC_nudgecoeff_e(FIELD)

#define ICONDIFF_DIFFUSION_EDGE_FIELDS(FIELD)                                                      \
  ICONDIFF_STATIC_tangent_orientation(FIELD)                                                       \
  ICONDIFF_STATIC_inverse_primal_edge_lengths(FIELD)                                               \
  ICONDIFF_STATIC_inverse_vertex_vertex_lengths(FIELD)                                             \
  ICONDIFF_STATIC_inverse_dual_edge_lengths(FIELD)                                                 \
  ICONDIFF_STATIC_edge_areas(FIELD)                                                                \
  ICONDIFF_STATIC_primal_normal_vert_x(FIELD)                                                      \
  ICONDIFF_STATIC_primal_normal_vert_y(FIELD)                                                      \
  ICONDIFF_STATIC_dual_normal_vert_x(FIELD)                                                        \
  ICONDIFF_STATIC_dual_normal_vert_y(FIELD)

#define ICONDIFF_DIFFUSION_CELL_FIELDS(FIELD) ICONDIFF_STATIC_cell_area(FIELD)
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
