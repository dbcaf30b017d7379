// Velocity advection's two cell programs of ICON4Py 0.2.0
// (stencils/compute_advection_in_vertical_momentum_equation.py; ICON's velocity_tendencies
// stencils 8-18), compute_advection_in_predictor_vertical_momentum and
// compute_advection_in_corrector_vertical_momentum, as one (cell, level) point body:
//  * the contravariant vertical wind w_con = w - the contravariant correction on half levels (the
//    predictor interpolates the correction from the edges, 0 above nflatlev + 1, and writes it;
//    the corrector reads it), clipped where the vertical CFL exceeds 0.85 on the levels
//    max(2, end_index_of_damping_layer - 2) <= k < nlev - 3, where the CFL number above 0.65 is
//    also returned (vertical_cfl, 0 elsewhere);
//  * w_con on full levels (the mean of the two half levels; half the last one at nlev - 1);
//  * from level 1 on (the predictor unless skip_compute_predictor_vertical_advection): the
//    advective tendency of w, vertical advection - w_con dw/dz plus the horizontal advection
//    interpolated from the edges (the predictor reads it; the corrector's two kernels before this
//    body store it from vn_ie, vt_ie and w at the vertices, horizontal_advection_of_w.hpp), plus
//    extra diffusion of w on owned cells where the CFL was clipped.
// Every expression keeps ICON4Py's operation order and vp/wp casts (the interpolation of the
// correction and the clipping are vp expressions, as in ICON4Py), so results are bit-identical
// to its gtfn backend in double precision. A point recomputes w_con at k + 1 for the full-level
// mean: bodies hold no state between points.
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

template <class MemorySpace>
struct ComputeAdvectionInVerticalMomentum {
  static constexpr const char* predictor_name = "compute_advection_in_predictor_vertical_momentum";
  static constexpr const char* corrector_name = "compute_advection_in_corrector_vertical_momentum";

  // Per-call fields (ICON4Py's program arguments; each step fills its own).
  OutField<vp, MemorySpace> contravariant_correction_at_cells_on_half_levels;  ///< predictor: out
  OutField<vp, MemorySpace> vertical_wind_advective_tendency;                  ///< (C, nlev + 1)
  OutField<vp, MemorySpace> contravariant_corrected_w_at_cells_on_model_levels;
  OutField<vp, MemorySpace> vertical_cfl;
  ConstField<wp, MemorySpace> w;  ///< (C, nlev + 1)
  /// The predictor's argument; the corrector's own kernels store it from vn_ie and vt_ie
  /// (horizontal_advection_of_w.hpp) before this body runs.
  ConstField<vp, MemorySpace> horizontal_advection_of_w_at_edges_on_half_levels;
  ConstField<vp, MemorySpace> contravariant_correction_at_edges_on_model_levels;  ///< predictor

  // Static fields under their names in statics/static_fields.hpp (ICON4Py's names noted).
  ConstField<vp, MemorySpace> coeff1_dwdz;
  ConstField<vp, MemorySpace> coeff2_dwdz;
  ConstField<wp, MemorySpace> e_bln_c_s;  ///< (C, 3) C2E order
  ConstField<vp, MemorySpace> wgtfac_c;   ///< (C, nlev + 1), predictor
  ConstField<vp, MemorySpace> ddqz_z_half;
  ConstVector<wp, MemorySpace> cell_area;      ///< ICON4Py: area
  ConstField<wp, MemorySpace> geofac_n2s;      ///< (C, 4) C2E2CO order
  ConstVector<int, MemorySpace> c_owner_mask;  ///< ICON4Py: owner_mask
  ConstIndexTable<MemorySpace> c2e;            ///< skip values replaced
  ConstIndexTable<MemorySpace> c2e2co;         ///< skip values replaced

  vp cfl_w_limit = 0;
  wp scalfac_exdiff = 0;
  wp dtime = 0;
  bool skip_compute_predictor_vertical_advection = false;
  bool corrector = false;
  index_t nflatlev = 0;
  /// ICON4Py's nlev of the call (its vertical_end).
  index_t nlev = 0;
  /// The CFL band [cfl_band_start, cfl_band_end): max(2, end_index_of_damping_layer - 2), nlev - 3.
  index_t cfl_band_start = 0;
  index_t cfl_band_end = 0;

  /// _interpolate_to_cell_center of the edge correction, rounded to vp.
  KOKKOS_INLINE_FUNCTION vp correction_at_cell(const index_t c, const index_t k) const {
    wp sum = 0;
    for (int j = 0; j < 3; ++j)
      sum += e_bln_c_s(c, j) *
             static_cast<wp>(contravariant_correction_at_edges_on_model_levels(c2e(c, j), k));
    return static_cast<vp>(sum);
  }

  /// _interpolate_contravariant_correction_to_cells_on_half_levels: 0 above nflatlev + 1.
  KOKKOS_INLINE_FUNCTION vp interpolated_correction(const index_t c, const index_t k) const {
    if (k < nflatlev + 1) return vp(0);
    const vp weight = wgtfac_c(c, k);
    return weight * correction_at_cell(c, k) + (vp(1) - weight) * correction_at_cell(c, k - 1);
  }

  /// w_con on half level k after _compute_maximum_cfl_and_clip_contravariant_vertical_velocity.
  struct CorrectedW {
    vp w_con;
    bool clipping;
    vp cfl;
  };
  KOKKOS_INLINE_FUNCTION CorrectedW corrected_w(const index_t c, const index_t k) const {
    const vp correction = corrector ? contravariant_correction_at_cells_on_half_levels(c, k)
                                    : interpolated_correction(c, k);
    CorrectedW r{static_cast<vp>(w(c, k)) - correction, false, vp(0)};
    if (k < cfl_band_start || k >= cfl_band_end) return r;
    const vp ddqz = ddqz_z_half(c, k);
    const vp magnitude = r.w_con < vp(0) ? -r.w_con : r.w_con;
    if (!(magnitude > cfl_w_limit * ddqz)) return r;
    r.clipping = true;
    r.cfl = static_cast<vp>(static_cast<wp>(r.w_con) * dtime / static_cast<wp>(ddqz));
    wp w_con = static_cast<wp>(r.w_con);
    if (r.cfl < -vp(0.85)) w_con = static_cast<wp>(-vp(0.85) * ddqz) / dtime;
    if (r.cfl > vp(0.85)) w_con = static_cast<wp>(vp(0.85) * ddqz) / dtime;
    r.w_con = static_cast<vp>(w_con);
    return r;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    const CorrectedW here = corrected_w(c, k);
    if (!corrector)
      contravariant_correction_at_cells_on_half_levels(c, k) = interpolated_correction(c, k);
    vertical_cfl(c, k) = here.cfl;
    // _interpolate_contravariant_vertical_velocity_to_full_levels.
    contravariant_corrected_w_at_cells_on_model_levels(c, k) =
        k < nlev - 1 ? vp(0.5) * (here.w_con + corrected_w(c, k + 1).w_con) : vp(0.5) * here.w_con;
    if ((!corrector && skip_compute_predictor_vertical_advection) || k < 1) return;

    // _compute_advective_vertical_wind_tendency from level 1 on.
    const wp w_con = static_cast<wp>(here.w_con);
    const vp c1 = coeff1_dwdz(c, k), c2 = coeff2_dwdz(c, k);
    const vp vertical = static_cast<vp>(-w_con * (w(c, k - 1) * static_cast<wp>(c1) -
                                                  w(c, k + 1) * static_cast<wp>(c2) +
                                                  w(c, k) * static_cast<wp>(c2 - c1)));
    wp horizontal = 0;
    for (int j = 0; j < 3; ++j)
      horizontal +=
          static_cast<wp>(horizontal_advection_of_w_at_edges_on_half_levels(c2e(c, j), k)) *
          e_bln_c_s(c, j);
    vp tendency = static_cast<vp>(static_cast<wp>(vertical) + horizontal);
    // _add_extra_diffusion_for_w_con_approaching_cfl.
    if (here.clipping && c_owner_mask(c) != 0) {
      const wp cfl_w_limit_wp = static_cast<wp>(cfl_w_limit);
      const wp magnitude = w_con < wp(0) ? -w_con : w_con;
      const wp a = wp(0.85) - cfl_w_limit_wp * dtime;
      const wp b = magnitude * dtime / static_cast<wp>(ddqz_z_half(c, k)) - cfl_w_limit_wp * dtime;
      const wp difcoef = scalfac_exdiff * (b < a ? b : a);
      wp laplacian = 0;
      for (int j = 0; j < 4; ++j) laplacian += w(c2e2co(c, j), k) * geofac_n2s(c, j);
      tendency = static_cast<vp>(static_cast<wp>(tendency) + difcoef * cell_area(c) * laplacian);
    }
    vertical_wind_advective_tendency(c, k) = tendency;
  }
};

}  // namespace icondiff::stencils
