// The solve_nh granule's arguments of one icon_arrays_case (made with solve_nh) in ICON's shapes,
// owned by the test: solve_nh_init's static arrays and a state held as ICON holds it (two time
// levels, two tendency slots, swapped after every substep), filled into the C API's argument
// structs. For the C++ tests of the C API (icondiff_c.h).
#pragma once

#include "support/icon_api_arrays.hpp"

#include <icondiff_c.h>

#include <array>
#include <string>
#include <vector>

namespace icondiff::test {

struct IconSolveNhArrays {
  IconArrays& base;
  icondiff_solve_nh_args init{};
  /// The arrays of the time-level pairs: [0] holds "now" and [1] "new" before the first substep.
  std::array<icondiff_array, 2> rho{}, exner{}, w{}, theta_v{}, vn{}, ddt_vn_apc{}, ddt_w_adv{};
  icondiff_solve_nh_run_args run{};  ///< the other arrays; the pairs set by arguments_for
  std::vector<double> max_vcfl = std::vector<double>(1, 0.0);
  int nnow = 0, ntl1 = 0;

  explicit IconSolveNhArrays(IconArrays& arrays, bool increments = false) : base(arrays) {
    IconArrays& b = base;
    const int np = b.nproma, nlev = b.nlev;
    auto& a = init;
    a.c_lin_e = b.doubles_of("c_lin_e", np, 2);
    a.c_intp = b.doubles_of("c_intp", np, 6);
    a.e_flx_avg = b.doubles_of("e_flx_avg", np, 5);
    a.geofac_grdiv = b.doubles_of("geofac_grdiv", np, 5);
    a.geofac_rot = b.doubles_of("geofac_rot", np, 6);
    a.pos_on_tplane_e_1 = b.doubles_of("pos_on_tplane_e_1", np, 2);
    a.pos_on_tplane_e_2 = b.doubles_of("pos_on_tplane_e_2", np, 2);
    a.rbf_vec_coeff_e = b.doubles_of("rbf_vec_coeff_e", np, 4);
    a.rbf_vec_coeff_e.size[0] = 4;  // ICON's (4, nproma)
    a.rbf_vec_coeff_e.size[1] = np;
    a.e_bln_c_s = b.diffusion.e_bln_c_s;
    a.rbf_vec_coeff_v = b.diffusion.rbf_vec_coeff_v;
    a.geofac_div = b.diffusion.geofac_div;
    a.geofac_n2s = b.diffusion.geofac_n2s;
    a.geofac_grg_x = b.diffusion.geofac_grg_x;
    a.geofac_grg_y = b.diffusion.geofac_grg_y;
    a.nudgecoeff_e = b.diffusion.nudgecoeff_e;
    a.mask_prog_halo_c = b.mask("mask_prog_halo_c");
    a.rayleigh_w = b.doubles_of("rayleigh_w", nlev + 1, 1, false);
    a.exner_exfac = b.doubles_of("exner_exfac", np, nlev);
    a.exner_ref_mc = b.doubles_of("exner_ref_mc", np, nlev);
    a.wgtfac_c = b.diffusion.wgtfac_c;
    a.wgtfacq_c = b.doubles_of("wgtfacq_c", np, 3);
    a.inv_ddqz_z_full = b.doubles_of("inv_ddqz_z_full", np, nlev);
    a.rho_ref_mc = b.doubles_of("rho_ref_mc", np, nlev);
    a.theta_ref_mc = b.diffusion.theta_ref_mc;
    a.vwind_expl_wgt = b.vector_of("vwind_expl_wgt", np);
    a.d_exner_dz_ref_ic = b.doubles_of("d_exner_dz_ref_ic", np, nlev + 1);
    a.ddqz_z_half = b.doubles_of("ddqz_z_half", np, nlev + 1);
    a.theta_ref_ic = b.doubles_of("theta_ref_ic", np, nlev + 1);
    a.d2dexdz2_fac1_mc = b.doubles_of("d2dexdz2_fac1_mc", np, nlev);
    a.d2dexdz2_fac2_mc = b.doubles_of("d2dexdz2_fac2_mc", np, nlev);
    a.rho_ref_me = b.doubles_of("rho_ref_me", np, nlev);
    a.theta_ref_me = b.doubles_of("theta_ref_me", np, nlev);
    a.ddxn_z_full = b.doubles_of("ddxn_z_full", np, nlev);
    a.zdiff_gradp = b.doubles_of("zdiff_gradp", np, 2 * nlev);
    a.zdiff_gradp.size[1] = 2;
    a.zdiff_gradp.size[2] = nlev;
    a.vertidx_gradp = b.ints_of("vertidx_gradp", np, 2 * nlev);
    a.vertidx_gradp.size[1] = 2;
    a.vertidx_gradp.size[2] = nlev;
    const int pg = icon_case_int("pg_count");
    if (pg > 0) {
      a.pg_edgeidx = b.ints_of("pg_edgeidx", pg, 1);
      a.pg_vertidx = b.ints_of("pg_vertidx", pg, 1);
      a.pg_exdist = b.doubles_of("pg_exdist", pg, 1, false);
    }
    a.ddqz_z_full_e = b.doubles_of("ddqz_z_full_e", np, nlev);
    a.ddxt_z_full = b.doubles_of("ddxt_z_full", np, nlev);
    a.wgtfac_e = b.doubles_of("wgtfac_e", np, nlev + 1);
    a.wgtfacq_e = b.doubles_of("wgtfacq_e", np, 3);
    a.vwind_impl_wgt = b.vector_of("vwind_impl_wgt", np);
    a.hmask_dd3d = b.vector_of("hmask_dd3d", np);
    a.scalfac_dd3d = b.doubles_of("scalfac_dd3d", nlev, 1, false);
    a.coeff1_dwdz = b.doubles_of("coeff1_dwdz", np, nlev);
    a.coeff2_dwdz = b.doubles_of("coeff2_dwdz", np, nlev);
    a.coeff_gradekin = b.doubles_of("coeff_gradekin", np, 2);
    a.c_owner_mask = b.grid.c_owner_mask;
    a.itime_scheme = icon_case_int("itime_scheme");
    a.iadv_rhotheta = icon_case_int("iadv_rhotheta");
    a.igradp_method = icon_case_int("igradp_method");
    a.rayleigh_type = icon_case_int("rayleigh_type");
    a.divdamp_order = icon_case_int("divdamp_order");
    a.divdamp_type = icon_case_int("divdamp_type");
    a.l_vert_nested = static_cast<unsigned char>(icon_case_int("l_vert_nested"));
    a.ldeepatmo = static_cast<unsigned char>(icon_case_int("ldeepatmo"));
    a.iau_init = static_cast<unsigned char>(icon_case_int("iau_init"));
    a.extra_diffu = static_cast<unsigned char>(icon_case_int("extra_diffu"));
    a.rhotheta_offctr = icon_case_real("rhotheta_offctr");
    a.veladv_offctr = icon_case_real("veladv_offctr");
    a.nudge_max_coeff = icon_case_real("solve_nh_nudge_max_coeff");
    a.divdamp_fac = icon_case_real("divdamp_fac");
    a.divdamp_fac2 = icon_case_real("divdamp_fac2");
    a.divdamp_fac3 = icon_case_real("divdamp_fac3");
    a.divdamp_fac4 = icon_case_real("divdamp_fac4");
    a.divdamp_z = icon_case_real("divdamp_z");
    a.divdamp_z2 = icon_case_real("divdamp_z2");
    a.divdamp_z3 = icon_case_real("divdamp_z3");
    a.divdamp_z4 = icon_case_real("divdamp_z4");
    a.nflat_gradp = icon_case_int("nflat_gradp");

    const auto pair = [&](std::array<icondiff_array, 2>& p, const std::string& now,
                          const std::string& next, int cols) {
      p[0] = b.doubles_of(now.c_str(), np, cols);
      p[1] = b.doubles_of(next.c_str(), np, cols);
    };
    pair(rho, "rho_now", "rho_new", nlev);
    pair(exner, "exner_now", "exner_new", nlev);
    pair(w, "w_now", "w_new", nlev + 1);
    pair(theta_v, "theta_v_now", "theta_v_new", nlev);
    pair(vn, "vn_now", "vn_new", nlev);
    pair(ddt_vn_apc, "ddt_vn_apc_ntl1", "ddt_vn_apc_ntl2", nlev);
    pair(ddt_w_adv, "ddt_w_adv_ntl1", "ddt_w_adv_ntl2", nlev + 1);
    auto& r = run;
    for (auto [field, name, cols] :
         std::initializer_list<std::tuple<icondiff_array*, const char*, int>>{
             {&r.w_concorr_c, "w_concorr_c", nlev + 1},
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
             {&r.mass_flx_me, "mass_flx_me", nlev},
             {&r.mass_flx_ic, "mass_flx_ic", nlev + 1},
             {&r.vol_flx_ic, "vol_flx_ic", nlev + 1},
             {&r.vn_traj, "vn_traj", nlev}})
      *field = b.doubles_of(name, np, cols);
    if (increments) {
      r.vn_incr = b.doubles_of("vn_incr", np, nlev);
      r.rho_incr = b.doubles_of("rho_incr", np, nlev);
      r.exner_incr = b.doubles_of("exner_incr", np, nlev);
    }
    r.max_vcfl_size1_array = {max_vcfl.data(), {1, 0, 0}};
  }

  /// The run arguments of substep `substep` (0-based) of physics step `step` (0-based), the
  /// arguments of the C++ reference (solve_nh_case.hpp's solve_nh_substep).
  icondiff_solve_nh_run_args arguments_for(int step, int substep, int substeps, double dtime) {
    icondiff_solve_nh_run_args r = run;
    const int nnew = 1 - nnow, ntl2 = 1 - ntl1;
    r.rho_now = rho[nnow], r.rho_new = rho[nnew];
    r.exner_now = exner[nnow], r.exner_new = exner[nnew];
    r.w_now = w[nnow], r.w_new = w[nnew];
    r.theta_v_now = theta_v[nnow], r.theta_v_new = theta_v[nnew];
    r.vn_now = vn[nnow], r.vn_new = vn[nnew];
    r.ddt_vn_apc_ntl1 = ddt_vn_apc[ntl1], r.ddt_vn_apc_ntl2 = ddt_vn_apc[ntl2];
    r.ddt_w_adv_ntl1 = ddt_w_adv[ntl1], r.ddt_w_adv_ntl2 = ddt_w_adv[ntl2];
    r.dtime = dtime;
    r.lprep_adv = 1;
    r.at_initial_timestep = step == 0;
    r.divdamp_fac_o2 = step == 0 ? 0.032 : 0.0;
    r.ndyn_substeps_var = substeps;
    r.idyn_timestep = substep + 1;
    return r;
  }
  /// What ICON does after every substep.
  void swap_time_levels() {
    nnow = 1 - nnow;
    ntl1 = 1 - ntl1;
  }

  /// Expects every output and max_vcfl to equal the C++ reference bit for bit (on a rank's part:
  /// its owned points).
  void expect_outputs_equal_reference() const {
    const int nnew = 1 - nnow, ntl2 = 1 - ntl1;
    const auto expect = [&](const char* name, const icondiff_array& a) {
      EXPECT_EQ(base.compare(name, a), 0) << name;
    };
    expect("rho_now", rho[nnow]);
    expect("rho_new", rho[nnew]);
    expect("exner_now", exner[nnow]);
    expect("exner_new", exner[nnew]);
    expect("w_now", w[nnow]);
    expect("w_new", w[nnew]);
    expect("theta_v_now", theta_v[nnow]);
    expect("theta_v_new", theta_v[nnew]);
    expect("vn_now", vn[nnow]);
    expect("vn_new", vn[nnew]);
    expect("ddt_vn_apc_ntl1", ddt_vn_apc[ntl1]);
    expect("ddt_vn_apc_ntl2", ddt_vn_apc[ntl2]);
    expect("ddt_w_adv_ntl1", ddt_w_adv[ntl1]);
    expect("ddt_w_adv_ntl2", ddt_w_adv[ntl2]);
    const auto& r = run;
    for (auto [name, a] : std::initializer_list<std::pair<const char*, const icondiff_array*>>{
             {"w_concorr_c", &r.w_concorr_c},
             {"theta_v_ic", &r.theta_v_ic},
             {"rho_ic", &r.rho_ic},
             {"exner_pr", &r.exner_pr},
             {"exner_dyn_incr", &r.exner_dyn_incr},
             {"mass_fl_e", &r.mass_fl_e},
             {"vn_ie", &r.vn_ie},
             {"vt", &r.vt},
             {"mass_flx_me", &r.mass_flx_me},
             {"mass_flx_ic", &r.mass_flx_ic},
             {"vol_flx_ic", &r.vol_flx_ic},
             {"vn_traj", &r.vn_traj}})
      expect(name, *a);
  }
};

}  // namespace icondiff::test
