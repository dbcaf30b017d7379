// Where a call writes a field that it only writes (a pure output): a range of points × a range of
// levels. The C API converts such a field into the caller's array over this region only and
// never from it (ExternalState::set_pure_output), so the region must be exactly what the
// kernels write: the granule that writes the field says where (Diffusion's
// diagnostic_written_region).
#pragma once

#include <icondiff/core/index_range.hpp>

namespace icondiff {

struct WrittenRegion {
  IndexRange points;
  IndexRange levels;
  constexpr bool empty() const { return points.empty() || levels.empty(); }
};

}  // namespace icondiff
