#include <icondiff/core/error.hpp>
#include <icondiff/diffusion/diffusion_config.hpp>

#include <fmt/format.h>

#include <cmath>

namespace icondiff {

namespace {
[[noreturn]] void reject(const char* field, const char* namelist, const std::string& value,
                         const std::string& why) {
  throw ConfigError(
      fmt::format("diffusion config: {} (ICON {}) = {}: {}", field, namelist, value, why));
}
}  // namespace

void DiffusionConfig::validate() const {
  if (diffusion_type != DiffusionType::SmagorinskyFourthOrder)
    reject("diffusion_type", "diffusion_nml:hdiff_order",
           std::to_string(static_cast<int>(diffusion_type)),
           "only 5 (Smagorinsky with fourth-order background diffusion) is implemented, as in "
           "ICON4Py");
  if (type_vn_diffu != SmagorinskyStencilType::DiamondVertices)
    reject("type_vn_diffu", "diffusion_nml:itype_vn_diffu",
           std::to_string(static_cast<int>(type_vn_diffu)),
           "only 1 (Smagorinsky stencil on the diamond vertices) is implemented, as in ICON4Py");
  if (type_t_diffu != TemperatureDiscretizationType::Heterogeneous)
    reject("type_t_diffu", "diffusion_nml:itype_t_diffu",
           std::to_string(static_cast<int>(type_t_diffu)),
           "only 2 (div(K grad theta)) is implemented, as in ICON4Py");
  if (apply_smag_diff_to_vertical_wind)
    reject("apply_smag_diff_to_vertical_wind", "diffusion_nml:lhdiff_smag_w", "true",
           "Smagorinsky diffusion of w is not implemented (ICON4Py rejects it too)");
  if (compute_3d_smag_coeff)
    reject("compute_3d_smag_coeff", "diffusion_nml:lsmag_3d", "true",
           "3D Smagorinsky diffusion is not implemented (ICON4Py rejects it too)");
  const int shear = static_cast<int>(shear_type);
  if (shear < 0 || shear > 2)
    reject("shear_type", "turbdiff_nml:itype_sher", std::to_string(shear),
           "only 0, 1 and 2 are implemented, as in ICON4Py");
  const int forcing = static_cast<int>(iforcing);
  if (forcing != 0 && forcing != 2 && forcing != 3)
    reject("iforcing", "run_nml:iforcing", std::to_string(forcing),
           "expected 0 (no forcing), 2 (AES) or 3 (NWP)");
  const auto finite = [](double x) { return std::isfinite(x); };
  if (!finite(hdiff_efdt_ratio))
    reject("hdiff_efdt_ratio", "diffusion_nml:hdiff_efdt_ratio",
           fmt::format("{}", hdiff_efdt_ratio),
           "expected a finite number (<= 0 switches the background diffusion off)");
  if (!finite(hdiff_w_efdt_ratio))
    reject("hdiff_w_efdt_ratio", "diffusion_nml:hdiff_w_efdt_ratio",
           fmt::format("{}", hdiff_w_efdt_ratio), "expected a finite number");
  if (ndyn_substeps < 1)
    reject("ndyn_substeps", "nonhydrostatic_nml:ndyn_substeps", std::to_string(ndyn_substeps),
           "expected at least 1");
  if (!(velocity_boundary_diffusion_denominator > 0) ||
      !finite(velocity_boundary_diffusion_denominator))
    reject("velocity_boundary_diffusion_denominator", "gridref_nml:denom_diffu_v",
           fmt::format("{}", velocity_boundary_diffusion_denominator),
           "expected a positive number");
  if (!(max_nudging_coefficient >= 0) || !finite(max_nudging_coefficient))
    reject("max_nudging_coefficient", "interpol_nml:nudge_max_coeff (x5)",
           fmt::format("{}", max_nudging_coefficient), "expected a non-negative number");
  const double z[4] = {smagorinski_scaling_height, smagorinski_scaling_height2,
                       smagorinski_scaling_height3, smagorinski_scaling_height4};
  const double f[4] = {smagorinski_scaling_factor, smagorinski_scaling_factor2,
                       smagorinski_scaling_factor3, smagorinski_scaling_factor4};
  for (int i = 0; i < 4; ++i)
    if (!finite(z[i]) || !finite(f[i]))
      reject("smagorinski_scaling_factor/height", "diffusion_nml:hdiff_smag_fac*/hdiff_smag_z*",
             fmt::format("factor{} = {}, height{} = {}", i + 1, f[i], i + 1, z[i]),
             "expected finite numbers");
  // The enh_smag_fac profile divides by z2 - z1, z3 - z2, z4 - z2 and z4 - z3 (diffusion_spec
  // §2.3).
  if (z[1] == z[0] || z[2] == z[1] || z[3] == z[1] || z[3] == z[2])
    reject("smagorinski_scaling_height*", "diffusion_nml:hdiff_smag_z*",
           fmt::format("{}, {}, {}, {}", z[0], z[1], z[2], z[3]),
           "the profile needs z2 != z1, z3 != z2, z4 != z2 and z4 != z3");
  if (!finite(a_hshr))
    reject("a_hshr", "turbdiff_nml:a_hshr", fmt::format("{}", a_hshr), "expected a finite number");
}

std::vector<std::pair<std::string, std::string>> icon_namelist_values(const DiffusionConfig& c) {
  const auto logical = [](bool b) { return std::string(b ? ".TRUE." : ".FALSE."); };
  const auto integer = [](auto e) { return std::to_string(static_cast<int>(e)); };
  const auto real = [](double x) { return fmt::format("{}", x); };
  return {
      {"diffusion_nml:hdiff_order", integer(c.diffusion_type)},
      {"diffusion_nml:lhdiff_vn", logical(c.apply_to_horizontal_wind)},
      {"diffusion_nml:lhdiff_w", logical(c.apply_to_vertical_wind)},
      {"diffusion_nml:lhdiff_temp", logical(c.apply_to_temperature)},
      {"diffusion_nml:lhdiff_smag_w", logical(c.apply_smag_diff_to_vertical_wind)},
      {"diffusion_nml:lsmag_3d", logical(c.compute_3d_smag_coeff)},
      {"diffusion_nml:itype_vn_diffu", integer(c.type_vn_diffu)},
      {"diffusion_nml:itype_t_diffu", integer(c.type_t_diffu)},
      {"diffusion_nml:hdiff_efdt_ratio", real(c.hdiff_efdt_ratio)},
      {"diffusion_nml:hdiff_w_efdt_ratio", real(c.hdiff_w_efdt_ratio)},
      {"diffusion_nml:hdiff_smag_fac", real(c.smagorinski_scaling_factor)},
      {"diffusion_nml:hdiff_smag_fac2", real(c.smagorinski_scaling_factor2)},
      {"diffusion_nml:hdiff_smag_fac3", real(c.smagorinski_scaling_factor3)},
      {"diffusion_nml:hdiff_smag_fac4", real(c.smagorinski_scaling_factor4)},
      {"diffusion_nml:hdiff_smag_z", real(c.smagorinski_scaling_height)},
      {"diffusion_nml:hdiff_smag_z2", real(c.smagorinski_scaling_height2)},
      {"diffusion_nml:hdiff_smag_z3", real(c.smagorinski_scaling_height3)},
      {"diffusion_nml:hdiff_smag_z4", real(c.smagorinski_scaling_height4)},
      {"nonhydrostatic_nml:l_zdiffu_t", logical(c.apply_zdiffusion_t)},
      {"nonhydrostatic_nml:ndyn_substeps", std::to_string(c.ndyn_substeps)},
      {"gridref_nml:denom_diffu_t", real(c.temperature_boundary_diffusion_denominator)},
      {"gridref_nml:denom_diffu_v", real(c.velocity_boundary_diffusion_denominator)},
      {"interpol_nml:nudge_max_coeff", real(c.max_nudging_coefficient / 5.0)},
      {"turbdiff_nml:itype_sher", integer(c.shear_type)},
      {"run_nml:iforcing", integer(c.iforcing)},
      {"turbdiff_nml:a_hshr", real(c.a_hshr)},
  };
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
