// The diffusion granule as every diffusion benchmark sets it up (bench_diffusion,
// count_instructions): ICON4Py's test_diffusion_benchmark configuration, vertical grid and metrics
// (diffusion_spec §5.3), the Jablonowski-Williamson initial state, on a grid source.
#pragma once

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <string>

namespace icondiff::bench {

/// ICON4Py's test_diffusion_benchmark configuration.
inline DiffusionConfig benchmark_config() {
  DiffusionConfig c;
  c.hdiff_efdt_ratio = 24.0;
  c.hdiff_w_efdt_ratio = 15.0;
  c.smagorinski_scaling_factor = 0.025;
  c.apply_zdiffusion_t = false;
  c.velocity_boundary_diffusion_denominator = 150.0;
  c.max_nudging_coefficient = 0.375;
  c.ndyn_substeps = 5;
  c.shear_type = TurbulenceShearForcingType::VerticalHorizontalOfHorizontalVerticalWind;
  return c;
}

/// Everything a benchmark call needs, in the memory space M.
template <class M>
struct DiffusionBenchmarkSetup {
  DiffusionConfig config = benchmark_config();
  HostDiffusionInputs host;
  DiffusionInputs<M> inputs;
  DiffusionPrognosticState<M> prognostic;
  DiffusionDiagnosticState<M> diagnostic;
  double dtime = 10.0;
  int nlev = 0;

  /// `source`: a grid source (load_grid_source); `scope`: the label prefix of the diagnostics.
  DiffusionBenchmarkSetup(const std::string& source, int levels, const std::string& scope)
      : nlev(levels) {
    DiffusionSetupConfig sc;
    sc.vertical = icon4py_benchmark_vertical_config(nlev);
    sc.metrics = icon4py_benchmark_metrics_config();
    host = compute_diffusion_inputs(load_grid_source(source), config, sc);
    inputs = make_diffusion_inputs<M>(host);
    const auto state = jablonowski_williamson_state(
        host.grid, host.metrics.z_ifc, host.metrics.z_mc, JablonowskiWilliamsonConfig{});
    prognostic = to_prognostic_state<M>(state);
    diagnostic = allocate_state<DiffusionDiagnosticState, M>(inputs.sizes(), scope);
  }

  double cell_levels() const { return static_cast<double>(host.grid.num_cells) * nlev; }
};

}  // namespace icondiff::bench
