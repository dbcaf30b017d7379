// Velocity advection's compute_advection_in_horizontal_momentum (ICON4Py 0.2.0
// stencils/compute_advection_in_horizontal_momentum_equation.py; ICON's velocity_tendencies
// stencils 19-20, formerly fused_velocity_advection_stencil_19_to_20) as an (edge, level) point
// body: the advective tendency of vn,
//   -(gradient of the kinetic energy (cell values by e_bln_c_s over C2E, coeff_gradekin)
//     + vertical advection (w_con at the edge by c_lin_e, the vn_ie difference / ddqz_z_full_e)
//     + vt (f + the mean of the vorticity at the edge's two vertices, by geofac_rot over V2E)),
// plus, with apply_extra_diffusion_on_vn, on levels max(2, end_index_of_damping_layer - 2) <= k <
// vertical_end - 4 where |w_con_e| > cfl_w_limit ddqz_z_full_e, extra diffusion of vn (gradient
// of divergence over E2C2EO and of vorticity along the edge) scaled by how far the vertical CFL
// exceeds its limit.
// Every expression keeps ICON4Py's operation order and vp/wp casts (the kinetic-energy gradient is
// a vp expression, as in ICON4Py), so results are bit-identical to its gtfn backend in double
// precision. As ICON does, the vorticity at the vertices and the kinetic energy at the cells are
// kernels of their own before the edge body (VorticityAtVertices, KineticEnergyAtCells: the vp
// values ICON4Py rounds to, stored, so results stay bit-identical). Tables as ICON4Py reads them
// (dycore_stencils.hpp: DycoreTables): V2E with the pentagons' -1 skipped on a global single-rank
// grid.
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

/// _mo_math_divrot_rot_vertex_ri_dsl: the vorticity at the vertices, rounded to vp (ICON's zeta):
/// a (vertex, level) body, once per vertex instead of once for each of the 6 edges around it.
template <class MemorySpace>
struct VorticityAtVertices {
  static constexpr const char* name = "vorticity_at_vertices";
  OutField<vp, MemorySpace> vorticity_at_vertices;
  ConstField<wp, MemorySpace> vn;
  ConstField<wp, MemorySpace> geofac_rot;  ///< (V, 6) V2E order
  ConstIndexTable<MemorySpace> v2e;        ///< -1 entries (global pentagons) are left out

  KOKKOS_INLINE_FUNCTION void operator()(const index_t v, const index_t k) const {
    wp rot = 0;
    for (int j = 0; j < 6; ++j) {
      const index_t e = v2e(v, j);
      if (e != missing_index) rot += vn(e, k) * geofac_rot(v, j);
    }
    vorticity_at_vertices(v, k) = static_cast<vp>(rot);
  }
};

/// _interpolate_to_cell_center of the kinetic energy, rounded to vp (ICON's z_ekinh): a (cell,
/// level) body, once per cell instead of once for each of its 3 edges.
template <class MemorySpace>
struct KineticEnergyAtCells {
  static constexpr const char* name = "kinetic_energy_at_cells";
  OutField<vp, MemorySpace> kinetic_energy_at_cells;
  ConstField<vp, MemorySpace> horizontal_kinetic_energy_at_edges_on_model_levels;
  ConstField<wp, MemorySpace> e_bln_c_s;  ///< (C, 3) C2E order
  ConstIndexTable<MemorySpace> c2e;       ///< skip values replaced

  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    wp sum = 0;
    for (int j = 0; j < 3; ++j)
      sum += e_bln_c_s(c, j) *
             static_cast<wp>(horizontal_kinetic_energy_at_edges_on_model_levels(c2e(c, j), k));
    kinetic_energy_at_cells(c, k) = static_cast<vp>(sum);
  }
};

template <class MemorySpace>
struct ComputeAdvectionInHorizontalMomentum {
  static constexpr const char* name = "compute_advection_in_horizontal_momentum";

  // Per-call fields (ICON4Py's program arguments).
  OutField<vp, MemorySpace> normal_wind_advective_tendency;
  ConstField<wp, MemorySpace> vn;
  ConstField<vp, MemorySpace> horizontal_kinetic_energy_at_edges_on_model_levels;
  ConstField<vp, MemorySpace> tangential_wind;
  ConstField<vp, MemorySpace> contravariant_corrected_w_at_cells_on_model_levels;
  ConstField<vp, MemorySpace> vn_on_half_levels;  ///< (E, nlev + 1)

  // What the program's first two kernels store (ICON's zeta and z_ekinh).
  ConstField<vp, MemorySpace> vorticity_at_vertices;    ///< VorticityAtVertices
  ConstField<vp, MemorySpace> kinetic_energy_at_cells;  ///< KineticEnergyAtCells

  // Static fields under their names in statics/static_fields.hpp (ICON4Py's argument name noted
  // where it differs).
  ConstField<vp, MemorySpace> coeff_gradekin;  ///< (E, 2) E2C order
  ConstField<wp, MemorySpace> c_lin_e;         ///< (E, 2) E2C order
  ConstField<vp, MemorySpace> ddqz_z_full_e;
  ConstVector<wp, MemorySpace> edge_areas;  ///< ICON4Py: area_edge
  ConstVector<wp, MemorySpace> tangent_orientation;
  ConstVector<wp, MemorySpace> inverse_primal_edge_lengths;  ///< ICON4Py: inv_primal_edge_length
  ConstField<wp, MemorySpace> geofac_grdiv;                  ///< (E, 5) E2C2EO order
  ConstVector<wp, MemorySpace> coriolis_frequency;
  ConstIndexTable<MemorySpace> e2c;     ///< skip values replaced
  ConstIndexTable<MemorySpace> e2v;     ///< no missing entries
  ConstIndexTable<MemorySpace> e2c2eo;  ///< skip values replaced

  vp cfl_w_limit = 0;
  wp scalfac_exdiff = 0;
  wp dtime = 0;
  bool apply_extra_diffusion_on_vn = true;
  /// The extra diffusion's level band [extra_diffusion_start, extra_diffusion_end).
  index_t extra_diffusion_start = 0;
  index_t extra_diffusion_end = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    const index_t c0 = e2c(e, 0), c1 = e2c(e, 1);
    const vp zeta0 = vorticity_at_vertices(e2v(e, 0), k);
    const vp zeta1 = vorticity_at_vertices(e2v(e, 1), k);
    // _compute_advective_normal_wind_tendency.
    const vp ekin_e = horizontal_kinetic_energy_at_edges_on_model_levels(e, k);
    const vp cg0 = coeff_gradekin(e, 0), cg1 = coeff_gradekin(e, 1);
    const vp horizontal_advection = ekin_e * (cg0 - cg1) + cg1 * kinetic_energy_at_cells(c1, k) -
                                    cg0 * kinetic_energy_at_cells(c0, k);
    wp w_con_e = 0;  // neighbor_sum over E2C (also the extra diffusion's w_con_e)
    for (int j = 0; j < 2; ++j)
      w_con_e += c_lin_e(e, j) *
                 static_cast<wp>(contravariant_corrected_w_at_cells_on_model_levels(e2c(e, j), k));
    const wp ddqz = static_cast<wp>(ddqz_z_full_e(e, k));
    const wp vertical_advection =
        w_con_e * static_cast<wp>(vn_on_half_levels(e, k) - vn_on_half_levels(e, k + 1)) / ddqz;
    const vp zeta_sum = vp(0) + zeta0 + zeta1;  // neighbor_sum over E2V in vp
    const wp coriolis_term = static_cast<wp>(tangential_wind(e, k)) *
                             (coriolis_frequency(e) + static_cast<wp>(vp(0.5) * zeta_sum));
    const vp tendency =
        static_cast<vp>(-(horizontal_advection + vertical_advection + coriolis_term));
    if (!apply_extra_diffusion_on_vn || k < extra_diffusion_start || k >= extra_diffusion_end) {
      normal_wind_advective_tendency(e, k) = tendency;
      return;
    }
    // _add_extra_diffusion_for_normal_wind_tendency_approaching_cfl_without_levelmask.
    const wp cfl_w_limit_wp = static_cast<wp>(cfl_w_limit);
    const wp abs_w_con_e = w_con_e < 0 ? -w_con_e : w_con_e;
    if (!(abs_w_con_e > static_cast<wp>(cfl_w_limit * ddqz_z_full_e(e, k)))) {
      normal_wind_advective_tendency(e, k) = tendency;
      return;
    }
    const wp a = wp(0.85) - cfl_w_limit_wp * dtime;
    const wp b = abs_w_con_e * dtime / ddqz - cfl_w_limit_wp * dtime;
    const wp difcoef = scalfac_exdiff * (b < a ? b : a);
    // _compute_extra_diffusion.
    wp gradient_of_divergence = 0;
    for (int j = 0; j < 5; ++j) gradient_of_divergence += geofac_grdiv(e, j) * vn(e2c2eo(e, j), k);
    const wp gradient_of_vorticity =
        tangent_orientation(e) * inverse_primal_edge_lengths(e) * static_cast<wp>(zeta1 - zeta0);
    const wp extra = difcoef * edge_areas(e) * (gradient_of_divergence + gradient_of_vorticity);
    normal_wind_advective_tendency(e, k) = static_cast<vp>(static_cast<wp>(tendency) + extra);
  }
};

}  // namespace icondiff::stencils
