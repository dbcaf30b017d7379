// The two edge programs of ICON4Py 0.2.0's compute_edge_diagnostics_for_dycore_and_update_vn.py
// (solve_nonhydro's predictor and corrector vn updates, formerly
// fused_solve_nonhydro_stencil_15_to_28_predictor/_corrector), as (edge, level) point bodies; the
// corrector's with a column body (levels(e, k0, k1)) for the points-outer schedule:
//
//  * RhoThetaGradientsAtCells + ComputeRhoThetaPgradAndUpdateVn: upwind rho and theta_v at edges
//    (Miura backward trajectory, Green-Gauss gradients at the upwind cell, computed per cell), the
//    horizontal pressure gradient in its three vertical regimes plus the hydrostatic correction,
//    and vn = vn_now + dt (tendencies) with IAU increments and the limited-area boundary tendency;
//  * ApplyDivergenceDampingAndUpdateVn: vn from the predictor/corrector-weighted tendencies, 2nd
//    and/or 4th order divergence damping (the 3-D dw/dz term included, the nest-boundary
//    weighting on limited-area grids) and IAU increments.
//
// Every expression keeps ICON4Py's operation order and its vp -> wp promotions, so the results
// are bit-identical to ICON4Py's gtfn backend in double precision. Neighbour tables must have
// their -1 skip values replaced (ICON4Py's _replace_skip_values: the largest valid index of the
// row; grid/skip_values.hpp), because ICON4Py evaluates the pressure gradient on every edge of
// the domain, including the outermost boundary and halo edges that have only one cell.
#pragma once

#include <icondiff/core/launch.hpp>
#include <icondiff/core/physical_constants.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

/// Green-Gauss gradient of a cell field at cell c
/// (cell_horizontal_gradients_by_green_gauss_method): neighbour sums over C2E2CO in slot order,
/// rounded to vp as ICON4Py stores them.
template <class MemorySpace>
KOKKOS_INLINE_FUNCTION Pair<vp> green_gauss_gradient(const ConstField<vp, MemorySpace>& field,
                                                     const ConstField<wp, MemorySpace>& geofac_x,
                                                     const ConstField<wp, MemorySpace>& geofac_y,
                                                     const ConstIndexTable<MemorySpace>& c2e2co,
                                                     const index_t c, const index_t k) {
  wp x = 0, y = 0;
  for (int j = 0; j < 4; ++j) {
    const wp f = static_cast<wp>(field(c2e2co(c, j), k));
    x += geofac_x(c, j) * f;
    y += geofac_y(c, j) * f;
  }
  return {static_cast<vp>(x), static_cast<vp>(y)};
}

/// The Green-Gauss gradients of the perturbed rho and theta_v at a cell (ICON's z_grad_rth): a
/// (cell, level) body run before compute_rho_theta_pgrad_and_update_vn's edge body, so each
/// cell's gradients are computed once instead of once for every edge whose upwind cell it is.
/// Stored in vp, exactly the value the edge body used to compute in place.
template <class MemorySpace>
struct RhoThetaGradientsAtCells {
  static constexpr const char* name = "rho_theta_gradients_at_cells";
  OutField<vp, MemorySpace> rho_gradient_x, rho_gradient_y;
  OutField<vp, MemorySpace> theta_v_gradient_x, theta_v_gradient_y;
  ConstField<vp, MemorySpace> perturbed_rho_at_cells_on_model_levels;
  ConstField<vp, MemorySpace> perturbed_theta_v_at_cells_on_model_levels;
  ConstField<wp, MemorySpace> geofac_grg_x;
  ConstField<wp, MemorySpace> geofac_grg_y;
  ConstIndexTable<MemorySpace> c2e2co;  ///< skip values replaced

  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    const Pair<vp> rho = green_gauss_gradient(perturbed_rho_at_cells_on_model_levels, geofac_grg_x,
                                              geofac_grg_y, c2e2co, c, k);
    const Pair<vp> theta = green_gauss_gradient(perturbed_theta_v_at_cells_on_model_levels,
                                                geofac_grg_x, geofac_grg_y, c2e2co, c, k);
    rho_gradient_x(c, k) = rho.first;
    rho_gradient_y(c, k) = rho.second;
    theta_v_gradient_x(c, k) = theta.first;
    theta_v_gradient_y(c, k) = theta.second;
  }
};

/// compute_rho_theta_pgrad_and_update_vn over [horizontal_start, horizontal_end) x levels.
/// Writes rho/theta_v at edges (0 outside [start_edge_lateral_boundary_level_7, end_edge_halo)),
/// the horizontal pressure gradient everywhere in the domain, and next_vn from
/// start_edge_nudging_level_2 on and, on limited-area grids, in
/// [start_edge_lateral_boundary, end_edge_nudging).
template <class MemorySpace>
struct ComputeRhoThetaPgradAndUpdateVn {
  static constexpr const char* name = "compute_rho_theta_pgrad_and_update_vn";

  // Per-call fields.
  OutField<wp, MemorySpace> rho_at_edges_on_model_levels;
  OutField<wp, MemorySpace> theta_v_at_edges_on_model_levels;
  OutField<vp, MemorySpace> horizontal_pressure_gradient;
  OutField<wp, MemorySpace> next_vn;
  ConstField<wp, MemorySpace> current_vn;
  ConstField<vp, MemorySpace> tangential_wind;
  ConstField<vp, MemorySpace> perturbed_rho_at_cells_on_model_levels;
  ConstField<vp, MemorySpace> perturbed_theta_v_at_cells_on_model_levels;
  ConstField<vp, MemorySpace> temporal_extrapolation_of_perturbed_exner;
  ConstField<vp, MemorySpace> ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  ConstField<vp, MemorySpace> d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
  ConstVector<wp, MemorySpace> hydrostatic_correction_on_lowest_level;  ///< (E)
  ConstField<vp, MemorySpace> predictor_normal_wind_advective_tendency;
  ConstField<vp, MemorySpace> normal_wind_tendency_due_to_slow_physics_process;
  ConstField<vp, MemorySpace> normal_wind_iau_increment;
  ConstField<wp, MemorySpace> grf_tend_vn;

  // Static fields under their names in statics/static_fields.hpp (the Dycore fills them by name;
  // ICON4Py's argument name noted where it differs); (E, 2) tables in E2C order, (C, 4) in C2E2CO
  // order.
  ConstField<vp, MemorySpace> reference_rho_at_edges_on_model_levels;
  ConstField<vp, MemorySpace> reference_theta_at_edges_on_model_levels;
  ConstField<wp, MemorySpace> pos_on_tplane_e_1;  ///< ICON4Py: pos_on_tplane_e_x
  ConstField<wp, MemorySpace> pos_on_tplane_e_2;  ///< ICON4Py: pos_on_tplane_e_y
  ConstField<wp, MemorySpace> primal_normal_cell_x;
  ConstField<wp, MemorySpace> dual_normal_cell_x;
  ConstField<wp, MemorySpace> primal_normal_cell_y;
  ConstField<wp, MemorySpace> dual_normal_cell_y;
  ConstField<vp, MemorySpace> ddxn_z_full;
  ConstField<wp, MemorySpace> c_lin_e;
  Kokkos::View<const int***, FieldLayout, MemorySpace>
      vertoffset_gradp;                      ///< (E, 2, K) relative levels; ICON4Py: ikoffset
  ConstField3<vp, MemorySpace> zdiff_gradp;  ///< (E, 2, K)
  ConstField<vp, MemorySpace> pg_exdist;
  ConstVector<wp, MemorySpace> inverse_dual_edge_lengths;  ///< ICON4Py: inv_dual_edge_length
  ConstIndexTable<MemorySpace> e2c;                        ///< skip values replaced
  // RhoThetaGradientsAtCells' results at the cells, on the same levels.
  ConstField<vp, MemorySpace> rho_gradient_x, rho_gradient_y;
  ConstField<vp, MemorySpace> theta_v_gradient_x, theta_v_gradient_y;

  wp dtime = 0;
  bool is_iau_active = false;
  wp iau_wgt_dyn = 0;
  bool limited_area = false;
  index_t nflatlev = 0;
  index_t nflat_gradp = 0;
  index_t start_edge_lateral_boundary = 0;
  index_t start_edge_lateral_boundary_level_7 = 0;
  index_t start_edge_nudging_level_2 = 0;
  index_t end_edge_nudging = 0;
  index_t end_edge_halo = 0;

  /// _compute_horizontal_advection_of_rho_and_theta: upwind values at the end of the backward
  /// trajectory from the edge centre (Miura, first order).
  KOKKOS_INLINE_FUNCTION Pair<wp> upwind_rho_and_theta_v(const index_t e, const index_t k) const {
    const wp p_dthalf = wp(0.5) * dtime;
    const wp vn = current_vn(e, k);
    const int side = vn >= wp(0) ? 0 : 1;  // the upwind cell's E2C slot
    const wp z_ntdistv_bary_1 = -(vn * p_dthalf + pos_on_tplane_e_1(e, side));
    const wp z_ntdistv_bary_2 =
        -(static_cast<wp>(tangential_wind(e, k)) * p_dthalf + pos_on_tplane_e_2(e, side));
    const wp p_distv_bary_1 = z_ntdistv_bary_1 * primal_normal_cell_x(e, side) +
                              z_ntdistv_bary_2 * dual_normal_cell_x(e, side);
    const wp p_distv_bary_2 = z_ntdistv_bary_1 * primal_normal_cell_y(e, side) +
                              z_ntdistv_bary_2 * dual_normal_cell_y(e, side);
    const index_t c = e2c(e, side);
    const wp rho = static_cast<wp>(reference_rho_at_edges_on_model_levels(e, k)) +
                   static_cast<wp>(perturbed_rho_at_cells_on_model_levels(c, k)) +
                   p_distv_bary_1 * static_cast<wp>(rho_gradient_x(c, k)) +
                   p_distv_bary_2 * static_cast<wp>(rho_gradient_y(c, k));
    const wp theta = static_cast<wp>(reference_theta_at_edges_on_model_levels(e, k)) +
                     static_cast<wp>(perturbed_theta_v_at_cells_on_model_levels(c, k)) +
                     p_distv_bary_1 * static_cast<wp>(theta_v_gradient_x(c, k)) +
                     p_distv_bary_2 * static_cast<wp>(theta_v_gradient_y(c, k));
    return {rho, theta};
  }

  /// _compute_horizontal_pressure_gradient (TAYLOR_HYDRO): flat levels k < nflatlev, the
  /// terrain-following correction up to nflat_gradp, the Taylor expansion around the neighbour
  /// cells' levels k + vertoffset_gradp below, then the hydrostatic correction where pg_exdist !=
  /// 0.
  KOKKOS_INLINE_FUNCTION vp pressure_gradient(const index_t e, const index_t k) const {
    const index_t c0 = e2c(e, 0), c1 = e2c(e, 1);
    const auto& exner = temporal_extrapolation_of_perturbed_exner;
    const auto& ddz = ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
    const auto& d2dz2 = d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels;
    vp gradient;
    if (k < nflatlev) {
      gradient = static_cast<vp>(inverse_dual_edge_lengths(e) *
                                 static_cast<wp>(exner(c1, k) - exner(c0, k)));
    } else if (k < nflat_gradp + 1) {
      // ICON4Py's neighbor_sum is a reduction from 0 that gtfn keeps as (0 + a0) + a1: the same
      // value, except that a sum of two -0 products is +0 there.
      const wp sum = (wp(0) + static_cast<wp>(ddz(c0, k)) * c_lin_e(e, 0)) +
                     static_cast<wp>(ddz(c1, k)) * c_lin_e(e, 1);
      gradient = static_cast<vp>(inverse_dual_edge_lengths(e) *
                                     static_cast<wp>(exner(c1, k) - exner(c0, k)) -
                                 static_cast<wp>(ddxn_z_full(e, k)) * sum);
    } else {
      const index_t k0 = k + vertoffset_gradp(e, 0, k), k1 = k + vertoffset_gradp(e, 1, k);
      const vp dz0 = zdiff_gradp(e, 0, k), dz1 = zdiff_gradp(e, 1, k);
      const vp taylor1 = exner(c1, k1) + dz1 * (ddz(c1, k1) + dz1 * d2dz2(c1, k1));
      const vp taylor0 = exner(c0, k0) + dz0 * (ddz(c0, k0) + dz0 * d2dz2(c0, k0));
      gradient = static_cast<vp>(inverse_dual_edge_lengths(e) * static_cast<wp>(taylor1 - taylor0));
    }
    const vp exdist = pg_exdist(e, k);
    if (exdist != vp(0))
      gradient =
          static_cast<vp>(static_cast<wp>(gradient) +
                          hydrostatic_correction_on_lowest_level(e) * static_cast<wp>(exdist));
    return gradient;
  }

  KOKKOS_FORCEINLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    wp rho = 0, theta = 0;
    if (e >= start_edge_lateral_boundary_level_7 && e < end_edge_halo) {
      const Pair<wp> upwind = upwind_rho_and_theta_v(e, k);
      rho = upwind.first;
      theta = upwind.second;
    }
    rho_at_edges_on_model_levels(e, k) = rho;
    theta_v_at_edges_on_model_levels(e, k) = theta;
    const vp gradient = pressure_gradient(e, k);
    horizontal_pressure_gradient(e, k) = gradient;

    if (limited_area && e >= start_edge_lateral_boundary && e < end_edge_nudging) {
      next_vn(e, k) =
          current_vn(e, k) + dtime * grf_tend_vn(e, k);  // _compute_vn_on_lateral_boundary
    } else if (e >= start_edge_nudging_level_2) {
      // _add_temporal_tendencies_to_vn, then _add_analysis_increments_to_vn.
      wp vn = current_vn(e, k) +
              dtime * (static_cast<wp>(predictor_normal_wind_advective_tendency(e, k)) -
                       physics::cpd * theta * static_cast<wp>(gradient) +
                       static_cast<wp>(normal_wind_tendency_due_to_slow_physics_process(e, k)));
      if (is_iau_active) vn = vn + iau_wgt_dyn * static_cast<wp>(normal_wind_iau_increment(e, k));
      next_vn(e, k) = vn;
    }
  }
};

/// apply_divergence_damping_and_update_vn over [horizontal_start, horizontal_end) x levels:
/// writes next_vn everywhere in the domain.
template <class MemorySpace>
struct ApplyDivergenceDampingAndUpdateVn {
  static constexpr const char* name = "apply_divergence_damping_and_update_vn";

  // Per-call fields.
  ConstField<vp, MemorySpace> horizontal_gradient_of_normal_wind_divergence;
  OutField<wp, MemorySpace> next_vn;
  ConstField<wp, MemorySpace> current_vn;
  ConstField<vp, MemorySpace> dwdz_at_cells_on_model_levels;
  ConstField<vp, MemorySpace> predictor_normal_wind_advective_tendency;
  ConstField<vp, MemorySpace> corrector_normal_wind_advective_tendency;
  ConstField<vp, MemorySpace> normal_wind_tendency_due_to_slow_physics_process;
  ConstField<vp, MemorySpace> normal_wind_iau_increment;
  ConstField<wp, MemorySpace> theta_v_at_edges_on_model_levels;
  ConstField<vp, MemorySpace> horizontal_pressure_gradient;
  ConstVector<wp, MemorySpace> interpolated_fourth_order_divdamp_factor;  ///< (K)

  // Static fields (names as statics/static_fields.hpp has them).
  ConstVector<wp, MemorySpace> horizontal_mask_for_3d_divdamp;  ///< (E)
  ConstVector<wp, MemorySpace> scaling_factor_for_3d_divdamp;   ///< (K)
  ConstVector<wp, MemorySpace> inverse_dual_edge_lengths;       ///< ICON4Py: inv_dual_edge_length
  ConstVector<wp, MemorySpace> nudgecoeff_e;
  ConstField<wp, MemorySpace> geofac_grdiv;  ///< (E, 5) E2C2EO order
  ConstIndexTable<MemorySpace> e2c;          ///< skip values replaced
  ConstIndexTable<MemorySpace> e2c2eo;       ///< skip values replaced

  wp second_order_divdamp_scaling_coeff = 0;
  wp advection_explicit_weight_parameter = 0;
  wp advection_implicit_weight_parameter = 0;
  wp dtime = 0;
  bool is_iau_active = false;
  wp iau_wgt_dyn = 0;
  bool limited_area = false;
  bool apply_2nd_order_divergence_damping = false;
  bool apply_4th_order_divergence_damping = false;
  int divdamp_order = 24;
  wp mean_cell_area = 0;
  wp second_order_divdamp_factor = 0;
  wp max_nudging_coefficient = 0;
  wp dbl_eps = 0;

  /// What the total-divergence gradient at one edge reads per edge, loaded once.
  struct DivergenceEdge {
    index_t edge, c0, c1;  ///< the edge and its E2C cells
    wp mask, inv_dual_edge_length;
  };

  KOKKOS_FORCEINLINE_FUNCTION DivergenceEdge divergence_edge(const index_t e) const {
    return {e, e2c(e, 0), e2c(e, 1), horizontal_mask_for_3d_divdamp(e),
            inverse_dual_edge_lengths(e)};
  }

  /// _add_vertical_wind_derivative_to_divergence_damping: the horizontal gradient of the total
  /// (3-D) divergence at an edge, rounded to vp as ICON4Py's temporary.
  KOKKOS_FORCEINLINE_FUNCTION vp gradient_of_total_divergence(const DivergenceEdge& d,
                                                              const index_t k) const {
    const auto& dwdz = dwdz_at_cells_on_model_levels;
    return static_cast<vp>(
        static_cast<wp>(horizontal_gradient_of_normal_wind_divergence(d.edge, k)) +
        d.mask * scaling_factor_for_3d_divdamp(k) * d.inv_dual_edge_length *
            static_cast<wp>(dwdz(d.c1, k) - dwdz(d.c0, k)));
  }

  /// dycore_utils._calculate_fourth_order_divdamp_scaling_coeff at level k.
  /// Every operand is loaded unconditionally and the order's choice is a selection, so that a
  /// level loop around it has no branch.
  KOKKOS_INLINE_FUNCTION wp fourth_order_divdamp_scaling_coeff(const index_t k) const {
    const wp factor = interpolated_fourth_order_divdamp_factor(k);
    const wp reduced = factor - wp(0.25) * second_order_divdamp_factor;
    const wp combined = reduced > wp(0) ? reduced : wp(0);  // maximum(0.0, ...)
    return -(divdamp_order == 24 ? combined : factor) * (mean_cell_area * mean_cell_area);
  }

  /// What an edge reads per edge: itself and, for the 4th order damping, its E2C2EO neighbours
  /// with their Laplacian coefficients, loaded once for a column's levels.
  struct Column {
    DivergenceEdge self_edge;
    DivergenceEdge neighbours[5];
    wp grdiv[5];
    wp nudgecoeff;
    KOKKOS_FORCEINLINE_FUNCTION const DivergenceEdge& self() const { return self_edge; }
    KOKKOS_FORCEINLINE_FUNCTION const DivergenceEdge& neighbour(const int j) const {
      return neighbours[j];
    }
    KOKKOS_FORCEINLINE_FUNCTION wp geofac_grdiv(const int j) const { return grdiv[j]; }
    KOKKOS_FORCEINLINE_FUNCTION wp nudgecoeff_e() const { return nudgecoeff; }
  };

  KOKKOS_FORCEINLINE_FUNCTION Column column(const index_t e) const {
    Column col;
    col.self_edge = divergence_edge(e);
    if (apply_4th_order_divergence_damping)
      for (int j = 0; j < 5; ++j) {
        col.neighbours[j] = divergence_edge(e2c2eo(e, j));
        col.grdiv[j] = geofac_grdiv(e, j);
      }
    col.nudgecoeff = limited_area ? nudgecoeff_e(e) : wp(0);
    return col;
  }

  /// The same for one (edge, level) of a point body, loaded where vn_at reads it (a Column would
  /// be stored and reloaded: +30 % instructions per edge-level).
  struct PointEdge {
    const ApplyDivergenceDampingAndUpdateVn& body;
    index_t e;
    KOKKOS_FORCEINLINE_FUNCTION DivergenceEdge self() const { return body.divergence_edge(e); }
    KOKKOS_FORCEINLINE_FUNCTION DivergenceEdge neighbour(const int j) const {
      return body.divergence_edge(body.e2c2eo(e, j));
    }
    KOKKOS_FORCEINLINE_FUNCTION wp geofac_grdiv(const int j) const {
      return body.geofac_grdiv(e, j);
    }
    KOKKOS_FORCEINLINE_FUNCTION wp nudgecoeff_e() const { return body.nudgecoeff_e(e); }
  };

  /// The call's switches: a point body passes the members (Flags), a column body compile-time
  /// constants (ConstantFlags, chosen by with_flags), so that its level loop is compiled per
  /// combination without branches and vectorises.
  struct Flags {
    bool second_order, fourth_order, limited_area, iau;
  };
  template <bool SecondOrder, bool FourthOrder, bool LimitedArea, bool Iau>
  struct ConstantFlags {
    static constexpr bool second_order = SecondOrder, fourth_order = FourthOrder,
                          limited_area = LimitedArea, iau = Iau;
  };

  /// next_vn at (e, k) from `col` (a Column or a PointEdge of e).
  template <class Edge, class Switches>
  KOKKOS_FORCEINLINE_FUNCTION wp vn_at(const Edge& col, const Switches& flags, const index_t e,
                                       const index_t k) const {
    // _add_temporal_tendencies_to_vn_by_interpolating_between_time_levels.
    wp vn = current_vn(e, k) +
            dtime * (advection_explicit_weight_parameter *
                         static_cast<wp>(predictor_normal_wind_advective_tendency(e, k)) +
                     advection_implicit_weight_parameter *
                         static_cast<wp>(corrector_normal_wind_advective_tendency(e, k)) +
                     static_cast<wp>(normal_wind_tendency_due_to_slow_physics_process(e, k)) -
                     physics::cpd * theta_v_at_edges_on_model_levels(e, k) *
                         static_cast<wp>(horizontal_pressure_gradient(e, k)));
    if (flags.second_order)
      vn = vn + second_order_divdamp_scaling_coeff *
                    static_cast<wp>(gradient_of_total_divergence(col.self(), k));
    if (flags.fourth_order) {
      // _compute_graddiv2_of_vn: the Laplacian of the gradient over E2C2EO, recomputing the
      // neighbours' total-divergence gradients instead of storing them.
      wp sum = 0;
      for_each_slot<5>([&](const int j) {
        sum += static_cast<wp>(gradient_of_total_divergence(col.neighbour(j), k)) *
               col.geofac_grdiv(j);
      });
      const wp graddiv2 = static_cast<wp>(static_cast<vp>(sum));
      const wp scal_divdamp = fourth_order_divdamp_scaling_coeff(k);
      if (flags.limited_area) {
        const wp absolute = scal_divdamp < wp(0) ? -scal_divdamp : scal_divdamp;
        const wp bdy_divdamp = wp(0.75) / (max_nudging_coefficient + dbl_eps) * absolute;
        vn = vn + (scal_divdamp + bdy_divdamp * col.nudgecoeff_e()) * graddiv2;
      } else {
        vn = vn + scal_divdamp * graddiv2;
      }
    }
    if (flags.iau) vn = vn + iau_wgt_dyn * static_cast<wp>(normal_wind_iau_increment(e, k));
    return vn;
  }

  KOKKOS_FORCEINLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    const Flags flags{apply_2nd_order_divergence_damping, apply_4th_order_divergence_damping,
                      limited_area, is_iau_active};
    next_vn(e, k) = vn_at(PointEdge{*this, e}, flags, e, k);
  }

  /// Column body (points-outer schedule): the edge's and its neighbours' tables loaded once, the
  /// level loop compiled per flag combination (no branch inside: it vectorises with level-fastest
  /// fields).
  KOKKOS_INLINE_FUNCTION void levels(const index_t e, const index_t k0, const index_t k1) const {
    const Column col = column(e);
    with_flags(
        [&](auto second, auto fourth, auto limited, auto iau) {
          const ConstantFlags<decltype(second)::value, decltype(fourth)::value,
                              decltype(limited)::value, decltype(iau)::value>
              flags;
          ICONDIFF_POINT_LOOP_SIMD
          for (index_t k = k0; k < k1; ++k) next_vn(e, k) = vn_at(col, flags, e, k);
        },
        apply_2nd_order_divergence_damping, apply_4th_order_divergence_damping, limited_area,
        is_iau_active);
  }
};

}  // namespace icondiff::stencils
