// The horizontal advection of w at an edge, vn_ie dw/dn + vt_ie dw/dt, shared by velocity
// advection's compute_diagnostics_from_normal_wind (which stores it) and the corrector's
// compute_advection_in_corrector_vertical_momentum (which recomputes it for each cell): ICON4Py's
// _compute_horizontal_advection_term_for_vertical_velocity with w interpolated to the edge's
// vertices by _mo_icon_interpolation_scalar_cells2verts_scalar_ri_dsl, in its operation order and
// casts.
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

template <class MemorySpace>
struct HorizontalAdvectionOfW {
  ConstField<wp, MemorySpace> w;       ///< (C, nlev + 1)
  ConstField<wp, MemorySpace> c_intp;  ///< (V, 6) V2C order
  ConstVector<wp, MemorySpace> inverse_dual_edge_lengths;
  ConstVector<wp, MemorySpace> inverse_primal_edge_lengths;
  ConstVector<wp, MemorySpace> tangent_orientation;
  ConstIndexTable<MemorySpace> e2c;  ///< skip values replaced
  ConstIndexTable<MemorySpace> e2v;
  ConstIndexTable<MemorySpace> v2c;  ///< -1 entries (global pentagons) are left out of the sum

  /// w at vertex v, rounded to vp.
  KOKKOS_INLINE_FUNCTION vp w_at_vertex(const index_t v, const index_t k) const {
    wp sum = 0;
    for (int j = 0; j < 6; ++j) {
      const index_t c = v2c(v, j);
      if (c != missing_index) sum += w(c, k) * c_intp(v, j);
    }
    return static_cast<vp>(sum);
  }

  /// At edge e, level k, from vn and vt at that half level.
  KOKKOS_INLINE_FUNCTION vp at(const index_t e, const index_t k, const vp vn_ie,
                               const vp vt_ie) const {
    const vp dw_vertices = w_at_vertex(e2v(e, 0), k) - w_at_vertex(e2v(e, 1), k);
    return static_cast<vp>(static_cast<wp>(vn_ie) * inverse_dual_edge_lengths(e) *
                               (w(e2c(e, 0), k) - w(e2c(e, 1), k)) +
                           static_cast<wp>(vt_ie) * inverse_primal_edge_lengths(e) *
                               tangent_orientation(e) * static_cast<wp>(dw_vertices));
  }
};

}  // namespace icondiff::stencils
