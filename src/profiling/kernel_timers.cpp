#include <icondiff/profiling/kernel_timers.hpp>

#include <algorithm>
#include <numeric>

namespace icondiff {

std::map<std::string, TimerStatistics> KernelTimers::statistics() const {
  std::map<std::string, TimerStatistics> out;
  for (const auto& [name, values] : samples_) {
    if (values.empty()) continue;
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    TimerStatistics s;
    s.calls = sorted.size();
    s.total = std::accumulate(sorted.begin(), sorted.end(), 0.0);
    s.min = sorted.front();
    s.max = sorted.back();
    const std::size_t mid = sorted.size() / 2;
    s.median = sorted.size() % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
    out[name] = s;
  }
  return out;
}

}  // namespace icondiff
