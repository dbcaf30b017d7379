// The CPUs this process may run on, however the OpenMP runtime has bound its main thread.
#pragma once

namespace icondiff::cli {

/// The number of CPUs the process was started with. With OMP_PROC_BIND set, libgomp binds the
/// main thread to its first place while the library loads (before main), so the affinity mask
/// read afterwards names one CPU however many the process got; the OpenMP places, built from
/// the mask before that binding, still name them all. Without binding: the affinity mask.
int allowed_cpu_count();

}  // namespace icondiff::cli
