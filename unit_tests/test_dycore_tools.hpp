// The dycore programs as a Kokkos Tools connector sees them (the granule recipe, issue 32 item 3):
// in-process Tools callbacks record every kernel, region push and pop, allocation, deep copy and
// fence during one call of each of the four programs, and check that
//   - every kernel's label starts with icondiff::dycore:: and is one of the program's kernels,
//   - every kernel runs inside a region named after its kernel (the label without the namespace,
//     KernelRunner::region_name), and no region has a kernel's name,
//   - nothing is allocated, deep-copied or fenced inside a call,
//   - regions are balanced.
// The statics come from icondiff's own factories (setup/static_fields_setup.hpp), so this is also
// the four programs running on a real static bundle (a grid with a hill) rather than random
// fields: every output inside its domain must be finite.
#include "support/dycore_test_cases.hpp"
#include "support/field_compare.hpp"
#include "support/random_dycore.hpp"
#include "support/test_grids.hpp"
#include "support/tools_recording.hpp"

#include <icondiff/dycore/dycore.hpp>
#include <icondiff/dycore/solve_nonhydro.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/setup/static_fields_setup.hpp>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace icondiff {
namespace dycore_tools_test {

using M = TEST_MEMSPACE;
using Space = TEST_EXECSPACE;

using test::Recording;

/// What `call` does, as the Tools callbacks record it.
template <class F>
Recording record(F&& call) {
  test::ToolsRecorder recorder;
  call();
  return test::recording();
}

/// The checks of the header comment for one program call expected to launch `kernels`, in order.
void expect_labelled_call(const std::string& program, const Recording& r,
                          const std::vector<std::string>& kernels) {
  SCOPED_TRACE(program);
  const std::string prefix = "icondiff::dycore::";
  std::vector<std::string> launched;
  std::set<std::string> regions;
  for (const test::Event& e : r.events) {
    if (e.kind == "region") regions.insert(e.name);
    if (e.kind == "parallel_for" || e.kind == "parallel_reduce" || e.kind == "parallel_scan") {
      launched.push_back(e.name);
      const bool labelled = e.name.rfind(prefix, 0) == 0;
      EXPECT_TRUE(labelled) << e.name << " is not labelled " << prefix;
      EXPECT_FALSE(e.regions.empty()) << e.name << " runs outside any region";
      // The region is the label's last part (KernelRunner::region_name): the program, or the
      // kernel a program runs before its main body ("<program>::<kernel>").
      if (labelled && !e.regions.empty()) {
        EXPECT_EQ(e.regions.back(), e.name.substr(e.name.rfind("::") + 2)) << e.name;
      }
    }
    if (e.kind == "allocation" || e.kind == "deep_copy" || e.kind == "fence")
      ADD_FAILURE() << e.kind << " '" << e.name << "' inside the call";
  }
  EXPECT_EQ(launched, kernels);
  for (const auto& k : kernels) EXPECT_EQ(regions.count(k), 0u) << "a region named like " << k;
  EXPECT_TRUE(r.open.empty()) << "regions left open";
  EXPECT_EQ(r.unmatched_pops, 0);
}

/// Every value of `view` finite.
template <class View>
std::size_t not_finite(const View& view) {
  const auto host = test::to_host_array(view);
  std::size_t n = 0;
  for (const double v : host.values) n += !std::isfinite(v);
  return n;
}

struct Nothing {
  KOKKOS_INLINE_FUNCTION void operator()(index_t) const {}
};

// The checks can fail: a call that allocates, launches a kernel outside a region and one with a
// foreign label is reported (each planted fault is one non-fatal failure or more).
TEST(TEST_CATEGORY, DycoreToolsChecksReportPlantedFaults) {
  const auto faulty = record([] {
    Kokkos::View<double*, M> scratch("icondiff::test::scratch", 4);
    Kokkos::parallel_for("icondiff::dycore::unregioned",
                         Kokkos::RangePolicy<Space, Kokkos::IndexType<index_t>>(0, 1), Nothing{});
    compat::ScopedRegion region("some_region");
    Kokkos::parallel_for("elsewhere::kernel",
                         Kokkos::RangePolicy<Space, Kokkos::IndexType<index_t>>(0, 1), Nothing{});
  });
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    expect_labelled_call("planted", faulty, {"icondiff::dycore::unregioned", "elsewhere::kernel"});
  }
  std::string messages;
  for (int i = 0; i < results.size(); ++i) messages += results.GetTestPartResult(i).message();
  for (const char* fault : {"allocation 'icondiff::test::scratch' inside the call",
                            "icondiff::dycore::unregioned runs outside any region",
                            "elsewhere::kernel is not labelled icondiff::dycore::"})
    EXPECT_NE(messages.find(fault), std::string::npos) << "not reported: " << fault;
  compat::fence(Space(), "icondiff::test::planted");
}

TEST(TEST_CATEGORY, DycoreProgramsAreLabelledAndRunOnTheFactoriesStatics) {
  // The limited-area grid (all zones), a hill, 20 levels: the factories' statics.
  auto grids = test::granule_test_grids();
  StaticsSetupConfig config;
  config.interpolation = test::interpolation_config_for(grids.back().grid);
  config.vertical.num_levels = 20;
  double lon = 0, lat = 0;
  test::centre_of(grids.back().grid, lon, lat);
  config.metrics.topography = TopographyConfig::gaussian_hill(2000.0, 150e3, lon, lat);
  StaticFieldSelection selection;
  selection.diffusion = false;
  selection.dycore = true;
  const HostStaticInputs host = compute_static_inputs(grids.back().grid, config, selection);
  const StaticFields<M> statics = make_static_fields<M>(host);
  const DeviceGrid<M> device(host.grid);
  const DycoreInputs<M> in = make_dycore_inputs<M>(host, statics, device);
  Dycore<Space> dycore(DycoreConfig{}, in);

  // Per-call fields: smooth random values (the programs' physics is tested elsewhere).
  test::RandomSource rng(test::dycore_seed("tools"));
  test::HostArrays call_host;
  auto filler = test::dycore_call_filler(rng, {});
  auto pgrad = test::random_state<RhoThetaPgradArguments, M>(in.sizes(), filler, call_host,
                                                             "icondiff::test::");
  pgrad.dtime = 10.0;
  auto divdamp = test::random_state<DivergenceDampingArguments, M>(in.sizes(), filler, call_host,
                                                                   "icondiff::test::");
  divdamp.interpolated_fourth_order_divdamp_factor = test::random_profile<M>(
      "divdamp_factor", in.nlev, [&](int) { return 0.001; }, call_host);
  divdamp.dtime = 10.0;
  divdamp.apply_2nd_order_divergence_damping = true;
  divdamp.apply_4th_order_divergence_damping = true;
  auto predictor = test::random_state<SolverPredictorArguments, M>(in.sizes(), filler, call_host,
                                                                   "icondiff::test::");
  predictor.rayleigh_damping_factor = test::random_profile<M>(
      "rayleigh", in.nlev, [&](int) { return 0.01; }, call_host);
  predictor.dtime = 10.0;
  auto corrector = test::random_state<SolverCorrectorArguments, M>(in.sizes(), filler, call_host,
                                                                   "icondiff::test::");
  corrector.rayleigh_damping_factor = predictor.rayleigh_damping_factor;
  corrector.dtime = 10.0;
  corrector.r_nsubsteps = 0.2;
  corrector.ndyn_substeps_var = 5;
  compat::fence(Space(), "icondiff::test::setup");

  // A first call of each program outside the recording: one-time work (region names) is allowed
  // there; the recorded second calls must do none.
  dycore.compute_rho_theta_pgrad_and_update_vn(pgrad);
  dycore.apply_divergence_damping_and_update_vn(divdamp);
  dycore.vertically_implicit_solver_at_predictor_step(predictor);
  dycore.vertically_implicit_solver_at_corrector_step(corrector);
  compat::fence(Space(), "icondiff::test::warm");

  const std::string p = "icondiff::dycore::";
  expect_labelled_call("compute_rho_theta_pgrad_and_update_vn",
                       record([&] { dycore.compute_rho_theta_pgrad_and_update_vn(pgrad); }),
                       {p + "compute_rho_theta_pgrad_and_update_vn::rho_theta_gradients_at_cells",
                        p + "compute_rho_theta_pgrad_and_update_vn"});
  expect_labelled_call("apply_divergence_damping_and_update_vn",
                       record([&] { dycore.apply_divergence_damping_and_update_vn(divdamp); }),
                       {p + "apply_divergence_damping_and_update_vn"});
  expect_labelled_call(
      "vertically_implicit_solver_at_predictor_step",
      record([&] { dycore.vertically_implicit_solver_at_predictor_step(predictor); }),
      {p + "interpolate_contravariant_correction_from_edges_on_model_levels_to_cells_on_half_"
           "levels",
       p + "vertically_implicit_solver_at_predictor_step"});
  expect_labelled_call("vertically_implicit_solver_at_corrector_step", record([&] {
                         dycore.vertically_implicit_solver_at_corrector_step(corrector);
                       }),
                       {p + "vertically_implicit_solver_at_corrector_step"});
  compat::fence(Space(), "icondiff::test::done");

  // On the factories' statics every output is finite wherever a program wrote it (the random
  // outputs are finite to start with, so any NaN/inf here is the programs').
  EXPECT_EQ(not_finite(pgrad.next_vn), 0u);
  EXPECT_EQ(not_finite(pgrad.horizontal_pressure_gradient), 0u);
  EXPECT_EQ(not_finite(divdamp.next_vn), 0u);
  EXPECT_EQ(not_finite(predictor.next_w), 0u);
  EXPECT_EQ(not_finite(predictor.next_rho), 0u);
  EXPECT_EQ(not_finite(corrector.next_exner), 0u);
  EXPECT_EQ(not_finite(corrector.next_theta_v), 0u);
}

// The solve_nh granule as the Tools see one substep: everything inside the region nh_solve, every
// kernel labelled icondiff::dycore:: inside one of ICON's timer regions directly under it
// (solve_nh_regions) and inside its program's region, the timer regions in ICON4Py's program
// order (the exchanges' regions too: empty on one rank), nothing allocated or deep-copied in a
// call after the first (the first allocates the zero IAU increments once).
TEST(TEST_CATEGORY, SolveNhSubstepRunsInIconsTimerRegions) {
  auto grids = test::granule_test_grids();
  const Grid& grid = grids.back().grid;  // limited area: every program of the substep runs
  StaticsSetupConfig config;
  config.interpolation = test::interpolation_config_for(grid);
  config.vertical.num_levels = 12;
  double lon = 0, lat = 0;
  test::centre_of(grid, lon, lat);
  config.metrics.topography = TopographyConfig::gaussian_hill(2000.0, 150e3, lon, lat);
  const HostStaticInputs host = compute_static_inputs(grid, config, StaticFieldSelection::all());
  const StaticFields<M> statics = make_static_fields<M>(host);
  const DycoreInputs<M> in = make_dycore_inputs<M>(host, statics, DeviceGrid<M>(host.grid));
  SolveNonhydro<Space> granule(DycoreConfig{}, in, host.metrics.vertical.vct_a);
  const FieldSizes sizes = in.sizes();
  auto now = allocate_state<SolveNhPrognosticState, M>(sizes, "icondiff::test::now::");
  auto next = allocate_state<SolveNhPrognosticState, M>(sizes, "icondiff::test::next::");
  auto diagnostic = allocate_state<SolveNhDiagnosticState, M>(sizes, "icondiff::test::diag::");
  auto prep_adv = allocate_state<SolveNhPrepAdvection, M>(sizes, "icondiff::test::prep_adv::");
  for (auto* state : {&now, &next}) {
    Kokkos::deep_copy(state->rho, 1.0);
    Kokkos::deep_copy(state->theta_v, 300.0);
    Kokkos::deep_copy(state->exner, 0.9);
    Kokkos::deep_copy(state->vn, 5.0);
  }
  diagnostic.rho_iau_increment = {};  // absent: the granule's zeros stand in
  diagnostic.normal_wind_iau_increment = {};
  diagnostic.exner_iau_increment = {};
  SolveNhStep step;
  step.dtime = 10.0;
  step.ndyn_substeps_var = 2;
  step.at_first_substep = true;
  step.at_initial_timestep = true;
  step.lprep_adv = true;
  granule.time_step(diagnostic, now, next, prep_adv, step);  // the one-time work
  compat::fence(Space(), "icondiff::test::warm");

  const Recording r = record([&] { granule.time_step(diagnostic, now, next, prep_adv, step); });
  const std::string prefix = "icondiff::dycore::";
  std::set<std::string> timer_regions{solve_nh_regions::veltend,  solve_nh_regions::cellcomp,
                                      solve_nh_regions::edgecomp, solve_nh_regions::vnupd,
                                      solve_nh_regions::vimpl,    solve_nh_regions::exch};
  std::vector<std::string> order;  // the timer regions pushed directly inside nh_solve
  int calls = 0, kernels = 0;
  for (const test::Event& e : r.events) {
    if (e.kind == "region") {
      if (e.name == solve_nh_regions::solve_nh) {
        ++calls;
        EXPECT_TRUE(e.regions.empty()) << "nh_solve nested";
      } else if (e.regions.size() == 1) {
        EXPECT_EQ(e.regions[0], solve_nh_regions::solve_nh) << e.name;
        EXPECT_EQ(timer_regions.count(e.name), 1u) << e.name << " is not one of ICON's timers";
        order.push_back(e.name);
      }
    }
    if (e.kind == "parallel_for" || e.kind == "parallel_reduce" || e.kind == "parallel_scan") {
      ++kernels;
      EXPECT_EQ(e.name.rfind(prefix, 0), 0u) << e.name << " is not labelled " << prefix;
      ASSERT_GE(e.regions.size(), 2u) << e.name << " outside nh_solve's timer regions";
      EXPECT_EQ(e.regions[0], solve_nh_regions::solve_nh) << e.name;
      EXPECT_EQ(timer_regions.count(e.regions[1]), 1u) << e.name << " in " << e.regions[1];
    }
    if (e.kind == "allocation" || e.kind == "deep_copy")
      ADD_FAILURE() << e.kind << " '" << e.name << "' inside a substep";
  }
  EXPECT_EQ(calls, 1);
  EXPECT_GT(kernels, 20);
  namespace R = solve_nh_regions;
  const std::vector<std::string> expected{R::veltend,  R::cellcomp, R::edgecomp, R::exch,
                                          R::edgecomp, R::vimpl,    R::exch,     R::veltend,
                                          R::cellcomp, R::vnupd,    R::exch,     R::edgecomp,
                                          R::vimpl,    R::exch,     R::vimpl};
  EXPECT_EQ(order, expected);
  EXPECT_TRUE(r.open.empty()) << "regions left open";
  EXPECT_EQ(r.unmatched_pops, 0);
  compat::fence(Space(), "icondiff::test::done");
  EXPECT_EQ(not_finite(next.vn), 0u);
  EXPECT_EQ(not_finite(next.w), 0u);
  EXPECT_EQ(not_finite(next.theta_v), 0u);
}

#define ICONDIFF_TEST_NAME_OF(name, ...) #name,

// The predictor's call is split between two bodies by two name lists (dycore_stencils.hpp); the
// fill by name checks each list against its body at compile time, this checks that together they
// take every field and scalar of the call, so none is silently left out.
TEST(TEST_CATEGORY, SolverPredictorBodiesTakeEveryArgumentOfTheCall) {
  const std::set<std::string> call{ICONDIFF_SOLVER_PREDICTOR_FIELDS(ICONDIFF_TEST_NAME_OF)
                                       ICONDIFF_SOLVER_SCALARS(ICONDIFF_TEST_NAME_OF)};
  const std::set<std::string> taken{ICONDIFF_CONTRAVARIANT_CORRECTION_ARGUMENTS(
      ICONDIFF_TEST_NAME_OF) ICONDIFF_SOLVER_PREDICTOR_COLUMN_ARGUMENTS(ICONDIFF_TEST_NAME_OF)};
  EXPECT_EQ(taken, call);
}

// The corrector's vertical-momentum call is split the same way (its horizontal advection of w at
// the edges, then the cell body).
TEST(TEST_CATEGORY, CorrectorVerticalMomentumBodiesTakeEveryArgumentOfTheCall) {
  const std::set<std::string> call{
      ICONDIFF_ADVECTION_IN_CORRECTOR_VERTICAL_MOMENTUM_ARGUMENTS(ICONDIFF_TEST_NAME_OF)};
  const std::set<std::string> taken{
      ICONDIFF_CORRECTOR_HORIZONTAL_ADVECTION_OF_W_ARGUMENTS(ICONDIFF_TEST_NAME_OF)
          ICONDIFF_CORRECTOR_VERTICAL_MOMENTUM_CELL_ARGUMENTS(ICONDIFF_TEST_NAME_OF)};
  EXPECT_EQ(taken, call);
}

#undef ICONDIFF_TEST_NAME_OF

}  // namespace dycore_tools_test
}  // namespace icondiff
