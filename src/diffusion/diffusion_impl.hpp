// Implementation of Diffusion<ExecSpace>; included by the explicit-instantiation unit
// diffusion.cpp only.
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/launch.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_labels.hpp>
#include <icondiff/diffusion/diffusion_stencils.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <fmt/format.h>

#include <chrono>

namespace icondiff {

namespace detail {

/// Copies geofac_n2s[:, 0] and geofac_n2s[:, 1:4] into their own arrays.
template <class MemorySpace>
struct SplitGeofacN2s {
  Kokkos::View<const wp**, FieldLayout, MemorySpace> geofac_n2s;
  View1D<wp, MemorySpace> self;
  View2D<wp, MemorySpace> neighbours;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c) const {
    self(c) = geofac_n2s(c, 0);
    for (int j = 0; j < 3; ++j) neighbours(c, j) = geofac_n2s(c, j + 1);
  }
};

/// The first row of `table` in the reduction range that holds missing_index in one of `slots`.
template <class MemorySpace>
struct FirstMissingNeighbour {
  Kokkos::View<const index_t**, TableLayout, MemorySpace> table;
  int slots = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i, index_t& first) const {
    for (int j = 0; j < slots; ++j)
      if (table(i, j) == missing_index && i < first) first = i;
  }
};

}  // namespace detail

template <class MemorySpace>
DiffusionRanges diffusion_ranges(const DeviceGrid<MemorySpace>& g) {
  const auto range = [&g](Location l, Zone from, Zone to) {
    return IndexRange{g.range(l, from).start, g.range(l, to).end};
  };
  DiffusionRanges r;
  r.rbf_vertices = range(Location::Vertex, Zone::LateralBoundary2, Zone::Local);
  r.nabla2_edges = range(Location::Edge, Zone::LateralBoundary5, Zone::Halo2);
  r.turbulence_cells = range(Location::Cell, Zone::Nudging, Zone::Local);
  r.vn_edges = range(Location::Edge, Zone::LateralBoundary5, Zone::Local);
  r.start_2nd_nudge_line = g.range(Location::Edge, Zone::Nudging2).start;
  r.w_cells =
      range(Location::Cell, g.limited_area ? Zone::Nudging : Zone::LateralBoundary4, Zone::Halo);
  r.w_updated_cells = range(Location::Cell, Zone::Interior, Zone::Local);
  r.cold_pool_edges = range(Location::Edge, Zone::Nudging, Zone::Halo);
  r.all_cells = {0, g.num_cells};
  return r;
}

template <class ExecSpace>
Diffusion<ExecSpace>::Diffusion(const DiffusionConfig& config,
                                const DiffusionInputs<memory_space>& inputs,
                                const DiffusionOptions<ExecSpace>& options)
    : config_(config),
      params_(derive_diffusion_params(config)),
      profiles_(compute_diffusion_profiles(config, params_, inputs.vertical)),
      nlev_(inputs.vertical.num_levels()),
      nrd_(inputs.vertical.end_index_of_damping_layer),
      inputs_(inputs),
      ranges_(diffusion_ranges(inputs.grid)),
      strategy_(options.strategy),
      exchange_(options.exchange ? options.exchange
                                 : std::make_shared<SingleNodeExchange<ExecSpace>>()),
      default_space_(options.space),
      runner_(options.space, options.schedule) {
  runner_.set_level_block(options.level_block);
  if (nlev_ < 2)
    throw ConfigError(
        fmt::format("diffusion: nlev = {}, but the cold-pool step needs at least 2 levels", nlev_));
  const DeviceGrid<memory_space>& grid = inputs.grid;
  check_state_extents(grid, grid.sizes(), "diffusion: grid");
  check_diffusion_inputs(inputs, config.apply_zdiffusion_t);
  check_neighbours_in_ranges();

  using M = memory_space;
  const std::size_t nc = grid.num_cells, ne = grid.num_edges, nv = grid.num_vertices;
  const std::size_t k = nlev_, kh = nlev_ + 1;
  const std::string scope = "icondiff::diffusion::";
  DiffusionTemporaries<M>& t = tmp_;
  t.diff_multfac_vn = copy_to_view<wp, M>(scope + "diff_multfac_vn", profiles_.diff_multfac_vn);
  t.diff_multfac_vn_initial =
      copy_to_view<wp, M>(scope + "diff_multfac_vn_initial", profiles_.diff_multfac_vn_initial);
  t.enh_smag_fac = copy_to_view<wp, M>(scope + "enh_smag_fac", profiles_.enh_smag_fac);
  t.diff_multfac_n2w = copy_to_view<wp, M>(scope + "diff_multfac_n2w", profiles_.diff_multfac_n2w);
  t.smag_limit = copy_to_view<vp, M>(scope + "smag_limit", profiles_.smag_limit);
  t.smag_limit_initial =
      copy_to_view<vp, M>(scope + "smag_limit_initial", profiles_.smag_limit_initial);
  t.diff_multfac_smag = View1D<vp, M>(scope + "diff_multfac_smag", k);

  t.geofac_n2s_c = View1D<wp, M>(scope + "geofac_n2s_c", nc);
  t.geofac_n2s_nbh = View2D<wp, M>(scope + "geofac_n2s_nbh", nc, 3);
  Kokkos::parallel_for(
      diffusion_labels::split_geofac_n2s,
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(default_space_, 0, grid.num_cells),
      detail::SplitGeofacN2s<M>{inputs.interpolation.geofac_n2s, t.geofac_n2s_c, t.geofac_n2s_nbh});
  t.u_vert = View2D<vp, M>(scope + "u_vert", nv, k);
  t.v_vert = View2D<vp, M>(scope + "v_vert", nv, k);
  t.kh_smag_e = View2D<vp, M>(scope + "kh_smag_e", ne, k);
  t.kh_smag_ec = View2D<vp, M>(scope + "kh_smag_ec", ne, k);
  t.z_nabla2_e = View2D<wp, M>(scope + "z_nabla2_e", ne, k);
  t.w_tmp = View2D<wp, M>(scope + "w_tmp", nc, kh);
  t.theta_v_tmp = View2D<wp, M>(scope + "theta_v_tmp", nc, k);
  t.z_nabla2_c = View2D<vp, M>(scope + "z_nabla2_c", nc, k);
  compat::fence(default_space_, "icondiff::diffusion::init");
}

/// A -1 inside a range a kernel gathers over would read out of bounds: reject the grid at init
/// (diffusion_spec Addendum 8: only V2E may hold -1 there).
template <class ExecSpace>
void Diffusion<ExecSpace>::check_neighbours_in_ranges() const {
  const auto require = [this](const auto& table, const char* name, Location location,
                              IndexRange range, int slots) {
    if (range.empty()) return;
    index_t first = range.end;
    Kokkos::parallel_reduce(diffusion_labels::check_neighbours,
                            Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(
                                default_space_, range.start, range.end),
                            detail::FirstMissingNeighbour<memory_space>{table, slots},
                            Kokkos::Min<index_t>(first));
    if (first < range.end)
      throw GridError(fmt::format(
          "diffusion: {} of {} {} has a missing neighbour (-1), but the granule gathers over it in "
          "[{}, {}); the grid's zones or connectivity are inconsistent",
          name, to_string(location), first, range.start, range.end));
  };
  const DiffusionRanges& r = ranges_;
  const DeviceGrid<memory_space>& g = inputs_.grid;
  require(g.e2c2v, "e2c2v", Location::Edge, r.nabla2_edges, 4);
  require(g.c2e, "c2e", Location::Cell, r.turbulence_cells, 3);
  require(g.c2e2co, "c2e2co", Location::Cell, r.w_cells, 4);
  require(g.e2c, "e2c", Location::Edge, r.cold_pool_edges, 2);
  require(g.c2e2c, "c2e2c", Location::Cell, {r.turbulence_cells.start, r.w_cells.end}, 3);
}

/// Kernels are asynchronous on device backends: an exchange must see their results (and since
/// Kokkos 4.0 the default stream gives no implicit synchronisation with MPI).
template <class ExecSpace>
void Diffusion<ExecSpace>::fence_for_exchange(const Launch& launch) {
  if (exchange_->needs_synchronization()) launch.fence("icondiff::diffusion::before_exchange");
}

/// One exchange step, fence included, inside its region `label`.
template <class ExecSpace>
void Diffusion<ExecSpace>::exchange(const Launch& launch, const std::string& label,
                                    Location location, HaloField a, HaloField b) {
  compat::ScopedRegion region(label);
  const HaloField fields[2] = {a, b};
  fence_for_exchange(launch);
  exchange_->exchange(launch.space(), location, fields, b.data ? 2 : 1);
}

template <class ExecSpace>
void Diffusion<ExecSpace>::run(const ExecSpace& space,
                               const DiffusionDiagnosticState<memory_space>& diagnostic,
                               const DiffusionPrognosticState<memory_space>& prognostic,
                               double dtime, bool initial_run) {
  if (!(dtime > 0.0))
    throw InvalidArgument(
        fmt::format("diffusion: dtime = {}, expected > 0 (the turbulence diagnostics divide "
                    "by diff_multfac_smag = enh_smag_fac * dtime)",
                    dtime));
  const FieldSizes sizes = inputs_.sizes();
  check_state_extents(prognostic, sizes, "diffusion: prognostic");
  check_state_extents(diagnostic, sizes, "diffusion: diagnostic");
  // The call's region (ICON's timer name); every step below pushes its own region inside it.
  compat::ScopedRegion region(diffusion_labels::call_region);
  const Launch launch = runner_.on(space);
  launch.timed_call(diffusion_labels::run, [&] {
    const HaloExchangeHandle vn_exchange =
        run_steps_up_to_vn(launch, diagnostic, prognostic, initial_run, dtime);
    if (strategy_ == DiffusionStrategy::Unfused)
      run_w_unfused(launch, diagnostic, prognostic);
    else
      run_w_fused(launch, diagnostic, prognostic);
    {  // X4b
      compat::ScopedRegion wait_region(diffusion_labels::wait_exchange_vn);
      exchange_->wait(vn_exchange);
    }
    if (config_.apply_to_temperature) run_theta_steps(launch, prognostic);
    run_final_exchanges(launch, prognostic, initial_run);
  });
}

template <class ExecSpace>
WrittenRegion Diffusion<ExecSpace>::turbulence_region() const {
  // S4: half levels 1 .. nlev - 1 (the top and the surface are not interfaces of two levels).
  return {ranges_.turbulence_cells, {1, nlev_}};
}

template <class ExecSpace>
WrittenRegion Diffusion<ExecSpace>::diagnostic_written_region(std::string_view field) const {
  if (field == "div_ic" || field == "hdef_ic")
    return config_.computes_turbulence_diagnostics() ? turbulence_region() : WrittenRegion{};
  if (field == "dwdx" || field == "dwdy") {
    // S8 in both strategies (run_w_unfused, run_w_fused): the cells of w's Laplacian, every level
    // but the top, and only for shear type 2.
    const bool gradients = config_.shear_type ==
                           TurbulenceShearForcingType::VerticalHorizontalOfHorizontalVerticalWind;
    return gradients ? WrittenRegion{ranges_.w_cells, {1, nlev_}} : WrittenRegion{};
  }
  throw InvalidArgument(fmt::format(
      "diffusion: '{}' is not a field of the diagnostic state (hdef_ic, div_ic, dwdx, dwdy)",
      field));
}

template <class ExecSpace>
HaloExchangeHandle Diffusion<ExecSpace>::run_steps_up_to_vn(
    const Launch& launch, const DiffusionDiagnosticState<memory_space>& diagnostic,
    const DiffusionPrognosticState<memory_space>& prognostic, bool initial_run, double dtime) {
  using M = memory_space;
  namespace L = diffusion_labels;
  namespace S = diffusion_stencils;
  const DiffusionInputs<M>& in = inputs_;
  const DiffusionTemporaries<M>& t = tmp_;
  const DiffusionRanges& r = ranges_;
  // S0: the initial run uses its own diff_multfac_vn, smag_limit and no smag_offset.
  const auto diff_multfac_vn = initial_run ? t.diff_multfac_vn_initial : t.diff_multfac_vn;
  const auto smag_limit = initial_run ? t.smag_limit_initial : t.smag_limit;
  const vp smag_offset = initial_run ? vp(0) : static_cast<vp>(params_.smag_offset);

  // S1
  launch.levels(L::scale_k, 0, nlev_,
                stencils::ScaleK<M>{t.enh_smag_fac, dtime, t.diff_multfac_smag});
  // S2, X1
  launch.points_levels(L::rbf_before_nabla2, r.rbf_vertices, 0, nlev_,
                       S::rbf_vec_interpol_vertex(in, prognostic.vn, t.u_vert, t.v_vert));
  exchange(launch, L::exchange_u_v_vert_before_nabla2, Location::Vertex, halo_field(t.u_vert),
           halo_field(t.v_vert));
  // S3
  launch.points_levels(
      L::nabla2_and_smag, r.nabla2_edges, 0, nlev_,
      S::nabla2_and_smag_coefficients_for_vn(in, t, prognostic.vn, smag_limit, smag_offset));
  // S4 (reads vn before S6 changes it)
  if (config_.computes_turbulence_diagnostics()) {
    const WrittenRegion turbulence = turbulence_region();
    launch.points_levels(L::turbulence, turbulence.points, turbulence.levels.start,
                         turbulence.levels.end,
                         S::diagnostic_quantities_for_turbulence(in, t, diagnostic, prognostic.vn));
  }
  // X2, S5, X3
  exchange(launch, L::exchange_z_nabla2_e, Location::Edge, halo_field(t.z_nabla2_e));
  launch.points_levels(L::rbf_before_nabla4, r.rbf_vertices, 0, nlev_,
                       S::rbf_vec_interpol_vertex(in, t.z_nabla2_e, t.u_vert, t.v_vert));
  exchange(launch, L::exchange_u_v_vert_before_nabla4, Location::Vertex, halo_field(t.u_vert),
           halo_field(t.v_vert));
  // S6
  launch.points_levels(L::vn, r.vn_edges, 0, nlev_,
                       S::apply_diffusion_to_vn(in, t, params_, diff_multfac_vn,
                                                r.start_2nd_nudge_line, prognostic.vn));
  // X4a: the vn exchange runs while w is diffused.
  compat::ScopedRegion start_region(L::start_exchange_vn);
  fence_for_exchange(launch);
  const HaloField vn_field = halo_field(prognostic.vn);
  return exchange_->start(launch.space(), Location::Edge, &vn_field, 1);
}

template <class ExecSpace>
void Diffusion<ExecSpace>::run_final_exchanges(
    const Launch& launch, const DiffusionPrognosticState<memory_space>& prognostic,
    bool initial_run) {
  // X5, X6: only in the initial run or without NWP/AES physics (those exchange later anyway).
  namespace L = diffusion_labels;
  if (!config_.exchanges_at_end(initial_run)) return;
  if (config_.apply_to_temperature)
    exchange(launch, L::exchange_theta_v_exner, Location::Cell, halo_field(prognostic.theta_v),
             halo_field(prognostic.exner));
  exchange(launch, L::exchange_w, Location::Cell, halo_field(prognostic.w));
}

template <class ExecSpace>
void Diffusion<ExecSpace>::exchange_prognostic_halos(
    const ExecSpace& space, const DiffusionPrognosticState<memory_space>& prognostic) {
  if (!exchange_->needs_synchronization()) return;
  check_state_extents(prognostic, inputs_.sizes(), "diffusion: prognostic");
  const Launch launch = runner_.on(space);
  namespace L = diffusion_labels;
  exchange(launch, L::exchange_theta_v_exner, Location::Cell, halo_field(prognostic.theta_v),
           halo_field(prognostic.exner));
  exchange(launch, L::exchange_w, Location::Cell, halo_field(prognostic.w));
}

template <class ExecSpace>
void Diffusion<ExecSpace>::run_theta_steps(
    const Launch& launch, const DiffusionPrognosticState<memory_space>& prognostic) {
  using M = memory_space;
  namespace L = diffusion_labels;
  namespace S = diffusion_stencils;
  const DiffusionRanges& r = ranges_;
  // S9, S10, S11
  launch.points_levels(L::cold_pools, r.cold_pool_edges, nlev_ - 2, nlev_,
                       S::enhanced_diffusion_coefficients_for_grid_point_cold_pools(
                           inputs_, tmp_, params_, prognostic.theta_v));
  launch.points_levels(L::copy_theta, r.all_cells, 0, nlev_,
                       stencils::CopyField<wp, M>{prognostic.theta_v, tmp_.theta_v_tmp});
  launch.points_levels(L::theta, r.turbulence_cells, 0, nlev_,
                       S::apply_diffusion_to_theta_and_exner(
                           inputs_, tmp_, params_, config_.apply_zdiffusion_t, prognostic));
}

template <class ExecSpace>
void Diffusion<ExecSpace>::run_w_unfused(const Launch& launch,
                                         const DiffusionDiagnosticState<memory_space>& diagnostic,
                                         const DiffusionPrognosticState<memory_space>& prognostic) {
  using M = memory_space;
  namespace L = diffusion_labels;
  const DiffusionRanges& r = ranges_;
  // S7, S8
  launch.points_levels(L::copy_w, r.all_cells, 0, nlev_ + 1,
                       stencils::CopyField<wp, M>{prognostic.w, tmp_.w_tmp});
  launch.points_levels(
      L::w, r.w_cells, 0, nlev_,
      diffusion_stencils::apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
          inputs_, tmp_, params_, static_cast<int>(config_.shear_type), nrd_ + 1, r.w_updated_cells,
          diagnostic, tmp_.w_tmp, prognostic.w));
}

template <class ExecSpace>
void Diffusion<ExecSpace>::run_w_fused(const Launch& launch,
                                       const DiffusionDiagnosticState<memory_space>& diagnostic,
                                       const DiffusionPrognosticState<memory_space>& prognostic) {
  namespace L = diffusion_labels;
  namespace S = diffusion_stencils;
  const DiffusionRanges& r = ranges_;
  // S7+S8 without the copy of w: the Laplacian once on [w_start, HALO) (with dwdx, dwdy), then
  // the in-place update of the interior cells, which reads only its own w and stored Laplacians.
  const bool gradients =
      config_.shear_type == TurbulenceShearForcingType::VerticalHorizontalOfHorizontalVerticalWind;
  launch.points_levels(
      L::w_nabla2, r.w_cells, 0, nlev_,
      S::nabla2_for_w_and_horizontal_gradients(inputs_, tmp_, gradients, diagnostic, prognostic.w));
  launch.points_levels(
      L::w_update, r.w_updated_cells, 0, nlev_,
      S::apply_nabla4_and_damping_to_w(inputs_, tmp_, params_, nrd_ + 1, prognostic.w));
}

}  // namespace icondiff
