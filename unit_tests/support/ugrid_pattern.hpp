// Field values with a known pattern, written by the UGRID output tests and recomputed by the
// Python checker (unit_tests/check_ugrid_output.py has the same formula), so that a value read
// back tells which field, step, level and point it came from.
#pragma once

#include <cstddef>
#include <vector>

namespace icondiff::test {

/// Field ids in the order of the UGRID writer's fields.
enum class PatternField { vn = 1, w, theta_v, exner, div_ic, hdef_ic, dwdx, dwdy };

inline double ugrid_pattern_value(PatternField field, std::size_t point, std::size_t level,
                                  std::size_t step) {
  return 1000.0 * static_cast<int>(field) + 100.0 * step + level + 1e-4 * point;
}

/// (points, levels) in FieldLayout order.
inline std::vector<double> ugrid_pattern(PatternField field, std::size_t points, std::size_t levels,
                                         std::size_t step) {
  std::vector<double> v(points * levels);
  for (std::size_t k = 0; k < levels; ++k)
    for (std::size_t i = 0; i < points; ++i)
      v[i + points * k] = ugrid_pattern_value(field, i, k, step);
  return v;
}

}  // namespace icondiff::test
