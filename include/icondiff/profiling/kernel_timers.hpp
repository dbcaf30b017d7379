// Wall-clock timers of a granule: when a KernelTimers is attached, the granule records one sample
// per whole call and, in the `kernels` scope, fences around every kernel and records its duration
// under the kernel's label (ICON's OpenACC per-stencil timers). The `calls` scope fences only
// around the whole call, so kernels overlap and launch as in production: on a GPU a fence per
// kernel exposes every launch's latency (microseconds per kernel). Without timers, nothing is
// fenced or timed.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace icondiff {

struct TimerStatistics {
  std::size_t calls = 0;
  double total = 0, min = 0, median = 0, max = 0;  ///< seconds
};

/// What a KernelTimers times: every kernel and the whole call, or the whole call only.
enum class TimerScope { kernels, calls };

class KernelTimers {
 public:
  explicit KernelTimers(TimerScope scope = TimerScope::kernels) : scope_(scope) {}
  TimerScope scope() const { return scope_; }
  void record(const std::string& name, double seconds) { samples_[name].push_back(seconds); }
  void clear() { samples_.clear(); }
  const std::map<std::string, std::vector<double>>& samples() const { return samples_; }
  /// Statistics per timer name.
  std::map<std::string, TimerStatistics> statistics() const;

 private:
  TimerScope scope_;
  std::map<std::string, std::vector<double>> samples_;
};

}  // namespace icondiff
