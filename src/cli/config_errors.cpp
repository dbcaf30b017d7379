#include "config_errors.hpp"

#include <fmt/format.h>

#include <fstream>
#include <regex>

namespace icondiff::cli {
namespace {

/// The 1-based line of `key` in section `section` of the TOML/INI file `path`; 0 if not found.
int line_of(const std::string& path, const std::string& section, const std::string& key) {
  std::ifstream file(path);
  std::string line, current;
  const std::regex header(R"(^\s*\[\s*([^\]\s]+)\s*\]\s*$)");
  const std::regex assignment(
      "^\\s*" + std::regex_replace(key, std::regex(R"([.^$|()\[\]*+?{}\\])"), R"(\$&)") + "\\s*=");
  std::smatch m;
  for (int number = 1; std::getline(file, line); ++number) {
    if (std::regex_match(line, m, header)) {
      current = m[1];
      continue;
    }
    if (current == section && std::regex_search(line, assignment)) return number;
  }
  return 0;
}

std::string where(const std::string& path, int line) {
  return line > 0 ? fmt::format("{}, line {}", path, line) : path;
}

}  // namespace

std::string describe_config_error(const std::string& path, const std::string& message) {
  std::smatch m;
  // An unknown key: "INI was not able to parse run.foo".
  static const std::regex unknown(R"(not able to parse ([A-Za-z0-9_-]+)\.([A-Za-z0-9_.-]+))");
  if (std::regex_search(message, m, unknown)) {
    const std::string section = m[1], key = m[2];
    return fmt::format("{}: unknown key '{}' in [{}] (`icondiff {} --help` lists the options)",
                       where(path, line_of(path, section, key)), key, section, section);
  }
  // A value of the wrong type: "Could not convert: --steps = two".
  static const std::regex conversion(R"(Could not convert: --([A-Za-z0-9_-]+) = (.*))");
  if (std::regex_search(message, m, conversion)) {
    const std::string key = m[1], value = m[2];
    return fmt::format("{}: '{} = {}': not a valid value for --{}",
                       where(path, line_of(path, "run", key)), key, value, key);
  }
  return message;
}

}  // namespace icondiff::cli
