// The two edge programs of ICON4Py 0.2.0's stencils/compute_horizontal_velocity_quantities.py
// (solve_nonhydro), as (edge, level) point bodies in ICON4Py's operation order and casts:
//  * ComputeHorizontalVelocityQuantitiesAndFluxes (compute_horizontal_velocity_quantities_and_
//    fluxes, the predictor; ex stencils 30-38): vn averaged over E2C2EO (e_flx_avg), the gradient
//    of the divergence (geofac_grdiv), vt (RBF), the mass and theta_v fluxes, vn and vt at half
//    levels, the kinetic energy, the contravariant correction from nflatlev on; on the domain's
//    last level vn_ie extrapolated from the three levels above (as velocity advection's
//    compute_diagnostics_from_normal_wind, whose helpers it shares);
//  * ComputeAveragedVnAndFluxes (compute_averaged_vn_and_fluxes, the corrector; ex 31-34): the
//    averaged vn and the fluxes, and with prepare_advection the substep averages for tracer
//    advection (set on the first substep, accumulated on the others).
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/stencils/compute_diagnostics_from_normal_wind.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

/// _spatially_average_flux_or_velocity: the E2C2EO sum with e_flx_avg.
template <class MemorySpace>
KOKKOS_INLINE_FUNCTION wp spatially_averaged(const ConstField<wp, MemorySpace>& e_flx_avg,
                                             const ConstField<wp, MemorySpace>& x,
                                             const ConstIndexTable<MemorySpace>& e2c2eo,
                                             const index_t e, const index_t k) {
  wp sum = 0;
  for (int j = 0; j < 5; ++j) sum += e_flx_avg(e, j) * x(e2c2eo(e, j), k);
  return sum;
}

template <class MemorySpace>
struct ComputeHorizontalVelocityQuantitiesAndFluxes {
  static constexpr const char* name = "compute_horizontal_velocity_quantities_and_fluxes";

  // Per-call fields (ICON4Py's program arguments).
  OutField<wp, MemorySpace> spatially_averaged_vn;
  OutField<vp, MemorySpace> horizontal_gradient_of_normal_wind_divergence;
  OutField<vp, MemorySpace> tangential_wind;
  OutField<wp, MemorySpace> mass_flux_at_edges_on_model_levels;
  OutField<wp, MemorySpace> theta_v_flux_at_edges_on_model_levels;
  OutField<vp, MemorySpace> tangential_wind_on_half_levels;
  OutField<vp, MemorySpace> vn_on_half_levels;  ///< (E, nlev + 1)
  OutField<vp, MemorySpace> horizontal_kinetic_energy_at_edges_on_model_levels;
  OutField<vp, MemorySpace> contravariant_correction_at_edges_on_model_levels;  ///< k >= nflatlev
  ConstField<wp, MemorySpace> vn;
  ConstField<wp, MemorySpace> rho_at_edges_on_model_levels;
  ConstField<wp, MemorySpace> theta_v_at_edges_on_model_levels;

  // Static fields (statics/static_fields.hpp).
  ConstField<wp, MemorySpace> e_flx_avg;        ///< (E, 5) E2C2EO order
  ConstField<wp, MemorySpace> geofac_grdiv;     ///< (E, 5) E2C2EO order
  ConstField<wp, MemorySpace> rbf_vec_coeff_e;  ///< (E, 4) E2C2E order
  ConstField<vp, MemorySpace> ddqz_z_full_e;
  ConstField<vp, MemorySpace> ddxn_z_full;
  ConstField<vp, MemorySpace> ddxt_z_full;
  ConstField<vp, MemorySpace> wgtfac_e;
  ConstField<vp, MemorySpace> wgtfacq_e;
  ConstIndexTable<MemorySpace> e2c2e;   ///< skip values replaced
  ConstIndexTable<MemorySpace> e2c2eo;  ///< skip values replaced

  index_t nflatlev = 0;
  /// The program's vertical_end: level vertical_end - 1 gets only the extrapolated vn_ie.
  index_t vertical_end = 0;

  // Forced inline: GCC otherwise calls the body once per (edge, level) from the level-chunk loop
  // (277 instructions per edge-level counted by callgrind, R2B2 x 65).
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    if (k == vertical_end - 1) {
      vn_on_half_levels(e, k) = extrapolated_vn_ie(wgtfacq_e, vn, e, k);
      return;
    }
    // The averaged vn and the gradient of divergence from one gather of the five vn (each sum in
    // ICON4Py's slot order, as spatially_averaged).
    wp vn_avg = 0, graddiv = 0;
    for (int j = 0; j < 5; ++j) {
      const wp vn_j = vn(e2c2eo(e, j), k);
      vn_avg += e_flx_avg(e, j) * vn_j;
      graddiv += geofac_grdiv(e, j) * vn_j;
    }
    spatially_averaged_vn(e, k) = vn_avg;
    horizontal_gradient_of_normal_wind_divergence(e, k) = static_cast<vp>(graddiv);
    const vp vt = rbf_tangential_wind(rbf_vec_coeff_e, vn, e2c2e, e, k);
    tangential_wind(e, k) = vt;
    // _compute_mass_and_temperature_flux.
    const wp mass_flux =
        rho_at_edges_on_model_levels(e, k) * vn_avg * static_cast<wp>(ddqz_z_full_e(e, k));
    mass_flux_at_edges_on_model_levels(e, k) = mass_flux;
    theta_v_flux_at_edges_on_model_levels(e, k) =
        mass_flux * theta_v_at_edges_on_model_levels(e, k);
    const wp vn_k = vn(e, k);
    vn_on_half_levels(e, k) = half_level_value(wgtfac_e, e, k, vn_k, k > 0 ? vn(e, k - 1) : wp(0));
    tangential_wind_on_half_levels(e, k) = tangential_wind_half_level_value(
        wgtfac_e, e, k, vt,
        k > 0 ? rbf_tangential_wind(rbf_vec_coeff_e, vn, e2c2e, e, k - 1) : vp(0));
    horizontal_kinetic_energy_at_edges_on_model_levels(e, k) = kinetic_energy(vn_k, vt);
    if (k >= nflatlev)
      contravariant_correction_at_edges_on_model_levels(e, k) =
          contravariant_correction(vn_k, ddxn_z_full(e, k), ddxt_z_full(e, k), vt);
  }
};

template <class MemorySpace>
struct ComputeAveragedVnAndFluxes {
  static constexpr const char* name = "compute_averaged_vn_and_fluxes";

  OutField<wp, MemorySpace> spatially_averaged_vn;
  OutField<wp, MemorySpace> mass_flux_at_edges_on_model_levels;
  OutField<wp, MemorySpace> theta_v_flux_at_edges_on_model_levels;
  OutField<wp, MemorySpace> substep_and_spatially_averaged_vn;  ///< in/out with prepare_advection
  OutField<wp, MemorySpace> substep_averaged_mass_flux;         ///< in/out with prepare_advection
  ConstField<wp, MemorySpace> vn;
  ConstField<wp, MemorySpace> rho_at_edges_on_model_levels;
  ConstField<wp, MemorySpace> theta_v_at_edges_on_model_levels;
  ConstField<wp, MemorySpace> e_flx_avg;  ///< (E, 5) E2C2EO order
  ConstField<vp, MemorySpace> ddqz_z_full_e;
  ConstIndexTable<MemorySpace> e2c2eo;  ///< skip values replaced

  bool prepare_advection = false;
  bool at_first_substep = false;
  wp r_nsubsteps = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    const wp vn_avg = spatially_averaged(e_flx_avg, vn, e2c2eo, e, k);
    spatially_averaged_vn(e, k) = vn_avg;
    const wp mass_flux =
        rho_at_edges_on_model_levels(e, k) * vn_avg * static_cast<wp>(ddqz_z_full_e(e, k));
    mass_flux_at_edges_on_model_levels(e, k) = mass_flux;
    theta_v_flux_at_edges_on_model_levels(e, k) =
        mass_flux * theta_v_at_edges_on_model_levels(e, k);
    if (!prepare_advection) return;
    if (at_first_substep) {
      substep_and_spatially_averaged_vn(e, k) = r_nsubsteps * vn_avg;
      substep_averaged_mass_flux(e, k) = r_nsubsteps * mass_flux;
    } else {  // _accumulate_prep_adv_fields
      substep_and_spatially_averaged_vn(e, k) =
          substep_and_spatially_averaged_vn(e, k) + r_nsubsteps * vn_avg;
      substep_averaged_mass_flux(e, k) = substep_averaged_mass_flux(e, k) + r_nsubsteps * mass_flux;
    }
  }
};

}  // namespace icondiff::stencils
