// The small point programs of solve_nonhydro (stencils/solve_nonhydro_point_programs.hpp) run
// through Dycore<ExecSpace> against the independent plain-loop reference written from ICON4Py's
// field operators (unit_tests/reference/solve_nonhydro_reference.hpp), on seeded random inputs,
// on the torus and a global and a limited-area grid, under every loop schedule: over
// solve_nonhydro's domain (the limited-area boundary's cells, the halo's cells, the lowest level
// of the edges: empty on some grids) and over a random domain covering most of the grid, so every
// body runs on every grid. Whole arrays are compared; points outside the domain keep their bits.
// Double builds must agree with the reference exactly. Compiled once per backend.
#include "reference/solve_nonhydro_reference.hpp"
#include "support/dycore_test_cases.hpp"
#include "support/field_compare.hpp"
#include "support/random_dycore.hpp"

#include <icondiff/dycore/dycore.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace icondiff {
namespace solve_nonhydro_programs_test {

using M = TEST_MEMSPACE;
using Space = TEST_EXECSPACE;
using test::HostArrays;

std::vector<bool> as_bools(const std::vector<double>& values) {
  std::vector<bool> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = values[i] != 0;
  return out;
}

/// Pure outputs NaN; the fields in `ranges` uniform in their range (positive densities and
/// temperatures where a logarithm or a division needs them); the others as the dycore tests draw.
test::FieldFiller filler(test::RandomSource& rng, const std::vector<std::string>& outputs,
                         const std::map<std::string, std::pair<double, double>>& ranges) {
  const test::FieldFiller standard = test::dycore_call_filler(rng, outputs);
  return [&rng, standard, ranges](const FieldSpec& spec, index_t p, int j, int k) -> double {
    const auto range = ranges.find(spec.name);
    if (range == ranges.end()) return standard(spec, p, j, k);
    return rng.uniform(range->second.first, range->second.second);
  };
}

/// The domains a program is tested on: its own, and most of the grid's points and levels.
std::vector<ProgramDomain> domains(const ProgramDomain& own, index_t points, int levels,
                                   test::RandomSource& rng) {
  ProgramDomain wide;
  wide.horizontal = {rng.integer(0, int(points / 8)), points - rng.integer(0, int(points / 8))};
  wide.vertical_start = own.vertical_start == own.vertical_end - 1 ? own.vertical_start : 1;
  wide.vertical_end = own.vertical_start == own.vertical_end - 1 ? own.vertical_end : levels - 1;
  return {own, wide};
}

template <class Ref>
void set_domain(Ref& r, const ProgramDomain& d) {
  r.horizontal_start = d.horizontal.start;
  r.horizontal_end = d.horizontal.end;
  r.vertical_start = d.vertical_start;
  r.vertical_end = d.vertical_end;
}

/// One output of a call: the kernel's, the reference's and the initial values.
template <class View>
void expect_output(const char* what, const View& kernel, const test::HostField<double>& reference,
                   const HostArrays& initial, const ProgramDomain& domain) {
  test::expect_dycore_output(what, test::to_host_array(kernel).field(), reference,
                             initial.at(what).field(), [&](index_t p, int k) {
                               return domain.horizontal.contains(p) && k >= domain.vertical_start &&
                                      k < domain.vertical_end;
                             });
}

/// Runs `test(grid case, dycore, statics, inputs, rng)` for every grid and schedule.
template <class Test>
void for_every_case(const std::string& program, const Test& test) {
  for (auto& g : test::dycore_grids()) {
    const DeviceGrid<M> device(g.grid);
    test::RandomSource static_rng(test::dycore_seed(program + " statics " + g.name));
    HostArrays statics;
    const DycoreInputs<M> in = test::random_dycore_inputs(device, g.nlev, static_rng, statics);
    for (const LoopSchedule schedule : all_loop_schedules) {
      SCOPED_TRACE(g.name + " " + to_string(schedule));
      DycoreOptions<Space> options;
      options.schedule = schedule;
      Dycore<Space> dycore(DycoreConfig{}, in, options);
      test::RandomSource rng(test::dycore_seed(program + " " + g.name));
      test(g, dycore, statics, in, rng);
    }
  }
}

TEST(TEST_CATEGORY, DycoreComputeExnerFromRhothetaMatchesReference) {
  for_every_case("exner_from_rhotheta", [](auto& g, auto& dycore, const HostArrays&,
                                           const DycoreInputs<M>& in, test::RandomSource& rng) {
    for (const ProgramDomain& domain :
         domains(dycore.lateral_boundary_cells_domain(), in.grid.num_cells, in.nlev, rng)) {
      HostArrays host;
      auto call = test::random_state<ExnerFromRhothetaArguments, M>(
          in.sizes(), filler(rng, {"theta_v"}, {{"rho", {0.5, 1.5}}, {"exner", {250.0, 350.0}}}),
          host, "icondiff::test::");
      reference::ComputeExnerFromRhothetaArgs ref;
      ref.rho = host.at("rho").field();
      ref.theta_v = host.at("theta_v").field();
      ref.exner = host.at("exner").field();
      set_domain(ref, domain);
      reference::compute_exner_from_rhotheta(g.grid, ref);
      dycore.compute_exner_from_rhotheta(Space(), call, &domain);
      compat::fence(Space(), "test");
      expect_output("theta_v", call.theta_v, ref.theta_v, host, domain);
      expect_output("exner", call.exner, ref.exner, host, domain);
    }
  });
}

TEST(TEST_CATEGORY, DycoreUpdateThetaAndExnerInHaloMatchesReference) {
  for_every_case("theta_exner_halo", [](auto& g, auto& dycore, const HostArrays& statics,
                                        const DycoreInputs<M>& in, test::RandomSource& rng) {
    for (const ProgramDomain& domain :
         domains(dycore.halo_cells_domain(), in.grid.num_cells, in.nlev, rng)) {
      HostArrays host;
      // exner_new holds theta_v where the mask is false, exner where it is true.
      auto call = test::random_state<ThetaAndExnerInHaloArguments, M>(
          in.sizes(),
          filler(rng, {"theta_v_new"},
                 {{"rho_now", {0.5, 1.5}},
                  {"rho_new", {0.5, 1.5}},
                  {"theta_v_now", {250.0, 350.0}},
                  {"exner_new", {250.0, 350.0}},
                  {"exner_now", {0.8, 1.0}}}),
          host, "icondiff::test::");
      reference::UpdateThetaAndExnerInHaloArgs ref;
      ref.mask_prog_halo_c = as_bools(statics.at("mask_prog_halo_c").vector());
      ref.rho_now = host.at("rho_now").field();
      ref.rho_new = host.at("rho_new").field();
      ref.theta_v_now = host.at("theta_v_now").field();
      ref.theta_v_new = host.at("theta_v_new").field();
      ref.exner_new = host.at("exner_new").field();
      ref.exner_now = host.at("exner_now").field();
      set_domain(ref, domain);
      reference::update_theta_and_exner_in_halo(g.grid, ref);
      dycore.update_theta_and_exner_in_halo(Space(), call, &domain);
      compat::fence(Space(), "test");
      expect_output("theta_v_new", call.theta_v_new, ref.theta_v_new, host, domain);
      expect_output("exner_new", call.exner_new, ref.exner_new, host, domain);
    }
  });
}

TEST(TEST_CATEGORY, DycoreInitCellKdimFieldWithZeroMatchesReference) {
  for_every_case("init_zero", [](auto& g, auto& dycore, const HostArrays&,
                                 const DycoreInputs<M>& in, test::RandomSource& rng) {
    ProgramDomain own = dycore.lateral_boundary_cells_domain();
    own.vertical_end = in.nlev + 1;
    for (const ProgramDomain& domain : domains(own, in.grid.num_cells, in.nlev + 1, rng)) {
      HostArrays host;
      auto call = test::random_state<InitCellKdimFieldArguments, M>(
          in.sizes(), test::dycore_call_filler(rng, {}), host, "icondiff::test::");
      reference::InitCellKdimFieldWithZeroWpArgs ref;
      ref.field_with_zero_wp = host.at("field_with_zero_wp").field();
      set_domain(ref, domain);
      reference::init_cell_kdim_field_with_zero_wp(g.grid, ref);
      dycore.init_cell_kdim_field_with_zero_wp(Space(), call, &domain);
      compat::fence(Space(), "test");
      expect_output("field_with_zero_wp", call.field_with_zero_wp, ref.field_with_zero_wp, host,
                    domain);
    }
  });
}

TEST(TEST_CATEGORY, DycoreUpdateMassFluxWeightedMatchesReference) {
  for_every_case("mass_flux_weighted", [](auto& g, auto& dycore, const HostArrays& statics,
                                          const DycoreInputs<M>& in, test::RandomSource& rng) {
    for (const ProgramDomain& domain :
         domains(dycore.lateral_boundary_cells_domain(), in.grid.num_cells, in.nlev, rng)) {
      HostArrays host;
      auto call = test::random_state<MassFluxWeightedArguments, M>(
          in.sizes(), test::dycore_call_filler(rng, {}), host, "icondiff::test::");
      call.r_nsubsteps = 1.0 / rng.integer(1, 8);
      reference::UpdateMassFluxWeightedArgs ref;
      ref.rho_ic = host.at("rho_ic").field();
      ref.vwind_expl_wgt = statics.at("exner_w_explicit_weight_parameter").vector();
      ref.vwind_impl_wgt = statics.at("exner_w_implicit_weight_parameter").vector();
      ref.w_now = host.at("w_now").field();
      ref.w_new = host.at("w_new").field();
      ref.w_concorr_c = host.at("w_concorr_c").field();
      ref.mass_flx_ic = host.at("mass_flx_ic").field();
      ref.r_nsubsteps = call.r_nsubsteps;
      set_domain(ref, domain);
      reference::update_mass_flux_weighted(g.grid, ref);
      dycore.update_mass_flux_weighted(Space(), call, &domain);
      compat::fence(Space(), "test");
      expect_output("mass_flx_ic", call.mass_flx_ic, ref.mass_flx_ic, host, domain);
    }
  });
}

TEST(TEST_CATEGORY, DycoreComputeDwdzForDivergenceDampingMatchesReference) {
  for_every_case("dwdz", [](auto& g, auto& dycore, const HostArrays& statics,
                            const DycoreInputs<M>& in, test::RandomSource& rng) {
    for (const ProgramDomain& domain :
         domains(dycore.lateral_boundary_cells_domain(), in.grid.num_cells, in.nlev, rng)) {
      HostArrays host;
      auto call = test::random_state<DwdzForDivergenceDampingArguments, M>(
          in.sizes(), test::dycore_call_filler(rng, {"z_dwdz_dd"}), host, "icondiff::test::");
      reference::ComputeDwdzForDivergenceDampingArgs ref;
      ref.inv_ddqz_z_full = statics.at("inv_ddqz_z_full").field();
      ref.w = host.at("w").field();
      ref.w_concorr_c = host.at("w_concorr_c").field();
      ref.z_dwdz_dd = host.at("z_dwdz_dd").field();
      set_domain(ref, domain);
      reference::compute_dwdz_for_divergence_damping(g.grid, ref);
      dycore.compute_dwdz_for_divergence_damping(Space(), call, &domain);
      compat::fence(Space(), "test");
      expect_output("z_dwdz_dd", call.z_dwdz_dd, ref.z_dwdz_dd, host, domain);
    }
  });
}

TEST(TEST_CATEGORY, DycoreComputeHydrostaticCorrectionTermMatchesReference) {
  for_every_case("hydrostatic_correction", [](auto& g, auto& dycore, const HostArrays& statics,
                                              const DycoreInputs<M>& in, test::RandomSource& rng) {
    for (const ProgramDomain& domain :
         domains(dycore.hydrostatic_correction_domain(), in.grid.num_edges, in.nlev, rng)) {
      HostArrays host;
      auto call = test::random_state<HydrostaticCorrectionArguments, M>(
          in.sizes(),
          filler(rng, {"z_hydro_corr"},
                 {{"theta_v", {250.0, 350.0}}, {"theta_v_ic", {250.0, 350.0}}}),
          host, "icondiff::test::");
      reference::ComputeHydrostaticCorrectionTermArgs ref;
      ref.theta_v = host.at("theta_v").field();
      ref.ikoffset = statics.at("vertoffset_gradp").int_field3();
      ref.zdiff_gradp = statics.at("zdiff_gradp").field3();
      ref.theta_v_ic = host.at("theta_v_ic").field();
      ref.inv_ddqz_z_full = statics.at("inv_ddqz_z_full").field();
      ref.inv_dual_edge_length = statics.at("inverse_dual_edge_lengths").vector();
      ref.z_hydro_corr = host.at("z_hydro_corr").field();
      set_domain(ref, domain);
      reference::compute_hydrostatic_correction_term(g.grid, ref);
      dycore.compute_hydrostatic_correction_term(Space(), call, &domain);
      compat::fence(Space(), "test");
      expect_output("z_hydro_corr", call.z_hydro_corr, ref.z_hydro_corr, host, domain);
    }
  });
}

TEST(TEST_CATEGORY, DycoreComputeHorizontalVelocityQuantitiesAndFluxesMatchesReference) {
  for_every_case("horizontal_velocity", [](auto& g, auto& dycore, const HostArrays& statics,
                                           const DycoreInputs<M>& in, test::RandomSource& rng) {
    const ProgramDomain own = dycore.horizontal_velocity_quantities_domain();
    ProgramDomain sub = own;  // fewer points and levels (the extrapolation moves up with them)
    sub.horizontal = {own.horizontal.start + rng.integer(0, int(own.horizontal.size() / 4)),
                      own.horizontal.end - rng.integer(0, int(own.horizontal.size() / 4))};
    sub.vertical_start = 1;
    sub.vertical_end = in.nlev;
    for (const ProgramDomain& domain : {own, sub}) {
      HostArrays host;
      const std::vector<std::string> outputs = {
          "spatially_averaged_vn",
          "horizontal_gradient_of_normal_wind_divergence",
          "tangential_wind",
          "mass_flux_at_edges_on_model_levels",
          "theta_v_flux_at_edges_on_model_levels",
          "tangential_wind_on_half_levels",
          "vn_on_half_levels",
          "horizontal_kinetic_energy_at_edges_on_model_levels"};
      auto call = test::random_state<HorizontalVelocityQuantitiesArguments, M>(
          in.sizes(), test::dycore_call_filler(rng, outputs), host, "icondiff::test::");
      reference::ComputeHorizontalVelocityQuantitiesAndFluxesArgs ref;
      for (const auto& [field, name] :
           std::initializer_list<std::pair<test::HostField<double>*, const char*>>{
               {&ref.spatially_averaged_vn, "spatially_averaged_vn"},
               {&ref.horizontal_gradient_of_normal_wind_divergence,
                "horizontal_gradient_of_normal_wind_divergence"},
               {&ref.tangential_wind, "tangential_wind"},
               {&ref.mass_flux_at_edges_on_model_levels, "mass_flux_at_edges_on_model_levels"},
               {&ref.theta_v_flux_at_edges_on_model_levels,
                "theta_v_flux_at_edges_on_model_levels"},
               {&ref.tangential_wind_on_half_levels, "tangential_wind_on_half_levels"},
               {&ref.vn_on_half_levels, "vn_on_half_levels"},
               {&ref.horizontal_kinetic_energy_at_edges_on_model_levels,
                "horizontal_kinetic_energy_at_edges_on_model_levels"},
               {&ref.contravariant_correction_at_edges_on_model_levels,
                "contravariant_correction_at_edges_on_model_levels"},
               {&ref.vn, "vn"},
               {&ref.rho_at_edges_on_model_levels, "rho_at_edges_on_model_levels"},
               {&ref.theta_v_at_edges_on_model_levels, "theta_v_at_edges_on_model_levels"}})
        *field = host.at(name).field();
      ref.e_flx_avg = statics.at("e_flx_avg").table();
      ref.geofac_grdiv = statics.at("geofac_grdiv").table();
      ref.rbf_vec_coeff_e = statics.at("rbf_vec_coeff_e").table();
      for (const auto& [field, name] :
           std::initializer_list<std::pair<test::HostField<double>*, const char*>>{
               {&ref.ddqz_z_full_e, "ddqz_z_full_e"},
               {&ref.ddxn_z_full, "ddxn_z_full"},
               {&ref.ddxt_z_full, "ddxt_z_full"},
               {&ref.wgtfac_e, "wgtfac_e"},
               {&ref.wgtfacq_e, "wgtfacq_e"}})
        *field = statics.at(name).field();
      ref.nflatlev = in.nflatlev;
      set_domain(ref, domain);
      reference::compute_horizontal_velocity_quantities_and_fluxes(g.grid, ref);
      dycore.compute_horizontal_velocity_quantities_and_fluxes(Space(), call, &domain);
      compat::fence(Space(), "test");
      ProgramDomain main = domain;  // every output but vn_ie stops above the extrapolated level
      main.vertical_end = domain.vertical_end - 1;
      ProgramDomain flat = main;
      flat.vertical_start = std::max(main.vertical_start, in.nflatlev);
      expect_output("spatially_averaged_vn", call.spatially_averaged_vn, ref.spatially_averaged_vn,
                    host, main);
      expect_output("horizontal_gradient_of_normal_wind_divergence",
                    call.horizontal_gradient_of_normal_wind_divergence,
                    ref.horizontal_gradient_of_normal_wind_divergence, host, main);
      expect_output("tangential_wind", call.tangential_wind, ref.tangential_wind, host, main);
      expect_output("mass_flux_at_edges_on_model_levels", call.mass_flux_at_edges_on_model_levels,
                    ref.mass_flux_at_edges_on_model_levels, host, main);
      expect_output("theta_v_flux_at_edges_on_model_levels",
                    call.theta_v_flux_at_edges_on_model_levels,
                    ref.theta_v_flux_at_edges_on_model_levels, host, main);
      expect_output("tangential_wind_on_half_levels", call.tangential_wind_on_half_levels,
                    ref.tangential_wind_on_half_levels, host, main);
      expect_output("vn_on_half_levels", call.vn_on_half_levels, ref.vn_on_half_levels, host,
                    domain);
      expect_output("horizontal_kinetic_energy_at_edges_on_model_levels",
                    call.horizontal_kinetic_energy_at_edges_on_model_levels,
                    ref.horizontal_kinetic_energy_at_edges_on_model_levels, host, main);
      expect_output("contravariant_correction_at_edges_on_model_levels",
                    call.contravariant_correction_at_edges_on_model_levels,
                    ref.contravariant_correction_at_edges_on_model_levels, host, flat);
    }
  });
}

TEST(TEST_CATEGORY, DycoreComputeAveragedVnAndFluxesMatchesReference) {
  for_every_case("averaged_vn", [](auto& g, auto& dycore, const HostArrays& statics,
                                   const DycoreInputs<M>& in, test::RandomSource& rng) {
    for (const bool prepare_advection : {false, true})
      for (const bool first : {false, true})
        for (const ProgramDomain& domain :
             domains(dycore.averaged_vn_and_fluxes_domain(), in.grid.num_edges, in.nlev, rng)) {
          HostArrays host;
          auto call = test::random_state<AveragedVnAndFluxesArguments, M>(
              in.sizes(),
              test::dycore_call_filler(
                  rng, {"spatially_averaged_vn", "mass_flux_at_edges_on_model_levels",
                        "theta_v_flux_at_edges_on_model_levels"}),
              host, "icondiff::test::");
          call.prepare_advection = prepare_advection;
          call.at_first_substep = first;
          call.r_nsubsteps = 1.0 / rng.integer(1, 8);
          reference::ComputeAveragedVnAndFluxesArgs ref;
          ref.spatially_averaged_vn = host.at("spatially_averaged_vn").field();
          ref.mass_flux_at_edges_on_model_levels =
              host.at("mass_flux_at_edges_on_model_levels").field();
          ref.theta_v_flux_at_edges_on_model_levels =
              host.at("theta_v_flux_at_edges_on_model_levels").field();
          ref.substep_and_spatially_averaged_vn =
              host.at("substep_and_spatially_averaged_vn").field();
          ref.substep_averaged_mass_flux = host.at("substep_averaged_mass_flux").field();
          ref.e_flx_avg = statics.at("e_flx_avg").table();
          ref.vn = host.at("vn").field();
          ref.rho_at_edges_on_model_levels = host.at("rho_at_edges_on_model_levels").field();
          ref.ddqz_z_full_e = statics.at("ddqz_z_full_e").field();
          ref.theta_v_at_edges_on_model_levels =
              host.at("theta_v_at_edges_on_model_levels").field();
          ref.prepare_advection = prepare_advection;
          ref.at_first_substep = first;
          ref.r_nsubsteps = call.r_nsubsteps;
          set_domain(ref, domain);
          reference::compute_averaged_vn_and_fluxes(g.grid, ref);
          dycore.compute_averaged_vn_and_fluxes(Space(), call, &domain);
          compat::fence(Space(), "test");
          for (const auto& [view, reference, name] :
               std::initializer_list<std::tuple<decltype(call.spatially_averaged_vn),
                                                const test::HostField<double>*, const char*>>{
                   {call.spatially_averaged_vn, &ref.spatially_averaged_vn,
                    "spatially_averaged_vn"},
                   {call.mass_flux_at_edges_on_model_levels,
                    &ref.mass_flux_at_edges_on_model_levels, "mass_flux_at_edges_on_model_levels"},
                   {call.theta_v_flux_at_edges_on_model_levels,
                    &ref.theta_v_flux_at_edges_on_model_levels,
                    "theta_v_flux_at_edges_on_model_levels"}})
            expect_output(name, view, *reference, host, domain);
          ProgramDomain accumulated = domain;  // nowhere without prepare_advection
          if (!prepare_advection) accumulated.vertical_end = accumulated.vertical_start;
          expect_output("substep_and_spatially_averaged_vn", call.substep_and_spatially_averaged_vn,
                        ref.substep_and_spatially_averaged_vn, host, accumulated);
          expect_output("substep_averaged_mass_flux", call.substep_averaged_mass_flux,
                        ref.substep_averaged_mass_flux, host, accumulated);
        }
  });
}

TEST(TEST_CATEGORY, DycoreStencils6162MatchesReference) {
  for_every_case("stencils_61_62", [](auto& g, auto& dycore, const HostArrays&,
                                      const DycoreInputs<M>& in, test::RandomSource& rng) {
    ProgramDomain own = dycore.lateral_boundary_cells_domain();
    own.vertical_end = in.nlev + 1;
    for (const ProgramDomain& domain : domains(own, in.grid.num_cells, in.nlev + 1, rng)) {
      HostArrays host;
      auto call = test::random_state<Stencils6162Arguments, M>(
          in.sizes(), test::dycore_call_filler(rng, {"rho_new", "exner_new", "w_new"}), host,
          "icondiff::test::");
      call.dtime = 10.0 + rng.uniform(0, 5);
      reference::Stencils6162Args ref;
      for (const auto& [field, name] :
           std::initializer_list<std::pair<test::HostField<double>*, const char*>>{
               {&ref.rho_now, "rho_now"},
               {&ref.grf_tend_rho, "grf_tend_rho"},
               {&ref.theta_v_now, "theta_v_now"},
               {&ref.grf_tend_thv, "grf_tend_thv"},
               {&ref.w_now, "w_now"},
               {&ref.grf_tend_w, "grf_tend_w"},
               {&ref.rho_new, "rho_new"},
               {&ref.exner_new, "exner_new"},
               {&ref.w_new, "w_new"}})
        *field = host.at(name).field();
      ref.dtime = call.dtime;
      set_domain(ref, domain);
      reference::stencils_61_62(g.grid, ref);
      dycore.stencils_61_62(Space(), call, &domain);
      compat::fence(Space(), "test");
      ProgramDomain full_levels = domain;  // rho and "exner" stop above the domain's last level
      full_levels.vertical_end = domain.vertical_end - 1;
      expect_output("rho_new", call.rho_new, ref.rho_new, host, full_levels);
      expect_output("exner_new", call.exner_new, ref.exner_new, host, full_levels);
      expect_output("w_new", call.w_new, ref.w_new, host, domain);
    }
  });
}

TEST(TEST_CATEGORY, DycoreComputeRayleighDampingFactorMatchesReference) {
  for_every_case("rayleigh", [](auto&, auto& dycore, const HostArrays&, const DycoreInputs<M>& in,
                                test::RandomSource& rng) {
    const double dtime = 10.0 + rng.uniform(0, 20);
    Kokkos::View<wp*, FieldLayout, M> factor("icondiff::test::rayleigh_damping_factor", in.nlev);
    dycore.compute_rayleigh_damping_factor(Space(), dtime, factor);
    compat::fence(Space(), "test");
    reference::ComputeRayleighDampingFactorArgs ref;
    const auto rayleigh_w =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), in.metric.rayleigh_w);
    for (std::size_t k = 0; k < rayleigh_w.extent(0); ++k) ref.rayleigh_w.push_back(rayleigh_w(k));
    ref.dtime = dtime;
    ref.rayleigh_damping_factor.assign(in.nlev, std::nan(""));
    reference::compute_rayleigh_damping_factor(ref);
    const auto kernel = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), factor);
    for (int k = 0; k < in.nlev; ++k) EXPECT_EQ(kernel(k), ref.rayleigh_damping_factor[k]) << k;
  });
}

TEST(TEST_CATEGORY, DycoreComputeInterpolationAndNonhydroBuoyMatchesReference) {
  for_every_case("interpolation_buoy", [](auto& g, auto& dycore, const HostArrays& statics,
                                          const DycoreInputs<M>& in, test::RandomSource& rng) {
    for (const ProgramDomain& domain : domains(dycore.interpolation_and_nonhydro_buoy_domain(),
                                               in.grid.num_cells, in.nlev, rng)) {
      HostArrays host;
      auto call = test::random_state<InterpolationAndNonhydroBuoyArguments, M>(
          in.sizes(),
          test::dycore_call_filler(
              rng, {"rho_at_cells_on_half_levels", "perturbed_theta_v_at_cells_on_half_levels",
                    "theta_v_at_cells_on_half_levels", "nonhydro_buoy_at_cells_on_half_levels"}),
          host, "icondiff::test::");
      call.dtime = 10.0 + rng.uniform(0, 5);
      reference::ComputeInterpolationAndNonhydroBuoyArgs ref;
      for (const auto& [field, name] :
           std::initializer_list<std::pair<test::HostField<double>*, const char*>>{
               {&ref.rho_at_cells_on_half_levels, "rho_at_cells_on_half_levels"},
               {&ref.perturbed_theta_v_at_cells_on_half_levels,
                "perturbed_theta_v_at_cells_on_half_levels"},
               {&ref.theta_v_at_cells_on_half_levels, "theta_v_at_cells_on_half_levels"},
               {&ref.nonhydro_buoy_at_cells_on_half_levels,
                "nonhydro_buoy_at_cells_on_half_levels"},
               {&ref.w, "w"},
               {&ref.contravariant_correction_at_cells_on_half_levels,
                "contravariant_correction_at_cells_on_half_levels"},
               {&ref.current_rho, "current_rho"},
               {&ref.next_rho, "next_rho"},
               {&ref.current_theta_v, "current_theta_v"},
               {&ref.next_theta_v, "next_theta_v"},
               {&ref.perturbed_exner_at_cells_on_model_levels,
                "perturbed_exner_at_cells_on_model_levels"}})
        *field = host.at(name).field();
      ref.reference_theta_at_cells_on_model_levels = statics.at("theta_ref_mc").field();
      ref.ddz_of_reference_exner_at_cells_on_half_levels =
          statics.at("ddz_of_reference_exner_at_cells_on_half_levels").field();
      ref.ddqz_z_half = statics.at("ddqz_z_half").field();
      ref.wgtfac_c = statics.at("wgtfac_c").field();
      ref.exner_w_explicit_weight_parameter =
          statics.at("exner_w_explicit_weight_parameter").vector();
      ref.dtime = call.dtime;
      ref.rhotheta_explicit_weight_parameter = dycore.config().rhotheta_explicit_weight_parameter();
      ref.rhotheta_implicit_weight_parameter = dycore.config().rhotheta_implicit_weight_parameter();
      set_domain(ref, domain);
      reference::compute_interpolation_and_nonhydro_buoy(g.grid, ref);
      dycore.compute_interpolation_and_nonhydro_buoy(Space(), call, &domain);
      compat::fence(Space(), "test");
      for (const char* name : {"rho_at_cells_on_half_levels", "theta_v_at_cells_on_half_levels"})
        expect_output(name,
                      name == std::string("rho_at_cells_on_half_levels")
                          ? call.rho_at_cells_on_half_levels
                          : call.theta_v_at_cells_on_half_levels,
                      name == std::string("rho_at_cells_on_half_levels")
                          ? ref.rho_at_cells_on_half_levels
                          : ref.theta_v_at_cells_on_half_levels,
                      host, domain);
      expect_output("perturbed_theta_v_at_cells_on_half_levels",
                    call.perturbed_theta_v_at_cells_on_half_levels,
                    ref.perturbed_theta_v_at_cells_on_half_levels, host, domain);
      expect_output("nonhydro_buoy_at_cells_on_half_levels",
                    call.nonhydro_buoy_at_cells_on_half_levels,
                    ref.nonhydro_buoy_at_cells_on_half_levels, host, domain);
    }
  });
}

TEST(TEST_CATEGORY, DycoreComputePerturbedQuantitiesAndInterpolationMatchesReference) {
  for_every_case(
      "perturbed_quantities", [](auto& g, auto& grid_dycore, const HostArrays& statics,
                                 const DycoreInputs<M>& grid_inputs, test::RandomSource& rng) {
        // Also with nflatlev = 0, where exner at half levels starts at level 1 (max(1, nflatlev)).
        for (const int nflatlev : {grid_inputs.nflatlev, 0}) {
          DycoreInputs<M> in = grid_inputs;
          in.nflatlev = nflatlev;
          DycoreOptions<Space> options;  // the case's schedule
          options.schedule = grid_dycore.runner().schedule();
          Dycore<Space> dycore(DycoreConfig{}, in, options);
          const ProgramDomain own = dycore.perturbed_quantities_domain();
          ProgramDomain wide = own;  // most cells, so that every grid exercises the body
          wide.horizontal = {rng.integer(0, int(in.grid.num_cells / 8)),
                             in.grid.num_cells - rng.integer(0, int(in.grid.num_cells / 8))};
          for (const ProgramDomain& domain : {own, wide}) {
            HostArrays host;
            const std::vector<std::string> outputs = {"temporal_extrapolation_of_perturbed_exner",
                                                      "perturbed_rho_at_cells_on_model_levels",
                                                      "perturbed_theta_v_at_cells_on_model_levels",
                                                      "perturbed_theta_v_at_cells_on_half_levels"};
            auto call = test::random_state<PerturbedQuantitiesArguments, M>(
                in.sizes(), test::dycore_call_filler(rng, outputs), host, "icondiff::test::");
            reference::ComputePerturbedQuantitiesAndInterpolationArgs ref;
            for (const char* name :
                 {"temporal_extrapolation_of_perturbed_exner",
                  "ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels",
                  "d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels",
                  "perturbed_exner_at_cells_on_model_levels", "exner_at_cells_on_half_levels",
                  "perturbed_rho_at_cells_on_model_levels",
                  "perturbed_theta_v_at_cells_on_model_levels", "rho_at_cells_on_half_levels",
                  "perturbed_theta_v_at_cells_on_half_levels", "theta_v_at_cells_on_half_levels",
                  "nonhydro_buoy_at_cells_on_half_levels", "current_rho", "current_theta_v",
                  "current_exner"}) {
              test::HostField<double>* field = nullptr;
              const std::string n = name;
              if (n == "temporal_extrapolation_of_perturbed_exner")
                field = &ref.temporal_extrapolation_of_perturbed_exner;
              if (n == "ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels")
                field = &ref.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
              if (n == "d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels")
                field = &ref.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
              if (n == "perturbed_exner_at_cells_on_model_levels")
                field = &ref.perturbed_exner_at_cells_on_model_levels;
              if (n == "exner_at_cells_on_half_levels") field = &ref.exner_at_cells_on_half_levels;
              if (n == "perturbed_rho_at_cells_on_model_levels")
                field = &ref.perturbed_rho_at_cells_on_model_levels;
              if (n == "perturbed_theta_v_at_cells_on_model_levels")
                field = &ref.perturbed_theta_v_at_cells_on_model_levels;
              if (n == "rho_at_cells_on_half_levels") field = &ref.rho_at_cells_on_half_levels;
              if (n == "perturbed_theta_v_at_cells_on_half_levels")
                field = &ref.perturbed_theta_v_at_cells_on_half_levels;
              if (n == "theta_v_at_cells_on_half_levels")
                field = &ref.theta_v_at_cells_on_half_levels;
              if (n == "nonhydro_buoy_at_cells_on_half_levels")
                field = &ref.nonhydro_buoy_at_cells_on_half_levels;
              if (n == "current_rho") field = &ref.current_rho;
              if (n == "current_theta_v") field = &ref.current_theta_v;
              if (n == "current_exner") field = &ref.current_exner;
              *field = host.at(name).field();
            }
            ref.reference_rho_at_cells_on_model_levels =
                statics.at("reference_rho_at_cells_on_model_levels").field();
            ref.reference_theta_at_cells_on_model_levels = statics.at("theta_ref_mc").field();
            ref.reference_theta_at_cells_on_half_levels =
                statics.at("reference_theta_at_cells_on_half_levels").field();
            ref.wgtfacq_c = statics.at("wgtfacq_c").field();
            ref.wgtfac_c = statics.at("wgtfac_c").field();
            ref.exner_w_explicit_weight_parameter =
                statics.at("exner_w_explicit_weight_parameter").vector();
            ref.ddz_of_reference_exner_at_cells_on_half_levels =
                statics.at("ddz_of_reference_exner_at_cells_on_half_levels").field();
            ref.ddqz_z_half = statics.at("ddqz_z_half").field();
            ref.time_extrapolation_parameter_for_exner =
                statics.at("time_extrapolation_parameter_for_exner").field();
            ref.reference_exner_at_cells_on_model_levels =
                statics.at("reference_exner_at_cells_on_model_levels").field();
            ref.inv_ddqz_z_full = statics.at("inv_ddqz_z_full").field();
            ref.d2dexdz2_fac1_mc = statics.at("d2dexdz2_fac1_mc").field();
            ref.d2dexdz2_fac2_mc = statics.at("d2dexdz2_fac2_mc").field();
            ref.nflatlev = in.nflatlev;
            ref.nflat_gradp = in.nflat_gradp;
            ref.start_cell_lateral_boundary_level_3 = domain.horizontal.start;
            ref.end_cell_halo = domain.horizontal.end;
            ref.start_cell_halo_level_2 = g.grid.start(Location::Cell, Zone::Halo2);
            ref.end_cell_halo_level_2 = g.grid.end(Location::Cell, Zone::Halo2);
            ref.model_top = 0;
            ref.surface_level = in.nlev + 1;
            reference::compute_perturbed_quantities_and_interpolation(g.grid, ref);
            dycore.compute_perturbed_quantities_and_interpolation(Space(), call, &domain);
            compat::fence(Space(), "test");
            // Where the program writes each output, as velocity_advection... as ICON4Py's six steps
            // do.
            const auto on = [&](int k0, int k1) {
              ProgramDomain d = domain;
              d.vertical_start = k0;
              d.vertical_end = k1;
              return d;
            };
            const int nlev = in.nlev;
            const int flat = std::max(1, in.nflatlev);
            expect_output("temporal_extrapolation_of_perturbed_exner",
                          call.temporal_extrapolation_of_perturbed_exner,
                          ref.temporal_extrapolation_of_perturbed_exner, host, on(0, nlev));
            expect_output("perturbed_exner_at_cells_on_model_levels",
                          call.perturbed_exner_at_cells_on_model_levels,
                          ref.perturbed_exner_at_cells_on_model_levels, host, on(0, nlev));
            expect_output("perturbed_rho_at_cells_on_model_levels",
                          call.perturbed_rho_at_cells_on_model_levels,
                          ref.perturbed_rho_at_cells_on_model_levels, host, on(0, nlev));
            expect_output("perturbed_theta_v_at_cells_on_model_levels",
                          call.perturbed_theta_v_at_cells_on_model_levels,
                          ref.perturbed_theta_v_at_cells_on_model_levels, host, on(0, nlev));
            expect_output("perturbed_theta_v_at_cells_on_half_levels",
                          call.perturbed_theta_v_at_cells_on_half_levels,
                          ref.perturbed_theta_v_at_cells_on_half_levels, host, on(0, nlev + 1));
            expect_output("rho_at_cells_on_half_levels", call.rho_at_cells_on_half_levels,
                          ref.rho_at_cells_on_half_levels, host, on(1, nlev));
            expect_output("theta_v_at_cells_on_half_levels", call.theta_v_at_cells_on_half_levels,
                          ref.theta_v_at_cells_on_half_levels, host, on(1, nlev + 1));
            expect_output("nonhydro_buoy_at_cells_on_half_levels",
                          call.nonhydro_buoy_at_cells_on_half_levels,
                          ref.nonhydro_buoy_at_cells_on_half_levels, host, on(1, nlev));
            // exner at half levels: from max(1, nflatlev) down to the surface (Taylor-hydrostatic).
            expect_output("exner_at_cells_on_half_levels", call.exner_at_cells_on_half_levels,
                          ref.exner_at_cells_on_half_levels, host, on(flat, nlev + 1));
            expect_output("ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels",
                          call.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels,
                          ref.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels,
                          host, on(in.nflatlev, nlev));
            expect_output("d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels",
                          call.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels,
                          ref.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels,
                          host, on(in.nflat_gradp, nlev));
          }
        }
      });
}

}  // namespace solve_nonhydro_programs_test
}  // namespace icondiff
