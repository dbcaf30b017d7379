// The one case of icon_arrays_case.hpp as its implementation files share it: the diffusion's
// inputs and state (icon_arrays_case.cpp) and, when asked for, the solve_nh granule's
// (icon_solve_nh_case.cpp), with the helpers both use.
#pragma once

#include "support/solve_nh_case.hpp"

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/dycore/solve_nonhydro.hpp>
#include <icondiff/setup/diffusion_setup.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace icondiff::test::icon_case {

using H = Kokkos::HostSpace;
using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;

constexpr double sentinel = -8.75e18;
constexpr int int_sentinel = 0x7fffffff;

struct Case {
  HostDiffusionInputs host;         ///< the factories' results on the whole grid
  DiffusionInputs<H> whole_inputs;  ///< the whole grid's bundle (the reference runs on it)
  DiffusionPrognosticState<H> whole_initial;
  /// The grid the arrays describe: the whole grid, or one rank's part (icon_case_create_part).
  Grid grid;
  DiffusionInputs<H> inputs;  ///< on `grid`
  DiffusionConfig config;
  DiffusionSetupConfig setup;
  DiffusionPrognosticState<H> initial;                    ///< on `grid`
  std::optional<DiffusionPrognosticState<H>> prognostic;  ///< after run_reference (whole grid)
  std::optional<DiffusionDiagnosticState<H>> diagnostic;
  /// The zd point lists (ICON's shape): (cell, level) and per neighbour (level, coefficient).
  struct ZdEntry {
    int cell, level;
    int neighbour_cells[3];
    int neighbour_levels[3];
    double intcoef[3];
    double diffcoef;
  };
  std::vector<ZdEntry> zd;
  /// The C++ API's granule for timing (icon_case_cpp_prepare).
  struct CppCall {
    DiffusionInputs<M> inputs;
    std::unique_ptr<Diffusion<Space>> granule;
    DiffusionPrognosticState<M> prognostic;
    DiffusionDiagnosticState<M> diagnostic;
  };
  std::unique_ptr<CppCall> cpp;
  /// The solve_nh granule's part (icon_case_create_solve_nh), on the same grid and vertical grid.
  struct SolveNh {
    HostStaticInputs host;  ///< every granule's static fields on the whole grid
    DycoreInputs<H> whole_inputs;
    DycoreInputs<H> inputs;  ///< on `grid`
    DycoreConfig config;
    std::vector<double> vct_a;
    SolveNhStates<H> whole_initial;
    SolveNhStates<H> initial;                ///< on `grid`
    std::optional<SolveNhStates<H>> result;  ///< after run_solve_nh_reference (whole grid)
  };
  std::unique_ptr<SolveNh> solve_nh;
};

/// The case (InvalidArgument before icon_case_create).
Case& current();

/// 0 if `body` ran, else 1 with the message on stderr.
int guarded(const char* what, const std::function<void()>& body);

/// Writes `value(point, column)` into the caller's (ld, cols) array, the sentinel into rows >=
/// points.
void write_rows(double* data, int ld, int cols, std::size_t points,
                const std::function<double(std::size_t, int)>& value);

/// The number of values of the caller's (ld, cols) array of field `name` (at location `l`) that
/// differ bitwise from `reference`, the whole grid's (points, cols) field: on a rank's part its
/// owned points at their global index (halo points hold what the last exchange left: not
/// compared), padding rows against the sentinel. The first difference is printed, naming
/// `reference_name`.
template <class View>
int count_differences(const Case& k, const std::string& name, Location l, const View& reference,
                      const double* data, int ld, int cols, const char* reference_name) {
  const auto points = static_cast<std::size_t>(k.grid.size(l));
  const std::vector<index_t>& global = k.grid.global_index(l);
  const std::vector<int>& owner = k.grid.owner_rank(l);
  if (static_cast<int>(reference.extent(1)) != cols || static_cast<std::size_t>(ld) < points)
    throw InvalidArgument(name + " is (" + std::to_string(points) + ", " +
                          std::to_string(reference.extent(1)) + "); got (" + std::to_string(ld) +
                          ", " + std::to_string(cols) + ")");
  int mismatches = 0;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < ld; ++i) {
      const auto p = static_cast<std::size_t>(i);
      if (p < points && !owner.empty() && owner[p] != k.grid.rank) continue;
      const double got = data[static_cast<std::size_t>(j) * ld + i];
      const double want =
          p < points ? static_cast<double>(reference(global.empty() ? p : global[p], j)) : sentinel;
      if (std::memcmp(&got, &want, sizeof got) != 0) {
        if (mismatches == 0)
          std::fprintf(stderr, "icon_case: %s(%d, %d) = %.17g, %s gives %.17g%s\n", name.c_str(),
                       i + 1, j + 1, got, reference_name, want, p < points ? "" : " (padding)");
        ++mismatches;
      }
    }
  return mismatches;
}

/// The largest difference of the caller's (ld, cols) array of field `name` (at location `l`) from
/// `reference` (as count_differences: owned points at their global index; padding rows not
/// read), relative to the largest magnitude of the reference (absolute where that is 0).
template <class View>
double max_relative_difference(const Case& k, const std::string& name, Location l,
                               const View& reference, const double* data, int ld, int cols) {
  const auto points = static_cast<std::size_t>(k.grid.size(l));
  const std::vector<index_t>& global = k.grid.global_index(l);
  const std::vector<int>& owner = k.grid.owner_rank(l);
  if (static_cast<int>(reference.extent(1)) != cols || static_cast<std::size_t>(ld) < points)
    throw InvalidArgument(name + ": wrong shape");
  double largest = 0.0, difference = 0.0;
  for (int j = 0; j < cols; ++j)
    for (std::size_t i = 0; i < points; ++i) {
      if (!owner.empty() && owner[i] != k.grid.rank) continue;
      const double want = static_cast<double>(reference(global.empty() ? i : global[i], j));
      const double got = data[static_cast<std::size_t>(j) * ld + i];
      largest = std::max(largest, std::abs(want));
      // NaN (a blown-up state) must show: std::max would drop it.
      const double d = std::abs(got - want);
      if (!(d <= difference)) difference = d;
    }
  return largest > 0.0 ? difference / largest : difference;
}

// ---- icon_solve_nh_case.cpp: the solve_nh granule's arrays, by ICON4Py's argument names --------
// Each returns false for a name that is not one of the solve_nh granule's (or before
// icon_case_create_solve_nh).
bool fill_solve_nh_double(const Case& k, const std::string& name, double* data, int ld, int cols);
bool fill_solve_nh_int(const Case& k, const std::string& name, int* data, int ld, int cols);
bool fill_solve_nh_bool(const Case& k, const std::string& name, unsigned char* data, int ld);
std::optional<double> solve_nh_real(const Case& k, const std::string& name);
std::optional<int> solve_nh_int(const Case& k, const std::string& name);
/// The number of bitwise differences from the reference (as icon_case_compare), or nothing.
std::optional<int> compare_solve_nh(const Case& k, const std::string& name, const double* data,
                                    int ld, int cols);
/// The maximum relative difference from the reference (as icon_case_max_difference), or nothing.
std::optional<double> max_difference_solve_nh(const Case& k, const std::string& name,
                                              const double* data, int ld, int cols);

}  // namespace icondiff::test::icon_case
