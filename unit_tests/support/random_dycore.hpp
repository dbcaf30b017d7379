// Seeded random inputs for the dycore programs (tests and benchmarks): a static bundle and
// per-call fields, uniform in [-1, 1) except where a field must have a sign or a scale for the
// programs to stay well-posed — thermodynamic states positive and of atmospheric size, layer
// thicknesses positive, implicit weights around 0.5, damping factors in (0.5, 1], the pressure
// gradient's level offsets inside the column — so the tridiagonal systems are diagonally dominant
// as ICON's are and results stay finite.
#pragma once

#include "random_state.hpp"

#include <icondiff/dycore/dycore_inputs.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace icondiff::test {

/// [lo, hi) of the fields that are not uniform in [-1, 1).
inline const std::map<std::string, std::pair<double, double>>& dycore_value_ranges() {
  static const std::map<std::string, std::pair<double, double>> ranges = {
      {"current_rho", {0.5, 1.5}},
      {"current_theta_v", {250.0, 350.0}},
      // exner now and its reference state within 1 %, so the new exner (reference + perturbation)
      // stays close to the current one, as in ICON.
      {"current_exner", {0.80, 0.81}},
      {"rho_at_cells_on_half_levels", {0.5, 1.5}},
      {"theta_v_at_cells_on_half_levels", {250.0, 350.0}},
      {"reference_exner_at_cells_on_model_levels", {0.80, 0.81}},
      {"inv_ddqz_z_full", {1e-3, 1e-2}},
      {"ddqz_z_half", {50.0, 500.0}},
      {"exner_w_explicit_weight_parameter", {0.35, 0.5}},
      {"exner_w_implicit_weight_parameter", {0.5, 0.65}},
      {"wgtfac_c", {0.3, 0.7}},
      {"rayleigh_damping_factor", {0.5, 1.0}},
      // Near hydrostatic balance, as in ICON: the buoyancy and advective tendencies of w, the
      // exner perturbation and its tendency are small, so w stays O(1 m/s) and rho positive.
      {"nonhydro_buoy_at_cells_on_half_levels", {-1e-3, 1e-3}},
      {"predictor_vertical_wind_advective_tendency", {-1e-2, 1e-2}},
      {"corrector_vertical_wind_advective_tendency", {-1e-2, 1e-2}},
      {"perturbed_exner_at_cells_on_model_levels", {-1e-3, 1e-3}},
      {"exner_tendency_due_to_slow_physics", {-1e-6, 1e-6}},
      {"rho_iau_increment", {-1e-3, 1e-3}},
      {"exner_iau_increment", {-1e-4, 1e-4}},
      // Flux divergences that change rho by a few percent per step (geofac_div is O(1) here).
      {"mass_flux_at_edges_on_model_levels", {-0.1, 0.1}},
      {"theta_v_flux_at_edges_on_model_levels", {-30.0, 30.0}},
  };
  return ranges;
}

/// A value for field `name` (uniform in its range, [-1, 1) by default).
inline double dycore_value(const std::string& name, RandomSource& rng) {
  const auto& ranges = dycore_value_ranges();
  const auto it = ranges.find(name);
  return it == ranges.end() ? rng.uniform() : rng.uniform(it->second.first, it->second.second);
}

/// A static bundle of random fields on `grid` with `nlev` levels; nflatlev, nflat_gradp, the
/// damping layer and kstart_moist split the column so every regime of every program is hit.
template <class M>
DycoreInputs<M> random_dycore_inputs(const DeviceGrid<M>& grid, int nlev, RandomSource& rng,
                                     HostArrays& host) {
  DycoreInputs<M> in;
  in.grid = grid;
  in.nlev = nlev;
  in.nflatlev = nlev / 4;
  in.nflat_gradp = nlev / 2;
  in.end_index_of_damping_layer = nlev / 3;
  in.kstart_moist = nlev / 2;
  in.mean_cell_area = 1.0 + rng.uniform(0, 1);
  const FieldFiller fill = [&](const FieldSpec& spec, index_t, int, int k) -> double {
    const std::string name = spec.name;
    // Relative offsets 0..2 that stay in the column, as ICON's (the neighbour cell's level is
    // at or below the edge's).
    if (name == "vertoffset_gradp") return rng.integer(0, std::min(2, nlev - 1 - k));
    // The hydrostatic correction applies only where pg_exdist != 0: half of the points.
    if (name == "pg_exdist") return rng.uniform() < 0 ? 0.0 : rng.uniform();
    // Three quarters of the cells owned: the extra diffusion of w applies on owned cells only.
    if (name == "c_owner_mask") return rng.uniform() < -0.5 ? 0.0 : 1.0;
    if (name == "mask_prog_halo_c") return rng.uniform() < 0 ? 0.0 : 1.0;
    return dycore_value(name, rng);
  };
  const FieldSizes sizes = in.sizes();
  in.metric = random_state<DycoreMetricState, M>(sizes, fill, host, "icondiff::test::");
  in.metric.scaling_factor_for_3d_divdamp = random_profile<M>(
      "scaling_factor_for_3d_divdamp", nlev, [&](int) { return rng.uniform(0, 1); }, host);
  in.metric.rayleigh_w = random_profile<M>(
      "rayleigh_w", nlev + 1, [&](int) { return rng.uniform(0, 1e-2); }, host);
  in.interpolation =
      random_state<DycoreInterpolationState, M>(sizes, fill, host, "icondiff::test::");
  in.edges = random_state<DycoreEdgeParams, M>(sizes, fill, host, "icondiff::test::");
  in.cells = random_state<DycoreCellParams, M>(sizes, fill, host, "icondiff::test::");
  return in;
}

/// Per-call fields: pure outputs (`outputs`) start as NaN, everything else random.
inline FieldFiller dycore_call_filler(RandomSource& rng, const std::vector<std::string>& outputs) {
  return [&rng, outputs](const FieldSpec& spec, index_t, int, int) -> double {
    if (std::find(outputs.begin(), outputs.end(), spec.name) != outputs.end())
      return std::numeric_limits<double>::quiet_NaN();
    return dycore_value(spec.name, rng);
  };
}

}  // namespace icondiff::test
