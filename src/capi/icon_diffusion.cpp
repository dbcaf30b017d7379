// The diffusion granule on ICON's arrays on this rank (icon_granule.hpp): diffusion_init checks
// and copies the static fields into a Diffusion granule; diffusion_run wraps the caller's
// prognostic and diagnostic arrays as unmanaged Views in place (no allocation, no copy) and
// fences once at the end, so the results are in the caller's arrays when the call returns.

#include "icon_granule.hpp"

#include <icondiff/kokkos_compat.hpp>

#include <fmt/format.h>

#include <icondiff_c.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace icondiff::capi {
namespace {

/// The outputs a run writes must not share memory with each other or with its input rho.
void check_no_overlap(const icondiff_run_args& a, long nlev) {
  struct Range {
    const char* name;
    const icondiff_array* array;
    long levels;
    bool output;
  };
  const Range ranges[] = {
      {"w", &a.w, nlev + 1, true},           {"vn", &a.vn, nlev, true},
      {"exner", &a.exner, nlev, true},       {"theta_v", &a.theta_v, nlev, true},
      {"rho", &a.rho, nlev, false},          {"hdef_ic", &a.hdef_ic, nlev + 1, true},
      {"div_ic", &a.div_ic, nlev + 1, true}, {"dwdx", &a.dwdx, nlev + 1, true},
      {"dwdy", &a.dwdy, nlev + 1, true}};
  const auto bounds = [](const Range& r) {
    const auto begin = reinterpret_cast<std::uintptr_t>(r.array->data);
    return std::make_pair(begin, begin + static_cast<std::uintptr_t>(r.array->size[0]) *
                                             static_cast<std::uintptr_t>(r.levels) *
                                             sizeof(double));
  };
  for (std::size_t i = 0; i < std::size(ranges); ++i)
    for (std::size_t j = i + 1; j < std::size(ranges); ++j) {
      const Range &x = ranges[i], &y = ranges[j];
      if (x.array->data == nullptr || y.array->data == nullptr || !(x.output || y.output)) continue;
      const auto [xb, xe] = bounds(x);
      const auto [yb, ye] = bounds(y);
      if (xb < ye && yb < xe)
        throw InvalidArgument(fmt::format(
            "{}: {} and {} overlap in memory{}: the granule writes {} in place, so every output "
            "must be an array of its own, apart from every input",
            diffusion_run_name, x.name, y.name, xb == yb ? " (the same array)" : "",
            x.output ? x.name : y.name));
    }
}

DiffusionDiagnosticState<M>& own_diagnostics(icondiff_diffusion& d) {
  if (!d.own_diagnostics.hdef_ic.data())
    d.own_diagnostics =
        allocate_state<DiffusionDiagnosticState, M>(d.inputs.sizes(), "icondiff::capi::own_");
  return d.own_diagnostics;
}

/// The position of field `name` in State's field list (ExternalState::Arrays); no allocation.
template <template <class> class State>
std::size_t field_index(const char* name) {
  const auto& specs = State<M>::field_specs();
  for (std::size_t f = 0; f < specs.size(); ++f)
    if (std::strcmp(specs[f].name, name) == 0) return f;
  throw Error(std::string("no field ") + name);  // a renamed field: a bug, not bad input
}

/// What a run's binding errors start with.
const char* run_prefix() {
  static const std::string prefix = std::string(diffusion_run_name) + ":";
  return prefix.c_str();
}

/// Binds the caller's vn, w, theta_v and exner (checked arguments) to d.caller_prognostic. No
/// heap allocation (a regular call leaves the heap untouched).
DiffusionPrognosticState<M>& bind_prognostic(icondiff_diffusion& d, const icondiff_run_args& a) {
  using Bound = decltype(d.caller_prognostic);
  typename Bound::Arrays arrays{};
  arrays.at(field_index<DiffusionPrognosticState>("vn")) = external<wp>(a.vn);
  arrays.at(field_index<DiffusionPrognosticState>("w")) = external<wp>(a.w);
  arrays.at(field_index<DiffusionPrognosticState>("theta_v")) = external<wp>(a.theta_v);
  arrays.at(field_index<DiffusionPrognosticState>("exner")) = external<wp>(a.exner);
  d.caller_prognostic.bind(arrays, d.inputs.sizes(), run_prefix());
  return d.caller_prognostic.fields();
}

/// Binds the diagnostics the caller passes to d.caller_diagnostic; the others are icondiff's own.
DiffusionDiagnosticState<M>& bind_diagnostics(icondiff_diffusion& d, const icondiff_run_args& a) {
  using Bound = decltype(d.caller_diagnostic);
  typename Bound::Arrays arrays{};
  const std::pair<const char*, const icondiff_array*> given[] = {
      {"hdef_ic", &a.hdef_ic}, {"div_ic", &a.div_ic}, {"dwdx", &a.dwdx}, {"dwdy", &a.dwdy}};
  bool all_given = true;
  for (const auto& [name, array] : given) {
    if (array->data != nullptr)
      arrays.at(field_index<DiffusionDiagnosticState>(name)) = external<vp>(*array);
    else
      all_given = false;
  }
  d.caller_diagnostic.bind(arrays, d.inputs.sizes(), run_prefix(), true, MissingArrays::Empty);
  DiffusionDiagnosticState<M>& diagnostic = d.caller_diagnostic.fields();
  if (!all_given) {
    const DiffusionDiagnosticState<M>& own = own_diagnostics(d);
    DiffusionDiagnosticState<M>::for_each_field(
        [](const FieldSpec&, auto& field, const auto& mine) {
          if (field.data() == nullptr) field = mine;
        },
        diagnostic, own);
  }
  return diagnostic;
}

}  // namespace

/// diffusion_init on this rank; `exchange` is the halo exchange of a decomposed grid (nullptr on
/// one rank).
icondiff_diffusion* create_diffusion(const icondiff_icon_grid& grid,
                                     const icondiff_diffusion_args& a,
                                     std::shared_ptr<HaloExchange<Space>> exchange) {
  const char* f = diffusion_init_name;
  const bool dev = a.on_gpu != 0;
  check_granule_set_up(grid, f, dev, a.backend);
  const DiffusionConfig config = config_from(a);
  check_smagorinsky_heights(a);
  const index_t nc = grid.grid.num_cells, ne = grid.grid.num_edges, nv = grid.grid.num_vertices;
  const int nlev = grid.vertical.num_levels();

  check_array(a.wgtfac_c, f, "wgtfac_c",
              {at_least(nc, "num_cells"), exactly(nlev + 1, "vertical_size + 1 of grid_init")});
  check_array(a.theta_ref_mc, f, "theta_ref_mc",
              {at_least(nc, "num_cells"), exactly(nlev, "nlev")});
  check_array(a.e_bln_c_s, f, "e_bln_c_s", {at_least(nc, "num_cells"), exactly(3, "C2E")});
  check_array(a.geofac_div, f, "geofac_div", {at_least(nc, "num_cells"), exactly(3, "C2E")});
  check_array(a.geofac_grg_x, f, "geofac_grg_x", {at_least(nc, "num_cells"), exactly(4, "C2E2CO")});
  check_array(a.geofac_grg_y, f, "geofac_grg_y", {at_least(nc, "num_cells"), exactly(4, "C2E2CO")});
  check_array(a.geofac_n2s, f, "geofac_n2s", {at_least(nc, "num_cells"), exactly(4, "C2E2CO")});
  check_array(a.nudgecoeff_e, f, "nudgecoeff_e", {at_least(ne, "num_edges")});
  check_array(
      a.rbf_vec_coeff_v, f, "rbf_vec_coeff_v",
      {exactly(6, "rbf_vec_dim_v"), exactly(2, "vector components"), at_least(nv, "num_vertices")});
  check_diffusion_values(a, nc, ne, nv, dev);

  auto handle = std::make_unique<icondiff_diffusion>();
  handle->on_gpu = dev;
  handle->config = config;
  DiffusionInputs<M>& in = handle->inputs;
  in.grid = grid.device;
  in.vertical = grid.vertical;
  in.edges = grid.edges;
  in.cells = grid.cells;
  const FieldSizes sizes = in.sizes();
  const std::string what = std::string(f) + ":";
  in.metric = copy_from_caller<DiffusionMetricState>(
      {{"theta_ref_mc", external<vp>(a.theta_ref_mc)}, {"wgtfac_c", external<vp>(a.wgtfac_c)}},
      sizes, what, dev);
  const std::size_t cells = sizes.cells;
  in.interpolation.e_bln_c_s = copy_field<wp, 2>(a.e_bln_c_s, "e_bln_c_s", {cells, 3}, dev);
  in.interpolation.geofac_div = copy_field<wp, 2>(a.geofac_div, "geofac_div", {cells, 3}, dev);
  in.interpolation.geofac_n2s = copy_field<wp, 2>(a.geofac_n2s, "geofac_n2s", {cells, 4}, dev);
  in.interpolation.geofac_grg_x =
      copy_field<wp, 2>(a.geofac_grg_x, "geofac_grg_x", {cells, 4}, dev);
  in.interpolation.geofac_grg_y =
      copy_field<wp, 2>(a.geofac_grg_y, "geofac_grg_y", {cells, 4}, dev);
  in.interpolation.nudgecoeff_e =
      copy_field<wp, 1>(a.nudgecoeff_e, "nudgecoeff_e", {sizes.edges}, dev);
  convert_rbf(a, nv, dev, in.interpolation);
  if (config.apply_zdiffusion_t) convert_zd_lists(a, nc, nlev, dev, in.metric);
  share_static_fields(grid, in.metric);
  share_static_fields(grid, in.interpolation);

  handle->grid_reference = make_grid_reference(grid.grid);
  handle->whole_sizes = grid.whole_sizes;
  DiffusionOptions<Space> options;
  options.exchange = std::move(exchange);
  handle->granule = std::make_unique<Diffusion<Space>>(config, in, options);
  // The diagnostics are pure outputs: with level-fastest fields a call converts them back where
  // its kernels write them and never in (about a fifth of an R2B5 drop-in call before).
  for (const FieldSpec& spec : DiffusionDiagnosticState<M>::field_specs())
    handle->caller_diagnostic.set_pure_output(
        spec.name, handle->granule->diagnostic_written_region(spec.name));
  return handle.release();
}

/// The run arguments' checks; the only part of a run that can fail on one rank alone.
void check_run_arguments(const icondiff_diffusion& d, const icondiff_run_args& a) {
  const char* f = diffusion_run_name;
  check_alive(&d, f);
  if ((a.on_gpu != 0) != d.on_gpu) check_memory(f, a.on_gpu != 0);
  const auto nc = static_cast<long>(d.inputs.grid.num_cells);
  const auto ne = static_cast<long>(d.inputs.grid.num_edges);
  const long nlev = d.inputs.num_levels();
  check_array(a.w, f, "w", {at_least(nc, "num_cells"), exactly(nlev + 1, "nlev + 1")});
  check_array(a.vn, f, "vn", {at_least(ne, "num_edges"), exactly(nlev, "nlev")});
  check_array(a.exner, f, "exner", {at_least(nc, "num_cells"), exactly(nlev, "nlev")});
  check_array(a.theta_v, f, "theta_v", {at_least(nc, "num_cells"), exactly(nlev, "nlev")});
  check_array(a.rho, f, "rho", {at_least(nc, "num_cells"), exactly(nlev, "nlev")});
  const Extent half[] = {at_least(nc, "num_cells"), exactly(nlev + 1, "nlev + 1")};
  check_optional_array(a.hdef_ic, f, "hdef_ic", half);
  check_optional_array(a.div_ic, f, "div_ic", half);
  check_optional_array(a.dwdx, f, "dwdx", half);
  check_optional_array(a.dwdy, f, "dwdy", half);
  if (!(a.dtime > 0.0) || !std::isfinite(a.dtime))
    throw InvalidArgument(
        fmt::format("{}: dtime = {} must be a positive finite number", f, a.dtime));
  check_no_overlap(a, nlev);
}

void run(icondiff_diffusion& d, const icondiff_run_args& a) {
  check_run_arguments_on_every_rank(d, a);
  static const std::string wait_label = "icondiff::capi::diffusion_run::caller_queues";
  wait_for_caller_queues(wait_label);
  const DiffusionPrognosticState<M>& prognostic = bind_prognostic(d, a);
  DiffusionDiagnosticState<M>& diagnostic = bind_diagnostics(d, a);
  const Space space;
  // In icondiff's level-fastest layout the caller's arrays are converted in and back out; in
  // ICON's layout these do nothing.
  // A captured call records the diagnostics it was given, so they are converted in too.
  const bool captured = d.capture_call == d.calls + 1;
  d.caller_prognostic.copy_in(space);
  d.caller_diagnostic.copy_in(space, captured ? PureOutputs::Converted : PureOutputs::Skipped);

  // Nothing below allocates unless this call is captured (checked by callgrind: the C++ heap,
  // not only Kokkos, stays untouched in a regular call).
  std::optional<DiffusionSavepoint> init;
  if (captured) {
    init.emplace();
    capture(d, SavepointKind::Init, nullptr, diagnostic, prognostic, a.dtime, a.linit != 0, &*init);
  }
  static const std::string fence_label = "icondiff::capi::diffusion_run";
  d.granule->run(space, diagnostic, prognostic, a.dtime, a.linit != 0);
  d.caller_prognostic.copy_out(space);
  d.caller_diagnostic.copy_out(space);
  compat::fence(space, fence_label);
  ++d.calls;
  if (init) {
    DiffusionSavepoint exit;
    capture(d, SavepointKind::Exit, &*init, diagnostic, prognostic, a.dtime, a.linit != 0, &exit);
  }
}

void exchange_halos(icondiff_diffusion& d, const icondiff_run_args& a) {
  check_run_arguments_on_every_rank(d, a);
  static const std::string wait_label = "icondiff::capi::exchange_halos::caller_queues";
  wait_for_caller_queues(wait_label);
  const Space space;
  const DiffusionPrognosticState<M>& prognostic = bind_prognostic(d, a);
  d.caller_prognostic.copy_in(space);
  d.granule->exchange_prognostic_halos(space, prognostic);  // one rank: nothing
  d.caller_prognostic.copy_out(space);
  compat::fence(space, "icondiff::capi::exchange_halos");
}

}  // namespace icondiff::capi
