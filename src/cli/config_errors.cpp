#include "config_errors.hpp"
#include "output_paths.hpp"

#include <icondiff/core/error.hpp>

#include <fmt/format.h>

#include <fstream>
#include <regex>
#include <sstream>

namespace icondiff::cli {
namespace {

/// CLI11's TOML/INI reader, reading at most max_config_file_bytes of the stream.
class BoundedConfig : public CLI::ConfigTOML {
 public:
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override {
    std::string text(max_config_file_bytes + 1, '\0');
    input.read(text.data(), static_cast<std::streamsize>(text.size()));
    const auto got = static_cast<std::uintmax_t>(input.gcount());
    if (got > max_config_file_bytes)
      throw CLI::FileError(fmt::format(
          "--config: the file is longer than {} bytes; a configuration file with every option "
          "is a few kB",
          max_config_file_bytes));
    text.resize(got);
    std::istringstream bounded(text);
    return CLI::ConfigTOML::from_config(bounded);
  }
};

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

void set_config_file_option(CLI::App& app) {
  CLI::Option* config = app.set_config(
      "--config", "",
      "read options from a TOML/INI file: a [run] section, keys named as the options");
  config->trigger_on_parse()->check(CLI::Validator(
      [](std::string& path) -> std::string {
        try {
          check_input_file("--config", path, max_config_file_bytes);
        } catch (const Error& e) {
          // CLI11 puts "--config: " in front.
          const std::string message = e.what(), prefix = "--config ";
          return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
        }
        return {};
      },
      "FILE"));
  app.config_formatter(std::make_shared<BoundedConfig>());
  app.allow_config_extras(CLI::config_extras_mode::error);
}

std::string config_file_of(const CLI::App& app) {
  for (const CLI::App* a = &app; a != nullptr; a = a->get_parent()) {
    const CLI::Option* config = a->get_config_ptr();
    if (config != nullptr && !config->results().empty()) return config->results().front();
  }
  return {};
}

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
