// The C API's granule decomposed over MPI as ICON calls it: every rank passes its own part in
// ICON's shapes (local points with global indices and owner masks only, ICON's start/end index
// arrays with the halo zones, comm_id = MPI_COMM_WORLD); icondiff finds the halo points' owners,
// builds the MPI halo exchange and runs. Every owned point of every output equals the
// single-rank C++ path bit for bit. An error on one rank (a wrong size in one rank's run, a point
// owned by two ranks) comes back on every rank, none hangs; savepoints of a run are written per
// rank. Runs on 1..4 ranks (mpirun --oversubscribe).
#include "support/icon_api_arrays.hpp"
#include "support/icon_arrays_case.hpp"
#include "support/icon_solve_nh_api_arrays.hpp"

#include <icondiff/io/diffusion_savepoint.hpp>

#include <icondiff_c.h>

#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <string>

namespace icondiff {
namespace mpi_icon_granule_api_test {

using test::Handles;
using test::IconArrays;

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}
int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

IconArrays rank_part(const char* source, int levels, bool solve_nh = false) {
  IconArrays a(source, levels, world_rank(), world_size(), solve_nh);
  a.grid.comm_id = static_cast<int>(MPI_Comm_c2f(MPI_COMM_WORLD));
  return a;
}

TEST(mpi_icon_granule_api, every_owned_point_equals_one_rank) {
  for (const char* source : {"generate:R2B2", "generate:R2B3"}) {
    SCOPED_TRACE(source);
    IconArrays a = rank_part(source, 8);
    Handles h(a);
    constexpr int steps = 3;
    for (int step = 0; step < steps; ++step) {
      // Between calls ICON's dycore refreshes the halos of theta_v, exner and w (the granule
      // leaves that out after a regular call with NWP physics): icondiff_diffusion_exchange_halos
      // stands in for it.
      if (step > 0) {
        ASSERT_EQ(icondiff_diffusion_exchange_halos(h.granule, &a.run), ICONDIFF_OK)
            << icondiff_last_error();
      }
      a.run.linit = step == 0;
      ASSERT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
    }
    ASSERT_EQ(icon_case_run_reference(steps, a.run.dtime), 0);
    a.expect_outputs_equal_reference();
  }
}

// The solve_nh granule (icondiff_solve_nh_*, ICON4Py's solve_nh_init/solve_nh_run) on every
// rank's part: its halo exchanges inside each substep, ICON's swaps between substeps.
TEST(mpi_icon_granule_api, solve_nh_every_owned_point_equals_one_rank) {
  IconArrays a = rank_part("generate:R2B2", 8, /*solve_nh=*/true);
  test::IconSolveNhArrays s(a);
  icondiff_icon_grid* grid = nullptr;
  icondiff_solve_nh* granule = nullptr;
  ASSERT_EQ(icondiff_icon_grid_create(&a.grid, &grid), ICONDIFF_OK) << icondiff_last_error();
  ASSERT_EQ(icondiff_solve_nh_create(grid, &s.init, &granule), ICONDIFF_OK)
      << icondiff_last_error();
  constexpr int steps = 2, substeps = 2;
  constexpr double dtime = 60.0;
  for (int step = 0; step < steps; ++step)
    for (int substep = 0; substep < substeps; ++substep) {
      const auto args = s.arguments_for(step, substep, substeps, dtime);
      ASSERT_EQ(icondiff_solve_nh_run(granule, &args), ICONDIFF_OK) << icondiff_last_error();
      s.swap_time_levels();
    }
  ASSERT_EQ(icon_case_run_solve_nh_reference(steps, substeps, dtime), 0);
  s.expect_outputs_equal_reference();
  // An argument error on one rank comes back on every rank before any exchange.
  auto bad = s.arguments_for(0, 0, substeps, dtime);
  if (world_rank() == world_size() - 1) bad.vt.size[1] = 9;
  EXPECT_EQ(icondiff_solve_nh_run(granule, &bad), ICONDIFF_INVALID_ARGUMENT);
  const std::string message = icondiff_last_error();
  EXPECT_NE(message.find("SIZE(vt, 2) = 9"), std::string::npos) << message;
  icondiff_solve_nh_free(granule);
  icondiff_icon_grid_free(grid);
}

TEST(mpi_icon_granule_api, an_error_on_one_rank_comes_back_on_every_rank) {
  IconArrays a = rank_part("generate:R2B2", 8);
  Handles h(a);
  icondiff_run_args args = a.run;
  if (world_rank() == world_size() - 1) args.vn.size[1] = 7;  // one rank passes nlev - 1 levels
  EXPECT_EQ(icondiff_diffusion_run(h.granule, &args), ICONDIFF_INVALID_ARGUMENT);
  const std::string message = icondiff_last_error();
  EXPECT_NE(message.find("SIZE(vn, 2) = 7"), std::string::npos) << message;
  if (world_size() > 1) {
    EXPECT_NE(message.find("rank " + std::to_string(world_size() - 1)), std::string::npos)
        << message;
  }
  // The granule still works afterwards on every rank.
  EXPECT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
}

TEST(mpi_icon_granule_api, a_point_owned_twice_is_refused_on_every_rank) {
  if (world_size() == 1) GTEST_SKIP() << "needs two ranks";
  IconArrays a = rank_part("generate:R2B2", 8);
  // Rank 0 claims its last cell (a halo cell: owned by another rank) as its own.
  if (world_rank() == 0) static_cast<unsigned char*>(a.grid.c_owner_mask.data)[a.nc - 1] = 1;
  icondiff_icon_grid* grid = nullptr;
  EXPECT_EQ(icondiff_icon_grid_create(&a.grid, &grid), ICONDIFF_INVALID_ARGUMENT);
  const std::string message = icondiff_last_error();
  EXPECT_NE(message.find("owned by ranks"), std::string::npos) << message;
  EXPECT_EQ(grid, nullptr);
}

TEST(mpi_icon_granule_api, savepoints_are_written_per_rank_and_merge) {
  const std::string dir = std::string(ICONDIFF_TEST_SCRATCH_DIR) + "/mpi_capi_savepoints_np" +
                          std::to_string(world_size());
  if (world_rank() == 0) std::filesystem::create_directories(dir);
  MPI_Barrier(MPI_COMM_WORLD);
  IconArrays a = rank_part("generate:R2B2", 8);
  Handles h(a);
  ASSERT_EQ(icondiff_diffusion_capture_savepoints(h.granule, dir.c_str(), 2, "generate:R2B2"),
            ICONDIFF_OK)
      << icondiff_last_error();
  for (int step = 0; step < 2; ++step) {
    a.run.linit = step == 0;
    ASSERT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
  }
  const std::string suffix =
      world_size() > 1 ? ".rank" + std::to_string(world_rank()) + ".nc" : std::string(".nc");
  const DiffusionSavepoint init = read_diffusion_savepoint(dir + "/diffusion-init" + suffix);
  EXPECT_EQ(init.kind, SavepointKind::Init);
  EXPECT_EQ(init.grid.source, "generate:R2B2");
  EXPECT_EQ(init.decomposition.has_value(), world_size() > 1);
  if (init.decomposition) {
    EXPECT_EQ(init.decomposition->rank, world_rank());
    EXPECT_EQ(init.decomposition->num_ranks, world_size());
  }
  EXPECT_TRUE(std::filesystem::exists(dir + "/diffusion-exit" + suffix));
}

}  // namespace mpi_icon_granule_api_test
}  // namespace icondiff
