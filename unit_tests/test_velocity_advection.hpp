// Velocity advection's programs run through Dycore<ExecSpace> against the independent plain-loop
// reference written from ICON4Py's field operators (unit_tests/reference/
// velocity_advection_reference.hpp), on seeded random inputs, on the torus and a global (with
// its pentagons' missing V2C neighbours) and a limited-area grid, for every variant, over
// velocity_advection.py's domains and over random sub-domains, under every loop schedule.
// Outputs start poisoned (NaN) or random; whole arrays are compared, and every point outside
// where ICON4Py writes an output must keep its initial bits. Double builds must agree with the
// reference exactly; mixed-precision builds within the stencil tolerance. Compiled once per
// backend.
#include "reference/velocity_advection_reference.hpp"
#include "support/dycore_test_cases.hpp"
#include "support/field_compare.hpp"
#include "support/random_dycore.hpp"

#include <icondiff/dycore/dycore.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace icondiff {
namespace velocity_advection_test {

using M = TEST_MEMSPACE;
using Space = TEST_EXECSPACE;
using test::HostArray;
using test::HostArrays;

HostArray as_array(const test::HostField<double>& f) {
  return {{static_cast<std::size_t>(f.points), static_cast<std::size_t>(f.levels)}, f.values};
}

/// A random sub-domain of `full`: fewer points, and levels [1, end - 1).
ProgramDomain random_subdomain(const ProgramDomain& full, test::RandomSource& rng) {
  ProgramDomain d = full;
  if (full.horizontal.size() > 2) {
    d.horizontal.start = full.horizontal.start + rng.integer(0, int(full.horizontal.size() / 3));
    d.horizontal.end = full.horizontal.end - rng.integer(0, int(full.horizontal.size() / 3));
  }
  d.vertical_start = full.vertical_start + 1;
  d.vertical_end = full.vertical_end - 1;
  return d;
}

// ---- compute_diagnostics_from_normal_wind -------------------------------------------------------

reference::ComputeDiagnosticsFromNormalWindArgs reference_args(
    const HostArrays& s, const HostArrays& a, const DiagnosticsFromNormalWindArguments<M>& call,
    const DycoreInputs<M>& in, const ProgramDomain& domain) {
  reference::ComputeDiagnosticsFromNormalWindArgs r;
  r.tangential_wind = a.at("tangential_wind").field();
  r.tangential_wind_on_half_levels = a.at("tangential_wind_on_half_levels").field();
  r.vn_on_half_levels = a.at("vn_on_half_levels").field();
  r.horizontal_kinetic_energy_at_edges_on_model_levels =
      a.at("horizontal_kinetic_energy_at_edges_on_model_levels").field();
  r.contravariant_correction_at_edges_on_model_levels =
      a.at("contravariant_correction_at_edges_on_model_levels").field();
  r.horizontal_advection_of_w_at_edges_on_half_levels =
      a.at("horizontal_advection_of_w_at_edges_on_half_levels").field();
  r.vn = a.at("vn").field();
  r.w = a.at("w").field();
  r.rbf_vec_coeff_e = s.at("rbf_vec_coeff_e").table();
  r.wgtfac_e = s.at("wgtfac_e").field();
  r.ddxn_z_full = s.at("ddxn_z_full").field();
  r.ddxt_z_full = s.at("ddxt_z_full").field();
  r.wgtfacq_e = s.at("wgtfacq_e").field();
  r.c_intp = s.at("c_intp").table();
  r.inv_dual_edge_length = s.at("inverse_dual_edge_lengths").vector();
  r.inv_primal_edge_length = s.at("inverse_primal_edge_lengths").vector();
  r.tangent_orientation = s.at("tangent_orientation").vector();
  r.skip_compute_predictor_vertical_advection = call.skip_compute_predictor_vertical_advection;
  r.nflatlev = in.nflatlev;
  r.horizontal_start = domain.horizontal.start;
  r.horizontal_end = domain.horizontal.end;
  r.vertical_start = domain.vertical_start;
  r.vertical_end = domain.vertical_end;
  return r;
}

TEST(TEST_CATEGORY, DycoreComputeDiagnosticsFromNormalWindMatchesReference) {
  for (auto& g : test::dycore_grids()) {
    const DeviceGrid<M> device(g.grid);
    test::RandomSource static_rng(test::dycore_seed("diagnostics_from_vn statics " + g.name));
    HostArrays statics;
    const DycoreInputs<M> in = test::random_dycore_inputs(device, g.nlev, static_rng, statics);
    for (const bool skip : {false, true})
      for (const bool subdomain : {false, true})
        for (const LoopSchedule schedule : all_loop_schedules) {
          const std::string name = g.name + (skip ? " skip" : "") + (subdomain ? " subdomain" : "");
          SCOPED_TRACE(name + " " + to_string(schedule));
          test::RandomSource rng(test::dycore_seed("diagnostics_from_vn " + name));
          DycoreOptions<Space> options;
          options.schedule = schedule;
          Dycore<Space> dycore(DycoreConfig{}, in, options);
          // Pure outputs start as NaN; the in/out fields random, so "untouched" shows.
          const std::vector<std::string> outputs = {
              "tangential_wind", "vn_on_half_levels",
              "horizontal_kinetic_energy_at_edges_on_model_levels"};
          HostArrays call_host;
          auto call = test::random_state<DiagnosticsFromNormalWindArguments, M>(
              in.sizes(), test::dycore_call_filler(rng, outputs), call_host, "icondiff::test::");
          call.skip_compute_predictor_vertical_advection = skip;
          ProgramDomain domain = dycore.diagnostics_from_normal_wind_domain();
          if (subdomain) domain = random_subdomain(domain, rng);

          auto ref = reference_args(statics, call_host, call, in, domain);
          reference::compute_diagnostics_from_normal_wind(g.grid, ref);
          dycore.compute_diagnostics_from_normal_wind(Space(), call, &domain);
          compat::fence(Space(), "test");

          // Where ICON4Py writes each output: the main part on [vertical_start, L), the
          // extrapolated vn_ie on level L = vertical_end - 1.
          const int last = domain.vertical_end - 1;
          const auto on_levels = [&](int k0, int k1) {
            return [&domain, k0, k1](index_t e, int k) {
              return domain.horizontal.contains(e) && k >= k0 && k < k1;
            };
          };
          const auto check = [&](const char* what, const auto& kernel, const auto& reference,
                                 const auto& inside) {
            test::expect_dycore_output(what, test::to_host_array(kernel).field(), reference,
                                       call_host.at(what).field(), inside);
          };
          const int k0 = domain.vertical_start;
          check("tangential_wind", call.tangential_wind, ref.tangential_wind, on_levels(k0, last));
          check("horizontal_kinetic_energy_at_edges_on_model_levels",
                call.horizontal_kinetic_energy_at_edges_on_model_levels,
                ref.horizontal_kinetic_energy_at_edges_on_model_levels, on_levels(k0, last));
          check("vn_on_half_levels", call.vn_on_half_levels, ref.vn_on_half_levels,
                on_levels(k0, last + 1));
          check("contravariant_correction_at_edges_on_model_levels",
                call.contravariant_correction_at_edges_on_model_levels,
                ref.contravariant_correction_at_edges_on_model_levels,
                on_levels(std::max(k0, in.nflatlev), last));
          const int advected_end = skip ? k0 : last;  // skipped: nowhere
          check("tangential_wind_on_half_levels", call.tangential_wind_on_half_levels,
                ref.tangential_wind_on_half_levels, on_levels(k0, advected_end));
          check("horizontal_advection_of_w_at_edges_on_half_levels",
                call.horizontal_advection_of_w_at_edges_on_half_levels,
                ref.horizontal_advection_of_w_at_edges_on_half_levels, on_levels(k0, advected_end));
        }
  }
}

// ---- compute_advection_in_horizontal_momentum
// ----------------------------------------------------

reference::ComputeAdvectionInHorizontalMomentumArgs reference_args(
    const HostArrays& s, const HostArrays& a, const AdvectionInHorizontalMomentumArguments<M>& call,
    const DycoreInputs<M>& in, const ProgramDomain& domain) {
  reference::ComputeAdvectionInHorizontalMomentumArgs r;
  r.normal_wind_advective_tendency = a.at("normal_wind_advective_tendency").field();
  r.vn = a.at("vn").field();
  r.horizontal_kinetic_energy_at_edges_on_model_levels =
      a.at("horizontal_kinetic_energy_at_edges_on_model_levels").field();
  r.tangential_wind = a.at("tangential_wind").field();
  r.coriolis_frequency = s.at("coriolis_frequency").vector();
  r.contravariant_corrected_w_at_cells_on_model_levels =
      a.at("contravariant_corrected_w_at_cells_on_model_levels").field();
  r.vn_on_half_levels = a.at("vn_on_half_levels").field();
  r.e_bln_c_s = s.at("e_bln_c_s").table();
  r.geofac_rot = s.at("geofac_rot").table();
  r.coeff_gradekin = s.at("coeff_gradekin").table();
  r.c_lin_e = s.at("c_lin_e").table();
  r.ddqz_z_full_e = s.at("ddqz_z_full_e").field();
  r.area_edge = s.at("edge_areas").vector();
  r.tangent_orientation = s.at("tangent_orientation").vector();
  r.inv_primal_edge_length = s.at("inverse_primal_edge_lengths").vector();
  r.geofac_grdiv = s.at("geofac_grdiv").table();
  r.cfl_w_limit = call.cfl_w_limit;
  r.scalfac_exdiff = call.scalfac_exdiff;
  r.dtime = call.dtime;
  r.apply_extra_diffusion_on_vn = call.apply_extra_diffusion_on_vn;
  r.end_index_of_damping_layer = in.end_index_of_damping_layer;
  r.horizontal_start = domain.horizontal.start;
  r.horizontal_end = domain.horizontal.end;
  r.vertical_start = domain.vertical_start;
  r.vertical_end = domain.vertical_end;
  return r;
}

TEST(TEST_CATEGORY, DycoreComputeAdvectionInHorizontalMomentumMatchesReference) {
  for (auto& g : test::dycore_grids()) {
    const DeviceGrid<M> device(g.grid);
    test::RandomSource static_rng(test::dycore_seed("horizontal momentum statics " + g.name));
    HostArrays statics;
    const DycoreInputs<M> in = test::random_dycore_inputs(device, g.nlev, static_rng, statics);
    for (const bool subdomain : {false, true})
      for (const LoopSchedule schedule : all_loop_schedules) {
        const std::string name = g.name + (subdomain ? " subdomain" : "");
        SCOPED_TRACE(name + " " + to_string(schedule));
        test::RandomSource rng(test::dycore_seed("horizontal momentum " + name));
        DycoreOptions<Space> options;
        options.schedule = schedule;
        Dycore<Space> dycore(DycoreConfig{}, in, options);
        HostArrays call_host;
        auto call = test::random_state<AdvectionInHorizontalMomentumArguments, M>(
            in.sizes(), test::dycore_call_filler(rng, {"normal_wind_advective_tendency"}),
            call_host, "icondiff::test::");
        call.dtime = 10.0 + rng.uniform(0, 5);
        const VelocityAdvectionScaleFactors factors = velocity_advection_scale_factors(call.dtime);
        call.cfl_w_limit = factors.cfl_w_limit;
        call.scalfac_exdiff = factors.scalfac_exdiff;
        ProgramDomain domain = dycore.advection_in_horizontal_momentum_domain();
        if (subdomain) domain = random_subdomain(domain, rng);

        // With and without the extra diffusion (ICON4Py's granule always applies it): both must
        // match, and they must differ somewhere, else the CFL branch was never taken.
        std::vector<double> results[2];
        for (const bool extra : {false, true}) {
          SCOPED_TRACE(extra ? "extra diffusion" : "no extra diffusion");
          call.apply_extra_diffusion_on_vn = extra;
          Kokkos::deep_copy(call.normal_wind_advective_tendency,
                            std::numeric_limits<vp>::quiet_NaN());
          auto ref = reference_args(statics, call_host, call, in, domain);
          reference::compute_advection_in_horizontal_momentum(g.grid, ref);
          dycore.compute_advection_in_horizontal_momentum(Space(), call, &domain);
          compat::fence(Space(), "test");
          const HostArray kernel = test::to_host_array(call.normal_wind_advective_tendency);
          test::expect_dycore_output(
              "normal_wind_advective_tendency", kernel.field(), ref.normal_wind_advective_tendency,
              call_host.at("normal_wind_advective_tendency").field(), [&](index_t e, int k) {
                return domain.horizontal.contains(e) && k >= domain.vertical_start &&
                       k < domain.vertical_end;
              });
          results[extra] = kernel.values;
        }
        std::size_t diffused = 0;
        for (std::size_t i = 0; i < results[0].size(); ++i)
          diffused += results[0][i] != results[1][i] && !std::isnan(results[0][i]);
        EXPECT_GT(diffused, 0u) << "no point took the extra diffusion branch";
      }
  }
}

// ---- compute_advection_in_predictor/corrector_vertical_momentum ---------------------------------

std::vector<bool> as_bools(const std::vector<double>& values) {
  std::vector<bool> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = values[i] != 0;
  return out;
}

/// The reference's arguments both steps share, filled from the statics and the call.
template <class Ref, class Call>
void vertical_momentum_common(Ref& r, const HostArrays& s, const HostArrays& a, const Call& call,
                              const DycoreInputs<M>& in, const ProgramDomain& domain) {
  r.vertical_wind_advective_tendency = a.at("vertical_wind_advective_tendency").field();
  r.contravariant_corrected_w_at_cells_on_model_levels =
      a.at("contravariant_corrected_w_at_cells_on_model_levels").field();
  r.vertical_cfl = a.at("vertical_cfl").field();
  r.w = a.at("w").field();
  r.coeff1_dwdz = s.at("coeff1_dwdz").field();
  r.coeff2_dwdz = s.at("coeff2_dwdz").field();
  r.e_bln_c_s = s.at("e_bln_c_s").table();
  r.ddqz_z_half = s.at("ddqz_z_half").field();
  r.area = s.at("cell_area").vector();
  r.geofac_n2s = s.at("geofac_n2s").table();
  r.owner_mask = as_bools(s.at("c_owner_mask").vector());
  r.scalfac_exdiff = call.scalfac_exdiff;
  r.cfl_w_limit = call.cfl_w_limit;
  r.dtime = call.dtime;
  r.end_index_of_damping_layer = in.end_index_of_damping_layer;
  r.horizontal_start = domain.horizontal.start;
  r.horizontal_end = domain.horizontal.end;
  r.vertical_start = domain.vertical_start;
  r.vertical_end = domain.vertical_end;
}

TEST(TEST_CATEGORY, DycoreComputeAdvectionInVerticalMomentumMatchesReference) {
  for (auto& g : test::dycore_grids()) {
    const DeviceGrid<M> device(g.grid);
    test::RandomSource static_rng(test::dycore_seed("vertical momentum statics " + g.name));
    HostArrays statics;
    const DycoreInputs<M> in = test::random_dycore_inputs(device, g.nlev, static_rng, statics);
    // predictor, predictor with the vertical advection skipped, corrector
    for (const int step : {0, 1, 2})
      for (const bool subdomain : {false, true})
        for (const LoopSchedule schedule : all_loop_schedules) {
          const bool corrector = step == 2, skip = step == 1;
          const std::string name = g.name + (corrector ? " corrector" : " predictor") +
                                   (skip ? " skip" : "") + (subdomain ? " subdomain" : "");
          SCOPED_TRACE(name + " " + to_string(schedule));
          test::RandomSource rng(test::dycore_seed("vertical momentum " + name));
          DycoreOptions<Space> options;
          options.schedule = schedule;
          Dycore<Space> dycore(DycoreConfig{}, in, options);
          ProgramDomain domain = dycore.advection_in_vertical_momentum_domain();
          if (subdomain) domain = random_subdomain(domain, rng);
          // A long step, so that w_con reaches the CFL limits of the random layer thicknesses:
          // both the clipping (CFL > 0.65) and the clamp (CFL > 0.85) are hit.
          const double dtime = 300.0 + rng.uniform(0, 100);
          const VelocityAdvectionScaleFactors factors = velocity_advection_scale_factors(dtime);
          std::vector<std::string> outputs = {"contravariant_corrected_w_at_cells_on_model_levels",
                                              "vertical_cfl"};
          if (!corrector) outputs.push_back("contravariant_correction_at_cells_on_half_levels");
          HostArrays call_host;
          const auto filler = test::dycore_call_filler(rng, outputs);
          HostArray kernel_cfl;
          const auto check = [&](const char* what, const auto& kernel, const auto& reference,
                                 int k0) {
            test::expect_dycore_output(what, test::to_host_array(kernel).field(), reference,
                                       call_host.at(what).field(), [&](index_t c, int k) {
                                         return domain.horizontal.contains(c) && k >= k0 &&
                                                k < domain.vertical_end;
                                       });
          };
          const int k0 = domain.vertical_start;
          const int tendency_start = skip ? domain.vertical_end : std::max(1, k0);
          if (corrector) {
            auto call = test::random_state<AdvectionInCorrectorVerticalMomentumArguments, M>(
                in.sizes(), filler, call_host, "icondiff::test::");
            call.dtime = dtime;
            call.cfl_w_limit = factors.cfl_w_limit;
            call.scalfac_exdiff = factors.scalfac_exdiff;
            reference::ComputeAdvectionInCorrectorVerticalMomentumArgs ref;
            vertical_momentum_common(ref, statics, call_host, call, in, domain);
            ref.tangential_wind_on_half_levels =
                call_host.at("tangential_wind_on_half_levels").field();
            ref.vn_on_half_levels = call_host.at("vn_on_half_levels").field();
            ref.contravariant_correction_at_cells_on_half_levels =
                call_host.at("contravariant_correction_at_cells_on_half_levels").field();
            ref.c_intp = statics.at("c_intp").table();
            ref.inv_dual_edge_length = statics.at("inverse_dual_edge_lengths").vector();
            ref.inv_primal_edge_length = statics.at("inverse_primal_edge_lengths").vector();
            ref.tangent_orientation = statics.at("tangent_orientation").vector();
            reference::compute_advection_in_corrector_vertical_momentum(g.grid, ref);
            dycore.compute_advection_in_corrector_vertical_momentum(Space(), call, &domain);
            compat::fence(Space(), "test");
            check("vertical_wind_advective_tendency", call.vertical_wind_advective_tendency,
                  ref.vertical_wind_advective_tendency, tendency_start);
            check("contravariant_corrected_w_at_cells_on_model_levels",
                  call.contravariant_corrected_w_at_cells_on_model_levels,
                  ref.contravariant_corrected_w_at_cells_on_model_levels, k0);
            check("vertical_cfl", call.vertical_cfl, ref.vertical_cfl, k0);
            kernel_cfl = test::to_host_array(call.vertical_cfl);
          } else {
            auto call = test::random_state<AdvectionInPredictorVerticalMomentumArguments, M>(
                in.sizes(), filler, call_host, "icondiff::test::");
            call.dtime = dtime;
            call.cfl_w_limit = factors.cfl_w_limit;
            call.scalfac_exdiff = factors.scalfac_exdiff;
            call.skip_compute_predictor_vertical_advection = skip;
            reference::ComputeAdvectionInPredictorVerticalMomentumArgs ref;
            vertical_momentum_common(ref, statics, call_host, call, in, domain);
            ref.contravariant_correction_at_cells_on_half_levels =
                call_host.at("contravariant_correction_at_cells_on_half_levels").field();
            ref.horizontal_advection_of_w_at_edges_on_half_levels =
                call_host.at("horizontal_advection_of_w_at_edges_on_half_levels").field();
            ref.contravariant_correction_at_edges_on_model_levels =
                call_host.at("contravariant_correction_at_edges_on_model_levels").field();
            ref.wgtfac_c = statics.at("wgtfac_c").field();
            ref.skip_compute_predictor_vertical_advection = skip;
            ref.nflatlev = in.nflatlev;
            reference::compute_advection_in_predictor_vertical_momentum(g.grid, ref);
            dycore.compute_advection_in_predictor_vertical_momentum(Space(), call, &domain);
            compat::fence(Space(), "test");
            check("contravariant_correction_at_cells_on_half_levels",
                  call.contravariant_correction_at_cells_on_half_levels,
                  ref.contravariant_correction_at_cells_on_half_levels, k0);
            check("vertical_wind_advective_tendency", call.vertical_wind_advective_tendency,
                  ref.vertical_wind_advective_tendency, tendency_start);
            check("contravariant_corrected_w_at_cells_on_model_levels",
                  call.contravariant_corrected_w_at_cells_on_model_levels,
                  ref.contravariant_corrected_w_at_cells_on_model_levels, k0);
            check("vertical_cfl", call.vertical_cfl, ref.vertical_cfl, k0);
            kernel_cfl = test::to_host_array(call.vertical_cfl);
          }
          // Both branches of the clipping were taken (else the comparison proves little).
          std::size_t clipped = 0, clamped = 0;
          for (const double cfl : kernel_cfl.values) {
            clipped += cfl != 0 && !std::isnan(cfl);
            clamped += std::abs(cfl) > 0.85;
          }
          EXPECT_GT(clipped, 0u) << "no CFL clipping";
          EXPECT_GT(clamped, 0u) << "no CFL beyond 0.85";
        }
  }
}

TEST(TEST_CATEGORY, DycoreMaxVerticalCflMatchesReference) {
  for (auto& g : test::dycore_grids()) {
    SCOPED_TRACE(g.name);
    const DeviceGrid<M> device(g.grid);
    test::RandomSource rng(test::dycore_seed("max vertical cfl " + g.name));
    HostArrays statics, host;
    const DycoreInputs<M> in = test::random_dycore_inputs(device, g.nlev, rng, statics);
    Dycore<Space> dycore(DycoreConfig{}, in);
    auto call = test::random_state<AdvectionInCorrectorVerticalMomentumArguments, M>(
        in.sizes(), test::dycore_call_filler(rng, {}), host, "icondiff::test::");
    const test::HostField<double> cfl = host.at("vertical_cfl").field();
    const ProgramDomain d = dycore.advection_in_vertical_momentum_domain();
    const double reference = reference::max_vertical_cfl(cfl, d.horizontal.start, d.horizontal.end);
    // The running maximum: below, above and equal to this step's.
    for (const double previous : {-10.0, reference, 10.0}) {
      const double expected = reference > previous ? reference : previous;
      EXPECT_EQ(dycore.max_vertical_cfl(Space(), call.vertical_cfl, previous), expected)
          << previous;
    }
    // A NaN in the domain gives NaN (numpy's max and maximum), outside it changes nothing.
    if (d.horizontal.empty()) continue;
    auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), call.vertical_cfl);
    mirror(d.horizontal.end - 1, in.nlev - 1) = std::numeric_limits<vp>::quiet_NaN();
    Kokkos::deep_copy(call.vertical_cfl, mirror);
    EXPECT_TRUE(std::isnan(dycore.max_vertical_cfl(Space(), call.vertical_cfl, 0.0)));
    if (d.horizontal.end < in.grid.num_cells) {
      mirror(d.horizontal.end - 1, in.nlev - 1) = 0;
      mirror(d.horizontal.end, 0) = std::numeric_limits<vp>::quiet_NaN();
      Kokkos::deep_copy(call.vertical_cfl, mirror);
      EXPECT_FALSE(std::isnan(dycore.max_vertical_cfl(Space(), call.vertical_cfl, 0.0)));
    }
  }
}

TEST(TEST_CATEGORY, DycoreComputeDiagnosticsFromNormalWindRefusesBadCalls) {
  auto grids = test::dycore_grids();
  const auto& g = grids.front();
  const DeviceGrid<M> device(g.grid);
  test::RandomSource rng(test::dycore_seed("diagnostics_from_vn refusals"));
  HostArrays statics, call_host;
  const DycoreInputs<M> in = test::random_dycore_inputs(device, g.nlev, rng, statics);
  Dycore<Space> dycore(DycoreConfig{}, in);
  auto call = test::random_state<DiagnosticsFromNormalWindArguments, M>(
      in.sizes(), test::dycore_call_filler(rng, {}), call_host, "icondiff::test::");
  const auto refused = [&](const DiagnosticsFromNormalWindArguments<M>& args,
                           const ProgramDomain* domain, const std::string& needle) {
    try {
      dycore.compute_diagnostics_from_normal_wind(Space(), args, domain);
      ADD_FAILURE() << "accepted; expected an error mentioning '" << needle << "'";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  // vn_on_half_levels needs nlev + 1 levels.
  auto wrong = call;
  wrong.vn_on_half_levels =
      decltype(call.vn_on_half_levels)("icondiff::test::short", in.grid.num_edges, in.nlev);
  refused(wrong, nullptr, "vn_on_half_levels");
  // A domain beyond the half levels, and one too shallow for the extrapolation.
  ProgramDomain domain = dycore.diagnostics_from_normal_wind_domain();
  domain.vertical_end = in.nlev + 2;
  refused(call, &domain, "outside the grid");
  domain.vertical_start = 0;
  domain.vertical_end = 3;
  refused(call, &domain, "at least 4");

  // compute_advection_in_horizontal_momentum without scale factors or with a wrong field.
  HostArrays host;
  auto momentum = test::random_state<AdvectionInHorizontalMomentumArguments, M>(
      in.sizes(), test::dycore_call_filler(rng, {}), host, "icondiff::test::");
  try {
    dycore.compute_advection_in_horizontal_momentum(Space(), momentum);
    ADD_FAILURE() << "dtime = 0 accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("dtime"), std::string::npos) << e.what();
  }
  momentum.dtime = 10;
  const auto factors = velocity_advection_scale_factors(momentum.dtime);
  momentum.cfl_w_limit = factors.cfl_w_limit;
  momentum.scalfac_exdiff = factors.scalfac_exdiff;
  momentum.contravariant_corrected_w_at_cells_on_model_levels =
      decltype(momentum.contravariant_corrected_w_at_cells_on_model_levels)(
          "icondiff::test::edges_not_cells", in.grid.num_edges, in.nlev);
  try {
    dycore.compute_advection_in_horizontal_momentum(Space(), momentum);
    ADD_FAILURE() << "an edge-sized cell field accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("contravariant_corrected_w_at_cells_on_model_levels"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace velocity_advection_test
}  // namespace icondiff
