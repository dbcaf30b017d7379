// CLI11 reports a bad configuration file as "INI was not able to parse run.foo" or "Could not
// convert: --steps = two", naming neither the file nor the line. This turns such a message into
// one that does: "run.toml, line 3: unknown key 'foo' in [run]".
#pragma once

#include <string>

namespace icondiff::cli {

/// The message for a CLI11 parse error `message` raised while reading the configuration file
/// `path`; `message` unchanged when it is not about a key of that file.
std::string describe_config_error(const std::string& path, const std::string& message);

}  // namespace icondiff::cli
