// A granule call as a Kokkos Tools connector sees it. In-process Tools callbacks record every
// kernel (parallel_for, parallel_reduce, parallel_scan), every region push and pop, allocation,
// deep copy and fence during one Diffusion::run, for both strategies, initial and regular calls
// and a configuration without temperature or turbulence diagnostics, and check that
//   - every kernel's label starts with icondiff::,
//   - every kernel runs inside the region nh_hdiff (the whole call, ICON's timer name) and inside a
//     step region directly under it (a kernel step's region is its label without the namespace,
//     an exchange step's exchange_<fields>, start_exchange_vn, wait_exchange_vn),
//   - no region has a kernel's name (tools that key by name, kp_kernel_timer, would merge them),
//   - the step regions are exactly the expected ones, in order, for the configuration,
//   - each exchange (start, wait) and each fence runs inside its exchange step's region,
//   - nothing is allocated or deep-copied inside the call, and on one rank nothing is fenced,
//   - regions are balanced,
//   - the kernels launched are exactly those the byte model (diffusion_kernel_bytes) and the
//     iteration-space table (diffusion_kernel_extents) describe for the configuration.
// The first test plants the faults these checks are for (an unlabelled kernel, reduce and scan
// inside a pushed region, a kernel outside any step region, one outside the call, a region named
// like a kernel, an allocation, a deep copy, a fence outside a step) and requires the same
// checking function to report each.
#include "support/granule_inputs.hpp"
#include "support/test_grids.hpp"
#include "support/tools_recording.hpp"

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_labels.hpp>
#include <icondiff/diffusion/diffusion_traffic.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace icondiff {
namespace tools_labels_test {

using M = TEST_MEMSPACE;
using Space = TEST_EXECSPACE;

const std::string call_region = "nh_hdiff";
const std::string kernel_prefix = "icondiff::diffusion::";

using test::Event;
using test::record;
using test::Recording;
using test::recording;
using test::ToolsRecorder;

// ---- The checks
// -----------------------------------------------------------------------------------

struct CallCheck {
  std::vector<std::string> problems;
  std::vector<std::string> steps;  ///< the regions pushed directly inside nh_hdiff, in order
  std::size_t kernels = 0;
  std::size_t fences = 0;
  std::size_t exchanges = 0;
};

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

std::string where(const Event& e) {
  std::string s = e.kind + " '" + e.name + "' in [";
  for (std::size_t i = 0; i < e.regions.size(); ++i) s += (i ? " > " : "") + e.regions[i];
  return s + "]";
}

/// Checks a recording of exactly one granule call (see the file comment); the problems are
/// readable sentences, empty when the call is as it should be.
CallCheck check_call(const Recording& r) {
  CallCheck c;
  int calls = 0;
  const auto in_step = [](const Event& e) {
    return e.regions.size() >= 2 && e.regions[0] == call_region && !e.regions[1].empty();
  };
  std::set<std::string> kernel_names, region_names;
  for (const Event& e : r.events) {
    if (e.kind == "parallel_for" || e.kind == "parallel_reduce" || e.kind == "parallel_scan") {
      ++c.kernels;
      kernel_names.insert(e.name);
      if (!starts_with(e.name, "icondiff::"))
        c.problems.push_back(where(e) + ": the label does not start with icondiff::");
      if (e.regions.empty() || e.regions[0] != call_region)
        c.problems.push_back(where(e) + ": outside the region " + call_region);
      else if (!in_step(e))
        c.problems.push_back(where(e) + ": inside " + call_region + " but in no step region");
    } else if (e.kind == "region") {
      region_names.insert(e.name);
      if (e.name == call_region) {
        ++calls;
        if (!e.regions.empty()) c.problems.push_back(where(e) + ": " + call_region + " nested");
      } else if (e.regions.empty()) {
        c.problems.push_back(where(e) + ": a region outside " + call_region);
      } else if (e.regions.size() == 1 && e.regions[0] == call_region) {
        c.steps.push_back(e.name);
      }
    } else if (e.kind == "allocation" || e.kind == "deep_copy") {
      c.problems.push_back(where(e) + ": inside the call");
    } else if (e.kind == "fence") {
      ++c.fences;
      if (!in_step(e)) c.problems.push_back(where(e) + ": a fence outside every step region");
    } else if (e.kind == "exchange_start" || e.kind == "exchange_wait") {
      ++c.exchanges;
      if (!in_step(e) || e.regions[1].find("exchange") == std::string::npos)
        c.problems.push_back(where(e) + ": an exchange outside an exchange step's region");
    } else {
      c.problems.push_back(where(e) + ": unknown event");
    }
  }
  for (const auto& name : region_names)
    if (kernel_names.count(name))
      c.problems.push_back("region '" + name +
                           "' has a kernel's name (tools keyed by name merge the two)");
  if (calls != 1)
    c.problems.push_back(std::to_string(calls) + " regions " + call_region + ", expected 1");
  if (r.unmatched_pops > 0 || !r.open.empty())
    c.problems.push_back("unbalanced regions: " + std::to_string(r.unmatched_pops) +
                         " pops without a push, " + std::to_string(r.open.size()) +
                         " regions still open");
  return c;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += "\n  " + l;
  return s;
}

// ---- The plant: the checks can fail -------------------------------------------------------------

struct Nothing {
  KOKKOS_INLINE_FUNCTION void operator()(const int) const {}
};
struct Count {
  using value_type = int;
  KOKKOS_INLINE_FUNCTION void operator()(const int, int& n) const { ++n; }
};
struct Scan {
  using value_type = int;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& sum, const bool) const { sum += i; }
};

/// Problems whose text contains `fragment`.
std::size_t count_problems(const CallCheck& c, const std::string& fragment) {
  std::size_t n = 0;
  for (const auto& p : c.problems) n += p.find(fragment) != std::string::npos;
  return n;
}

TEST(TEST_CATEGORY, tools_check_catches_unlabelled_and_misplaced_work) {
  using Policy = Kokkos::RangePolicy<Space>;
  // Without initialisation, so that the allocation below launches no kernel of Kokkos' own.
  Kokkos::View<double*, M> planted_view;
  const Kokkos::View<double*, M> copy_from("icondiff::test::copy_from", 8),
      copy_to("icondiff::test::copy_to", 8);
  CallCheck c;
  {
    ToolsRecorder recorder;
    {
      compat::ScopedRegion call(call_region);
      {
        compat::ScopedRegion step("planted_step");
        Kokkos::parallel_for(Policy(0, 4), Nothing{});  // unlabelled: Kokkos names it by type
        int n = 0;
        Kokkos::parallel_reduce(Policy(0, 4), Count{}, n);
        Kokkos::parallel_scan(Policy(0, 4), Scan{});
        {
          compat::ScopedRegion named_like_its_kernel("icondiff::test::labelled_in_a_step");
          Kokkos::parallel_for("icondiff::test::labelled_in_a_step", Policy(0, 4), Nothing{});
        }
        planted_view = Kokkos::View<double*, M>(
            Kokkos::view_alloc(Kokkos::WithoutInitializing, "icondiff::test::planted_allocation"),
            8);
        Kokkos::deep_copy(copy_to, copy_from);
      }
      Kokkos::parallel_for("icondiff::test::outside_a_step", Policy(0, 4), Nothing{});
      compat::fence(Space(), "icondiff::test::fence_outside_a_step");
    }
    Kokkos::parallel_for("icondiff::test::outside_the_call", Policy(0, 4), Nothing{});
    compat::fence(Space(), "icondiff::test::plant");
    c = check_call(recording());
  }
  SCOPED_TRACE("problems found:" + joined(c.problems));
  EXPECT_EQ(c.kernels, 6u);
  EXPECT_EQ(count_problems(c, "the label does not start with icondiff::"), 3u)
      << "the unlabelled parallel_for, parallel_reduce and parallel_scan";
  EXPECT_EQ(count_problems(c, "'icondiff::test::outside_a_step'"), 1u);
  EXPECT_EQ(count_problems(c, "in no step region"), 1u);
  EXPECT_EQ(count_problems(c, "'icondiff::test::outside_the_call'"), 1u);
  EXPECT_EQ(count_problems(c, "outside the region nh_hdiff"), 1u);
  EXPECT_EQ(count_problems(c, "kernel's name"), 1u) << "the region named like its kernel";
  EXPECT_EQ(count_problems(c, "parallel_for 'icondiff::test::labelled_in_a_step'"), 0u);
  EXPECT_EQ(count_problems(c, "allocation 'icondiff::test::planted_allocation'"), 1u);
  EXPECT_EQ(count_problems(c, "deep_copy 'icondiff::test::copy_to'"), 1u);
  EXPECT_EQ(count_problems(c, "fence 'icondiff::test::fence_outside_a_step'"), 1u);
  EXPECT_EQ(c.steps, std::vector<std::string>{"planted_step"});

  // Nothing recorded but a call without its region or with an unbalanced one is reported too.
  Recording unbalanced;
  unbalanced.unmatched_pops = 1;
  const CallCheck u = check_call(unbalanced);
  EXPECT_EQ(count_problems(u, "0 regions nh_hdiff"), 1u) << joined(u.problems);
  EXPECT_EQ(count_problems(u, "unbalanced regions"), 1u) << joined(u.problems);
}

// ---- The granule
// ----------------------------------------------------------------------------------

/// An exchange that moves nothing but records, as Tools events, where its start and wait run;
/// `synchronize` makes the granule fence before each exchange as it does on several ranks.
class RecordingExchange final : public HaloExchange<Space> {
 public:
  explicit RecordingExchange(bool synchronize) : synchronize_(synchronize) {}
  HaloExchangeHandle start(const Space&, Location location, const HaloField*, int) override {
    record("exchange_start", to_string(location));
    return {next_++};
  }
  void wait(HaloExchangeHandle) override { record("exchange_wait", ""); }
  bool needs_synchronization() const override { return synchronize_; }

 private:
  bool synchronize_;
  int next_ = 0;
};

struct Case {
  std::string name;
  DiffusionConfig config;
};

std::vector<Case> configurations() {
  std::vector<Case> cases = {
      {"MeteoSwiss (NWP forcing, turbulence, temperature)", mch_ch_r04b09_config()}};
  Case bare{"ICON defaults, no temperature, no turbulence diagnostics", DiffusionConfig{}};
  bare.config.a_hshr = 0.0;
  bare.config.apply_to_temperature = false;
  cases.push_back(bare);
  return cases;
}

/// The steps of one call (docs/dev/diffusion.md, "Steps"), written out here from the spec rather
/// than taken from diffusion_labels, so that renaming a region shows up as a failing test.
std::vector<std::string> expected_steps(const DiffusionConfig& config, DiffusionStrategy strategy,
                                        bool initial_run) {
  // Step regions carry no namespace: ICON4Py's names, as in the built-in timer table.
  std::vector<std::string> s = {"scale_k",                                             // S1
                                "rbf_vector_interpolation_of_u_v_vert_before_nabla2",  // S2
                                "exchange_u_v_vert_before_nabla2",                     // X1
                                "calculate_nabla2_and_smag_coefficients_for_vn"};      // S3
  if (config.computes_turbulence_diagnostics())
    s.push_back("calculate_diagnostic_quantities_for_turbulence");          // S4
  s.insert(s.end(), {"exchange_z_nabla2_e",                                 // X2
                     "rbf_vector_interpolation_of_u_v_vert_before_nabla4",  // S5
                     "exchange_u_v_vert_before_nabla4",                     // X3
                     "apply_diffusion_to_vn",                               // S6
                     "start_exchange_vn"});                                 // X4a
  if (strategy == DiffusionStrategy::Unfused)
    s.insert(s.end(),
             {"copy_w",                                                                  // S7
              "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence"});  // S8
  else
    s.insert(s.end(), {"calculate_nabla2_for_w_and_horizontal_gradients",
                       "apply_nabla4_and_damping_to_w"});  // S7+S8 fused
  s.push_back("wait_exchange_vn");                         // X4b
  if (config.apply_to_temperature)
    s.insert(s.end(),
             {"calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools",  // S9
              "copy_theta_v",                                                         // S10
              "apply_diffusion_to_theta_and_exner"});                                 // S11
  const bool physics = config.iforcing == ForcingType::Nwp || config.iforcing == ForcingType::Aes;
  if (initial_run || !physics) {
    if (config.apply_to_temperature) s.push_back("exchange_theta_v_exner");  // X5
    s.push_back("exchange_w");                                               // X6
  }
  return s;
}

bool is_exchange_step(const std::string& step) {
  return step.find("exchange") != std::string::npos;
}

/// The exchange events of `steps`: start + wait for a whole exchange, one for X4a or X4b.
std::size_t expected_exchange_events(const std::vector<std::string>& steps) {
  std::size_t n = 0;
  for (const auto& s : steps)
    if (is_exchange_step(s)) n += s == "wait_exchange_vn" || s == "start_exchange_vn" ? 1 : 2;
  return n;
}

/// The exchange steps that start an exchange (a fence before each when the exchange moves data).
std::size_t expected_starts(const std::vector<std::string>& steps) {
  std::size_t n = 0;
  for (const auto& s : steps) n += is_exchange_step(s) && s != "wait_exchange_vn";
  return n;
}

TEST(TEST_CATEGORY, granule_call_kernels_are_labelled_and_inside_named_regions) {
  // A small limited-area grid (627 cells) on which every step's range is non-empty; the 10-degree
  // cap of test::generated_lam (156 cells) has no interior cells.
  const Grid grid = load_grid_source("generate:R2B4/cap:8,46.5,20");
  const int nlev = 10;
  const DeviceGrid<M> device(grid);
  const VerticalGrid vertical = test::make_test_vertical_grid(nlev, 30000.0, 12500.0);
  test::RandomSource rng(20261214);
  reference::GranuleInputs inputs;
  reference::GranuleState state;
  test::make_random_granule(grid, nlev, rng, inputs, state);
  const DiffusionInputs<M> device_inputs = test::to_device<M>(inputs, device, vertical);
  auto fields = test::to_device<M>(state);

  for (const Case& config_case : configurations())
    for (const bool synchronize : {false, true})
      for (const auto strategy : {DiffusionStrategy::Fused, DiffusionStrategy::Unfused})
        for (const bool initial_run : {true, false}) {
          SCOPED_TRACE(config_case.name + ", " + to_string(strategy) +
                       (initial_run ? ", initial run" : ", regular run") +
                       (synchronize ? ", exchange fenced (as on several ranks)" : ", one rank"));
          DiffusionOptions<Space> options;
          options.strategy = strategy;
          options.exchange = std::make_shared<RecordingExchange>(synchronize);
          Diffusion<Space> granule(config_case.config, device_inputs, options);
          compat::fence(Space(), "icondiff::test::after_init");
          CallCheck c;
          std::vector<Event> events;
          {
            ToolsRecorder recorder;
            granule.run(fields.diagnostic, fields.prognostic, 10.0, initial_run);
            c = check_call(recording());
            events = recording().events;
          }
          compat::fence(Space(), "icondiff::test::after_run");
          EXPECT_TRUE(c.problems.empty())
              << c.problems.size() << " problems:" << joined(c.problems);
          const auto steps = expected_steps(config_case.config, strategy, initial_run);
          EXPECT_EQ(c.steps, steps) << "the step regions inside nh_hdiff";
          // A kernel step's region is its kernel's label without the namespace and holds it; an
          // exchange step's holds no kernel here (the recording exchange packs nothing).
          std::map<std::string, std::size_t> kernels_in_step;
          for (const Event& e : events)
            if (starts_with(e.kind, "parallel_") && e.regions.size() >= 2) {
              ++kernels_in_step[e.regions[1]];
              EXPECT_EQ(kernel_prefix + e.regions.back(), e.name) << "the step of " << where(e);
            }
          for (const auto& step : steps)
            if (is_exchange_step(step))
              EXPECT_EQ(kernels_in_step[step], 0u) << step;
            else
              EXPECT_GE(kernels_in_step[step], 1u) << step;
          // The benchmarks' byte model and iteration-space table cover exactly these kernels.
          std::set<std::string> launched;
          for (const Event& e : events)
            if (starts_with(e.kind, "parallel_")) launched.insert(e.name);
          std::set<std::string> modelled, extents;
          for (const auto& [label, bytes] :
               diffusion_kernel_bytes(granule.ranges(), grid.num_cells, grid.num_edges,
                                      grid.num_vertices, nlev, config_case.config, strategy))
            if (label != diffusion_labels::run) modelled.insert(label);
          for (const auto& [label, extent] :
               diffusion_kernel_extents(granule.ranges(), nlev, config_case.config, strategy)) {
            extents.insert(label);
            EXPECT_GE(extent.points, 1.0) << label;
            EXPECT_GE(extent.levels, 1) << label;
          }
          EXPECT_EQ(modelled, launched) << "diffusion_kernel_bytes";
          EXPECT_EQ(extents, launched) << "diffusion_kernel_extents";
          EXPECT_EQ(c.exchanges, expected_exchange_events(steps));
          // One rank: no fence at all; exchanges that move data: one fence before each start.
          EXPECT_EQ(c.fences, synchronize ? expected_starts(steps) : 0u);
        }
}

}  // namespace tools_labels_test
}  // namespace icondiff
