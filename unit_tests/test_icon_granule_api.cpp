// The C API's granule on ICON's arrays (icondiff_c.h): a run is zero copy (Kokkos Tools callbacks
// count no allocation, no deep copy and at most the one closing fence per call, every kernel
// labelled icondiff::), results equal the C++ path bit for bit with padding rows untouched, and
// every bad argument comes back as a status and a message naming the argument and both sizes.
// The Fortran side of the same API is tested by fortran_bindings/test/test_fortran_granule.f90.
#include "support/heap_counter.hpp"
#include "support/icon_api_arrays.hpp"
#include "support/icon_arrays_case.hpp"

#include <icondiff/kokkos_compat.hpp>

#include <icondiff_c.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
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

// A limited-area grid: the turbulence diagnostics are written from the nudging zone on (dwdx and
// dwdy from there to the halo), every level but the top and the bottom interface. The caller's
// values elsewhere (the case fills every diagnostic beforehand, the C++ path's too) must stay, and
// with level-fastest fields the C API converts these pure outputs back over that region only, so
// a region too small or too large differs from the C++ path here.
TEST(icon_granule_api, a_limited_area_run_equals_the_cpp_path_at_every_point) {
  IconArrays a("generate:R2B3/cap:8,46.5,60", 8);
  ASSERT_EQ(icon_case_int("limited_area"), 1);
  ASSERT_EQ(icon_case_int("itype_sher"), 2) << "the case must write dwdx and dwdy";
  const auto* div_ic = static_cast<const double*>(a.run.div_ic.data);
  const int ld = a.run.div_ic.size[0];
  const std::vector<double> level_2_before(div_ic + 2 * ld, div_ic + 2 * ld + a.nc);
  Handles h(a);
  a.run.linit = 1;
  ASSERT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
  a.run.linit = 0;
  ASSERT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
  ASSERT_EQ(icon_case_run_reference(2, a.run.dtime), 0);
  a.expect_outputs_equal_reference();
  // The lateral boundary's cells keep the caller's values: not every point was written.
  int kept = 0;
  for (int i = 0; i < a.nc; ++i) kept += div_ic[2 * ld + i] == level_2_before[i];
  EXPECT_GT(kept, 0) << "no cell outside the written region: the test could not fail on points";
  EXPECT_LT(kept, a.nc);
}

TEST(icon_granule_api, a_run_leaves_the_heap_untouched) {
  IconArrays a("generate:R2B2", 8);
  Handles h(a);
  a.run.linit = 1;
  ASSERT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
  a.run.linit = 0;
  ASSERT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
  std::size_t allocations = 0;
  int status = 0;
  {
    test::HeapCounter heap;
    status = icondiff_diffusion_run(h.granule, &a.run);
    allocations = heap.count();
  }
  ASSERT_EQ(status, ICONDIFF_OK) << icondiff_last_error();
  EXPECT_EQ(allocations, 0u) << "heap allocations in a diffusion_run call";
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

/// Sets `*slot` to `value`, expects `create()` to return `status` with every fragment in the
/// message, and puts the old value back.
template <class T, class Create>
void expect_value_refused(T* slot, T value, Create create, icondiff_status status,
                          std::initializer_list<std::string> fragments) {
  const T old = *slot;
  *slot = value;
  EXPECT_EQ(create(), status);
  const std::string message = icondiff_last_error();
  for (const std::string& f : fragments)
    EXPECT_NE(message.find(f), std::string::npos) << "'" << f << "' not in: " << message;
  *slot = old;
}

TEST(icon_granule_api, grid_init_checks_values_and_speaks_icons_1_based_indices) {
  IconArrays a("generate:R2B2", 8);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  icondiff_icon_grid* grid = nullptr;
  const auto create = [&] { return icondiff_icon_grid_create(&a.grid, &grid); };
  const auto real = [](const icondiff_array& x, long i) {
    return static_cast<double*>(x.data) + i;
  };
  const auto index = [](const icondiff_array& x, long i) { return static_cast<int*>(x.data) + i; };
  const icondiff_status bad = ICONDIFF_INVALID_ARGUMENT;
  const auto& g = a.grid;
  const long ld = a.nproma;
  expect_value_refused(real(g.cell_areas, 7), nan, create, bad,
                       {"grid_init: cell_areas(8) = nan is not a positive finite number"});
  expect_value_refused(real(g.edge_areas, 3), inf, create, bad, {"edge_areas(4) = inf"});
  expect_value_refused(real(g.inverse_primal_edge_lengths, 0), -1.0, create, bad,
                       {"inverse_primal_edge_lengths(1) = -1 is not a positive finite"});
  expect_value_refused(real(g.inv_dual_edge_length, 2), 0.0, create, bad,
                       {"inv_dual_edge_length(3) = 0"});
  expect_value_refused(real(g.inv_vert_vert_length, 9), nan, create, bad,
                       {"inv_vert_vert_length(10)"});
  expect_value_refused(real(g.tangent_orientation, 5), 0.0, create, bad,
                       {"tangent_orientation(6) = 0 (edge 6, 1-based), expected +1 or -1"});
  expect_value_refused(real(g.dual_normal_vert_x, 2 * ld + 4), nan, create, bad,
                       {"dual_normal_vert_x(5, 3) = nan is not a finite number"});
  expect_value_refused(real(g.vct_a, 2), nan, create, bad,
                       {"grid_init: vct_a(3) = nan is not a finite height (1-based)"});
  expect_value_refused(real(g.vct_a, 3), *real(g.vct_a, 1) + 1.0, create, bad,
                       {"vct_a(4) = ", "is not below vct_a(3) = ", "must decrease"});
  // e2c2v: the edge's vertices first, then the far vertex of each adjacent cell.
  int* far = index(g.e2c2v, 2 * ld + 10);
  expect_value_refused(
      far, *index(g.e2c2v, 3 * ld + 10), create, bad,
      {"grid table 'e2c2v', row 11 (1-based", "slot 3 is ", "but the vertex of adjacent cell ",
       "(e2c slot 1) that is not on the edge is " + std::to_string(*far)});
  expect_value_refused(index(g.e2c2v, 10), *index(g.e2c2v, ld + 10), create, bad,
                       {"grid table 'e2c2v', row 11 (1-based", "slot 1 is ",
                        "but the edge's vertex e2v slot 1 is "});
  // Global indices: each point its own; a duplicate names both positions.
  expect_value_refused(index(g.c_glb_index, 4), *index(g.c_glb_index, 1), create, bad,
                       {"c_glb_index(2) and c_glb_index(5) (1-based positions) are both 2"});
  expect_value_refused(index(g.v_glb_index, 0), 0, create, bad,
                       {"v_glb_index(1) = 0 is not a global index >= 1"});
  // A table entry that is missing (0 or negative in ICON's tables) where it may not be: the
  // row and slot are ICON's, 1-based.
  expect_value_refused(index(g.c2e, 0), 0, create, bad,
                       {"grid table 'c2e', row 1 (1-based", "slot 1 is missing"});
  expect_value_refused(index(g.e2c, 0), -1, create, bad,
                       {"grid table 'e2c', row 1 (1-based", "slot 1 is missing"});
  expect_value_refused(index(g.c2e, ld + 6), *index(g.c2e, 6), create, bad,
                       {"grid table 'c2e', row 7 (1-based",
                        "slots 1 and 2 both hold " + std::to_string(*index(g.c2e, 6))});
  EXPECT_EQ(grid, nullptr);
  ASSERT_EQ(create(), ICONDIFF_OK) << icondiff_last_error();  // every value put back
  icondiff_icon_grid_free(grid);
}

TEST(icon_granule_api, diffusion_init_checks_values) {
  IconArrays a("generate:R2B2", 8);
  ASSERT_GT(a.nzd, 0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  icondiff_icon_grid* grid = nullptr;
  ASSERT_EQ(icondiff_icon_grid_create(&a.grid, &grid), ICONDIFF_OK) << icondiff_last_error();
  icondiff_diffusion* granule = nullptr;
  const auto create = [&] { return icondiff_diffusion_create(grid, &a.diffusion, &granule); };
  const auto real = [](const icondiff_array& x, long i) {
    return static_cast<double*>(x.data) + i;
  };
  const icondiff_status bad = ICONDIFF_INVALID_ARGUMENT;
  auto& d = a.diffusion;
  const long ld = a.nproma;
  expect_value_refused(real(d.geofac_div, ld + 2), nan, create, bad,
                       {"diffusion_init: geofac_div(3, 2) = nan is not a finite number"});
  expect_value_refused(real(d.theta_ref_mc, 4 * ld), inf, create, bad,
                       {"theta_ref_mc(1, 5) = inf"});
  expect_value_refused(real(d.wgtfac_c, 11), -inf, create, bad, {"wgtfac_c(12, 1) = -inf"});
  expect_value_refused(real(d.geofac_n2s, 0), nan, create, bad, {"geofac_n2s(1, 1)"});
  expect_value_refused(real(d.nudgecoeff_e, 3), -0.5, create, bad,
                       {"nudgecoeff_e(4) = -0.5 (1-based) is not a finite number >= 0"});
  expect_value_refused(real(d.rbf_vec_coeff_v, 12 * 5 + 7), nan, create, bad,
                       {"rbf_vec_coeff_v(2, 2, 6) = nan"});
  expect_value_refused(real(d.zd_intcoef, 3), inf, create, bad,
                       {"zd_intcoef(1, 2) = inf is not a finite number"});
  expect_value_refused(real(d.zd_diffcoef, 0), nan, create, bad, {"zd_diffcoef(1) = nan"});
  expect_value_refused(&d.smagorinski_scaling_height2, d.smagorinski_scaling_height - 1.0, create,
                       ICONDIFF_CONFIG_ERROR, {"hdiff_smag_z < hdiff_smag_z2 < hdiff_smag_z4"});
  expect_value_refused(&d.smagorinski_scaling_height4, d.smagorinski_scaling_height2 - 1.0, create,
                       ICONDIFF_CONFIG_ERROR, {"smagorinski_scaling_height, _height2"});
  EXPECT_EQ(granule, nullptr);
  ASSERT_EQ(create(), ICONDIFF_OK) << icondiff_last_error();
  icondiff_diffusion_free(granule);
  icondiff_icon_grid_free(grid);
}

TEST(icon_granule_api, run_refuses_non_finite_dtime_and_aliased_arrays) {
  IconArrays a("generate:R2B2", 8);
  Handles h(a);
  const auto inf = std::numeric_limits<double>::infinity();
  const icondiff_status bad = ICONDIFF_INVALID_ARGUMENT;
  expect_refused(a, h.granule, [&](auto& r) { r.dtime = inf; }, bad,
                 {"diffusion_run: dtime = inf must be a positive finite number"});
  expect_refused(a, h.granule, [](auto& r) { r.dtime = std::nan(""); }, bad, {"dtime = nan"});
  expect_refused(a, h.granule, [](auto& r) { r.theta_v = r.exner; }, bad,
                 {"exner and theta_v overlap in memory (the same array)"});
  expect_refused(a, h.granule, [](auto& r) { r.rho = r.vn; }, bad,
                 {"vn and rho overlap in memory", "apart from every input"});
  expect_refused(a, h.granule, [](auto& r) { r.div_ic = r.hdef_ic; }, bad,
                 {"hdef_ic and div_ic overlap"});
  expect_refused(a, h.granule, [](auto& r) { r.dwdy.data = static_cast<double*>(r.dwdx.data) + 7; },
                 bad, {"dwdx and dwdy overlap in memory: "});
  int calls = -1;
  EXPECT_EQ(icondiff_diffusion_calls(h.granule, &calls), ICONDIFF_OK);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
}

TEST(icon_granule_api, a_capture_folder_is_checked_when_it_is_set) {
  IconArrays a("generate:R2B2", 8);
  Handles h(a);
  EXPECT_EQ(icondiff_diffusion_capture_savepoints(h.granule, "/no/such/folder", 2, "generate:R2B2"),
            ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error())
                .find("capture_savepoints: directory '/no/such/folder' does not exist"),
            std::string::npos)
      << icondiff_last_error();
  const std::string file = ::testing::TempDir() + "icondiff_capture_not_a_folder";
  std::FILE* stream = std::fopen(file.c_str(), "w");
  ASSERT_NE(stream, nullptr);
  std::fclose(stream);
  EXPECT_EQ(icondiff_diffusion_capture_savepoints(h.granule, file.c_str(), 2, ""),
            ICONDIFF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(icondiff_last_error()).find("is not a directory"), std::string::npos)
      << icondiff_last_error();
  std::remove(file.c_str());
  // Nothing was armed: the runs succeed (before, the capture failed at call 2 with status 99).
  for (int call = 0; call < 2; ++call)
    EXPECT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
  // Switching off needs no folder.
  EXPECT_EQ(icondiff_diffusion_capture_savepoints(h.granule, nullptr, 0, nullptr), ICONDIFF_OK);
}

// ---- Overlapping calls: the first call is held inside its first kernel (a Kokkos Tools
// callback on its thread) until the other thread's calls have returned, so they provably overlap.
namespace overlap {
std::mutex mutex;
std::condition_variable changed;
bool inside = false, others_done = false;
std::thread::id first_caller;
void hold_first_kernel(const char*, std::uint32_t, std::uint64_t*) {
  if (std::this_thread::get_id() != first_caller) return;
  std::unique_lock<std::mutex> lock(mutex);
  if (inside) return;
  inside = true;
  changed.notify_all();
  changed.wait_for(lock, std::chrono::seconds(60), [] { return others_done; });
}
}  // namespace overlap

TEST(icon_granule_api, a_call_overlapping_another_on_the_same_granule_is_refused_busy) {
  IconArrays a("generate:R2B2", 8);
  Handles h(a);
  overlap::inside = overlap::others_done = false;
  compat::set_begin_parallel_for_callback(overlap::hold_first_kernel);
  icondiff_status first = ICONDIFF_INTERNAL_ERROR;
  std::thread caller([&] {
    overlap::first_caller = std::this_thread::get_id();
    first = icondiff_diffusion_run(h.granule, &a.run);
  });
  {
    std::unique_lock<std::mutex> lock(overlap::mutex);
    // first_caller is set before the call; the wait ends when its first kernel starts.
    EXPECT_TRUE(overlap::changed.wait_for(lock, std::chrono::seconds(60), [] {
      return overlap::inside;
    })) << "the first call never reached a kernel";
  }
  // The first call is inside run() now: every entry point on that granule is refused.
  const icondiff_status second = icondiff_diffusion_run(h.granule, &a.run);
  const std::string message = icondiff_last_error();
  const icondiff_status halos = icondiff_diffusion_exchange_halos(h.granule, &a.run);
  const icondiff_status capture = icondiff_diffusion_capture_savepoints(h.granule, "/tmp", 5, "");
  int calls = -1;
  const icondiff_status count = icondiff_diffusion_calls(h.granule, &calls);
  const icondiff_status finalize = icondiff_finalize();
  const std::string finalize_message = icondiff_last_error();
  {
    std::lock_guard<std::mutex> lock(overlap::mutex);
    overlap::others_done = true;
  }
  overlap::changed.notify_all();
  caller.join();
  compat::set_begin_parallel_for_callback(nullptr);
  EXPECT_EQ(first, ICONDIFF_OK) << icondiff_last_error();
  EXPECT_EQ(second, ICONDIFF_BUSY) << "two overlapping runs on one granule both went ahead";
  EXPECT_NE(message.find("diffusion_run: the granule is busy: another thread is inside a call"),
            std::string::npos)
      << message;
  EXPECT_EQ(halos, ICONDIFF_BUSY);
  EXPECT_EQ(capture, ICONDIFF_BUSY);
  EXPECT_EQ(count, ICONDIFF_BUSY);
  EXPECT_EQ(finalize, ICONDIFF_BUSY) << "finalize released a granule another thread was inside";
  EXPECT_NE(finalize_message.find("nothing was released"), std::string::npos) << finalize_message;
  // The flag is cleared on return: the granule works again, and counted only the first run.
  ASSERT_EQ(icondiff_diffusion_calls(h.granule, &calls), ICONDIFF_OK) << icondiff_last_error();
  EXPECT_EQ(calls, 1);
  ASSERT_EQ(icondiff_diffusion_run(h.granule, &a.run), ICONDIFF_OK) << icondiff_last_error();
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
