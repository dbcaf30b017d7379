// The decomposed granule equals the single-rank granule bit for bit (issue 12, item 4): on every
// rank of 1..4 (mpirun), the global factories and the global initial state are restricted to the
// rank's ICON-like local grid (METIS partition, make_local_grid), the granule runs several steps
// with the MPI halo exchange at X1-X6, and every owned point of every output equals the
// single-rank run on the whole grid (computed on each rank) exactly. Global and limited-area
// grids (the real files, else generated ones), both strategies, the initial and regular calls,
// with and without the final exchanges (X5/X6).
#include "support/boundary_partitions.hpp"
#include "support/test_grids.hpp"

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/local_fields.hpp>
#include <icondiff/comm/mpi_halo_exchange.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/setup/local_diffusion_inputs.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <string>
#include <vector>

namespace icondiff {
namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;
using H = Kokkos::HostSpace;

constexpr int nlev = 12;
constexpr int steps = 3;  // the first is ICON's initial call
constexpr double dtime = 60.0;

struct States {
  DiffusionPrognosticState<H> prognostic;
  DiffusionDiagnosticState<H> diagnostic;
};

/// Runs `steps` calls of the granule on `inputs` from `initial` with `exchange` (nullptr: one
/// rank) and returns the final states on the host.
States run(const DiffusionConfig& config, const DiffusionInputs<M>& inputs, const States& initial,
           DiffusionStrategy strategy, std::shared_ptr<HaloExchange<Space>> exchange) {
  DiffusionOptions<Space> options;
  options.strategy = strategy;
  options.exchange = std::move(exchange);
  Diffusion<Space> granule(config, inputs, options);
  auto prognostic = copy_state<M>(initial.prognostic, "icondiff::test::");
  auto diagnostic = copy_state<M>(initial.diagnostic, "icondiff::test::");
  for (int step = 0; step < steps; ++step) {
    const bool initial_run = step == 0;
    granule.run(diagnostic, prognostic, dtime, initial_run);
    // With NWP/AES physics the granule leaves X5/X6 to the rest of the model, which exchanges
    // theta_v, exner and w before the next call (ICON's dycore); the test plays that part.
    if (!config.exchanges_at_end(initial_run))
      granule.exchange_prognostic_halos(Space(), prognostic);
  }
  Kokkos::fence();
  return {copy_state<H>(prognostic, "icondiff::test::result::"),
          copy_state<H>(diagnostic, "icondiff::test::result::")};
}

/// Counts the owned points of `local` whose values differ (bitwise) from `global` at their global
/// index, for every field of one state struct; reports the first per field.
template <template <class> class State>
void expect_owned_identical(const State<H>& local, const State<H>& global, const Grid& grid) {
  State<H>::for_each_field(
      [&](const FieldSpec& spec, const auto& l, const auto& g) {
        const std::vector<index_t> l2g = local_to_global(grid, spec.location);
        const std::vector<int>& owner = grid.owner_rank(spec.location);
        std::size_t differing = 0, compared = 0;
        std::string first;
        for (std::size_t i = 0; i < l.extent(0); ++i) {
          if (!owner.empty() && owner[i] != grid.rank) continue;
          for (std::size_t k = 0; k < l.extent(1); ++k) {
            ++compared;
            const auto a = l(i, k), b = g(static_cast<std::size_t>(l2g[i]), k);
            if (std::memcmp(&a, &b, sizeof(a)) != 0 && differing++ == 0)
              first = "local " + std::to_string(i) + " (global " + std::to_string(l2g[i]) +
                      "), level " + std::to_string(k) + ": " + std::to_string(a) + " vs " +
                      std::to_string(b);
          }
        }
        EXPECT_GT(compared, 0u) << spec.name;
        EXPECT_EQ(differing, 0u) << spec.name << ": " << differing << " of " << compared
                                 << " owned values differ from one rank, first at " << first;
      },
      local, global);
}

void decomposed_equals_single_rank(const test::GridCase& gc, const DiffusionConfig& config,
                                   std::vector<int> owner = {}) {
  SCOPED_TRACE("iforcing " + std::to_string(static_cast<int>(config.iforcing)));
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // The whole grid's inputs and initial state, on every rank.
  DiffusionSetupConfig setup;
  setup.vertical.num_levels = nlev;
  setup.metrics.topography = TopographyConfig::gaussian_hill(3000.0, 300e3, 8.0, 46.5);
  // A generated cut-out marks fewer nudging rows than ICON's default zone needs.
  setup.interpolation = test::interpolation_config_for(gc.grid);
  const HostDiffusionInputs host = compute_diffusion_inputs(gc.grid, config, setup);
  const DiffusionInputs<H> global_inputs = make_diffusion_inputs<H>(host);
  JablonowskiWilliamsonConfig jw;
  jw.vn_noise_amplitude = 2.0;
  jw.w_noise_amplitude = 0.05;
  jw.noise_seed = 7;
  const InitialState state =
      jablonowski_williamson_state(host.grid, host.metrics.z_ifc, host.metrics.z_mc, jw);
  const FieldSizes global_sizes = global_inputs.sizes();
  States global_initial{to_prognostic_state<H>(state), allocate_state<DiffusionDiagnosticState, H>(
                                                           global_sizes, "icondiff::test::")};

  // This rank's part of them.
  if (owner.empty()) owner = partition_cells(host.grid, size);  // METIS
  const Grid local = make_local_grid(host.grid, owner, rank, size);
  const std::string scope = "icondiff::test::local::";
  const DiffusionInputs<M> local_inputs = restrict_diffusion_inputs<M>(global_inputs, local, scope);
  const States local_initial{
      restrict_to_local(global_initial.prognostic, local, global_sizes, scope),
      restrict_to_local(global_initial.diagnostic, local, global_sizes, scope)};
  const DiffusionInputs<M> whole =
      copy_diffusion_inputs<M>(global_inputs, DeviceGrid<M>(host.grid));

  for (const auto strategy : {DiffusionStrategy::Unfused, DiffusionStrategy::Fused}) {
    SCOPED_TRACE(std::string(to_string(strategy)) + ", rank " + std::to_string(rank) + " of " +
                 std::to_string(size));
    const States one = run(config, whole, global_initial, strategy, nullptr);
    const States mine = run(config, local_inputs, local_initial, strategy,
                            std::make_shared<MpiHaloExchange<Space>>(MPI_COMM_WORLD, local));
    expect_owned_identical(mine.prognostic, one.prognostic, local);
    expect_owned_identical(mine.diagnostic, one.diagnostic, local);
    // The run changed the state (otherwise the comparison proves little). A quarter: on the small
    // generated cut-out the boundary and nudging rows, which the diffusion leaves alone, hold
    // almost two thirds of the edges.
    std::size_t changed = 0;
    for (std::size_t n = 0; n < one.prognostic.vn.size(); ++n)
      changed += one.prognostic.vn.data()[n] != global_initial.prognostic.vn.data()[n];
    EXPECT_GT(changed, one.prognostic.vn.size() / 4);
  }
}

TEST(MpiDiffusion, DecomposedEqualsSingleRank) {
  // The sanitizer gate (ICONDIFF_TEST_GRIDS=generated) runs the generated pair only.
  auto grids = test::granule_test_grids();
  if (!test::generated_test_grids_only())
    grids.push_back({"R2B4 global (generated)", load_grid_source("generate:R2B4")});
  for (const auto& gc : grids) {
    SCOPED_TRACE(gc.name);
    DiffusionConfig config = mch_ch_r04b09_config();  // itype_sher 2, l_zdiffu_t, NWP
    decomposed_equals_single_rank(gc, config);
    config.iforcing = ForcingType::NoForcing;  // X5, X6 every step
    config.shear_type = TurbulenceShearForcingType::VerticalHorizontalOfHorizontalWind;
    decomposed_equals_single_rank(gc, config);
  }
}

// Issue 29, item 4: partitions giving a rank only the boundary rows, or nothing of the boundary
// of a limited-area grid (refused before: an empty zone sat at index 0).
TEST(MpiDiffusion, BoundaryRowPartitionsOfALimitedAreaGridEqualSingleRank) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // The real limited-area file, even under the sanitizer gate: the partitions are cut to its
  // rows. On the small generated cut-out one of them leaves a rank without cells, which
  // make_local_grid refuses on that rank alone (the others would wait for it).
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04);
  const test::GridCase gc{"R19B04 limited area (file)", read_icon_grid(path)};
  ASSERT_TRUE(gc.grid.limited_area) << gc.name;
  for (const auto& partition : test::boundary_partitions(gc.grid, size)) {
    SCOPED_TRACE(partition.name);
    EXPECT_NO_THROW(decomposed_equals_single_rank(gc, mch_ch_r04b09_config(), partition.owner));
  }
}

}  // namespace
}  // namespace icondiff
