// The dycore's configuration: the options of ICON4Py 0.2.0's NonHydrostaticConfig that the
// programs of this library read, with ICON4Py's defaults, and the parameters ICON4Py derives from
// them (NonHydrostaticParams). Listed once: Dycore, the tests, the benchmarks and the ICON4Py
// runner all take this struct.
#pragma once

#include <string>

namespace icondiff {

/// ICON4Py's DivergenceDampingOrder (divdamp_order).
enum class DivergenceDampingOrder : int { SecondOrder = 2, FourthOrder = 4, Combined = 24 };
/// ICON4Py's DivergenceDampingType (divdamp_type): 3 adds dw/dz (3-D divergence damping).
enum class DivergenceDampingType : int { TwoDimensional = 2, ThreeDimensional = 3, Combined = 32 };
/// ICON4Py's RayleighType.
enum class RayleighType : int { Classic = 1, Klemp = 2 };

struct DycoreConfig {
  DivergenceDampingOrder divdamp_order = DivergenceDampingOrder::Combined;
  DivergenceDampingType divdamp_type = DivergenceDampingType::ThreeDimensional;
  RayleighType rayleigh_type = RayleighType::Klemp;
  /// Off-centring of the velocity advection in the corrector step (veladv_offctr).
  double veladv_offctr = 0.25;
  /// DEFAULT_DYNAMICS_TO_PHYSICS_TIMESTEP_RATIO * 0.02.
  double max_nudging_coefficient = 5.0 * 0.02;
  /// Fourth-order divergence damping factor (decides whether the combined order applies it).
  double fourth_order_divdamp_factor = 0.0025;
  /// IAU (incremental analysis update) may be active in some calls.
  bool iau_init = false;

  /// wgt_nnow_vel = 0.5 - veladv_offctr (NonHydrostaticParams).
  double advection_explicit_weight_parameter() const { return 0.5 - veladv_offctr; }
  /// wgt_nnew_vel = 0.5 + veladv_offctr.
  double advection_implicit_weight_parameter() const { return 0.5 + veladv_offctr; }

  /// Throws InvalidArgument naming the option when a value is outside what ICON4Py accepts.
  void validate() const;
};

/// Which divergence damping the corrector step applies (solve_nonhydro.run_corrector_step).
struct DivergenceDampingSwitches {
  bool second_order = false;
  bool fourth_order = false;
};
DivergenceDampingSwitches divergence_damping_switches(const DycoreConfig& config,
                                                      double second_order_divdamp_factor,
                                                      double second_order_divdamp_scaling_coeff);

}  // namespace icondiff
