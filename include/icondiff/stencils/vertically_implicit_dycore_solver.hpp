// ICON4Py 0.2.0's vertically_implicit_dycore_solver.py: the vertically implicit part of
// solve_nonhydro's predictor and corrector steps, as
//  * InterpolateContravariantCorrectionToHalfLevels, a (cell, level) body: the contravariant
//    correction from edges (full levels) to cells (half levels), with the quadratic extrapolation
//    to the surface on level nlev (predictor only);
//  * VerticallyImplicitSolver, a COLUMN body (one cell, its own loops over k; one thread per
//    column, neighbouring threads on neighbouring cells): surface boundary condition, flux
//    divergences, explicit parts of w, rho and exner, the tridiagonal solve for w (forward sweep,
//    back substitution), Rayleigh damping, the new rho/exner/theta_v and the optional outputs
//    (dw/dz for divergence damping, the dynamical exner increment, the vertical mass/volume fluxes
//    for tracer advection).
// Every expression keeps ICON4Py's operation order and its vp/wp conversions (the tridiagonal
// coefficients a, b, c, gamma and the sweep's normalisation are vp, as in ICON4Py), so double
// results are bit-identical to ICON4Py's gtfn backend.
//
// The column body makes two passes over k. Forward (top down): everything the sweep needs at k
// comes from k-1 (held in registers) and k, k+1 (read); the sweep's z_q goes to a scratch field,
// its right-hand side to next_w, the explicit rho/exner parts to next_rho/next_exner (each is
// overwritten at the same level in the second pass). Backward (bottom up): back substitution,
// Rayleigh damping and every result at k, which needs only the damped w at k and k+1.
#pragma once

#include <icondiff/core/physical_constants.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

/// _interpolate_contravariant_correction_from_edges_on_model_levels_to_cells_on_half_levels on
/// levels [flat_level_index_plus1, nlev]: level k < nlev from edges' levels k-1 and k, level
/// nlev by the quadratic extrapolation from levels nlev-1..nlev-3 (wgtfacq_c).
template <class MemorySpace>
struct InterpolateContravariantCorrectionToHalfLevels {
  static constexpr const char* name =
      "interpolate_contravariant_correction_from_edges_on_model_levels_to_cells_on_half_levels";
  ConstField<vp, MemorySpace> contravariant_correction_at_edges_on_model_levels;  ///< (E, K)
  ConstField<wp, MemorySpace> e_bln_c_s;  ///< (C, 3) C2E order
  ConstField<vp, MemorySpace> wgtfac_c;   ///< (C, K+1)
  ConstField<vp, MemorySpace> wgtfacq_c;  ///< (C, K): levels nlev-3..nlev-1 are read
  ConstIndexTable<MemorySpace> c2e;       ///< skip values replaced
  index_t nlev = 0;
  OutField<vp, MemorySpace> contravariant_correction_at_cells_on_half_levels;  ///< (C, K+1)

  /// The edge field averaged to cell c on full level k, rounded to vp.
  KOKKOS_INLINE_FUNCTION vp at_cell(const index_t c, const index_t k) const {
    wp s = 0;
    for (int j = 0; j < 3; ++j)
      s += e_bln_c_s(c, j) *
           static_cast<wp>(contravariant_correction_at_edges_on_model_levels(c2e(c, j), k));
    return static_cast<vp>(s);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    vp w_concorr;
    if (k < nlev) {
      const vp m1 = at_cell(c, k - 1), m0 = at_cell(c, k);
      w_concorr = wgtfac_c(c, k) * m0 + (vp(1) - wgtfac_c(c, k)) * m1;
    } else {
      const vp m1 = at_cell(c, k - 1), m2 = at_cell(c, k - 2), m3 = at_cell(c, k - 3);
      w_concorr = wgtfacq_c(c, k - 1) * m1 + wgtfacq_c(c, k - 2) * m2 + wgtfacq_c(c, k - 3) * m3;
    }
    contravariant_correction_at_cells_on_half_levels(c, k) = w_concorr;
  }
};

/// vertically_implicit_solver_at_predictor_step / _at_corrector_step for one column over levels
/// [0, nlev) plus the surface boundary condition on level nlev. Fields the step does not use
/// stay empty.
template <class MemorySpace>
struct VerticallyImplicitSolver {
  static constexpr const char* predictor_name = "vertically_implicit_solver_at_predictor_step";
  static constexpr const char* corrector_name = "vertically_implicit_solver_at_corrector_step";

  // In/out.
  OutField<wp, MemorySpace> next_w;  ///< (C, K+1)
  OutField<wp, MemorySpace> next_rho;
  OutField<wp, MemorySpace> next_exner;
  OutField<wp, MemorySpace> next_theta_v;
  OutField<vp, MemorySpace> dwdz_at_cells_on_model_levels;  ///< predictor, divdamp_type >= 3
  OutField<vp, MemorySpace> exner_dynamical_increment;
  OutField<wp, MemorySpace> dynamical_vertical_mass_flux_at_cells_on_half_levels;  ///< corrector
  OutField<wp, MemorySpace> dynamical_vertical_volumetric_flux_at_cells_on_half_levels;
  OutField<vp, MemorySpace> z_q;  ///< (C, K) scratch: the sweep's upper-diagonal coefficients
  // Inputs.
  ConstField<wp, MemorySpace> mass_flux_at_edges_on_model_levels;                ///< (E, K)
  ConstField<wp, MemorySpace> theta_v_flux_at_edges_on_model_levels;             ///< (E, K)
  ConstField<vp, MemorySpace> predictor_vertical_wind_advective_tendency;        ///< (C, K+1)
  ConstField<vp, MemorySpace> corrector_vertical_wind_advective_tendency;        ///< (C, K+1)
  ConstField<vp, MemorySpace> nonhydro_buoy_at_cells_on_half_levels;             ///< (C, K)
  ConstField<wp, MemorySpace> rho_at_cells_on_half_levels;                       ///< (C, K+1)
  ConstField<vp, MemorySpace> contravariant_correction_at_cells_on_half_levels;  ///< (C, K+1)
  ConstField<wp, MemorySpace> current_exner;
  ConstField<wp, MemorySpace> current_rho;
  ConstField<wp, MemorySpace> current_theta_v;
  ConstField<wp, MemorySpace> current_w;                        ///< (C, K+1)
  ConstField<wp, MemorySpace> theta_v_at_cells_on_half_levels;  ///< (C, K+1)
  ConstField<wp, MemorySpace> perturbed_exner_at_cells_on_model_levels;
  ConstField<vp, MemorySpace> exner_tendency_due_to_slow_physics;
  ConstField<vp, MemorySpace> rho_iau_increment;
  ConstField<vp, MemorySpace> exner_iau_increment;
  ConstVector<wp, MemorySpace> rayleigh_damping_factor;  ///< (K)
  // Static fields.
  ConstField<wp, MemorySpace> geofac_div;                          ///< (C, 3) C2E order
  ConstVector<wp, MemorySpace> exner_w_explicit_weight_parameter;  ///< (C)
  ConstVector<wp, MemorySpace> exner_w_implicit_weight_parameter;  ///< (C)
  ConstField<vp, MemorySpace> inv_ddqz_z_full;
  ConstField<vp, MemorySpace> ddqz_z_half;  ///< (C, K+1)
  ConstField<vp, MemorySpace> reference_exner_at_cells_on_model_levels;
  ConstIndexTable<MemorySpace> c2e;  ///< skip values replaced

  bool corrector = false;
  wp dtime = 0;
  bool is_iau_active = false;
  wp iau_wgt_dyn = 0;
  bool klemp_rayleigh_damping = false;  ///< rayleigh_type == KLEMP
  bool compute_dwdz = false;            ///< predictor with divdamp_type >= 3
  bool at_first_substep = false;
  bool at_last_substep = false;
  bool lprep_adv = false;  ///< corrector: accumulate the fluxes for tracer advection
  wp advection_explicit_weight_parameter = 0;
  wp advection_implicit_weight_parameter = 0;
  wp r_nsubsteps = 0;
  wp ndyn_substeps_var = 0;
  index_t end_index_of_damping_layer = 0;
  index_t kstart_moist = 0;
  index_t nlev = 0;

  /// z_contr_w_fl_l: the explicit part of the contravariant vertical mass flux on half level k
  /// (0 at the model top and the surface).
  KOKKOS_INLINE_FUNCTION wp vertical_mass_flux(const index_t c, const index_t k) const {
    if (k < 1 || k >= nlev) return 0;
    return rho_at_cells_on_half_levels(c, k) *
           (-static_cast<wp>(contravariant_correction_at_cells_on_half_levels(c, k)) +
            exner_w_explicit_weight_parameter(c) * current_w(c, k));
  }
  /// z_beta (vp): dt Rd exner / (cvd rho theta_v dz) on full level k.
  KOKKOS_INLINE_FUNCTION vp beta(const index_t c, const index_t k) const {
    return static_cast<vp>(dtime * physics::rd * current_exner(c, k) /
                           (physics::cvd * current_rho(c, k) * current_theta_v(c, k)) *
                           static_cast<wp>(inv_ddqz_z_full(c, k)));
  }
  /// z_alpha (vp) on half level k: implicit weight x theta_v x rho there, 0 at the surface.
  KOKKOS_INLINE_FUNCTION vp alpha(const index_t c, const index_t k) const {
    if (k >= nlev) return vp(0);
    return static_cast<vp>(exner_w_implicit_weight_parameter(c) *
                           theta_v_at_cells_on_half_levels(c, k) *
                           rho_at_cells_on_half_levels(c, k));
  }
  /// z_w_expl on half level k >= 1.
  KOKKOS_INLINE_FUNCTION wp w_explicit_term(const index_t c, const index_t k) const {
    const wp buoy = static_cast<wp>(nonhydro_buoy_at_cells_on_half_levels(c, k));
    const wp predictor = static_cast<wp>(predictor_vertical_wind_advective_tendency(c, k));
    if (!corrector) return current_w(c, k) + dtime * (predictor - physics::cpd * buoy);
    const wp corrected = static_cast<wp>(corrector_vertical_wind_advective_tendency(c, k));
    return current_w(c, k) +
           dtime * (advection_explicit_weight_parameter * predictor +
                    advection_implicit_weight_parameter * corrected - physics::cpd * buoy);
  }

  /// What the forward pass carries from level k-1 to level k of one column.
  struct ForwardState {
    vp beta_above = 0, alpha_above = 0;  // z_beta(k-1), z_alpha(k-1)
    vp alpha_k = 0;                      // z_alpha(k)
    wp flux_k = 0;                       // z_contr_w_fl_l(k): 0 at the model top
    wp exner_expl_above = 0;             // z_exner_expl(k-1)
    vp q_above = 0;                      // the sweep's state at k-1: (c_new, d_new)
    wp d_above = 0;
  };
  /// What the backward pass carries from level k+1 to level k.
  struct BackwardState {
    wp w_state = 0;      // the back substitution's state: undamped w(k+1), 0 below nlev-1
    wp w_below = 0;      // final w(k+1): the surface boundary condition first
    vp alpha_below = 0;  // z_alpha(k+1): z_alpha(nlev) = 0
  };

  /// _set_surface_boundary_condition_for_computation_of_w and the forward pass's start.
  KOKKOS_INLINE_FUNCTION ForwardState start_forward(const index_t c) const {
    next_w(c, nlev) = static_cast<wp>(contravariant_correction_at_cells_on_half_levels(c, nlev));
    ForwardState s;
    s.alpha_k = alpha(c, 0);
    return s;
  }

  /// Forward pass (top down) at level k: explicit parts and the forward sweep.
  KOKKOS_FORCEINLINE_FUNCTION void forward(const index_t c, const index_t k,
                                           ForwardState& s) const {
    const wp vwind_impl_wgt = exner_w_implicit_weight_parameter(c);
    // _compute_divergence_of_fluxes_of_rho_and_theta.
    wp div_mass = 0, div_theta = 0;
    for (int j = 0; j < 3; ++j) {
      const index_t e = c2e(c, j);
      div_mass += geofac_div(c, j) * mass_flux_at_edges_on_model_levels(e, k);
      div_theta += geofac_div(c, j) * theta_v_flux_at_edges_on_model_levels(e, k);
    }
    const vp flxdiv_mass = static_cast<vp>(div_mass), flxdiv_theta = static_cast<vp>(div_theta);
    const wp flux_below = vertical_mass_flux(c, k + 1);
    const vp beta_k = beta(c, k);
    const vp alpha_below = alpha(c, k + 1);
    // _compute_explicit_part_for_rho_and_exner, then the IAU increments.
    wp rho_expl = current_rho(c, k) - dtime * static_cast<wp>(inv_ddqz_z_full(c, k)) *
                                          (static_cast<wp>(flxdiv_mass) + s.flux_k - flux_below);
    wp exner_expl =
        perturbed_exner_at_cells_on_model_levels(c, k) -
        static_cast<wp>(beta_k) *
            (static_cast<wp>(flxdiv_theta) + theta_v_at_cells_on_half_levels(c, k) * s.flux_k -
             theta_v_at_cells_on_half_levels(c, k + 1) * flux_below) +
        dtime * static_cast<wp>(exner_tendency_due_to_slow_physics(c, k));
    if (is_iau_active) {
      rho_expl = rho_expl + iau_wgt_dyn * static_cast<wp>(rho_iau_increment(c, k));
      exner_expl = exner_expl + iau_wgt_dyn * static_cast<wp>(exner_iau_increment(c, k));
    }
    // tridiagonal_forward_sweep_for_w on levels k >= 1; level 0 (the model top) is w = 0,
    // z_q = 0, which is also the sweep's initial state.
    vp q = 0;
    wp d = 0;
    if (k > 0) {
      const vp gamma = static_cast<vp>(dtime * physics::cpd * vwind_impl_wgt *
                                       theta_v_at_cells_on_half_levels(c, k) /
                                       static_cast<wp>(ddqz_z_half(c, k)));
      const vp a = (vp(0) - gamma) * s.beta_above * s.alpha_above;
      const vp upper = (vp(0) - gamma) * beta_k * alpha_below;
      const vp b = vp(1) + gamma * s.alpha_k * (s.beta_above + beta_k);
      const wp w_prep =
          w_explicit_term(c, k) - static_cast<wp>(gamma) * (s.exner_expl_above - exner_expl);
      const vp normalization = vp(1) / (b + a * s.q_above);
      q = (vp(0) - upper) * normalization;
      d = (w_prep - static_cast<wp>(a) * s.d_above) * static_cast<wp>(normalization);
    }
    z_q(c, k) = q;
    next_w(c, k) = d;
    next_rho(c, k) = rho_expl;      // z_rho_expl until the backward pass
    next_exner(c, k) = exner_expl;  // z_exner_expl until the backward pass
    s.q_above = q;
    s.d_above = d;
    s.exner_expl_above = exner_expl;
    s.beta_above = beta_k;
    s.alpha_above = s.alpha_k;
    s.alpha_k = alpha_below;
    s.flux_k = flux_below;
  }

  KOKKOS_INLINE_FUNCTION BackwardState start_backward(const index_t c) const {
    BackwardState s;
    s.w_below = next_w(c, nlev);
    return s;
  }

  /// Backward pass (bottom up) at level k: back substitution, Rayleigh damping, results.
  KOKKOS_FORCEINLINE_FUNCTION void backward(const index_t c, const index_t k,
                                            BackwardState& s) const {
    const wp vwind_impl_wgt = exner_w_implicit_weight_parameter(c);
    const wp w_undamped = next_w(c, k) + s.w_state * static_cast<wp>(z_q(c, k));
    s.w_state = w_undamped;
    const bool damped = klemp_rayleigh_damping && k > 0 && k < end_index_of_damping_layer + 1;
    const wp w = damped ? rayleigh_damping_factor(k) * w_undamped : w_undamped;
    next_w(c, k) = w;

    // _compute_results_for_thermodynamic_variables.
    const vp beta_k = beta(c, k), alpha_k = alpha(c, k);
    const wp rho_ic = rho_at_cells_on_half_levels(c, k);
    const wp rho_new =
        next_rho(c, k) - vwind_impl_wgt * dtime * static_cast<wp>(inv_ddqz_z_full(c, k)) *
                             (rho_ic * w - rho_at_cells_on_half_levels(c, k + 1) * s.w_below);
    const wp exner_new =
        next_exner(c, k) + static_cast<wp>(reference_exner_at_cells_on_model_levels(c, k)) -
        static_cast<wp>(beta_k) *
            (static_cast<wp>(alpha_k) * w - static_cast<wp>(s.alpha_below) * s.w_below);
    const wp theta_v_new =
        current_rho(c, k) * current_theta_v(c, k) *
        ((exner_new / current_exner(c, k) - wp(1)) * (physics::cvd / physics::rd) + wp(1)) /
        rho_new;
    next_rho(c, k) = rho_new;
    next_exner(c, k) = exner_new;
    next_theta_v(c, k) = theta_v_new;

    if (!corrector) {
      if (compute_dwdz) {  // _compute_dwdz_for_divergence_damping
        const auto& w_concorr = contravariant_correction_at_cells_on_half_levels;
        dwdz_at_cells_on_model_levels(c, k) = static_cast<vp>(
            static_cast<wp>(inv_ddqz_z_full(c, k)) *
            ((w - s.w_below) - static_cast<wp>(w_concorr(c, k) - w_concorr(c, k + 1))));
      }
      if (at_first_substep && k >= kstart_moist)
        exner_dynamical_increment(c, k) = static_cast<vp>(current_exner(c, k));
    } else {
      if (lprep_adv) {  // _update_mass_volume_flux, from zero on the first substep
        auto& mass = dynamical_vertical_mass_flux_at_cells_on_half_levels;
        auto& volume = dynamical_vertical_volumetric_flux_at_cells_on_half_levels;
        const wp mass_before = at_first_substep ? wp(0) : mass(c, k);
        const wp volume_before = at_first_substep ? wp(0) : volume(c, k);
        if (k >= 1) {
          const wp z_a = r_nsubsteps * (vertical_mass_flux(c, k) + rho_ic * vwind_impl_wgt * w);
          mass(c, k) = mass_before + z_a;
          volume(c, k) = volume_before + z_a / rho_ic;
        } else {
          mass(c, k) = mass_before;
          volume(c, k) = volume_before;
        }
      }
      if (at_last_substep && k >= kstart_moist)  // _update_dynamical_exner_time_increment
        exner_dynamical_increment(c, k) = static_cast<vp>(
            exner_new - (static_cast<wp>(exner_dynamical_increment(c, k)) +
                         ndyn_substeps_var * dtime *
                             static_cast<wp>(exner_tendency_due_to_slow_physics(c, k))));
    }
    s.w_below = w;
    s.alpha_below = alpha_k;
  }

  /// One column (GPUs: one thread per column, neighbouring threads on neighbouring cells).
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c) const {
    ForwardState f = start_forward(c);
    for (index_t k = 0; k < nlev; ++k) forward(c, k, f);
    BackwardState b = start_backward(c);
    for (index_t k = nlev - 1; k >= 0; --k) backward(c, k, b);
  }

  /// Columns [c_begin, c_end), at most block_size, level by level with the cells innermost
  /// (CPUs: every level's loads are unit-stride streams, as in ICON's nproma loops).
  static constexpr int block_size = 16;
  KOKKOS_INLINE_FUNCTION void columns(const index_t c_begin, const index_t c_end) const {
    const int n = static_cast<int>(c_end - c_begin);
    ForwardState f[block_size];
    for (int i = 0; i < n; ++i) f[i] = start_forward(c_begin + i);
    for (index_t k = 0; k < nlev; ++k)
      for (int i = 0; i < n; ++i) forward(c_begin + i, k, f[i]);
    BackwardState b[block_size];
    for (int i = 0; i < n; ++i) b[i] = start_backward(c_begin + i);
    for (index_t k = nlev - 1; k >= 0; --k)
      for (int i = 0; i < n; ++i) backward(c_begin + i, k, b[i]);
  }
};

}  // namespace icondiff::stencils
