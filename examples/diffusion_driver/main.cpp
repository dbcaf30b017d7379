// A complete horizontal-diffusion run with icondiff, the way a model driver sets one up:
// grid -> factories -> granule -> time steps -> output. docs/user/example.md walks through it.
//
//   diffusion_driver [GRID] [OUTPUT]
//     GRID    an ICON grid file, or generate:RnBk for a generated global grid (generate:R2B4)
//     OUTPUT  the CF/UGRID netCDF file to write (diffusion_driver.nc)
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/state_checks.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/ugrid_output.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

using Space = Kokkos::DefaultExecutionSpace;  // OpenMP, CUDA, HIP...: as Kokkos was built
using Memory = Space::memory_space;

// The root-mean-square of a field (on a host copy): diffusion must make it smaller.
template <class View>
double rms(const View& field) {
  const std::vector<double> values = icondiff::host_field_copy(field);
  double sum = 0;
  for (double v : values) sum += v * v;
  return std::sqrt(sum / static_cast<double>(values.size()));
}

// The whole run on the grid `source`, writing `output`; 0 if the sanity check passed.
int run(const std::string& source, const std::string& output) {
  const int steps = 5;
  const double dtime = 300.0;  // s: the time step ICON passes to diffusion

  // 1. The horizontal grid (ICON's p_patch): read from a grid file, or generated.
  icondiff::Grid grid = icondiff::load_grid_source(source);

  // 2. ICON's diffusion_nml as MeteoSwiss runs it: hdiff_order = 5, itype_sher = 2, ...
  const icondiff::DiffusionConfig config = icondiff::mch_ch_r04b09_config();

  // 3. The factories: what ICON derives at start-up from the grid and the namelists (edge
  //    geometry, interpolation coefficients incl. RBF, vertical grid, metric fields). The same
  //    setup's 65 levels up to 23 km, over a 4 km Gaussian mountain at 8 E 46.5 N.
  icondiff::DiffusionSetupConfig setup;
  setup.metrics.topography = icondiff::TopographyConfig::gaussian_hill(4000, 200e3, 8.0, 46.5);
  const icondiff::HostDiffusionInputs host =
      icondiff::compute_diffusion_inputs(std::move(grid), config, setup);
  const icondiff::VerticalGrid& vertical = host.metrics.vertical;
  std::printf("grid    %s: %d cells, %d edges, %d levels\n", source.c_str(),
              int(host.grid.num_cells), int(host.grid.num_edges), vertical.num_levels());

  // 4. The granule: its inputs copied to the device once; the constructor validates them.
  const icondiff::DiffusionInputs<Memory> inputs = icondiff::make_diffusion_inputs<Memory>(host);
  icondiff::Diffusion<Space> diffusion(config, inputs);

  // 5. The state: Jablonowski-Williamson's baroclinic wave with small-scale noise on vn and w
  //    for diffusion to damp. The diagnostics (div_ic, hdef_ic, dwdx, dwdy) start at zero.
  icondiff::JablonowskiWilliamsonConfig jw;
  jw.vn_noise_amplitude = 1.0;  // m/s
  jw.w_noise_amplitude = 0.05;  // m/s
  const auto prognostic = icondiff::to_prognostic_state<Memory>(
      icondiff::jablonowski_williamson_state(host.grid, host.metrics.z_ifc, host.metrics.z_mc, jw));
  const auto diagnostic = icondiff::allocate_state<icondiff::DiffusionDiagnosticState, Memory>(
      inputs.sizes(), "driver::");

  // 6. Output: the grid once, then one record per output time. Level heights: the vertical
  //    grid's half levels (vct_a) and the full levels between them.
  std::vector<double> full_levels;
  for (int k = 0; k < vertical.num_levels(); ++k)
    full_levels.push_back(0.5 * (vertical.vct_a[k] + vertical.vct_a[k + 1]));
  icondiff::UgridWriter writer(output, host.grid, full_levels, vertical.vct_a);
  writer.write_step(0.0, prognostic);  // the diagnostics are not computed yet

  // 7. The time steps; the first is ICON's initial call (linit = .TRUE.).
  double vn_rms = rms(prognostic.vn), w_rms = rms(prognostic.w);
  bool damped = true;
  std::printf("step 0  t =    0 s  rms(vn) = %.6f m/s  rms(w) = %.6e m/s\n", vn_rms, w_rms);
  for (int step = 1; step <= steps; ++step) {
    diffusion.run(diagnostic, prognostic, dtime, /*initial_run=*/step == 1);
    const double vn_now = rms(prognostic.vn), w_now = rms(prognostic.w);
    damped = damped && vn_now < vn_rms && w_now < w_rms;
    vn_rms = vn_now;
    w_rms = w_now;
    std::printf("step %d  t = %4.0f s  rms(vn) = %.6f m/s  rms(w) = %.6e m/s\n", step, step * dtime,
                vn_rms, w_rms);
  }
  writer.write_step(steps * dtime, prognostic, &diagnostic);
  writer.close();
  std::printf("output  %s (%zu times)\n", output.c_str(), writer.steps_written());

  // 8. A sanity check: every value finite, and every step damped vn and w.
  const bool ok = damped && !icondiff::find_non_finite(Space(), prognostic);
  std::printf("diffusion_driver: %s\n", ok ? "OK (finite; every step damped vn and w)" : "FAILED");
  return ok ? 0 : 1;
}

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);  // Kokkos::initialize now, finalize on return
  try {
    return run(argc > 1 ? argv[1] : "generate:R2B4", argc > 2 ? argv[2] : "diffusion_driver.nc");
  } catch (const std::exception& e) {  // icondiff throws icondiff::Error, naming what is wrong
    std::fprintf(stderr, "diffusion_driver: %s\n", e.what());
    return 1;
  }
}
