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

#define ICONDIFF_INSTANTIATE_DIFFUSION(SPACE) template class Diffusion<SPACE>;
ICONDIFF_FOR_EACH_EXECUTION_SPACE(ICONDIFF_INSTANTIATE_DIFFUSION)

#define ICONDIFF_INSTANTIATE_RANGES(SPACE) \
  template DiffusionRanges diffusion_ranges<SPACE>(const DeviceGrid<SPACE>&);
ICONDIFF_FOR_EACH_MEMORY_SPACE(ICONDIFF_INSTANTIATE_RANGES)

}  // namespace icondiff
