// MPI session and rank helpers of the driver (ranks.hpp).
#include "ranks.hpp"

#include <algorithm>
#include <cstdlib>

namespace icondiff::cli {

#if ICONDIFF_HAVE_MPI
namespace {

bool mpi_active = false;

/// Environment variables that MPI launchers set in every process they start (Open MPI, PMIx,
/// MPICH/Hydra and Intel MPI's PMI, Slurm's srun).
bool started_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
                           "MPI_LOCALNRANKS", "SLURM_PROCID"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

}  // namespace
#endif

MpiSession::MpiSession([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {
#if ICONDIFF_HAVE_MPI
  if (!started_by_mpi_launcher()) return;
  int provided = 0;
  // Only the main thread calls MPI (Kokkos' OpenMP threads never do).
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  mpi_active = true;
#endif
}

MpiSession::~MpiSession() {
#if ICONDIFF_HAVE_MPI
  if (mpi_active) MPI_Finalize();
#endif
}

void MpiSession::abort_job([[maybe_unused]] int code) {
#if ICONDIFF_HAVE_MPI
  if (mpi_active && Ranks::world().decomposed()) MPI_Abort(MPI_COMM_WORLD, code);
#endif
}

Ranks Ranks::world() {
  Ranks r;
#if ICONDIFF_HAVE_MPI
  if (mpi_active) {
    r.rank_ = mpi_rank(MPI_COMM_WORLD);
    r.size_ = mpi_size(MPI_COMM_WORLD);
  }
#endif
  return r;
}

void Ranks::agree(const std::string& error) const {
#if ICONDIFF_HAVE_MPI
  if (decomposed()) return agree_on_errors(comm(), error);
#endif
  if (!error.empty()) throw InvalidArgument(error);
}

double Ranks::max(double value) const {
#if ICONDIFF_HAVE_MPI
  if (decomposed())
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, comm()), "MPI_Allreduce");
#endif
  return value;
}

double Ranks::sum(double value) const {
#if ICONDIFF_HAVE_MPI
  if (decomposed())
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_SUM, comm()), "MPI_Allreduce");
#endif
  return value;
}

long long Ranks::sum(long long value) const {
#if ICONDIFF_HAVE_MPI
  if (decomposed())
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_LONG_LONG, MPI_SUM, comm()),
              "MPI_Allreduce");
#endif
  return value;
}

std::vector<double> Ranks::gather(double value) const {
  std::vector<double> all(root() ? static_cast<std::size_t>(size_) : 0, value);
#if ICONDIFF_HAVE_MPI
  if (decomposed())
    check_mpi(MPI_Gather(&value, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, comm()),
              "MPI_Gather");
#endif
  return all;
}

std::vector<double> Ranks::max_each(std::vector<double> values) const {
#if ICONDIFF_HAVE_MPI
  if (decomposed()) {
    // Agree on the length first: a rank with another length would make MPI read past its data.
    // (Both reductions run on every rank: a short-circuit would skip one on some ranks.)
    const double length = static_cast<double>(values.size());
    const double longest = max(length), shortest = -max(-length);
    agree(longest != shortest ? "the ranks hold different numbers of timer samples" : "");
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()),
                            MPI_DOUBLE, MPI_MAX, comm()),
              "MPI_Allreduce");
  }
#endif
  return values;
}

std::string Ranks::broadcast(const std::string& value) const {
#if ICONDIFF_HAVE_MPI
  if (decomposed()) {
    int length = static_cast<int>(value.size());
    check_mpi(MPI_Bcast(&length, 1, MPI_INT, 0, comm()), "MPI_Bcast");
    std::string out = root() ? value : std::string(static_cast<std::size_t>(length), ' ');
    check_mpi(MPI_Bcast(out.data(), length, MPI_CHAR, 0, comm()), "MPI_Bcast");
    return out;
  }
#endif
  return value;
}

}  // namespace icondiff::cli
