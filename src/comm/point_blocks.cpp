#include <icondiff/comm/point_blocks.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/grid/grid_block.hpp>

#if ICONDIFF_HAVE_MPI
#include <icondiff/comm/mpi_collectives.hpp>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>

namespace icondiff {

namespace {

const char* location_name(Location location) {
  return location == Location::Cell ? "cells" : location == Location::Edge ? "edges" : "vertices";
}

/// Point counts of `grid` at `location`.
std::size_t num_points(const Grid& grid, Location location) {
  return static_cast<std::size_t>(location == Location::Cell   ? grid.num_cells
                                  : location == Location::Edge ? grid.num_edges
                                                               : grid.num_vertices);
}

}  // namespace

PointBlocks::PointBlocks(const Grid& grid, Location location) {
  if (!grid.global_index(location).empty())
    throw InvalidArgument(fmt::format(
        "PointBlocks: grid '{}' is a rank's part (its {} have global indices); the blocks of a "
        "decomposed grid need the ranks' communicator",
        grid.name, location_name(location)));
  total_ = block_size_ = num_points(grid, location);
  send_points_.resize(total_);
  std::iota(send_points_.begin(), send_points_.end(), index_t{0});
  receive_slots_.resize(total_);
  std::iota(receive_slots_.begin(), receive_slots_.end(), std::size_t{0});
}

#if ICONDIFF_HAVE_MPI

namespace {
/// (global index, local index) of every owned point of `grid`, by global index.
std::vector<std::pair<index_t, index_t>> owned_by_global_index(const Grid& grid,
                                                               Location location) {
  const std::size_t n = num_points(grid, location);
  const auto& global = grid.global_index(location);
  const auto& halo = grid.halo_level[static_cast<int>(location)];
  std::vector<std::pair<index_t, index_t>> owned;
  owned.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!halo.empty() && halo[i] != 0) continue;
    const auto local = static_cast<index_t>(i);
    owned.emplace_back(global.empty() ? local : global[i], local);
  }
  std::sort(owned.begin(), owned.end());
  return owned;
}
}  // namespace

PointBlocks::PointBlocks(MPI_Comm comm, const Grid& grid, Location location) : comm_(comm) {
  const int rank = mpi_rank(comm), size = mpi_size(comm);
  const auto owned = owned_by_global_index(grid, location);
  unsigned long long mine = owned.size(), all = 0;
  check_mpi(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm), "MPI_Allreduce");
  total_ = static_cast<std::size_t>(all);
  begin_ = block_start(total_, rank, size);
  block_size_ = block_start(total_, rank + 1, size) - begin_;

  // Destinations: owned points are sorted by global index, so each rank's points are one run.
  std::string error;
  send_points_.reserve(owned.size());
  send_counts_.assign(static_cast<std::size_t>(size), 0);
  std::vector<long long> send_globals;
  send_globals.reserve(owned.size());
  int destination = 0;
  for (const auto& [global, local] : owned) {
    if (global < 0 || static_cast<std::size_t>(global) >= total_) {
      if (error.empty())
        error = fmt::format(
            "rank {}: owned {} {} of grid '{}' has global index {}, outside the {} owned {} of all "
            "ranks: the decomposition does not cover the grid",
            rank, location_name(location), local, grid.name, global, total_,
            location_name(location));
      continue;
    }
    while (static_cast<std::size_t>(global) >= block_start(total_, destination + 1, size))
      ++destination;
    ++send_counts_[static_cast<std::size_t>(destination)];
    send_points_.push_back(local);
    send_globals.push_back(global);
  }
  agree_on_errors(comm, error);

  receive_counts_.assign(static_cast<std::size_t>(size), 0);
  check_mpi(MPI_Alltoall(send_counts_.data(), 1, MPI_INT, receive_counts_.data(), 1, MPI_INT, comm),
            "MPI_Alltoall");
  send_offsets_.assign(static_cast<std::size_t>(size), 0);
  receive_offsets_.assign(static_cast<std::size_t>(size), 0);
  for (int r = 1; r < size; ++r) {
    send_offsets_[r] = send_offsets_[r - 1] + send_counts_[r - 1];
    receive_offsets_[r] = receive_offsets_[r - 1] + receive_counts_[r - 1];
  }
  const std::size_t received = static_cast<std::size_t>(receive_offsets_.back()) +
                               static_cast<std::size_t>(receive_counts_.back());
  std::vector<long long> receive_globals(received);
  check_mpi(MPI_Alltoallv(send_globals.data(), send_counts_.data(), send_offsets_.data(),
                          MPI_LONG_LONG, receive_globals.data(), receive_counts_.data(),
                          receive_offsets_.data(), MPI_LONG_LONG, comm),
            "MPI_Alltoallv");

  // Every slot of the block exactly once.
  receive_slots_.resize(received);
  std::vector<char> seen(block_size_, 0);
  for (std::size_t i = 0; i < received; ++i) {
    const auto slot = static_cast<std::size_t>(receive_globals[i]) - begin_;
    receive_slots_[i] = slot;
    if (seen[slot]++ && error.empty())
      error = fmt::format(
          "{} {} is owned by more than one rank: the decomposition does not partition the grid",
          location_name(location), receive_globals[i]);
  }
  if (error.empty())
    for (std::size_t slot = 0; slot < block_size_; ++slot)
      if (!seen[slot]) {
        error =
            fmt::format("no rank owns {} {} (of {}): the decomposition does not partition the grid",
                        location_name(location), begin_ + slot, total_);
        break;
      }
  agree_on_errors(comm, error);
}

std::vector<char> PointBlocks::exchange(const void* packed, std::size_t record_bytes) const {
  std::vector<char> received(receive_slots_.size() * record_bytes);
  if (comm_ == MPI_COMM_NULL) {
    if (!received.empty()) std::memcpy(received.data(), packed, received.size());
    return received;
  }
  // One record is one element of a contiguous type, so counts stay in points (an int), not bytes.
  MPI_Datatype record;
  check_mpi(MPI_Type_contiguous(static_cast<int>(record_bytes), MPI_BYTE, &record),
            "MPI_Type_contiguous");
  check_mpi(MPI_Type_commit(&record), "MPI_Type_commit");
  const int status =
      MPI_Alltoallv(packed, send_counts_.data(), send_offsets_.data(), record, received.data(),
                    receive_counts_.data(), receive_offsets_.data(), record, comm_);
  MPI_Type_free(&record);
  check_mpi(status, "MPI_Alltoallv");
  return received;
}

#else

std::vector<char> PointBlocks::exchange(const void* packed, std::size_t record_bytes) const {
  std::vector<char> received(receive_slots_.size() * record_bytes);
  if (!received.empty()) std::memcpy(received.data(), packed, received.size());
  return received;
}

#endif

}  // namespace icondiff
