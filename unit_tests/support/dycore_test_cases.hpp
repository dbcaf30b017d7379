// What the dycore tests (test_dycore_edge_programs, test_dycore_solver) share: the seed of a
// case, the grids every program runs on, and the check of one output against its reference
// (equal inside the program's domain, untouched outside it).
#pragma once

#include "support/field_compare.hpp"
#include "support/random_state.hpp"
#include "support/simple_grid.hpp"
#include "support/test_grids.hpp"

#include <icondiff/core/types.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace icondiff::test {

/// The seed of a test case: ICONDIFF_TEST_SEED when set (to replay a failure), else the FNV-1a
/// hash of the case's name (stable, different per case).
inline std::uint64_t dycore_seed(const std::string& test_case) {
  if (const char* env = std::getenv("ICONDIFF_TEST_SEED")) return std::strtoull(env, nullptr, 10);
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : test_case) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

struct DycoreGridCase {
  std::string name;
  Grid grid;
  int nlev;
};

/// The torus (every zone the whole grid, 12 levels), a global and a limited-area grid (8 levels).
inline std::vector<DycoreGridCase> dycore_grids() {
  std::vector<DycoreGridCase> grids;
  grids.push_back({"torus", make_simple_torus_grid(), 12});
  for (auto& g : granule_test_grids()) grids.push_back({g.name, std::move(g.grid), 8});
  return grids;
}

/// The kernel's output equals the reference's everywhere (NaN == NaN; exactly in a double
/// build); where `inside(point, level)` is false it kept its initial bits, and where it is true
/// every value is finite (a comparison of NaN with NaN proves nothing).
template <class Inside>
void expect_dycore_output(const std::string& what, const HostField<double>& kernel,
                          const HostField<double>& reference, const HostField<double>& initial,
                          Inside&& inside) {
  const Tolerance tol = sizeof(vp) == sizeof(float) ? stencil_tolerance() : Tolerance{0.0, 0.0};
  EXPECT_TRUE(all_close(what, kernel, reference, tol));
  std::size_t touched = 0, not_finite = 0;
  for (int level = 0; level < kernel.levels; ++level)
    for (index_t p = 0; p < kernel.points; ++p) {
      if (inside(p, level)) {
        not_finite += std::isfinite(kernel(p, level)) ? 0 : 1;
        continue;
      }
      const double a = kernel(p, level), b = initial(p, level);
      if (!(a == b || (std::isnan(a) && std::isnan(b)))) ++touched;
    }
  EXPECT_EQ(touched, 0u) << what << ": points outside the domain were written";
  EXPECT_EQ(not_finite, 0u) << what << ": values inside the domain are not finite";
}

}  // namespace icondiff::test
