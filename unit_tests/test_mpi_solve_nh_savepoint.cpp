// Per-rank solve_nh savepoints of a decomposed call replay on one rank bit for bit: on every rank
// of 1..4 (mpirun), the case of test_mpi_solve_nh (factory statics with topography, a JW state
// with noise; restrict_dycore_inputs recomputes the owner and prognostic halo masks per rank)
// runs two substeps with the MPI halo exchange; the second (a later substep) is captured on every
// rank (init and exit, with the rank's decomposition) and written to
// <scratch>/mpi_solve_nh_savepoints_np<N>/<grid>/solve_nh-{init,exit}.rank<r>.nc. Every rank
// then reads all ranks' files, merges them onto the whole grid (merge_rank_savepoints: owned
// points, the whole grid's masks) and replays the merged init on a fresh single-rank granule: its
// outputs equal the merged exit exactly. `icondiff verify` does the same from the files
// (solve_nh_mpi_rank_savepoints_verify, unit_tests/CMakeLists.txt). Global and limited-area grids.
#include "support/solve_nh_case.hpp"
#include "support/test_grids.hpp"

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/local_fields.hpp>
#include <icondiff/comm/mpi_halo_exchange.hpp>
#include <icondiff/io/rank_savepoints.hpp>
#include <icondiff/io/solve_nh_savepoint.hpp>
#include <icondiff/setup/local_dycore_inputs.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace icondiff {
namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;
using H = Kokkos::HostSpace;

/// The folder of this run's files (kept for the CLI test).
std::string savepoint_dir(const std::string& grid_name, int num_ranks) {
  const char* env = std::getenv("ICONDIFF_TEST_SCRATCH_DIR");
  return (std::filesystem::path(env && *env ? env : ICONDIFF_TEST_SCRATCH_DIR) /
          ("mpi_solve_nh_savepoints_np" + std::to_string(num_ranks)) / grid_name)
      .string();
}

void per_rank_savepoints_replay(const test::GridCase& gc, const std::string& name) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  SCOPED_TRACE("rank " + std::to_string(rank) + " of " + std::to_string(size));
  const int nlev = 12, substeps = 3;
  const test::SolveNhCase c = test::make_solve_nh_case(gc.grid, nlev);
  const FieldSizes global_sizes = c.inputs.sizes();
  const std::string source = gc.grid.source.empty() ? name : gc.grid.source;
  const std::string dir = savepoint_dir(name, size);
  if (rank == 0) std::filesystem::create_directories(dir);

  // This rank's part of the case, and the decomposed granule.
  const Grid local = make_local_grid(c.host.grid, partition_cells(c.host.grid, size), rank, size);
  const std::string scope = "icondiff::test::local::";
  const DycoreInputs<M> inputs = restrict_dycore_inputs<M>(c.inputs, local, scope);
  test::SolveNhStates<H> mine{restrict_to_local(c.initial.current, local, global_sizes, scope),
                              restrict_to_local(c.initial.next, local, global_sizes, scope),
                              restrict_to_local(c.initial.diagnostic, local, global_sizes, scope),
                              restrict_to_local(c.initial.prep_adv, local, global_sizes, scope)};
  auto states = test::copy_states<M>(mine, "icondiff::test::states::");
  SolveNonhydroOptions<Space> options;
  options.exchange = std::make_shared<MpiHaloExchange<Space>>(MPI_COMM_WORLD, local);
  SolveNonhydro<Space> granule(DycoreConfig{}, inputs, c.vct_a, options);

  // The first substep, then the second captured.
  const SolveNhStep first = test::solve_nh_substep(0, 0, substeps, 30.0);
  granule.time_step(states.diagnostic, states.current, states.next, states.prep_adv, first);
  test::swap_time_levels(states);
  const SolveNhStep second = test::solve_nh_substep(0, 1, substeps, 30.0);
  SolveNhSavepoint init =
      capture_solve_nh_init(granule.config(), make_grid_reference(local, source), granule.inputs(),
                            c.vct_a, states.diagnostic, states.current, states.next,
                            states.prep_adv, second, {{"rank", std::to_string(rank)}});
  init.decomposition = rank_points(local, global_sizes);
  granule.time_step(states.diagnostic, states.current, states.next, states.prep_adv, second);
  Kokkos::fence();
  const SolveNhSavepoint exit =
      capture_solve_nh_exit(init, states.diagnostic, states.next, states.prep_adv);
  MPI_Barrier(MPI_COMM_WORLD);  // the folder exists
  const std::string suffix = ".rank" + std::to_string(rank) + ".nc";
  write_solve_nh_savepoint(dir + "/solve_nh-init" + suffix, init);
  write_solve_nh_savepoint(dir + "/solve_nh-exit" + suffix, exit);
  MPI_Barrier(MPI_COMM_WORLD);  // every rank's files are written

  // Every rank's files, merged onto the whole grid and replayed on one rank.
  std::vector<SolveNhSavepoint> init_parts, exit_parts;
  for (int r = 0; r < size; ++r) {
    const std::string s = ".rank" + std::to_string(r) + ".nc";
    init_parts.push_back(read_solve_nh_savepoint(dir + "/solve_nh-init" + s));
    exit_parts.push_back(read_solve_nh_savepoint(dir + "/solve_nh-exit" + s));
  }
  const SolveNhSavepoint whole_init = merge_rank_savepoints(init_parts, c.host.grid, source);
  const SolveNhSavepoint expected = merge_rank_savepoints(exit_parts, c.host.grid, source);
  const DeviceGrid<M> device(c.host.grid);
  SolveNonhydro<Space> replay(whole_init.config, dycore_inputs_from_savepoint(whole_init, device),
                              whole_init.vct_a);
  auto diagnostic = mirror_copy<M>(whole_init.diagnostic);
  auto current = mirror_copy<M>(whole_init.current);
  auto next = mirror_copy<M>(whole_init.next);
  auto prep_adv = mirror_copy<M>(whole_init.prep_adv);
  replay.time_step(diagnostic, current, next, prep_adv, whole_init.step);
  const SavepointComparison result = compare_solve_nh_outputs(expected, diagnostic, next, prep_adv);
  EXPECT_TRUE(result.passed()) << format_comparison(result);
  for (const auto& f : result.fields)
    if (f.compared) {
      EXPECT_EQ(f.num_failing, 0u) << f.field();
    }
  // The merged masks are the whole grid's: every cell owned.
  for (std::size_t i = 0; i < whole_init.inputs.cells.c_owner_mask.size(); ++i)
    ASSERT_EQ(whole_init.inputs.cells.c_owner_mask(i), 1) << "cell " << i;
  MPI_Barrier(MPI_COMM_WORLD);  // nobody rewrites the files while another rank reads them
}

TEST(MpiSolveNhSavepoint, PerRankSavepointsReplayOnOneRankBitForBit) {
  const auto grids = test::granule_test_grids();
  const char* names[] = {"global", "lam"};
  for (std::size_t g = 0; g < grids.size(); ++g) {
    SCOPED_TRACE(grids[g].name);
    per_rank_savepoints_replay(grids[g], names[g]);
  }
}

}  // namespace
}  // namespace icondiff
