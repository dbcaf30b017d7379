// Host-side fields for tests: plain (points, levels) and (points, slots, levels) arrays in the
// same memory order as the library's LayoutLeft Views (point index fastest), so copying between
// a HostField and a device View is one deep_copy. Random fills are seeded so a failure can be
// reproduced from the printed seed.
#pragma once

#include <icondiff/core/types.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace icondiff::test {

template <class T>
struct HostField {
  index_t points = 0;
  int levels = 0;
  std::vector<T> values;

  HostField() = default;
  HostField(index_t points_, int levels_, T fill = T())
      : points(points_),
        levels(levels_),
        values(static_cast<std::size_t>(points_) * levels_, fill) {}

  T& operator()(index_t i, int k) { return values[static_cast<std::size_t>(k) * points + i]; }
  const T& operator()(index_t i, int k) const {
    return values[static_cast<std::size_t>(k) * points + i];
  }
};

/// (points, slots, levels), e.g. zd_intcoef and zd_vertoffset (C, 3, K).
template <class T>
struct HostField3 {
  index_t points = 0;
  int slots = 0;
  int levels = 0;
  std::vector<T> values;

  HostField3() = default;
  HostField3(index_t points_, int slots_, int levels_, T fill = T())
      : points(points_),
        slots(slots_),
        levels(levels_),
        values(static_cast<std::size_t>(points_) * slots_ * levels_, fill) {}

  T& operator()(index_t i, int j, int k) {
    return values[(static_cast<std::size_t>(k) * slots + j) * points + i];
  }
  const T& operator()(index_t i, int j, int k) const {
    return values[(static_cast<std::size_t>(k) * slots + j) * points + i];
  }
};

/// A seeded source of uniform random numbers in [lo, hi) (ICON4Py's random_field uses [-1, 1)).
class RandomSource {
 public:
  explicit RandomSource(std::uint64_t seed) : seed_(seed), engine_(seed) {}
  std::uint64_t seed() const { return seed_; }

  double uniform(double lo = -1.0, double hi = 1.0) {
    return std::uniform_real_distribution<double>(lo, hi)(engine_);
  }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(engine_); }

  HostField<double> field(index_t points, int levels, double lo = -1.0, double hi = 1.0) {
    HostField<double> f(points, levels);
    for (auto& v : f.values) v = uniform(lo, hi);
    return f;
  }
  std::vector<double> vector(std::size_t n, double lo = -1.0, double hi = 1.0) {
    std::vector<double> v(n);
    for (auto& x : v) x = uniform(lo, hi);
    return v;
  }

 private:
  std::uint64_t seed_;
  std::mt19937_64 engine_;
};

}  // namespace icondiff::test
