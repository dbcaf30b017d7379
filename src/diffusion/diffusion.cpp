// Explicit instantiation of the diffusion granule for every enabled execution space.
#include "diffusion_impl.hpp"

#include <icondiff/core/execution_spaces.hpp>

namespace icondiff {

const char* to_string(DiffusionStrategy strategy) {
  return strategy == DiffusionStrategy::Unfused ? "unfused" : "fused";
}

DiffusionStrategy parse_strategy(const std::string& name) {
  if (name == "fused") return DiffusionStrategy::Fused;
  if (name == "unfused") return DiffusionStrategy::Unfused;
  throw ConfigError("diffusion strategy '" + name + "' is unknown: expected 'fused' or 'unfused'");
}

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
  for (const auto s : {LoopSchedule::MDRange, LoopSchedule::Flat, LoopSchedule::PointsOuter,
                       LoopSchedule::LevelChunks})
    if (name == to_string(s)) return s;
  throw ConfigError("loop schedule '" + name +
                    "' is unknown: expected mdrange, flat, points-outer or level-chunks");
}

#define ICONDIFF_INSTANTIATE_DIFFUSION(SPACE) template class Diffusion<SPACE>;
ICONDIFF_FOR_EACH_EXECUTION_SPACE(ICONDIFF_INSTANTIATE_DIFFUSION)

#define ICONDIFF_INSTANTIATE_RANGES(SPACE) \
  template DiffusionRanges diffusion_ranges<SPACE>(const DeviceGrid<SPACE>&);
ICONDIFF_FOR_EACH_MEMORY_SPACE(ICONDIFF_INSTANTIATE_RANGES)

}  // namespace icondiff
