#include <icondiff/core/error.hpp>
#include <icondiff/diffusion/diffusion_config.hpp>

#include <fmt/format.h>

#include <cmath>
#include <type_traits>

namespace icondiff {

namespace {

/// A rule between fields, reported as a field's rule is (core/config_table.hpp).
[[noreturn]] void reject(const char* field, const char* namelist, const std::string& value,
                         const char* why) {
  detail::throw_config_field_error("diffusion config", field, namelist, value, why);
}

using config_table::field;

bool is_finite(double x) {
  return std::isfinite(x);
}

}  // namespace

// ---- The table ---------------------------------------------------------------------------------

const std::vector<ConfigField>& diffusion_config_fields() {
  using C = DiffusionConfig;
  static const std::vector<ConfigField> table = {
      field<&C::diffusion_type>("diffusion_type", "diffusion_nml:hdiff_order",
                                "5 = Smagorinsky + 4th-order background (the only one implemented)")
          .enumeration("DiffusionType", {{-1, "no diffusion"},
                                         {2, "linear 2nd order"},
                                         {3, "Smagorinsky without background diffusion"},
                                         {4, "linear 4th order"},
                                         {5, "Smagorinsky with 4th-order background diffusion"}})
          .rule([](double v) { return v == 5; },
                "only 5 (Smagorinsky with fourth-order background diffusion) is implemented, as in "
                "ICON4Py"),
      // ICON skips the vn / w diffusion when these are false; the granule (like ICON4Py's, which
      // stores and ignores them) always diffuses both. Refused, never silently ignored.
      field<&C::apply_to_horizontal_wind>("apply_to_horizontal_wind", "diffusion_nml:lhdiff_vn",
                                          "diffuse vn (must be true)")
          .rule([](double v) { return v != 0; },
                "false is not implemented: the granule always diffuses vn (ICON does not call "
                "the diffusion at all without lhdiff_vn)"),
      field<&C::apply_to_vertical_wind>("apply_to_vertical_wind", "diffusion_nml:lhdiff_w",
                                        "diffuse w (must be true)")
          .rule([](double v) { return v != 0; },
                "false is not implemented: the granule always diffuses w, as ICON4Py's"),
      field<&C::apply_to_temperature>("apply_to_temperature", "diffusion_nml:lhdiff_temp",
                                      "diffuse theta_v and exner"),
      field<&C::apply_smag_diff_to_vertical_wind>("apply_smag_diff_to_vertical_wind",
                                                  "diffusion_nml:lhdiff_smag_w",
                                                  "Smagorinsky diffusion of w (must be false)")
          .rule([](double v) { return v == 0; },
                "Smagorinsky diffusion of w is not implemented (ICON4Py rejects it too)"),
      field<&C::compute_3d_smag_coeff>("compute_3d_smag_coeff", "diffusion_nml:lsmag_3d",
                                       "3D Smagorinsky diffusion (must be false)")
          .rule([](double v) { return v == 0; },
                "3D Smagorinsky diffusion is not implemented (ICON4Py rejects it too)"),
      field<&C::type_vn_diffu>("type_vn_diffu", "diffusion_nml:itype_vn_diffu",
                               "Smagorinsky stencil: 1 = diamond vertices (the only one "
                               "implemented)")
          .enumeration("SmagorinskyStencilType",
                       {{1, "diamond vertices"}, {2, "cells and vertices"}})
          .rule([](double v) { return v == 1; },
                "only 1 (Smagorinsky stencil on the diamond vertices) is implemented, as in "
                "ICON4Py"),
      field<&C::type_t_diffu>("type_t_diffu", "diffusion_nml:itype_t_diffu",
                              "temperature diffusion: 2 = div(K grad theta) (the only one "
                              "implemented)")
          .enumeration("TemperatureDiscretizationType",
                       {{1, "homogeneous (K Lap theta)"}, {2, "heterogeneous (div(K grad theta))"}})
          .rule([](double v) { return v == 2; },
                "only 2 (div(K grad theta)) is implemented, as in ICON4Py"),
      field<&C::hdiff_efdt_ratio>("hdiff_efdt_ratio", "diffusion_nml:hdiff_efdt_ratio",
                                  "background diffusion e-folding time / time step (<= 0: off)")
          .rule(is_finite, "expected a finite number (<= 0 switches the background diffusion off)"),
      field<&C::hdiff_w_efdt_ratio>("hdiff_w_efdt_ratio", "diffusion_nml:hdiff_w_efdt_ratio",
                                    "w diffusion e-folding time / time step")
          .rule(is_finite, "expected a finite number"),
      field<&C::smagorinski_scaling_factor>("smagorinski_scaling_factor",
                                            "diffusion_nml:hdiff_smag_fac",
                                            "Smagorinsky factor up to hdiff_smag_z")
          .rule([](double v) { return v >= 0 && is_finite(v); },
                "expected a non-negative number (a negative factor is anti-diffusion)"),
      field<&C::smagorinski_scaling_factor2>("smagorinski_scaling_factor2",
                                             "diffusion_nml:hdiff_smag_fac2",
                                             "Smagorinsky factor at hdiff_smag_z2")
          .rule([](double v) { return v >= 0 && is_finite(v); },
                "expected a non-negative number (a negative factor is anti-diffusion)"),
      field<&C::smagorinski_scaling_factor3>("smagorinski_scaling_factor3",
                                             "diffusion_nml:hdiff_smag_fac3",
                                             "Smagorinsky factor at hdiff_smag_z3")
          .rule([](double v) { return v >= 0 && is_finite(v); },
                "expected a non-negative number (a negative factor is anti-diffusion)"),
      field<&C::smagorinski_scaling_factor4>("smagorinski_scaling_factor4",
                                             "diffusion_nml:hdiff_smag_fac4",
                                             "Smagorinsky factor from hdiff_smag_z4 up")
          .rule([](double v) { return v >= 0 && is_finite(v); },
                "expected a non-negative number (a negative factor is anti-diffusion)"),
      field<&C::smagorinski_scaling_height>("smagorinski_scaling_height",
                                            "diffusion_nml:hdiff_smag_z",
                                            "height of the Smagorinsky profile's first point (m)")
          .rule(is_finite, "expected a finite height (m)"),
      field<&C::smagorinski_scaling_height2>("smagorinski_scaling_height2",
                                             "diffusion_nml:hdiff_smag_z2",
                                             "height of the profile's second point (m)")
          .rule(is_finite, "expected a finite height (m)"),
      field<&C::smagorinski_scaling_height3>("smagorinski_scaling_height3",
                                             "diffusion_nml:hdiff_smag_z3",
                                             "height of the profile's third point (m)")
          .rule(is_finite, "expected a finite height (m)"),
      field<&C::smagorinski_scaling_height4>("smagorinski_scaling_height4",
                                             "diffusion_nml:hdiff_smag_z4",
                                             "height of the profile's fourth point (m)")
          .rule(is_finite, "expected a finite height (m)"),
      field<&C::apply_zdiffusion_t>("apply_zdiffusion_t", "nonhydrostatic_nml:l_zdiffu_t",
                                    "truly horizontal temperature diffusion over steep slopes"),
      field<&C::ndyn_substeps>("ndyn_substeps", "nonhydrostatic_nml:ndyn_substeps",
                               "dynamics substeps per time step")
          .rule([](double v) { return v >= 1; }, "expected at least 1"),
      field<&C::temperature_boundary_diffusion_denominator>(
          "temperature_boundary_diffusion_denominator", "gridref_nml:denom_diffu_t",
          "boundary diffusion denominator for temperature (unused)"),
      field<&C::velocity_boundary_diffusion_denominator>(
          "velocity_boundary_diffusion_denominator", "gridref_nml:denom_diffu_v",
          "boundary diffusion denominator for vn (limited area)")
          .rule([](double v) { return v > 0 && is_finite(v); }, "expected a positive number"),
      field<&C::max_nudging_coefficient>(
          "max_nudging_coefficient", "interpol_nml:nudge_max_coeff",
          "maximum nudging coefficient (raw; ICON4Py's value is 5x this)")
          .scale(5.0)
          .rule([](double v) { return v >= 0 && is_finite(v); }, "expected a non-negative number"),
      field<&C::shear_type>("shear_type", "turbdiff_nml:itype_sher",
                            "shear forcing: 0, 1 or 2 (2 also computes dwdx, dwdy)")
          .enumeration("TurbulenceShearForcingType",
                       {{0, "vertical shear of the horizontal wind"},
                        {1, "plus horizontal shear of the horizontal wind"},
                        {2, "plus horizontal shear of the vertical wind"},
                        {3, "as 1 with separate horizontal shear (ltkeshs)"}})
          .rule([](double v) { return v >= 0 && v <= 2; },
                "only 0, 1 and 2 are implemented, as in ICON4Py"),
      field<&C::iforcing>("iforcing", "run_nml:iforcing", "0 none, 2 AES, 3 NWP")
          .enumeration("ForcingType", {{0, "no forcing"}, {2, "AES"}, {3, "NWP"}})
          .rule([](double v) { return v == 0 || v == 2 || v == 3; },
                "expected 0 (no forcing), 2 (AES) or 3 (NWP)"),
      field<&C::a_hshr>("a_hshr", "turbdiff_nml:a_hshr",
                        "separated horizontal shear mode factor (> 0: turbulence diagnostics run)")
          .rule(is_finite, "expected a finite number"),
      field<&C::loutshs>("loutshs", nullptr, "ICON-internal output flag for horizontal shear"),
  };
  return table;
}

// ---- Validation and the namelist view ----------------------------------------------------------

void DiffusionConfig::validate() const {
  validate_config_fields(diffusion_config_fields(), *this, "diffusion config");
  // Between fields: the Smagorinsky profile (diffusion_spec §2.3).
  const double z[4] = {smagorinski_scaling_height, smagorinski_scaling_height2,
                       smagorinski_scaling_height3, smagorinski_scaling_height4};
  const double f[4] = {smagorinski_scaling_factor, smagorinski_scaling_factor2,
                       smagorinski_scaling_factor3, smagorinski_scaling_factor4};
  for (int i = 0; i < 4; ++i)
    if (!is_finite(z[i]) || !is_finite(f[i]))
      reject("smagorinski_scaling_factor/height", "diffusion_nml:hdiff_smag_fac*/hdiff_smag_z*",
             fmt::format("factor{} = {}, height{} = {}", i + 1, f[i], i + 1, z[i]),
             "expected finite numbers");
  // The enh_smag_fac profile divides by z2 - z1, z3 - z2, z4 - z2 and z4 - z3.
  if (z[1] == z[0] || z[2] == z[1] || z[3] == z[1] || z[3] == z[2])
    reject("smagorinski_scaling_height*", "diffusion_nml:hdiff_smag_z*",
           fmt::format("{}, {}, {}, {}", z[0], z[1], z[2], z[3]),
           "the profile needs z2 != z1, z3 != z2, z4 != z2 and z4 != z3");
}

std::vector<std::pair<std::string, std::string>> icon_namelist_values(const DiffusionConfig& c) {
  return config_namelist_values(diffusion_config_fields(), c);
}

DiffusionConfig mch_ch_r04b09_config() {
  DiffusionConfig c;
  c.hdiff_efdt_ratio = 24.0;
  c.hdiff_w_efdt_ratio = 15.0;
  c.smagorinski_scaling_factor = 0.025;
  c.apply_zdiffusion_t = true;
  c.velocity_boundary_diffusion_denominator = 150.0;
  c.max_nudging_coefficient = 0.375;
  c.ndyn_substeps = 5;
  c.shear_type = TurbulenceShearForcingType::VerticalHorizontalOfHorizontalVerticalWind;
  c.iforcing = ForcingType::Nwp;
  return c;
}

DiffusionConfig jablonowski_williamson_config() {
  DiffusionConfig c;
  c.diffusion_type = DiffusionType::SmagorinskyFourthOrder;
  c.apply_to_horizontal_wind = true;
  c.apply_to_vertical_wind = true;
  c.type_vn_diffu = SmagorinskyStencilType::DiamondVertices;
  c.apply_to_temperature = false;
  c.type_t_diffu = TemperatureDiscretizationType::Heterogeneous;
  c.hdiff_efdt_ratio = 10.0;
  c.hdiff_w_efdt_ratio = 15.0;
  c.smagorinski_scaling_factor = 0.025;
  c.apply_zdiffusion_t = false;
  c.velocity_boundary_diffusion_denominator = 200.0;
  c.ndyn_substeps = 5;
  return c;
}

DiffusionConfig exclaim_ape_config() {
  DiffusionConfig c;
  c.hdiff_efdt_ratio = 24.0;
  c.smagorinski_scaling_factor = 0.025;
  c.apply_zdiffusion_t = false;
  c.apply_to_temperature = true;
  c.ndyn_substeps = 5;
  c.iforcing = ForcingType::Aes;
  return c;
}

}  // namespace icondiff
