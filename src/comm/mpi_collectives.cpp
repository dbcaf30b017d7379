// Agreeing on errors over MPI (comm/mpi_collectives.hpp).
#include <icondiff/comm/mpi_collectives.hpp>

#include <fmt/format.h>

namespace icondiff {

void check_mpi(int status, const char* call) {
  if (status != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(status, text, &length);
    throw Error(fmt::format("{} failed: {}", call, std::string(text, length)));
  }
}

int mpi_rank(MPI_Comm comm) {
  int rank = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  return rank;
}

int mpi_size(MPI_Comm comm) {
  int size = 1;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  return size;
}

void agree_on_errors(MPI_Comm comm, const std::string& error) {
  const int rank = mpi_rank(comm), size = mpi_size(comm);
  const int mine[2] = {error.empty() ? size : rank, error.empty() ? 0 : 1};
  int first = size, failed = 0;
  check_mpi(MPI_Allreduce(&mine[0], &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == size) return;
  check_mpi(MPI_Allreduce(&mine[1], &failed, 1, MPI_INT, MPI_SUM, comm), "MPI_Allreduce");
  int length = rank == first ? static_cast<int>(error.size()) : 0;
  check_mpi(MPI_Bcast(&length, 1, MPI_INT, first, comm), "MPI_Bcast");
  std::string message = rank == first ? error : std::string(static_cast<std::size_t>(length), ' ');
  check_mpi(MPI_Bcast(message.data(), length, MPI_CHAR, first, comm), "MPI_Bcast");
  if (failed > 1) message += fmt::format(" (and {} more rank(s) failed)", failed - 1);
  throw CollectiveError(message);
}

}  // namespace icondiff
