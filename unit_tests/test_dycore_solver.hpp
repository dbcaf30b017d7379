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
#include "support/field_compare.hpp"
#include "support/random_dycore.hpp"
#include "support/simple_grid.hpp"
#include "support/test_grids.hpp"

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

std::uint64_t seed_for(const std::string& test) {
  if (const char* env = std::getenv("ICONDIFF_TEST_SEED")) return std::strtoull(env, nullptr, 10);
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a of the case name
  for (const char c : test) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

struct GridCase {
  std::string name;
  Grid grid;
  int nlev;
};

std::vector<GridCase> solver_grids() {
  std::vector<GridCase> grids;
  grids.push_back({"torus", test::make_simple_torus_grid(), 12});
  for (auto& g : test::global_and_lam_grids()) grids.push_back({g.name, std::move(g.grid), 10});
  return grids;
}

/// The kernel's output equals the reference's everywhere (exactly in double); outside the
/// domain's cells (all levels) it kept its initial bits.
void expect_output(const std::string& what, const HostArray& kernel, const HostField<double>& ref,
                   const HostArray& initial, IndexRange cells) {
  const HostField<double> k = kernel.field(), i = initial.field();
  const test::Tolerance tol =
      sizeof(vp) == sizeof(float) ? test::stencil_tolerance() : test::Tolerance{0.0, 0.0};
  EXPECT_TRUE(test::all_close(what, k, ref, tol));
  std::size_t touched = 0, not_finite = 0;
  for (int level = 0; level < k.levels; ++level)
    for (index_t p = 0; p < k.points; ++p) {
      if (cells.contains(p)) {
        not_finite += std::isfinite(k(p, level)) ? 0 : 1;
        continue;
      }
      const double a = k(p, level), b = i(p, level);
      if (!(a == b || (std::isnan(a) && std::isnan(b)))) ++touched;
    }
  EXPECT_EQ(touched, 0u) << what << ": points outside the domain were written";
  // Every value inside the domain is finite: a comparison of NaN with NaN proves nothing.
  EXPECT_EQ(not_finite, 0u) << what << ": values inside the domain are not finite";
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
  for (auto& g : solver_grids()) {
    const DeviceGrid<M> device(g.grid);
    test::RandomSource static_rng(seed_for("solver statics " + g.name));
    HostArrays statics;
    const DycoreInputs<M> in = test::random_dycore_inputs(device, g.nlev, static_rng, statics);
    for (const auto& c : cases)
      for (const bool subdomain : {false, true}) {
        const std::string name = g.name + " iau " + std::to_string(c.iau) + " first " +
                                 std::to_string(c.first_substep) + " divdamp_type " +
                                 std::to_string(int(c.divdamp_type)) + " rayleigh " +
                                 std::to_string(int(c.rayleigh)) + (subdomain ? " subdomain" : "");
        SCOPED_TRACE(name);
        test::RandomSource rng(seed_for("predictor " + name));
        DycoreConfig config;
        config.divdamp_type = c.divdamp_type;
        config.rayleigh_type = c.rayleigh;
        Dycore<Space> dycore(config, in);
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
  for (auto& g : solver_grids()) {
    const DeviceGrid<M> device(g.grid);
    test::RandomSource static_rng(seed_for("solver statics " + g.name));
    HostArrays statics;
    const DycoreInputs<M> in = test::random_dycore_inputs(device, g.nlev, static_rng, statics);
    for (const auto& c : cases)
      for (const bool subdomain : {false, true}) {
        const std::string name = g.name + " lprep_adv " + std::to_string(c.lprep_adv) + " first " +
                                 std::to_string(c.first_substep) + " last " +
                                 std::to_string(c.last_substep) + " iau " + std::to_string(c.iau) +
                                 " rayleigh " + std::to_string(int(c.rayleigh)) +
                                 (subdomain ? " subdomain" : "");
        SCOPED_TRACE(name);
        test::RandomSource rng(seed_for("corrector " + name));
        DycoreConfig config;
        config.rayleigh_type = c.rayleigh;
        config.veladv_offctr = rng.uniform(0, 0.5);
        Dycore<Space> dycore(config, in);
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

}  // namespace dycore_solver_test
}  // namespace icondiff
