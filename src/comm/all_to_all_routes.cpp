#include "all_to_all_routes.hpp"

#if ICONDIFF_HAVE_MPI

#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/core/error.hpp>

#include <fmt/format.h>

#include <limits>

namespace icondiff::detail {

namespace {
std::vector<int> offsets_of(const std::vector<int>& counts, std::size_t& total) {
  std::vector<int> offsets(counts.size(), 0);
  unsigned long long sum = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (sum > static_cast<unsigned long long>(std::numeric_limits<int>::max()))
      throw Error(fmt::format("an all-to-all of more than {} records per rank",
                              std::numeric_limits<int>::max()));
    offsets[r] = static_cast<int>(sum);
    sum += static_cast<unsigned long long>(counts[r]);
  }
  total = static_cast<std::size_t>(sum);
  return offsets;
}
}  // namespace

AllToAllRoutes::AllToAllRoutes(MPI_Comm comm, std::vector<int> send_counts)
    : comm_(comm), send_counts_(std::move(send_counts)) {
  receive_counts_.assign(send_counts_.size(), 0);
  check_mpi(MPI_Alltoall(send_counts_.data(), 1, MPI_INT, receive_counts_.data(), 1, MPI_INT, comm),
            "MPI_Alltoall");
  send_offsets_ = offsets_of(send_counts_, sent_);
  receive_offsets_ = offsets_of(receive_counts_, received_);
}

std::vector<char> AllToAllRoutes::forward(const void* records, std::size_t record_bytes) const {
  return move(records, record_bytes, false);
}

std::vector<char> AllToAllRoutes::backward(const void* records, std::size_t record_bytes) const {
  return move(records, record_bytes, true);
}

std::vector<char> AllToAllRoutes::move(const void* records, std::size_t record_bytes,
                                       bool reverse) const {
  const auto& out_counts = reverse ? receive_counts_ : send_counts_;
  const auto& out_offsets = reverse ? receive_offsets_ : send_offsets_;
  const auto& in_counts = reverse ? send_counts_ : receive_counts_;
  const auto& in_offsets = reverse ? send_offsets_ : receive_offsets_;
  std::vector<char> in((reverse ? sent_ : received_) * record_bytes);
  if (record_bytes == 0) return in;
  MPI_Datatype record;
  check_mpi(MPI_Type_contiguous(static_cast<int>(record_bytes), MPI_BYTE, &record),
            "MPI_Type_contiguous");
  check_mpi(MPI_Type_commit(&record), "MPI_Type_commit");
  const int status = MPI_Alltoallv(records, out_counts.data(), out_offsets.data(), record,
                                   in.data(), in_counts.data(), in_offsets.data(), record, comm_);
  MPI_Type_free(&record);
  check_mpi(status, "MPI_Alltoallv");
  return in;
}

}  // namespace icondiff::detail

#endif  // ICONDIFF_HAVE_MPI
