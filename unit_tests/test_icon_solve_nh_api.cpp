// The solve_nh granule through the C API on ICON-shaped arrays (icondiff_solve_nh_create / _run,
// ICON4Py's solve_nh_init / solve_nh_run): equal bit for bit to the C++ granule over several
// substeps with ICON's time-level swaps, with and without the optional IAU increments, beside a
// diffusion granule of the same grid; and every documented refusal, each naming what is wrong.
#include "support/grid_files.hpp"
#include "support/heap_counter.hpp"
#include "support/icon_solve_nh_api_arrays.hpp"

// The handles' private definition (src/capi), to see which Views two granules share.
#include "icon_granule.hpp"

#include <icondiff_c.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

namespace icondiff::test {
namespace {

constexpr int steps = 2, substeps = 2;
constexpr double dtime = 60.0;

/// Runs steps x substeps substeps on `s` through `granule`, ICON's swaps after each.
void run_substeps(icondiff_solve_nh* granule, IconSolveNhArrays& s) {
  for (int step = 0; step < steps; ++step)
    for (int substep = 0; substep < substeps; ++substep) {
      const icondiff_solve_nh_run_args args = s.arguments_for(step, substep, substeps, dtime);
      ASSERT_EQ(icondiff_solve_nh_run(granule, &args), ICONDIFF_OK) << icondiff_last_error();
      s.swap_time_levels();
    }
}

struct SolveNhHandles {
  icondiff_icon_grid* grid = nullptr;
  icondiff_solve_nh* granule = nullptr;
  ~SolveNhHandles() {
    icondiff_solve_nh_free(granule);
    icondiff_icon_grid_free(grid);
  }
};

void expect_refused(const icondiff_icon_grid* grid, const icondiff_solve_nh_args& args,
                    icondiff_status status, const std::string& needle) {
  icondiff_solve_nh* granule = nullptr;
  EXPECT_EQ(icondiff_solve_nh_create(grid, &args, &granule), status) << icondiff_last_error();
  EXPECT_EQ(granule, nullptr);
  EXPECT_NE(std::string(icondiff_last_error()).find(needle), std::string::npos)
      << "'" << icondiff_last_error() << "' lacks '" << needle << "'";
}

void expect_run_refused(icondiff_solve_nh* granule, const icondiff_solve_nh_run_args& args,
                        const std::string& needle) {
  EXPECT_NE(icondiff_solve_nh_run(granule, &args), ICONDIFF_OK);
  EXPECT_NE(std::string(icondiff_last_error()).find(needle), std::string::npos)
      << "'" << icondiff_last_error() << "' lacks '" << needle << "'";
}

/// The granule through handles beside a diffusion granule of the same grid, against the C++
/// granule on the whole grid.
void expect_equal_to_cpp_granule(const std::string& source) {
  IconArrays arrays(source.c_str(), 10, 0, 1, /*solve_nh=*/true);
  ASSERT_EQ(icon_case_run_solve_nh_reference(steps, substeps, dtime), 0);
  for (const bool increments : {false, true}) {
    SCOPED_TRACE(increments ? "IAU increments present (IAU off)" : "IAU increments absent");
    IconSolveNhArrays s(arrays, increments);
    SolveNhHandles h;
    ASSERT_EQ(icondiff_icon_grid_create(&arrays.grid, &h.grid), ICONDIFF_OK)
        << icondiff_last_error();
    icondiff_diffusion* diffusion = nullptr;  // shares theta_ref_mc, wgtfac_c, geofac_div, ...
    ASSERT_EQ(icondiff_diffusion_create(h.grid, &arrays.diffusion, &diffusion), ICONDIFF_OK)
        << icondiff_last_error();
    ASSERT_EQ(icondiff_solve_nh_create(h.grid, &s.init, &h.granule), ICONDIFF_OK)
        << icondiff_last_error();
    icondiff_diffusion_free(diffusion);  // the solve_nh granule keeps the shared fields
    run_substeps(h.granule, s);
    s.expect_outputs_equal_reference();
    EXPECT_EQ(s.max_vcfl[0], icon_case_real("max_vcfl"));
    int calls = 0;
    EXPECT_EQ(icondiff_solve_nh_calls(h.granule, &calls), ICONDIFF_OK);
    EXPECT_EQ(calls, steps * substeps);
  }
}

TEST(SolveNhApi, EqualsTheCppGranuleBitForBitOnAGlobalGrid) {
  expect_equal_to_cpp_granule("generate:R2B2");
}

TEST(SolveNhApi, EqualsTheCppGranuleBitForBitOnALimitedAreaGrid) {
  ICONDIFF_REAL_GRID_OR_SKIP(lam, lam_r19b04);  // with boundary tendencies
  expect_equal_to_cpp_granule(lam);
}

TEST(SolveNhApi, ARunLeavesTheHeapUntouched) {
  IconArrays arrays("generate:R2B1", 6, 0, 1, /*solve_nh=*/true);
  IconSolveNhArrays s(arrays, /*increments=*/true);
  SolveNhHandles h;
  ASSERT_EQ(icondiff_icon_grid_create(&arrays.grid, &h.grid), ICONDIFF_OK);
  ASSERT_EQ(icondiff_solve_nh_create(h.grid, &s.init, &h.granule), ICONDIFF_OK)
      << icondiff_last_error();
  // The first substep of a step and a later one (velocity advection's predictor differs), each
  // once before counting (a level-fastest build makes its own fields on the first call).
  const icondiff_solve_nh_run_args first = s.arguments_for(0, 0, substeps, dtime);
  const icondiff_solve_nh_run_args later = s.arguments_for(0, 1, substeps, dtime);
  ASSERT_EQ(icondiff_solve_nh_run(h.granule, &first), ICONDIFF_OK) << icondiff_last_error();
  ASSERT_EQ(icondiff_solve_nh_run(h.granule, &later), ICONDIFF_OK) << icondiff_last_error();
  std::size_t allocations = 0;
  int first_status = 0, later_status = 0;
  {
    HeapCounter heap;
    first_status = icondiff_solve_nh_run(h.granule, &first);
    later_status = icondiff_solve_nh_run(h.granule, &later);
    allocations = heap.count();
  }
  ASSERT_EQ(first_status, ICONDIFF_OK) << icondiff_last_error();
  ASSERT_EQ(later_status, ICONDIFF_OK) << icondiff_last_error();
  EXPECT_EQ(allocations, 0u) << "heap allocations in two solve_nh_run calls";
}

TEST(SolveNhApi, SharesTheStaticFieldsADiffusionGranuleOfTheGridHolds) {
  IconArrays arrays("generate:R2B1", 6, 0, 1, /*solve_nh=*/true);
  IconSolveNhArrays s(arrays);
  SolveNhHandles h;
  ASSERT_EQ(icondiff_icon_grid_create(&arrays.grid, &h.grid), ICONDIFF_OK);
  icondiff_diffusion* diffusion = nullptr;
  ASSERT_EQ(icondiff_diffusion_create(h.grid, &arrays.diffusion, &diffusion), ICONDIFF_OK)
      << icondiff_last_error();
  // The same values in another array (as ICON passes p_nh%metrics%wgtfac_c twice): held once.
  std::vector<double> wgtfac_c(static_cast<const double*>(s.init.wgtfac_c.data),
                               static_cast<const double*>(s.init.wgtfac_c.data) +
                                   std::size_t(s.init.wgtfac_c.size[0]) * s.init.wgtfac_c.size[1]);
  s.init.wgtfac_c.data = wgtfac_c.data();
  // Other values: a copy of the granule's own.
  std::vector<double> theta_ref_mc(
      static_cast<const double*>(s.init.theta_ref_mc.data),
      static_cast<const double*>(s.init.theta_ref_mc.data) +
          std::size_t(s.init.theta_ref_mc.size[0]) * s.init.theta_ref_mc.size[1]);
  theta_ref_mc[3] += 1e-3;
  s.init.theta_ref_mc.data = theta_ref_mc.data();
  ASSERT_EQ(icondiff_solve_nh_create(h.grid, &s.init, &h.granule), ICONDIFF_OK)
      << icondiff_last_error();
  const auto& d = diffusion->inputs;
  const auto& n = h.granule->inputs;
  EXPECT_EQ(n.metric.wgtfac_c.data(), d.metric.wgtfac_c.data());
  EXPECT_EQ(n.interpolation.geofac_div.data(), d.interpolation.geofac_div.data());
  EXPECT_EQ(n.interpolation.e_bln_c_s.data(), d.interpolation.e_bln_c_s.data());
  EXPECT_EQ(n.interpolation.geofac_grg_x.data(), d.interpolation.geofac_grg_x.data());
  EXPECT_EQ(n.interpolation.geofac_n2s.data(), d.interpolation.geofac_n2s.data());
  EXPECT_EQ(n.interpolation.nudgecoeff_e.data(), d.interpolation.nudgecoeff_e.data());
  EXPECT_EQ(n.edges.inverse_dual_edge_lengths.data(), d.edges.inverse_dual_edge_lengths.data());
  EXPECT_EQ(n.cells.cell_area.data(), d.cells.cell_area.data());
  EXPECT_NE(n.metric.theta_ref_mc.data(), d.metric.theta_ref_mc.data());
  EXPECT_EQ(n.metric.theta_ref_mc(3, 0), theta_ref_mc[3]);
  icondiff_diffusion_free(diffusion);
}

TEST(SolveNhApiErrors, InitRefusesWhatIsWrongByName) {
  IconArrays arrays("generate:R2B1", 6, 0, 1, /*solve_nh=*/true);
  IconSolveNhArrays s(arrays);
  SolveNhHandles h;
  ASSERT_EQ(icondiff_icon_grid_create(&arrays.grid, &h.grid), ICONDIFF_OK);

  auto a = s.init;
  a.rayleigh_type = 1;
  expect_refused(h.grid, a, ICONDIFF_CONFIG_ERROR, "rayleigh_type");
  a = s.init;
  a.divdamp_type = 7;
  expect_refused(h.grid, a, ICONDIFF_CONFIG_ERROR, "divdamp_type = 7");
  a = s.init;
  a.igradp_method = 2;
  expect_refused(h.grid, a, ICONDIFF_CONFIG_ERROR, "igradp_method");
  a = s.init;
  a.itime_scheme = 3;
  expect_refused(h.grid, a, ICONDIFF_CONFIG_ERROR, "itime_scheme");
  a = s.init;
  a.iadv_rhotheta = 1;
  expect_refused(h.grid, a, ICONDIFF_CONFIG_ERROR, "iadv_rhotheta");
  a = s.init;
  a.l_vert_nested = 1;
  expect_refused(h.grid, a, ICONDIFF_CONFIG_ERROR, "l_vert_nested");
  a = s.init;
  a.ldeepatmo = 1;
  expect_refused(h.grid, a, ICONDIFF_CONFIG_ERROR, "ldeepatmo");
  a = s.init;
  a.divdamp_type = 2;
  expect_refused(h.grid, a, ICONDIFF_CONFIG_ERROR, "divdamp_type");
  a = s.init;
  a.nflat_gradp = 0;
  expect_refused(h.grid, a, ICONDIFF_INVALID_ARGUMENT, "nflat_gradp = 0");
  a = s.init;
  a.wgtfacq_c.size[1] = 2;
  expect_refused(h.grid, a, ICONDIFF_INVALID_ARGUMENT, "SIZE(wgtfacq_c, 2) = 2, expected 3");
  a = s.init;
  a.rho_ref_me.size[0] = arrays.ne - 1;
  expect_refused(h.grid, a, ICONDIFF_INVALID_ARGUMENT, "SIZE(rho_ref_me, 1)");
  a = s.init;
  a.c_lin_e.data = nullptr;
  expect_refused(h.grid, a, ICONDIFF_INVALID_ARGUMENT, "c_lin_e");
  a = s.init;
  a.vertidx_gradp.size[2] = arrays.nlev + 1;
  expect_refused(h.grid, a, ICONDIFF_INVALID_ARGUMENT, "SIZE(vertidx_gradp, 3)");

  // A non-finite static field on a point (padding rows are never read).
  {
    auto* wgtfac_e = static_cast<double*>(s.init.wgtfac_e.data);
    const double kept = wgtfac_e[5 + s.init.wgtfac_e.size[0] * 3];
    wgtfac_e[5 + s.init.wgtfac_e.size[0] * 3] = std::numeric_limits<double>::quiet_NaN();
    expect_refused(h.grid, s.init, ICONDIFF_INVALID_ARGUMENT, "wgtfac_e(6, 4) = nan is not finite");
    wgtfac_e[5 + s.init.wgtfac_e.size[0] * 3] = kept;
    auto* rayleigh = static_cast<double*>(s.init.rayleigh_w.data);
    rayleigh[2] = std::numeric_limits<double>::infinity();
    expect_refused(h.grid, s.init, ICONDIFF_INVALID_ARGUMENT, "rayleigh_w(3) = inf");
    rayleigh[2] = 0.0;
  }
  // The pg_* list: all three or none, indices in range.
  if (s.init.pg_edgeidx.data != nullptr) {
    a = s.init;
    a.pg_exdist = {};
    expect_refused(h.grid, a, ICONDIFF_INVALID_ARGUMENT, "passed together");
    auto* level = static_cast<int*>(s.init.pg_vertidx.data);
    const int kept = level[0];
    level[0] = arrays.nlev + 1;
    expect_refused(h.grid, s.init, ICONDIFF_INVALID_ARGUMENT, "pg_vertidx(1)");
    level[0] = kept;
  }
  // Found by fuzz_capi_solve_nh: a pg_* list of negative length (all three alike) was read as
  // 2^64 - 1 values, and the Fortran module's mark of a non-contiguous array (data NULL,
  // SIZE(x, 1) = -1) on all three made the list silently absent.
  if (s.init.pg_edgeidx.data != nullptr) {
    a = s.init;
    a.pg_edgeidx.size[0] = a.pg_vertidx.size[0] = a.pg_exdist.size[0] = -1;
    expect_refused(h.grid, a, ICONDIFF_INVALID_ARGUMENT,
                   "SIZE(pg_edgeidx, 1) = -1, expected at least 0");
    a = s.init;
    for (icondiff_array* x : {&a.pg_edgeidx, &a.pg_vertidx, &a.pg_exdist})
      *x = {nullptr, {-1, 0, 0}};
    expect_refused(h.grid, a, ICONDIFF_INVALID_ARGUMENT, "pg_edgeidx is not contiguous");
    a = s.init;
    a.pg_exdist = {nullptr, {-1, 0, 0}};
    expect_refused(h.grid, a, ICONDIFF_INVALID_ARGUMENT, "pg_exdist is not contiguous");
  }
  // vertidx_gradp on the levels the pressure gradient reads (below nflat_gradp): a level of the
  // column, named 1-based (INT_MIN overflowed the conversion to offsets before).
  ASSERT_LT(s.init.nflat_gradp, arrays.nlev);
  {
    auto* level = static_cast<int*>(s.init.vertidx_gradp.data);
    const std::size_t ld = s.init.vertidx_gradp.size[0];
    const std::size_t at = 3 + ld * (1 + 2 * (arrays.nlev - 1));  // (4, 2, nlev), 1-based
    const int kept = level[at];
    level[at] = std::numeric_limits<int>::min();
    expect_refused(h.grid, s.init, ICONDIFF_INVALID_ARGUMENT,
                   "vertidx_gradp(4, 2, 6) = -2147483648 is not a level 1..6");
    level[at] = arrays.nlev + 1;
    expect_refused(h.grid, s.init, ICONDIFF_INVALID_ARGUMENT, "vertidx_gradp(4, 2, 6) = 7");
    level[at] = kept;
  }
  // Unchanged arguments still work after every refusal.
  icondiff_solve_nh* granule = nullptr;
  EXPECT_EQ(icondiff_solve_nh_create(h.grid, &s.init, &granule), ICONDIFF_OK)
      << icondiff_last_error();
  icondiff_solve_nh_free(granule);
}

TEST(SolveNhApiErrors, RunRefusesWhatIsWrongByName) {
  IconArrays arrays("generate:R2B1", 6, 0, 1, /*solve_nh=*/true);
  IconSolveNhArrays s(arrays);
  SolveNhHandles h;
  ASSERT_EQ(icondiff_icon_grid_create(&arrays.grid, &h.grid), ICONDIFF_OK);
  ASSERT_EQ(icondiff_solve_nh_create(h.grid, &s.init, &h.granule), ICONDIFF_OK)
      << icondiff_last_error();
  const auto good = s.arguments_for(0, 0, substeps, dtime);
  auto r = good;
  r.vn_new = r.vn_now;
  expect_run_refused(h.granule, r, "vn_now and vn_new overlap in memory (the same array)");
  r = good;
  r.vt.size[1] = arrays.nlev + 1;
  expect_run_refused(h.granule, r, "SIZE(vt, 2) = 7, expected 6 (nlev)");
  r = good;
  r.vn_ie.size[1] = arrays.nlev;
  expect_run_refused(h.granule, r, "SIZE(vn_ie, 2)");
  r = good;
  r.idyn_timestep = substeps + 1;
  expect_run_refused(h.granule, r, "idyn_timestep = 3");
  r = good;
  r.dtime = -1;
  expect_run_refused(h.granule, r, "dtime = -1");
  r = good;
  r.max_vcfl_size1_array.size[0] = 2;
  expect_run_refused(h.granule, r, "SIZE(max_vcfl_size1_array, 1) = 2");
  r = good;
  r.is_iau_active = 1;
  expect_run_refused(h.granule, r, "iau_init = false");
  r = good;
  r.divdamp_fac_o2 = std::nan("");
  expect_run_refused(h.granule, r, "divdamp_fac_o2 = nan");
  // Found by fuzz_capi_solve_nh: max_vcfl_size1_array is written after the substep, so it must
  // not lie inside another argument either.
  r = good;
  r.max_vcfl_size1_array.data = static_cast<double*>(r.vn_new.data) + 5;
  expect_run_refused(h.granule, r, "vn_new and max_vcfl_size1_array overlap in memory");
  r = good;
  r.rho_new.data = static_cast<double*>(r.rho_now.data) + 7;  // partly: refused before any read
  expect_run_refused(h.granule, r, "rho_now and rho_new overlap in memory:");
  r = good;
  r.vn_incr = {nullptr, {-1, 0, 0}};  // optional, but not contiguous: not silently absent
  expect_run_refused(h.granule, r, "vn_incr is not contiguous");
  int calls = -1;
  EXPECT_EQ(icondiff_solve_nh_calls(h.granule, &calls), ICONDIFF_OK);
  EXPECT_EQ(calls, 0);  // nothing ran
  EXPECT_EQ(icondiff_solve_nh_run(h.granule, &good), ICONDIFF_OK) << icondiff_last_error();
}

// Found by fuzz_capi_solve_nh: grid_init's flat_height at or below the surface leaves no level
// with terrain-following surfaces; solve_nh_init said "dycore: nflatlev = 6", which the caller
// never passed, instead of naming grid_init's flat_height.
TEST(SolveNhApiErrors, InitNamesGridInitsFlatHeight) {
  IconArrays arrays("generate:R2B1", 6, 0, 1, /*solve_nh=*/true);
  IconSolveNhArrays s(arrays);
  SolveNhHandles h;
  arrays.grid.flat_height = 0.0;
  ASSERT_EQ(icondiff_icon_grid_create(&arrays.grid, &h.grid), ICONDIFF_OK) << icondiff_last_error();
  expect_refused(h.grid, s.init, ICONDIFF_INVALID_ARGUMENT,
                 "grid_init's flat_height = 0 is not above the lowest model level");
}

// The same for a vct_a whose every level lies above ICON's htop_moist_proc (22.5 km): the dycore's
// kstart_moist = nlev, named as grid_init's vct_a.
TEST(SolveNhApiErrors, InitNamesGridInitsVctAWithoutMoistLevels) {
  IconArrays arrays("generate:R2B1", 6, 0, 1, /*solve_nh=*/true);
  IconSolveNhArrays s(arrays);
  SolveNhHandles h;
  auto* vct_a = static_cast<double*>(arrays.grid.vct_a.data);
  for (int k = 0; k <= arrays.nlev; ++k) vct_a[k] += 1.0e5;
  arrays.grid.flat_height += 1.0e5;
  arrays.grid.rayleigh_damping_height = vct_a[0] + 1.0;  // no damping layer
  ASSERT_EQ(icondiff_icon_grid_create(&arrays.grid, &h.grid), ICONDIFF_OK) << icondiff_last_error();
  expect_refused(h.grid, s.init, ICONDIFF_INVALID_ARGUMENT,
                 "grid_init's vct_a puts every level above ICON's htop_moist_proc");
}

// A grid of 2 levels (grid_init takes nlev >= 2, as the diffusion) with solve_nh_init's arrays in
// their shapes: the conversion of wgtfacq_c wrote level -1 (a segfault) before the dycore's own
// check of nlev >= 3 came.
TEST(SolveNhApiErrors, InitRefusesFewerThanThreeLevels) {
  IconArrays arrays("generate:R2B1", 6, 0, 1, /*solve_nh=*/true);
  IconSolveNhArrays s(arrays);
  SolveNhHandles h;
  arrays.grid.vertical_size = 2;
  arrays.grid.vct_a.size[0] = 3;
  static_cast<double*>(arrays.grid.vct_a.data)[2] = 0.0;
  arrays.grid.flat_height = static_cast<double*>(arrays.grid.vct_a.data)[1];
  ASSERT_EQ(icondiff_icon_grid_create(&arrays.grid, &h.grid), ICONDIFF_OK) << icondiff_last_error();
  auto a = s.init;
  auto* first = reinterpret_cast<icondiff_array*>(&a);
  const std::size_t n = offsetof(icondiff_solve_nh_args, itime_scheme) / sizeof(icondiff_array);
  for (std::size_t i = 0; i < n; ++i) {
    icondiff_array& x = first[i];
    for (int d = 1; d < 3; ++d) {
      if (x.size[d] == 6) x.size[d] = 2;
      if (x.size[d] == 7) x.size[d] = 3;
    }
  }
  a.c_intp.size[1] = a.geofac_rot.size[1] = 6;  // neighbours, not levels
  a.rayleigh_w.size[0] = 3;
  a.scalfac_dd3d.size[0] = 2;
  a.nflat_gradp = 1;
  expect_refused(h.grid, a, ICONDIFF_INVALID_ARGUMENT,
                 "grid_init's vertical_size = 2 (nlev): solve_nh needs at least 3 levels");
}

}  // namespace
}  // namespace icondiff::test
