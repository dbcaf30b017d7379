// The MPI ranks the driver runs on. `icondiff` started by an MPI launcher (mpirun, srun, ...)
// in a build with ICONDIFF_ENABLE_MPI runs decomposed on MPI_COMM_WORLD; started on its own, or
// built without MPI, it is one rank and never touches MPI (so a plain run stays as it was).
//
// Errors: every step that can fail on one rank alone (reading the grid, a partition file, an
// output path) runs inside collectively(), which makes every rank throw the same CollectiveError;
// main() prints it once (rank 0) and every rank exits with code 2. Anything else that escapes on
// one rank of several aborts the job (MPI_Abort with code 3) rather than leaving the others
// waiting forever.
#pragma once

#include <icondiff/config.hpp>
#include <icondiff/core/error.hpp>

#if ICONDIFF_HAVE_MPI
#include <icondiff/comm/mpi_collectives.hpp>

#include <mpi.h>
#endif

#include <string>
#include <utility>
#include <vector>

namespace icondiff::cli {

/// Initialises MPI when the process was started by an MPI launcher (and the build has MPI);
/// finalises it at the end of main. Construct before Kokkos.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  /// Ends the whole job with `code` (MPI_Abort when MPI runs on several ranks; else returns).
  static void abort_job(int code);
};

/// This process's place among the ranks (one rank without MPI).
class Ranks {
 public:
  /// The ranks of MPI_COMM_WORLD when MpiSession initialised MPI, else one rank.
  static Ranks world();

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }
  bool decomposed() const { return size_ > 1; }

  /// Collective: returns when `error` is empty on every rank, else every rank throws the same
  /// CollectiveError (one rank: throws InvalidArgument(error) when it is not empty).
  void agree(const std::string& error) const;
  /// Collective: runs `step`; when it throws on any rank, every rank throws the same
  /// CollectiveError with the first failing rank's message (comm/mpi_collectives.hpp). On one
  /// rank the exception passes through unchanged (its type sets the exit code).
  template <class Step>
  void collectively(Step&& step) const {
#if ICONDIFF_HAVE_MPI
    if (decomposed()) return icondiff::collectively(comm(), std::forward<Step>(step));
#endif
    step();
  }

  /// Collective reductions of one value (identity on one rank).
  double max(double value) const;
  double sum(double value) const;
  long long sum(long long value) const;
  /// Collective: every rank's value on the root, in rank order (empty on other ranks).
  std::vector<double> gather(double value) const;
  /// Collective: the element-wise maximum over ranks (every rank must pass the same length).
  std::vector<double> max_each(std::vector<double> values) const;
  /// Collective: `value` of the root on every rank.
  std::string broadcast(const std::string& value) const;

#if ICONDIFF_HAVE_MPI
  MPI_Comm comm() const {
    return MPI_COMM_WORLD;
  }
#endif

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace icondiff::cli
