// The C API's granule on ICON's arrays (icondiff_c.h): a run is zero copy (Kokkos Tools callbacks
// count no allocation, no deep copy and at most the one closing fence per call, every kernel
// labelled icondiff::), results equal the C++ path bit for bit with padding rows untouched, and
// every bad argument comes back as a status and a message naming the argument and both sizes.
// The Fortran side of the same API is tested by fortran_bindings/test/test_fortran_granule.f90.
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

/// Every array of one case in ICON's shapes (nproma = max points + 5), owned here.
struct IconArrays {
  int nc = 0, ne = 0, nv = 0, nlev = 0, nzd = 0, nproma = 0;
  std::vector<std::vector<int>> ints;
  std::vector<std::vector<double>> doubles;
  std::vector<std::vector<unsigned char>> bools;
  icondiff_icon_grid_args grid{};
  icondiff_diffusion_args diffusion{};
  icondiff_run_args run{};

  icondiff_array ints_of(const char* name, int ld, int cols) {
    ints.emplace_back(static_cast<std::size_t>(ld) * cols);
    EXPECT_EQ(icon_case_fill_int(name, ints.back().data(), ld, cols), 0) << name;
    return {ints.back().data(), {ld, cols == 1 && ld != 4 ? 0 : cols, 0}};
  }
  icondiff_array doubles_of(const char* name, int ld, int cols, bool matrix = true) {
    doubles.emplace_back(static_cast<std::size_t>(ld) * cols);
    EXPECT_EQ(icon_case_fill_double(name, doubles.back().data(), ld, cols), 0) << name;
    return {doubles.back().data(), {ld, matrix ? cols : 0, 0}};
  }
  icondiff_array vector_of(const char* name, int n) { return doubles_of(name, n, 1, false); }
  icondiff_array index_array(const char* name, int n) {
    ints.emplace_back(static_cast<std::size_t>(n));
    EXPECT_EQ(icon_case_fill_int(name, ints.back().data(), n, 1), 0) << name;
    return {ints.back().data(), {n, 0, 0}};
  }
  icondiff_array mask(const char* name) {
    bools.emplace_back(static_cast<std::size_t>(nproma));
    EXPECT_EQ(icon_case_fill_bool(name, bools.back().data(), nproma), 0) << name;
    return {bools.back().data(), {nproma, 0, 0}};
  }

  explicit IconArrays(const char* source, int levels) {
    ints.reserve(64);
    doubles.reserve(64);
    bools.reserve(4);
    EXPECT_EQ(icon_case_create(source, levels), 0);
    icon_case_sizes(&nc, &ne, &nv, &nlev, &nzd);
    nproma = std::max({nc, ne, nv}) + 5;
    auto& g = grid;
    g.cell_starts = index_array("cell_starts", 14);
    g.cell_ends = index_array("cell_ends", 14);
    g.vertex_starts = index_array("vertex_starts", 13);
    g.vertex_ends = index_array("vertex_ends", 13);
    g.edge_starts = index_array("edge_starts", 24);
    g.edge_ends = index_array("edge_ends", 24);
    g.c2e = ints_of("c2e", nproma, 3);
    g.e2c = ints_of("e2c", nproma, 2);
    g.c2e2c = ints_of("c2e2c", nproma, 3);
    g.e2c2e = ints_of("e2c2e", nproma, 4);
    g.e2v = ints_of("e2v", nproma, 4);
    g.v2e = ints_of("v2e", nproma, 6);
    g.v2c = ints_of("v2c", nproma, 6);
    g.e2c2v = ints_of("e2c2v", nproma, 4);
    g.c2v = ints_of("c2v", nproma, 3);
    g.c_owner_mask = mask("c_owner_mask");
    g.e_owner_mask = mask("e_owner_mask");
    g.v_owner_mask = mask("v_owner_mask");
    g.c_glb_index = index_array("c_glb_index", nproma);
    g.e_glb_index = index_array("e_glb_index", nproma);
    g.v_glb_index = index_array("v_glb_index", nproma);
    for (auto [field, name] : {std::pair{&g.tangent_orientation, "tangent_orientation"},
                               {&g.inverse_primal_edge_lengths, "inverse_primal_edge_lengths"},
                               {&g.inv_dual_edge_length, "inv_dual_edge_length"},
                               {&g.inv_vert_vert_length, "inv_vert_vert_length"},
                               {&g.edge_areas, "edge_areas"},
                               {&g.f_e, "f_e"},
                               {&g.cell_center_lat, "cell_center_lat"},
                               {&g.cell_center_lon, "cell_center_lon"},
                               {&g.cell_areas, "cell_areas"},
                               {&g.edge_center_lat, "edge_center_lat"},
                               {&g.edge_center_lon, "edge_center_lon"},
                               {&g.primal_normal_x, "primal_normal_x"},
                               {&g.primal_normal_y, "primal_normal_y"}})
      *field = vector_of(name, nproma);
    for (auto [field, name] : {std::pair{&g.primal_normal_vert_x, "primal_normal_vert_x"},
                               {&g.primal_normal_vert_y, "primal_normal_vert_y"},
                               {&g.dual_normal_vert_x, "dual_normal_vert_x"},
                               {&g.dual_normal_vert_y, "dual_normal_vert_y"}})
      *field = doubles_of(name, nproma, 4);
    for (auto [field, name] : {std::pair{&g.primal_normal_cell_x, "primal_normal_cell_x"},
                               {&g.primal_normal_cell_y, "primal_normal_cell_y"},
                               {&g.dual_normal_cell_x, "dual_normal_cell_x"},
                               {&g.dual_normal_cell_y, "dual_normal_cell_y"}})
      *field = doubles_of(name, nproma, 2);
    g.vct_a = vector_of("vct_a", nlev + 1);
    g.lowest_layer_thickness = icon_case_real("lowest_layer_thickness");
    g.model_top_height = icon_case_real("model_top_height");
    g.stretch_factor = icon_case_real("stretch_factor");
    g.flat_height = icon_case_real("flat_height");
    g.rayleigh_damping_height = icon_case_real("rayleigh_damping_height");
    g.mean_cell_area = icon_case_real("mean_cell_area");
    g.num_vertices = nv;
    g.num_cells = nc;
    g.num_edges = ne;
    g.vertical_size = nlev;
    g.limited_area = static_cast<unsigned char>(icon_case_int("limited_area"));

    auto& d = diffusion;
    d.theta_ref_mc = doubles_of("theta_ref_mc", nproma, nlev);
    d.wgtfac_c = doubles_of("wgtfac_c", nproma, nlev + 1);
    d.e_bln_c_s = doubles_of("e_bln_c_s", nproma, 3);
    d.geofac_div = doubles_of("geofac_div", nproma, 3);
    d.geofac_grg_x = doubles_of("geofac_grg_x", nproma, 4);
    d.geofac_grg_y = doubles_of("geofac_grg_y", nproma, 4);
    d.geofac_n2s = doubles_of("geofac_n2s", nproma, 4);
    d.nudgecoeff_e = vector_of("nudgecoeff_e", nproma);
    doubles.emplace_back(static_cast<std::size_t>(12) * nproma);
    EXPECT_EQ(icon_case_fill_double("rbf_vec_coeff_v", doubles.back().data(), nproma, 12), 0);
    d.rbf_vec_coeff_v = {doubles.back().data(), {6, 2, nproma}};
    if (nzd > 0) {
      d.zd_cellidx = ints_of("zd_cellidx", 4, nzd);
      d.zd_vertidx = ints_of("zd_vertidx", 4, nzd);
      d.zd_intcoef = doubles_of("zd_intcoef", 3, nzd);
      doubles.emplace_back(static_cast<std::size_t>(nzd));
      EXPECT_EQ(icon_case_fill_double("zd_diffcoef", doubles.back().data(), 1, nzd), 0);
      d.zd_diffcoef = {doubles.back().data(), {nzd, 0, 0}};
    }
    d.ndyn_substeps = icon_case_int("ndyn_substeps");
    d.diffusion_type = icon_case_int("diffusion_type");
    d.hdiff_w = static_cast<unsigned char>(icon_case_int("hdiff_w"));
    d.hdiff_vn = static_cast<unsigned char>(icon_case_int("hdiff_vn"));
    d.hdiff_smag_w = static_cast<unsigned char>(icon_case_int("hdiff_smag_w"));
    d.zdiffu_t = static_cast<unsigned char>(icon_case_int("zdiffu_t"));
    d.type_t_diffu = icon_case_int("type_t_diffu");
    d.type_vn_diffu = icon_case_int("type_vn_diffu");
    for (auto [field, name] : {std::pair{&d.hdiff_efdt_ratio, "hdiff_efdt_ratio"},
                               {&d.hdiff_w_efdt_ratio, "hdiff_w_efdt_ratio"},
                               {&d.smagorinski_scaling_factor, "smagorinski_scaling_factor"},
                               {&d.smagorinski_scaling_factor2, "smagorinski_scaling_factor2"},
                               {&d.smagorinski_scaling_factor3, "smagorinski_scaling_factor3"},
                               {&d.smagorinski_scaling_factor4, "smagorinski_scaling_factor4"},
                               {&d.smagorinski_scaling_height, "smagorinski_scaling_height"},
                               {&d.smagorinski_scaling_height2, "smagorinski_scaling_height2"},
                               {&d.smagorinski_scaling_height3, "smagorinski_scaling_height3"},
                               {&d.smagorinski_scaling_height4, "smagorinski_scaling_height4"},
                               {&d.denom_diffu_v, "denom_diffu_v"},
                               {&d.nudge_max_coeff, "nudge_max_coeff"},
                               {&d.a_hshr, "a_hshr"}})
      *field = icon_case_real(name);
    d.hdiff_temp = static_cast<unsigned char>(icon_case_int("hdiff_temp"));
    d.itype_sher = icon_case_int("itype_sher");
    d.iforcing = icon_case_int("iforcing");
    d.loutshs = static_cast<unsigned char>(icon_case_int("loutshs"));

    run.w = doubles_of("w", nproma, nlev + 1);
    run.vn = doubles_of("vn", nproma, nlev);
    run.exner = doubles_of("exner", nproma, nlev);
    run.theta_v = doubles_of("theta_v", nproma, nlev);
    run.rho = doubles_of("rho", nproma, nlev);
    run.hdef_ic = doubles_of("hdef_ic", nproma, nlev + 1);
    run.div_ic = doubles_of("div_ic", nproma, nlev + 1);
    run.dwdx = doubles_of("dwdx", nproma, nlev + 1);
    run.dwdy = doubles_of("dwdy", nproma, nlev + 1);
    run.dtime = 10.0;
  }
  ~IconArrays() { icon_case_free(); }

  int compare(const char* name, const icondiff_array& a) const {
    return icon_case_compare(name, static_cast<const double*>(a.data), a.size[0], a.size[1]);
  }
};

struct Handles {
  icondiff_icon_grid* grid = nullptr;
  icondiff_diffusion* granule = nullptr;
  explicit Handles(const IconArrays& a) {
    EXPECT_EQ(icondiff_icon_grid_create(&a.grid, &grid), ICONDIFF_OK) << icondiff_last_error();
    EXPECT_EQ(icondiff_diffusion_create(grid, &a.diffusion, &granule), ICONDIFF_OK)
        << icondiff_last_error();
  }
  ~Handles() {
    icondiff_diffusion_free(granule);
    icondiff_icon_grid_free(grid);
  }
};

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
  EXPECT_EQ(a.compare("vn", a.run.vn), 0);
  EXPECT_EQ(a.compare("w", a.run.w), 0);
  EXPECT_EQ(a.compare("theta_v", a.run.theta_v), 0);
  EXPECT_EQ(a.compare("exner", a.run.exner), 0);
  EXPECT_EQ(a.compare("hdef_ic", a.run.hdef_ic), 0);
  EXPECT_EQ(a.compare("div_ic", a.run.div_ic), 0);
  EXPECT_EQ(a.compare("dwdx", a.run.dwdx), 0);
  EXPECT_EQ(a.compare("dwdy", a.run.dwdy), 0);
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
