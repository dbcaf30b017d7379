#include "cpu_affinity.hpp"

#include <sched.h>

#include <set>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace icondiff::cli {
namespace {

/// The CPUs of every OpenMP place (0 when the runtime does not bind threads to places).
int cpus_in_openmp_places() {
#ifdef _OPENMP
  if (omp_get_proc_bind() == omp_proc_bind_false) return 0;
  std::set<int> cpus;
  for (int place = 0; place < omp_get_num_places(); ++place) {
    std::vector<int> ids(static_cast<std::size_t>(omp_get_place_num_procs(place)));
    omp_get_place_proc_ids(place, ids.data());
    cpus.insert(ids.begin(), ids.end());
  }
  return static_cast<int>(cpus.size());
#else
  return 0;
#endif
}

}  // namespace

int allowed_cpu_count() {
  if (const int cpus = cpus_in_openmp_places(); cpus > 0) return cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

}  // namespace icondiff::cli
