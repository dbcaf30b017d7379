// libFuzzer harness of the solve_nh C API (icondiff_c.h): solve_nh_init's static arrays, index
// lists and options, and one solve_nh_run's scalars and argument arrays. A valid ICON-shaped
// case (generate:R2B0, 6 levels, icon_case_create_solve_nh: the real edge geometry) is built
// once; each input is a list of 13-byte edits, each [target: 1 byte][element: 4 bytes LE]
// [value: 8 bytes LE], as in fuzz_capi_static.cpp. Targets:
//  - every double array of icondiff_solve_nh_args (the value as a double's bits, NaN and inf
//    included), its int arrays vertidx_gradp, pg_edgeidx, pg_vertidx (the low 32 bits);
//  - its options: the int scalars (itime_scheme, divdamp_order, nflat_gradp, ...), the flags
//    (the low byte) and the real scalars; the run's dtime, divdamp_fac_o2, iau_wgt_dyn,
//    ndyn_substeps_var, idyn_timestep and flags;
//  - the shape of every array of both structs: element % 4 picks SIZE(x, 1..3), which becomes
//    min(value, its size) (smaller or negative: what a caller can get wrong without reading
//    beyond the harness's memory), or (3) data NULL with size[0] = -1 (the Fortran module's mark
//    of a non-contiguous array) or kept;
//  - where a run array points: another run array's storage at an offset (every run array has a
//    spare column, so that any alias stays inside the harness's memory), max_vcfl_size1_array
//    included (as the alias only).
// grid_init's vct_a, flat_height, rayleigh_damping_height and mean_cell_area are targets too.
// Then icondiff_icon_grid_create and icondiff_diffusion_create (the latter unedited, so that
// solve_nh_init shares fields with a diffusion granule as in ICON), icondiff_solve_nh_create and
// one icondiff_solve_nh_run are called as far as they succeed. Expected from each: ICONDIFF_OK, or
// a caller's-error status (invalid argument, grid or config error) with a message. A crash, a
// sanitizer report, a hang, an internal error (status 99) or an empty message is a finding: bad
// inputs must be refused at the call that takes them, naming what is wrong.
//
// Built with -DICONDIFF_FUZZ_REPLAY_MAIN it is a plain program that replays the files given on
// its command line (or every file of the folders given) once each: the unit tests run the seed
// corpus (fuzz/corpus/capi_solve_nh/) that way without clang.
#include "capi_fuzz.hpp"
#include "support/icon_arrays_case.hpp"

#include <icondiff_c.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

const char* const icondiff::capi_fuzz::harness = "capi_solve_nh";

namespace {

using icondiff::capi_fuzz::accepted;
using icondiff::capi_fuzz::finding;
using icondiff::capi_fuzz::outcome;

/// The case's arrays in ICON's shapes (as unit_tests/support/icon_api_arrays.hpp and
/// icon_solve_nh_api_arrays.hpp build them for the C API's tests), with a pristine copy of every
/// value and argument struct to reset before each input.
struct Case {
  int nc = 0, ne = 0, nv = 0, nlev = 0, nzd = 0, nproma = 0, pg = 0;
  std::vector<std::vector<int>> ints, pristine_ints;
  std::vector<std::vector<double>> doubles, pristine_doubles;
  std::vector<std::vector<unsigned char>> bools;
  icondiff_icon_grid_args grid{}, pristine_grid{};
  icondiff_diffusion_args diffusion{};
  icondiff_solve_nh_args init{}, pristine_init{};
  icondiff_solve_nh_run_args run{}, pristine_run{};
  std::vector<double> max_vcfl = std::vector<double>(1, 0.0);
  /// What an edit may change.
  struct Target {
    std::vector<int>* ints = nullptr;
    std::vector<double>* doubles = nullptr;
    double* real = nullptr;
    int* integer = nullptr;
    unsigned char* flag = nullptr;
    icondiff_array* shape = nullptr;  ///< SIZE(x, d) or data NULL
    icondiff_array* alias = nullptr;  ///< where a run array points
    std::string name;                 ///< for --targets
  };
  std::vector<Target> targets;
  /// The run arrays' storage (nproma * (nlev + 2) doubles each: a spare column).
  std::vector<double*> run_storage;
  std::vector<double>* vct_a = nullptr;  ///< grid_init's

  static void need(int status, const char* what) {
    if (status != 0) finding(std::string("the case cannot fill ") + what);
  }
  static void need_value(bool ok, const char* what) {
    if (!ok) finding(std::string("the case has no ") + what);
  }
  icondiff_array ints_of(const char* name, int ld, int cols, bool editable = true) {
    ints.emplace_back(static_cast<std::size_t>(ld) * cols);
    need(icon_case_fill_int(name, ints.back().data(), ld, cols), name);
    if (editable) targets.push_back({&ints.back(), {}, {}, {}, {}, {}, {}, name});
    return {ints.back().data(), {ld, cols == 1 && ld != 4 ? 0 : cols, 0}};
  }
  icondiff_array doubles_of(const char* name, int ld, int cols, bool matrix = true,
                            bool editable = true) {
    doubles.emplace_back(static_cast<std::size_t>(ld) * cols);
    need(icon_case_fill_double(name, doubles.back().data(), ld, cols), name);
    if (editable) targets.push_back({nullptr, &doubles.back(), {}, {}, {}, {}, {}, name});
    return {doubles.back().data(), {ld, matrix ? cols : 0, 0}};
  }
  icondiff_array vector_of(const char* name, int n, bool editable = true) {
    return doubles_of(name, n, 1, false, editable);
  }
  icondiff_array mask(const char* name) {
    bools.emplace_back(static_cast<std::size_t>(nproma));
    need(icon_case_fill_bool(name, bools.back().data(), nproma), name);
    return {bools.back().data(), {nproma, 0, 0}};
  }
  /// A run array: (nproma, cols) filled, in storage of nproma * (nlev + 2) doubles.
  icondiff_array run_array(const char* name, int cols) {
    doubles.emplace_back(static_cast<std::size_t>(nproma) * (nlev + 2));
    need(icon_case_fill_double(name, doubles.back().data(), nproma, cols), name);
    run_storage.push_back(doubles.back().data());
    return {doubles.back().data(), {nproma, cols, 0}};
  }

  void make_grid() {
    auto& g = grid;
    g.cell_starts = ints_of("cell_starts", 14, 1, false);
    g.cell_ends = ints_of("cell_ends", 14, 1, false);
    g.vertex_starts = ints_of("vertex_starts", 13, 1, false);
    g.vertex_ends = ints_of("vertex_ends", 13, 1, false);
    g.edge_starts = ints_of("edge_starts", 24, 1, false);
    g.edge_ends = ints_of("edge_ends", 24, 1, false);
    for (auto [field, name, cols] :
         {std::make_tuple(&g.c2e, "c2e", 3), std::make_tuple(&g.e2c, "e2c", 2),
          std::make_tuple(&g.c2e2c, "c2e2c", 3), std::make_tuple(&g.e2c2e, "e2c2e", 4),
          std::make_tuple(&g.e2v, "e2v", 4), std::make_tuple(&g.v2e, "v2e", 6),
          std::make_tuple(&g.v2c, "v2c", 6), std::make_tuple(&g.e2c2v, "e2c2v", 4),
          std::make_tuple(&g.c2v, "c2v", 3)})
      *field = ints_of(name, nproma, cols, false);
    g.c_owner_mask = mask("c_owner_mask");
    g.e_owner_mask = mask("e_owner_mask");
    g.v_owner_mask = mask("v_owner_mask");
    g.c_glb_index = ints_of("c_glb_index", nproma, 1, false);
    g.e_glb_index = ints_of("e_glb_index", nproma, 1, false);
    g.v_glb_index = ints_of("v_glb_index", nproma, 1, false);
    for (auto [field, name] :
         {std::make_pair(&g.tangent_orientation, "tangent_orientation"),
          std::make_pair(&g.inverse_primal_edge_lengths, "inverse_primal_edge_lengths"),
          std::make_pair(&g.inv_dual_edge_length, "inv_dual_edge_length"),
          std::make_pair(&g.inv_vert_vert_length, "inv_vert_vert_length"),
          std::make_pair(&g.edge_areas, "edge_areas"), std::make_pair(&g.f_e, "f_e"),
          std::make_pair(&g.cell_center_lat, "cell_center_lat"),
          std::make_pair(&g.cell_center_lon, "cell_center_lon"),
          std::make_pair(&g.cell_areas, "cell_areas"),
          std::make_pair(&g.edge_center_lat, "edge_center_lat"),
          std::make_pair(&g.edge_center_lon, "edge_center_lon"),
          std::make_pair(&g.primal_normal_x, "primal_normal_x"),
          std::make_pair(&g.primal_normal_y, "primal_normal_y")})
      *field = vector_of(name, nproma, false);
    for (auto [field, name, cols] :
         {std::make_tuple(&g.primal_normal_vert_x, "primal_normal_vert_x", 4),
          std::make_tuple(&g.primal_normal_vert_y, "primal_normal_vert_y", 4),
          std::make_tuple(&g.dual_normal_vert_x, "dual_normal_vert_x", 4),
          std::make_tuple(&g.dual_normal_vert_y, "dual_normal_vert_y", 4),
          std::make_tuple(&g.primal_normal_cell_x, "primal_normal_cell_x", 2),
          std::make_tuple(&g.primal_normal_cell_y, "primal_normal_cell_y", 2),
          std::make_tuple(&g.dual_normal_cell_x, "dual_normal_cell_x", 2),
          std::make_tuple(&g.dual_normal_cell_y, "dual_normal_cell_y", 2)})
      *field = doubles_of(name, nproma, cols, true, false);
    g.vct_a = vector_of("vct_a", nlev + 1, false);
    vct_a = &doubles.back();
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
  }

  void make_diffusion() {
    auto& d = diffusion;
    d.theta_ref_mc = doubles_of("theta_ref_mc", nproma, nlev, true, false);
    d.wgtfac_c = doubles_of("wgtfac_c", nproma, nlev + 1, true, false);
    d.e_bln_c_s = doubles_of("e_bln_c_s", nproma, 3, true, false);
    d.geofac_div = doubles_of("geofac_div", nproma, 3, true, false);
    d.geofac_grg_x = doubles_of("geofac_grg_x", nproma, 4, true, false);
    d.geofac_grg_y = doubles_of("geofac_grg_y", nproma, 4, true, false);
    d.geofac_n2s = doubles_of("geofac_n2s", nproma, 4, true, false);
    d.nudgecoeff_e = vector_of("nudgecoeff_e", nproma, false);
    doubles.emplace_back(static_cast<std::size_t>(12) * nproma);
    need(icon_case_fill_double("rbf_vec_coeff_v", doubles.back().data(), nproma, 12), "rbf");
    d.rbf_vec_coeff_v = {doubles.back().data(), {6, 2, nproma}};
    if (nzd > 0) {
      d.zd_cellidx = ints_of("zd_cellidx", 4, nzd, false);
      d.zd_vertidx = ints_of("zd_vertidx", 4, nzd, false);
      d.zd_intcoef = doubles_of("zd_intcoef", 3, nzd, true, false);
      doubles.emplace_back(static_cast<std::size_t>(nzd));
      need(icon_case_fill_double("zd_diffcoef", doubles.back().data(), 1, nzd), "zd_diffcoef");
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
    for (auto [field, name] :
         {std::make_pair(&d.hdiff_efdt_ratio, "hdiff_efdt_ratio"),
          std::make_pair(&d.hdiff_w_efdt_ratio, "hdiff_w_efdt_ratio"),
          std::make_pair(&d.smagorinski_scaling_factor, "smagorinski_scaling_factor"),
          std::make_pair(&d.smagorinski_scaling_factor2, "smagorinski_scaling_factor2"),
          std::make_pair(&d.smagorinski_scaling_factor3, "smagorinski_scaling_factor3"),
          std::make_pair(&d.smagorinski_scaling_factor4, "smagorinski_scaling_factor4"),
          std::make_pair(&d.smagorinski_scaling_height, "smagorinski_scaling_height"),
          std::make_pair(&d.smagorinski_scaling_height2, "smagorinski_scaling_height2"),
          std::make_pair(&d.smagorinski_scaling_height3, "smagorinski_scaling_height3"),
          std::make_pair(&d.smagorinski_scaling_height4, "smagorinski_scaling_height4"),
          std::make_pair(&d.denom_diffu_v, "denom_diffu_v"),
          std::make_pair(&d.nudge_max_coeff, "nudge_max_coeff"),
          std::make_pair(&d.a_hshr, "a_hshr")})
      *field = icon_case_real(name);
    d.hdiff_temp = static_cast<unsigned char>(icon_case_int("hdiff_temp"));
    d.itype_sher = icon_case_int("itype_sher");
    d.iforcing = icon_case_int("iforcing");
    d.loutshs = static_cast<unsigned char>(icon_case_int("loutshs"));
  }

  /// solve_nh_init's arguments, each array of its own (also those diffusion_init takes: an edit
  /// of one of them makes solve_nh_init hold a copy of its own instead of the shared one).
  void make_solve_nh_init() {
    const int np = nproma;
    auto& a = init;
    a.c_lin_e = doubles_of("c_lin_e", np, 2);
    a.c_intp = doubles_of("c_intp", np, 6);
    a.e_flx_avg = doubles_of("e_flx_avg", np, 5);
    a.geofac_grdiv = doubles_of("geofac_grdiv", np, 5);
    a.geofac_rot = doubles_of("geofac_rot", np, 6);
    a.pos_on_tplane_e_1 = doubles_of("pos_on_tplane_e_1", np, 2);
    a.pos_on_tplane_e_2 = doubles_of("pos_on_tplane_e_2", np, 2);
    a.rbf_vec_coeff_e = doubles_of("rbf_vec_coeff_e", np, 4);
    a.rbf_vec_coeff_e.size[0] = 4;  // ICON's (4, nproma)
    a.rbf_vec_coeff_e.size[1] = np;
    a.e_bln_c_s = doubles_of("e_bln_c_s", np, 3);
    doubles.emplace_back(static_cast<std::size_t>(12) * np);
    need(icon_case_fill_double("rbf_vec_coeff_v", doubles.back().data(), np, 12), "rbf");
    targets.push_back({nullptr, &doubles.back(), {}, {}, {}, {}, {}, "rbf_vec_coeff_v"});
    a.rbf_vec_coeff_v = {doubles.back().data(), {6, 2, np}};
    a.geofac_div = doubles_of("geofac_div", np, 3);
    a.geofac_n2s = doubles_of("geofac_n2s", np, 4);
    a.geofac_grg_x = doubles_of("geofac_grg_x", np, 4);
    a.geofac_grg_y = doubles_of("geofac_grg_y", np, 4);
    a.nudgecoeff_e = vector_of("nudgecoeff_e", np);
    a.mask_prog_halo_c = mask("mask_prog_halo_c");
    a.rayleigh_w = doubles_of("rayleigh_w", nlev + 1, 1, false);
    a.exner_exfac = doubles_of("exner_exfac", np, nlev);
    a.exner_ref_mc = doubles_of("exner_ref_mc", np, nlev);
    a.wgtfac_c = doubles_of("wgtfac_c", np, nlev + 1);
    a.wgtfacq_c = doubles_of("wgtfacq_c", np, 3);
    a.inv_ddqz_z_full = doubles_of("inv_ddqz_z_full", np, nlev);
    a.rho_ref_mc = doubles_of("rho_ref_mc", np, nlev);
    a.theta_ref_mc = doubles_of("theta_ref_mc", np, nlev);
    a.vwind_expl_wgt = vector_of("vwind_expl_wgt", np);
    a.d_exner_dz_ref_ic = doubles_of("d_exner_dz_ref_ic", np, nlev + 1);
    a.ddqz_z_half = doubles_of("ddqz_z_half", np, nlev + 1);
    a.theta_ref_ic = doubles_of("theta_ref_ic", np, nlev + 1);
    a.d2dexdz2_fac1_mc = doubles_of("d2dexdz2_fac1_mc", np, nlev);
    a.d2dexdz2_fac2_mc = doubles_of("d2dexdz2_fac2_mc", np, nlev);
    a.rho_ref_me = doubles_of("rho_ref_me", np, nlev);
    a.theta_ref_me = doubles_of("theta_ref_me", np, nlev);
    a.ddxn_z_full = doubles_of("ddxn_z_full", np, nlev);
    a.zdiff_gradp = doubles_of("zdiff_gradp", np, 2 * nlev);
    a.zdiff_gradp.size[1] = 2;
    a.zdiff_gradp.size[2] = nlev;
    a.vertidx_gradp = ints_of("vertidx_gradp", np, 2 * nlev);
    a.vertidx_gradp.size[1] = 2;
    a.vertidx_gradp.size[2] = nlev;
    if (pg > 0) {
      a.pg_edgeidx = ints_of("pg_edgeidx", pg, 1);
      a.pg_vertidx = ints_of("pg_vertidx", pg, 1);
      a.pg_exdist = doubles_of("pg_exdist", pg, 1, false);
    }
    a.ddqz_z_full_e = doubles_of("ddqz_z_full_e", np, nlev);
    a.ddxt_z_full = doubles_of("ddxt_z_full", np, nlev);
    a.wgtfac_e = doubles_of("wgtfac_e", np, nlev + 1);
    a.wgtfacq_e = doubles_of("wgtfacq_e", np, 3);
    a.vwind_impl_wgt = vector_of("vwind_impl_wgt", np);
    a.hmask_dd3d = vector_of("hmask_dd3d", np);
    a.scalfac_dd3d = doubles_of("scalfac_dd3d", nlev, 1, false);
    a.coeff1_dwdz = doubles_of("coeff1_dwdz", np, nlev);
    a.coeff2_dwdz = doubles_of("coeff2_dwdz", np, nlev);
    a.coeff_gradekin = doubles_of("coeff_gradekin", np, 2);
    a.c_owner_mask = mask("c_owner_mask");
    for (auto [field, name] : {std::make_pair(&a.itime_scheme, "itime_scheme"),
                               std::make_pair(&a.iadv_rhotheta, "iadv_rhotheta"),
                               std::make_pair(&a.igradp_method, "igradp_method"),
                               std::make_pair(&a.rayleigh_type, "rayleigh_type"),
                               std::make_pair(&a.divdamp_order, "divdamp_order"),
                               std::make_pair(&a.divdamp_type, "divdamp_type"),
                               std::make_pair(&a.nflat_gradp, "nflat_gradp")}) {
      *field = icon_case_int(name);
      targets.push_back({nullptr, nullptr, nullptr, field, {}, {}, {}, name});
    }
    for (auto [field, name] :
         {std::make_pair(&a.l_vert_nested, "l_vert_nested"),
          std::make_pair(&a.ldeepatmo, "ldeepatmo"), std::make_pair(&a.iau_init, "iau_init"),
          std::make_pair(&a.extra_diffu, "extra_diffu")}) {
      *field = static_cast<unsigned char>(icon_case_int(name));
      targets.push_back({nullptr, nullptr, nullptr, nullptr, field, {}, {}, name});
    }
    for (auto [field, name] :
         {std::make_pair(&a.rhotheta_offctr, "rhotheta_offctr"),
          std::make_pair(&a.veladv_offctr, "veladv_offctr"),
          std::make_pair(&a.nudge_max_coeff, "solve_nh_nudge_max_coeff"),
          std::make_pair(&a.divdamp_fac, "divdamp_fac"),
          std::make_pair(&a.divdamp_fac2, "divdamp_fac2"),
          std::make_pair(&a.divdamp_fac3, "divdamp_fac3"),
          std::make_pair(&a.divdamp_fac4, "divdamp_fac4"),
          std::make_pair(&a.divdamp_z, "divdamp_z"), std::make_pair(&a.divdamp_z2, "divdamp_z2"),
          std::make_pair(&a.divdamp_z3, "divdamp_z3"),
          std::make_pair(&a.divdamp_z4, "divdamp_z4")}) {
      *field = icon_case_real(name);
      targets.push_back({nullptr, nullptr, field, {}, {}, {}, {}, name});
    }
  }

  /// One solve_nh_run's arguments (the first substep of the first step, 2 substeps, IAU off,
  /// the increments present): the arguments of the unit tests' first call.
  void make_solve_nh_run() {
    auto& r = run;
    for (auto [field, name, cols] :
         std::initializer_list<std::tuple<icondiff_array*, const char*, int>>{
             {&r.rho_now, "rho_now", nlev},
             {&r.rho_new, "rho_new", nlev},
             {&r.exner_now, "exner_now", nlev},
             {&r.exner_new, "exner_new", nlev},
             {&r.w_now, "w_now", nlev + 1},
             {&r.w_new, "w_new", nlev + 1},
             {&r.theta_v_now, "theta_v_now", nlev},
             {&r.theta_v_new, "theta_v_new", nlev},
             {&r.vn_now, "vn_now", nlev},
             {&r.vn_new, "vn_new", nlev},
             {&r.w_concorr_c, "w_concorr_c", nlev + 1},
             {&r.ddt_vn_apc_ntl1, "ddt_vn_apc_ntl1", nlev},
             {&r.ddt_vn_apc_ntl2, "ddt_vn_apc_ntl2", nlev},
             {&r.ddt_w_adv_ntl1, "ddt_w_adv_ntl1", nlev + 1},
             {&r.ddt_w_adv_ntl2, "ddt_w_adv_ntl2", nlev + 1},
             {&r.theta_v_ic, "theta_v_ic", nlev + 1},
             {&r.rho_ic, "rho_ic", nlev + 1},
             {&r.exner_pr, "exner_pr", nlev},
             {&r.exner_dyn_incr, "exner_dyn_incr", nlev},
             {&r.ddt_exner_phy, "ddt_exner_phy", nlev},
             {&r.grf_tend_rho, "grf_tend_rho", nlev},
             {&r.grf_tend_thv, "grf_tend_thv", nlev},
             {&r.grf_tend_w, "grf_tend_w", nlev + 1},
             {&r.mass_fl_e, "mass_fl_e", nlev},
             {&r.ddt_vn_phy, "ddt_vn_phy", nlev},
             {&r.grf_tend_vn, "grf_tend_vn", nlev},
             {&r.vn_ie, "vn_ie", nlev + 1},
             {&r.vt, "vt", nlev},
             {&r.vn_incr, "vn_incr", nlev},
             {&r.rho_incr, "rho_incr", nlev},
             {&r.exner_incr, "exner_incr", nlev},
             {&r.mass_flx_me, "mass_flx_me", nlev},
             {&r.mass_flx_ic, "mass_flx_ic", nlev + 1},
             {&r.vol_flx_ic, "vol_flx_ic", nlev + 1},
             {&r.vn_traj, "vn_traj", nlev}})
      *field = run_array(name, cols);
    r.max_vcfl_size1_array = {max_vcfl.data(), {1, 0, 0}};
    r.dtime = 60.0;
    r.lprep_adv = 1;
    r.at_initial_timestep = 1;
    r.divdamp_fac_o2 = 0.032;
    r.ndyn_substeps_var = 2;
    r.idyn_timestep = 1;
    r.iau_wgt_dyn = 0.0;
    for (auto [field, name] : {std::make_pair(&r.dtime, "run dtime"),
                               std::make_pair(&r.divdamp_fac_o2, "run divdamp_fac_o2"),
                               std::make_pair(&r.iau_wgt_dyn, "run iau_wgt_dyn")})
      targets.push_back({nullptr, nullptr, field, {}, {}, {}, {}, name});
    for (auto [field, name] : {std::make_pair(&r.ndyn_substeps_var, "run ndyn_substeps_var"),
                               std::make_pair(&r.idyn_timestep, "run idyn_timestep")})
      targets.push_back({nullptr, nullptr, nullptr, field, {}, {}, {}, name});
    for (auto [field, name] : {std::make_pair(&r.lprep_adv, "run lprep_adv"),
                               std::make_pair(&r.at_initial_timestep, "run at_initial_timestep"),
                               std::make_pair(&r.is_iau_active, "run is_iau_active")})
      targets.push_back({nullptr, nullptr, nullptr, nullptr, field, {}, {}, name});
  }

  /// The arrays of a struct of icondiff_array members followed by scalars (the first `count`).
  template <class Args>
  static std::vector<icondiff_array*> arrays_of(Args& args, std::size_t count) {
    std::vector<icondiff_array*> out;
    auto* first = reinterpret_cast<icondiff_array*>(&args);
    for (std::size_t i = 0; i < count; ++i) out.push_back(first + i);
    return out;
  }

  Case() {
    ints.reserve(128);
    doubles.reserve(160);
    bools.reserve(8);
    need(icon_case_create("generate:R2B0", 6), "generate:R2B0");
    need(icon_case_create_solve_nh(), "the solve_nh part");
    icon_case_sizes(&nc, &ne, &nv, &nlev, &nzd);
    nproma = std::max(std::max(nc, ne), nv) + 5;
    pg = icon_case_int("pg_count");
    make_grid();
    make_diffusion();
    make_solve_nh_init();
    make_solve_nh_run();
    // Shapes: every array of solve_nh_init (up to c_owner_mask; the struct's arrays come first)
    // and of the run (its arrays before dtime, and max_vcfl_size1_array).
    constexpr std::size_t init_arrays =
        offsetof(icondiff_solve_nh_args, itime_scheme) / sizeof(icondiff_array);
    std::size_t i = 0;
    for (icondiff_array* a : arrays_of(init, init_arrays))
      targets.push_back({nullptr, nullptr, nullptr, nullptr, nullptr, a, nullptr,
                         "shape of init array " + std::to_string(i++)});
    constexpr std::size_t run_arrays =
        offsetof(icondiff_solve_nh_run_args, dtime) / sizeof(icondiff_array);
    i = 0;
    for (icondiff_array* a : arrays_of(run, run_arrays)) {
      targets.push_back({nullptr, nullptr, nullptr, nullptr, nullptr, a, nullptr,
                         "shape of run array " + std::to_string(i)});
      targets.push_back({nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, a,
                         "alias of run array " + std::to_string(i++)});
    }
    targets.push_back({nullptr, nullptr, nullptr, nullptr, nullptr, &run.max_vcfl_size1_array,
                       nullptr, "shape of max_vcfl_size1_array"});
    targets.push_back({nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                       &run.max_vcfl_size1_array, "alias of max_vcfl_size1_array"});
    // grid_init's vertical grid and mean cell area, from which solve_nh_init takes levels
    // (nflatlev, kstart_moist, the damping layer) and the divergence damping's scale.
    targets.push_back({nullptr, vct_a, {}, {}, {}, {}, {}, "grid vct_a"});
    for (auto [field, name] :
         {std::make_pair(&grid.flat_height, "grid flat_height"),
          std::make_pair(&grid.rayleigh_damping_height, "grid rayleigh_damping_height"),
          std::make_pair(&grid.mean_cell_area, "grid mean_cell_area")})
      targets.push_back({nullptr, nullptr, field, {}, {}, {}, {}, name});
    // Appended later (the targets before keep their bytes): the backend selectors and memory
    // flags, and the value max_vcfl_size1_array carries into the run.
    for (auto [field, name] :
         {std::make_pair(&init.backend, "backend"), std::make_pair(&grid.backend, "grid backend")})
      targets.push_back({nullptr, nullptr, nullptr, field, {}, {}, {}, name});
    for (auto [field, name] :
         {std::make_pair(&init.on_gpu, "on_gpu"), std::make_pair(&run.on_gpu, "run on_gpu")})
      targets.push_back({nullptr, nullptr, nullptr, nullptr, field, {}, {}, name});
    targets.push_back({nullptr, &max_vcfl, {}, {}, {}, {}, {}, "run max_vcfl value"});
    pristine_ints = ints;
    pristine_doubles = doubles;
    pristine_grid = grid;
    pristine_init = init;
    pristine_run = run;
  }

  /// Every value and argument back to the case's (the arrays keep their addresses).
  void reset() {
    for (std::size_t i = 0; i < ints.size(); ++i)
      std::memcpy(ints[i].data(), pristine_ints[i].data(), ints[i].size() * sizeof(int));
    for (std::size_t i = 0; i < doubles.size(); ++i)
      std::memcpy(doubles[i].data(), pristine_doubles[i].data(),
                  doubles[i].size() * sizeof(double));
    grid = pristine_grid;
    init = pristine_init;
    run = pristine_run;
    max_vcfl[0] = 0.0;
  }

  void apply(const std::uint8_t* data, std::size_t size) {
    constexpr std::size_t record = 13;
    for (std::size_t at = 0; at + record <= size; at += record) {
      const Target& t = targets[data[at] % targets.size()];
      std::uint32_t element = 0;
      std::uint64_t bits = 0;
      std::memcpy(&element, data + at + 1, 4);
      std::memcpy(&bits, data + at + 5, 8);
      double value = 0.0;
      std::memcpy(&value, &bits, 8);
      const int low = static_cast<int>(bits & 0xffffffffu);
      if (t.ints) (*t.ints)[element % t.ints->size()] = low;
      if (t.doubles) (*t.doubles)[element % t.doubles->size()] = value;
      if (t.real) *t.real = value;
      if (t.integer) *t.integer = low;
      if (t.flag) *t.flag = static_cast<unsigned char>(bits & 0xffu);
      if (t.shape) {
        const unsigned d = element % 4;
        if (d < 3) {
          t.shape->size[d] = std::min(low, t.shape->size[d]);
        } else {
          t.shape->data = nullptr;
          if (bits & 1u) t.shape->size[0] = -1;
        }
      }
      if (t.alias) {
        const std::size_t n = run_storage.size();
        t.alias->data = run_storage[element % n] + (element / n) % static_cast<unsigned>(nproma);
      }
    }
  }
};

/// The case of the inputs (made by the first).
Case* the_case = nullptr;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Case* c = [] {
    if (icondiff_initialize() != ICONDIFF_OK) finding("icondiff_initialize failed");
    Case* made = new Case();
    // libFuzzer ends with exit(): the ICON-array case's Views must go before Kokkos is finalised
    // at exit (atexit handlers run in reverse order; this one is registered after Kokkos' own).
    std::atexit([] { icon_case_free(); });
    return the_case = made;
  }();
  c->reset();
  c->apply(data, size);
  outcome = "accepted";
  icondiff_icon_grid* grid = nullptr;
  if (!accepted(icondiff_icon_grid_create(&c->grid, &grid), "grid_init")) return 0;
  icondiff_diffusion* diffusion = nullptr;
  if (!accepted(icondiff_diffusion_create(grid, &c->diffusion, &diffusion), "diffusion_init")) {
    icondiff_icon_grid_free(grid);
    return 0;
  }
  icondiff_solve_nh* granule = nullptr;
  if (accepted(icondiff_solve_nh_create(grid, &c->init, &granule), "solve_nh_init")) {
    if (granule == nullptr) finding("solve_nh_init succeeded without a granule");
    accepted(icondiff_solve_nh_run(granule, &c->run), "solve_nh_run");
    icondiff_solve_nh_free(granule);
  } else if (granule != nullptr) {
    finding("solve_nh_init failed but handed out a granule");
  }
  icondiff_diffusion_free(diffusion);
  icondiff_icon_grid_free(grid);
  return 0;
}

#ifdef ICONDIFF_FUZZ_REPLAY_MAIN
int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--targets") {  // what each target byte edits
    LLVMFuzzerTestOneInput(nullptr, 0);
    for (std::size_t i = 0; i < the_case->targets.size(); ++i)
      std::printf("%zu %s\n", i, the_case->targets[i].name.c_str());
    icon_case_free();
    icondiff_finalize();
    return 0;
  }
  return icondiff::capi_fuzz::replay(argc, argv);
}
#endif
