// Every array of one icon_arrays_case in ICON's shapes (one nproma = the largest location + 5),
// owned by the test, filled into the C API's argument structs; and the grid and granule handles
// made from them. For the C++ tests of the C API (icondiff_c.h).
#pragma once

#include "support/icon_arrays_case.hpp"

#include <icondiff_c.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <utility>
#include <vector>

namespace icondiff::test {

/// Every array of one case in ICON's shapes (nproma = max points + 5), owned here.
struct IconArrays {
  int nc = 0, ne = 0, nv = 0, nlev = 0, nzd = 0, nproma = 0;
  std::vector<std::vector<int>> ints;
  std::vector<std::vector<double>> doubles;
  std::vector<std::vector<unsigned char>> bools;
  icondiff_icon_grid_args grid{};
  icondiff_diffusion_args diffusion{};
  icondiff_run_args run{};
  // Spelled-out element types: nvcc 11.8 cannot deduce a braced list of pairs in a range-for.
  using NamedArrays = std::initializer_list<std::pair<icondiff_array*, const char*>>;
  using NamedReals = std::initializer_list<std::pair<double*, const char*>>;

  /// Every array made here: its bytes, and whether ICON4Py's ABI takes it from host memory even
  /// when on_gpu is set (start/end indices, owner masks, global indices: never behind
  /// host_data). The device test (test_icon_granule_device) copies the others to the device.
  struct Storage {
    void* data;
    std::size_t bytes;
    bool host_only;
  };
  std::vector<Storage> storage;
  template <class T>
  void* stored(std::vector<T>& values, bool host_only = false) {
    storage.push_back({values.data(), values.size() * sizeof(T), host_only});
    return values.data();
  }

  icondiff_array ints_of(const char* name, int ld, int cols) {
    ints.emplace_back(static_cast<std::size_t>(ld) * cols);
    EXPECT_EQ(icon_case_fill_int(name, ints.back().data(), ld, cols), 0) << name;
    return {stored(ints.back()), {ld, cols == 1 && ld != 4 ? 0 : cols, 0}};
  }
  icondiff_array doubles_of(const char* name, int ld, int cols, bool matrix = true) {
    doubles.emplace_back(static_cast<std::size_t>(ld) * cols);
    EXPECT_EQ(icon_case_fill_double(name, doubles.back().data(), ld, cols), 0) << name;
    return {stored(doubles.back()), {ld, matrix ? cols : 0, 0}};
  }
  icondiff_array vector_of(const char* name, int n) { return doubles_of(name, n, 1, false); }
  icondiff_array index_array(const char* name, int n) {
    ints.emplace_back(static_cast<std::size_t>(n));
    EXPECT_EQ(icon_case_fill_int(name, ints.back().data(), n, 1), 0) << name;
    return {stored(ints.back(), true), {n, 0, 0}};
  }
  icondiff_array mask(const char* name) {
    bools.emplace_back(static_cast<std::size_t>(nproma));
    EXPECT_EQ(icon_case_fill_bool(name, bools.back().data(), nproma), 0) << name;
    return {stored(bools.back(), true), {nproma, 0, 0}};
  }

  /// The case of `source` on rank `rank`'s part of `num_ranks` (the whole grid on one rank);
  /// with `solve_nh`, also the solve_nh granule's part (icon_case_create_solve_nh), whose real
  /// edge geometry grid_init then gets.
  explicit IconArrays(const char* source, int levels, int rank = 0, int num_ranks = 1,
                      bool solve_nh = false) {
    ints.reserve(128);
    doubles.reserve(160);
    bools.reserve(8);
    EXPECT_EQ(icon_case_create_part(source, levels, rank, num_ranks), 0);
    if (solve_nh) {
      EXPECT_EQ(icon_case_create_solve_nh(), 0);
    }
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
    for (auto [field, name] :
         NamedArrays{{&g.tangent_orientation, "tangent_orientation"},
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
    for (auto [field, name] : NamedArrays{{&g.primal_normal_vert_x, "primal_normal_vert_x"},
                                          {&g.primal_normal_vert_y, "primal_normal_vert_y"},
                                          {&g.dual_normal_vert_x, "dual_normal_vert_x"},
                                          {&g.dual_normal_vert_y, "dual_normal_vert_y"}})
      *field = doubles_of(name, nproma, 4);
    for (auto [field, name] : NamedArrays{{&g.primal_normal_cell_x, "primal_normal_cell_x"},
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
    d.rbf_vec_coeff_v = {stored(doubles.back()), {6, 2, nproma}};
    if (nzd > 0) {
      d.zd_cellidx = ints_of("zd_cellidx", 4, nzd);
      d.zd_vertidx = ints_of("zd_vertidx", 4, nzd);
      d.zd_intcoef = doubles_of("zd_intcoef", 3, nzd);
      doubles.emplace_back(static_cast<std::size_t>(nzd));
      EXPECT_EQ(icon_case_fill_double("zd_diffcoef", doubles.back().data(), 1, nzd), 0);
      d.zd_diffcoef = {stored(doubles.back()), {nzd, 0, 0}};
    }
    d.ndyn_substeps = icon_case_int("ndyn_substeps");
    d.diffusion_type = icon_case_int("diffusion_type");
    d.hdiff_w = static_cast<unsigned char>(icon_case_int("hdiff_w"));
    d.hdiff_vn = static_cast<unsigned char>(icon_case_int("hdiff_vn"));
    d.hdiff_smag_w = static_cast<unsigned char>(icon_case_int("hdiff_smag_w"));
    d.zdiffu_t = static_cast<unsigned char>(icon_case_int("zdiffu_t"));
    d.type_t_diffu = icon_case_int("type_t_diffu");
    d.type_vn_diffu = icon_case_int("type_vn_diffu");
    for (auto [field, name] :
         NamedReals{{&d.hdiff_efdt_ratio, "hdiff_efdt_ratio"},
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
  /// Expects every output of `run` to equal the C++ reference bit for bit (icon_case_compare).
  void expect_outputs_equal_reference() const {
    EXPECT_EQ(compare("vn", run.vn), 0);
    EXPECT_EQ(compare("w", run.w), 0);
    EXPECT_EQ(compare("theta_v", run.theta_v), 0);
    EXPECT_EQ(compare("exner", run.exner), 0);
    EXPECT_EQ(compare("hdef_ic", run.hdef_ic), 0);
    EXPECT_EQ(compare("div_ic", run.div_ic), 0);
    EXPECT_EQ(compare("dwdx", run.dwdx), 0);
    EXPECT_EQ(compare("dwdy", run.dwdy), 0);
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

}  // namespace icondiff::test
