// icondiff: the command-line driver. Errors end in one clear line and a non-zero exit code,
// never a stack trace.
#include "commands.hpp"

#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <fmt/format.h>

#include <exception>
#include <vector>

int main(int argc, char* argv[]) {
  CLI::App app{"icondiff: ICON horizontal diffusion on CPUs and GPUs (Kokkos)", "icondiff"};
  app.set_version_flag("--version", std::string("icondiff ") + ICONDIFF_VERSION_STRING +
                                        " (Kokkos " + icondiff::compat::kokkos_version_string() +
                                        ")");
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, icondiff::cli::Command>> commands;
  {
    auto* sub =
        app.add_subcommand("grid-info", "Read an ICON grid file and print its sizes and zones");
    commands.emplace_back(sub, icondiff::cli::add_grid_info_command(*sub));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    for (auto& [sub, run] : commands)
      if (sub->parsed()) return run();
  } catch (const icondiff::Error& e) {
    fmt::print(stderr, "icondiff: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "icondiff: unexpected error: {}\n", e.what());
    return 3;
  }
  return 1;
}
