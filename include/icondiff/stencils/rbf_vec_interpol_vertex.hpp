// S2/S5 mo_intp_rbf_rbf_vec_interpol_vertex (diffusion_spec.md §3.3): the eastward and northward
// velocity at a vertex reconstructed from the normal components on its edges with RBF weights.
// V2E slots holding missing_index (pentagons, LAM boundary) contribute nothing.
#pragma once

#include <icondiff/core/launch.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

template <class MemorySpace>
struct MoIntpRbfRbfVecInterpolVertex {
  /// ICON4Py name of the program; the kernel label is made from it.
  static constexpr const char* name = "mo_intp_rbf_rbf_vec_interpol_vertex";
  ConstField<wp, MemorySpace> p_e_in;       ///< (E, K) normal component
  ConstField<wp, MemorySpace> ptr_coeff_1;  ///< (V, 6 [V2E])
  ConstField<wp, MemorySpace> ptr_coeff_2;  ///< (V, 6 [V2E])
  ConstIndexTable<MemorySpace> v2e;
  OutField<vp, MemorySpace> p_u_out;  ///< (V, K)
  OutField<vp, MemorySpace> p_v_out;  ///< (V, K)

  /// What a vertex's levels share: its edges (missing ones dropped, order kept) and coefficients.
  struct VertexColumn {
    int n = 0;
    index_t e[6];
    wp c1[6], c2[6];
  };

  KOKKOS_FORCEINLINE_FUNCTION VertexColumn column(const index_t v) const {
    VertexColumn c;
    for (int j = 0; j < 6; ++j) {
      const index_t e = v2e(v, j);
      if (e == missing_index) continue;
      c.e[c.n] = e;
      c.c1[c.n] = ptr_coeff_1(v, j);
      c.c2[c.n] = ptr_coeff_2(v, j);
      ++c.n;
    }
    return c;
  }

  /// Level k of the column: slot order as operator(), so the sums are the same bit for bit.
  KOKKOS_FORCEINLINE_FUNCTION void at(const VertexColumn& c, const index_t v,
                                      const index_t k) const {
    wp u = 0, w = 0;
    for (int j = 0; j < c.n; ++j) {
      const wp p = p_e_in(c.e[j], k);
      u += c.c1[j] * p;
      w += c.c2[j] * p;
    }
    p_u_out(v, k) = static_cast<vp>(u);
    p_v_out(v, k) = static_cast<vp>(w);
  }

  /// One (vertex, level) straight from the tables: the level-chunks and GPU schedules, where the
  /// compaction of column() would cost more than it saves. Same slot order as at().
  KOKKOS_INLINE_FUNCTION void operator()(const index_t v, const index_t k) const {
    wp u = 0, w = 0;
    for (int j = 0; j < 6; ++j) {
      const index_t e = v2e(v, j);
      if (e == missing_index) continue;
      const wp p = p_e_in(e, k);
      u += ptr_coeff_1(v, j) * p;
      w += ptr_coeff_2(v, j) * p;
    }
    p_u_out(v, k) = static_cast<vp>(u);
    p_v_out(v, k) = static_cast<vp>(w);
  }

  /// Levels [k0, k1) of vertex v, its edges and coefficients loaded once (points-outer schedule).
  KOKKOS_INLINE_FUNCTION void levels(const index_t v, const index_t k0, const index_t k1) const {
    const VertexColumn c = column(v);
    ICONDIFF_POINT_LOOP_SIMD
    for (index_t k = k0; k < k1; ++k) at(c, v, k);
  }
};

}  // namespace icondiff::stencils
