// icondiff: the command-line driver. Errors end in one clear line and a non-zero exit code,
// never a stack trace.
#include "commands.hpp"
#include "config_errors.hpp"
#include "ranks.hpp"

#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string_view>
#include <thread>
#include <vector>

namespace {

/// The problem with one of Kokkos' own numeric arguments, empty when it is fine. Kokkos 3.4 ends
/// with an uncaught exception on `--kokkos-threads=-3` or `=abc` and `--kokkos-numa=-1` (abort,
/// exit 134) and crashes creating `--kokkos-threads=100000` threads (each OpenMP thread reserves
/// its stack and Kokkos its per-thread scratch): they are checked here, before Kokkos sees them.
std::string kokkos_argument_problem(std::string_view argument) {
  // More than 4 threads per hardware thread only slows a run down (they share the cores; the
  // timings measure oversubscription) while every thread costs a stack and Kokkos scratch: 4x
  // leaves room for experiments with oversubscription and stays far from exhausting memory.
  const long hardware = std::max(1U, std::thread::hardware_concurrency());
  struct Numeric {
    std::string_view name;
    long min, max;
    const char* what;
  };
  const Numeric numeric[] = {
      {"--kokkos-threads", 1, 4 * hardware, "threads (at most 4 per hardware thread)"},
      {"--kokkos-num-threads", 1, 4 * hardware, "threads (at most 4 per hardware thread)"},
      {"--kokkos-numa", 1, hardware, "NUMA regions (at most one per hardware thread)"},
      {"--kokkos-device-id", 0, 1023, "the device's index"},
      {"--kokkos-num-devices", 1, 1024, "devices"},
  };
  for (const Numeric& n : numeric) {
    if (argument.rfind(n.name, 0) != 0) continue;
    std::string_view rest = argument.substr(n.name.size());
    if (!rest.empty() && rest.front() != '=') continue;  // a longer name
    const std::string range = fmt::format("{}..{}", n.min, n.max);
    if (rest.empty())
      return fmt::format("{}: expected {}=N, N the number of {} in {}", n.name, n.name, n.what,
                         range);
    rest.remove_prefix(1);
    // --kokkos-num-devices=N[,SKIP]: the count is checked.
    if (n.name == "--kokkos-num-devices") rest = rest.substr(0, rest.find(','));
    long value = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
    if (rest.empty() || error != std::errc() || end != rest.data() + rest.size() || value < n.min ||
        value > n.max)
      return fmt::format("{}: expected {} in {}, not '{}'", argument, n.what, range, rest);
  }
  return {};
}

}  // namespace

int main(int argc, char* argv[]) {
  // MPI first (when started by mpirun), then Kokkos; finalised in the reverse order.
  const icondiff::cli::MpiSession mpi(argc, argv);
  const icondiff::cli::Ranks ranks = icondiff::cli::Ranks::world();
  // Unset OMP_PROC_BIND means "false" to libgomp anyway; saying so keeps Kokkos 3.4 from warning.
  setenv("OMP_PROC_BIND", "false", 0);
  // Kokkos sees only its own --kokkos-* arguments (it would also act on an unprefixed --help and
  // print its help page before ours); CLI11 sees everything else.
  std::vector<char*> kokkos_args{argv[0]};
  std::vector<char*> cli_args{argv[0]};
  for (int i = 1; i < argc; ++i)
    (std::string_view(argv[i]).rfind("--kokkos-", 0) == 0 ? kokkos_args : cli_args)
        .push_back(argv[i]);
  for (std::size_t i = 1; i < kokkos_args.size(); ++i) {
    const std::string problem = kokkos_argument_problem(kokkos_args[i]);
    if (problem.empty()) continue;
    // Every rank has the same arguments: one prints; CLI11's code for a value failing its check.
    if (ranks.root()) fmt::print(stderr, "icondiff: error: {}\n", problem);
    return static_cast<int>(CLI::ExitCodes::ValidationError);
  }
  int kokkos_argc = static_cast<int>(kokkos_args.size());
  kokkos_args.push_back(nullptr);
  icondiff::compat::initialize(kokkos_argc, kokkos_args.data());
  argc = static_cast<int>(cli_args.size());
  cli_args.push_back(nullptr);
  argv = cli_args.data();
  int status = 1;
  {
    CLI::App app{"icondiff: ICON horizontal diffusion on CPUs and GPUs (Kokkos)", "icondiff"};
    // The field layout is a build's choice (ICONDIFF_FIELD_LAYOUT): said here, so that a script
    // can tell two builds apart (unit_tests/cli/test_cli_layouts.sh requires different ones).
    app.set_version_flag(
        "--version",
        std::string("icondiff ") + ICONDIFF_VERSION_STRING + " (Kokkos " +
            icondiff::compat::kokkos_version_string() + ", " +
            (icondiff::field_layout_is_icons ? "ICON's field layout" : "level-fastest fields") +
            ")");
    app.require_subcommand(1);
    // Options can come from a TOML/INI file, one section per subcommand ([run] with keys named as
    // the options). CLI11 2.1 reads config files only on the top-level app, so subcommands let
    // unknown options (--config) fall through to it; unknown keys in the file are an error.
    icondiff::cli::set_config_file_option(app);
    std::vector<std::pair<CLI::App*, icondiff::cli::Command>> commands;
    const auto add = [&](const char* name, const char* description, auto add_command) {
      auto* sub = app.add_subcommand(name, description);
      sub->fallthrough();
      commands.emplace_back(sub, add_command(*sub));
    };
    add("run",
        "Run the diffusion granule on a generated or real ICON grid and report per-kernel timers",
        icondiff::cli::add_run_command);
    add("verify",
        "Replay a captured granule call (savepoints) and compare with the expected outputs",
        icondiff::cli::add_verify_command);
    add("compare-timers",
        "Per-stencil speed-up of an icondiff timer report against ICON OpenACC timers",
        icondiff::cli::add_compare_timers_command);
    add("grid-info", "Read an ICON grid file and print its sizes and zones",
        icondiff::cli::add_grid_info_command);
    try {
      app.parse(argc, argv);
      for (auto& [sub, run] : commands)
        if (sub->parsed()) status = run();
    } catch (const CLI::ParseError& e) {
      // Every rank parses the same arguments; one prints.
      const CLI::Option* config = app.get_config_ptr();
      // The raw value: as<>() would validate it again (and throw from here) when it failed.
      const std::string config_path = config != nullptr && !config->results().empty()
                                          ? config->results().front()
                                          : std::string();
      const std::string described =
          config_path.empty() ? e.what()
                              : icondiff::cli::describe_config_error(config_path, e.what());
      if (ranks.root() && described != e.what()) {
        // A configuration file's key or value: name the file and the line.
        fmt::print(stderr, "icondiff: error: {}\n", described);
        status = e.get_exit_code();
      } else if (ranks.root()) {
        status = app.exit(e);
      } else {
        std::ostringstream quiet;
        status = app.exit(e, quiet, quiet);
      }
    } catch (const icondiff::CollectiveError& e) {
      // Every rank has the same message: rank 0 prints it, every rank exits with 2.
      if (ranks.root()) fmt::print(stderr, "icondiff: error: {}\n", e.what());
      status = 2;
    } catch (const icondiff::Error& e) {
      // Only this rank failed (or there is one rank): the others cannot know, so end the job.
      fmt::print(stderr, "icondiff: error: {}{}\n",
                 ranks.decomposed() ? fmt::format("rank {}: ", ranks.rank()) : "", e.what());
      status = 2;
      icondiff::cli::MpiSession::abort_job(status);
    } catch (const std::exception& e) {
      fmt::print(stderr, "icondiff: unexpected error: {}{}\n",
                 ranks.decomposed() ? fmt::format("rank {}: ", ranks.rank()) : "", e.what());
      status = 3;
      icondiff::cli::MpiSession::abort_job(status);
    }
  }
  Kokkos::finalize();
  return status;
}
