// One location's owned points moved into contiguous blocks of the global numbering, one block per
// rank, for collective file writes. A rank's owned points are scattered over the global index
// range (a METIS part is no interval), while MPI-IO and netCDF's parallel writes want each rank to
// write one hyperslab. So rank r takes the global indices [N·r/P, N·(r+1)/P) (ICON's CDI-PIO and
// most model output servers do the same): every owned point's values go to the rank whose block
// holds it, in one MPI_Alltoallv per batch of values; no rank ever holds more than its block and
// its own points, unlike a gather on one rank.
//
// Without MPI (or on one rank of a grid that is not decomposed) the block is every point and the
// move is a copy in global order, so single-process writers use the same code.
#pragma once

#include <icondiff/config.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/grid/grid.hpp>

#if ICONDIFF_HAVE_MPI
#include <mpi.h>
#endif

#include <cstddef>
#include <cstring>
#include <vector>

namespace icondiff {

/// How a block's values are ordered: point by point (a (points, width) table such as C2V) or
/// value by value (a (levels, points) field record, points fastest).
enum class BlockOrder { point_major, value_major };

class PointBlocks {
 public:
  /// Every point of a grid that is not decomposed (`grid`'s global indices empty): one block.
  /// Throws InvalidArgument for a decomposed grid (that needs the communicator).
  PointBlocks(const Grid& grid, Location location);
#if ICONDIFF_HAVE_MPI
  /// Collective over `comm`: the owned points (halo_level 0) of this rank's local grid `grid`,
  /// with their global indices, to the blocks of the global numbering. Throws CollectiveError on
  /// every rank when the owned points of all ranks do not cover 0..N-1 exactly once (N = their
  /// number): a decomposition that lost or doubled a point. A grid that is not decomposed counts
  /// as all owned with global index = local index (one rank, or every rank the whole grid: then
  /// refused as doubled).
  PointBlocks(MPI_Comm comm, const Grid& grid, Location location);
#endif

  /// Global number of points (all ranks' owned points).
  std::size_t total() const {
    return total_;
  }
  /// This rank's block: global indices [begin, begin + size).
  std::size_t begin() const {
    return begin_;
  }
  std::size_t size() const {
    return block_size_;
  }

  /// This rank's block of a per-point quantity: `width` values per point, value(local point, j)
  /// gives value j of an owned local point. Collective when built with a communicator.
  template <class T, class Value>
  std::vector<T> to_block(std::size_t width, Value&& value, BlockOrder order) const {
    std::vector<T> packed(send_points_.size() * width);
    for (std::size_t s = 0; s < send_points_.size(); ++s)
      for (std::size_t j = 0; j < width; ++j) packed[s * width + j] = value(send_points_[s], j);
    const std::vector<char> received = exchange(packed.data(), width * sizeof(T));
    std::vector<T> block(block_size_ * width);
    for (std::size_t r = 0; r < receive_slots_.size(); ++r)
      for (std::size_t j = 0; j < width; ++j) {
        T v;
        std::memcpy(&v, received.data() + (r * width + j) * sizeof(T), sizeof(T));
        const std::size_t slot = receive_slots_[r];
        block[order == BlockOrder::point_major ? slot * width + j : j * block_size_ + slot] = v;
      }
    return block;
  }

 private:
  /// Moves the packed records (one of `record_bytes` per entry of send_points_) to their blocks;
  /// returns the received records in receive_slots_ order.
  std::vector<char> exchange(const void* packed, std::size_t record_bytes) const;

  std::size_t total_ = 0, begin_ = 0, block_size_ = 0;
  /// Owned local points in global order (so in destination-rank order).
  std::vector<index_t> send_points_;
  /// Block slot (global index - begin) of every received record, in arrival order.
  std::vector<std::size_t> receive_slots_;
#if ICONDIFF_HAVE_MPI
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<int> send_counts_, send_offsets_, receive_counts_, receive_offsets_;
#endif
};

}  // namespace icondiff
