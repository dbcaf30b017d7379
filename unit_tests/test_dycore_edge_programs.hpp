// The dycore's edge programs (compute_rho_theta_pgrad_and_update_vn,
// apply_divergence_damping_and_update_vn) run through Dycore<ExecSpace> against the independent
// plain-loop reference written from ICON4Py's field operators (unit_tests/reference/
// dycore_reference.hpp), on seeded random inputs, on the torus and a global and a limited-area
// grid (real files when present, else generated), for every flag combination, over
// solve_nonhydro's domains and over random sub-domains. Outputs start poisoned (NaN) or random;
// whole arrays are compared, and every point outside the domain must keep its initial bits.
// Double builds must agree with the reference exactly (same operation order, no contraction);
// mixed-precision builds within the stencil tolerance. Compiled once per backend.
#include "reference/dycore_reference.hpp"
#include "support/dycore_test_cases.hpp"
#include "support/field_compare.hpp"
#include "support/random_dycore.hpp"
#include "support/simple_grid.hpp"
#include "support/test_grids.hpp"

#include <icondiff/core/state_ops.hpp>
#include <icondiff/dycore/dycore.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace icondiff {
namespace dycore_test {

using M = TEST_MEMSPACE;
using Space = TEST_EXECSPACE;
using test::HostArray;
using test::HostArrays;
using test::HostField;

HostArray as_array(const HostField<double>& f) {
  return {{static_cast<std::size_t>(f.points), static_cast<std::size_t>(f.levels)}, f.values};
}

/// The reference's output next to the kernel's (test::expect_dycore_output) with the program's
/// domain: points and levels.
void expect_output(const std::string& what, const HostArray& kernel, const HostArray& reference,
                   const HostArray& initial, const ProgramDomain& domain) {
  test::expect_dycore_output(what, kernel.field(), reference.field(), initial.field(),
                             [&](index_t p, int level) {
                               return domain.horizontal.contains(p) &&
                                      level >= domain.vertical_start && level < domain.vertical_end;
                             });
}

/// A random sub-domain of `full` (at least one point and level).
ProgramDomain random_subdomain(const ProgramDomain& full, test::RandomSource& rng) {
  ProgramDomain d = full;
  if (full.horizontal.size() > 2) {
    d.horizontal.start = full.horizontal.start + rng.integer(0, int(full.horizontal.size() / 3));
    d.horizontal.end = full.horizontal.end - rng.integer(0, int(full.horizontal.size() / 3));
  }
  if (full.vertical_end - full.vertical_start > 2) {
    d.vertical_start = full.vertical_start + 1;
    d.vertical_end = full.vertical_end - 1;
  }
  return d;
}

// ---- compute_rho_theta_pgrad_and_update_vn ------------------------------------------------------

reference::ComputeRhoThetaPgradAndUpdateVnArgs reference_args(
    const HostArrays& s, const HostArrays& a, const RhoThetaPgradArguments<M>& call,
    const DycoreInputs<M>& in, const Grid& grid, const ProgramDomain& domain) {
  reference::ComputeRhoThetaPgradAndUpdateVnArgs r;
  r.rho_at_edges_on_model_levels = a.at("rho_at_edges_on_model_levels").field();
  r.theta_v_at_edges_on_model_levels = a.at("theta_v_at_edges_on_model_levels").field();
  r.horizontal_pressure_gradient = a.at("horizontal_pressure_gradient").field();
  r.next_vn = a.at("next_vn").field();
  r.current_vn = a.at("current_vn").field();
  r.tangential_wind = a.at("tangential_wind").field();
  r.reference_rho_at_edges_on_model_levels = s.at("reference_rho_at_edges_on_model_levels").field();
  r.reference_theta_at_edges_on_model_levels =
      s.at("reference_theta_at_edges_on_model_levels").field();
  r.perturbed_rho_at_cells_on_model_levels = a.at("perturbed_rho_at_cells_on_model_levels").field();
  r.perturbed_theta_v_at_cells_on_model_levels =
      a.at("perturbed_theta_v_at_cells_on_model_levels").field();
  r.temporal_extrapolation_of_perturbed_exner =
      a.at("temporal_extrapolation_of_perturbed_exner").field();
  r.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels =
      a.at("ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels").field();
  r.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels =
      a.at("d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels").field();
  r.hydrostatic_correction_on_lowest_level =
      a.at("hydrostatic_correction_on_lowest_level").vector();
  r.predictor_normal_wind_advective_tendency =
      a.at("predictor_normal_wind_advective_tendency").field();
  r.normal_wind_tendency_due_to_slow_physics_process =
      a.at("normal_wind_tendency_due_to_slow_physics_process").field();
  r.normal_wind_iau_increment = a.at("normal_wind_iau_increment").field();
  r.grf_tend_vn = a.at("grf_tend_vn").field();
  r.geofac_grg_x = s.at("geofac_grg_x").table();
  r.geofac_grg_y = s.at("geofac_grg_y").table();
  r.pos_on_tplane_e_x = s.at("pos_on_tplane_e_1").table();
  r.pos_on_tplane_e_y = s.at("pos_on_tplane_e_2").table();
  r.primal_normal_cell_x = s.at("primal_normal_cell_x").table();
  r.dual_normal_cell_x = s.at("dual_normal_cell_x").table();
  r.primal_normal_cell_y = s.at("primal_normal_cell_y").table();
  r.dual_normal_cell_y = s.at("dual_normal_cell_y").table();
  r.ddxn_z_full = s.at("ddxn_z_full").field();
  r.c_lin_e = s.at("c_lin_e").table();
  r.ikoffset = s.at("vertoffset_gradp").int_field3();
  r.zdiff_gradp = s.at("zdiff_gradp").field3();
  r.pg_exdist = s.at("pg_exdist").field();
  r.inv_dual_edge_length = s.at("inverse_dual_edge_lengths").vector();
  r.dtime = call.dtime;
  r.is_iau_active = call.is_iau_active;
  r.iau_wgt_dyn = call.iau_wgt_dyn;
  r.limited_area = in.grid.limited_area;
  r.nflatlev = in.nflatlev;
  r.nflat_gradp = in.nflat_gradp;
  r.start_edge_lateral_boundary = grid.start(Location::Edge, Zone::LateralBoundary1);
  r.start_edge_lateral_boundary_level_7 = grid.start(Location::Edge, Zone::LateralBoundary7);
  r.start_edge_nudging_level_2 = grid.start(Location::Edge, Zone::Nudging2);
  r.end_edge_nudging = grid.end(Location::Edge, Zone::Nudging);
  r.end_edge_halo = grid.end(Location::Edge, Zone::Halo);
  r.horizontal_start = domain.horizontal.start;
  r.horizontal_end = domain.horizontal.end;
  r.vertical_start = domain.vertical_start;
  r.vertical_end = domain.vertical_end;
  return r;
}

TEST(TEST_CATEGORY, DycoreComputeRhoThetaPgradAndUpdateVnMatchesReference) {
  for (auto& g : test::dycore_grids()) {
    const DeviceGrid<M> device(g.grid);
    for (const bool iau : {false, true})
      for (const bool subdomain : {false, true})
        // Every schedule on the same inputs: the column bodies of the points-outer schedule
        // must give the point bodies' bits.
        for (const LoopSchedule schedule : all_loop_schedules) {
          const std::string name = g.name + (iau ? " iau" : "") + (subdomain ? " subdomain" : "");
          SCOPED_TRACE(name + " " + to_string(schedule));
          test::RandomSource rng(test::dycore_seed("rho_theta_pgrad " + name));
          HostArrays statics, call_host;
          const DycoreInputs<M> in = test::random_dycore_inputs(device, g.nlev, rng, statics);
          DycoreOptions<Space> options;
          options.schedule = schedule;
          Dycore<Space> dycore(DycoreConfig{}, in, options);
          const std::vector<std::string> outputs = {"rho_at_edges_on_model_levels",
                                                    "theta_v_at_edges_on_model_levels",
                                                    "horizontal_pressure_gradient"};
          auto call = test::random_state<RhoThetaPgradArguments, M>(
              in.sizes(), test::dycore_call_filler(rng, outputs), call_host, "icondiff::test::");
          call.dtime = 10.0 + rng.uniform(0, 5);
          call.is_iau_active = iau;
          call.iau_wgt_dyn = rng.uniform(0, 1);
          ProgramDomain domain = dycore.rho_theta_pgrad_domain();
          if (subdomain) domain = random_subdomain(domain, rng);

          auto ref = reference_args(statics, call_host, call, in, g.grid, domain);
          reference::compute_rho_theta_pgrad_and_update_vn(g.grid, ref);
          dycore.compute_rho_theta_pgrad_and_update_vn(Space(), call, &domain);
          compat::fence(Space(), "test");

          expect_output("rho_at_edges_on_model_levels",
                        test::to_host_array(call.rho_at_edges_on_model_levels),
                        as_array(ref.rho_at_edges_on_model_levels),
                        call_host.at("rho_at_edges_on_model_levels"), domain);
          expect_output("theta_v_at_edges_on_model_levels",
                        test::to_host_array(call.theta_v_at_edges_on_model_levels),
                        as_array(ref.theta_v_at_edges_on_model_levels),
                        call_host.at("theta_v_at_edges_on_model_levels"), domain);
          expect_output("horizontal_pressure_gradient",
                        test::to_host_array(call.horizontal_pressure_gradient),
                        as_array(ref.horizontal_pressure_gradient),
                        call_host.at("horizontal_pressure_gradient"), domain);
          expect_output("next_vn", test::to_host_array(call.next_vn), as_array(ref.next_vn),
                        call_host.at("next_vn"), domain);
        }
  }
}

// ---- The instance travels with the call (issue 32, item 5) --------------------------------------

/// Two calls of ONE Dycore, each on its own instance, enqueued one after the other without a
/// fence between them (on a GPU with Kokkos >= 4 two streams that may overlap; with Kokkos 3.4
/// copies of one instance), give the results of the same calls run one at a time: the granule
/// keeps no instance and no state between calls of the edge programs.
TEST(TEST_CATEGORY, DycoreCallsOnTwoInstancesEqualSequentialCalls) {
  auto grids = test::dycore_grids();
  const auto& g = grids.back();  // the limited-area grid: every zone of the program is there
  const DeviceGrid<M> device(g.grid);
  test::RandomSource rng(test::dycore_seed("two instances " + g.name));
  HostArrays statics;
  const DycoreInputs<M> in = test::random_dycore_inputs(device, g.nlev, rng, statics);
  Dycore<Space> dycore(DycoreConfig{}, in);
  const std::vector<Space> instances = compat::make_instances(Space(), 2);
  const std::vector<std::string> outputs = {"rho_at_edges_on_model_levels",
                                            "theta_v_at_edges_on_model_levels",
                                            "horizontal_pressure_gradient"};
  // Two different calls (A, B), each twice: once for the overlapping run, once alone.
  HostArrays host_a, host_b;
  auto a = test::random_state<RhoThetaPgradArguments, M>(
      in.sizes(), test::dycore_call_filler(rng, outputs), host_a, "icondiff::test::a::");
  auto b = test::random_state<RhoThetaPgradArguments, M>(
      in.sizes(), test::dycore_call_filler(rng, outputs), host_b, "icondiff::test::b::");
  a.dtime = 10.0;
  b.dtime = 12.5;
  b.is_iau_active = true;
  b.iau_wgt_dyn = 0.5;
  // The same calls on fresh copies of every field (copy_state), the scalars as they are.
  const auto alone = [](const RhoThetaPgradArguments<M>& call, const std::string& scope) {
    RhoThetaPgradArguments<M> copy = copy_state<M>(call, scope);
    copy.dtime = call.dtime;
    copy.is_iau_active = call.is_iau_active;
    copy.iau_wgt_dyn = call.iau_wgt_dyn;
    return copy;
  };
  auto a_alone = alone(a, "icondiff::test::a_alone::");
  auto b_alone = alone(b, "icondiff::test::b_alone::");
  compat::fence(Space(), "icondiff::test::setup");

  dycore.compute_rho_theta_pgrad_and_update_vn(instances[0], a);
  dycore.compute_rho_theta_pgrad_and_update_vn(instances[1], b);
  compat::fence(instances[0], "icondiff::test::a");
  compat::fence(instances[1], "icondiff::test::b");

  dycore.compute_rho_theta_pgrad_and_update_vn(Space(), a_alone);
  compat::fence(Space(), "icondiff::test::a_alone");
  dycore.compute_rho_theta_pgrad_and_update_vn(Space(), b_alone);
  compat::fence(Space(), "icondiff::test::b_alone");

  const auto same = [](const char* what, const auto& x, const auto& y) {
    const HostArray hx = test::to_host_array(x), hy = test::to_host_array(y);
    ASSERT_EQ(hx.values.size(), hy.values.size()) << what;
    std::size_t differ = 0;
    for (std::size_t i = 0; i < hx.values.size(); ++i)
      differ +=
          !(hx.values[i] == hy.values[i] || (std::isnan(hx.values[i]) && std::isnan(hy.values[i])));
    EXPECT_EQ(differ, 0u) << what << ": the overlapping call differs from the call alone";
  };
  same("a next_vn", a.next_vn, a_alone.next_vn);
  same("a rho", a.rho_at_edges_on_model_levels, a_alone.rho_at_edges_on_model_levels);
  same("a gradient", a.horizontal_pressure_gradient, a_alone.horizontal_pressure_gradient);
  same("b next_vn", b.next_vn, b_alone.next_vn);
  same("b theta", b.theta_v_at_edges_on_model_levels, b_alone.theta_v_at_edges_on_model_levels);
  same("b gradient", b.horizontal_pressure_gradient, b_alone.horizontal_pressure_gradient);
  // And the two calls did differ (else the check above proves little).
  EXPECT_NE(test::to_host_array(a.next_vn).values, test::to_host_array(b.next_vn).values);
}

// ---- apply_divergence_damping_and_update_vn -----------------------------------------------------

struct DivDampCase {
  bool second_order, fourth_order, iau, flip_limited_area;
  DivergenceDampingOrder order;
};

TEST(TEST_CATEGORY, DycoreApplyDivergenceDampingAndUpdateVnMatchesReference) {
  std::vector<DivDampCase> cases;
  for (const bool second : {false, true})
    for (const bool fourth : {false, true})
      for (const bool iau : {false, true})
        cases.push_back({second, fourth, iau, false, DivergenceDampingOrder::Combined});
  cases.push_back({true, true, false, true, DivergenceDampingOrder::Combined});
  cases.push_back({false, true, true, false, DivergenceDampingOrder::FourthOrder});
  cases.push_back({false, true, false, true, DivergenceDampingOrder::FourthOrder});

  for (auto& g : test::dycore_grids()) {
    const DeviceGrid<M> device(g.grid);
    // One static bundle per grid (random fields take most of the test's time); each case draws
    // its own per-call fields and configuration.
    test::RandomSource static_rng(test::dycore_seed("divdamp statics " + g.name));
    HostArrays statics;
    const DycoreInputs<M> grid_inputs =
        test::random_dycore_inputs(device, g.nlev, static_rng, statics);
    for (std::size_t n = 0; n < cases.size(); ++n) {
      const DivDampCase& c = cases[n];
      for (const bool subdomain : {false, true})
        for (const LoopSchedule schedule : all_loop_schedules) {
          // Sub-domains of every case on the torus, of every other case on the larger grids
          // (the sanitizer gate runs these tests too); every schedule on the same inputs.
          if (subdomain && g.name != "torus" && n % 2 == 1) continue;
          const std::string name =
              g.name + " 2nd " + std::to_string(c.second_order) + " 4th " +
              std::to_string(c.fourth_order) + " iau " + std::to_string(c.iau) + " order " +
              std::to_string(int(c.order)) + (c.flip_limited_area ? " limited_area flipped" : "") +
              (subdomain ? " subdomain" : "");
          SCOPED_TRACE(name + " " + to_string(schedule));
          test::RandomSource rng(test::dycore_seed("divdamp " + name));
          HostArrays call_host;
          DycoreInputs<M> in = grid_inputs;
          if (c.flip_limited_area) in.grid.limited_area = !device.limited_area;
          DycoreConfig config;
          config.divdamp_order = c.order;
          config.veladv_offctr = rng.uniform(0, 0.5);
          config.max_nudging_coefficient = rng.uniform(0, 1);
          DycoreOptions<Space> options;
          options.schedule = schedule;
          Dycore<Space> dycore(config, in, options);
          auto call = test::random_state<DivergenceDampingArguments, M>(
              in.sizes(), test::dycore_call_filler(rng, {}), call_host, "icondiff::test::");
          call.interpolated_fourth_order_divdamp_factor = test::random_profile<M>(
              "interpolated_fourth_order_divdamp_factor", g.nlev,
              [&](int) { return rng.uniform(0, 0.01); }, call_host);
          call.second_order_divdamp_factor = rng.uniform(0, 0.02);
          call.second_order_divdamp_scaling_coeff = rng.uniform();
          call.dtime = 10.0 + rng.uniform(0, 5);
          call.apply_2nd_order_divergence_damping = c.second_order;
          call.apply_4th_order_divergence_damping = c.fourth_order;
          call.is_iau_active = c.iau;
          call.iau_wgt_dyn = rng.uniform(0, 1);
          ProgramDomain domain = dycore.divergence_damping_domain();
          if (subdomain) domain = random_subdomain(domain, rng);

          reference::ApplyDivergenceDampingAndUpdateVnArgs r;
          r.horizontal_gradient_of_normal_wind_divergence =
              call_host.at("horizontal_gradient_of_normal_wind_divergence").field();
          r.next_vn = call_host.at("next_vn").field();
          r.current_vn = call_host.at("current_vn").field();
          r.dwdz_at_cells_on_model_levels = call_host.at("dwdz_at_cells_on_model_levels").field();
          r.predictor_normal_wind_advective_tendency =
              call_host.at("predictor_normal_wind_advective_tendency").field();
          r.corrector_normal_wind_advective_tendency =
              call_host.at("corrector_normal_wind_advective_tendency").field();
          r.normal_wind_tendency_due_to_slow_physics_process =
              call_host.at("normal_wind_tendency_due_to_slow_physics_process").field();
          r.normal_wind_iau_increment = call_host.at("normal_wind_iau_increment").field();
          r.second_order_divdamp_scaling_coeff = call.second_order_divdamp_scaling_coeff;
          r.theta_v_at_edges_on_model_levels =
              call_host.at("theta_v_at_edges_on_model_levels").field();
          r.horizontal_pressure_gradient = call_host.at("horizontal_pressure_gradient").field();
          r.horizontal_mask_for_3d_divdamp = statics.at("horizontal_mask_for_3d_divdamp").vector();
          r.scaling_factor_for_3d_divdamp = statics.at("scaling_factor_for_3d_divdamp").vector();
          r.inv_dual_edge_length = statics.at("inverse_dual_edge_lengths").vector();
          r.nudgecoeff_e = statics.at("nudgecoeff_e").vector();
          r.geofac_grdiv = statics.at("geofac_grdiv").table();
          r.interpolated_fourth_order_divdamp_factor =
              call_host.at("interpolated_fourth_order_divdamp_factor").vector();
          r.advection_explicit_weight_parameter = config.advection_explicit_weight_parameter();
          r.advection_implicit_weight_parameter = config.advection_implicit_weight_parameter();
          r.dtime = call.dtime;
          r.is_iau_active = call.is_iau_active;
          r.iau_wgt_dyn = call.iau_wgt_dyn;
          r.limited_area = in.grid.limited_area;
          r.apply_2nd_order_divergence_damping = c.second_order;
          r.apply_4th_order_divergence_damping = c.fourth_order;
          r.divdamp_order = int(c.order);
          r.mean_cell_area = in.mean_cell_area;
          r.second_order_divdamp_factor = call.second_order_divdamp_factor;
          r.max_nudging_coefficient = config.max_nudging_coefficient;
          r.dbl_eps = std::numeric_limits<double>::epsilon();
          r.horizontal_start = domain.horizontal.start;
          r.horizontal_end = domain.horizontal.end;
          r.vertical_start = domain.vertical_start;
          r.vertical_end = domain.vertical_end;
          reference::apply_divergence_damping_and_update_vn(g.grid, r);

          dycore.apply_divergence_damping_and_update_vn(Space(), call, &domain);
          compat::fence(Space(), "test");
          expect_output("next_vn", test::to_host_array(call.next_vn), as_array(r.next_vn),
                        call_host.at("next_vn"), domain);
        }
    }
  }
}

// ---- Bad input ----------------------------------------------------------------------------------

TEST(TEST_CATEGORY, DycoreRefusesBadInputsNamingThem) {
  const Grid grid = test::make_simple_torus_grid();
  const DeviceGrid<M> device(grid);
  test::RandomSource rng(7);
  HostArrays host;
  const DycoreInputs<M> good = test::random_dycore_inputs(device, 6, rng, host);
  const auto refuses = [&](DycoreInputs<M> in, const DycoreConfig& config, const char* needle) {
    try {
      Dycore<Space> d(config, in);
    } catch (const Error& e) {  // InvalidArgument for inputs, ConfigError for the configuration
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "accepted, expected an error naming " << needle;
  };
  DycoreInputs<M> in = good;
  in.nflat_gradp = 6;
  refuses(in, {}, "nflat_gradp");
  in = good;
  in.mean_cell_area = 0;
  refuses(in, {}, "mean_cell_area");
  in = good;
  in.metric.pg_exdist = decltype(in.metric.pg_exdist)("short", device.num_edges, 5);
  refuses(in, {}, "pg_exdist");
  in = good;
  in.metric.vertoffset_gradp = decltype(in.metric.vertoffset_gradp)("far", device.num_edges, 2, 6);
  Kokkos::deep_copy(in.metric.vertoffset_gradp, 3);  // level 5 + 3 lies below the column
  refuses(in, {}, "vertoffset_gradp");
  DycoreConfig config;
  config.divdamp_order = static_cast<DivergenceDampingOrder>(3);
  refuses(good, config, "divdamp_order");

  Dycore<Space> dycore(DycoreConfig{}, good);
  HostArrays call_host;
  auto call = test::random_state<RhoThetaPgradArguments, M>(
      good.sizes(), test::dycore_call_filler(rng, {}), call_host, "icondiff::test::");
  call.next_vn = decltype(call.next_vn)("next_vn", device.num_edges, 7);
  EXPECT_THROW(
      {
        try {
          dycore.compute_rho_theta_pgrad_and_update_vn(call);
        } catch (const InvalidArgument& e) {
          EXPECT_NE(std::string(e.what()).find("next_vn"), std::string::npos) << e.what();
          throw;
        }
      },
      InvalidArgument);
  ProgramDomain outside = dycore.rho_theta_pgrad_domain();
  outside.vertical_end = 7;
  call.next_vn = decltype(call.next_vn)("next_vn", device.num_edges, 6);
  EXPECT_THROW(dycore.compute_rho_theta_pgrad_and_update_vn(Space(), call, &outside),
               InvalidArgument);
}

}  // namespace dycore_test
}  // namespace icondiff
