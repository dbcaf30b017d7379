// Per-kernel wall-clock timers: when a KernelTimers is attached, the granule fences after each
// kernel and records its duration under the kernel's label, plus one sample per whole call.
// Without one, nothing is fenced or timed. Shaped like ICON's OpenACC per-stencil timers.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace icondiff {

struct TimerStatistics {
  std::size_t calls = 0;
  double total = 0, min = 0, median = 0, max = 0;  ///< seconds
};

class KernelTimers {
 public:
  void record(const std::string& name, double seconds) { samples_[name].push_back(seconds); }
  void clear() { samples_.clear(); }
  const std::map<std::string, std::vector<double>>& samples() const { return samples_; }
  /// Statistics per timer name.
  std::map<std::string, TimerStatistics> statistics() const;

 private:
  std::map<std::string, std::vector<double>> samples_;
};

}  // namespace icondiff
