#include <icondiff/core/error.hpp>
#include <icondiff/diffusion/diffusion_config.hpp>

#include <fmt/format.h>

#include <cmath>
#include <type_traits>

namespace icondiff {

namespace {

[[noreturn]] void reject(const std::string& field, const std::string& namelist,
                         const std::string& value, const std::string& why) {
  throw ConfigError(
      fmt::format("diffusion config: {} (ICON {}) = {}: {}", field, namelist, value, why));
}

// ---- Typed access to a member through a double -------------------------------------------------

template <class C, class T>
T member_type(T C::*);

template <auto Member>
using MemberType = decltype(member_type(Member));

template <auto Member>
double get_member(const DiffusionConfig& c) {
  using T = MemberType<Member>;
  if constexpr (std::is_enum_v<T>)
    return static_cast<double>(static_cast<int>(c.*Member));
  else if constexpr (std::is_same_v<T, bool>)
    return c.*Member ? 1.0 : 0.0;
  else
    return static_cast<double>(c.*Member);
}

template <auto Member>
void set_member(DiffusionConfig& c, double value) {
  using T = MemberType<Member>;
  if constexpr (std::is_enum_v<T>)
    c.*Member = static_cast<T>(static_cast<int>(value));
  else if constexpr (std::is_same_v<T, bool>)
    c.*Member = value != 0.0;
  else if constexpr (std::is_same_v<T, int>)
    c.*Member = static_cast<int>(value);
  else
    c.*Member = value;
}

template <class T>
constexpr ConfigKind kind_of() {
  if constexpr (std::is_enum_v<T>)
    return ConfigKind::Enum;
  else if constexpr (std::is_same_v<T, bool>)
    return ConfigKind::Bool;
  else if constexpr (std::is_same_v<T, int>)
    return ConfigKind::Int;
  else {
    static_assert(std::is_same_v<T, double>, "DiffusionConfig: enum, bool, int or double only");
    return ConfigKind::Real;
  }
}

/// A table row under construction: field<&DiffusionConfig::x>(...).rule(...).
struct Row {
  ConfigField f;
  Row enumeration(const char* type, std::vector<ConfigEnumValue> values) const {
    Row r = *this;
    r.f.enum_type = type;
    r.f.values = std::move(values);
    return r;
  }
  Row rule(bool (*allowed)(double), const char* why) const {
    Row r = *this;
    r.f.allowed = allowed;
    r.f.why = why;
    return r;
  }
  Row scale(double namelist_scale) const {
    Row r = *this;
    r.f.namelist_scale = namelist_scale;
    return r;
  }
  operator ConfigField() const { return f; }  // NOLINT(google-explicit-constructor)
};

/// A row for `Member`; its kind and accessors follow from the member's type.
template <auto Member>
Row field(const char* name, const char* namelist, const char* help) {
  Row r;
  r.f.name = name;
  r.f.namelist = namelist;
  r.f.kind = kind_of<MemberType<Member>>();
  r.f.help = help;
  r.f.get = &get_member<Member>;
  r.f.set = &set_member<Member>;
  return r;
}

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

std::string ConfigField::namelist_text(const DiffusionConfig& c) const {
  const double value = namelist_value(c);
  switch (kind) {
    case ConfigKind::Bool: return value != 0.0 ? ".TRUE." : ".FALSE.";
    case ConfigKind::Enum:
    case ConfigKind::Int: return std::to_string(static_cast<int>(value));
    case ConfigKind::Real: break;
  }
  return fmt::format("{}", value);
}

std::string ConfigField::value_text(const DiffusionConfig& c) const {
  const double value = get(c);
  switch (kind) {
    case ConfigKind::Bool: return value != 0.0 ? "true" : "false";
    case ConfigKind::Enum:
    case ConfigKind::Int: return std::to_string(static_cast<int>(value));
    case ConfigKind::Real: break;
  }
  return fmt::format("{}", value);
}

std::string ConfigField::icon_label() const {
  if (namelist == nullptr) return "ICON internal";
  if (namelist_scale != 1.0) return fmt::format("{} (x{})", namelist, namelist_scale);
  return namelist;
}

std::string ConfigField::namelist_variable() const {
  if (namelist == nullptr) return "";
  const std::string n = namelist;
  return n.substr(n.find(':') + 1);
}

std::string ConfigField::namelist_group() const {
  if (namelist == nullptr) return "";
  const std::string n = namelist;
  return n.substr(0, n.find(':'));
}

// ---- Validation and the namelist view ----------------------------------------------------------

void DiffusionConfig::validate() const {
  for (const ConfigField& entry : diffusion_config_fields())
    if (entry.allowed != nullptr && !entry.allowed(entry.get(*this)))
      reject(entry.name, entry.icon_label(), entry.value_text(*this), entry.why);
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
  std::vector<std::pair<std::string, std::string>> values;
  for (const ConfigField& f : diffusion_config_fields())
    if (f.namelist != nullptr) values.emplace_back(f.namelist, f.namelist_text(c));
  return values;
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
