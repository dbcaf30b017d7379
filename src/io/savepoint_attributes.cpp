// The global attributes of a savepoint file (docs/dev/savepoints.md, "Global attributes"): typed
// reading with one error per malformed attribute, the configuration ("config.<name>", one per
// entry of the granule's configuration table: DiffusionConfig's, DycoreConfig's) and the
// free-form metadata ("metadata.<key>").
#include "savepoint_internal.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <set>
#include <vector>

namespace icondiff::io::savepoint {

namespace {

/// Global attributes whose names carry no "." (every other global attribute has one).
const std::set<std::string>& plain_global_attributes() {
  static const std::set<std::string> names = {
      "icondiff_savepoint_format", "savepoint", "dtime", "initial_run", "icondiff_vp", "config"};
  return names;
}

// Every field of the configuration is the global attribute "config.<name>", in the order of its
// table (diffusion_config_fields(), dycore_config_fields()): enums (ICON's namelist integers),
// bools (0/1) and ints as int, reals as double. docs/dev/savepoints.md lists them.

std::string config_attribute_name(const std::string& field) {
  return "config." + field;
}

bool valid_metadata_key(const std::string& key) {
  if (key.empty() || key.size() > 200) return false;
  const auto ok = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' ||
           c == '-' || c == '@';
  };
  return std::all_of(key.begin(), key.end(), ok) &&
         (std::isalnum(static_cast<unsigned char>(key[0])) || key[0] == '_');
}

const std::string metadata_prefix = "metadata.";

}  // namespace

bool is_global_attribute(const std::string& name) {
  return name.find('.') != std::string::npos || plain_global_attributes().count(name) > 0;
}

// ---- Typed reading ----------------------------------------------------------------------------

long long int_attribute(const NetcdfReader& f, const std::string& name) {
  switch (f.attribute_kind(name)) {
    case NetcdfKind::Missing: f.fail(name, -1, "the global attribute is missing");
    case NetcdfKind::Integer: break;
    default: f.fail(name, -1, "expected an integer attribute");
  }
  const auto values = f.integer_attribute(name);
  if (values.size() != 1) f.fail(name, -1, fmt::format("has {} values, expected 1", values.size()));
  return values[0];
}

bool bool_attribute(const NetcdfReader& f, const std::string& name) {
  const long long v = int_attribute(f, name);
  if (v != 0 && v != 1) f.fail(name, -1, fmt::format("= {}, expected 0 (false) or 1 (true)", v));
  return v == 1;
}

double real_attribute(const NetcdfReader& f, const std::string& name) {
  const NetcdfKind kind = f.attribute_kind(name);
  if (kind == NetcdfKind::Missing) f.fail(name, -1, "the global attribute is missing");
  if (kind != NetcdfKind::Real && kind != NetcdfKind::Integer)
    f.fail(name, -1, "expected a numeric attribute");
  return *f.number_attribute(name);
}

std::string text_attribute(const NetcdfReader& f, const std::string& name) {
  const NetcdfKind kind = f.attribute_kind(name);
  if (kind == NetcdfKind::Missing) f.fail(name, -1, "the global attribute is missing");
  if (kind != NetcdfKind::Text) f.fail(name, -1, "expected a text attribute");
  return *f.text_attribute(name);
}

int int_attribute_in(const NetcdfReader& f, const std::string& name, long long lo, long long hi,
                     const std::string& what) {
  const long long v = int_attribute(f, name);
  if (v < lo || v > hi) f.fail(name, -1, fmt::format("= {}, expected {}", v, what));
  return static_cast<int>(v);
}

// ---- Configuration ----------------------------------------------------------------------------

namespace {

/// What differs between the granules' configurations: their field table, the validation the
/// granule applies, and the prefix of that validation's messages.
template <class Config>
struct ConfigRules;
template <>
struct ConfigRules<DiffusionConfig> {
  static const std::vector<ConfigField>& table() { return diffusion_config_fields(); }
  static void validate(const DiffusionConfig& c) { c.validate(); }
  static constexpr const char* prefix = "diffusion config: ";
};
template <>
struct ConfigRules<DycoreConfig> {
  static const std::vector<ConfigFieldOf<DycoreConfig>>& table() { return dycore_config_fields(); }
  static void validate(const DycoreConfig& c) { c.validate_for_solve_nh(); }
  static constexpr const char* prefix = "dycore config: ";
};

}  // namespace

template <class Config>
void write_config_attributes(NetcdfWriter& nc, const Config& config) {
  for (const auto& field : ConfigRules<Config>::table()) {
    const std::string name = config_attribute_name(field.name);
    if (field.kind == ConfigKind::Real)
      nc.number("", name, field.get(config));
    else
      nc.integer("", name, static_cast<int>(field.get(config)));
  }
}

template <class Config>
Config read_config_attributes(const NetcdfReader& f) {
  using Rules = ConfigRules<Config>;
  Config c;
  for (const auto& field : Rules::table()) {
    const std::string name = config_attribute_name(field.name);
    switch (field.kind) {
      case ConfigKind::Real: field.set(c, real_attribute(f, name)); break;
      case ConfigKind::Bool: field.set(c, bool_attribute(f, name) ? 1 : 0); break;
      case ConfigKind::Int: {
        const long long v = int_attribute(f, name);
        if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
          f.fail(name, -1, fmt::format("= {} does not fit a 32-bit integer", v));
        field.set(c, static_cast<double>(v));
        break;
      }
      case ConfigKind::Enum: {
        const long long v = int_attribute(f, name);
        const bool known = std::any_of(field.values.begin(), field.values.end(),
                                       [v](const ConfigEnumValue& e) { return e.value == v; });
        if (!known) {
          std::vector<std::string> allowed;
          for (const ConfigEnumValue& e : field.values)
            allowed.push_back(fmt::format("{} ({})", e.value, e.meaning));
          f.fail(name, -1,
                 fmt::format("= {} is not a value of {} (ICON {}); the encoding is {}", v,
                             field.enum_type, field.icon_label(), fmt::join(allowed, ", ")));
        }
        field.set(c, static_cast<double>(v));
        break;
      }
    }
  }
  try {
    Rules::validate(c);
  } catch (const ConfigError& e) {
    // ConfigError names the field ("<granule> config: <field> (ICON ..."): point at its
    // attribute.
    std::string variable = "config";
    const std::string message = e.what();
    const std::string prefix = Rules::prefix;
    if (message.rfind(prefix, 0) == 0) {
      const std::string field =
          message.substr(prefix.size(), message.find(' ', prefix.size()) - prefix.size());
      for (const auto& entry : Rules::table())
        if (entry.name == field) variable = config_attribute_name(field);
    }
    f.fail(variable, -1, fmt::format("the configuration is rejected: {}", message));
  }
  return c;
}

template void write_config_attributes(NetcdfWriter&, const DiffusionConfig&);
template void write_config_attributes(NetcdfWriter&, const DycoreConfig&);
template DiffusionConfig read_config_attributes<DiffusionConfig>(const NetcdfReader&);
template DycoreConfig read_config_attributes<DycoreConfig>(const NetcdfReader&);

// ---- Metadata ---------------------------------------------------------------------------------

std::string metadata_problem(const std::map<std::string, std::string>& metadata) {
  for (const auto& [key, value] : metadata) {
    if (!valid_metadata_key(key))
      return fmt::format(
          "metadata key '{}' is not a valid netCDF name part (letters, digits and _.+-@, "
          "starting with a letter, digit or _)",
          key);
    if (value.find('\0') != std::string::npos)
      return fmt::format("metadata value of '{}' contains a NUL character", key);
  }
  return "";
}

void write_metadata_attributes(NetcdfWriter& nc,
                               const std::map<std::string, std::string>& metadata) {
  for (const auto& [key, value] : metadata) nc.text("", metadata_prefix + key, value);
}

std::map<std::string, std::string> read_metadata_attributes(const NetcdfReader& f) {
  std::map<std::string, std::string> metadata;
  for (const std::string& name : f.attribute_names())
    if (name.rfind(metadata_prefix, 0) == 0)
      metadata[name.substr(metadata_prefix.size())] = text_attribute(f, name);
  return metadata;
}

}  // namespace icondiff::io::savepoint
