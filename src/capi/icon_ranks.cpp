// ICON's communicator (comm_id) for the granule on ICON's arrays (icon_granule.hpp): how many
// ranks, the owners of every rank's halo points (from the owner masks, through a directory), and
// the collective variants of grid_init, diffusion_init, solve_nh_init and the runs' argument
// checks, in which
// an error on one rank is agreed on so that no rank waits in a collective. Without MPI, or on one
// rank, each falls through to its single-rank form.

#include "icon_granule.hpp"

#if ICONDIFF_HAVE_MPI
#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/comm/mpi_halo_exchange.hpp>
#include <icondiff/comm/mpi_owner_directory.hpp>

#include <mpi.h>
#endif

#include <fmt/format.h>

#include <icondiff_c.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

namespace icondiff::capi {

/// The number of ranks of ICON's communicator (1 without MPI or before MPI_Init).
int communicator_size([[maybe_unused]] int comm_id, int* rank) {
  *rank = 0;
#if ICONDIFF_HAVE_MPI
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return 1;
  const MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(comm_id));
  int size = 1;
  if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, rank) != MPI_SUCCESS)
    throw InvalidArgument(
        fmt::format("grid_init: comm_id {} is not a valid Fortran MPI communicator", comm_id));
  return size;
#else
  return 1;
#endif
}

/// grid_init on one rank, or collectively on every rank of ICON's communicator: the owners of
/// the halo points come from a directory (every rank knows only its owner masks); every error
/// that one rank meets is agreed on, so all ranks return it and none waits in a collective.
icondiff_icon_grid* create_grid_on_ranks(const icondiff_icon_grid_args& a) {
  int rank = 0;
  const int ranks = communicator_size(a.comm_id, &rank);
  if (ranks == 1) return create_grid(a, rank, ranks, {});
#if ICONDIFF_HAVE_MPI
  const char* f = grid_init_name;
  const MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(a.comm_id));
  const long sizes[3] = {a.num_cells, a.num_edges, a.num_vertices};
  const icondiff_array* masks[3] = {&a.c_owner_mask, &a.e_owner_mask, &a.v_owner_mask};
  const icondiff_array* glb[3] = {&a.c_glb_index, &a.e_glb_index, &a.v_glb_index};
  const char* names[3] = {"cells", "edges", "vertices"};
  std::array<std::vector<index_t>, 3> global_index;
  std::array<std::vector<unsigned char>, 3> owned;
  collectively(comm, [&] {
    for (int l = 0; l < 3; ++l) {
      if (sizes[l] <= 0)
        throw InvalidArgument(
            fmt::format("{}: num_{} = {} must be positive", f, names[l], sizes[l]));
      check_array(*masks[l], f,
                  l == 0   ? "c_owner_mask"
                  : l == 1 ? "e_owner_mask"
                           : "v_owner_mask",
                  {at_least(sizes[l], names[l])});
      check_array(*glb[l], f,
                  l == 0   ? "c_glb_index"
                  : l == 1 ? "e_glb_index"
                           : "v_glb_index",
                  {at_least(sizes[l], names[l])});
      check_global_indices(*glb[l],
                           l == 0   ? "c_glb_index"
                           : l == 1 ? "e_glb_index"
                                    : "v_glb_index",
                           sizes[l]);
      const auto* m = static_cast<const unsigned char*>(masks[l]->data);
      const auto* g = static_cast<const int*>(glb[l]->data);
      owned[l].assign(m, m + sizes[l]);
      global_index[l].resize(static_cast<std::size_t>(sizes[l]));
      for (long i = 0; i < sizes[l]; ++i) global_index[l][i] = g[i] - 1;
    }
  });
  Owners owners;
  for (int l = 0; l < 3; ++l)
    owners[l] =
        owners_from_masks(comm, global_index[l], owned[l], std::string(f) + ": " + names[l]);
  std::unique_ptr<icondiff_icon_grid> handle;
  collectively(comm, [&] { handle.reset(create_grid(a, rank, ranks, owners)); });
  handle->comm = comm;
  // The whole grid's sizes: the largest global index + 1 of every location, over all ranks.
  long whole[3] = {0, 0, 0};
  for (int l = 0; l < 3; ++l)
    for (const index_t gi : global_index[l])
      whole[l] = std::max(whole[l], static_cast<long>(gi) + 1);
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, whole, 3, MPI_LONG, MPI_MAX, comm), "MPI_Allreduce");
  handle->whole_sizes =
      FieldSizes{static_cast<std::size_t>(whole[0]), static_cast<std::size_t>(whole[1]),
                 static_cast<std::size_t>(whole[2]), 0};
  return handle.release();
#else
  throw InvalidArgument(fmt::format(
      "grid_init: comm_id names a communicator of {} ranks, but this icondiff is built without "
      "MPI (ICONDIFF_ENABLE_MPI=OFF)",
      ranks));
#endif
}

/// diffusion_init on one rank, or collectively with the MPI halo exchange of the grid's ranks.
icondiff_diffusion* create_diffusion_on_ranks(const icondiff_icon_grid& grid,
                                              const icondiff_diffusion_args& a) {
#if ICONDIFF_HAVE_MPI
  if (grid.comm != MPI_COMM_NULL) {
    collectively(grid.comm, [&] { check_alive(&grid, diffusion_init_name); });
    auto exchange = std::make_shared<MpiHaloExchange<Space>>(grid.comm, grid.grid);
    std::unique_ptr<icondiff_diffusion> handle;
    collectively(grid.comm, [&] { handle.reset(create_diffusion(grid, a, exchange)); });
    handle->comm = grid.comm;
    handle->exchange = exchange;
    handle->local_grid = grid.grid;
    return handle.release();
  }
#endif
  return create_diffusion(grid, a, nullptr);
}

/// The run arguments' checks, agreed over the ranks of a decomposed grid: one MPI_Allreduce per
/// call, so that an argument error on one rank stops every rank before the halo exchanges
/// instead of leaving the others waiting in them.
void check_run_arguments_on_every_rank(const icondiff_diffusion& d, const icondiff_run_args& a) {
#if ICONDIFF_HAVE_MPI
  if (d.comm != MPI_COMM_NULL) return collectively(d.comm, [&] { check_run_arguments(d, a); });
#endif
  check_run_arguments(d, a);
}

/// solve_nh_init on one rank, or collectively with the MPI halo exchange of the grid's ranks.
icondiff_solve_nh* create_solve_nh_on_ranks(const icondiff_icon_grid& grid,
                                            const icondiff_solve_nh_args& a) {
#if ICONDIFF_HAVE_MPI
  if (grid.comm != MPI_COMM_NULL) {
    collectively(grid.comm, [&] { check_alive(&grid, solve_nh_init_name); });
    auto exchange = std::make_shared<MpiHaloExchange<Space>>(grid.comm, grid.grid);
    std::unique_ptr<icondiff_solve_nh> handle;
    collectively(grid.comm, [&] { handle.reset(create_solve_nh(grid, a, exchange)); });
    handle->comm = grid.comm;
    return handle.release();
  }
#endif
  return create_solve_nh(grid, a, nullptr);
}

/// As check_run_arguments_on_every_rank: an argument error on one rank stops every rank before
/// the substep's halo exchanges.
void check_solve_nh_run_on_every_rank(const icondiff_solve_nh& s,
                                      const icondiff_solve_nh_run_args& a) {
#if ICONDIFF_HAVE_MPI
  if (s.comm != MPI_COMM_NULL)
    return collectively(s.comm, [&] { check_solve_nh_run_arguments(s, a); });
#endif
  check_solve_nh_run_arguments(s, a);
}

}  // namespace icondiff::capi
