// libFuzzer harness of the configuration file of `icondiff run --config FILE` (TOML/INI): the
// input is the file's text. It goes through what the command line does (src/cli/main.cpp):
// CLI11 reads the file into the options of `icondiff run`; a parse error is described by
// describe_config_error (file, line, key); the options are then checked as `icondiff run` checks
// them before any work (add_run_checks_command: the DiffusionConfig resolved from the namelist
// options and validated, ranges, memory, output paths), without reading or generating a grid.
// Expected: success, a CLI11 ParseError, or an icondiff::Error with a message; anything else is a
// finding.
#include "commands.hpp"
#include "config_errors.hpp"
#include "fuzz_support.hpp"

#include <icondiff/core/error.hpp>

#include <fmt/format.h>

#include <exception>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = icondiff::fuzz::scratch_file("run.toml");
  icondiff::fuzz::write_bytes(path, data, size);
  // The app as src/cli/main.cpp builds it, with `icondiff run` only (checking, not running).
  CLI::App app{"icondiff", "icondiff"};
  app.require_subcommand(1);
  app.set_config("--config", "",
                 "read options from a TOML/INI file: a [run] section, keys named as the options");
  app.allow_config_extras(CLI::config_extras_mode::error);
  CLI::App* run = app.add_subcommand("run", "run");
  run->fallthrough();
  const icondiff::cli::Command checks = icondiff::cli::add_run_checks_command(*run);
  const char* argv[] = {"icondiff", "run", "--config", path.c_str()};
  try {
    app.parse(4, argv);
    if (run->parsed() && checks() != 0) icondiff::fuzz::finding("the run checks returned non-zero");
  } catch (const CLI::ParseError& e) {
    const std::string described = icondiff::cli::describe_config_error(path, e.what());
    if (described.empty()) icondiff::fuzz::finding("an empty description of a config error");
  } catch (const icondiff::Error& e) {
    icondiff::fuzz::expect_message(e);
  } catch (const std::exception& e) {
    icondiff::fuzz::finding(
        fmt::format("`icondiff run --config` threw something other than a "
                    "CLI11 or icondiff error: {}",
                    e.what()));
  }
  return 0;
}
