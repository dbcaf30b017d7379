// The dycore's vertically implicit solver (vertically_implicit_solver_at_predictor_step and
// _at_corrector_step) run through Dycore<ExecSpace> against the independent plain-loop reference
// written from ICON4Py's field operators (unit_tests/reference/dycore_reference.hpp), on seeded
// random inputs with atmospheric signs and scales (support/random_dycore.hpp), on the torus and a
// global and a limited-area grid, for the flag combinations of both steps, over
// solve_nonhydro's domains and a random horizontal sub-domain. Outputs start poisoned (NaN) or
// random; whole arrays are compared (exactly in double builds), and every point outside the
// domain must keep its initial bits. Physical checks: a resting isothermal atmosphere stays at
// rest, and the solved w satisfies the tridiagonal system to round-off. Compiled once per backend.
#include "reference/dycore_reference.hpp"
#include "support/dycore_test_cases.hpp"
#include "support/field_compare.hpp"
#include "support/random_dycore.hpp"
#include "support/simple_grid.hpp"
#include "support/test_grids.hpp"

#include <icondiff/core/physical_constants.hpp>
#include <icondiff/dycore/dycore.hpp>
#include <icondiff/grid/device_grid.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

namespace icondiff {
namespace dycore_solver_test {

using M = TEST_MEMSPACE;
using Space = TEST_EXECSPACE;
using test::HostArray;
using test::HostArrays;
using test::HostField;

/// The reference's output next to the kernel's (test::expect_dycore_output) with the domain's
/// cells, all levels.
void expect_output(const std::string& what, const HostArray& kernel, const HostField<double>& ref,
                   const HostArray& initial, IndexRange cells) {
  test::expect_dycore_output(what, kernel.field(), ref, initial.field(),
                             [&](index_t p, int) { return cells.contains(p); });
}

IndexRange random_cells(IndexRange full, test::RandomSource& rng) {
  if (full.size() <= 2) return full;
  return {full.start + rng.integer(0, int(full.size() / 3)),
          full.end - rng.integer(0, int(full.size() / 3))};
}

/// The static fields both reference structs take, by their ICON4Py program-argument names.
template <class Args>
void fill_reference_statics(Args& r, const HostArrays& s, const DycoreInputs<M>& in,
                            const DycoreConfig& config, IndexRange cells) {
  r.geofac_div = s.at("geofac_div").table();
  r.exner_w_explicit_weight_parameter = s.at("exner_w_explicit_weight_parameter").vector();
  r.inv_ddqz_z_full = s.at("inv_ddqz_z_full").field();
  r.exner_w_implicit_weight_parameter = s.at("exner_w_implicit_weight_parameter").vector();
  r.ddqz_z_half = s.at("ddqz_z_half").field();
  r.reference_exner_at_cells_on_model_levels =
      s.at("reference_exner_at_cells_on_model_levels").field();
  r.rayleigh_type = static_cast<int>(config.rayleigh_type);
  r.end_index_of_damping_layer = in.end_index_of_damping_layer;
  r.kstart_moist = in.kstart_moist;
  r.start_cell_index_nudging = cells.start;
  r.end_cell_index_local = cells.end;
  r.vertical_start_index_model_top = 0;
  r.vertical_end_index_model_surface = in.nlev + 1;
}

/// The per-call fields both reference structs take under the same names.
template <class Args>
void fill_reference_call(Args& r, const HostArrays& a) {
  r.next_w = a.at("next_w").field();
  r.next_rho = a.at("next_rho").field();
  r.next_exner = a.at("next_exner").field();
  r.next_theta_v = a.at("next_theta_v").field();
  r.exner_dynamical_increment = a.at("exner_dynamical_increment").field();
  r.mass_flux_at_edges_on_model_levels = a.at("mass_flux_at_edges_on_model_levels").field();
  r.theta_v_flux_at_edges_on_model_levels = a.at("theta_v_flux_at_edges_on_model_levels").field();
  r.predictor_vertical_wind_advective_tendency =
      a.at("predictor_vertical_wind_advective_tendency").field();
  r.nonhydro_buoy_at_cells_on_half_levels = a.at("nonhydro_buoy_at_cells_on_half_levels").field();
  r.rho_at_cells_on_half_levels = a.at("rho_at_cells_on_half_levels").field();
  r.current_exner = a.at("current_exner").field();
  r.current_rho = a.at("current_rho").field();
  r.current_theta_v = a.at("current_theta_v").field();
  r.current_w = a.at("current_w").field();
  r.theta_v_at_cells_on_half_levels = a.at("theta_v_at_cells_on_half_levels").field();
  r.perturbed_exner_at_cells_on_model_levels =
      a.at("perturbed_exner_at_cells_on_model_levels").field();
  r.exner_tendency_due_to_slow_physics = a.at("exner_tendency_due_to_slow_physics").field();
  r.rho_iau_increment = a.at("rho_iau_increment").field();
  r.exner_iau_increment = a.at("exner_iau_increment").field();
  r.rayleigh_damping_factor = a.at("rayleigh_damping_factor").vector();
}

const std::vector<std::string> solver_outputs = {"next_rho", "next_exner", "next_theta_v"};

// ---- Predictor --------------------------------------------------------------------------------

struct PredictorCase {
  bool iau, first_substep;
  DivergenceDampingType divdamp_type;
  RayleighType rayleigh;
};

TEST(TEST_CATEGORY, DycoreSolverAtPredictorStepMatchesReference) {
  const std::vector<PredictorCase> cases = {
      {false, false, DivergenceDampingType::ThreeDimensional, RayleighType::Klemp},
      {true, true, DivergenceDampingType::ThreeDimensional, RayleighType::Klemp},
      {false, true, DivergenceDampingType::TwoDimensional, RayleighType::Classic},
      {true, false, DivergenceDampingType::Combined, RayleighType::Klemp},
  };
  for (auto& g : test::dycore_grids()) {
    const DeviceGrid<M> device(g.grid);
    test::RandomSource static_rng(test::dycore_seed("solver statics " + g.name));
    HostArrays statics;
    const DycoreInputs<M> in = test::random_dycore_inputs(device, g.nlev, static_rng, statics);
    for (std::size_t n = 0; n < cases.size(); ++n)
      for (const bool subdomain : {false, true}) {
        // Sub-domains of every case on the torus, of every other case on the larger grids
        // (the sanitizer gate runs these tests too).
        if (subdomain && g.name != "torus" && n % 2 == 1) continue;
        const auto& c = cases[n];
        const std::string name = g.name + " iau " + std::to_string(c.iau) + " first " +
                                 std::to_string(c.first_substep) + " divdamp_type " +
                                 std::to_string(int(c.divdamp_type)) + " rayleigh " +
                                 std::to_string(int(c.rayleigh)) + (subdomain ? " subdomain" : "");
        SCOPED_TRACE(name);
        test::RandomSource rng(test::dycore_seed("predictor " + name));
        DycoreConfig config;
        config.divdamp_type = c.divdamp_type;
        config.rayleigh_type = c.rayleigh;
        // Both column drivers: the space's default on the full domain, the other on sub-domains.
        DycoreOptions<Space> options;
        if (subdomain) options.column_blocks = !options.column_blocks;
        Dycore<Space> dycore(config, in, options);
        HostArrays call_host;
        auto call = test::random_state<SolverPredictorArguments, M>(
            in.sizes(), test::dycore_call_filler(rng, solver_outputs), call_host,
            "icondiff::test::");
        call.rayleigh_damping_factor = test::random_profile<M>(
            "rayleigh_damping_factor", g.nlev,
            [&](int) { return test::dycore_value("rayleigh_damping_factor", rng); }, call_host);
        call.dtime = 10.0 + rng.uniform(0, 5);
        call.is_iau_active = c.iau;
        call.iau_wgt_dyn = rng.uniform(0, 1);
        call.at_first_substep = c.first_substep;
        ProgramDomain solver = dycore.solver_domain();
        ProgramDomain interpolation = dycore.contravariant_correction_domain();
        if (subdomain) {
          solver.horizontal = random_cells(solver.horizontal, rng);
          interpolation.horizontal = solver.horizontal;
        }

        reference::VerticallyImplicitSolverAtPredictorStepArgs r;
        fill_reference_statics(r, statics, in, config, solver.horizontal);
        fill_reference_call(r, call_host);
        r.contravariant_correction_at_cells_on_half_levels =
            call_host.at("contravariant_correction_at_cells_on_half_levels").field();
        r.dwdz_at_cells_on_model_levels = call_host.at("dwdz_at_cells_on_model_levels").field();
        r.contravariant_correction_at_edges_on_model_levels =
            call_host.at("contravariant_correction_at_edges_on_model_levels").field();
        r.e_bln_c_s = statics.at("e_bln_c_s").table();
        r.wgtfac_c = statics.at("wgtfac_c").field();
        r.wgtfacq_c = statics.at("wgtfacq_c").field();
        r.iau_wgt_dyn = call.iau_wgt_dyn;
        r.dtime = call.dtime;
        r.is_iau_active = c.iau;
        r.divdamp_type = static_cast<int>(c.divdamp_type);
        r.at_first_substep = c.first_substep;
        r.flat_level_index_plus1 = in.nflatlev + 1;
        r.start_cell_index_lateral_lvl3 = interpolation.horizontal.start;
        r.end_cell_index_halo_lvl1 = interpolation.horizontal.end;
        reference::vertically_implicit_solver_at_predictor_step(g.grid, r);

        dycore.vertically_implicit_solver_at_predictor_step(Space(), call,
                                                            subdomain ? &solver : nullptr);
        compat::fence(Space(), "test");
        expect_output("contravariant_correction_at_cells_on_half_levels",
                      test::to_host_array(call.contravariant_correction_at_cells_on_half_levels),
                      r.contravariant_correction_at_cells_on_half_levels,
                      call_host.at("contravariant_correction_at_cells_on_half_levels"),
                      interpolation.horizontal);
        expect_output("next_w", test::to_host_array(call.next_w), r.next_w, call_host.at("next_w"),
                      solver.horizontal);
        expect_output("next_rho", test::to_host_array(call.next_rho), r.next_rho,
                      call_host.at("next_rho"), solver.horizontal);
        expect_output("next_exner", test::to_host_array(call.next_exner), r.next_exner,
                      call_host.at("next_exner"), solver.horizontal);
        expect_output("next_theta_v", test::to_host_array(call.next_theta_v), r.next_theta_v,
                      call_host.at("next_theta_v"), solver.horizontal);
        expect_output("dwdz_at_cells_on_model_levels",
                      test::to_host_array(call.dwdz_at_cells_on_model_levels),
                      r.dwdz_at_cells_on_model_levels,
                      call_host.at("dwdz_at_cells_on_model_levels"), solver.horizontal);
        expect_output("exner_dynamical_increment",
                      test::to_host_array(call.exner_dynamical_increment),
                      r.exner_dynamical_increment, call_host.at("exner_dynamical_increment"),
                      solver.horizontal);
      }
  }
}

// ---- Corrector --------------------------------------------------------------------------------

struct CorrectorCase {
  bool lprep_adv, first_substep, last_substep, iau;
  RayleighType rayleigh;
};

TEST(TEST_CATEGORY, DycoreSolverAtCorrectorStepMatchesReference) {
  const std::vector<CorrectorCase> cases = {
      {false, false, false, false, RayleighType::Klemp},
      {true, true, false, false, RayleighType::Klemp},
      {true, false, true, true, RayleighType::Klemp},
      {true, false, false, false, RayleighType::Classic},
      {false, true, true, true, RayleighType::Classic},
      {true, true, true, true, RayleighType::Klemp},
  };
  for (auto& g : test::dycore_grids()) {
    const DeviceGrid<M> device(g.grid);
    test::RandomSource static_rng(test::dycore_seed("solver statics " + g.name));
    HostArrays statics;
    const DycoreInputs<M> in = test::random_dycore_inputs(device, g.nlev, static_rng, statics);
    for (std::size_t n = 0; n < cases.size(); ++n)
      for (const bool subdomain : {false, true}) {
        // Sub-domains of every case on the torus, of every other case on the larger grids
        // (the sanitizer gate runs these tests too).
        if (subdomain && g.name != "torus" && n % 2 == 1) continue;
        const auto& c = cases[n];
        const std::string name = g.name + " lprep_adv " + std::to_string(c.lprep_adv) + " first " +
                                 std::to_string(c.first_substep) + " last " +
                                 std::to_string(c.last_substep) + " iau " + std::to_string(c.iau) +
                                 " rayleigh " + std::to_string(int(c.rayleigh)) +
                                 (subdomain ? " subdomain" : "");
        SCOPED_TRACE(name);
        test::RandomSource rng(test::dycore_seed("corrector " + name));
        DycoreConfig config;
        config.rayleigh_type = c.rayleigh;
        config.veladv_offctr = rng.uniform(0, 0.5);
        // Both column drivers: the space's default on the full domain, the other on sub-domains.
        DycoreOptions<Space> options;
        if (subdomain) options.column_blocks = !options.column_blocks;
        Dycore<Space> dycore(config, in, options);
        HostArrays call_host;
        auto call = test::random_state<SolverCorrectorArguments, M>(
            in.sizes(), test::dycore_call_filler(rng, solver_outputs), call_host,
            "icondiff::test::");
        call.rayleigh_damping_factor = test::random_profile<M>(
            "rayleigh_damping_factor", g.nlev,
            [&](int) { return test::dycore_value("rayleigh_damping_factor", rng); }, call_host);
        call.lprep_adv = c.lprep_adv;
        call.ndyn_substeps_var = 5;
        call.r_nsubsteps = 1.0 / 5;
        call.iau_wgt_dyn = rng.uniform(0, 1);
        call.dtime = 10.0 + rng.uniform(0, 5);
        call.is_iau_active = c.iau;
        call.at_first_substep = c.first_substep;
        call.at_last_substep = c.last_substep;
        ProgramDomain solver = dycore.solver_domain();
        if (subdomain) solver.horizontal = random_cells(solver.horizontal, rng);

        reference::VerticallyImplicitSolverAtCorrectorStepArgs r;
        fill_reference_statics(r, statics, in, config, solver.horizontal);
        fill_reference_call(r, call_host);
        r.dynamical_vertical_mass_flux_at_cells_on_half_levels =
            call_host.at("dynamical_vertical_mass_flux_at_cells_on_half_levels").field();
        r.dynamical_vertical_volumetric_flux_at_cells_on_half_levels =
            call_host.at("dynamical_vertical_volumetric_flux_at_cells_on_half_levels").field();
        r.corrector_vertical_wind_advective_tendency =
            call_host.at("corrector_vertical_wind_advective_tendency").field();
        r.contravariant_correction_at_cells_on_half_levels =
            call_host.at("contravariant_correction_at_cells_on_half_levels").field();
        r.advection_explicit_weight_parameter = config.advection_explicit_weight_parameter();
        r.advection_implicit_weight_parameter = config.advection_implicit_weight_parameter();
        r.lprep_adv = c.lprep_adv;
        r.r_nsubsteps = call.r_nsubsteps;
        r.ndyn_substeps_var = call.ndyn_substeps_var;
        r.iau_wgt_dyn = call.iau_wgt_dyn;
        r.dtime = call.dtime;
        r.is_iau_active = c.iau;
        r.at_first_substep = c.first_substep;
        r.at_last_substep = c.last_substep;
        reference::vertically_implicit_solver_at_corrector_step(g.grid, r);

        dycore.vertically_implicit_solver_at_corrector_step(Space(), call,
                                                            subdomain ? &solver : nullptr);
        compat::fence(Space(), "test");
        expect_output("next_w", test::to_host_array(call.next_w), r.next_w, call_host.at("next_w"),
                      solver.horizontal);
        expect_output("next_rho", test::to_host_array(call.next_rho), r.next_rho,
                      call_host.at("next_rho"), solver.horizontal);
        expect_output("next_exner", test::to_host_array(call.next_exner), r.next_exner,
                      call_host.at("next_exner"), solver.horizontal);
        expect_output("next_theta_v", test::to_host_array(call.next_theta_v), r.next_theta_v,
                      call_host.at("next_theta_v"), solver.horizontal);
        expect_output(
            "dynamical_vertical_mass_flux_at_cells_on_half_levels",
            test::to_host_array(call.dynamical_vertical_mass_flux_at_cells_on_half_levels),
            r.dynamical_vertical_mass_flux_at_cells_on_half_levels,
            call_host.at("dynamical_vertical_mass_flux_at_cells_on_half_levels"),
            solver.horizontal);
        expect_output(
            "dynamical_vertical_volumetric_flux_at_cells_on_half_levels",
            test::to_host_array(call.dynamical_vertical_volumetric_flux_at_cells_on_half_levels),
            r.dynamical_vertical_volumetric_flux_at_cells_on_half_levels,
            call_host.at("dynamical_vertical_volumetric_flux_at_cells_on_half_levels"),
            solver.horizontal);
        expect_output("exner_dynamical_increment",
                      test::to_host_array(call.exner_dynamical_increment),
                      r.exner_dynamical_increment, call_host.at("exner_dynamical_increment"),
                      solver.horizontal);
      }
  }
}

// ---- Physical checks ----------------------------------------------------------------------------

/// A resting, isothermal, hydrostatically balanced atmosphere (T = 250 K, levels 500 m apart,
/// exner = exp(-g z / (cpd T)), the reference state equal to the state, no fluxes, no buoyancy,
/// no tendencies) stays at rest through both steps: w stays 0 and rho, exner, theta_v keep their
/// values to round-off.
TEST(TEST_CATEGORY, DycoreSolverKeepsAnAtmosphereAtRest) {
  const Grid grid = test::make_simple_torus_grid();
  const DeviceGrid<M> device(grid);
  const int nlev = 20;
  const double temperature = 250.0, dz = 500.0, top = nlev * dz;
  const auto exner_at = [&](double z) {
    return std::exp(-physics::grav * z / (physics::cpd * temperature));
  };
  const auto full_height = [&](int k) { return top - (k + 0.5) * dz; };
  const auto half_height = [&](int k) { return top - k * dz; };
  const auto rho_at = [&](double z) {
    const double p = 1.0e5 * std::pow(exner_at(z), physics::cpd / physics::rd);
    return p / (physics::rd * temperature);
  };
  test::RandomSource rng(11);
  HostArrays statics;
  DycoreInputs<M> in = test::random_dycore_inputs(device, nlev, rng, statics);
  const test::FieldFiller balanced = [&](const FieldSpec& spec, index_t, int, int k) -> double {
    const std::string name = spec.name;
    if (name == "inv_ddqz_z_full") return 1.0 / dz;
    if (name == "ddqz_z_half") return dz;
    if (name == "reference_exner_at_cells_on_model_levels") return exner_at(full_height(k));
    return test::dycore_value(name, rng);
  };
  test::fill_state(in.metric, balanced, statics);
  const test::FieldFiller at_rest = [&](const FieldSpec& spec, index_t, int, int k) -> double {
    const std::string name = spec.name;
    if (name == "current_exner") return exner_at(full_height(k));
    if (name == "current_rho") return rho_at(full_height(k));
    if (name == "current_theta_v") return temperature / exner_at(full_height(k));
    if (name == "rho_at_cells_on_half_levels") return rho_at(half_height(k));
    if (name == "theta_v_at_cells_on_half_levels") return temperature / exner_at(half_height(k));
    if (name == "next_rho" || name == "next_exner" || name == "next_theta_v") return test::poison;
    if (name == "exner_dynamical_increment" || name == "dwdz_at_cells_on_model_levels")
      return rng.uniform();
    return 0.0;  // w, fluxes, contravariant corrections, tendencies, buoyancy, increments
  };
  for (const bool corrector : {false, true}) {
    SCOPED_TRACE(corrector ? "corrector" : "predictor");
    Dycore<Space> dycore(DycoreConfig{}, in);
    HostArrays call_host;
    HostField<double> w, rho, exner, theta_v;
    if (!corrector) {
      auto call = test::random_state<SolverPredictorArguments, M>(in.sizes(), at_rest, call_host,
                                                                  "icondiff::test::");
      call.rayleigh_damping_factor = test::random_profile<M>(
          "rayleigh_damping_factor", nlev, [&](int) { return 0.9; }, call_host);
      call.dtime = 10.0;
      call.at_first_substep = true;
      dycore.vertically_implicit_solver_at_predictor_step(call);
      compat::fence(Space(), "test");
      w = test::to_host(call.next_w), rho = test::to_host(call.next_rho);
      exner = test::to_host(call.next_exner), theta_v = test::to_host(call.next_theta_v);
    } else {
      auto call = test::random_state<SolverCorrectorArguments, M>(in.sizes(), at_rest, call_host,
                                                                  "icondiff::test::");
      call.rayleigh_damping_factor = test::random_profile<M>(
          "rayleigh_damping_factor", nlev, [&](int) { return 0.9; }, call_host);
      call.dtime = 10.0;
      call.lprep_adv = true;
      call.r_nsubsteps = 0.2;
      call.ndyn_substeps_var = 5;
      dycore.vertically_implicit_solver_at_corrector_step(call);
      compat::fence(Space(), "test");
      w = test::to_host(call.next_w), rho = test::to_host(call.next_rho);
      exner = test::to_host(call.next_exner), theta_v = test::to_host(call.next_theta_v);
    }
    const double eps = sizeof(vp) == sizeof(float) ? 1e-6 : 1e-14;
    const IndexRange cells = dycore.solver_domain().horizontal;
    for (index_t c = cells.start; c < cells.end; ++c) {
      for (int k = 0; k <= nlev; ++k) ASSERT_EQ(w(c, k), 0.0) << "cell " << c << " level " << k;
      for (int k = 0; k < nlev; ++k) {
        const double z = full_height(k);
        EXPECT_NEAR(rho(c, k), rho_at(z), eps * rho_at(z)) << "cell " << c << " level " << k;
        EXPECT_NEAR(exner(c, k), exner_at(z), eps) << "cell " << c << " level " << k;
        EXPECT_NEAR(theta_v(c, k), temperature / exner_at(z), eps * 400)
            << "cell " << c << " level " << k;
      }
    }
  }
}

/// The w the predictor returns solves ICON's tridiagonal system (the matrix of the forward
/// sweep's docstring, rebuilt here from the coefficients' definitions) to round-off, for random
/// coefficients: rows k = 1..nlev-1 of a_k w_{k-1} + b_k w_k + c_k w_{k+1} = d_k with w_0 = 0 and
/// c_{nlev-1} = 0. Fluxes and contravariant corrections are 0 and Rayleigh damping is off, so the
/// right-hand side has a short closed form.
TEST(TEST_CATEGORY, DycoreSolverResidualIsAtRoundOff) {
  const Grid grid = test::make_simple_torus_grid();
  const DeviceGrid<M> device(grid);
  const int nlev = 30;
  test::RandomSource rng(23);
  HostArrays statics, a;
  const DycoreInputs<M> in = test::random_dycore_inputs(device, nlev, rng, statics);
  DycoreConfig config;
  config.rayleigh_type = RayleighType::Classic;
  Dycore<Space> dycore(config, in);
  const test::FieldFiller fill = [&](const FieldSpec& spec, index_t, int, int) -> double {
    const std::string name = spec.name;
    if (name == "mass_flux_at_edges_on_model_levels" ||
        name == "theta_v_flux_at_edges_on_model_levels" ||
        name == "contravariant_correction_at_cells_on_half_levels" ||
        name == "contravariant_correction_at_edges_on_model_levels" ||
        name == "exner_tendency_due_to_slow_physics")
      return 0.0;
    return test::dycore_value(name, rng);
  };
  auto call =
      test::random_state<SolverPredictorArguments, M>(in.sizes(), fill, a, "icondiff::test::");
  call.rayleigh_damping_factor = test::random_profile<M>(
      "rayleigh_damping_factor", nlev, [&](int) { return 1.0; }, a);
  call.dtime = 12.0;
  dycore.vertically_implicit_solver_at_predictor_step(call);
  compat::fence(Space(), "test");
  const HostField<double> w = test::to_host(call.next_w);

  const HostField<double> exner = a.at("current_exner").field(), rho = a.at("current_rho").field(),
                          theta = a.at("current_theta_v").field(),
                          rho_ic = a.at("rho_at_cells_on_half_levels").field(),
                          theta_ic = a.at("theta_v_at_cells_on_half_levels").field(),
                          w_now = a.at("current_w").field(),
                          exner_pr = a.at("perturbed_exner_at_cells_on_model_levels").field(),
                          adv = a.at("predictor_vertical_wind_advective_tendency").field(),
                          buoy = a.at("nonhydro_buoy_at_cells_on_half_levels").field(),
                          inv_dz = statics.at("inv_ddqz_z_full").field(),
                          dz_half = statics.at("ddqz_z_half").field();
  const std::vector<double> explicit_weight =
                                statics.at("exner_w_explicit_weight_parameter").vector(),
                            implicit_weight =
                                statics.at("exner_w_implicit_weight_parameter").vector();
  const double dt = call.dtime;
  double worst = 0;
  for (index_t c = 0; c < grid.num_cells; ++c) {
    const auto beta = [&](int k) {
      return dt * physics::rd * exner(c, k) / (physics::cvd * rho(c, k) * theta(c, k)) *
             inv_dz(c, k);
    };
    const auto alpha = [&](int k) {
      return k < nlev ? implicit_weight[c] * theta_ic(c, k) * rho_ic(c, k) : 0.0;
    };
    const auto flux = [&](int k) {
      return k >= 1 && k < nlev ? rho_ic(c, k) * explicit_weight[c] * w_now(c, k) : 0.0;
    };
    const auto exner_explicit = [&](int k) {
      return exner_pr(c, k) -
             beta(k) * (theta_ic(c, k) * flux(k) - theta_ic(c, k + 1) * flux(k + 1));
    };
    for (int k = 1; k < nlev; ++k) {
      const double gamma = dt * physics::cpd * implicit_weight[c] * theta_ic(c, k) / dz_half(c, k);
      const double lower = -gamma * beta(k - 1) * alpha(k - 1);
      const double upper = -gamma * beta(k) * alpha(k + 1);
      const double diagonal = 1.0 + gamma * alpha(k) * (beta(k - 1) + beta(k));
      const double rhs = w_now(c, k) + dt * (adv(c, k) - physics::cpd * buoy(c, k)) -
                         gamma * (exner_explicit(k - 1) - exner_explicit(k));
      const double w_below = k + 1 < nlev ? w(c, k + 1) : 0.0;  // c_{nlev-1} = 0
      const double residual = lower * w(c, k - 1) + diagonal * w(c, k) + upper * w_below - rhs;
      const double scale = std::fabs(lower * w(c, k - 1)) + std::fabs(diagonal * w(c, k)) +
                           std::fabs(upper * w_below) + std::fabs(rhs);
      worst = std::max(worst, std::fabs(residual) / scale);
    }
    EXPECT_EQ(w(c, 0), 0.0) << "w at the model top, cell " << c;
  }
  // vp coefficients carry float rounding in a mixed build.
  EXPECT_LT(worst, sizeof(vp) == sizeof(float) ? 1e-5 : 1e-14);
  std::printf("largest relative residual of the tridiagonal system: %.3g\n", worst);
}

}  // namespace dycore_solver_test
}  // namespace icondiff
