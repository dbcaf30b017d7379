// The dynamics time loop (timeloop/dynamics_time_loop.hpp) and the hydrostatically adjusted
// Jablonowski-Williamson state (testcases/solve_nh_initial_state.hpp), issue 34:
//  * the loop equals ICON4Py 0.2.0's TimeLoop written out by hand from icon4py_driver.py
//    (initial stabilisation, substeps with the time-level and tendency-slot swaps, the diffusion
//    on the new state, the final swap), bit for bit, over steps of several substeps;
//  * the adjustment equals ICON4Py's hydrostatic_adjustment_ndarray written out here in its numpy
//    form (whole columns per level) and, run on the steady JW state, leaves the dynamics far
//    quieter than the analytic state does;
//  * bad configurations are refused by name.
#include "support/solve_nh_case.hpp"

#include <icondiff/core/physical_constants.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/dycore/surface_pressure.hpp>
#include <icondiff/geometry/metric_fields.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/timeloop/dynamics_time_loop.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace icondiff {
namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;
using H = Kokkos::HostSpace;

constexpr int nlev = 12;

/// A flat generated global grid with the factories' statics for both granules, and the JW state.
struct Case {
  HostStaticInputs host;
  StaticFields<M> statics;
  DycoreInputs<M> dycore;
  DiffusionInputs<M> diffusion;
  DycoreInputs<H> dycore_host;
  std::vector<double> vct_a;
};

Case make_case(const std::string& grid_source,
               const TopographyConfig& topography = TopographyConfig::flat()) {
  Case c;
  StaticsSetupConfig setup;
  setup.vertical.num_levels = nlev;
  setup.metrics.topography = topography;
  c.host = compute_static_inputs(load_grid_source(grid_source), setup, StaticFieldSelection::all());
  c.statics = make_static_fields<M>(c.host);
  const DeviceGrid<M> grid(c.host.grid);
  c.dycore = make_dycore_inputs<M>(c.host, c.statics, grid);
  c.diffusion = make_diffusion_inputs<M>(c.host, c.statics, grid);
  const auto host_statics = make_static_fields<H>(c.host);
  c.dycore_host = make_dycore_inputs<H>(c.host, host_statics, DeviceGrid<H>(c.host.grid));
  c.vct_a = c.host.metrics.vertical.vct_a;
  return c;
}

DynamicsStates<M> initial_states(const Case& c, const JablonowskiWilliamsonConfig& jw,
                                 HydrostaticAdjustment adjustment) {
  const SolveNhHostStates s = jablonowski_williamson_solve_nh_states(
      c.host.grid, c.host.metrics.z_ifc, c.host.metrics.z_mc, c.dycore_host, jw, adjustment);
  const std::string scope = "icondiff::test::loop::";
  DynamicsStates<M> d;
  d.current = copy_state<M>(s.current, scope + "current::");
  d.next = copy_state<M>(s.next, scope + "next::");
  d.solve_nh = copy_state<M>(s.diagnostic, scope + "solve_nh::");
  d.prep_adv = copy_state<M>(s.prep_adv, scope + "prep_adv::");
  d.diffusion =
      allocate_state<DiffusionDiagnosticState, M>(c.dycore_host.sizes(), scope + "diffusion::");
  return d;
}

DiffusionConfig diffusion_config(int ndyn_substeps) {
  // ICON4Py's JW experiment (icon4py_configuration._jabw_diffusion_config).
  DiffusionConfig d;
  d.diffusion_type = DiffusionType::SmagorinskyFourthOrder;
  d.apply_to_temperature = false;
  d.hdiff_efdt_ratio = 10.0;
  d.hdiff_w_efdt_ratio = 15.0;
  d.smagorinski_scaling_factor = 0.025;
  d.apply_zdiffusion_t = false;
  d.ndyn_substeps = ndyn_substeps;
  return d;
}

DycoreConfig dycore_config() {
  DycoreConfig d;
  d.fourth_order_divdamp_factor = 0.0025;  // ICON4Py's JW experiment
  return d;
}

template <template <class> class State>
void expect_identical(const State<M>& a, const State<M>& b, const std::string& what) {
  State<M>::for_each_field(
      [&](const FieldSpec& spec, const auto& x, const auto& y) {
        if (x.size() == 0) return;
        const auto hx = Kokkos::create_mirror_view_and_copy(H(), x);
        const auto hy = Kokkos::create_mirror_view_and_copy(H(), y);
        std::size_t differing = 0;
        for (std::size_t i = 0; i < hx.size(); ++i)
          differing += std::memcmp(hx.data() + i, hy.data() + i, sizeof(*hx.data())) != 0;
        EXPECT_EQ(differing, 0u) << what << "." << spec.name;
      },
      a, b);
}

TEST(DynamicsTimeLoop, EqualsIcon4pyTimeLoopWrittenOut) {
  const Case c = make_case("generate:R2B1");
  JablonowskiWilliamsonConfig jw;
  jw.vn_noise_amplitude = 0.5;
  jw.w_noise_amplitude = 0.01;
  jw.noise_seed = 5;
  DynamicsTimeLoopConfig run;
  run.dtime = 600.0;
  run.ndyn_substeps = 3;
  run.second_order_divdamp_factor = 0.032;
  run.lprep_adv = true;
  const Space space;

  // The loop.
  SolveNonhydro<Space> solve_nh_a(dycore_config(), c.dycore, c.vct_a);
  Diffusion<Space> diffusion_a(diffusion_config(run.ndyn_substeps), c.diffusion);
  DynamicsTimeLoop<Space> loop(solve_nh_a, &diffusion_a, run);
  DynamicsStates<M> a = initial_states(c, jw, HydrostaticAdjustment::icon4py);
  constexpr int steps = 3;
  for (int i = 0; i < steps; ++i) loop.step(space, a);
  EXPECT_EQ(loop.steps_done(), steps);

  // ICON4Py's TimeLoop.time_integration, by hand, on fresh granules.
  SolveNonhydro<Space> solve_nh_b(dycore_config(), c.dycore, c.vct_a);
  Diffusion<Space> diffusion_b(diffusion_config(run.ndyn_substeps), c.diffusion);
  DynamicsStates<M> b = initial_states(c, jw, HydrostaticAdjustment::icon4py);
  auto as_diffusion = [](const SolveNhPrognosticState<M>& p) {
    DiffusionPrognosticState<M> d;
    d.vn = p.vn;
    d.w = p.w;
    d.theta_v = p.theta_v;
    d.exner = p.exner;
    return d;
  };
  diffusion_b.run(space, b.diffusion, as_diffusion(b.current), run.dtime, true);
  for (int step = 0; step < steps; ++step) {
    b.solve_nh.max_vertical_cfl = 0;
    for (int sub = 0; sub < run.ndyn_substeps; ++sub) {
      if (!(step == 0 && sub == 0))
        std::swap(b.solve_nh.predictor_vertical_wind_advective_tendency,
                  b.solve_nh.corrector_vertical_wind_advective_tendency);
      if (sub != 0)
        std::swap(b.solve_nh.predictor_normal_wind_advective_tendency,
                  b.solve_nh.corrector_normal_wind_advective_tendency);
      SolveNhStep s;
      s.second_order_divdamp_factor = run.second_order_divdamp_factor;
      s.dtime = run.dtime / run.ndyn_substeps;
      s.ndyn_substeps_var = run.ndyn_substeps;
      s.at_initial_timestep = step == 0;
      s.lprep_adv = run.lprep_adv;
      s.at_first_substep = sub == 0;
      s.at_last_substep = sub == run.ndyn_substeps - 1;
      solve_nh_b.time_step(space, b.solve_nh, b.current, b.next, b.prep_adv, s);
      if (sub != run.ndyn_substeps - 1) std::swap(b.current, b.next);
    }
    diffusion_b.run(space, b.diffusion, as_diffusion(b.next), run.dtime);
    std::swap(b.current, b.next);
  }
  Kokkos::fence();
  expect_identical(a.current, b.current, "current");
  expect_identical(a.next, b.next, "next");
  expect_identical(a.solve_nh, b.solve_nh, "solve_nh");
  expect_identical(a.prep_adv, b.prep_adv, "prep_adv");
  expect_identical(a.diffusion, b.diffusion, "diffusion");
  EXPECT_EQ(a.solve_nh.max_vertical_cfl, b.solve_nh.max_vertical_cfl);
  // The run moved the state, and it stayed finite.
  const auto vn0 = initial_states(c, jw, HydrostaticAdjustment::icon4py).current.vn;
  const auto h0 = Kokkos::create_mirror_view_and_copy(H(), vn0);
  const auto h1 = Kokkos::create_mirror_view_and_copy(H(), a.current.vn);
  std::size_t changed = 0, finite = 0;
  for (std::size_t i = 0; i < h1.size(); ++i) {
    changed += h1.data()[i] != h0.data()[i];
    finite += std::isfinite(h1.data()[i]);
  }
  EXPECT_GT(changed, h1.size() / 2);
  EXPECT_EQ(finite, h1.size());
}

/// ICON4Py's hydrostatic_adjustment_ndarray as numpy evaluates it: a level of every column at a
/// time, from the level above the lowest to the top.
void icon4py_hydrostatic_adjustment(const DycoreInputs<H>& in, HostTable<double>& rho,
                                    HostTable<double>& exner, HostTable<double>& theta_v) {
  const auto& m = in.metric;
  const std::size_t nc = rho.rows(), levels = rho.cols();
  HostTable<double> temp_v(nc, levels);
  for (std::size_t c = 0; c < nc; ++c)
    for (std::size_t k = 0; k < levels; ++k) temp_v(c, k) = theta_v(c, k) * exner(c, k);
  for (int k = static_cast<int>(levels) - 2; k >= 0; --k)
    for (std::size_t c = 0; c < nc; ++c) {
      const double wgtfac = m.wgtfac_c(c, k + 1), ddqz = m.ddqz_z_half(c, k + 1);
      const double fac1 = wgtfac * (temp_v(c, k + 1) - m.theta_ref_mc(c, k + 1) * exner(c, k + 1)) -
                          (1.0 - wgtfac) * m.theta_ref_mc(c, k) * exner(c, k + 1);
      const double fac2 = (1.0 - wgtfac) * temp_v(c, k) * exner(c, k + 1);
      const double fac3 = m.reference_exner_at_cells_on_model_levels(c, k + 1) -
                          m.reference_exner_at_cells_on_model_levels(c, k) - exner(c, k + 1);
      const double dexdz = m.ddz_of_reference_exner_at_cells_on_half_levels(c, k + 1);
      const double a =
          (m.reference_theta_at_cells_on_half_levels(c, k + 1) * exner(c, k + 1) + fac1) / ddqz;
      const double b = -(a * fac3 + fac2 / ddqz + fac1 * dexdz);
      const double q = -(fac2 * fac3 / ddqz + fac2 * dexdz);
      exner(c, k) = (b + std::sqrt(b * b + 4.0 * a * q)) / (2.0 * a);
      theta_v(c, k) = temp_v(c, k) / exner(c, k);
      rho(c, k) =
          std::pow(exner(c, k), physics::cvd_o_rd) * physics::p0ref / (physics::rd * theta_v(c, k));
    }
}

HostTable<double> table_of(const View2D<wp, H>& v) {
  HostTable<double> t(v.extent(0), v.extent(1));
  for (std::size_t i = 0; i < v.extent(0); ++i)
    for (std::size_t k = 0; k < v.extent(1); ++k) t(i, k) = v(i, k);
  return t;
}

TEST(HydrostaticAdjustment, EqualsIcon4pyAndQuietsTheSteadyState) {
  const Case c = make_case("generate:R2B1");
  JablonowskiWilliamsonConfig steady;
  steady.perturbation_amplitude = 0;  // JW06's steady state: balanced in the continuum
  const SolveNhHostStates raw = jablonowski_williamson_solve_nh_states(
      c.host.grid, c.host.metrics.z_ifc, c.host.metrics.z_mc, c.dycore_host, steady);
  const SolveNhHostStates adjusted =
      jablonowski_williamson_solve_nh_states(c.host.grid, c.host.metrics.z_ifc, c.host.metrics.z_mc,
                                             c.dycore_host, steady, HydrostaticAdjustment::icon4py);
  HostTable<double> rho = table_of(raw.current.rho), exner = table_of(raw.current.exner),
                    theta_v = table_of(raw.current.theta_v);
  icon4py_hydrostatic_adjustment(c.dycore_host, rho, exner, theta_v);
  std::size_t differing = 0, changed = 0;
  for (std::size_t i = 0; i < rho.rows(); ++i)
    for (std::size_t k = 0; k < rho.cols(); ++k) {
      differing += adjusted.current.rho(i, k) != rho(i, k) ||
                   adjusted.current.exner(i, k) != exner(i, k) ||
                   adjusted.current.theta_v(i, k) != theta_v(i, k);
      changed += adjusted.current.exner(i, k) != raw.current.exner(i, k);
    }
  EXPECT_EQ(differing, 0u);
  EXPECT_GT(changed, rho.rows());  // the adjustment did something
  EXPECT_EQ(adjusted.current.exner(0, nlev - 1), raw.current.exner(0, nlev - 1));  // lowest kept

  // One advective step of the steady state without diffusion: the largest |w| it excites.
  auto largest_w_after_a_step = [&](HydrostaticAdjustment adjustment) {
    SolveNonhydro<Space> solve_nh(dycore_config(), c.dycore, c.vct_a);
    DynamicsTimeLoopConfig run;
    run.dtime = 600.0;
    run.ndyn_substeps = 5;
    DynamicsTimeLoop<Space> loop(solve_nh, nullptr, run);
    DynamicsStates<M> s = initial_states(c, steady, adjustment);
    loop.step(Space(), s);
    const auto w = Kokkos::create_mirror_view_and_copy(H(), s.current.w);
    double largest = 0;
    for (std::size_t i = 0; i < w.size(); ++i) largest = std::max(largest, std::abs(w.data()[i]));
    return largest;
  };
  const double w_raw = largest_w_after_a_step(HydrostaticAdjustment::none);
  const double w_adjusted = largest_w_after_a_step(HydrostaticAdjustment::icon4py);
  std::printf("steady JW, one step of 600 s: max |w| %.3e m/s analytic, %.3e m/s adjusted\n", w_raw,
              w_adjusted);
  EXPECT_LT(w_adjusted, 0.1 * w_raw);
}

/// ICON4Py's diagnose_surface_pressure at the surface half level, written out per cell from its
/// field operator: p0ref * exp(cpd_o_rd * log(exner(k-3)) + grav_o_rd * (ddqz(k-1) / tv(k-1) +
/// ddqz(k-2) / tv(k-2) + 0.5 * ddqz(k-3) / tv(k-3))) with k = nlev and tv = theta_v * exner.
std::vector<double> icon4py_surface_pressure(const View2D<wp, H>& exner,
                                             const View2D<wp, H>& theta_v,
                                             const HostTable<double>& ddqz) {
  const int k = static_cast<int>(exner.extent(1));
  std::vector<double> ps(exner.extent(0));
  for (std::size_t c = 0; c < ps.size(); ++c) {
    const auto tv = [&](int level) { return theta_v(c, level) * exner(c, level); };
    ps[c] = physics::p0ref * std::exp(physics::cpd / physics::rd * std::log(exner(c, k - 3)) +
                                      physics::grav / physics::rd *
                                          (ddqz(c, k - 1) / tv(k - 1) + ddqz(c, k - 2) / tv(k - 2) +
                                           0.5 * ddqz(c, k - 3) / tv(k - 3)));
  }
  return ps;
}

/// JW06's balanced state has p_s = 1000 hPa on their surface (the JablonowskiWilliamson
/// topography), not on a flat one; the diagnostic equals ICON4Py's formula.
TEST(SurfacePressure, EqualsIcon4pyAndIs1000HpaOnTheJwSurface) {
  for (const bool jw_surface : {false, true}) {
    const Case c =
        make_case("generate:R2B1", jw_surface ? TopographyConfig::jablonowski_williamson()
                                              : TopographyConfig::flat());
    const SolveNhHostStates s = jablonowski_williamson_solve_nh_states(
        c.host.grid, c.host.metrics.z_ifc, c.host.metrics.z_mc, c.dycore_host,
        JablonowskiWilliamsonConfig{}, HydrostaticAdjustment::icon4py);
    const HostTable<double>& ddqz = c.host.dycore_metrics.ddqz_z_full;
    const View2D<wp, H> ddqz_view = copy_to_view<wp, H>("ddqz", ddqz);
    const View1D<wp, H> ps("ps", c.host.grid.num_cells);
    diagnose_surface_pressure(Kokkos::DefaultHostExecutionSpace(), s.current.exner,
                              s.current.theta_v, ddqz_view, ps);
    Kokkos::fence();
    const std::vector<double> expected =
        icon4py_surface_pressure(s.current.exner, s.current.theta_v, ddqz);
    double lo = 1e300, hi = -1e300;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_NEAR(ps(i), expected[i], 1e-9 * expected[i]) << "cell " << i;
      lo = std::min(lo, ps(i));
      hi = std::max(hi, ps(i));
    }
    if (jw_surface) {
      // 1000 hPa up to the discrete diagnostic's error (a few Pa).
      EXPECT_NEAR(lo, 1.0e5, 10.0);
      EXPECT_NEAR(hi, 1.0e5, 10.0);
    } else {
      // On a flat surface the balanced flow's pressure varies with latitude (tens of hPa).
      EXPECT_GT(hi - lo, 3000.0);
    }
  }
}

/// JW06 eq. (7)'s surface geopotential over g: -317 m at the poles, 113 m at the equator,
/// the same on every longitude.
TEST(Topography, JablonowskiWilliamsonSurface) {
  const Grid g = load_grid_source("generate:R2B2");
  const std::vector<double> h = compute_topography(g, TopographyConfig::jablonowski_williamson());
  const double a_omega = g.sphere_radius * physics::earth_angular_velocity;
  const double pi = 3.14159265358979323846;
  const double cv = std::pow(std::cos((1.0 - 0.252) * pi / 2), 1.5);
  for (index_t c = 0; c < g.num_cells; ++c) {
    // JW06 eq. (7) with eta = 1, written from the paper.
    const double lat = g.cell_lat[c];
    const double phi_s =
        35.0 * cv *
        ((-2.0 * std::pow(std::sin(lat), 6) * (std::pow(std::cos(lat), 2) + 1.0 / 3.0) +
          10.0 / 63.0) *
             35.0 * cv +
         (8.0 / 5.0 * std::pow(std::cos(lat), 3) * (std::pow(std::sin(lat), 2) + 2.0 / 3.0) -
          pi / 4.0) *
             a_omega);
    EXPECT_NEAR(h[c], phi_s / physics::grav, 1e-9) << "cell " << c;
  }
  EXPECT_LT(*std::min_element(h.begin(), h.end()), -300.0);  // poles: -317 m
  EXPECT_GT(*std::max_element(h.begin(), h.end()), 100.0);   // equator: 113 m
}

/// The lower boundary on a sloping surface: ICON's implicit solver reads rho_ic at the surface
/// half level times w there (the contravariant correction), and ICON never writes that rho_ic (0)
/// so that no mass crosses the surface. The JW initial state used to set it to the lowest level's
/// density: then every substep moved mass through JW06's surface, and the lowest level's theta_v
/// drifted ten times faster than the levels above, until the wave runs went unstable at day 7
/// (docs/user/jw_baroclinic_wave.md). The steady state over a day: the lowest level's largest
/// theta_v change stays within twice that of the levels above (with the old start: 20 times).
TEST(DynamicsTimeLoop, SteadyStateOnTheJwSurfaceMovesNoMassThroughIt) {
  const Case c = make_case("generate:R2B2", TopographyConfig::jablonowski_williamson());
  JablonowskiWilliamsonConfig steady;
  steady.perturbation_amplitude = 0;
  const SolveNhHostStates start =
      jablonowski_williamson_solve_nh_states(c.host.grid, c.host.metrics.z_ifc, c.host.metrics.z_mc,
                                             c.dycore_host, steady, HydrostaticAdjustment::icon4py);
  for (index_t cell = 0; cell < c.host.grid.num_cells; ++cell)
    ASSERT_EQ(start.diagnostic.rho_at_cells_on_half_levels(cell, nlev), 0.0) << "cell " << cell;

  SolveNonhydro<Space> solve_nh(dycore_config(), c.dycore, c.vct_a);
  DynamicsTimeLoopConfig run;
  run.dtime = 1200.0;
  run.ndyn_substeps = 5;
  Diffusion<Space> diffusion(diffusion_config(run.ndyn_substeps), c.diffusion);
  DynamicsTimeLoop<Space> loop(solve_nh, &diffusion, run);
  DynamicsStates<M> s = initial_states(c, steady, HydrostaticAdjustment::icon4py);
  for (int step = 0; step < 72; ++step) loop.step(Space(), s);  // one day
  const auto theta_v = Kokkos::create_mirror_view_and_copy(H(), s.current.theta_v);
  std::vector<double> largest(nlev, 0.0);
  for (index_t cell = 0; cell < c.host.grid.num_cells; ++cell)
    for (int k = 0; k < nlev; ++k)
      largest[k] =
          std::max(largest[k], std::abs(theta_v(cell, k) - start.current.theta_v(cell, k)));
  const double above = *std::max_element(largest.begin(), largest.end() - 1);
  std::printf("steady JW, R2B2 x %d levels, one day: max |dtheta_v| lowest %.4f K, above %.4f K\n",
              nlev, largest[nlev - 1], above);
  EXPECT_TRUE(std::isfinite(largest[nlev - 1]));
  EXPECT_LT(largest[nlev - 1], 2.0 * above);
}

TEST(DynamicsTimeLoop, RefusesBadConfigurations) {
  const Case c = make_case("generate:R2B0");
  SolveNonhydro<Space> solve_nh(dycore_config(), c.dycore, c.vct_a);
  Diffusion<Space> diffusion(diffusion_config(5), c.diffusion);
  auto refused = [&](DynamicsTimeLoopConfig run, Diffusion<Space>* d, const std::string& text) {
    try {
      DynamicsTimeLoop<Space> loop(solve_nh, d, run);
      ADD_FAILURE() << "accepted, expected an error containing '" << text << "'";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  DynamicsTimeLoopConfig good;
  good.dtime = 300;
  good.ndyn_substeps = 5;
  EXPECT_NO_THROW(DynamicsTimeLoop<Space>(solve_nh, &diffusion, good));
  auto bad = good;
  bad.dtime = 0;
  refused(bad, nullptr, "dtime");
  bad.dtime = std::numeric_limits<double>::infinity();
  refused(bad, nullptr, "dtime");
  bad = good;
  bad.ndyn_substeps = 0;
  refused(bad, nullptr, "ndyn_substeps must be >= 1");
  bad = good;
  bad.ndyn_substeps = 4;
  refused(bad, &diffusion, "the diffusion was set up for 5");
  bad = good;
  bad.second_order_divdamp_factor = -1;
  refused(bad, nullptr, "second_order_divdamp_factor");
}

}  // namespace
}  // namespace icondiff
