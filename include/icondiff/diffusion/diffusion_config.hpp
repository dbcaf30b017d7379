// Configuration of the diffusion granule: every field of ICON4Py's DiffusionConfig
// (diffusion_spec.md §2.1) with the ICON namelist variable it corresponds to.
#pragma once

#include <icondiff/core/config_table.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace icondiff {

/// diffusion_nml:hdiff_order. Only SmagorinskyFourthOrder (5) is implemented (as in ICON4Py).
enum class DiffusionType : int {
  NoDiffusion = -1,
  Linear2ndOrder = 2,
  SmagorinskyNoBackground = 3,
  Linear4thOrder = 4,
  SmagorinskyFourthOrder = 5,
};

/// diffusion_nml:itype_vn_diffu. Only DiamondVertices (1) is implemented.
enum class SmagorinskyStencilType : int { DiamondVertices = 1, CellsAndVertices = 2 };

/// diffusion_nml:itype_t_diffu. Only Heterogeneous (2, div(K grad theta)) is implemented.
enum class TemperatureDiscretizationType : int { Homogeneous = 1, Heterogeneous = 2 };

/// turbdiff_nml:itype_sher. 0, 1 and 2 are implemented; 2 also computes dwdx, dwdy.
enum class TurbulenceShearForcingType : int {
  VerticalOfHorizontalWind = 0,
  VerticalHorizontalOfHorizontalWind = 1,
  VerticalHorizontalOfHorizontalVerticalWind = 2,
  VerticalHorizontalOfHorizontalWindLtheshs = 3,
};

/// run_nml:iforcing. Decides whether the final halo exchanges (X5, X6) run.
enum class ForcingType : int { NoForcing = 0, Aes = 2, Nwp = 3 };

struct DiffusionConfig {
  DiffusionType diffusion_type =
      DiffusionType::SmagorinskyFourthOrder;  ///< diffusion_nml:hdiff_order
  /// diffusion_nml:lhdiff_w. Not read by run(): w is always diffused (as in ICON4Py).
  bool apply_to_vertical_wind = true;
  /// diffusion_nml:lhdiff_vn. Not read by run(): the caller decides whether to call it.
  bool apply_to_horizontal_wind = true;
  bool apply_to_temperature = true;               ///< diffusion_nml:lhdiff_temp
  bool apply_smag_diff_to_vertical_wind = false;  ///< diffusion_nml:lhdiff_smag_w (must be false)
  bool compute_3d_smag_coeff = false;             ///< diffusion_nml:lsmag_3d (must be false)
  SmagorinskyStencilType type_vn_diffu =
      SmagorinskyStencilType::DiamondVertices;  ///< itype_vn_diffu
  TemperatureDiscretizationType type_t_diffu =
      TemperatureDiscretizationType::Heterogeneous;  ///< itype_t_diffu
  double hdiff_efdt_ratio = 36.0;                    ///< diffusion_nml:hdiff_efdt_ratio
  double hdiff_w_efdt_ratio = 15.0;                  ///< diffusion_nml:hdiff_w_efdt_ratio
  double smagorinski_scaling_factor = 0.015;         ///< diffusion_nml:hdiff_smag_fac
  /// diffusion_nml:hdiff_smag_fac2 (ICON's default expression, evaluated as ICON4Py does)
  double smagorinski_scaling_factor2 =
      2e-6 * (1600.0 + 25000.0 + std::sqrt(1600.0 * (1600.0 + 50000.0)));
  double smagorinski_scaling_factor3 = 0.0;     ///< diffusion_nml:hdiff_smag_fac3
  double smagorinski_scaling_factor4 = 1.0;     ///< diffusion_nml:hdiff_smag_fac4
  double smagorinski_scaling_height = 32500.0;  ///< diffusion_nml:hdiff_smag_z
  /// diffusion_nml:hdiff_smag_z2 (ICON's default expression)
  double smagorinski_scaling_height2 = 1600.0 + 50000.0 + std::sqrt(1600.0 * (1600.0 + 50000.0));
  double smagorinski_scaling_height3 = 50000.0;  ///< diffusion_nml:hdiff_smag_z3
  double smagorinski_scaling_height4 = 90000.0;  ///< diffusion_nml:hdiff_smag_z4
  bool apply_zdiffusion_t = true;                ///< nonhydrostatic_nml:l_zdiffu_t
  int ndyn_substeps = 5;                         ///< nonhydrostatic_nml:ndyn_substeps
  double temperature_boundary_diffusion_denominator =
      135.0;                                               ///< gridref_nml:denom_diffu_t (unused)
  double velocity_boundary_diffusion_denominator = 200.0;  ///< gridref_nml:denom_diffu_v
  /// interpol_nml:nudge_max_coeff times 5 (ICON4Py stores the scaled value). The interpolation
  /// factory's nudgecoeff_e must be built with the same value.
  double max_nudging_coefficient = 0.1;
  TurbulenceShearForcingType shear_type =
      TurbulenceShearForcingType::VerticalOfHorizontalWind;  ///< itype_sher
  ForcingType iforcing = ForcingType::NoForcing;             ///< run_nml:iforcing
  double a_hshr = 1.0;   ///< turbdiff_nml:a_hshr (> 0 makes the turbulence diagnostics run)
  bool loutshs = false;  ///< ICON-internal output flag for horizontal shear

  /// Throws ConfigError naming the field, its ICON namelist name, the value and what is allowed.
  /// Options ICON4Py does not implement are rejected, never silently replaced. The rules are the
  /// per-field ones of diffusion_config_fields(), then those between the Smagorinsky profile's
  /// factors and heights.
  void validate() const;

  /// Whether the turbulence diagnostics (div_ic, hdef_ic; step S4) run (diffusion_spec §3.5).
  bool computes_turbulence_diagnostics() const {
    return static_cast<int>(shear_type) >= 1 || loutshs || a_hshr > 0.0;
  }
  /// Whether the final theta/exner and w exchanges (X5, X6) run.
  bool exchanges_at_end(bool initial_run) const {
    return initial_run || (iforcing != ForcingType::Nwp && iforcing != ForcingType::Aes);
  }
};

// ---- The field table ---------------------------------------------------------------------------
// One descriptor per DiffusionConfig member drives everything that lists the fields: validate(),
// icon_namelist_values(), the command line's namelist options and the savepoint's config.<name>
// attributes. A new member needs one row in diffusion_config_fields() (diffusion_config.cpp).

/// One DiffusionConfig member: its names, type, help text, typed access and validation rule
/// (core/config_table.hpp).
using ConfigField = ConfigFieldOf<DiffusionConfig>;

/// Every DiffusionConfig member, once, in the order of icon_namelist_values() (ICON's namelist
/// order; the ICON-internal loutshs last).
const std::vector<ConfigField>& diffusion_config_fields();

/// The configuration under ICON's namelist names ("diffusion_nml:hdiff_order" -> "5"), in the
/// table's order; every field with a namelist variable, as ConfigField::namelist_text writes it
/// (nudge_max_coeff is the raw namelist value, max_nudging_coefficient / 5).
std::vector<std::pair<std::string, std::string>> icon_namelist_values(
    const DiffusionConfig& config);

/// A configuration as ICON4Py's MCH_CH_R04B09 experiment uses it (diffusion_spec §5.2).
DiffusionConfig mch_ch_r04b09_config();
/// A configuration as ICON4Py's EXCLAIM_APE experiment uses it.
DiffusionConfig exclaim_ape_config();
/// A configuration as ICON4Py's Jablonowski-Williamson experiment uses it
/// (icon4py_configuration._jabw_diffusion_config): Smagorinsky with fourth-order background
/// diffusion of vn and w, no temperature diffusion, 5 substeps.
DiffusionConfig jablonowski_williamson_config();

}  // namespace icondiff
