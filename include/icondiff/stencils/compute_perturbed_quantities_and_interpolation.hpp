// solve_nonhydro's predictor program compute_perturbed_quantities_and_interpolation (ICON4Py
// 0.2.0 stencils/compute_cell_diagnostics_for_dycore.py; ICON's stencils 1-13 of the predictor,
// formerly fused_solve_nonhydro_stencil_1_to_13_predictor). ICON4Py runs it as six field
// operators one after the other, each reading what the ones before wrote; so does icondiff: one
// (cell, level) body whose `step` selects the operator, launched six times in this order:
//  1. temporal extrapolation of the exner perturbation and the new perturbation (levels [0, nlev));
//  2. on Taylor-hydrostatic pressure gradients (igradp_method 3), exner at the surface half level;
//  3. the rho and theta_v perturbations; rho, theta_v and the theta_v perturbation at half levels
//     (from level 1; the perturbation 0 on level 0); exner at half levels from max(1, nflatlev)
//     (Taylor); the buoyancy term of w (from level 1);
//  4. on the surface half level: the theta_v perturbation and theta_v, and exner;
//  5. (Taylor) the first vertical derivative of the extrapolated exner from nflatlev and its
//     second derivative from nflat_gradp;
//  6. the rho and theta_v perturbations on the second halo line.
// Every expression keeps ICON4Py's operation order and vp/wp casts.
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

template <class MemorySpace>
struct ComputePerturbedQuantitiesAndInterpolation {
  static constexpr const char* name = "compute_perturbed_quantities_and_interpolation";
  enum Step : int {
    extrapolate_exner = 1,
    surface_exner = 2,
    perturbations_and_interpolation = 3,
    surface_theta_and_exner = 4,
    vertical_derivatives = 5,
    second_halo_perturbations = 6
  };

  // Per-call fields (ICON4Py's program arguments).
  OutField<vp, MemorySpace> temporal_extrapolation_of_perturbed_exner;
  OutField<vp, MemorySpace> ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  OutField<vp, MemorySpace> d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  OutField<wp, MemorySpace> perturbed_exner_at_cells_on_model_levels;
  OutField<vp, MemorySpace> exner_at_cells_on_half_levels;
  OutField<vp, MemorySpace> perturbed_rho_at_cells_on_model_levels;
  OutField<vp, MemorySpace> perturbed_theta_v_at_cells_on_model_levels;
  OutField<wp, MemorySpace> rho_at_cells_on_half_levels;
  OutField<vp, MemorySpace> perturbed_theta_v_at_cells_on_half_levels;
  OutField<wp, MemorySpace> theta_v_at_cells_on_half_levels;
  OutField<vp, MemorySpace> nonhydro_buoy_at_cells_on_half_levels;
  ConstField<wp, MemorySpace> current_rho;
  ConstField<wp, MemorySpace> current_theta_v;
  ConstField<wp, MemorySpace> current_exner;

  // Static fields (statics/static_fields.hpp; ICON4Py's names noted where they differ).
  ConstField<vp, MemorySpace> reference_rho_at_cells_on_model_levels;
  ConstField<vp, MemorySpace> theta_ref_mc;  ///< ICON4Py: reference_theta_at_cells_on_model_levels
  ConstField<vp, MemorySpace> reference_theta_at_cells_on_half_levels;
  ConstField<vp, MemorySpace> wgtfacq_c;
  ConstField<vp, MemorySpace> wgtfac_c;
  ConstVector<wp, MemorySpace> exner_w_explicit_weight_parameter;
  ConstField<vp, MemorySpace> ddz_of_reference_exner_at_cells_on_half_levels;
  ConstField<vp, MemorySpace> ddqz_z_half;
  ConstField<vp, MemorySpace> time_extrapolation_parameter_for_exner;
  ConstField<vp, MemorySpace> reference_exner_at_cells_on_model_levels;
  ConstField<vp, MemorySpace> inv_ddqz_z_full;
  ConstField<vp, MemorySpace> d2dexdz2_fac1_mc;
  ConstField<vp, MemorySpace> d2dexdz2_fac2_mc;

  bool taylor_hydro = true;  ///< igradp_method == TAYLOR_HYDRO (3)
  index_t nflatlev = 0;
  index_t nflat_gradp = 0;
  int step = extrapolate_exner;

  /// _compute_perturbation_of_rho_and_theta at (c, k), rounded to vp.
  KOKKOS_INLINE_FUNCTION vp perturbed_rho(const index_t c, const index_t k) const {
    return static_cast<vp>(current_rho(c, k) -
                           static_cast<wp>(reference_rho_at_cells_on_model_levels(c, k)));
  }
  KOKKOS_INLINE_FUNCTION vp perturbed_theta(const index_t c, const index_t k) const {
    return static_cast<vp>(current_theta_v(c, k) - static_cast<wp>(theta_ref_mc(c, k)));
  }
  /// _interpolate_to_surface of `x` at the surface half level k (vp arithmetic).
  template <class Field>
  KOKKOS_INLINE_FUNCTION vp to_surface(const Field& x, const index_t c, const index_t k) const {
    return wgtfacq_c(c, k - 1) * x(c, k - 1) + wgtfacq_c(c, k - 2) * x(c, k - 2) +
           wgtfacq_c(c, k - 3) * x(c, k - 3);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    switch (step) {
      case extrapolate_exner: {  // _extrapolate_temporally_exner_pressure
        const wp exfac = static_cast<wp>(time_extrapolation_parameter_for_exner(c, k));
        const wp reference = static_cast<wp>(reference_exner_at_cells_on_model_levels(c, k));
        temporal_extrapolation_of_perturbed_exner(c, k) =
            static_cast<vp>((wp(1) + exfac) * (current_exner(c, k) - reference) -
                            exfac * perturbed_exner_at_cells_on_model_levels(c, k));
        perturbed_exner_at_cells_on_model_levels(c, k) = current_exner(c, k) - reference;
        return;
      }
      case surface_exner:  // _surface_computations
        if (taylor_hydro)
          exner_at_cells_on_half_levels(c, k) =
              to_surface(temporal_extrapolation_of_perturbed_exner, c, k);
        return;
      case perturbations_and_interpolation: return interpolate(c, k);
      case surface_theta_and_exner: {  // _set_theta_v_and_exner_on_surface_level
        const vp theta_pr_ic = to_surface(perturbed_theta_v_at_cells_on_model_levels, c, k);
        perturbed_theta_v_at_cells_on_half_levels(c, k) = theta_pr_ic;
        theta_v_at_cells_on_half_levels(c, k) =
            static_cast<wp>(reference_theta_at_cells_on_half_levels(c, k) + theta_pr_ic);
        exner_at_cells_on_half_levels(c, k) =
            to_surface(temporal_extrapolation_of_perturbed_exner, c, k);
        return;
      }
      case vertical_derivatives:  // _compute_first_and_second_vertical_derivative_of_exner
        if (!taylor_hydro) return;
        if (k >= nflatlev)
          ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels(c, k) =
              (exner_at_cells_on_half_levels(c, k) - exner_at_cells_on_half_levels(c, k + 1)) *
              inv_ddqz_z_full(c, k);
        if (k >= nflat_gradp)
          d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels(c, k) =
              -vp(0.5) *
              ((perturbed_theta_v_at_cells_on_half_levels(c, k) -
                perturbed_theta_v_at_cells_on_half_levels(c, k + 1)) *
                   d2dexdz2_fac1_mc(c, k) +
               perturbed_theta_v_at_cells_on_model_levels(c, k) * d2dexdz2_fac2_mc(c, k));
        return;
      case second_halo_perturbations:
        perturbed_rho_at_cells_on_model_levels(c, k) = perturbed_rho(c, k);
        perturbed_theta_v_at_cells_on_model_levels(c, k) = perturbed_theta(c, k);
        return;
      default: return;
    }
  }

  /// _compute_perturbed_quantities_and_interpolation (step 3).
  KOKKOS_INLINE_FUNCTION void interpolate(const index_t c, const index_t k) const {
    const vp wgt = wgtfac_c(c, k);
    const wp wgt_wp = static_cast<wp>(wgt);
    if (taylor_hydro && k >= (nflatlev > 1 ? nflatlev : 1))
      exner_at_cells_on_half_levels(c, k) =
          wgt * temporal_extrapolation_of_perturbed_exner(c, k) +
          (vp(1) - wgt) * temporal_extrapolation_of_perturbed_exner(c, k - 1);
    const vp theta_pr = perturbed_theta(c, k);
    perturbed_rho_at_cells_on_model_levels(c, k) = perturbed_rho(c, k);
    perturbed_theta_v_at_cells_on_model_levels(c, k) = theta_pr;
    if (k < 1) {
      perturbed_theta_v_at_cells_on_half_levels(c, k) = vp(0);
      return;
    }
    rho_at_cells_on_half_levels(c, k) =
        wgt_wp * current_rho(c, k) + (wp(1) - wgt_wp) * current_rho(c, k - 1);
    const vp theta_pr_ic = wgt * theta_pr + (vp(1) - wgt) * perturbed_theta(c, k - 1);
    perturbed_theta_v_at_cells_on_half_levels(c, k) = theta_pr_ic;
    const wp theta_ic =
        wgt_wp * current_theta_v(c, k) + (wp(1) - wgt_wp) * current_theta_v(c, k - 1);
    theta_v_at_cells_on_half_levels(c, k) = theta_ic;
    nonhydro_buoy_at_cells_on_half_levels(c, k) = static_cast<vp>(
        exner_w_explicit_weight_parameter(c) * theta_ic *
            (perturbed_exner_at_cells_on_model_levels(c, k - 1) -
             perturbed_exner_at_cells_on_model_levels(c, k)) /
            static_cast<wp>(ddqz_z_half(c, k)) +
        static_cast<wp>(theta_pr_ic * ddz_of_reference_exner_at_cells_on_half_levels(c, k)));
  }
};

}  // namespace icondiff::stencils
