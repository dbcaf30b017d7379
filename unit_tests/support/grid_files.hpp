// Where tests find the real ICON grid files (../shared/data/grids, or $ICONDIFF_GRID_DIR) and
// where they write scratch files.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace icondiff::test {

inline constexpr const char* global_r02b03 = "icon_grid_0009_R02B03_R.nc";
inline constexpr const char* lam_r19b04 = "mch_ch_coarsegrid_wind_R19B04.nc";
inline constexpr const char* lam_r19b04_parent = "mch_ch_coarsegrid_wind_R19B04.parent.nc";

/// The folder with the real grid files: $ICONDIFF_GRID_DIR if set, else the one CMake was given.
std::string grid_dir();

/// Full path of a real grid file, or std::nullopt if it is absent.
std::optional<std::string> real_grid(const std::string& file_name);

/// A fresh path for a scratch file (unique per process and name).
std::string scratch_file(const std::string& name);

}  // namespace icondiff::test

/// Sets `var` to the path of a real grid file, or skips the test with a clear message.
#define ICONDIFF_REAL_GRID_OR_SKIP(var, file_name)                                           \
  const auto var##_optional = ::icondiff::test::real_grid(file_name);                        \
  if (!var##_optional)                                                                       \
    GTEST_SKIP() << "real ICON grid '" << (file_name) << "' not found in '"                  \
                 << ::icondiff::test::grid_dir()                                             \
                 << "' (set ICONDIFF_GRID_DIR or put ../shared/data/grids beside the repo)"; \
  const std::string var = *var##_optional
