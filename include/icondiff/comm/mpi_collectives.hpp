// Errors on MPI ranks without hangs. A rank that fails alone and leaves would leave the others
// waiting forever in their next collective call; instead every step that can fail on one rank
// (reading a file, checking a decomposition, checking local sizes) ends in agree_on_errors(): one
// MPI_Allreduce tells every rank whether any failed, and then every rank throws the same
// CollectiveError with the message of the lowest failing rank.
//
// Compiled only with ICONDIFF_ENABLE_MPI (config.hpp: ICONDIFF_HAVE_MPI).
#pragma once

#include <icondiff/config.hpp>

#if ICONDIFF_HAVE_MPI

#include <icondiff/core/error.hpp>

#include <mpi.h>

#include <exception>
#include <string>

namespace icondiff {

/// Throws Error naming `call` and MPI's error text when `status` is not MPI_SUCCESS.
void check_mpi(int status, const char* call);

/// This process's rank and the size of `comm`.
int mpi_rank(MPI_Comm comm);
int mpi_size(MPI_Comm comm);

/// Collective over `comm`. Returns when `error` is empty on every rank; otherwise every rank
/// throws CollectiveError with the message of the lowest failing rank (and how many others failed).
void agree_on_errors(MPI_Comm comm, const std::string& error);

/// Collective over `comm`: runs `step` on every rank, then agree_on_errors() with what it threw
/// (icondiff::Error and std::exception messages, prefixed "rank R: " on more than one rank).
/// A CollectiveError thrown inside `step` was already agreed on and passes through unchanged.
template <class Step>
void collectively(MPI_Comm comm, Step&& step) {
  std::string error;
  try {
    step();
  } catch (const CollectiveError&) {
    throw;
  } catch (const std::exception& e) {
    error = mpi_size(comm) > 1 ? "rank " + std::to_string(mpi_rank(comm)) + ": " + e.what()
                               : std::string(e.what());
    if (error.empty()) error = "unknown error";
  }
  agree_on_errors(comm, error);
}

}  // namespace icondiff

#endif  // ICONDIFF_HAVE_MPI
