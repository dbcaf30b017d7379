// CLI11 reports a bad configuration file as "INI was not able to parse run.foo" or "Could not
// convert: --steps = two", naming neither the file nor the line. This turns such a message into
// one that does: "run.toml, line 3: unknown key 'foo' in [run]".
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace icondiff::cli {

/// `--config FILE` on the top-level app, as `icondiff` (src/cli/main.cpp) and the fuzz harness of
/// the configuration file set it up: TOML/INI, unknown keys an error; the file must be a regular
/// file of at most max_config_file_bytes (checked as soon as the option is parsed, before CLI11
/// reads it, and again while reading): `--config /dev/zero` is refused instead of read forever.
void set_config_file_option(CLI::App& app);

/// The configuration file given to the app `app` belongs to (its own or a parent's `--config`);
/// empty when none: an input of the command that no output may replace.
std::string config_file_of(const CLI::App& app);

/// The message for a CLI11 parse error `message` raised while reading the configuration file
/// `path`; `message` unchanged when it is not about a key of that file.
std::string describe_config_error(const std::string& path, const std::string& message);

}  // namespace icondiff::cli
