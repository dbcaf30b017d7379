// The counts and offsets of one MPI_Alltoallv pattern, and the records moved along it (forward)
// or back along the reversed pattern (replies). Records are opaque bytes of one fixed size, sent
// as one contiguous MPI type so counts stay in records (an int), not bytes. Private to src/comm.
#pragma once

#include <icondiff/config.hpp>

#if ICONDIFF_HAVE_MPI

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace icondiff::detail {

class AllToAllRoutes {
 public:
  AllToAllRoutes() = default;
  /// Collective over `comm`: this rank sends send_counts[r] records to rank r (one
  /// MPI_Alltoall tells every rank what it receives).
  AllToAllRoutes(MPI_Comm comm, std::vector<int> send_counts);

  std::size_t sent() const { return sent_; }
  std::size_t received() const { return received_; }
  const std::vector<int>& receive_counts() const { return receive_counts_; }

  /// Collective: moves sent() records of `record_bytes` each (in destination-rank order) and
  /// returns the received() records (in source-rank order).
  std::vector<char> forward(const void* records, std::size_t record_bytes) const;
  /// Collective: the replies, one per received record in the same order, go back to where the
  /// requests came from; returns one record per sent one, in the order they were sent.
  std::vector<char> backward(const void* records, std::size_t record_bytes) const;

 private:
  std::vector<char> move(const void* records, std::size_t record_bytes, bool reverse) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<int> send_counts_, send_offsets_, receive_counts_, receive_offsets_;
  std::size_t sent_ = 0, received_ = 0;
};

}  // namespace icondiff::detail

#endif  // ICONDIFF_HAVE_MPI
