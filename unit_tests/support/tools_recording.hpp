// What a Kokkos Tools connector sees, recorded in process: every kernel (parallel_for, _reduce,
// _scan), region push and pop, allocation, deep copy and fence, each with the regions open at that
// moment. Shared by the granule-level Tools tests (test_kokkos_tools_labels, test_dycore_tools).
#pragma once

#include <icondiff/kokkos_compat.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace icondiff::test {

/// One thing the tools saw, with the regions open at that moment (outermost first).
struct Event {
  std::string kind;  ///< parallel_for, parallel_reduce, parallel_scan, region, allocation,
                     ///< deep_copy, fence (a test may record its own, e.g. exchange_start)
  std::string name;
  std::vector<std::string> regions;
};

struct Recording {
  std::vector<std::string> open;  ///< the region stack
  std::vector<Event> events;
  int unmatched_pops = 0;
};

inline Recording& recording() {
  static Recording r;
  return r;
}

inline void record(const char* kind, const char* name) {
  Recording& r = recording();
  r.events.push_back({kind, name ? name : "", r.open});
}
inline void on_parallel_for(const char* name, std::uint32_t, std::uint64_t*) {
  record("parallel_for", name);
}
inline void on_parallel_reduce(const char* name, std::uint32_t, std::uint64_t*) {
  record("parallel_reduce", name);
}
inline void on_parallel_scan(const char* name, std::uint32_t, std::uint64_t*) {
  record("parallel_scan", name);
}
inline void on_push_region(const char* name) {
  record("region", name);
  recording().open.emplace_back(name);
}
inline void on_pop_region() {
  Recording& r = recording();
  if (r.open.empty())
    ++r.unmatched_pops;
  else
    r.open.pop_back();
}
inline void on_allocate(Kokkos_Profiling_SpaceHandle, const char* name, const void*,
                        std::uint64_t) {
  record("allocation", name);
}
inline void on_deep_copy(Kokkos_Profiling_SpaceHandle, const char* dst_name, const void*,
                         Kokkos_Profiling_SpaceHandle, const char*, const void*, std::uint64_t) {
  record("deep_copy", dst_name);
}
inline void on_fence(const char* name, std::uint32_t, std::uint64_t*) {
  // Kokkos 4 fences around every kernel and region on its own while a tool callback is set
  // ("Kokkos::Tools::invoke_kokkosp_callback: Kokkos Profile Tool Fence"): the tool's, not ours.
  if (std::string(name).rfind("Kokkos::Tools::", 0) == 0) return;
  record("fence", name);
}

/// Registers the callbacks for its lifetime and clears the recording; the destructor deregisters
/// them, also when an assertion leaves the test early.
class ToolsRecorder {
 public:
  ToolsRecorder() {
    recording() = Recording{};
    compat::set_begin_parallel_for_callback(on_parallel_for);
    compat::set_begin_parallel_reduce_callback(on_parallel_reduce);
    compat::set_begin_parallel_scan_callback(on_parallel_scan);
    compat::set_push_region_callback(on_push_region);
    compat::set_pop_region_callback(on_pop_region);
    compat::set_allocate_data_callback(on_allocate);
    compat::set_begin_deep_copy_callback(on_deep_copy);
    compat::set_begin_fence_callback(on_fence);
  }
  ~ToolsRecorder() {
    compat::set_begin_parallel_for_callback(nullptr);
    compat::set_begin_parallel_reduce_callback(nullptr);
    compat::set_begin_parallel_scan_callback(nullptr);
    compat::set_push_region_callback(nullptr);
    compat::set_pop_region_callback(nullptr);
    compat::set_allocate_data_callback(nullptr);
    compat::set_begin_deep_copy_callback(nullptr);
    compat::set_begin_fence_callback(nullptr);
  }
  ToolsRecorder(const ToolsRecorder&) = delete;
  ToolsRecorder& operator=(const ToolsRecorder&) = delete;
};

}  // namespace icondiff::test
