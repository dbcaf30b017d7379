// Names of the loop schedules (core/launch.hpp): parsed from the command line and benchmark
// arguments, printed in timer reports.
#include <icondiff/core/error.hpp>
#include <icondiff/core/launch.hpp>

#include <string>

namespace icondiff {

const char* to_string(LoopSchedule schedule) {
  switch (schedule) {
    case LoopSchedule::MDRange: return "mdrange";
    case LoopSchedule::Flat: return "flat";
    case LoopSchedule::PointsOuter: return "points-outer";
    case LoopSchedule::LevelChunks: return "level-chunks";
  }
  return "?";
}

LoopSchedule parse_loop_schedule(const std::string& name) {
  std::string names;
  for (const auto s : all_loop_schedules) {
    if (name == to_string(s)) return s;
    names += (names.empty() ? "" : ", ") + std::string(to_string(s));
  }
  throw ConfigError("loop schedule '" + name + "' is unknown: expected one of " + names);
}

}  // namespace icondiff
