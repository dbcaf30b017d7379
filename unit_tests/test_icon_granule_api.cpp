// The C API's granule on ICON's arrays (icondiff_c.h): a run is zero copy (Kokkos Tools callbacks
// count no allocation, no deep copy and at most the one closing fence per call, every kernel
// labelled icondiff::), results equal the C++ path bit for bit with padding rows untouched, and
// every bad argument comes back as a status and a message naming the argument and both sizes.
// The Fortran side of the same API is tested by fortran_bindings/test/test_fortran_granule.f90.
#include "support/icon_api_arrays.hpp"
#include "support/icon_arrays_case.hpp"

#include <icondiff/kokkos_compat.hpp>

#include <icondiff_c.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace icondiff {
namespace icon_granule_api_test {

using test::Handles;
using test::IconArrays;

// ---- Tool callbacks ---------------------------------------------------------------------------
int allocations = 0, deep_copies = 0;
std::vector<std::string> fences, kernels;
void on_allocate(Kokkos_Profiling_SpaceHandle, const char*, const void*, std::uint64_t) {
  ++allocations;
}
void on_deep_copy(Kokkos_Profiling_SpaceHandle, const char*, const void*,
                  Kokkos_Profiling_SpaceHandle, const char*, const void*, std::uint64_t) {
  ++deep_copies;
}
void on_fence(const char* name, std::uint32_t, std::uint64_t*) {
  // Kokkos 4 fences around kernels on its own while a tool is attached; those are the tool's.
  if (std::string(name).rfind("Kokkos::Tools::", 0) == 0) return;
  fences.emplace_back(name);
}
void on_kernel(const char* name, std::uint32_t, std::uint64_t*) {
  kernels.emplace_back(name);
}

void attach() {
  allocations = deep_copies = 0;
  fences.clear();
  kernels.clear();
  compat::set_allocate_data_callback(on_allocate);
  compat::set_begin_deep_copy_callback(on_deep_copy);
  compat::set_begin_fence_callback(on_fence);
  compat::set_begin_parallel_for_callback(on_kernel);
}
void detach() {
  compat::set_allocate_data_callback(nullptr);
  compat::set_begin_deep_copy_callback(nullptr);
  compat::set_begin_fence_callback(nullptr);
  compat::set_begin_parallel_for_callback(nullptr);
}

TEST(icon_granule_api, run_is_zero_copy_and_equals_the_cpp_path) {
  IconArrays a("generate:R2B2", 10);
  ASSERT_GT(a.nzd, 0) << "the case must exercise the zd lists";
  Handles h(a);
  constexpr int steps = 4;
  a.run.linit = 1;
  ASSERT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
  a.run.linit = 0;
  attach();
  for (int step = 1; step < steps; ++step)
    ASSERT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
  detach();
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(deep_copies, 0);
  std::printf("%d runs: %zu kernels, %zu fences reported, %d allocations, %d deep copies\n",
              steps - 1, kernels.size(), fences.size(), allocations, deep_copies);
  // One fence per call: the granule's own, at the end (every version reports icondiff's fences:
  // kokkos_compat.hpp hands their labels to the tools before Kokkos 3.5).
  EXPECT_EQ(fences, std::vector<std::string>(steps - 1, "icondiff::capi::diffusion_run"));
  ASSERT_FALSE(kernels.empty());
  for (const auto& name : kernels) EXPECT_EQ(name.rfind("icondiff::", 0), 0u) << name;

  ASSERT_EQ(icon_case_run_reference(steps, a.run.dtime), 0);
  a.expect_outputs_equal_reference();
  int calls = 0;
  EXPECT_EQ(icondiff_diffusion_calls(h.granule, &calls), ICONDIFF_OK);
  EXPECT_EQ(calls, steps);
}

TEST(icon_granule_api, absent_diagnostics_are_allocated_once) {
  IconArrays a("generate:R2B2", 8);
  Handles h(a);
  a.run.hdef_ic = a.run.div_ic = a.run.dwdx = a.run.dwdy = {nullptr, {0, 0, 0}};
  ASSERT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
  attach();
  ASSERT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
  detach();
  EXPECT_EQ(allocations, 0) << "the diagnostics icondiff keeps are made on the first call only";
}

/// Runs `a` after `change` and expects `status` and every fragment in the message.
template <class Change>
void expect_refused(IconArrays& a, icondiff_diffusion* granule, Change change,
                    icondiff_status status, std::initializer_list<const char*> fragments) {
  icondiff_run_args args = a.run;
  change(args);
  EXPECT_EQ(icondiff_diffusion_run(granule, &args), status);
  const std::string message = icondiff_last_error();
  for (const char* f : fragments)
    EXPECT_NE(message.find(f), std::string::npos) << "'" << f << "' not in: " << message;
}

TEST(icon_granule_api, bad_run_arguments_name_the_argument_and_both_sizes) {
  IconArrays a("generate:R2B2", 8);
  Handles h(a);
  const std::string nc = std::to_string(a.nc), ne = std::to_string(a.ne);
  expect_refused(a, h.granule, [](auto& r) { r.vn.size[1] -= 1; }, ICONDIFF_INVALID_ARGUMENT,
                 {"diffusion_run: vn", "SIZE(vn, 2) = 7", "expected 8 (nlev)"});
  expect_refused(a, h.granule, [&](auto& r) { r.vn.size[0] = a.ne - 1; }, ICONDIFF_INVALID_ARGUMENT,
                 {"SIZE(vn, 1)", ("expected at least " + ne).c_str(), "num_edges"});
  expect_refused(a, h.granule, [](auto& r) { r.w.size[1] = 8; }, ICONDIFF_INVALID_ARGUMENT,
                 {"SIZE(w, 2) = 8", "expected 9 (nlev + 1)"});
  expect_refused(a, h.granule, [&](auto& r) { r.dwdy.size[0] = a.nc - 3; },
                 ICONDIFF_INVALID_ARGUMENT, {"SIZE(dwdy, 1)", nc.c_str()});
  expect_refused(a, h.granule, [](auto& r) { r.exner.data = nullptr; }, ICONDIFF_INVALID_ARGUMENT,
                 {"exner is a null pointer"});
  expect_refused(a, h.granule,
                 [](auto& r) {
                   r.theta_v.data = nullptr;
                   r.theta_v.size[0] = -1;
                 },
                 ICONDIFF_INVALID_ARGUMENT, {"theta_v is not contiguous"});
  expect_refused(a, h.granule, [](auto& r) { r.dtime = 0.0; }, ICONDIFF_INVALID_ARGUMENT,
                 {"dtime"});
  EXPECT_EQ(icondiff_diffusion_run(nullptr, &a.run), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("call diffusion_init first"),
            std::string::npos);
  // Nothing was run by the refused calls.
  int calls = -1;
  EXPECT_EQ(icondiff_diffusion_calls(h.granule, &calls), ICONDIFF_OK);
  EXPECT_EQ(calls, 0);
}

TEST(icon_granule_api, bad_set_up_arguments_are_refused) {
  IconArrays a("generate:R2B2", 8);
  icondiff_icon_grid* grid = nullptr;
  icondiff_icon_grid_args g = a.grid;
  g.v2e.size[1] = 5;
  EXPECT_EQ(icondiff_icon_grid_create(&g, &grid), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("SIZE(v2e, 2) = 5, expected 6"),
            std::string::npos)
      << icondiff_last_error();
  EXPECT_EQ(grid, nullptr);
  g = a.grid;
  g.limited_area = 1;  // a global grid
  EXPECT_EQ(icondiff_icon_grid_create(&g, &grid), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("limited_area"), std::string::npos);
  g = a.grid;
  static_cast<unsigned char*>(g.e_owner_mask.data)[3] = 0;
  EXPECT_EQ(icondiff_icon_grid_create(&g, &grid), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("e_owner_mask(4) is false"), std::string::npos)
      << icondiff_last_error();
  static_cast<unsigned char*>(g.e_owner_mask.data)[3] = 1;
  g = a.grid;
  g.on_gpu = 1;
  EXPECT_EQ(icondiff_icon_grid_create(&g, &grid), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("on_gpu"), std::string::npos);

  ASSERT_EQ(icondiff_icon_grid_create(&a.grid, &grid), ICONDIFF_OK) << icondiff_last_error();
  icondiff_diffusion* granule = nullptr;
  icondiff_diffusion_args d = a.diffusion;
  d.hdiff_vn = 0;
  EXPECT_EQ(icondiff_diffusion_create(grid, &d, &granule), ICONDIFF_CONFIG_ERROR);
  EXPECT_NE(std::string(icondiff_last_error()).find("lhdiff_vn"), std::string::npos);
  d = a.diffusion;
  d.diffusion_type = 4;
  EXPECT_EQ(icondiff_diffusion_create(grid, &d, &granule), ICONDIFF_CONFIG_ERROR);
  EXPECT_NE(std::string(icondiff_last_error()).find("hdiff_order"), std::string::npos)
      << icondiff_last_error();
  d = a.diffusion;
  d.wgtfac_c.size[1] = a.nlev;
  EXPECT_EQ(icondiff_diffusion_create(grid, &d, &granule), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("SIZE(wgtfac_c, 2)"), std::string::npos);
  d = a.diffusion;
  d.rbf_vec_coeff_v.size[0] = 5;
  EXPECT_EQ(icondiff_diffusion_create(grid, &d, &granule), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("rbf_vec_dim_v"), std::string::npos);
  d = a.diffusion;
  d.zd_vertidx = {nullptr, {0, 0, 0}};
  EXPECT_EQ(icondiff_diffusion_create(grid, &d, &granule), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("zd_vertidx"), std::string::npos)
      << icondiff_last_error();
  d = a.diffusion;
  static_cast<int*>(d.zd_vertidx.data)[0] = a.nlev + 1;
  EXPECT_EQ(icondiff_diffusion_create(grid, &d, &granule), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("zd_vertidx(1, 1)"), std::string::npos)
      << icondiff_last_error();
  EXPECT_EQ(granule, nullptr);
  icondiff_icon_grid_free(grid);
}

TEST(icon_granule_api, finalize_releases_handles_and_keeps_a_kokkos_it_did_not_start) {
  IconArrays a("generate:R2B2", 8);
  Handles h(a);
  ASSERT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK);
  EXPECT_EQ(icondiff_finalize(), ICONDIFF_OK);
  EXPECT_EQ(icondiff_is_initialized(), 1) << "the test program started Kokkos, not icondiff";
  EXPECT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("released by icondiff_finalize"),
            std::string::npos);
  EXPECT_EQ(icondiff_finalize(), ICONDIFF_OK);
  int sizes[4] = {};
  icondiff_args_sizes(&sizes[0], &sizes[1], &sizes[2], &sizes[3]);
  EXPECT_EQ(sizes[0], static_cast<int>(sizeof(icondiff_array)));
}

}  // namespace icon_granule_api_test
}  // namespace icondiff
