// The dycore's configuration: the options of ICON4Py 0.2.0's NonHydrostaticConfig that the
// programs of this library read, with ICON4Py's defaults, and the parameters ICON4Py derives from
// them (NonHydrostaticParams). Listed once: Dycore, the tests, the benchmarks and the ICON4Py
// runner all take this struct.
#pragma once

#include <icondiff/core/config_table.hpp>
#include <icondiff/core/types.hpp>

#include <string>
#include <utility>
#include <vector>

namespace icondiff {

/// ICON4Py's DivergenceDampingOrder (divdamp_order).
enum class DivergenceDampingOrder : int { SecondOrder = 2, FourthOrder = 4, Combined = 24 };
/// ICON4Py's DivergenceDampingType (divdamp_type): 3 adds dw/dz (3-D divergence damping).
enum class DivergenceDampingType : int { TwoDimensional = 2, ThreeDimensional = 3, Combined = 32 };
/// ICON4Py's RayleighType.
enum class RayleighType : int { Classic = 1, Klemp = 2 };

/// ICON4Py 0.2.0's NonHydrostaticConfig under its names, ICON's namelist name beside each
/// (dycore_config_fields() is the table: validate(), the namelist view). The four programs read
/// divdamp_order/type, rayleigh_type, veladv_offctr, the nudging and divergence damping factors
/// and iau_init; the others are solve_nh's (issue 28) and are validated now so that a value
/// ICON4Py does not implement is refused, never ignored. The programs accept what ICON4Py's
/// programs accept (rayleigh_type 1, divdamp_type 2 included, the branches their tests and the
/// ICON4Py comparison cover); ICON4Py's solve_nh granule refuses those two, and so will ours.
struct DycoreConfig {
  int itime_scheme = 4;   ///< nonhydrostatic_nml:itime_scheme (only 4, as ICON4Py)
  int iadv_rhotheta = 2;  ///< nonhydrostatic_nml:iadv_rhotheta (only 2, Miura)
  int igradp_method = 3;  ///< nonhydrostatic_nml:igradp_method (only 3, Taylor + hydrostatic)
  RayleighType rayleigh_type = RayleighType::Klemp;  ///< nonhydrostatic_nml:rayleigh_type
  DivergenceDampingOrder divdamp_order = DivergenceDampingOrder::Combined;       ///< divdamp_order
  DivergenceDampingType divdamp_type = DivergenceDampingType::ThreeDimensional;  ///< divdamp_type
  bool l_vert_nested = false;  ///< run_nml:lvert_nest (not implemented, as in ICON4Py)
  bool ldeepatmo = false;      ///< dynamics_nml:ldeepatmo (not implemented, as in ICON4Py)
  /// IAU (incremental analysis update) may be active in some calls (init_mode == MODE_IAU).
  bool iau_init = false;
  bool extra_diffu = true;  ///< nonhydrostatic_nml:lextra_diffu (only true, as ICON4Py)
  /// nonhydrostatic_nml:rhotheta_offctr: off-centring of rho and theta at half levels.
  double rhotheta_offctr = -0.1;
  /// nonhydrostatic_nml:veladv_offctr: off-centring of the velocity advection in the corrector.
  double veladv_offctr = 0.25;
  /// interpol_nml:nudge_max_coeff times 5 (DEFAULT_DYNAMICS_TO_PHYSICS_TIMESTEP_RATIO * 0.02).
  double max_nudging_coefficient = 5.0 * 0.02;
  /// nonhydrostatic_nml:divdamp_fac..divdamp_fac4, divdamp_z..divdamp_z4: the fourth-order
  /// divergence damping factor's vertical profile (divdamp_fac also decides whether the combined
  /// order applies it).
  double fourth_order_divdamp_factor = 0.0025;
  double fourth_order_divdamp_factor2 = 0.004;
  double fourth_order_divdamp_factor3 = 0.004;
  double fourth_order_divdamp_factor4 = 0.004;
  double fourth_order_divdamp_z = 32500.0;
  double fourth_order_divdamp_z2 = 40000.0;
  double fourth_order_divdamp_z3 = 60000.0;
  double fourth_order_divdamp_z4 = 80000.0;

  /// wgt_nnow_vel = 0.5 - veladv_offctr (NonHydrostaticParams).
  double advection_explicit_weight_parameter() const { return 0.5 - veladv_offctr; }
  /// wgt_nnew_vel = 0.5 + veladv_offctr.
  double advection_implicit_weight_parameter() const { return 0.5 + veladv_offctr; }
  /// wgt_nnew_rth = 0.5 + rhotheta_offctr (NonHydrostaticParams).
  double rhotheta_implicit_weight_parameter() const { return 0.5 + rhotheta_offctr; }
  /// wgt_nnow_rth = 1 - wgt_nnew_rth.
  double rhotheta_explicit_weight_parameter() const {
    return 1.0 - rhotheta_implicit_weight_parameter();
  }

  /// Throws ConfigError naming the field, its ICON namelist name, the value and what is allowed.
  void validate() const;
  /// validate() and what the solve_nh granule refuses besides (as ICON4Py's
  /// NonHydrostaticConfig): rayleigh_type 1 and divdamp_type 2. Throws ConfigError.
  void validate_for_solve_nh() const;
};

/// Every DycoreConfig member, once, in ICON's namelist order.
const std::vector<ConfigFieldOf<DycoreConfig>>& dycore_config_fields();

/// The configuration under ICON's namelist names ("nonhydrostatic_nml:divdamp_order" -> "24").
std::vector<std::pair<std::string, std::string>> icon_namelist_values(const DycoreConfig& config);

/// Which divergence damping the corrector step applies (solve_nonhydro.run_corrector_step).
struct DivergenceDampingSwitches {
  bool second_order = false;
  bool fourth_order = false;
};
DivergenceDampingSwitches divergence_damping_switches(const DycoreConfig& config,
                                                      double second_order_divdamp_factor,
                                                      double second_order_divdamp_scaling_coeff);

/// The scale factors velocity advection's programs take (VelocityAdvection, cfl_w_limit 0.65 and
/// scalfac_exdiff 0.05 fixed there): _scale_factors_by_dtime in Python's double arithmetic,
/// cfl_w_limit then handed to the programs as vp.
struct VelocityAdvectionScaleFactors {
  vp cfl_w_limit = 0;
  double scalfac_exdiff = 0;
};
inline VelocityAdvectionScaleFactors velocity_advection_scale_factors(const double dtime) {
  const double cfl_w_limit = 0.65 / dtime;
  const double scalfac_exdiff = 0.05 / (dtime * (0.85 - cfl_w_limit * dtime));
  return {static_cast<vp>(cfl_w_limit), scalfac_exdiff};
}

}  // namespace icondiff
