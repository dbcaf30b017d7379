#include <icondiff/core/config_table.hpp>

#include <fmt/format.h>

namespace icondiff::detail {

std::string config_value_text(ConfigKind kind, double value, bool namelist_style) {
  switch (kind) {
    case ConfigKind::Bool:
      return namelist_style ? (value != 0.0 ? ".TRUE." : ".FALSE.")
                            : (value != 0.0 ? "true" : "false");
    case ConfigKind::Enum:
    case ConfigKind::Int: return std::to_string(static_cast<int>(value));
    case ConfigKind::Real: break;
  }
  return fmt::format("{}", value);
}

std::string config_icon_label(const char* namelist, double namelist_scale) {
  if (namelist == nullptr) return "ICON internal";
  if (namelist_scale != 1.0) return fmt::format("{} (x{})", namelist, namelist_scale);
  return namelist;
}

void throw_config_field_error(const std::string& what, const char* name, const std::string& label,
                              const std::string& value, const char* why) {
  throw ConfigError(fmt::format("{}: {} (ICON {}) = {}: {}", what, name, label, value, why));
}

}  // namespace icondiff::detail
