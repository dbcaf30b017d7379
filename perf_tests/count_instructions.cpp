// Instructions per kernel of the diffusion granule, counted by valgrind's callgrind: a number that
// does not move with the load of a noisy machine, unlike a time. Sets up the granule as
// bench_diffusion does (ICON4Py's benchmark configuration, vertical grid and metrics, the
// Jablonowski-Williamson state), then per strategy runs one warm-up call and --calls measured
// calls. In-process Kokkos Tools callbacks on every parallel_for (and parallel_reduce) of a
// measured call split callgrind's counts with client requests (<valgrind/callgrind.h>):
//
//   begin of a kernel:  CALLGRIND_DUMP_STATS_AT("icondiff-count <strategy> <call> host")
//   end of a kernel:    CALLGRIND_DUMP_STATS_AT("icondiff-count <strategy> <call> kernel <label>")
//   after the call:     CALLGRIND_DUMP_STATS_AT("icondiff-count <strategy> <call> host")
//
// Each dump holds the cost since the previous one and resets the counters; the counters are
// zeroed (CALLGRIND_ZERO_STATS) before each measured call. So a "kernel" dump is exactly that
// launch (Kokkos' dispatch and the OpenMP runtime included), the "host" dumps are the host code of
// the call between kernels (argument checks, profiling regions, exchange steps), and the whole call
// is the sum of the call's dumps. perf_tests/granule_benchmark.py sums the dumps by their trigger
// names ("Client Request: ..." in callgrind's output files).
//
//   valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=DIR/callgrind.out.%p
//            count_instructions --grid generate:R2B3 --nlev 65 --json DIR/plan.json
//
// --instr-atstart=no skips the set-up (CALLGRIND_START_INSTRUMENTATION comes after it); the warm-up
// call of each strategy is dumped too, under <call> = "warmup", and not counted by the driver.
// Without valgrind (RUNNING_ON_VALGRIND == 0) every request is a no-op: the program says so and
// runs the same calls (the ctest smoke test does this).
//
// --json FILE writes what was run: the grid, the levels, and per strategy every kernel label with
// its launches per call and its points and levels (the iteration space of the launch, from the
// granule's ranges), so a driver can divide counts by cell-levels and by point-levels.
#include "support/diffusion_benchmark_setup.hpp"

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_labels.hpp>
#include <icondiff/diffusion/diffusion_traffic.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <valgrind/callgrind.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;

/// The granule as every diffusion benchmark sets it up.
using Setup = icondiff::bench::DiffusionBenchmarkSetup<M>;

// ---- Splitting callgrind's counts at every kernel ----------------------------------------------

/// The prefix of every dump this program asks for; other dumps (program end) are not ours.
const std::string dump_prefix = "icondiff-count ";

struct Counting {
  bool active = false;                  ///< inside a measured call
  std::string host_dump;                ///< "icondiff-count <strategy> <call> host"
  std::string call_prefix;              ///< "icondiff-count <strategy> <call> kernel "
  std::string kernel_dump;              ///< the dump name of the kernel running now
  std::map<std::string, int> launches;  ///< launches of each label in the measured calls
};

Counting& counting() {
  static Counting c;
  return c;
}

void on_begin_kernel(const char* name, std::uint32_t, std::uint64_t*) {
  Counting& c = counting();
  if (!c.active) return;
  // The name is built before the host dump, so the kernel's dump holds no string work.
  c.kernel_dump = c.call_prefix + (name ? name : "");
  ++c.launches[name ? name : ""];
  CALLGRIND_DUMP_STATS_AT(c.host_dump.c_str());
}

void on_end_kernel(std::uint64_t) {
  Counting& c = counting();
  if (!c.active) return;
  CALLGRIND_DUMP_STATS_AT(c.kernel_dump.c_str());
}

/// Registers the callbacks for its lifetime.
struct KernelCallbacks {
  KernelCallbacks() {
    icondiff::compat::set_begin_parallel_for_callback(on_begin_kernel);
    icondiff::compat::set_end_parallel_for_callback(on_end_kernel);
    icondiff::compat::set_begin_parallel_reduce_callback(on_begin_kernel);
    icondiff::compat::set_end_parallel_reduce_callback(on_end_kernel);
  }
  ~KernelCallbacks() {
    icondiff::compat::set_begin_parallel_for_callback(nullptr);
    icondiff::compat::set_end_parallel_for_callback(nullptr);
    icondiff::compat::set_begin_parallel_reduce_callback(nullptr);
    icondiff::compat::set_end_parallel_reduce_callback(nullptr);
  }
  KernelCallbacks(const KernelCallbacks&) = delete;
  KernelCallbacks& operator=(const KernelCallbacks&) = delete;
};

// ---- Command line ------------------------------------------------------------------------------

struct Options {
  std::string grid = "generate:R2B3";
  int nlev = 65;
  int calls = 1;
  std::string schedule = icondiff::to_string(icondiff::default_loop_schedule<Space>());
  std::string level_block = "1";
  std::vector<std::string> strategies = {"unfused", "fused"};
  std::string json;
};

const char* usage =
    "usage: count_instructions [--grid SOURCE] [--nlev N] [--calls N] [--schedule S]\n"
    "                          [--level-block N|all] [--strategies unfused,fused] [--json FILE]\n"
    "\n"
    "Runs the diffusion granule (bench_diffusion's set-up) and splits callgrind's instruction\n"
    "counts per kernel with client requests. Run it under\n"
    "  valgrind --tool=callgrind --instr-atstart=no count_instructions ...\n"
    "(perf_tests/granule_benchmark.py does, and sums the dumps).\n"
    "\n"
    "  --grid SOURCE       grid source, e.g. generate:R2B3 (default) or a grid file\n"
    "  --nlev N            levels (default 65)\n"
    "  --calls N           measured calls per strategy after one warm-up (default 1)\n"
    "  --schedule S        level-chunks, points-outer, mdrange or flat (default: the build's\n"
    "                      default, level-chunks with ICON's field layout)\n"
    "  --level-block N     levels per work item of level-chunks / mdrange: 1 (default), 2, ..., "
    "all\n"
    "  --strategies LIST   comma-separated, default unfused,fused\n"
    "  --json FILE         write what was run (grid, levels, kernels, points, levels) as JSON\n";

/// A command-line mistake: reported with the usage, exit status 2.
struct UsageError {
  std::string message;
};
/// --help: the usage on stdout, exit status 0.
struct HelpRequested {};

[[noreturn]] void fail(const std::string& message) {
  throw UsageError{message};
}

int to_int(const std::string& option, const std::string& value, int minimum) {
  char* end = nullptr;
  const long v = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v < minimum || v > 1000000)
    fail(option + " " + value + ": expected an integer >= " + std::to_string(minimum));
  return static_cast<int>(v);
}

Options parse(int argc, char* argv[]) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") throw HelpRequested{};
    if (i + 1 >= argc) fail("unknown option or missing value: " + arg);
    const std::string value = argv[++i];
    if (arg == "--grid") {
      o.grid = value;
    } else if (arg == "--nlev") {
      o.nlev = to_int(arg, value, 2);
    } else if (arg == "--calls") {
      o.calls = to_int(arg, value, 1);
    } else if (arg == "--schedule") {
      o.schedule = value;
    } else if (arg == "--level-block") {
      if (value != "all") to_int(arg, value, 1);
      o.level_block = value;
    } else if (arg == "--strategies") {
      o.strategies.clear();
      std::stringstream list(value);
      for (std::string s; std::getline(list, s, ',');)
        if (!s.empty()) o.strategies.push_back(s);
      if (o.strategies.empty()) fail("--strategies: empty list");
    } else if (arg == "--json") {
      o.json = value;
    } else {
      fail("unknown option " + arg);
    }
  }
  return o;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (static_cast<unsigned char>(ch) < 0x20) continue;
    out += ch;
  }
  return out + "\"";
}

struct StrategyRun {
  std::string name;
  std::map<std::string, icondiff::DiffusionKernelExtent> extents;
  std::map<std::string, int> launches;  ///< per measured call
};

int run(const Options& o) {
  const auto schedule = icondiff::parse_loop_schedule(o.schedule);
  const icondiff::index_t level_block =
      o.level_block == "all" ? icondiff::all_levels : std::stoi(o.level_block);
  std::vector<icondiff::DiffusionStrategy> strategies;
  for (const auto& s : o.strategies) strategies.push_back(icondiff::parse_strategy(s));

  const bool valgrind = RUNNING_ON_VALGRIND != 0;
  if (valgrind)
    std::printf("running under valgrind: dumps named \"%s<strategy> <call> host|kernel <label>\"\n",
                dump_prefix.c_str());
  else
    std::printf(
        "not running under valgrind: the callgrind requests are no-ops, nothing is counted (run "
        "it as valgrind --tool=callgrind --instr-atstart=no count_instructions ...)\n");
  std::fflush(stdout);

  const Setup s(o.grid, o.nlev, "icondiff::count_instructions::");
  const auto& g = s.host.grid;
  std::printf("grid %s: %d cells, %d edges, %d vertices, %d levels; schedule %s, level block %s\n",
              o.grid.c_str(), g.num_cells, g.num_edges, g.num_vertices, s.nlev, o.schedule.c_str(),
              o.level_block.c_str());

  std::vector<StrategyRun> runs;
  bool instrumented = false;
  for (const auto strategy : strategies) {
    icondiff::DiffusionOptions<Space> options;
    options.strategy = strategy;
    options.schedule = schedule;
    options.level_block = level_block;
    icondiff::Diffusion<Space> diffusion(s.config, s.inputs, options);
    StrategyRun r{
        icondiff::to_string(strategy),
        icondiff::diffusion_kernel_extents(diffusion.ranges(), s.nlev, s.config, strategy),
        {}};
    // Instrumentation from here on: the set-up above runs uncounted (--instr-atstart=no).
    if (!instrumented) {
      CALLGRIND_START_INSTRUMENTATION;
      instrumented = true;
    }
    {
      KernelCallbacks callbacks;
      Counting& c = counting();
      // Call -1 is the warm-up, dumped as "warmup" (first touch, and the lazy binding of whatever
      // the callbacks' path calls the first time): the driver reads only numbered calls.
      for (int call = -1; call < o.calls; ++call) {
        const std::string id =
            dump_prefix + r.name + " " + (call < 0 ? "warmup" : std::to_string(call)) + " ";
        c.host_dump = id + "host";
        c.call_prefix = id + "kernel ";
        if (call == 0) c.launches.clear();
        CALLGRIND_ZERO_STATS;
        c.active = true;
        diffusion.run(s.diagnostic, s.prognostic, s.dtime, false);
        Space().fence();
        c.active = false;
        CALLGRIND_DUMP_STATS_AT(c.host_dump.c_str());
      }
      for (const auto& [label, n] : c.launches) r.launches[label] = n / o.calls;
    }
    std::printf("%s: %d measured call(s), kernels per call:\n", r.name.c_str(), o.calls);
    for (const auto& [label, n] : r.launches) {
      const auto it = r.extents.find(label);
      if (it == r.extents.end())
        std::printf("  %-80s %2d launch(es), extent unknown\n", label.c_str(), n);
      else
        std::printf("  %-80s %2d launch(es), %.0f %s x %d levels\n", label.c_str(), n,
                    it->second.points, it->second.location, it->second.levels);
    }
    runs.push_back(std::move(r));
  }
  if (instrumented) CALLGRIND_STOP_INSTRUMENTATION;

  if (!o.json.empty()) {
    std::ofstream f(o.json);
    if (!f) {
      std::fprintf(stderr, "count_instructions: error: cannot write %s\n", o.json.c_str());
      return 1;
    }
    f << "{\n  \"grid\": " << json_string(o.grid) << ",\n  \"num_cells\": " << g.num_cells
      << ",\n  \"num_edges\": " << g.num_edges << ",\n  \"num_vertices\": " << g.num_vertices
      << ",\n  \"nlev\": " << s.nlev << ",\n  \"cell_levels\": " << s.cell_levels()
      << ",\n  \"schedule\": " << json_string(o.schedule)
      << ",\n  \"level_block\": " << json_string(o.level_block) << ",\n  \"calls\": " << o.calls
      << ",\n  \"under_valgrind\": " << (valgrind ? "true" : "false")
      << ",\n  \"dump_prefix\": " << json_string(dump_prefix) << ",\n  \"strategies\": {";
    for (std::size_t i = 0; i < runs.size(); ++i) {
      f << (i ? "," : "") << "\n    " << json_string(runs[i].name) << ": {";
      std::size_t j = 0;
      for (const auto& [label, n] : runs[i].launches) {
        const auto it = runs[i].extents.find(label);
        const icondiff::DiffusionKernelExtent e =
            it == runs[i].extents.end() ? icondiff::DiffusionKernelExtent{"unknown", 0, 0}
                                        : it->second;
        f << (j++ ? "," : "") << "\n      " << json_string(label) << ": {\"launches\": " << n
          << ", \"location\": " << json_string(e.location) << ", \"points\": " << e.points
          << ", \"levels\": " << e.levels << "}";
      }
      f << "\n    }";
    }
    f << "\n  }\n}\n";
    std::printf("wrote %s\n", o.json.c_str());
  }
  if (!valgrind) std::printf("finished without valgrind: nothing was counted\n");
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  icondiff::compat::initialize(argc, argv);
  int rc = 0;
  try {
    rc = run(parse(argc, argv));
  } catch (const HelpRequested&) {
    std::printf("%s", usage);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "count_instructions: error: %s\n\n%s", e.message.c_str(), usage);
    rc = 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "count_instructions: error: %s\n", e.what());
    rc = 1;
  }
  Kokkos::finalize();
  return rc;
}
