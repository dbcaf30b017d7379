// Timer reports in the "bencher" JSON shape ICON4Py uses for ICON's OpenACC timers
// (C2SM/icon4py scripts/data/bencher=...=OPENACC.json): one object per timer with
//   {"latency": {"value": median ms, "lower_value": min ms, "upper_value": max ms},
//    "latency_total": {"value": total ms}, "num_calls": {"value": n}}
// plus, in icondiff's own reports, "bandwidth" {"value": GB/s by the byte model} and a
// "_metadata" object (keys starting with "_" are not timers). See docs/user/cli.md.
#pragma once

#include <icondiff/profiling/kernel_timers.hpp>

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace icondiff::cli {

struct TimerEntry {
  double median_ms = 0, min_ms = 0, max_ms = 0, total_ms = 0;
  std::size_t calls = 0;
  double bandwidth_gbs = -1;  ///< < 0: unknown
};

/// Timer name -> entry, read from a bencher-style JSON file. Throws icondiff::Error with the file
/// name and the offending key for malformed input.
std::map<std::string, TimerEntry> read_timer_report(const std::string& path);

/// The JSON of a timer report; `bytes` (bytes per call, by timer name) adds the bandwidth.
nlohmann::json timer_report_json(const std::map<std::string, TimerEntry>& entries,
                                 const nlohmann::json& metadata);

/// The label of a whole dynamics time step (ndyn_substeps solve_nh substeps and the diffusion),
/// which the dynamics run records; "time_step" in reports.
inline const std::string time_step_label = "icondiff::dynamics::time_step";

/// A timer label as named in reports: without the "icondiff::diffusion::" or "icondiff::dycore::"
/// prefix, the diffusion's whole call as "nh_hdiff" (ICON's name), a dynamics step as
/// "time_step".
std::string timer_name(const std::string& label);

/// Whether a report's timer is a whole call (nh_hdiff, time_step): listed last.
bool is_whole_call(const std::string& name);

/// KernelTimers statistics as entries keyed by label without the "icondiff::diffusion::" prefix
/// (the whole call under "nh_hdiff", ICON's name), with bandwidth from `bytes` (by label).
std::map<std::string, TimerEntry> timer_entries(const KernelTimers& timers,
                                                const std::map<std::string, double>& bytes);

/// A fixed-width table of the entries (sorted by median, the whole call last).
std::string format_timer_table(const std::map<std::string, TimerEntry>& entries, double stream_gbs);

}  // namespace icondiff::cli
