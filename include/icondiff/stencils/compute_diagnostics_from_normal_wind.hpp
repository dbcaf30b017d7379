// The first program of ICON4Py 0.2.0's velocity advection,
// compute_diagnostics_from_normal_wind (stencils/compute_diagnostics_from_normal_wind.py; ICON's
// velocity_tendencies stencils 1-7, formerly fused_velocity_advection_stencil_1_to_7), as an
// (edge, level) point body: from vn and w it derives at every edge
//  * the tangential wind vt by RBF reconstruction over E2C2E, the kinetic energy
//    0.5 (vn² + vt²), vn interpolated to half levels (the lowest half level extrapolated from the
//    three levels above it with wgtfacq_e),
//  * the contravariant correction vn dz/dn + vt dz/dt below nflatlev,
//  * unless skip_compute_predictor_vertical_advection: vt interpolated to half levels and the
//    horizontal advection of w, vn_ie dw/dn + vt_ie dw/dt, with w interpolated to the edge's
//    vertices (cells2verts over V2C) by a kernel before this one (horizontal_advection_of_w.hpp).
// Every expression keeps ICON4Py's operation order and vp/wp casts, so results are bit-identical
// to its gtfn backend in double precision. Neighbour tables as ICON4Py reads them: E2C and E2C2E
// with skip values replaced (grid/skip_values.hpp); V2C replaced on limited-area and decomposed
// grids and otherwise kept with its -1 on pentagon vertices, which the sum skips (ICON4Py keeps
// skip values there and neighbor_sum leaves them out).
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/stencils/horizontal_advection_of_w.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

// ---- The edge diagnostics of vn, shared with solve_nonhydro's
// compute_horizontal_velocity_quantities_and_fluxes (compute_horizontal_velocity_quantities.hpp).

/// _compute_tangential_wind: the RBF sum over E2C2E in slot order, rounded to vp.
template <class MemorySpace>
KOKKOS_INLINE_FUNCTION vp rbf_tangential_wind(const ConstField<wp, MemorySpace>& rbf_vec_coeff_e,
                                              const ConstField<wp, MemorySpace>& vn,
                                              const ConstIndexTable<MemorySpace>& e2c2e,
                                              const index_t e, const index_t k) {
  wp vt = 0;
  for (int j = 0; j < 4; ++j) vt += rbf_vec_coeff_e(e, j) * vn(e2c2e(e, j), k);
  return static_cast<vp>(vt);
}

/// _interpolate_to_half_levels: wgtfac_e x(k) + (1 - wgtfac_e) x(k - 1), x itself on level 0.
template <class MemorySpace>
KOKKOS_INLINE_FUNCTION vp half_level_value(const ConstField<vp, MemorySpace>& wgtfac_e,
                                           const index_t e, const index_t k, const wp x,
                                           const wp x_above) {
  if (k == 0) return static_cast<vp>(x);
  const wp weight = static_cast<wp>(wgtfac_e(e, k));
  return static_cast<vp>(weight * x + (wp(1) - weight) * x_above);
}

/// vt at half levels as ICON computes z_vt_ie (mo_velocity_advection.f90, mo_solve_nonhydro.f90:
/// `wgtfac_e*vt(jk) + (1._wp - wgtfac_e)*vt(jk-1)`, all three REAL(vp)): the first product in vp,
/// the second in wp, the sum rounded to vp; vt itself on level 0. ICON4Py 0.2.0 cannot run this
/// in mixed precision (its call does not type-check); its reading, both products in wp, is the
/// same in double. compare_dycore.py's mixed-precision patch computes it this way.
template <class MemorySpace>
KOKKOS_INLINE_FUNCTION vp
tangential_wind_half_level_value(const ConstField<vp, MemorySpace>& wgtfac_e, const index_t e,
                                 const index_t k, const vp vt, const vp vt_above) {
  if (k == 0) return vt;
  const vp weight = wgtfac_e(e, k);
  return static_cast<vp>(static_cast<wp>(weight * vt) +
                         (wp(1) - static_cast<wp>(weight)) * static_cast<wp>(vt_above));
}

/// _compute_horizontal_kinetic_energy: 0.5 (vn vn + vt vt), vt vt in vp.
KOKKOS_INLINE_FUNCTION vp kinetic_energy(const wp vn, const vp vt) {
  return static_cast<vp>(wp(0.5) * (vn * vn + static_cast<wp>(vt * vt)));
}

/// _compute_contravariant_correction: vn ddxn + vt ddxt, the second product in vp.
KOKKOS_INLINE_FUNCTION vp contravariant_correction(const wp vn, const vp ddxn, const vp ddxt,
                                                   const vp vt) {
  return static_cast<vp>(vn * static_cast<wp>(ddxn) + static_cast<wp>(vt * ddxt));
}

/// _extrapolate_at_top: vn_ie on level k from the three full levels above it.
template <class MemorySpace>
KOKKOS_INLINE_FUNCTION vp extrapolated_vn_ie(const ConstField<vp, MemorySpace>& wgtfacq_e,
                                             const ConstField<wp, MemorySpace>& vn, const index_t e,
                                             const index_t k) {
  return static_cast<vp>(static_cast<wp>(wgtfacq_e(e, k - 1)) * vn(e, k - 1) +
                         static_cast<wp>(wgtfacq_e(e, k - 2)) * vn(e, k - 2) +
                         static_cast<wp>(wgtfacq_e(e, k - 3)) * vn(e, k - 3));
}

template <class MemorySpace>
struct ComputeDiagnosticsFromNormalWind {
  static constexpr const char* name = "compute_diagnostics_from_normal_wind";

  // Per-call fields (ICON4Py's program arguments).
  OutField<vp, MemorySpace> tangential_wind;
  OutField<vp, MemorySpace> tangential_wind_on_half_levels;  ///< written unless skipped
  OutField<vp, MemorySpace> vn_on_half_levels;               ///< (E, nlev + 1)
  OutField<vp, MemorySpace> horizontal_kinetic_energy_at_edges_on_model_levels;
  OutField<vp, MemorySpace> contravariant_correction_at_edges_on_model_levels;  ///< k >= nflatlev
  OutField<vp, MemorySpace> horizontal_advection_of_w_at_edges_on_half_levels;  ///< unless skipped
  ConstField<wp, MemorySpace> vn;
  ConstField<wp, MemorySpace> w;  ///< (C, nlev + 1)

  // Static fields under their names in statics/static_fields.hpp (ICON4Py's argument name noted
  // where it differs).
  ConstField<wp, MemorySpace> rbf_vec_coeff_e;  ///< (E, 4) E2C2E order
  ConstField<vp, MemorySpace> wgtfac_e;
  ConstField<vp, MemorySpace> ddxn_z_full;
  ConstField<vp, MemorySpace> ddxt_z_full;
  ConstField<vp, MemorySpace> wgtfacq_e;
  ConstIndexTable<MemorySpace> e2c2e;  ///< skip values replaced
  /// The horizontal advection of w (unless skipped), from w at the vertices that the program's
  /// first kernel (WAtVertices) stores.
  HorizontalAdvectionOfW<MemorySpace> advection_of_w;

  bool skip_compute_predictor_vertical_advection = false;
  index_t nflatlev = 0;
  /// The program's vertical_end: level vertical_end - 1 gets only the extrapolated vn_ie.
  index_t vertical_end = 0;

  KOKKOS_INLINE_FUNCTION vp tangential_wind_at(const index_t e, const index_t k) const {
    return rbf_tangential_wind(rbf_vec_coeff_e, vn, e2c2e, e, k);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    if (k == vertical_end - 1) {
      vn_on_half_levels(e, k) = extrapolated_vn_ie(wgtfacq_e, vn, e, k);
      return;
    }
    const wp vn_k = vn(e, k);
    const vp vt = tangential_wind_at(e, k);
    tangential_wind(e, k) = vt;
    horizontal_kinetic_energy_at_edges_on_model_levels(e, k) = kinetic_energy(vn_k, vt);
    const vp vn_ie = half_level_value(wgtfac_e, e, k, vn_k, k > 0 ? vn(e, k - 1) : wp(0));
    vn_on_half_levels(e, k) = vn_ie;
    if (k >= nflatlev)
      contravariant_correction_at_edges_on_model_levels(e, k) =
          contravariant_correction(vn_k, ddxn_z_full(e, k), ddxt_z_full(e, k), vt);
    if (skip_compute_predictor_vertical_advection) return;
    const vp vt_ie = tangential_wind_half_level_value(wgtfac_e, e, k, vt,
                                                      k > 0 ? tangential_wind_at(e, k - 1) : vp(0));
    tangential_wind_on_half_levels(e, k) = vt_ie;
    horizontal_advection_of_w_at_edges_on_half_levels(e, k) = advection_of_w.at(e, k, vn_ie, vt_ie);
  }
};

}  // namespace icondiff::stencils
