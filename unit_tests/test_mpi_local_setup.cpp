// The factories on each rank's extended grid instead of the whole grid (setup/rank_setup.hpp,
// comm/local_grid_from_blocks.hpp's local_grids_from_blocks), on 1..4 ranks (mpirun): the
// dycore's and the diffusion's static inputs and the initial states (JW, with noise) restricted to
// each rank's local grid equal, bit for bit at every local point (owned and halo), the ones
// computed on the whole grid and restricted ("compute globally and scatter"), with the whole
// grid's mean cell area, nflat_gradp and vertical indices; global and limited-area grids, METIS
// and bisection partitions. Also: the extended grid is make_local_grid's under the grown
// ownership, and too small a margin is caught (the check can fail).
#include "support/grid_files.hpp"

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/local_fields.hpp>
#include <icondiff/comm/local_grid_from_blocks.hpp>
#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/io/grid_file.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/setup/rank_setup.hpp>
#include <icondiff/testcases/solve_nh_initial_state.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <string>
#include <vector>

namespace icondiff {
namespace {

using H = Kokkos::HostSpace;

int world_rank() {
  return mpi_rank(MPI_COMM_WORLD);
}
int world_size() {
  return mpi_size(MPI_COMM_WORLD);
}

/// Counts the values of every field of one state struct that differ bitwise; reports the first.
template <class State>
std::size_t count_differences(const State& a, const State& b, const char* what,
                              bool report = true) {
  std::size_t total = 0;
  State::for_each_field(
      [&](const FieldSpec& spec, const auto& x, const auto& y) {
        if (report) {
          EXPECT_EQ(x.size(), y.size()) << what << " " << spec.name;
        }
        if (x.size() != y.size()) {
          ++total;
          return;
        }
        std::size_t differing = 0, first = 0;
        for (std::size_t i = 0; i < x.span(); ++i) {
          const auto p = x.data()[i], q = y.data()[i];
          if (std::memcmp(&p, &q, sizeof p) != 0 && differing++ == 0) first = i;
        }
        if (report) {
          EXPECT_EQ(differing, 0u)
              << what << " " << spec.name << ": " << differing << " of " << x.span()
              << " values differ, first at " << first << " (extents " << x.extent(0) << " x "
              << x.extent(1) << "): " << static_cast<double>(x.data()[first]) << " vs "
              << static_cast<double>(y.data()[first]);
        }
        total += differing;
      },
      a, b);
  return total;
}

StaticsSetupConfig test_config() {
  StaticsSetupConfig config;
  config.vertical.num_levels = 12;  // a short column: the horizontal reach is what is tested
  // A topography everywhere, so the smoothing (25 steps) and the metrics on it matter everywhere.
  config.metrics.topography = TopographyConfig::jablonowski_williamson();
  return config;
}

/// What each way of setting up gives one rank.
struct RankInputs {
  DycoreInputs<H> dycore;
  DiffusionInputs<H> diffusion;
  SolveNhHostStates states;
};

JablonowskiWilliamsonConfig jw_config(const Grid& whole) {
  JablonowskiWilliamsonConfig jw;
  jw.perturbation_amplitude = 1.0;
  jw.vn_noise_amplitude = 0.5;
  jw.w_noise_amplitude = 0.01;
  jw.noise_seed = 7;
  jw.whole_grid_cells = static_cast<std::uint64_t>(whole.num_cells);
  jw.whole_grid_edges = static_cast<std::uint64_t>(whole.num_edges);
  return jw;
}

/// Statics and states on grids.computed, restricted to grids.local.
RankInputs set_up(const RankGrids& grids, const StaticsSetupConfig& config,
                  const HostStaticInputs& host, const JablonowskiWilliamsonConfig& jw) {
  const StaticFields<H> statics = make_static_fields<H>(host);
  const DeviceGrid<H> computed_grid(host.grid);
  const DycoreInputs<H> dycore = make_dycore_inputs<H>(host, statics, computed_grid);
  const DiffusionInputs<H> diffusion = make_diffusion_inputs<H>(host, statics, computed_grid);
  const SolveNhHostStates states = jablonowski_williamson_solve_nh_states(
      host.grid, host.metrics.z_ifc, host.metrics.z_mc, dycore, jw, HydrostaticAdjustment::icon4py);
  (void)config;
  RankInputs r;
  const std::string scope = "icondiff::test::";
  r.dycore = restrict_dycore_inputs<H>(dycore, grids, scope);
  r.diffusion = restrict_diffusion_inputs<H>(diffusion, grids, scope);
  const FieldSizes sizes = dycore.sizes();
  r.states.current = restrict_to_local(states.current, grids.rows(), sizes, scope);
  r.states.diagnostic = restrict_to_local(states.diagnostic, grids.rows(), sizes, scope);
  r.states.prep_adv = restrict_to_local(states.prep_adv, grids.rows(), sizes, scope);
  return r;
}

RankInputs whole_grid_way(const Grid& whole, const std::vector<int>& owner,
                          const StaticsSetupConfig& config) {
  const RankGrids grids =
      whole_grid_rank_grids(whole, make_local_grid(whole, owner, world_rank(), world_size()));
  const HostStaticInputs host =
      compute_static_inputs(grids.computed, config, StaticFieldSelection::all());
  return set_up(grids, config, host, jw_config(whole));
}

RankInputs extended_grid_way(const Grid& whole, const GridBlock& block,
                             const std::vector<int>& block_owner, const StaticsSetupConfig& config,
                             int margin) {
  LocalGrids made = local_grids_from_blocks(MPI_COMM_WORLD, block, block_owner, margin);
  const RankGrids grids = extended_rank_grids(std::move(made.local), std::move(made.extended),
                                              std::move(made.extended_owner));
  const double mean_area = whole_grid_mean_cell_area(MPI_COMM_WORLD, grids.local);
  const StaticsSetupConfig whole_config =
      whole_grid_statics_config(MPI_COMM_WORLD, config, grids, mean_area);
  HostStaticInputs host =
      compute_static_inputs(grids.computed, whole_config, StaticFieldSelection::all(),
                            computed_grid_cell_exchange(MPI_COMM_WORLD, grids));
  set_whole_grid_quantities(MPI_COMM_WORLD, host, grids, mean_area);
  return set_up(grids, whole_config, host, jw_config(whole));
}

std::vector<int> block_of(const GridBlock& block, const std::vector<int>& owner) {
  const auto first = static_cast<std::size_t>(block.begin[0]);
  return {owner.begin() + static_cast<std::ptrdiff_t>(first),
          owner.begin() + static_cast<std::ptrdiff_t>(first + block.rows.num_cells)};
}

/// Differences between the two ways (every field, every local point); reported when `report`.
std::size_t compare(const RankInputs& a, const RankInputs& b, bool report) {
  if (report) {
    EXPECT_EQ(a.dycore.nlev, b.dycore.nlev);
    EXPECT_EQ(a.dycore.nflatlev, b.dycore.nflatlev);
    EXPECT_EQ(a.dycore.nflat_gradp, b.dycore.nflat_gradp);
    EXPECT_EQ(a.dycore.end_index_of_damping_layer, b.dycore.end_index_of_damping_layer);
    EXPECT_EQ(a.dycore.kstart_moist, b.dycore.kstart_moist);
    EXPECT_EQ(a.dycore.mean_cell_area, b.dycore.mean_cell_area);
    EXPECT_EQ(a.diffusion.vertical.vct_a, b.diffusion.vertical.vct_a);
  }
  std::size_t n = 0;
  n += count_differences(a.dycore.metric, b.dycore.metric, "dycore metric", report);
  n += count_differences(a.dycore.interpolation, b.dycore.interpolation, "dycore interpolation",
                         report);
  n += count_differences(a.dycore.edges, b.dycore.edges, "dycore edges", report);
  n += count_differences(a.dycore.cells, b.dycore.cells, "dycore cells", report);
  n += count_differences(a.diffusion.metric, b.diffusion.metric, "diffusion metric", report);
  n += count_differences(a.diffusion.interpolation, b.diffusion.interpolation,
                         "diffusion interpolation", report);
  n += count_differences(a.diffusion.edges, b.diffusion.edges, "diffusion edges", report);
  n += count_differences(a.diffusion.cells, b.diffusion.cells, "diffusion cells", report);
  n += count_differences(a.states.current, b.states.current, "JW prognostic", report);
  n += count_differences(a.states.diagnostic, b.states.diagnostic, "JW diagnostic", report);
  n += count_differences(a.states.prep_adv, b.states.prep_adv, "JW prep_adv", report);
  return n;
}

void expect_same_set_up(const std::string& source, bool bisection) {
  SCOPED_TRACE(source + (bisection ? " (bisection)" : " (METIS)"));
  const Grid whole = load_grid_source(source);
  const GridBlock block = grid_block_of(whole, world_rank(), world_size());
  std::vector<int> owner = partition_cells(whole, world_size());
  std::vector<int> block_owner = block_of(block, owner);
  if (bisection) {
    block_owner = bisection_partition(MPI_COMM_WORLD, block);
    std::vector<int> counts(static_cast<std::size_t>(world_size())), offsets(counts.size());
    for (int r = 0; r < world_size(); ++r) {
      offsets[r] = static_cast<int>(block_start(owner.size(), r, world_size()));
      counts[r] = static_cast<int>(block_start(owner.size(), r + 1, world_size())) - offsets[r];
    }
    MPI_Allgatherv(block_owner.data(), static_cast<int>(block_owner.size()), MPI_INT, owner.data(),
                   counts.data(), offsets.data(), MPI_INT, MPI_COMM_WORLD);
  }
  const StaticsSetupConfig config = test_config();
  const RankInputs expected = whole_grid_way(whole, owner, config);
  const RankInputs actual =
      extended_grid_way(whole, block, block_owner, config, factory_dependency_steps);
  EXPECT_EQ(compare(expected, actual, true), 0u);
}

TEST(LocalSetUp, GlobalGridEqualsComputeGloballyAndScatter) {
  expect_same_set_up("generate:R2B4", false);
  expect_same_set_up("generate:R2B4", true);
}

TEST(LocalSetUp, LimitedAreaGridEqualsComputeGloballyAndScatter) {
  expect_same_set_up("generate:R2B4/cap:20,30,45", false);
  if (const auto path = test::real_grid(test::lam_r19b04)) expect_same_set_up(*path, true);
}

TEST(LocalSetUp, TooSmallAMarginIsCaught) {
  // The comparison can fail: with 2 steps the smoothed topography (25 steps) differs near the
  // edge of a rank's part, unless one rank's part is the whole grid.
  if (world_size() == 1) GTEST_SKIP() << "one rank's part is the whole grid";
  const Grid whole = load_grid_source("generate:R2B4");
  const GridBlock block = grid_block_of(whole, world_rank(), world_size());
  const std::vector<int> owner = partition_cells(whole, world_size());
  const StaticsSetupConfig config = test_config();
  const std::size_t differences =
      compare(whole_grid_way(whole, owner, config),
              extended_grid_way(whole, block, block_of(block, owner), config, 2), false);
  unsigned long long all = differences;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_GT(all, 0u);
}

TEST(LocalGrids, TheExtendedGridIsTheLocalGridOfTheGrownOwnership) {
  const Grid whole = load_grid_source("generate:R2B3");
  const int rank = world_rank(), size = world_size();
  const std::vector<int> owner = partition_cells(whole, size);
  const GridBlock block = grid_block_of(whole, rank, size);
  const int margin = 3;
  const LocalGrids made =
      local_grids_from_blocks(MPI_COMM_WORLD, block, block_of(block, owner), margin);
  const Grid local = make_local_grid(whole, owner, rank, size);
  std::vector<char> mine(owner.size(), 0);
  if (size == 1) mine.assign(mine.size(), 1);
  for (const index_t c : local.cell_global_index) mine[static_cast<std::size_t>(c)] = 1;
  for (int step = 0; step < margin; ++step) {
    const std::vector<char> before = mine;
    for (std::size_t c = 0; c < before.size(); ++c)
      if (before[c])
        for (int j = 0; j < 3; ++j)
          if (whole.c2e2c(c, j) != missing_index)
            mine[static_cast<std::size_t>(whole.c2e2c(c, j))] = 1;
  }
  std::vector<int> grown = owner;
  for (std::size_t c = 0; c < grown.size(); ++c)
    if (mine[c]) grown[c] = rank;
  const Grid expected = make_local_grid(whole, grown, rank, size);
  EXPECT_EQ(made.extended.num_cells, expected.num_cells);
  EXPECT_EQ(made.extended.num_edges, expected.num_edges);
  EXPECT_EQ(made.extended.cell_global_index, expected.cell_global_index);
  EXPECT_EQ(made.extended.edge_global_index, expected.edge_global_index);
  EXPECT_EQ(made.extended.vertex_global_index, expected.vertex_global_index);
  EXPECT_EQ(made.extended.cell_owner_rank, expected.cell_owner_rank);
  EXPECT_EQ(made.local.cell_global_index, local.cell_global_index);
}

}  // namespace
}  // namespace icondiff
