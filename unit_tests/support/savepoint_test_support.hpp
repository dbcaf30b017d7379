// What the savepoint tests of every granule share (test_diffusion_savepoint,
// test_solve_nh_savepoint): a seeded random source whose seed is printed, the tiny grid the
// random savepoints live on, bitwise comparison of two fields, damaged copies of a good file
// (global attributes edited through netCDF-C) and the check that reading a file fails with a
// SavepointFileError naming the file, the variable or attribute and the problem.
#pragma once

#include "grid_files.hpp"
#include "host_field.hpp"
#include "netcdf_edit.hpp"
#include "tiny_grids.hpp"

#include <icondiff/io/savepoint_types.hpp>

#include <gtest/gtest.h>
#include <netcdf.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace icondiff::test {

/// The values of a host View of rank 3 in the C order of a netCDF variable (level, slot, point):
/// ICON's memory order, which savepoint files hold in every field layout.
template <class View>
std::vector<typename View::non_const_value_type> in_file_order(const View& v) {
  std::vector<typename View::non_const_value_type> out;
  for (std::size_t k = 0; k < v.extent(2); ++k)
    for (std::size_t j = 0; j < v.extent(1); ++j)
      for (std::size_t i = 0; i < v.extent(0); ++i) out.push_back(v(i, j, k));
  return out;
}

/// The seed of this test process: ICONDIFF_TEST_SEED, else a random one.
inline std::uint64_t test_seed() {
  static const std::uint64_t seed = [] {
    if (const char* env = std::getenv("ICONDIFF_TEST_SEED"); env && *env)
      return static_cast<std::uint64_t>(std::strtoull(env, nullptr, 10));
    return static_cast<std::uint64_t>(std::random_device{}());
  }();
  return seed;
}

/// A RandomSource for one test, its seed printed and attached to every failure.
struct SeededTest {
  RandomSource rng{test_seed()};
  ::testing::ScopedTrace trace{__FILE__, __LINE__,
                               "seed " + std::to_string(test_seed()) + " (ICONDIFF_TEST_SEED)"};
  SeededTest() { std::cout << "[   seed   ] " << test_seed() << "\n"; }
};

/// The octahedron (8 cells, 12 edges, 6 vertices) with a uuid: the random savepoints' grid.
inline const Grid& octahedron() {
  static const Grid g = [] {
    Grid grid = make_octahedron_grid();
    grid.uuid = "0f1e2d3c-octahedron";
    return grid;
  }();
  return g;
}

/// Whether two fields have the same extents and the same bits.
template <class A, class B>
::testing::AssertionResult bit_identical(const std::string& name, const A& a, const B& b) {
  static_assert(std::is_same_v<typename A::non_const_value_type, typename B::non_const_value_type>,
                "same types");
  for (unsigned r = 0; r < A::rank; ++r)
    if (a.extent(r) != b.extent(r))
      return ::testing::AssertionFailure()
             << name << ": extent " << r << " is " << b.extent(r) << ", expected " << a.extent(r);
  if (a.size() != 0 &&
      std::memcmp(a.data(), b.data(), a.size() * sizeof(typename A::value_type)) != 0)
    return ::testing::AssertionFailure() << name << ": values differ";
  return ::testing::AssertionSuccess();
}

/// A scratch copy "<name>.nc" of `source` with `edits` applied.
inline std::string damaged_copy(const std::string& source, const std::string& name,
                                const NetcdfEdits& edits) {
  const std::string path = scratch_file(name + ".nc");
  copy_netcdf(source, path, edits);
  return path;
}

/// A scratch copy of `source` whose global attributes `edit(ncid)` changes through netCDF-C.
inline std::string with_global_attributes(const std::string& source, const std::string& name,
                                          const std::function<void(int)>& edit) {
  const std::string path = damaged_copy(source, name, {});
  int ncid = 0;
  EXPECT_EQ(nc_open(path.c_str(), NC_WRITE, &ncid), NC_NOERR);
  EXPECT_EQ(nc_redef(ncid), NC_NOERR);
  edit(ncid);
  EXPECT_EQ(nc_close(ncid), NC_NOERR);
  return path;
}

/// Edits for with_global_attributes: set one global attribute.
inline std::function<void(int)> set_int(const char* attribute, int value) {
  return [=](int ncid) {
    EXPECT_EQ(nc_put_att_int(ncid, NC_GLOBAL, attribute, NC_INT, 1, &value), NC_NOERR);
  };
}
inline std::function<void(int)> set_double(const char* attribute, double value) {
  return [=](int ncid) {
    EXPECT_EQ(nc_put_att_double(ncid, NC_GLOBAL, attribute, NC_DOUBLE, 1, &value), NC_NOERR);
  };
}
inline std::function<void(int)> set_text(const char* attribute, const std::string& value) {
  return [=](int ncid) {
    EXPECT_EQ(nc_put_att_text(ncid, NC_GLOBAL, attribute, value.size(), value.c_str()), NC_NOERR);
  };
}

/// `read(path)` fails with a SavepointFileError about `variable` (and `index` if >= 0) whose
/// message contains `fragment` and the file name.
inline void expect_savepoint_error(const std::function<void(const std::string&)>& read,
                                   const std::string& path, const std::string& variable,
                                   long long index, const std::string& fragment) {
  try {
    read(path);
    ADD_FAILURE() << "reading " << path << " should have failed with '" << fragment << "'";
  } catch (const SavepointFileError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.file(), path) << message;
    EXPECT_EQ(e.variable(), variable) << message;
    if (index >= 0) {
      EXPECT_EQ(e.index(), index) << message;
    }
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
    EXPECT_NE(message.find(path), std::string::npos) << message;
  }
}

}  // namespace icondiff::test
