// The whole granule (Diffusion<TEST_EXECSPACE>::run) against the chained plain-loop reference on
// the real global and limited-area grids, over shear types, zdiffu on/off, temperature on/off,
// initial and regular steps, and both strategies; plus the exchange points, the timers and the
// errors for bad input. The kernel labels, profiling regions and "nothing allocated, copied or
// fenced inside run" are checked through Kokkos Tools in test_kokkos_tools_labels.hpp.
#include "reference/diffusion_reference.hpp"
#include "support/field_compare.hpp"
#include "support/granule_inputs.hpp"
#include "support/grid_files.hpp"
#include "support/test_grids.hpp"

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/io/grid_file.hpp>
#include <icondiff/io/grid_source.hpp>

#include <gtest/gtest.h>

namespace icondiff {
namespace granule_test {

using M = TEST_MEMSPACE;
using Space = TEST_EXECSPACE;

struct Case {
  std::string name;
  DiffusionConfig config;
  bool initial_run = false;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (int shear : {0, 1, 2}) {
    Case c{"shear_type " + std::to_string(shear), mch_ch_r04b09_config(), false};
    c.config.shear_type = static_cast<TurbulenceShearForcingType>(shear);
    out.push_back(c);
  }
  {
    Case c{"zdiffu off", mch_ch_r04b09_config(), false};
    c.config.apply_zdiffusion_t = false;
    out.push_back(c);
  }
  {
    Case c{"temperature off", mch_ch_r04b09_config(), false};
    c.config.apply_to_temperature = false;
    out.push_back(c);
  }
  out.push_back({"initial run", mch_ch_r04b09_config(), true});
  {
    Case c{"ICON defaults, no turbulence diagnostics", DiffusionConfig{}, false};
    c.config.a_hshr = 0.0;  // with shear_type 0 and loutshs false, S4 does not run
    out.push_back(c);
  }
  return out;
}

using test::GridCase;

std::vector<GridCase> granule_grids() {
  return test::granule_test_grids();
}

struct Fixture {
  Grid grid;
  DeviceGrid<M> device;
  VerticalGrid vertical;
  reference::GranuleInputs inputs;
  reference::GranuleState state;
  DiffusionInputs<M> device_inputs;
};

Fixture make_fixture(const Grid& grid, int nlev, std::uint64_t seed) {
  Fixture f;
  f.grid = grid;
  f.device = DeviceGrid<M>(grid);
  f.vertical = test::make_test_vertical_grid(nlev, 30000.0, 12500.0);
  test::RandomSource rng(seed);
  test::make_random_granule(grid, nlev, rng, f.inputs, f.state);
  f.device_inputs = test::to_device<M>(f.inputs, f.device, f.vertical);
  return f;
}

Diffusion<Space> make_granule(const Fixture& f, const DiffusionConfig& config,
                              DiffusionStrategy strategy,
                              std::shared_ptr<HaloExchange<Space>> exchange = nullptr) {
  DiffusionOptions<Space> options;
  options.strategy = strategy;
  options.exchange = std::move(exchange);
  return Diffusion<Space>(config, f.device_inputs, options);
}

reference::GranuleState run_granule(const Fixture& f, const Case& c, DiffusionStrategy strategy,
                                    double dtime,
                                    LoopSchedule schedule = default_loop_schedule<Space>(),
                                    index_t level_block = 1) {
  auto granule = make_granule(f, c.config, strategy);
  granule.set_loop_schedule(schedule);
  granule.set_level_block(level_block);
  auto state = test::to_device<M>(f.state);
  granule.run(state.diagnostic, state.prognostic, dtime, c.initial_run);
  compat::fence(Space(), "icondiff::test::granule");
  return test::to_host(state);
}

double worst_relative(const reference::GranuleState& a, const reference::GranuleState& b) {
  return std::max({test::max_relative_difference(a.vn, b.vn),
                   test::max_relative_difference(a.w, b.w),
                   test::max_relative_difference(a.theta_v, b.theta_v),
                   test::max_relative_difference(a.exner, b.exner),
                   test::max_relative_difference(a.div_ic, b.div_ic),
                   test::max_relative_difference(a.hdef_ic, b.hdef_ic),
                   test::max_relative_difference(a.dwdx, b.dwdx),
                   test::max_relative_difference(a.dwdy, b.dwdy)});
}

void expect_state_close(const reference::GranuleState& actual,
                        const reference::GranuleState& expected, double rtol, double atol) {
  EXPECT_TRUE(test::all_close("vn", actual.vn, expected.vn, rtol, atol));
  EXPECT_TRUE(test::all_close("w", actual.w, expected.w, rtol, atol));
  EXPECT_TRUE(test::all_close("theta_v", actual.theta_v, expected.theta_v, rtol, atol));
  EXPECT_TRUE(test::all_close("exner", actual.exner, expected.exner, rtol, atol));
  EXPECT_TRUE(test::all_close("div_ic", actual.div_ic, expected.div_ic, rtol, atol));
  EXPECT_TRUE(test::all_close("hdef_ic", actual.hdef_ic, expected.hdef_ic, rtol, atol));
  EXPECT_TRUE(test::all_close("dwdx", actual.dwdx, expected.dwdx, rtol, atol));
  EXPECT_TRUE(test::all_close("dwdy", actual.dwdy, expected.dwdy, rtol, atol));
}

void granule_matches_reference(const GridCase& gc) {
  const int nlev = 30;
  const double dtime = 10.0;
  const std::uint64_t seed = 20261122;
  SCOPED_TRACE(gc.name + ", seed " + std::to_string(seed));
  const Fixture f = make_fixture(gc.grid, nlev, seed);
  // In double the granule follows the reference's arithmetic; with vp = float it rounds where ICON
  // does.
  const double rtol = sizeof(vp) == sizeof(double) ? 1e-12 : 1e-4;
  const double atol = sizeof(vp) == sizeof(double) ? 1e-15 : 1e-6;
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    reference::GranuleState expected = f.state;
    reference::run_diffusion_reference(
        f.grid, test::reference_config(c.config, f.vertical, f.grid.limited_area), f.inputs,
        expected, dtime, c.initial_run);
    const auto unfused = run_granule(f, c, DiffusionStrategy::Unfused, dtime);
    const auto fused = run_granule(f, c, DiffusionStrategy::Fused, dtime);
    {
      SCOPED_TRACE("unfused vs reference");
      expect_state_close(unfused, expected, rtol, atol);
    }
    {
      SCOPED_TRACE("fused vs reference");
      expect_state_close(fused, expected, rtol, atol);
    }
    const double strategies = worst_relative(fused, unfused);
    std::printf("  %-18s %-45s max rel |fused - unfused| = %.3g, |unfused - reference| = %.3g\n",
                gc.name.c_str(), c.name.c_str(), strategies, worst_relative(unfused, expected));
    EXPECT_LE(strategies, sizeof(vp) == sizeof(double) ? 1e-14 : 1e-6);
  }
}

TEST(TEST_CATEGORY, granule_matches_chained_reference) {
  const auto grids = granule_grids();
  for (const auto& gc : grids) granule_matches_reference(gc);
}

// Every loop schedule and level block runs the same arithmetic per (point, level) — including the
// column bodies (levels()) the points-outer schedule calls — so the outputs equal the default
// schedule's bit for bit, in every case and both strategies.
TEST(TEST_CATEGORY, granule_is_bit_identical_with_every_schedule_and_level_block) {
  const auto grids = granule_grids();
  const GridCase& gc = grids.front();
  const Fixture f = make_fixture(gc.grid, 12, 20261125);
  const double dtime = 10.0;
  for (const Case& c : cases())
    for (const auto strategy : {DiffusionStrategy::Unfused, DiffusionStrategy::Fused}) {
      const auto expected = run_granule(f, c, strategy, dtime);
      for (const auto schedule : all_loop_schedules)
        for (const index_t block : {1, 3, all_levels}) {
          if (!uses_level_block(schedule) && block != 1) continue;
          SCOPED_TRACE(gc.name + ", " + c.name + ", " + to_string(strategy) + ", " +
                       to_string(schedule) + ", level block " + std::to_string(block));
          EXPECT_EQ(worst_relative(run_granule(f, c, strategy, dtime, schedule, block), expected),
                    0.0);
        }
    }
}

// ---- Exchange points (X1-X6) ------------------------------------------------------------------

/// Records every exchange the granule makes.
class RecordingExchange final : public HaloExchange<Space> {
 public:
  struct Event {
    std::string what;  ///< "start" or "wait"
    Location location = Location::Cell;
    std::vector<const void*> data;
    int handle = -1;  ///< the handle start returned, or the one wait received
  };
  HaloExchangeHandle start(const Space&, Location location, const HaloField* fields,
                           int count) override {
    Event e{"start", location, {}};
    for (int i = 0; i < count; ++i) e.data.push_back(fields[i].data);
    e.handle = next_handle++;
    events.push_back(e);
    return {e.handle};
  }
  void wait(HaloExchangeHandle handle) override {
    events.push_back({"wait", Location::Cell, {}, handle.id});
  }
  int next_handle = 0;
  std::vector<Event> events;
};

void expect_exchange_sequence(const Fixture& f, const DiffusionConfig& config, bool initial_run,
                              bool expect_final) {
  auto recorder = std::make_shared<RecordingExchange>();
  auto granule = make_granule(f, config, DiffusionStrategy::Fused, recorder);
  auto state = test::to_device<M>(f.state);
  granule.run(state.diagnostic, state.prognostic, 10.0, initial_run);
  const auto& e = recorder->events;
  std::vector<std::string> seen;
  for (const auto& ev : e) seen.push_back(ev.what + ":" + to_string(ev.location));
  std::vector<std::string> expected = {"start:vertex", "wait:cell", "start:edge", "wait:cell",
                                       "start:vertex", "wait:cell", "start:edge", "wait:cell"};
  if (expect_final) {
    if (config.apply_to_temperature) expected.insert(expected.end(), {"start:cell", "wait:cell"});
    expected.insert(expected.end(), {"start:cell", "wait:cell"});
  }
  EXPECT_EQ(seen, expected);
  ASSERT_GE(e.size(), 8u);
  EXPECT_EQ(e[0].data.size(), 2u);  // X1: u_vert, v_vert
  EXPECT_EQ(e[2].data.size(), 1u);  // X2: z_nabla2_e
  EXPECT_EQ(e[4].data.size(), 2u);  // X3: u_vert, v_vert
  ASSERT_EQ(e[6].data.size(), 1u);  // X4a: vn, overlapped with the w diffusion before X4b
  EXPECT_EQ(e[6].data[0], static_cast<const void*>(state.prognostic.vn.data()));
  // Every wait completes the exchange its start opened (handles pair up, none is lost).
  for (std::size_t i = 0; i + 1 < e.size(); i += 2) EXPECT_EQ(e[i + 1].handle, e[i].handle) << i;
  if (expect_final) {
    EXPECT_EQ(e.back().data.size(), 0u);
    EXPECT_EQ(e[e.size() - 2].data[0], static_cast<const void*>(state.prognostic.w.data()));  // X6
  }
}

TEST(TEST_CATEGORY, granule_exchange_points) {
  const auto grids = granule_grids();
  const Fixture f = make_fixture(grids.front().grid, 10, 7);
  DiffusionConfig nwp = mch_ch_r04b09_config();  // iforcing NWP: X5/X6 only in the initial run
  expect_exchange_sequence(f, nwp, false, false);
  expect_exchange_sequence(f, nwp, true, true);
  DiffusionConfig none = nwp;
  none.iforcing = ForcingType::NoForcing;  // no physics: X5/X6 every step
  expect_exchange_sequence(f, none, false, true);
  none.apply_to_temperature = false;  // then X5 is skipped
  expect_exchange_sequence(f, none, false, true);
}

// ---- Timers -----------------------------------------------------------------------------------

TEST(TEST_CATEGORY, granule_timers_record_every_kernel_and_the_call) {
  const auto grids = granule_grids();
  const Fixture f = make_fixture(grids.front().grid, 10, 13);
  auto granule = make_granule(f, mch_ch_r04b09_config(), DiffusionStrategy::Unfused);
  KernelTimers timers;
  granule.set_timers(&timers);
  auto state = test::to_device<M>(f.state);
  for (int i = 0; i < 3; ++i) granule.run(state.diagnostic, state.prognostic, 10.0, false);
  const auto stats = timers.statistics();
  ASSERT_EQ(stats.count("icondiff::diffusion::run"), 1u);
  EXPECT_EQ(stats.at("icondiff::diffusion::run").calls, 3u);
  EXPECT_EQ(stats.at("icondiff::diffusion::apply_diffusion_to_vn").calls, 3u);
  EXPECT_EQ(stats.at("icondiff::diffusion::apply_diffusion_to_theta_and_exner").calls, 3u);
  double kernels = 0;
  for (const auto& [name, s] : stats) {
    EXPECT_GT(s.min, 0.0) << name;
    EXPECT_LE(s.min, s.median);
    EXPECT_LE(s.median, s.max);
    if (name != "icondiff::diffusion::run") kernels += s.total;
  }
  EXPECT_LE(kernels, stats.at("icondiff::diffusion::run").total * 1.001);
}

// ---- Bad input --------------------------------------------------------------------------------

TEST(TEST_CATEGORY, granule_rejects_bad_input_with_clear_errors) {
  const auto grids = granule_grids();
  const Fixture f = make_fixture(grids.front().grid, 10, 17);
  const auto expect_message = [](auto&& action, const char* fragment) {
    try {
      action();
      ADD_FAILURE() << "expected an error mentioning '" << fragment << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  DiffusionConfig bad = mch_ch_r04b09_config();
  bad.diffusion_type = DiffusionType::Linear4thOrder;
  expect_message([&] { make_granule(f, bad, DiffusionStrategy::Fused); }, "hdiff_order");
  bad = mch_ch_r04b09_config();
  bad.shear_type = static_cast<TurbulenceShearForcingType>(3);
  expect_message([&] { make_granule(f, bad, DiffusionStrategy::Fused); }, "itype_sher");
  {
    Fixture g = f;
    g.device_inputs.metric.wgtfac_c =
        Kokkos::View<vp**, FieldLayout, M>("wrong", f.grid.num_cells, 10);
    expect_message([&] { make_granule(g, mch_ch_r04b09_config(), DiffusionStrategy::Fused); },
                   "wgtfac_c has extents");
  }
  {
    Fixture g = f;
    g.device_inputs.vertical.end_index_of_damping_layer = 10;  // nrd must be <= nlev - 1
    expect_message([&] { make_granule(g, mch_ch_r04b09_config(), DiffusionStrategy::Fused); },
                   "end_index_of_damping_layer");
  }
  auto granule = make_granule(f, mch_ch_r04b09_config(), DiffusionStrategy::Fused);
  auto state = test::to_device<M>(f.state);
  expect_message([&] { granule.run(state.diagnostic, state.prognostic, 0.0, false); }, "dtime = 0");
  expect_message([&] { granule.run(state.diagnostic, state.prognostic, -1.0, false); },
                 "dtime = -1");
  auto wrong = state;
  wrong.prognostic.vn = Kokkos::View<wp**, FieldLayout, M>("wrong", f.grid.num_edges, 11);
  expect_message([&] { granule.run(wrong.diagnostic, wrong.prognostic, 10.0, false); },
                 "prognostic vn has extents");
  EXPECT_THROW(parse_strategy("fastest"), ConfigError);
}

TEST(TEST_CATEGORY, granule_rejects_a_grid_with_missing_neighbours_inside_its_ranges) {
  const auto path = test::real_grid(test::lam_r19b04);
  Grid grid = path ? read_icon_grid(*path) : load_grid_source(test::generated_lam);
  // Corrupt the zones: claim that the boundary rows are interior, so the w stencil would gather
  // over the boundary cells' missing neighbours.
  auto ranges = std::array<IndexRange, num_zones>{};
  for (int z = 0; z < num_zones; ++z) {
    const auto zone = static_cast<Zone>(z);
    if (zone_exists(Location::Cell, zone)) ranges[z] = grid.range(Location::Cell, zone);
  }
  ranges[static_cast<int>(Zone::Nudging)] = {0, 0};
  ranges[static_cast<int>(Zone::Interior)] = {0, grid.num_cells};
  grid.zones[0] = Zones(Location::Cell, ranges);
  Fixture f = make_fixture(grid, 10, 19);
  try {
    make_granule(f, mch_ch_r04b09_config(), DiffusionStrategy::Fused);
    FAIL() << "expected a GridError";
  } catch (const GridError& e) {
    EXPECT_NE(std::string(e.what()).find("missing neighbour"), std::string::npos) << e.what();
  }
}

}  // namespace granule_test
}  // namespace icondiff
