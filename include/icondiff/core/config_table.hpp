// A granule's configuration described once, as a table of its members: names (C++ and ICON
// namelist), type, help text, typed access through a double, and the validation rule. Every
// granule's config struct has one (diffusion_config_fields(), dycore_config_fields()); validate(),
// the command line's namelist options, the savepoint's config attributes and icon_namelist_values
// are loops over it. A new member needs one row.
#pragma once

#include <icondiff/core/error.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace icondiff {

/// How a field is typed. Enums are stored and written as ICON's namelist integers.
enum class ConfigKind { Enum, Bool, Int, Real };

/// One value ICON defines for an enum field, and what it means.
struct ConfigEnumValue {
  int value;
  const char* meaning;
};

namespace detail {
/// A value as the table shows it: integers, true/false (or .TRUE./.FALSE. in namelist style),
/// reals in shortest form (src/core/config_table.cpp: fmt stays out of this header, which device
/// compilers parse).
std::string config_value_text(ConfigKind kind, double value, bool namelist_style);
/// "diffusion_nml:hdiff_order", "interpol_nml:nudge_max_coeff (x5)", "ICON internal".
std::string config_icon_label(const char* namelist, double namelist_scale);
/// Throws ConfigError "<what>: <name> (ICON <label>) = <value>: <why>".
[[noreturn]] void throw_config_field_error(const std::string& what, const char* name,
                                           const std::string& label, const std::string& value,
                                           const char* why);
}  // namespace detail

/// One member of the configuration struct `Config`.
template <class Config>
struct ConfigFieldOf {
  const char* name = "";  ///< the C++ member, named as in ICON4Py's config class
  /// "diffusion_nml:hdiff_order"; nullptr: ICON-internal, no namelist variable.
  const char* namelist = nullptr;
  ConfigKind kind = ConfigKind::Real;
  const char* help = "";  ///< one short line (the command line's help)
  /// member = namelist_scale * namelist value (5 for interpol_nml:nudge_max_coeff, whose value
  /// ICON4Py stores multiplied by 5); 1 for every other field.
  double namelist_scale = 1.0;
  const char* enum_type = "";           ///< Enum: the C++ type
  std::vector<ConfigEnumValue> values;  ///< Enum: every value ICON defines
  /// The member as a double (enums: their integer; bools: 0 or 1), and back. An enum's value is
  /// stored as given, defined or not: validate() or the caller decides whether it is acceptable.
  double (*get)(const Config&) = nullptr;
  void (*set)(Config&, double) = nullptr;
  /// validate()'s rule: nullptr (anything goes) or whether get() is accepted; `why` says what is.
  bool (*allowed)(double value) = nullptr;
  const char* why = "";

  /// The value in ICON's namelist units (get() / namelist_scale), and back.
  double namelist_value(const Config& c) const { return get(c) / namelist_scale; }
  void set_namelist_value(Config& c, double value) const { set(c, namelist_scale * value); }
  /// The namelist value as ICON writes it: integers, .TRUE./.FALSE., reals in shortest form.
  std::string namelist_text(const Config& c) const {
    return detail::config_value_text(kind, namelist_value(c), true);
  }
  /// The member's value as error messages show it: integers, true/false, reals in shortest form.
  std::string value_text(const Config& c) const {
    return detail::config_value_text(kind, get(c), false);
  }
  /// The ICON name as error messages show it: "diffusion_nml:hdiff_order",
  /// "interpol_nml:nudge_max_coeff (x5)", "ICON internal".
  std::string icon_label() const { return detail::config_icon_label(namelist, namelist_scale); }
  /// The namelist variable alone ("hdiff_order"; the command-line option), and its namelist
  /// ("diffusion_nml"); empty for ICON-internal fields.
  std::string namelist_variable() const {
    if (namelist == nullptr) return "";
    const std::string n = namelist;
    return n.substr(n.find(':') + 1);
  }
  std::string namelist_group() const {
    if (namelist == nullptr) return "";
    const std::string n = namelist;
    return n.substr(0, n.find(':'));
  }
};

/// Throws ConfigError "<what>: <field> (ICON <namelist>) = <value>: <why>" for the first field of
/// `table` whose rule refuses its value in `c`.
template <class Config>
void validate_config_fields(const std::vector<ConfigFieldOf<Config>>& table, const Config& c,
                            const std::string& what) {
  for (const auto& f : table)
    if (f.allowed != nullptr && !f.allowed(f.get(c)))
      detail::throw_config_field_error(what, f.name, f.icon_label(), f.value_text(c), f.why);
}

/// The configuration under ICON's namelist names ("diffusion_nml:hdiff_order" -> "5"), in the
/// table's order; every field with a namelist variable.
template <class Config>
std::vector<std::pair<std::string, std::string>> config_namelist_values(
    const std::vector<ConfigFieldOf<Config>>& table, const Config& c) {
  std::vector<std::pair<std::string, std::string>> values;
  for (const auto& f : table)
    if (f.namelist != nullptr) values.emplace_back(f.namelist, f.namelist_text(c));
  return values;
}

// ---- Building a table: config_table::field<&Config::member>(name, namelist, help).rule(...) ----
namespace config_table {

template <class C, class T>
T member_type(T C::*);
template <class C, class T>
C member_class(T C::*);

template <auto Member>
using MemberType = decltype(member_type(Member));
template <auto Member>
using MemberClass = decltype(member_class(Member));

template <auto Member>
double get_member(const MemberClass<Member>& c) {
  using T = MemberType<Member>;
  if constexpr (std::is_enum_v<T>)
    return static_cast<double>(static_cast<int>(c.*Member));
  else if constexpr (std::is_same_v<T, bool>)
    return c.*Member ? 1.0 : 0.0;
  else
    return static_cast<double>(c.*Member);
}

template <auto Member>
void set_member(MemberClass<Member>& c, double value) {
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
    static_assert(std::is_same_v<T, double>, "config tables hold enum, bool, int or double");
    return ConfigKind::Real;
  }
}

/// A table row under construction.
template <class Config>
struct Row {
  ConfigFieldOf<Config> f;
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
  operator ConfigFieldOf<Config>() const { return f; }  // NOLINT(google-explicit-constructor)
};

/// A row for `Member`; its kind and accessors follow from the member's type.
template <auto Member>
Row<MemberClass<Member>> field(const char* name, const char* namelist, const char* help) {
  Row<MemberClass<Member>> r;
  r.f.name = name;
  r.f.namelist = namelist;
  r.f.kind = kind_of<MemberType<Member>>();
  r.f.help = help;
  r.f.get = &get_member<Member>;
  r.f.set = &set_member<Member>;
  return r;
}

}  // namespace config_table
}  // namespace icondiff
