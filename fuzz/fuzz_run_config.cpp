// libFuzzer harness of the configuration file of `icondiff run --config FILE` (TOML/INI): the
// input is the file's text. It goes through what the command line does (src/cli/main.cpp):
// the file is checked (a regular file, its size bounded: set_config_file_option; inputs starting
// with "#PAD" are padded past the bound and must be refused), CLI11 reads it into the options of
// `icondiff run`; a parse error is described by
// describe_config_error (file, line, key); the options are then checked as `icondiff run` checks
// them before any work (add_run_checks_command: the DiffusionConfig resolved from the namelist
// options and validated, ranges, memory, output paths), without reading or generating a grid.
// Expected: success, a CLI11 ParseError, or an icondiff::Error with a message; anything else is a
// finding.
#include "commands.hpp"
#include "config_errors.hpp"
#include "fuzz_support.hpp"
#include "output_paths.hpp"

#include <icondiff/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = icondiff::fuzz::scratch_file("run.toml");
  // An input starting with "#PAD" stands for itself padded with comment lines past the size
  // limit (libFuzzer's inputs stay far below 1 MiB): such a file must be refused, never read.
  const std::string pad = "#PAD";
  const bool padded = size >= pad.size() && std::equal(pad.begin(), pad.end(), data);
  if (padded) {
    std::string text(reinterpret_cast<const char*>(data), size);
    text += "\n" + std::string(icondiff::cli::max_config_file_bytes, '#');
    icondiff::fuzz::write_bytes(path, reinterpret_cast<const std::uint8_t*>(text.data()),
                                text.size());
  } else {
    icondiff::fuzz::write_bytes(path, data, size);
  }
  // The app as src/cli/main.cpp builds it, with `icondiff run` only (checking, not running).
  CLI::App app{"icondiff", "icondiff"};
  app.require_subcommand(1);
  // The --config option exactly as main.cpp sets it: a regular file of at most
  // max_config_file_bytes, checked before CLI11 reads it and again while it reads.
  icondiff::cli::set_config_file_option(app);
  CLI::App* run = app.add_subcommand("run", "run");
  run->fallthrough();
  const icondiff::cli::Command checks = icondiff::cli::add_run_checks_command(*run);
  const char* argv[] = {"icondiff", "run", "--config", path.c_str()};
  try {
    app.parse(4, argv);
    if (padded) icondiff::fuzz::finding("a configuration file over the size limit was read");
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
