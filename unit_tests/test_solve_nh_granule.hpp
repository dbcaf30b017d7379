// The solve_nh granule (SolveNonhydro<ExecSpace>::time_step, one dynamics substep as ICON4Py
// 0.2.0's SolveNonhydro.time_step) against the independent plain-loop reference substep
// (unit_tests/reference/solve_nh_reference.hpp, written from ICON4Py's solve_nonhydro.py and
// velocity_advection.py, calling the per-program references), on seeded random statics
// (support/random_dycore.hpp's, with ICON-like scales for the fields a chain of substeps is
// sensitive to) and a random state near hydrostatic balance, on the torus (12 levels) and a global
// and a limited-area grid (10 levels; real files when present, else generated). Each case runs two
// physics steps of several substeps as ICON4Py's driver does: the prognostic time levels swap after
// every substep, the predictor/corrector tendency pairs swap as _update_time_levels_for_velocity_
// tendencies swaps them, at_first/at_last_substep and at_initial_timestep set as ICON sets them,
// max_vertical_cfl reset to 0 at each physics step. After every substep every field of both
// time levels, of the diagnostic state, of prep_adv and of the granule's locals, and
// max_vertical_cfl, must equal the reference's bit for bit; the fields the substep writes must
// have changed, the others must not, and everything must stay finite. Plus the granule's errors.
// Compiled once per backend.
#include "reference/solve_nh_reference.hpp"
#include "support/dycore_test_cases.hpp"
#include "support/expect_error.hpp"
#include "support/field_compare.hpp"
#include "support/random_dycore.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/dycore/solve_nonhydro.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace icondiff {
namespace solve_nh_granule_test {

using M = TEST_MEMSPACE;
using Space = TEST_EXECSPACE;
using test::HostArray;
using test::HostArrays;
using test::HostField;

// ---- Inputs ------------------------------------------------------------------------------------

/// Nominal interface heights (ICON's vct_a), nlev + 1 values from a 90 km top to the surface,
/// stretched like ICON's, so that the fourth-order divergence damping profile (32.5, 40, 60 and
/// 80 km) has its constant, linear and quadratic parts.
std::vector<double> make_vct_a(int nlev, test::RandomSource& rng) {
  std::vector<double> vct_a(static_cast<std::size_t>(nlev) + 1);
  for (int k = 0; k <= nlev; ++k) {
    const double x = 1.0 - static_cast<double>(k) / nlev;
    vct_a[static_cast<std::size_t>(k)] =
        k == nlev ? 0.0
                  : 90000.0 * std::pow(x, 1.4) * (k == 0 ? 1.0 : 1.0 + rng.uniform(-0.02, 0.02));
  }
  return vct_a;
}

reference::BoolVector as_bools(const std::vector<double>& values) {
  reference::BoolVector out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = values[i] != 0;
  return out;
}

/// The reference's statics: the same random bundle under ICON4Py's state names.
reference::SolveNhStatics reference_statics(const HostArrays& s, const DycoreInputs<M>& in,
                                            const std::vector<double>& vct_a) {
  reference::SolveNhStatics r;
  r.nlev = in.nlev;
  r.nflatlev = in.nflatlev;
  r.end_index_of_damping_layer = in.end_index_of_damping_layer;
  r.kstart_moist = in.kstart_moist;
  r.interface_physical_height = vct_a;
  r.nflat_gradp = in.nflat_gradp;
  r.mask_prog_halo_c = as_bools(s.at("mask_prog_halo_c").vector());
  r.rayleigh_w = s.at("rayleigh_w").vector();
  r.wgtfac_c = s.at("wgtfac_c").field();
  r.wgtfacq_c = s.at("wgtfacq_c").field();
  r.wgtfac_e = s.at("wgtfac_e").field();
  r.wgtfacq_e = s.at("wgtfacq_e").field();
  r.time_extrapolation_parameter_for_exner = s.at("time_extrapolation_parameter_for_exner").field();
  r.reference_exner_at_cells_on_model_levels =
      s.at("reference_exner_at_cells_on_model_levels").field();
  r.reference_rho_at_cells_on_model_levels = s.at("reference_rho_at_cells_on_model_levels").field();
  r.reference_theta_at_cells_on_model_levels = s.at("theta_ref_mc").field();
  r.reference_rho_at_edges_on_model_levels = s.at("reference_rho_at_edges_on_model_levels").field();
  r.reference_theta_at_edges_on_model_levels =
      s.at("reference_theta_at_edges_on_model_levels").field();
  r.reference_theta_at_cells_on_half_levels =
      s.at("reference_theta_at_cells_on_half_levels").field();
  r.ddz_of_reference_exner_at_cells_on_half_levels =
      s.at("ddz_of_reference_exner_at_cells_on_half_levels").field();
  r.ddqz_z_half = s.at("ddqz_z_half").field();
  r.d2dexdz2_fac1_mc = s.at("d2dexdz2_fac1_mc").field();
  r.d2dexdz2_fac2_mc = s.at("d2dexdz2_fac2_mc").field();
  r.ddxn_z_full = s.at("ddxn_z_full").field();
  r.ddqz_z_full_e = s.at("ddqz_z_full_e").field();
  r.ddxt_z_full = s.at("ddxt_z_full").field();
  r.inv_ddqz_z_full = s.at("inv_ddqz_z_full").field();
  r.vertoffset_gradp = s.at("vertoffset_gradp").int_field3();
  r.zdiff_gradp = s.at("zdiff_gradp").field3();
  r.pg_exdist = s.at("pg_exdist").field();
  r.exner_w_explicit_weight_parameter = s.at("exner_w_explicit_weight_parameter").vector();
  r.exner_w_implicit_weight_parameter = s.at("exner_w_implicit_weight_parameter").vector();
  r.horizontal_mask_for_3d_divdamp = s.at("horizontal_mask_for_3d_divdamp").vector();
  r.scaling_factor_for_3d_divdamp = s.at("scaling_factor_for_3d_divdamp").vector();
  r.coeff1_dwdz = s.at("coeff1_dwdz").field();
  r.coeff2_dwdz = s.at("coeff2_dwdz").field();
  r.coeff_gradekin = s.at("coeff_gradekin").table();
  r.e_bln_c_s = s.at("e_bln_c_s").table();
  r.geofac_div = s.at("geofac_div").table();
  r.geofac_n2s = s.at("geofac_n2s").table();
  r.geofac_grg_x = s.at("geofac_grg_x").table();
  r.geofac_grg_y = s.at("geofac_grg_y").table();
  r.nudgecoeff_e = s.at("nudgecoeff_e").vector();
  r.c_lin_e = s.at("c_lin_e").table();
  r.geofac_grdiv = s.at("geofac_grdiv").table();
  r.rbf_vec_coeff_e = s.at("rbf_vec_coeff_e").table();
  r.c_intp = s.at("c_intp").table();
  r.geofac_rot = s.at("geofac_rot").table();
  r.pos_on_tplane_e_1 = s.at("pos_on_tplane_e_1").table();
  r.pos_on_tplane_e_2 = s.at("pos_on_tplane_e_2").table();
  r.e_flx_avg = s.at("e_flx_avg").table();
  r.inverse_dual_edge_lengths = s.at("inverse_dual_edge_lengths").vector();
  r.inverse_primal_edge_lengths = s.at("inverse_primal_edge_lengths").vector();
  r.tangent_orientation = s.at("tangent_orientation").vector();
  r.edge_areas = s.at("edge_areas").vector();
  r.coriolis_frequency = s.at("coriolis_frequency").vector();
  r.primal_normal_cell_x = s.at("primal_normal_cell_x").table();
  r.primal_normal_cell_y = s.at("primal_normal_cell_y").table();
  r.dual_normal_cell_x = s.at("dual_normal_cell_x").table();
  r.dual_normal_cell_y = s.at("dual_normal_cell_y").table();
  r.area = s.at("cell_area").vector();
  r.mean_cell_area = in.mean_cell_area;
  r.owner_mask = as_bools(s.at("c_owner_mask").vector());
  return r;
}

reference::SolveNhConfig reference_config(const DycoreConfig& c) {
  reference::SolveNhConfig r;
  r.itime_scheme = c.itime_scheme;
  r.igradp_method = c.igradp_method;
  r.rayleigh_type = static_cast<int>(c.rayleigh_type);
  r.divdamp_order = static_cast<int>(c.divdamp_order);
  r.divdamp_type = static_cast<int>(c.divdamp_type);
  r.iau_init = c.iau_init;
  r.rhotheta_offctr = c.rhotheta_offctr;
  r.veladv_offctr = c.veladv_offctr;
  r.max_nudging_coefficient = c.max_nudging_coefficient;
  r.fourth_order_divdamp_factor = c.fourth_order_divdamp_factor;
  r.fourth_order_divdamp_factor2 = c.fourth_order_divdamp_factor2;
  r.fourth_order_divdamp_factor3 = c.fourth_order_divdamp_factor3;
  r.fourth_order_divdamp_factor4 = c.fourth_order_divdamp_factor4;
  r.fourth_order_divdamp_z = c.fourth_order_divdamp_z;
  r.fourth_order_divdamp_z2 = c.fourth_order_divdamp_z2;
  r.fourth_order_divdamp_z3 = c.fourth_order_divdamp_z3;
  r.fourth_order_divdamp_z4 = c.fourth_order_divdamp_z4;
  return r;
}

/// ICON-like scales for the statics a chain of substeps is sensitive to (random_dycore's [-1, 1)
/// is fine for one program call, not for six substeps: a pressure-gradient force of
/// cpd theta / dx times an O(1) coefficient, or a division by a layer thickness near 0, takes
/// the state to inf within a substep). Inverse lengths and gradient coefficients of a ~100 km
/// mesh, positive layer thicknesses, level slopes below 1e-3, positive interpolation weights, a
/// smooth reference atmosphere; everything else stays as random_dycore_inputs drew it.
const std::map<std::string, std::pair<double, double>>& icon_like_static_ranges() {
  static const std::map<std::string, std::pair<double, double>> ranges = {
      {"reference_rho_at_edges_on_model_levels", {0.5, 1.5}},
      {"reference_theta_at_edges_on_model_levels", {290.0, 310.0}},
      {"reference_rho_at_cells_on_model_levels", {0.5, 1.5}},
      {"theta_ref_mc", {290.0, 310.0}},
      {"reference_theta_at_cells_on_half_levels", {290.0, 310.0}},
      {"ddz_of_reference_exner_at_cells_on_half_levels", {-4e-5, -3e-5}},
      {"time_extrapolation_parameter_for_exner", {0.0, 0.5}},
      {"d2dexdz2_fac1_mc", {-1e-7, 1e-7}},
      {"d2dexdz2_fac2_mc", {-1e-7, 1e-7}},
      {"ddxn_z_full", {-1e-3, 1e-3}},
      {"ddxt_z_full", {-1e-3, 1e-3}},
      {"zdiff_gradp", {-50.0, 50.0}},
      {"horizontal_mask_for_3d_divdamp", {0.0, 1.0}},
      // Thin layers (20 m) where w reaches its CFL limits, as ICON's lowest levels.
      {"ddqz_z_half", {20.0, 500.0}},
      {"ddqz_z_full_e", {20.0, 500.0}},
      {"coeff1_dwdz", {1e-3, 1e-2}},
      {"coeff2_dwdz", {1e-3, 1e-2}},
      {"coeff_gradekin", {-2e-5, 2e-5}},
      {"wgtfac_e", {0.3, 0.7}},
      {"geofac_grg_x", {-1e-5, 1e-5}},
      {"geofac_grg_y", {-1e-5, 1e-5}},
      {"pos_on_tplane_e_1", {-5e4, 5e4}},
      {"pos_on_tplane_e_2", {-5e4, 5e4}},
      {"c_lin_e", {0.0, 1.0}},
      {"nudgecoeff_e", {0.0, 0.1}},
      {"geofac_grdiv", {-1e-2, 1e-2}},
      {"geofac_div", {-1e-5, 1e-5}},
      {"e_bln_c_s", {0.0, 0.5}},
      {"c_intp", {0.0, 0.5}},
      {"geofac_rot", {-1e-5, 1e-5}},
      {"geofac_n2s", {-0.1, 0.1}},
      {"e_flx_avg", {0.0, 0.4}},
      {"inverse_dual_edge_lengths", {5e-6, 2e-5}},
      {"inverse_primal_edge_lengths", {5e-6, 2e-5}},
      {"edge_areas", {0.5, 1.5}},
      {"coriolis_frequency", {-1.5e-4, 1.5e-4}},
      {"cell_area", {0.5, 1.5}},
  };
  return ranges;
}

/// Where fill_state's value (point i, slot j, level k) of `a` lies in its host copy.
std::size_t host_position(const HostArray& a, index_t i, int j, int k) {
  const std::size_t p = static_cast<std::size_t>(i);
  if (a.extents.size() == 1) return p;
  if (a.extents.size() == 2) return static_cast<std::size_t>(j + k) * a.extents[0] + p;
  return (static_cast<std::size_t>(k) * a.extents[1] + static_cast<std::size_t>(j)) * a.extents[0] +
         p;
}

/// Redraws the fields of `state` named in icon_like_static_ranges(), keeps the others' values.
template <class State>
void rescale_statics(State& state, HostArrays& statics, test::RandomSource& rng) {
  const HostArrays drawn = statics;
  const auto& ranges = icon_like_static_ranges();
  test::fill_state(
      state,
      [&](const FieldSpec& spec, index_t i, int j, int k) -> double {
        const auto range = ranges.find(spec.name);
        if (range != ranges.end()) return rng.uniform(range->second.first, range->second.second);
        const HostArray& a = drawn.at(spec.name);
        return a.values[host_position(a, i, j, k)];
      },
      statics);
}

/// random_dycore_inputs with icon_like_static_ranges().
DycoreInputs<M> icon_like_random_inputs(const DeviceGrid<M>& device, int nlev,
                                        test::RandomSource& rng, HostArrays& statics) {
  DycoreInputs<M> in = test::random_dycore_inputs(device, nlev, rng, statics);
  rescale_statics(in.metric, statics, rng);
  rescale_statics(in.interpolation, statics, rng);
  rescale_statics(in.edges, statics, rng);
  rescale_statics(in.cells, statics, rng);
  return in;
}

/// A random state near hydrostatic balance: theta_v, rho and exner close to the reference state
/// (exner within 1e-5, so that the vertical pressure gradient balances buoyancy to O(1e-1) m s-2),
/// the dycore tests' ranges elsewhere (random_dycore.hpp), small physics, boundary and IAU
/// tendencies, and a few strong updrafts and downdrafts (|w| 5-10 m/s in 5 % of the points,
/// against layers down to 20 m and 10 s steps), so that the vertical CFL clipping, its clamp
/// and the extra diffusion are hit and max_vertical_cfl is not 0.
test::FieldFiller state_filler(test::RandomSource& rng, const HostArrays& statics) {
  static const std::map<std::string, std::pair<double, double>> ranges = {
      {"vn", {-5.0, 5.0}},
      {"normal_wind_tendency_due_to_slow_physics_process", {-1e-3, 1e-3}},
      {"predictor_normal_wind_advective_tendency", {-1e-3, 1e-3}},
      {"corrector_normal_wind_advective_tendency", {-1e-3, 1e-3}},
      {"normal_wind_iau_increment", {-1e-2, 1e-2}},
      {"perturbed_exner_at_cells_on_model_levels", {-1e-5, 1e-5}},
      {"exner_iau_increment", {-1e-7, 1e-7}},
      {"rho_iau_increment", {-1e-4, 1e-4}},
      {"grf_tend_rho", {-1e-4, 1e-4}},
      {"grf_tend_thv", {-1e-2, 1e-2}},
      {"grf_tend_w", {-1e-2, 1e-2}},
      {"grf_tend_vn", {-1e-2, 1e-2}},
      {"theta_v_at_cells_on_half_levels", {290.0, 310.0}},
      {"exner_dynamical_increment", {-1e-5, 1e-5}},
  };
  const HostField<double> exner_ref =
      statics.at("reference_exner_at_cells_on_model_levels").field();
  const HostField<double> theta_ref = statics.at("theta_ref_mc").field();
  const HostField<double> rho_ref = statics.at("reference_rho_at_cells_on_model_levels").field();
  // The field's rule is looked up once per field (fill_state fills field by field), not per value.
  enum class Rule { W, Exner, ThetaV, Rho, Range };
  struct Current {
    const char* name = nullptr;
    Rule rule = Rule::Range;
    std::pair<double, double> range{-1.0, 1.0};
  };
  return [&rng, exner_ref, theta_ref, rho_ref, current = Current{}](
             const FieldSpec& spec, index_t i, int, int k) mutable -> double {
    if (spec.name != current.name) {
      const std::string name = spec.name;
      current.name = spec.name;
      current.rule = name == "w"         ? Rule::W
                     : name == "exner"   ? Rule::Exner
                     : name == "theta_v" ? Rule::ThetaV
                     : name == "rho"     ? Rule::Rho
                                         : Rule::Range;
      const auto own = ranges.find(name);
      const auto& standard = test::dycore_value_ranges();
      const auto other = standard.find(name);
      current.range = own != ranges.end()       ? own->second
                      : other != standard.end() ? other->second
                                                : std::pair<double, double>{-1.0, 1.0};
    }
    switch (current.rule) {
      case Rule::W:
        return rng.uniform() > 0.9 ? (rng.uniform() < 0 ? -1.0 : 1.0) * rng.uniform(5.0, 10.0)
                                   : rng.uniform();
      case Rule::Exner: return exner_ref(i, k) + rng.uniform(-1e-5, 1e-5);
      case Rule::ThetaV: return theta_ref(i, k) + rng.uniform(-1.0, 1.0);
      case Rule::Rho: return rho_ref(i, k) + rng.uniform(-0.01, 0.01);
      case Rule::Range: break;
    }
    return rng.uniform(current.range.first, current.range.second);
  };
}

// ---- The two sides' fields by name -------------------------------------------------------------

/// Every field of the granule's states and locals as host copies, under "<group>.<name>".
template <class State>
void add_host_copies(const std::string& group, const State& state, HostArrays& out) {
  State::for_each_field(
      [&](const FieldSpec& spec, const auto& view) {
        if (view.size() > 0) out[group + "." + spec.name] = test::to_host_array(view);
      },
      state);
}

/// The reference's fields under the granule's names (the tendency pairs as ICON4Py's
/// PredictorCorrectorPair, the 1-D view of z_hydro_corr as level nlev - 1).
std::map<std::string, const HostField<double>*> reference_fields(
    const reference::SolveNhPrognosticState& now, const reference::SolveNhPrognosticState& next,
    const reference::SolveNhDiagnosticState& d, const reference::SolveNhPrepAdvection& p,
    const reference::SolveNhLocals& z, int nlev, HostField<double>& lowest) {
  std::map<std::string, const HostField<double>*> r;
  using Level = std::pair<std::string, const reference::SolveNhPrognosticState*>;
  const Level levels[] = {{"current", &now}, {"next", &next}};
  for (const auto& [group, state] : levels) {
    r[group + ".w"] = &state->w;
    r[group + ".vn"] = &state->vn;
    r[group + ".theta_v"] = &state->theta_v;
    r[group + ".rho"] = &state->rho;
    r[group + ".exner"] = &state->exner;
  }
  const std::string g = "diagnostic.";
  r[g + "tangential_wind"] = &d.tangential_wind;
  r[g + "vn_on_half_levels"] = &d.vn_on_half_levels;
  r[g + "contravariant_correction_at_cells_on_half_levels"] =
      &d.contravariant_correction_at_cells_on_half_levels;
  r[g + "theta_v_at_cells_on_half_levels"] = &d.theta_v_at_cells_on_half_levels;
  r[g + "perturbed_exner_at_cells_on_model_levels"] = &d.perturbed_exner_at_cells_on_model_levels;
  r[g + "rho_at_cells_on_half_levels"] = &d.rho_at_cells_on_half_levels;
  r[g + "exner_tendency_due_to_slow_physics"] = &d.exner_tendency_due_to_slow_physics;
  r[g + "grf_tend_rho"] = &d.grf_tend_rho;
  r[g + "grf_tend_thv"] = &d.grf_tend_thv;
  r[g + "grf_tend_w"] = &d.grf_tend_w;
  r[g + "mass_flux_at_edges_on_model_levels"] = &d.mass_flux_at_edges_on_model_levels;
  r[g + "normal_wind_tendency_due_to_slow_physics_process"] =
      &d.normal_wind_tendency_due_to_slow_physics_process;
  r[g + "grf_tend_vn"] = &d.grf_tend_vn;
  r[g + "predictor_normal_wind_advective_tendency"] = &d.normal_wind_advective_tendency.predictor;
  r[g + "corrector_normal_wind_advective_tendency"] = &d.normal_wind_advective_tendency.corrector;
  r[g + "predictor_vertical_wind_advective_tendency"] =
      &d.vertical_wind_advective_tendency.predictor;
  r[g + "corrector_vertical_wind_advective_tendency"] =
      &d.vertical_wind_advective_tendency.corrector;
  r[g + "rho_iau_increment"] = &d.rho_iau_increment;
  r[g + "normal_wind_iau_increment"] = &d.normal_wind_iau_increment;
  r[g + "exner_iau_increment"] = &d.exner_iau_increment;
  r[g + "exner_dynamical_increment"] = &d.exner_dynamical_increment;
  r["prep_adv.vn_traj"] = &p.vn_traj;
  r["prep_adv.mass_flx_me"] = &p.mass_flx_me;
  r["prep_adv.dynamical_vertical_mass_flux_at_cells_on_half_levels"] =
      &p.dynamical_vertical_mass_flux_at_cells_on_half_levels;
  r["prep_adv.dynamical_vertical_volumetric_flux_at_cells_on_half_levels"] =
      &p.dynamical_vertical_volumetric_flux_at_cells_on_half_levels;
  const std::string l = "local.";
  r[l + "temporal_extrapolation_of_perturbed_exner"] = &z.temporal_extrapolation_of_perturbed_exner;
  r[l + "exner_at_cells_on_half_levels"] = &z.exner_at_cells_on_half_levels;
  r[l + "ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels"] =
      &z.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  r[l + "d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels"] =
      &z.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  r[l + "perturbed_theta_v_at_cells_on_half_levels"] = &z.perturbed_theta_v_at_cells_on_half_levels;
  r[l + "nonhydro_buoy_at_cells_on_half_levels"] = &z.nonhydro_buoy_at_cells_on_half_levels;
  r[l + "perturbed_rho_at_cells_on_model_levels"] = &z.perturbed_rho_at_cells_on_model_levels;
  r[l + "perturbed_theta_v_at_cells_on_model_levels"] =
      &z.perturbed_theta_v_at_cells_on_model_levels;
  r[l + "spatially_averaged_vn"] = &z.z_vn_avg;
  r[l + "theta_v_flux_at_edges_on_model_levels"] = &z.theta_v_flux_at_edges_on_model_levels;
  r[l + "contravariant_correction_at_edges_on_model_levels"] =
      &z.contravariant_correction_at_edges_on_model_levels;
  r[l + "hydrostatic_correction"] = &z.hydrostatic_correction_on_lowest_level;
  lowest = HostField<double>(z.hydrostatic_correction_on_lowest_level.points, 1);
  for (index_t e = 0; e < lowest.points; ++e)
    lowest(e, 0) = z.hydrostatic_correction_on_lowest_level(e, nlev - 1);
  r[l + "hydrostatic_correction_on_lowest_level"] = &lowest;
  r[l + "horizontal_pressure_gradient"] = &z.horizontal_pressure_gradient;
  r[l + "rho_at_edges_on_model_levels"] = &z.rho_at_edges_on_model_levels;
  r[l + "theta_v_at_edges_on_model_levels"] = &z.theta_v_at_edges_on_model_levels;
  r[l + "horizontal_kinetic_energy_at_edges_on_model_levels"] =
      &z.horizontal_kinetic_energy_at_edges_on_model_levels;
  r[l + "tangential_wind_on_half_levels"] = &z.tangential_wind_on_half_levels;
  r[l + "horizontal_gradient_of_normal_wind_divergence"] =
      &z.horizontal_gradient_of_normal_wind_divergence;
  r[l + "dwdz_at_cells_on_model_levels"] = &z.dwdz_at_cells_on_model_levels;
  r[l + "horizontal_advection_of_w_at_edges_on_half_levels"] =
      &z.horizontal_advection_of_w_at_edges_on_half_levels;
  r[l + "contravariant_corrected_w_at_cells_on_model_levels"] =
      &z.contravariant_corrected_w_at_cells_on_model_levels;
  r[l + "vertical_cfl"] = &z.vertical_cfl;
  return r;
}

/// A 1-D host array as a (points, 1) field.
HostField<double> as_field(const HostArray& a) {
  if (a.extents.size() == 2) return a.field();
  HostField<double> f(static_cast<index_t>(a.extents.at(0)), 1);
  f.values = a.values;
  return f;
}

bool same_bits(double a, double b) {
  std::uint64_t x, y;
  std::memcpy(&x, &a, sizeof(double));
  std::memcpy(&y, &b, sizeof(double));
  return x == y;
}

/// Bit-for-bit equality; on failure the first differing point, the count and the largest
/// difference.
::testing::AssertionResult bitwise_equal(const std::string& name, const HostField<double>& granule,
                                         const HostField<double>& reference) {
  if (granule.points != reference.points || granule.levels != reference.levels)
    return ::testing::AssertionFailure()
           << name << ": shape (" << granule.points << ", " << granule.levels
           << ") != the reference's (" << reference.points << ", " << reference.levels << ")";
  std::size_t differ = 0;
  double largest = 0;
  index_t first_point = -1;
  int first_level = -1;
  for (int k = 0; k < granule.levels; ++k)
    for (index_t p = 0; p < granule.points; ++p) {
      const double a = granule(p, k), b = reference(p, k);
      if (same_bits(a, b)) continue;
      if (differ++ == 0) {
        first_point = p;
        first_level = k;
      }
      const double d = std::fabs(a - b);
      largest = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(largest, d);
    }
  if (differ == 0) return ::testing::AssertionSuccess();
  std::ostringstream s;
  s.precision(17);
  s << name << ": " << differ << " of " << granule.values.size()
    << " values differ from the reference; first at point " << first_point << ", level "
    << first_level << ": granule " << granule(first_point, first_level) << ", reference "
    << reference(first_point, first_level) << "; largest difference " << largest;
  return ::testing::AssertionFailure() << s.str();
}

std::size_t count_changed(const HostField<double>& after, const HostField<double>& before) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < after.values.size(); ++i)
    n += same_bits(after.values[i], before.values[i]) ? 0 : 1;
  return n;
}

std::size_t count_not_finite(const HostField<double>& f) {
  std::size_t n = 0;
  for (const double v : f.values) n += std::isfinite(v) ? 0 : 1;
  return n;
}

// ---- Cases -------------------------------------------------------------------------------------

struct PhysicsStep {
  double dtime;
  int substeps;
  double second_order_divdamp_factor;
  bool iau_active = false;
  double iau_wgt_dyn = 0;
};

struct Case {
  std::string name;
  DycoreConfig config;
  bool initial = false;  ///< the first physics step is the model's first
  bool lprep_adv = false;
  bool iau_increments = false;  ///< random IAU increments (else absent: empty Views)
  std::vector<PhysicsStep> steps;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  {
    // divdamp_order 24: factor 0 gives 4th order only, 0.032 (> 4 divdamp_fac) 2nd order only.
    Case c{"initial, prep_adv, divdamp 24/3", DycoreConfig{}, true, true, false, {}};
    c.steps = {{10.0, 3, 0.0}, {8.0, 2, 0.032}};
    out.push_back(c);
  }
  {
    // 0.004 (<= 4 divdamp_fac, scaled > 1e-6): both orders; the same dtime in both steps.
    Case c{"continuing, no prep_adv, divdamp 24/32", DycoreConfig{}, false, false, false, {}};
    c.config.divdamp_type = DivergenceDampingType::Combined;
    c.steps = {{10.0, 3, 0.004}, {10.0, 3, 0.0}};
    out.push_back(c);
  }
  {
    Case c{"IAU, prep_adv", DycoreConfig{}, true, true, true, {}};
    c.config.iau_init = true;
    c.steps = {{10.0, 3, 0.004, true, 0.5}, {7.5, 2, 0.0, false, 0.0}};
    out.push_back(c);
  }
  {
    Case c{"IAU from the second step, divdamp 2/32", DycoreConfig{}, false, false, true, {}};
    c.config.iau_init = true;
    c.config.divdamp_order = DivergenceDampingOrder::SecondOrder;
    c.config.divdamp_type = DivergenceDampingType::Combined;
    c.steps = {{10.0, 2, 0.02, false, 0.0}, {12.0, 3, 0.0, true, 0.25}};
    out.push_back(c);
  }
  {
    Case c{"divdamp 4/3, prep_adv", DycoreConfig{}, true, true, false, {}};
    c.config.divdamp_order = DivergenceDampingOrder::FourthOrder;
    c.steps = {{10.0, 3, 0.1}, {9.0, 2, 0.0}};
    out.push_back(c);
  }
  return out;
}

/// Which fields a substep writes (ICON4Py's time_step with these switches): those must change,
/// the others (inputs, time level `current`, fields this substep does not touch) must not.
bool written(const std::string& name, bool at_first_substep, bool at_last_substep,
             bool at_initial_timestep, bool lprep_adv) {
  if (name.rfind("next.", 0) == 0) return true;
  if (name.rfind("current.", 0) == 0) return false;
  if (name.rfind("prep_adv.", 0) == 0) return lprep_adv;
  static const std::vector<std::string> every_substep = {
      "diagnostic.tangential_wind",
      "diagnostic.vn_on_half_levels",
      "diagnostic.contravariant_correction_at_cells_on_half_levels",
      "diagnostic.theta_v_at_cells_on_half_levels",
      "diagnostic.perturbed_exner_at_cells_on_model_levels",
      "diagnostic.rho_at_cells_on_half_levels",
      "diagnostic.mass_flux_at_edges_on_model_levels",
      "diagnostic.corrector_normal_wind_advective_tendency",
      "diagnostic.corrector_vertical_wind_advective_tendency"};
  for (const auto& n : every_substep)
    if (name == n) return true;
  if (name == "diagnostic.predictor_normal_wind_advective_tendency") return at_first_substep;
  if (name == "diagnostic.predictor_vertical_wind_advective_tendency")
    return at_first_substep && at_initial_timestep;
  if (name == "diagnostic.exner_dynamical_increment") return at_first_substep || at_last_substep;
  return false;  // the inputs: physics, boundary and IAU tendencies
}

/// A diagnostic/prognostic/prep_adv field of the reference: the granule's host copy, or zeros
/// where the granule was given an empty View (what ICON4Py holds for an absent field).
HostField<double> reference_copy(const HostArrays& host, const std::string& name, index_t points,
                                 int levels) {
  const auto it = host.find(name);
  if (it != host.end()) return it->second.field();
  return HostField<double>(points, levels, 0.0);
}

/// What a case saw of the vertical CFL number.
struct CflSeen {
  std::size_t clipped = 0;  ///< points with a nonzero vertical_cfl, over every substep
  double largest = 0;       ///< the largest max_vertical_cfl
};

/// The statics of one grid, shared by its cases.
struct GridStatics {
  HostArrays host;
  DycoreInputs<M> in;
  std::vector<double> vct_a;
};

GridStatics grid_statics(const test::DycoreGridCase& g) {
  GridStatics s;
  test::RandomSource rng(test::dycore_seed("solve_nh statics " + g.name));
  s.in = icon_like_random_inputs(DeviceGrid<M>(g.grid), g.nlev, rng, s.host);
  s.vct_a = make_vct_a(g.nlev, rng);
  return s;
}

void run_case(const test::DycoreGridCase& g, const GridStatics& gs, const Case& c, CflSeen& cfl) {
  SCOPED_TRACE(g.name + ": " + c.name);
  const Grid& grid = g.grid;
  const int nlev = g.nlev;
  const HostArrays& statics = gs.host;
  const DycoreInputs<M>& in = gs.in;
  const std::vector<double>& vct_a = gs.vct_a;

  SolveNonhydro<Space> granule(c.config, in, vct_a);
  reference::SolveNhReference ref = reference::make_solve_nh_reference(
      grid, reference_config(c.config), reference_statics(statics, in, vct_a));

  // The fourth-order damping profile of __init__.
  {
    const auto factor = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(), granule.interpolated_fourth_order_divdamp_factor());
    ASSERT_EQ(factor.extent(0), static_cast<std::size_t>(nlev));
    for (int k = 0; k < nlev; ++k)
      EXPECT_TRUE(same_bits(factor(k), ref.locals.interpolated_fourth_order_divdamp_factor[k]))
          << "interpolated_fourth_order_divdamp_factor level " << k << ": " << factor(k)
          << " != " << ref.locals.interpolated_fourth_order_divdamp_factor[k];
  }

  // The random state (the same values on both sides).
  test::RandomSource rng(test::dycore_seed("solve_nh state " + g.name + " " + c.name));
  const test::FieldFiller fill = state_filler(rng, statics);
  const FieldSizes sizes = in.sizes();
  HostArrays host;
  SolveNhPrognosticState<M> now =
      test::random_state<SolveNhPrognosticState, M>(sizes, fill, host, "icondiff::test::now_");
  HostArrays host_new;
  SolveNhPrognosticState<M> next =
      test::random_state<SolveNhPrognosticState, M>(sizes, fill, host_new, "icondiff::test::new_");
  SolveNhDiagnosticState<M> diagnostic =
      test::random_state<SolveNhDiagnosticState, M>(sizes, fill, host, "icondiff::test::");
  SolveNhPrepAdvection<M> prep_adv =
      test::random_state<SolveNhPrepAdvection, M>(sizes, fill, host, "icondiff::test::");
  // Absent optional inputs: the boundary tendencies off limited-area grids, the IAU increments
  // without them (the granule then passes zeros, as ICON4Py holds them).
  std::vector<std::string> absent;
  if (!grid.limited_area) {
    diagnostic.grf_tend_rho = {};
    diagnostic.grf_tend_thv = {};
    diagnostic.grf_tend_w = {};
    diagnostic.grf_tend_vn = {};
    absent.insert(absent.end(), {"grf_tend_rho", "grf_tend_thv", "grf_tend_w", "grf_tend_vn"});
  }
  if (!c.iau_increments) {
    diagnostic.rho_iau_increment = {};
    diagnostic.normal_wind_iau_increment = {};
    diagnostic.exner_iau_increment = {};
    absent.insert(absent.end(),
                  {"rho_iau_increment", "normal_wind_iau_increment", "exner_iau_increment"});
  }
  for (const auto& name : absent) host.erase(name);

  const index_t nc = grid.num_cells, ne = grid.num_edges;
  const auto take = [&](const HostArrays& from, const char* name, index_t points, int levels) {
    return reference_copy(from, name, points, levels);
  };
  reference::SolveNhPrognosticState ref_now{
      take(host, "w", nc, nlev + 1), take(host, "vn", ne, nlev), take(host, "theta_v", nc, nlev),
      take(host, "rho", nc, nlev), take(host, "exner", nc, nlev)};
  reference::SolveNhPrognosticState ref_next{
      take(host_new, "w", nc, nlev + 1), take(host_new, "vn", ne, nlev),
      take(host_new, "theta_v", nc, nlev), take(host_new, "rho", nc, nlev),
      take(host_new, "exner", nc, nlev)};
  reference::SolveNhDiagnosticState ref_diag;
  ref_diag.tangential_wind = take(host, "tangential_wind", ne, nlev);
  ref_diag.vn_on_half_levels = take(host, "vn_on_half_levels", ne, nlev + 1);
  ref_diag.contravariant_correction_at_cells_on_half_levels =
      take(host, "contravariant_correction_at_cells_on_half_levels", nc, nlev + 1);
  ref_diag.theta_v_at_cells_on_half_levels =
      take(host, "theta_v_at_cells_on_half_levels", nc, nlev + 1);
  ref_diag.perturbed_exner_at_cells_on_model_levels =
      take(host, "perturbed_exner_at_cells_on_model_levels", nc, nlev);
  ref_diag.rho_at_cells_on_half_levels = take(host, "rho_at_cells_on_half_levels", nc, nlev + 1);
  ref_diag.exner_tendency_due_to_slow_physics =
      take(host, "exner_tendency_due_to_slow_physics", nc, nlev);
  ref_diag.grf_tend_rho = take(host, "grf_tend_rho", nc, nlev);
  ref_diag.grf_tend_thv = take(host, "grf_tend_thv", nc, nlev);
  ref_diag.grf_tend_w = take(host, "grf_tend_w", nc, nlev + 1);
  ref_diag.mass_flux_at_edges_on_model_levels =
      take(host, "mass_flux_at_edges_on_model_levels", ne, nlev);
  ref_diag.normal_wind_tendency_due_to_slow_physics_process =
      take(host, "normal_wind_tendency_due_to_slow_physics_process", ne, nlev);
  ref_diag.grf_tend_vn = take(host, "grf_tend_vn", ne, nlev);
  ref_diag.normal_wind_advective_tendency.predictor =
      take(host, "predictor_normal_wind_advective_tendency", ne, nlev);
  ref_diag.normal_wind_advective_tendency.corrector =
      take(host, "corrector_normal_wind_advective_tendency", ne, nlev);
  ref_diag.vertical_wind_advective_tendency.predictor =
      take(host, "predictor_vertical_wind_advective_tendency", nc, nlev + 1);
  ref_diag.vertical_wind_advective_tendency.corrector =
      take(host, "corrector_vertical_wind_advective_tendency", nc, nlev + 1);
  ref_diag.rho_iau_increment = take(host, "rho_iau_increment", nc, nlev);
  ref_diag.normal_wind_iau_increment = take(host, "normal_wind_iau_increment", ne, nlev);
  ref_diag.exner_iau_increment = take(host, "exner_iau_increment", nc, nlev);
  ref_diag.exner_dynamical_increment = take(host, "exner_dynamical_increment", nc, nlev);
  reference::SolveNhPrepAdvection ref_prep{
      take(host, "vn_traj", ne, nlev), take(host, "mass_flx_me", ne, nlev),
      take(host, "dynamical_vertical_mass_flux_at_cells_on_half_levels", nc, nlev + 1),
      take(host, "dynamical_vertical_volumetric_flux_at_cells_on_half_levels", nc, nlev + 1)};

  const auto granule_fields = [&](bool with_locals) {
    HostArrays out;
    add_host_copies("current", now, out);
    add_host_copies("next", next, out);
    add_host_copies("diagnostic", diagnostic, out);
    add_host_copies("prep_adv", prep_adv, out);
    if (with_locals) add_host_copies("local", granule.local_fields(), out);
    return out;
  };

  for (std::size_t s = 0; s < c.steps.size(); ++s) {
    const PhysicsStep& physics = c.steps[s];
    diagnostic.max_vertical_cfl = 0.0;  // ICON: at the start of each physics step
    ref_diag.max_vertical_cfl = 0.0;
    for (int j = 0; j < physics.substeps; ++j) {
      SolveNhStep step;
      step.second_order_divdamp_factor = physics.second_order_divdamp_factor;
      step.dtime = physics.dtime;
      step.ndyn_substeps_var = physics.substeps;
      step.at_initial_timestep = c.initial && s == 0;
      step.lprep_adv = c.lprep_adv;
      step.at_first_substep = j == 0;
      step.at_last_substep = j == physics.substeps - 1;
      step.is_iau_active = physics.iau_active;
      step.iau_wgt_dyn = physics.iau_wgt_dyn;
      SCOPED_TRACE("physics step " + std::to_string(s) + ", substep " + std::to_string(j));

      // icon4py_driver's _update_time_levels_for_velocity_tendencies (ICON's ntl1/ntl2).
      if (!(step.at_initial_timestep && step.at_first_substep)) {
        std::swap(diagnostic.predictor_vertical_wind_advective_tendency,
                  diagnostic.corrector_vertical_wind_advective_tendency);
        ref_diag.vertical_wind_advective_tendency.swap();
      }
      if (!step.at_first_substep) {
        std::swap(diagnostic.predictor_normal_wind_advective_tendency,
                  diagnostic.corrector_normal_wind_advective_tendency);
        ref_diag.normal_wind_advective_tendency.swap();
      }

      const HostArrays before = granule_fields(false);
      granule.time_step(Space(), diagnostic, now, next, prep_adv, step);
      reference::SolveNhTimeStepArgs args;
      args.second_order_divdamp_factor = step.second_order_divdamp_factor;
      args.dtime = step.dtime;
      args.ndyn_substeps_var = step.ndyn_substeps_var;
      args.at_initial_timestep = step.at_initial_timestep;
      args.lprep_adv = step.lprep_adv;
      args.at_first_substep = step.at_first_substep;
      args.at_last_substep = step.at_last_substep;
      args.is_iau_active = step.is_iau_active;
      args.iau_wgt_dyn = step.iau_wgt_dyn;
      reference::solve_nh_time_step(ref, ref_diag, ref_now, ref_next, ref_prep, args);

      const HostArrays after = granule_fields(true);
      HostField<double> lowest;
      const auto expected =
          reference_fields(ref_now, ref_next, ref_diag, ref_prep, ref.locals, nlev, lowest);
      std::size_t mismatched = 0, not_finite = 0;
      for (const auto& [name, array] : after) {
        const HostField<double> field = as_field(array);
        const auto r = expected.find(name);
        if (r == expected.end()) {
          ADD_FAILURE() << name << ": the reference has no such field";
          continue;
        }
        const ::testing::AssertionResult same = bitwise_equal(name, field, *r->second);
        EXPECT_TRUE(same);
        mismatched += same ? 0 : 1;
        const std::size_t bad = count_not_finite(field);
        EXPECT_EQ(bad, 0u) << name << " is not finite";
        not_finite += bad;
        if (name.rfind("local.", 0) == 0) continue;
        const std::size_t changed = count_changed(field, as_field(before.at(name)));
        if (written(name, step.at_first_substep, step.at_last_substep, step.at_initial_timestep,
                    step.lprep_adv))
          EXPECT_GT(changed, 0u) << name << " should have been written";
        else
          EXPECT_EQ(changed, 0u) << name << " should not have been written";
      }
      // Every field of the reference was compared but the absent inputs (the granule's empty
      // Views; the reference's zeros).
      EXPECT_EQ(after.size() + absent.size(), expected.size());
      EXPECT_TRUE(same_bits(diagnostic.max_vertical_cfl, ref_diag.max_vertical_cfl))
          << "max_vertical_cfl: granule " << diagnostic.max_vertical_cfl << ", reference "
          << ref_diag.max_vertical_cfl;
      EXPECT_TRUE(std::isfinite(diagnostic.max_vertical_cfl));
      cfl.largest = std::max(cfl.largest, diagnostic.max_vertical_cfl);
      for (const double v : ref.locals.vertical_cfl.values) cfl.clipped += v != 0 ? 1 : 0;
      ASSERT_EQ(mismatched + not_finite, 0u)
          << "stopping this case at its first mismatching or non-finite substep";

      // The driver's prognostic_states.swap() after every substep (and after the step).
      std::swap(now, next);
      std::swap(ref_now, ref_next);
    }
  }
}

/// The torus (12 levels) and the global and limited-area grids (10 levels).
std::vector<test::DycoreGridCase> granule_grids() {
  std::vector<test::DycoreGridCase> grids = test::dycore_grids();
  for (auto& g : grids) g.nlev = std::max(g.nlev, 10);
  return grids;
}

TEST(TEST_CATEGORY, SolveNhGranuleSubstepsMatchReference) {
  if (sizeof(vp) == sizeof(float))
    GTEST_SKIP() << "mixed precision: the substep chain is compared bit for bit in double only "
                    "(each program is compared within tolerance in test_dycore_edge_programs, "
                    "test_dycore_solver, test_velocity_advection, test_solve_nonhydro_programs)";
  for (const auto& g : granule_grids()) {
    CflSeen cfl;
    const GridStatics statics = grid_statics(g);
    for (const Case& c : cases()) run_case(g, statics, c, cfl);
    // The CFL clipping, its clamp and the reduction were exercised on every grid (else
    // max_vertical_cfl proves little).
    EXPECT_GT(cfl.clipped, 0u) << g.name << ": no vertical CFL clipping";
    EXPECT_GT(cfl.largest, 0.85) << g.name << ": max_vertical_cfl never beyond the clamp";
  }
}

// ---- Errors ------------------------------------------------------------------------------------

TEST(TEST_CATEGORY, SolveNhGranuleRefusesBadInputsNamingThem) {
  for (const auto& g : granule_grids()) {
    SCOPED_TRACE(g.name);
    const DeviceGrid<M> device(g.grid);
    test::RandomSource rng(test::dycore_seed("solve_nh errors " + g.name));
    HostArrays statics;
    const DycoreInputs<M> in = icon_like_random_inputs(device, g.nlev, rng, statics);
    const std::vector<double> vct_a = make_vct_a(g.nlev, rng);

    // The constructor: what ICON4Py's NonHydrostaticConfig refuses, and a vct_a of wrong size.
    {
      DycoreConfig config;
      config.rayleigh_type = RayleighType::Classic;
      test::expect_throw_naming<ConfigError>([&] { SolveNonhydro<Space> s(config, in, vct_a); },
                                             {"rayleigh_type"}, "rayleigh 1");
      config = DycoreConfig{};
      config.divdamp_type = DivergenceDampingType::TwoDimensional;
      test::expect_throw_naming<ConfigError>([&] { SolveNonhydro<Space> s(config, in, vct_a); },
                                             {"divdamp_type"}, "divdamp type 2");
      std::vector<double> short_vct_a(vct_a.begin(), vct_a.end() - 1);
      test::expect_throw_naming<InvalidArgument>(
          [&] { SolveNonhydro<Space> s(DycoreConfig{}, in, short_vct_a); }, {"vct_a"},
          "vct_a of nlev values");
    }

    DycoreConfig iau_config;
    iau_config.iau_init = true;
    SolveNonhydro<Space> granule(DycoreConfig{}, in, vct_a);
    SolveNonhydro<Space> iau_granule(iau_config, in, vct_a);
    const FieldSizes sizes = in.sizes();
    const test::FieldFiller fill = state_filler(rng, statics);
    HostArrays host;
    const auto now =
        test::random_state<SolveNhPrognosticState, M>(sizes, fill, host, "icondiff::test::now_");
    const auto next =
        test::random_state<SolveNhPrognosticState, M>(sizes, fill, host, "icondiff::test::new_");
    const auto good_diagnostic =
        test::random_state<SolveNhDiagnosticState, M>(sizes, fill, host, "icondiff::test::");
    const auto prep_adv =
        test::random_state<SolveNhPrepAdvection, M>(sizes, fill, host, "icondiff::test::");
    SolveNhStep good_step;
    good_step.dtime = 10.0;
    good_step.ndyn_substeps_var = 2;
    good_step.at_first_substep = true;
    good_step.at_initial_timestep = true;

    const auto refuses = [&](SolveNonhydro<Space>& s, SolveNhDiagnosticState<M> diagnostic,
                             const SolveNhPrognosticState<M>& current,
                             const SolveNhPrognosticState<M>& new_state, const SolveNhStep& step,
                             std::initializer_list<std::string> names, const char* what) {
      test::expect_throw_naming<InvalidArgument>(
          [&] { s.time_step(Space(), diagnostic, current, new_state, prep_adv, step); }, names,
          what);
    };

    {
      SolveNhDiagnosticState<M> d = good_diagnostic;
      d.tangential_wind = decltype(d.tangential_wind)("short", device.num_edges, g.nlev - 1);
      refuses(granule, d, now, next, good_step, {"tangential_wind"}, "wrong extents");
    }
    {
      SolveNhPrognosticState<M> bad_next = next;
      bad_next.w = decltype(bad_next.w)("full-level w", device.num_cells, g.nlev);
      refuses(granule, good_diagnostic, now, bad_next, good_step, {"w"}, "next w on full levels");
    }
    refuses(granule, good_diagnostic, now, now, good_step, {"next"}, "current == next");
    {
      SolveNhStep step = good_step;
      step.is_iau_active = true;
      step.iau_wgt_dyn = 0.5;
      refuses(granule, good_diagnostic, now, next, step, {"iau_init"},
              "IAU active without iau_init");
      SolveNhDiagnosticState<M> d = good_diagnostic;
      d.exner_iau_increment = {};
      refuses(iau_granule, d, now, next, step, {"exner_iau_increment"},
              "IAU active without its increment");
    }
    if (g.grid.limited_area) {
      SolveNhDiagnosticState<M> d = good_diagnostic;
      d.grf_tend_vn = {};
      refuses(granule, d, now, next, good_step, {"grf_tend_vn"},
              "limited area without grf_tend_vn");
      d = good_diagnostic;
      d.grf_tend_w = {};
      refuses(granule, d, now, next, good_step, {"grf_tend_w"}, "limited area without grf_tend_w");
    }
    {
      SolveNhStep step = good_step;
      step.dtime = 0.0;
      refuses(granule, good_diagnostic, now, next, step, {"dtime"}, "dtime 0");
      step.dtime = -10.0;
      refuses(granule, good_diagnostic, now, next, step, {"dtime"}, "dtime < 0");
      step = good_step;
      step.ndyn_substeps_var = 0;
      refuses(granule, good_diagnostic, now, next, step, {"ndyn_substeps_var"},
              "ndyn_substeps_var 0");
    }
    // The refusals left nothing half-done: a good call still runs.
    SolveNhDiagnosticState<M> d = good_diagnostic;
    EXPECT_NO_THROW(granule.time_step(Space(), d, now, next, prep_adv, good_step));
  }
}

}  // namespace solve_nh_granule_test
}  // namespace icondiff
