// The horizontal advection of w at an edge, vn_ie dw/dn + vt_ie dw/dt, shared by velocity
// advection's compute_diagnostics_from_normal_wind (which stores it) and the corrector's
// compute_advection_in_corrector_vertical_momentum (which sums it over each cell's edges):
// ICON4Py's _compute_horizontal_advection_term_for_vertical_velocity with w interpolated to the
// edge's vertices by _mo_icon_interpolation_scalar_cells2verts_scalar_ri_dsl, in its operation
// order and casts. As ICON does (z_w_v, z_v_grad_w), w at the vertices is a kernel of its own
// (WAtVertices, once per vertex instead of once for each of the 6 edges around it), and so is the
// corrector's edge term (HorizontalAdvectionOfWAtEdges, once per edge instead of once for each of
// its two cells): the stored values are the vp values ICON4Py rounds to, so results stay
// bit-identical.
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

/// w at the vertices, rounded to vp (ICON's z_w_v): a (vertex, level) body.
template <class MemorySpace>
struct WAtVertices {
  static constexpr const char* name = "w_at_vertices";
  OutField<vp, MemorySpace> w_at_vertices;  ///< (V, nlev + 1)
  ConstField<wp, MemorySpace> w;            ///< (C, nlev + 1)
  ConstField<wp, MemorySpace> c_intp;       ///< (V, 6) V2C order
  ConstIndexTable<MemorySpace> v2c;         ///< -1 entries (global pentagons) are left out

  KOKKOS_INLINE_FUNCTION void operator()(const index_t v, const index_t k) const {
    wp sum = 0;
    for (int j = 0; j < 6; ++j) {
      const index_t c = v2c(v, j);
      if (c != missing_index) sum += w(c, k) * c_intp(v, j);
    }
    w_at_vertices(v, k) = static_cast<vp>(sum);
  }
};

/// The edge term from w at the edge's cells and vertices.
template <class MemorySpace>
struct HorizontalAdvectionOfW {
  ConstField<wp, MemorySpace> w;              ///< (C, nlev + 1)
  ConstField<vp, MemorySpace> w_at_vertices;  ///< (V, nlev + 1), WAtVertices
  ConstVector<wp, MemorySpace> inverse_dual_edge_lengths;
  ConstVector<wp, MemorySpace> inverse_primal_edge_lengths;
  ConstVector<wp, MemorySpace> tangent_orientation;
  ConstIndexTable<MemorySpace> e2c;  ///< skip values replaced
  ConstIndexTable<MemorySpace> e2v;

  /// At edge e, level k, from vn and vt at that half level.
  KOKKOS_INLINE_FUNCTION vp at(const index_t e, const index_t k, const vp vn_ie,
                               const vp vt_ie) const {
    const vp dw_vertices = w_at_vertices(e2v(e, 0), k) - w_at_vertices(e2v(e, 1), k);
    return static_cast<vp>(static_cast<wp>(vn_ie) * inverse_dual_edge_lengths(e) *
                               (w(e2c(e, 0), k) - w(e2c(e, 1), k)) +
                           static_cast<wp>(vt_ie) * inverse_primal_edge_lengths(e) *
                               tangent_orientation(e) * static_cast<wp>(dw_vertices));
  }
};

/// The corrector's edge term from the call's vn_ie and vt_ie (ICON's z_v_grad_w): an (edge,
/// level) body.
template <class MemorySpace>
struct HorizontalAdvectionOfWAtEdges {
  static constexpr const char* name = "horizontal_advection_of_w";
  OutField<vp, MemorySpace> horizontal_advection_of_w_at_edges_on_half_levels;
  ConstField<vp, MemorySpace> vn_on_half_levels;               ///< (E, nlev + 1)
  ConstField<vp, MemorySpace> tangential_wind_on_half_levels;  ///< (E, nlev)
  HorizontalAdvectionOfW<MemorySpace> advection;

  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    // The kernel runs over all edges; on a decomposed grid a few edges of the outermost halo
    // (and limited-area halo edges kept with their boundary row) lack a vertex. No cell of the
    // program's domain sums them: they are skipped, not read outside w_at_vertices.
    if (advection.e2v(e, 0) == missing_index || advection.e2v(e, 1) == missing_index) return;
    horizontal_advection_of_w_at_edges_on_half_levels(e, k) =
        advection.at(e, k, vn_on_half_levels(e, k), tangential_wind_on_half_levels(e, k));
  }
};

}  // namespace icondiff::stencils
