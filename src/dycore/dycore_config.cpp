#include <icondiff/core/error.hpp>
#include <icondiff/dycore/dycore_config.hpp>

#include <fmt/format.h>

#include <cmath>

namespace icondiff {

namespace {
using config_table::field;
bool is_finite(double x) {
  return std::isfinite(x);
}
bool non_negative(double x) {
  return std::isfinite(x) && x >= 0.0;
}
}  // namespace

const std::vector<ConfigFieldOf<DycoreConfig>>& dycore_config_fields() {
  using C = DycoreConfig;
  static const std::vector<ConfigFieldOf<DycoreConfig>> table = {
      field<&C::itime_scheme>("itime_scheme", "nonhydrostatic_nml:itime_scheme",
                              "time stepping scheme (4: most efficient)")
          .rule([](double v) { return v == 4; }, "only 4 is implemented, as in ICON4Py 0.2.0"),
      field<&C::iadv_rhotheta>("iadv_rhotheta", "nonhydrostatic_nml:iadv_rhotheta",
                               "advection of rho and theta (2: Miura)")
          .rule([](double v) { return v == 2; },
                "only 2 (Miura) is implemented, as in ICON4Py 0.2.0"),
      field<&C::igradp_method>("igradp_method", "nonhydrostatic_nml:igradp_method",
                               "horizontal pressure gradient (3: Taylor + hydrostatic)")
          .rule([](double v) { return v == 3; },
                "only 3 (Taylor expansion with hydrostatic correction) is implemented, as in "
                "ICON4Py 0.2.0"),
      field<&C::rayleigh_type>("rayleigh_type", "nonhydrostatic_nml:rayleigh_type",
                               "Rayleigh damping of w (2: Klemp)")
          .enumeration("RayleighType", {{1, "classic"}, {2, "Klemp"}})
          .rule([](double v) { return v == 1 || v == 2; },
                "expected 1 (classic: the programs do not damp w) or 2 (Klemp)"),
      field<&C::divdamp_order>("divdamp_order", "nonhydrostatic_nml:divdamp_order",
                               "divergence damping order (24: 2nd and 4th combined)")
          .enumeration("DivergenceDampingOrder",
                       {{2, "second order"}, {4, "fourth order"}, {24, "combined"}})
          .rule([](double v) { return v == 2 || v == 4 || v == 24; },
                "expected 2 (second order), 4 (fourth order) or 24 (combined)"),
      field<&C::divdamp_type>("divdamp_type", "nonhydrostatic_nml:divdamp_type",
                              "divergence damping type (3: with dw/dz)")
          .enumeration("DivergenceDampingType",
                       {{2, "two-dimensional"}, {3, "three-dimensional"}, {32, "3-D to 2-D"}})
          .rule([](double v) { return v == 2 || v == 3 || v == 32; }, "expected 2, 3 or 32"),
      field<&C::l_vert_nested>("l_vert_nested", "run_nml:lvert_nest", "vertical nesting")
          .rule([](double v) { return v == 0; },
                "vertical nesting is not implemented, as in ICON4Py 0.2.0"),
      field<&C::ldeepatmo>("ldeepatmo", "dynamics_nml:ldeepatmo", "deep-atmosphere equations")
          .rule([](double v) { return v == 0; },
                "the deep atmosphere is not implemented, as in ICON4Py 0.2.0"),
      field<&C::iau_init>("iau_init", nullptr, "IAU may be active (ICON: init_mode == 5)"),
      field<&C::extra_diffu>("extra_diffu", "nonhydrostatic_nml:lextra_diffu",
                             "extra diffusion near the CFL limit")
          .rule([](double v) { return v != 0; },
                "false is not implemented: ICON4Py 0.2.0 always applies it"),
      field<&C::rhotheta_offctr>("rhotheta_offctr", "nonhydrostatic_nml:rhotheta_offctr",
                                 "off-centring of rho and theta at half levels")
          .rule(is_finite, "expected a finite number (ICON default -0.1)"),
      field<&C::veladv_offctr>("veladv_offctr", "nonhydrostatic_nml:veladv_offctr",
                               "off-centring of the velocity advection in the corrector")
          .rule([](double v) { return std::isfinite(v) && v >= 0.0 && v <= 0.5; },
                "expected a value in [0, 0.5] (ICON default 0.25)"),
      field<&C::max_nudging_coefficient>("max_nudging_coefficient", "interpol_nml:nudge_max_coeff",
                                         "lateral boundary nudging (namelist value)")
          .scale(5.0)
          .rule(non_negative, "expected a finite value >= 0"),
      field<&C::fourth_order_divdamp_factor>("fourth_order_divdamp_factor",
                                             "nonhydrostatic_nml:divdamp_fac",
                                             "fourth-order divergence damping factor")
          .rule(non_negative, "expected a finite value >= 0 (ICON default 0.0025)"),
      field<&C::fourth_order_divdamp_factor2>("fourth_order_divdamp_factor2",
                                              "nonhydrostatic_nml:divdamp_fac2",
                                              "its value at divdamp_z2")
          .rule(non_negative, "expected a finite value >= 0"),
      field<&C::fourth_order_divdamp_factor3>("fourth_order_divdamp_factor3",
                                              "nonhydrostatic_nml:divdamp_fac3",
                                              "its value at divdamp_z3")
          .rule(non_negative, "expected a finite value >= 0"),
      field<&C::fourth_order_divdamp_factor4>("fourth_order_divdamp_factor4",
                                              "nonhydrostatic_nml:divdamp_fac4",
                                              "its value at divdamp_z4")
          .rule(non_negative, "expected a finite value >= 0"),
      field<&C::fourth_order_divdamp_z>("fourth_order_divdamp_z", "nonhydrostatic_nml:divdamp_z",
                                        "height up to which divdamp_fac is constant (m)")
          .rule(is_finite, "expected a finite height"),
      field<&C::fourth_order_divdamp_z2>("fourth_order_divdamp_z2", "nonhydrostatic_nml:divdamp_z2",
                                         "end of the linear part of the profile (m)")
          .rule(is_finite, "expected a finite height"),
      field<&C::fourth_order_divdamp_z3>("fourth_order_divdamp_z3", "nonhydrostatic_nml:divdamp_z3",
                                         "middle of the quadratic part (m)")
          .rule(is_finite, "expected a finite height"),
      field<&C::fourth_order_divdamp_z4>("fourth_order_divdamp_z4", "nonhydrostatic_nml:divdamp_z4",
                                         "end of the quadratic part (m)")
          .rule(is_finite, "expected a finite height"),
  };
  return table;
}

void DycoreConfig::validate() const {
  validate_config_fields(dycore_config_fields(), *this, "dycore config");
  // Between fields: the profile's heights must increase (ICON4Py interpolates between them).
  if (!(fourth_order_divdamp_z < fourth_order_divdamp_z2 &&
        fourth_order_divdamp_z2 < fourth_order_divdamp_z3 &&
        fourth_order_divdamp_z3 < fourth_order_divdamp_z4))
    detail::throw_config_field_error(
        "dycore config", "fourth_order_divdamp_z..z4", "nonhydrostatic_nml:divdamp_z..divdamp_z4",
        fmt::format("{}, {}, {}, {}", fourth_order_divdamp_z, fourth_order_divdamp_z2,
                    fourth_order_divdamp_z3, fourth_order_divdamp_z4),
        "expected increasing heights");
}

void DycoreConfig::validate_for_solve_nh() const {
  validate();
  // NonHydrostaticConfig._validate of ICON4Py 0.2.0: the programs have these branches, the
  // granule does not run them.
  if (rayleigh_type != RayleighType::Klemp)
    detail::throw_config_field_error(
        "dycore config", "rayleigh_type", "nonhydrostatic_nml:rayleigh_type",
        std::to_string(static_cast<int>(rayleigh_type)),
        "the solve_nh granule implements only 2 (Klemp), as ICON4Py 0.2.0's SolveNonhydro");
  if (divdamp_type == DivergenceDampingType::TwoDimensional)
    detail::throw_config_field_error(
        "dycore config", "divdamp_type", "nonhydrostatic_nml:divdamp_type",
        std::to_string(static_cast<int>(divdamp_type)),
        "the solve_nh granule implements 3 and 32, not 2, as ICON4Py 0.2.0's SolveNonhydro");
}

std::vector<std::pair<std::string, std::string>> icon_namelist_values(const DycoreConfig& c) {
  return config_namelist_values(dycore_config_fields(), c);
}

DivergenceDampingSwitches divergence_damping_switches(
    const DycoreConfig& config, const double second_order_divdamp_factor,
    const double second_order_divdamp_scaling_coeff) {
  const bool combined = config.divdamp_order == DivergenceDampingOrder::Combined;
  DivergenceDampingSwitches s;
  s.second_order = config.divdamp_order == DivergenceDampingOrder::SecondOrder ||
                   (combined && second_order_divdamp_scaling_coeff > 1.0e-6);
  s.fourth_order =
      config.divdamp_order == DivergenceDampingOrder::FourthOrder ||
      (combined && second_order_divdamp_factor <= 4.0 * config.fourth_order_divdamp_factor);
  return s;
}

}  // namespace icondiff
