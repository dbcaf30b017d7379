#include "timer_report.hpp"
#include "output_paths.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/diffusion/diffusion_labels.hpp>
#include <icondiff/dycore/dycore_labels.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <vector>

namespace icondiff::cli {

namespace {
double number_at(const nlohmann::json& object, const char* measure, const char* field,
                 const std::string& path, const std::string& timer, bool required) {
  if (!object.contains(measure) || !object[measure].contains(field)) {
    if (!required) return -1;
    throw Error(
        fmt::format("timer report '{}': timer '{}' has no {}.{}", path, timer, measure, field));
  }
  const auto& v = object[measure][field];
  if (!v.is_number())
    throw Error(fmt::format("timer report '{}': timer '{}': {}.{} is not a number", path, timer,
                            measure, field));
  return v.get<double>();
}
}  // namespace

std::map<std::string, TimerEntry> read_timer_report(const std::string& path) {
  // A regular file (a FIFO would block, a device never end) of at most 16 MiB: a report of every
  // ICON timer is a few kB.
  try {
    check_input_file("timer report", path, std::uintmax_t(16) << 20);
  } catch (const InvalidArgument& e) {
    const std::string why = e.what(), prefix = "timer report " + path + ": ";
    throw Error(fmt::format("timer report '{}' cannot be opened: {}", path,
                            why.rfind(prefix, 0) == 0 ? why.substr(prefix.size()) : why));
  }
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("timer report '{}' cannot be opened", path));
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("timer report '{}' is not valid JSON: {}", path, e.what()));
  }
  if (!j.is_object())
    throw Error(fmt::format("timer report '{}': expected a JSON object of timers", path));
  std::map<std::string, TimerEntry> out;
  for (const auto& [name, t] : j.items()) {
    if (!name.empty() && name[0] == '_') continue;
    if (!t.is_object())
      throw Error(fmt::format("timer report '{}': timer '{}' is not an object", path, name));
    TimerEntry e;
    e.median_ms = number_at(t, "latency", "value", path, name, true);
    e.min_ms = number_at(t, "latency", "lower_value", path, name, false);
    e.max_ms = number_at(t, "latency", "upper_value", path, name, false);
    e.total_ms = number_at(t, "latency_total", "value", path, name, false);
    const double calls = number_at(t, "num_calls", "value", path, name, false);
    e.calls = calls > 0 ? static_cast<std::size_t>(calls) : 0;
    e.bandwidth_gbs = number_at(t, "bandwidth", "value", path, name, false);
    out[name] = e;
  }
  if (out.empty()) throw Error(fmt::format("timer report '{}' holds no timers", path));
  return out;
}

nlohmann::json timer_report_json(const std::map<std::string, TimerEntry>& entries,
                                 const nlohmann::json& metadata) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, e] : entries) {
    j[name]["latency"] = {
        {"value", e.median_ms}, {"lower_value", e.min_ms}, {"upper_value", e.max_ms}};
    j[name]["latency_total"] = {{"value", e.total_ms}};
    j[name]["num_calls"] = {{"value", e.calls}};
    if (e.bandwidth_gbs >= 0) j[name]["bandwidth"] = {{"value", e.bandwidth_gbs}};
  }
  j["_metadata"] = metadata;
  return j;
}

std::string timer_name(const std::string& label) {
  if (label == diffusion_labels::run) return "nh_hdiff";
  if (label == time_step_label) return "time_step";
  for (const std::string& prefix : {diffusion_labels::prefix, dycore_labels::prefix})
    if (label.rfind(prefix, 0) == 0) return label.substr(prefix.size());
  return label;
}

bool is_whole_call(const std::string& name) {
  return name == "nh_hdiff" || name == "time_step";
}

std::map<std::string, TimerEntry> timer_entries(const KernelTimers& timers,
                                                const std::map<std::string, double>& bytes) {
  std::map<std::string, TimerEntry> out;
  for (const auto& [label, s] : timers.statistics()) {
    TimerEntry e;
    e.median_ms = s.median * 1e3;
    e.min_ms = s.min * 1e3;
    e.max_ms = s.max * 1e3;
    e.total_ms = s.total * 1e3;
    e.calls = s.calls;
    if (auto it = bytes.find(label); it != bytes.end() && s.median > 0)
      e.bandwidth_gbs = it->second / s.median * 1e-9;
    out[timer_name(label)] = e;
  }
  return out;
}

std::string format_timer_table(const std::map<std::string, TimerEntry>& entries,
                               double stream_gbs) {
  std::vector<std::pair<std::string, TimerEntry>> rows(entries.begin(), entries.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    if (is_whole_call(a.first) != is_whole_call(b.first)) return is_whole_call(b.first);
    return a.second.median_ms > b.second.median_ms;
  });
  std::string out = fmt::format("{:<72} {:>6} {:>10} {:>10} {:>10} {:>9} {:>7}\n", "kernel",
                                "calls", "median ms", "min ms", "max ms", "GB/s", "STREAM");
  for (const auto& [name, e] : rows) {
    const bool known = e.bandwidth_gbs >= 0;
    out += fmt::format(
        "{:<72} {:>6} {:>10.4f} {:>10.4f} {:>10.4f} {:>9} {:>7}\n", name, e.calls, e.median_ms,
        e.min_ms, e.max_ms, known ? fmt::format("{:.2f}", e.bandwidth_gbs) : "-",
        known && stream_gbs > 0 ? fmt::format("{:.0f}%", 100 * e.bandwidth_gbs / stream_gbs) : "-");
  }
  return out;
}

}  // namespace icondiff::cli
