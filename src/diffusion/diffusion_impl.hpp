// Implementation of Diffusion<ExecSpace>; included by the explicit-instantiation unit
// diffusion.cpp only.
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/launch.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_labels.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/stencils/apply_diffusion_to_theta_and_exner.hpp>
#include <icondiff/stencils/apply_diffusion_to_vn.hpp>
#include <icondiff/stencils/apply_diffusion_to_w.hpp>
#include <icondiff/stencils/cold_pools.hpp>
#include <icondiff/stencils/copy_field.hpp>
#include <icondiff/stencils/diagnostic_quantities_for_turbulence.hpp>
#include <icondiff/stencils/fused_diffusion.hpp>
#include <icondiff/stencils/nabla2_and_smag_coefficients_for_vn.hpp>
#include <icondiff/stencils/rbf_vec_interpol_vertex.hpp>

#include <fmt/format.h>

#include <chrono>

namespace icondiff {

namespace detail {

template <class MemorySpace>
View1D<wp, MemorySpace> k_profile_to_device(const std::string& name,
                                            const std::vector<double>& values) {
  View1D<wp, MemorySpace> device("icondiff::diffusion::" + name, values.size());
  auto host = Kokkos::create_mirror_view(device);
  for (std::size_t k = 0; k < values.size(); ++k) host(k) = values[k];
  Kokkos::deep_copy(device, host);
  return device;
}

template <class MemorySpace>
View1D<vp, MemorySpace> vp_profile_to_device(const std::string& name,
                                             const std::vector<double>& values) {
  View1D<vp, MemorySpace> device("icondiff::diffusion::" + name, values.size());
  auto host = Kokkos::create_mirror_view(device);
  for (std::size_t k = 0; k < values.size(); ++k) host(k) = static_cast<vp>(values[k]);
  Kokkos::deep_copy(device, host);
  return device;
}

/// Throws InvalidArgument unless `view` has the given extents (and data when non-empty).
template <class View>
void require_extents(const View& view, const char* what, std::size_t e0, std::size_t e1,
                     std::size_t e2 = 0) {
  const bool rank3 = View::rank == 3;
  const bool ok = view.extent(0) == e0 && view.extent(1) == e1 &&
                  (!rank3 || view.extent(2) == e2) && (e0 * e1 == 0 || view.data() != nullptr);
  if (!ok) {
    const std::string got =
        rank3 ? fmt::format("({}, {}, {})", view.extent(0), view.extent(1), view.extent(2))
              : fmt::format("({}, {})", view.extent(0), view.extent(1));
    const std::string expected =
        rank3 ? fmt::format("({}, {}, {})", e0, e1, e2) : fmt::format("({}, {})", e0, e1);
    throw InvalidArgument(fmt::format("diffusion: {} has extents {}{}, expected {}", what, got,
                                      view.data() == nullptr ? " and no data" : "", expected));
  }
}

template <class View>
void require_length(const View& view, const char* what, std::size_t n) {
  if (view.extent(0) != n || (n > 0 && view.data() == nullptr))
    throw InvalidArgument(fmt::format("diffusion: {} has {} values{}, expected {}", what,
                                      view.extent(0), view.data() == nullptr ? " and no data" : "",
                                      n));
}

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
Diffusion<ExecSpace>::Diffusion(const DiffusionConfig& config, const DeviceGrid<memory_space>& grid,
                                const VerticalGrid& vertical,
                                const DiffusionMetricState<memory_space>& metric,
                                const DiffusionInterpolationState<memory_space>& interpolation,
                                const DiffusionEdgeParams<memory_space>& edges,
                                const DiffusionCellParams<memory_space>& cells,
                                DiffusionStrategy strategy,
                                std::shared_ptr<HaloExchange<memory_space>> exchange,
                                const ExecSpace& space)
    : config_(config),
      params_(derive_diffusion_params(config)),
      profiles_(compute_diffusion_profiles(config, params_, vertical)),
      nlev_(vertical.num_levels()),
      nrd_(vertical.end_index_of_damping_layer),
      grid_(grid),
      ranges_(diffusion_ranges(grid)),
      metric_(metric),
      interpolation_(interpolation),
      edges_(edges),
      cells_(cells),
      strategy_(strategy),
      exchange_(exchange ? std::move(exchange)
                         : std::make_shared<SingleNodeExchange<memory_space>>()),
      space_(space) {
  using detail::require_extents;
  using detail::require_length;
  if (nlev_ < 2)
    throw ConfigError(
        fmt::format("diffusion: nlev = {}, but the cold-pool step needs at least 2 levels", nlev_));
  const std::size_t nc = grid.num_cells, ne = grid.num_edges, nv = grid.num_vertices;
  const std::size_t k = nlev_, kh = nlev_ + 1;
  require_extents(grid.c2e, "grid c2e", nc, 3);
  require_extents(grid.c2e2c, "grid c2e2c", nc, 3);
  require_extents(grid.c2e2co, "grid c2e2co", nc, 4);
  require_extents(grid.e2c, "grid e2c", ne, 2);
  require_extents(grid.e2c2v, "grid e2c2v", ne, 4);
  require_extents(grid.v2e, "grid v2e", nv, 6);
  require_extents(metric.theta_ref_mc, "metric theta_ref_mc", nc, k);
  require_extents(metric.wgtfac_c, "metric wgtfac_c", nc, kh);
  if (config.apply_zdiffusion_t) {
    require_extents(metric.zd_vertoffset, "metric zd_vertoffset", nc, 3, k);
    require_extents(metric.zd_diffcoef, "metric zd_diffcoef", nc, k);
    require_extents(metric.zd_intcoef, "metric zd_intcoef", nc, 3, k);
  }
  require_extents(interpolation.e_bln_c_s, "interpolation e_bln_c_s", nc, 3);
  require_extents(interpolation.rbf_coeff_1, "interpolation rbf_coeff_1", nv, 6);
  require_extents(interpolation.rbf_coeff_2, "interpolation rbf_coeff_2", nv, 6);
  require_extents(interpolation.geofac_div, "interpolation geofac_div", nc, 3);
  require_extents(interpolation.geofac_n2s, "interpolation geofac_n2s", nc, 4);
  require_extents(interpolation.geofac_grg_x, "interpolation geofac_grg_x", nc, 4);
  require_extents(interpolation.geofac_grg_y, "interpolation geofac_grg_y", nc, 4);
  require_length(interpolation.nudgecoeff_e, "interpolation nudgecoeff_e", ne);
  require_length(edges.tangent_orientation, "edge tangent_orientation", ne);
  require_length(edges.inverse_primal_edge_lengths, "edge inverse_primal_edge_lengths", ne);
  require_length(edges.inverse_vertex_vertex_lengths, "edge inverse_vertex_vertex_lengths", ne);
  require_length(edges.inverse_dual_edge_lengths, "edge inverse_dual_edge_lengths", ne);
  require_length(edges.edge_areas, "edge edge_areas", ne);
  require_extents(edges.primal_normal_vert_x, "edge primal_normal_vert_x", ne, 4);
  require_extents(edges.primal_normal_vert_y, "edge primal_normal_vert_y", ne, 4);
  require_extents(edges.dual_normal_vert_x, "edge dual_normal_vert_x", ne, 4);
  require_extents(edges.dual_normal_vert_y, "edge dual_normal_vert_y", ne, 4);
  require_length(cells.area, "cell area", nc);
  check_neighbours_in_ranges();

  using M = memory_space;
  diff_multfac_vn_ = detail::k_profile_to_device<M>("diff_multfac_vn", profiles_.diff_multfac_vn);
  diff_multfac_vn_initial_ =
      detail::k_profile_to_device<M>("diff_multfac_vn_initial", profiles_.diff_multfac_vn_initial);
  enh_smag_fac_ = detail::k_profile_to_device<M>("enh_smag_fac", profiles_.enh_smag_fac);
  diff_multfac_n2w_ =
      detail::k_profile_to_device<M>("diff_multfac_n2w", profiles_.diff_multfac_n2w);
  smag_limit_ = detail::vp_profile_to_device<M>("smag_limit", profiles_.smag_limit);
  smag_limit_initial_ =
      detail::vp_profile_to_device<M>("smag_limit_initial", profiles_.smag_limit_initial);
  diff_multfac_smag_ = View1D<vp, M>("icondiff::diffusion::diff_multfac_smag", k);

  geofac_n2s_c_ = View1D<wp, M>("icondiff::diffusion::geofac_n2s_c", nc);
  geofac_n2s_nbh_ = View2D<wp, M>("icondiff::diffusion::geofac_n2s_nbh", nc, 3);
  Kokkos::parallel_for(
      diffusion_labels::split_geofac_n2s,
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(space_, 0, grid.num_cells),
      detail::SplitGeofacN2s<M>{interpolation.geofac_n2s, geofac_n2s_c_, geofac_n2s_nbh_});
  u_vert_ = View2D<vp, M>("icondiff::diffusion::u_vert", nv, k);
  v_vert_ = View2D<vp, M>("icondiff::diffusion::v_vert", nv, k);
  kh_smag_e_ = View2D<vp, M>("icondiff::diffusion::kh_smag_e", ne, k);
  kh_smag_ec_ = View2D<vp, M>("icondiff::diffusion::kh_smag_ec", ne, k);
  z_nabla2_e_ = View2D<wp, M>("icondiff::diffusion::z_nabla2_e", ne, k);
  w_tmp_ = View2D<wp, M>("icondiff::diffusion::w_tmp", nc, kh);
  theta_v_tmp_ = View2D<wp, M>("icondiff::diffusion::theta_v_tmp", nc, k);
  z_nabla2_c_ = View2D<vp, M>("icondiff::diffusion::z_nabla2_c", nc, k);
  compat::fence(space_, "icondiff::diffusion::init");
}

/// A -1 inside a range a kernel gathers over would read out of bounds: reject the grid at init
/// (diffusion_spec Addendum 8: only V2E may hold -1 there).
template <class ExecSpace>
void Diffusion<ExecSpace>::check_neighbours_in_ranges() const {
  const auto require = [this](const auto& table, const char* name, Location location,
                              IndexRange range, int slots) {
    if (range.empty()) return;
    index_t first = range.end;
    Kokkos::parallel_reduce(
        diffusion_labels::check_neighbours,
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(space_, range.start, range.end),
        detail::FirstMissingNeighbour<memory_space>{table, slots}, Kokkos::Min<index_t>(first));
    if (first < range.end)
      throw GridError(fmt::format(
          "diffusion: {} of {} {} has a missing neighbour (-1), but the granule gathers over it in "
          "[{}, {}); the grid's zones or connectivity are inconsistent",
          name, to_string(location), first, range.start, range.end));
  };
  const DiffusionRanges& r = ranges_;
  require(grid_.e2c2v, "e2c2v", Location::Edge, r.nabla2_edges, 4);
  require(grid_.c2e, "c2e", Location::Cell, r.turbulence_cells, 3);
  require(grid_.c2e2co, "c2e2co", Location::Cell, r.w_cells, 4);
  require(grid_.e2c, "e2c", Location::Edge, r.cold_pool_edges, 2);
  require(grid_.c2e2c, "c2e2c", Location::Cell, {r.turbulence_cells.start, r.w_cells.end}, 3);
}

template <class ExecSpace>
template <class Body>
void Diffusion<ExecSpace>::launch(const std::string& label, IndexRange points, index_t level_begin,
                                  index_t level_end, const Body& body) {
  if (!timers_) {
    parallel_for_points_levels(label, space_, points, level_begin, level_end, body, schedule_);
    return;
  }
  compat::fence(space_, label);
  const auto t0 = std::chrono::steady_clock::now();
  parallel_for_points_levels(label, space_, points, level_begin, level_end, body, schedule_);
  compat::fence(space_, label);
  timers_->record(label,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

template <class ExecSpace>
template <class Body>
void Diffusion<ExecSpace>::launch_levels(const std::string& label, index_t level_begin,
                                         index_t level_end, const Body& body) {
  if (!timers_) {
    parallel_for_levels(label, space_, level_begin, level_end, body);
    return;
  }
  compat::fence(space_, label);
  const auto t0 = std::chrono::steady_clock::now();
  parallel_for_levels(label, space_, level_begin, level_end, body);
  compat::fence(space_, label);
  timers_->record(label,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

/// Kernels are asynchronous on device backends: an exchange must see their results (and since
/// Kokkos 4.0 the default stream gives no implicit synchronisation with MPI).
template <class ExecSpace>
void Diffusion<ExecSpace>::fence_for_exchange() {
  if (exchange_->needs_synchronization())
    compat::fence(space_, "icondiff::diffusion::before_exchange");
}

template <class ExecSpace>
void Diffusion<ExecSpace>::exchange(Location location, HaloField a, HaloField b) {
  const HaloField fields[2] = {a, b};
  fence_for_exchange();
  exchange_->exchange(location, fields, b.data ? 2 : 1);
}

template <class ExecSpace>
void Diffusion<ExecSpace>::check_state(const DiffusionDiagnosticState<memory_space>& d,
                                       const DiffusionPrognosticState<memory_space>& p) const {
  using detail::require_extents;
  const std::size_t nc = grid_.num_cells, ne = grid_.num_edges, k = nlev_, kh = nlev_ + 1;
  require_extents(p.vn, "prognostic vn", ne, k);
  require_extents(p.w, "prognostic w", nc, kh);
  require_extents(p.theta_v, "prognostic theta_v", nc, k);
  require_extents(p.exner, "prognostic exner", nc, k);
  require_extents(d.hdef_ic, "diagnostic hdef_ic", nc, kh);
  require_extents(d.div_ic, "diagnostic div_ic", nc, kh);
  require_extents(d.dwdx, "diagnostic dwdx", nc, kh);
  require_extents(d.dwdy, "diagnostic dwdy", nc, kh);
}

template <class ExecSpace>
void Diffusion<ExecSpace>::run(const DiffusionDiagnosticState<memory_space>& diagnostic,
                               const DiffusionPrognosticState<memory_space>& prognostic,
                               double dtime, bool initial_run) {
  if (!(dtime > 0.0))
    throw InvalidArgument(
        fmt::format("diffusion: dtime = {}, expected > 0 (the turbulence diagnostics divide "
                    "by diff_multfac_smag = enh_smag_fac * dtime)",
                    dtime));
  check_state(diagnostic, prognostic);
  compat::ScopedRegion region(diffusion_labels::run);
  if (timers_) compat::fence(space_, diffusion_labels::run);
  const auto t0 = std::chrono::steady_clock::now();
  run_steps_up_to_vn(diagnostic, prognostic, initial_run, dtime);
  if (strategy_ == DiffusionStrategy::Unfused)
    run_unfused(diagnostic, prognostic);
  else
    run_fused(diagnostic, prognostic);
  run_final_exchanges(prognostic, initial_run);
  if (timers_) {
    compat::fence(space_, diffusion_labels::run);
    timers_->record(diffusion_labels::run,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
}

template <class ExecSpace>
void Diffusion<ExecSpace>::run_steps_up_to_vn(
    const DiffusionDiagnosticState<memory_space>& diagnostic,
    const DiffusionPrognosticState<memory_space>& prognostic, bool initial_run, double dtime) {
  using M = memory_space;
  namespace L = diffusion_labels;
  const auto& g = grid_;
  const DiffusionRanges& r = ranges_;
  // S0: the initial run uses its own diff_multfac_vn, smag_limit and no smag_offset.
  const auto diff_multfac_vn = initial_run ? diff_multfac_vn_initial_ : diff_multfac_vn_;
  const auto smag_limit = initial_run ? smag_limit_initial_ : smag_limit_;
  const vp smag_offset = initial_run ? vp(0) : static_cast<vp>(params_.smag_offset);

  // S1
  launch_levels(L::scale_k, 0, nlev_,
                stencils::ScaleK<M>{enh_smag_fac_, dtime, diff_multfac_smag_});
  // S2, X1
  launch(L::rbf_before_nabla2, r.rbf_vertices, 0, nlev_,
         stencils::MoIntpRbfRbfVecInterpolVertex<M>{prognostic.vn, interpolation_.rbf_coeff_1,
                                                    interpolation_.rbf_coeff_2, g.v2e, u_vert_,
                                                    v_vert_});
  exchange(Location::Vertex, halo_field(u_vert_), halo_field(v_vert_));
  // S3
  launch(
      L::nabla2_and_smag, r.nabla2_edges, 0, nlev_,
      stencils::CalculateNabla2AndSmagCoefficientsForVn<M>{
          diff_multfac_smag_, edges_.tangent_orientation, edges_.inverse_primal_edge_lengths,
          edges_.inverse_vertex_vertex_lengths, u_vert_, v_vert_, edges_.primal_normal_vert_x,
          edges_.primal_normal_vert_y, edges_.dual_normal_vert_x, edges_.dual_normal_vert_y,
          prognostic.vn, smag_limit, g.e2c2v, smag_offset, kh_smag_e_, kh_smag_ec_, z_nabla2_e_});
  // S4 (reads vn before S6 changes it)
  if (config_.computes_turbulence_diagnostics())
    launch(L::turbulence, r.turbulence_cells, 1, nlev_,
           stencils::CalculateDiagnosticQuantitiesForTurbulence<M>{
               {kh_smag_ec_, prognostic.vn, interpolation_.e_bln_c_s, interpolation_.geofac_div,
                diff_multfac_smag_, g.c2e},
               metric_.wgtfac_c,
               diagnostic.div_ic,
               diagnostic.hdef_ic});
  // X2, S5, X3
  exchange(Location::Edge, halo_field(z_nabla2_e_));
  launch(L::rbf_before_nabla4, r.rbf_vertices, 0, nlev_,
         stencils::MoIntpRbfRbfVecInterpolVertex<M>{z_nabla2_e_, interpolation_.rbf_coeff_1,
                                                    interpolation_.rbf_coeff_2, g.v2e, u_vert_,
                                                    v_vert_});
  exchange(Location::Vertex, halo_field(u_vert_), halo_field(v_vert_));
  // S6
  launch(
      L::vn, r.vn_edges, 0, nlev_,
      stencils::ApplyDiffusionToVn<M>{
          {u_vert_, v_vert_, edges_.primal_normal_vert_x, edges_.primal_normal_vert_y, z_nabla2_e_,
           edges_.inverse_vertex_vertex_lengths, edges_.inverse_primal_edge_lengths, g.e2c2v},
          edges_.edge_areas,
          kh_smag_e_,
          diff_multfac_vn,
          interpolation_.nudgecoeff_e,
          static_cast<vp>(params_.nudgezone_diff),
          params_.fac_bdydiff_v,
          r.start_2nd_nudge_line,
          g.limited_area,
          prognostic.vn});
  // X4a: the vn exchange runs while w is diffused.
  fence_for_exchange();
  const HaloField vn_field = halo_field(prognostic.vn);
  exchange_->start(Location::Edge, &vn_field, 1);
}

template <class ExecSpace>
void Diffusion<ExecSpace>::run_final_exchanges(
    const DiffusionPrognosticState<memory_space>& prognostic, bool initial_run) {
  // X5, X6: only in the initial run or without NWP/AES physics (those exchange later anyway).
  if (!config_.exchanges_at_end(initial_run)) return;
  if (config_.apply_to_temperature)
    exchange(Location::Cell, halo_field(prognostic.theta_v), halo_field(prognostic.exner));
  exchange(Location::Cell, halo_field(prognostic.w));
}

template <class ExecSpace>
void Diffusion<ExecSpace>::run_theta_steps(
    const DiffusionPrognosticState<memory_space>& prognostic) {
  using M = memory_space;
  namespace L = diffusion_labels;
  const auto& g = grid_;
  const DiffusionRanges& r = ranges_;
  // S9, S10, S11
  launch(L::cold_pools, r.cold_pool_edges, nlev_ - 2, nlev_,
         stencils::CalculateEnhancedDiffusionCoefficientsForGridPointColdPools<M>{
             {prognostic.theta_v, metric_.theta_ref_mc, g.c2e2c, params_.thresh_tdiff,
              static_cast<vp>(params_.smallest_vpfloat)},
             g.e2c,
             kh_smag_e_});
  launch(L::copy_theta, r.all_cells, 0, nlev_,
         stencils::CopyField<wp, M>{prognostic.theta_v, theta_v_tmp_});
  launch(L::theta, r.turbulence_cells, 0, nlev_,
         stencils::ApplyDiffusionToThetaAndExner<M>{
             {{kh_smag_e_, edges_.inverse_dual_edge_lengths, theta_v_tmp_, g.e2c},
              interpolation_.geofac_div,
              g.c2e},
             {metric_.zd_vertoffset, metric_.zd_diffcoef, geofac_n2s_c_, geofac_n2s_nbh_,
              metric_.zd_intcoef, theta_v_tmp_, g.c2e2c},
             config_.apply_zdiffusion_t,
             cells_.area,
             static_cast<vp>(params_.rd_o_cvd),
             prognostic.theta_v,
             prognostic.exner});
}

template <class ExecSpace>
void Diffusion<ExecSpace>::run_unfused(const DiffusionDiagnosticState<memory_space>& diagnostic,
                                       const DiffusionPrognosticState<memory_space>& prognostic) {
  using M = memory_space;
  namespace L = diffusion_labels;
  const auto& g = grid_;
  const DiffusionRanges& r = ranges_;
  // S7, S8
  launch(L::copy_w, r.all_cells, 0, nlev_ + 1, stencils::CopyField<wp, M>{prognostic.w, w_tmp_});
  launch(L::w, r.w_cells, 0, nlev_,
         stencils::ApplyDiffusionToWAndComputeHorizontalGradientsForTurbulence<M>{
             {w_tmp_, interpolation_.geofac_n2s, g.c2e2co},
             {w_tmp_, interpolation_.geofac_grg_x, interpolation_.geofac_grg_y, g.c2e2co},
             cells_.area,
             diff_multfac_n2w_,
             static_cast<int>(config_.shear_type),
             params_.diff_multfac_w,
             nrd_ + 1,
             r.w_updated_cells.start,
             r.w_updated_cells.end,
             prognostic.w,
             diagnostic.dwdx,
             diagnostic.dwdy});
  // X4b
  exchange_->wait();
  if (config_.apply_to_temperature) run_theta_steps(prognostic);
}

template <class ExecSpace>
void Diffusion<ExecSpace>::run_fused(const DiffusionDiagnosticState<memory_space>& diagnostic,
                                     const DiffusionPrognosticState<memory_space>& prognostic) {
  using M = memory_space;
  namespace L = diffusion_labels;
  const auto& g = grid_;
  const DiffusionRanges& r = ranges_;
  // S7+S8 without the copy of w: the Laplacian once on [w_start, HALO) (with dwdx, dwdy), then
  // the in-place update of the interior cells, which reads only its own w and stored Laplacians.
  const bool gradients =
      config_.shear_type == TurbulenceShearForcingType::VerticalHorizontalOfHorizontalVerticalWind;
  launch(L::w_nabla2, r.w_cells, 0, nlev_,
         stencils::Nabla2ForWAndHorizontalGradients<M>{
             {prognostic.w, interpolation_.geofac_n2s, g.c2e2co},
             {prognostic.w, interpolation_.geofac_grg_x, interpolation_.geofac_grg_y, g.c2e2co},
             gradients,
             z_nabla2_c_,
             diagnostic.dwdx,
             diagnostic.dwdy});
  launch(L::w_update, r.w_updated_cells, 0, nlev_,
         stencils::ApplyNabla4AndDampingToW<M>{{cells_.area, z_nabla2_c_, interpolation_.geofac_n2s,
                                                g.c2e2co, params_.diff_multfac_w, prognostic.w},
                                               diff_multfac_n2w_,
                                               nrd_ + 1});
  exchange_->wait();
  if (config_.apply_to_temperature) run_theta_steps(prognostic);
}

}  // namespace icondiff
