// Six small programs of ICON4Py 0.2.0's solve_nonhydro, each an ICON4Py module of its own under
// stencils/ and each a (point, level) body here, in ICON4Py's operation order and casts (so bit-
// identical to its gtfn backend in double precision):
//  * ComputeExnerFromRhotheta (compute_exner_from_rhotheta, ex stencil 67): on the limited-area
//    boundary, where exner holds theta_v: theta_v = exner, exner = exp(rd/cvd log(rd/p0ref rho
//    theta_v));
//  * UpdateThetaAndExnerInHalo (update_theta_and_exner_in_halo, ex 66 and 68): in the halo,
//    theta_v from the exner change on prognostic cells (mask_prog_halo_c), exner from rho theta_v
//    on the others;
//  * InitCellKdimFieldWithZeroWp (init_cell_kdim_field_with_zero_wp, ex 57/64): zero;
//  * UpdateMassFluxWeighted (update_mass_flux_weighted, ex 65): the vertical mass flux for tracer
//    advection accumulated with the implicit weights;
//  * ComputeDwdzForDivergenceDamping (compute_dwdz_for_divergence_damping, ex 56/63): dw/dz of
//    the contravariant vertical wind;
//  * ComputeHydrostaticCorrectionTerm (compute_hydrostatic_correction_term, ex 21): the
//    hydrostatic correction of the pressure gradient at the edges' neighbour levels
//    (vertoffset_gradp, zdiff_gradp).
#pragma once

#include <icondiff/core/physical_constants.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/stencils/stencil_types.hpp>

#include <icondiff/kokkos_compat.hpp>

namespace icondiff::stencils {

/// exp(rd/cvd log(rd/p0ref rho theta_v)): exner from density and virtual potential temperature.
KOKKOS_INLINE_FUNCTION wp exner_from_rho_theta(const wp rho, const wp theta_v) {
  return compat::exp(physics::rd_o_cvd * compat::log(physics::rd_o_p0ref * rho * theta_v));
}

template <class MemorySpace>
struct ComputeExnerFromRhotheta {
  static constexpr const char* name = "compute_exner_from_rhotheta";
  ConstField<wp, MemorySpace> rho;
  OutField<wp, MemorySpace> theta_v;  ///< out: the exner field's values (theta_v there)
  OutField<wp, MemorySpace> exner;    ///< in/out
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    const wp theta = exner(c, k);
    theta_v(c, k) = theta;
    exner(c, k) = exner_from_rho_theta(rho(c, k), theta);
  }
};

template <class MemorySpace>
struct UpdateThetaAndExnerInHalo {
  static constexpr const char* name = "update_theta_and_exner_in_halo";
  ConstVector<int, MemorySpace> mask_prog_halo_c;
  ConstField<wp, MemorySpace> rho_now;
  ConstField<wp, MemorySpace> rho_new;
  ConstField<wp, MemorySpace> theta_v_now;
  OutField<wp, MemorySpace> theta_v_new;  ///< out
  OutField<wp, MemorySpace> exner_new;    ///< in/out
  ConstField<wp, MemorySpace> exner_now;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    const wp exner = exner_new(c, k);
    if (mask_prog_halo_c(c) != 0) {
      theta_v_new(c, k) = rho_now(c, k) * theta_v_now(c, k) *
                          ((exner / exner_now(c, k) - wp(1)) * physics::cvd_o_rd + wp(1)) /
                          rho_new(c, k);
    } else {
      theta_v_new(c, k) = exner;
      exner_new(c, k) = exner_from_rho_theta(rho_new(c, k), exner);
    }
  }
};

template <class MemorySpace>
struct InitCellKdimFieldWithZeroWp {
  static constexpr const char* name = "init_cell_kdim_field_with_zero_wp";
  OutField<wp, MemorySpace> field_with_zero_wp;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    field_with_zero_wp(c, k) = wp(0);
  }
};

template <class MemorySpace>
struct UpdateMassFluxWeighted {
  static constexpr const char* name = "update_mass_flux_weighted";
  ConstField<wp, MemorySpace> rho_ic;
  ConstVector<wp, MemorySpace> exner_w_explicit_weight_parameter;  ///< ICON4Py: vwind_expl_wgt
  ConstVector<wp, MemorySpace> exner_w_implicit_weight_parameter;  ///< ICON4Py: vwind_impl_wgt
  ConstField<wp, MemorySpace> w_now;
  ConstField<wp, MemorySpace> w_new;
  ConstField<vp, MemorySpace> w_concorr_c;
  OutField<wp, MemorySpace> mass_flx_ic;  ///< in/out
  wp r_nsubsteps = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    mass_flx_ic(c, k) =
        mass_flx_ic(c, k) + r_nsubsteps * rho_ic(c, k) *
                                (exner_w_explicit_weight_parameter(c) * w_now(c, k) +
                                 exner_w_implicit_weight_parameter(c) * w_new(c, k) -
                                 static_cast<wp>(w_concorr_c(c, k)));
  }
};

template <class MemorySpace>
struct ComputeDwdzForDivergenceDamping {
  static constexpr const char* name = "compute_dwdz_for_divergence_damping";
  ConstField<vp, MemorySpace> inv_ddqz_z_full;
  ConstField<wp, MemorySpace> w;            ///< (C, nlev + 1)
  ConstField<vp, MemorySpace> w_concorr_c;  ///< (C, nlev + 1)
  OutField<vp, MemorySpace> z_dwdz_dd;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    z_dwdz_dd(c, k) = static_cast<vp>(
        static_cast<wp>(inv_ddqz_z_full(c, k)) *
        ((w(c, k) - w(c, k + 1)) - static_cast<wp>(w_concorr_c(c, k) - w_concorr_c(c, k + 1))));
  }
};

template <class MemorySpace>
struct ComputeHydrostaticCorrectionTerm {
  static constexpr const char* name = "compute_hydrostatic_correction_term";
  ConstField<wp, MemorySpace> theta_v;
  Kokkos::View<const int***, FieldLayout, MemorySpace>
      vertoffset_gradp;                      ///< (E, 2, K) relative levels; ICON4Py: ikoffset
  ConstField3<vp, MemorySpace> zdiff_gradp;  ///< (E, 2, K)
  ConstField<wp, MemorySpace> theta_v_ic;    ///< (C, nlev + 1)
  ConstField<vp, MemorySpace> inv_ddqz_z_full;
  ConstVector<wp, MemorySpace> inverse_dual_edge_lengths;  ///< ICON4Py: inv_dual_edge_length
  OutField<vp, MemorySpace> z_hydro_corr;
  ConstIndexTable<MemorySpace> e2c;  ///< skip values replaced

  /// theta_v extrapolated from the neighbour's level k + ikoffset to the edge's height.
  KOKKOS_INLINE_FUNCTION wp theta_at_edge_height(const index_t e, const int side,
                                                 const index_t k) const {
    const index_t c = e2c(e, side);
    const index_t kk = k + vertoffset_gradp(e, side, k);
    return theta_v(c, kk) + static_cast<wp>(zdiff_gradp(e, side, k)) *
                                (theta_v_ic(c, kk) - theta_v_ic(c, kk + 1)) *
                                static_cast<wp>(inv_ddqz_z_full(c, kk));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    const wp z_theta_0 = theta_at_edge_height(e, 0, k);
    const wp z_theta_1 = theta_at_edge_height(e, 1, k);
    z_hydro_corr(e, k) = static_cast<vp>(physics::grav_o_cpd * inverse_dual_edge_lengths(e) *
                                         (z_theta_1 - z_theta_0) * wp(4) /
                                         ((z_theta_0 + z_theta_1) * (z_theta_0 + z_theta_1)));
  }
};

/// stencils_61_62 (ex 61 and 62): the limited-area boundary's new state from the boundary
/// tendencies; "exner" gets theta_v (compute_exner_from_rhotheta turns it into exner later). On
/// the domain's last level only w.
template <class MemorySpace>
struct Stencils6162 {
  static constexpr const char* name = "stencils_61_62";
  ConstField<wp, MemorySpace> rho_now;
  ConstField<wp, MemorySpace> grf_tend_rho;
  ConstField<wp, MemorySpace> theta_v_now;
  ConstField<wp, MemorySpace> grf_tend_thv;
  ConstField<wp, MemorySpace> w_now;       ///< (C, nlev + 1)
  ConstField<wp, MemorySpace> grf_tend_w;  ///< (C, nlev + 1)
  OutField<wp, MemorySpace> rho_new;
  OutField<wp, MemorySpace> exner_new;  ///< out: theta_v
  OutField<wp, MemorySpace> w_new;      ///< (C, nlev + 1)
  wp dtime = 0;
  index_t vertical_end = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    w_new(c, k) = w_now(c, k) + dtime * grf_tend_w(c, k);
    if (k == vertical_end - 1) return;
    rho_new(c, k) = rho_now(c, k) + dtime * grf_tend_rho(c, k);
    exner_new(c, k) = theta_v_now(c, k) + dtime * grf_tend_thv(c, k);
  }
};

/// dycore_utils.compute_rayleigh_damping_factor: 1 / (1 + dtime rayleigh_w) per level.
template <class MemorySpace>
struct ComputeRayleighDampingFactor {
  static constexpr const char* name = "compute_rayleigh_damping_factor";
  ConstVector<wp, MemorySpace> rayleigh_w;                              ///< (nlev + 1)
  Kokkos::View<wp*, FieldLayout, MemorySpace> rayleigh_damping_factor;  ///< (nlev) out
  wp dtime = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t k) const {
    rayleigh_damping_factor(k) = wp(1) / (wp(1) + dtime * rayleigh_w(k));
  }
};

/// compute_interpolation_and_nonhydro_buoy (the corrector's, ex 1-13): rho, theta_v and the
/// theta_v perturbation at half levels from the time-averaged state (with the vertical upwind
/// correction of the back trajectory), and the buoyancy term of w. Levels >= 1 (reads k - 1).
template <class MemorySpace>
struct ComputeInterpolationAndNonhydroBuoy {
  static constexpr const char* name = "compute_interpolation_and_nonhydro_buoy";
  OutField<wp, MemorySpace> rho_at_cells_on_half_levels;
  OutField<vp, MemorySpace> perturbed_theta_v_at_cells_on_half_levels;
  OutField<wp, MemorySpace> theta_v_at_cells_on_half_levels;
  OutField<vp, MemorySpace> nonhydro_buoy_at_cells_on_half_levels;
  ConstField<wp, MemorySpace> w;
  ConstField<vp, MemorySpace> contravariant_correction_at_cells_on_half_levels;
  ConstField<wp, MemorySpace> current_rho;
  ConstField<wp, MemorySpace> next_rho;
  ConstField<wp, MemorySpace> current_theta_v;
  ConstField<wp, MemorySpace> next_theta_v;
  ConstField<wp, MemorySpace> perturbed_exner_at_cells_on_model_levels;
  ConstField<vp, MemorySpace> theta_ref_mc;  ///< ICON4Py: reference_theta_at_cells_on_model_levels
  ConstField<vp, MemorySpace> ddz_of_reference_exner_at_cells_on_half_levels;
  ConstField<vp, MemorySpace> ddqz_z_half;
  ConstField<vp, MemorySpace> wgtfac_c;
  ConstVector<wp, MemorySpace> exner_w_explicit_weight_parameter;
  wp dtime = 0;
  wp rhotheta_explicit_weight_parameter = 0;
  wp rhotheta_implicit_weight_parameter = 0;

  KOKKOS_INLINE_FUNCTION wp time_averaged(const ConstField<wp, MemorySpace>& now,
                                          const ConstField<wp, MemorySpace>& next, const index_t c,
                                          const index_t k) const {
    return rhotheta_explicit_weight_parameter * now(c, k) +
           rhotheta_implicit_weight_parameter * next(c, k);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    const wp weight = static_cast<wp>(wgtfac_c(c, k));
    const wp ddqz = static_cast<wp>(ddqz_z_half(c, k));
    // Rounded to vp as ICON stores it (z_w_backtraj is REAL(vp), mo_solve_nonhydro.f90), then
    // promoted again; a no-op in double, where it equals ICON4Py's wp value.
    const wp back_trajectory_w = static_cast<wp>(static_cast<vp>(
        -(w(c, k) - static_cast<wp>(contravariant_correction_at_cells_on_half_levels(c, k))) *
        dtime * wp(0.5) / ddqz));
    const wp rho = time_averaged(current_rho, next_rho, c, k);
    const wp rho_above = time_averaged(current_rho, next_rho, c, k - 1);
    const wp theta = time_averaged(current_theta_v, next_theta_v, c, k);
    const wp theta_above = time_averaged(current_theta_v, next_theta_v, c, k - 1);
    rho_at_cells_on_half_levels(c, k) =
        weight * rho + (wp(1) - weight) * rho_above + back_trajectory_w * (rho_above - rho);
    const vp perturbation_above =
        static_cast<vp>(theta_above - static_cast<wp>(theta_ref_mc(c, k - 1)));
    const vp perturbation = static_cast<vp>(theta - static_cast<wp>(theta_ref_mc(c, k)));
    const vp weight_vp = wgtfac_c(c, k);
    const vp perturbed_theta_v =
        weight_vp * perturbation + (vp(1) - weight_vp) * perturbation_above;
    perturbed_theta_v_at_cells_on_half_levels(c, k) = perturbed_theta_v;
    const wp theta_v_ic =
        weight * theta + (wp(1) - weight) * theta_above + back_trajectory_w * (theta_above - theta);
    theta_v_at_cells_on_half_levels(c, k) = theta_v_ic;
    nonhydro_buoy_at_cells_on_half_levels(c, k) = static_cast<vp>(
        exner_w_explicit_weight_parameter(c) * theta_v_ic *
            (perturbed_exner_at_cells_on_model_levels(c, k - 1) -
             perturbed_exner_at_cells_on_model_levels(c, k)) /
            ddqz +
        static_cast<wp>(perturbed_theta_v * ddz_of_reference_exner_at_cells_on_half_levels(c, k)));
  }
};

}  // namespace icondiff::stencils
