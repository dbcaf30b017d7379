// S3 calculate_nabla2_and_smag_coefficients_for_vn (diffusion_spec.md §3.4): from the vertex
// winds of the edge's diamond (E2C2V), the Smagorinsky coefficient (raw and limited) and the
// nabla2 of vn. Expression order follows ICON4Py's field operator.
#pragma once

#include <icondiff/core/launch.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

template <class MemorySpace>
struct CalculateNabla2AndSmagCoefficientsForVn {
  /// ICON4Py name of the program; the kernel label is made from it.
  static constexpr const char* name = "calculate_nabla2_and_smag_coefficients_for_vn";
  ConstVector<vp, MemorySpace> diff_multfac_smag;  ///< (K)
  ConstVector<wp, MemorySpace> tangent_orientation;
  ConstVector<wp, MemorySpace> inv_primal_edge_length;
  ConstVector<wp, MemorySpace> inv_vert_vert_length;
  ConstField<vp, MemorySpace> u_vert;  ///< (V, K)
  ConstField<vp, MemorySpace> v_vert;
  ConstField<wp, MemorySpace> primal_normal_vert_x;  ///< (E, 4 [E2C2V])
  ConstField<wp, MemorySpace> primal_normal_vert_y;
  ConstField<wp, MemorySpace> dual_normal_vert_x;
  ConstField<wp, MemorySpace> dual_normal_vert_y;
  ConstField<wp, MemorySpace> vn;           ///< (E, K)
  ConstVector<vp, MemorySpace> smag_limit;  ///< (K)
  ConstIndexTable<MemorySpace> e2c2v;
  vp smag_offset = 0;
  OutField<vp, MemorySpace> kh_smag_e;   ///< limited coefficient
  OutField<vp, MemorySpace> kh_smag_ec;  ///< raw coefficient (for the turbulence diagnostics)
  OutField<wp, MemorySpace> z_nabla2_e;

  /// What an edge's levels share: its E2C2V vertices and their coefficients, its lengths.
  struct EdgeColumn {
    index_t v[4];
    wp pn_x[4], pn_y[4], dn_x[4], dn_y[4];
    wp ip, ivv, l_p;
  };

  KOKKOS_FORCEINLINE_FUNCTION EdgeColumn column(const index_t e) const {
    EdgeColumn c;
    for (int i = 0; i < 4; ++i) {
      c.v[i] = e2c2v(e, i);
      c.pn_x[i] = primal_normal_vert_x(e, i);
      c.pn_y[i] = primal_normal_vert_y(e, i);
      c.dn_x[i] = dual_normal_vert_x(e, i);
      c.dn_y[i] = dual_normal_vert_y(e, i);
    }
    c.ip = inv_primal_edge_length(e);
    c.ivv = inv_vert_vert_length(e);
    c.l_p = tangent_orientation(e) * c.ip;
    return c;
  }

  KOKKOS_FORCEINLINE_FUNCTION void at(const EdgeColumn& c, const index_t e, const index_t k) const {
    wp vn_v[4], vt_v[4];
    for (int i = 0; i < 4; ++i) {
      const wp u = static_cast<wp>(u_vert(c.v[i], k)), w = static_cast<wp>(v_vert(c.v[i], k));
      vn_v[i] = u * c.pn_x[i] + w * c.pn_y[i];
      vt_v[i] = u * c.dn_x[i] + w * c.dn_y[i];
    }
    const wp vn_e = vn(e, k);
    const wp nabla2 = (vn_v[0] + vn_v[1] - wp(2.0) * vn_e) * (c.ip * c.ip) +
                      (vn_v[2] + vn_v[3] - wp(2.0) * vn_e) * (c.ivv * c.ivv);
    z_nabla2_e(e, k) = wp(4.0) * nabla2;

    const wp l_vv = c.ivv;
    const wp part1 = (vn_v[3] - vn_v[2]) * l_vv - (vt_v[1] - vt_v[0]) * c.l_p;
    const wp part2 = (vn_v[1] - vn_v[0]) * c.l_p + (vt_v[3] - vt_v[2]) * l_vv;
    const wp kh =
        static_cast<wp>(diff_multfac_smag(k)) * compat::sqrt(part1 * part1 + part2 * part2);
    const vp limited = compat::max(vp(0.0), static_cast<vp>(kh - static_cast<wp>(smag_offset)));
    kh_smag_e(e, k) = compat::min(limited, smag_limit(k));
    kh_smag_ec(e, k) = static_cast<vp>(kh);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    at(column(e), e, k);
  }

  /// Levels [k0, k1) of edge e: the vertices and coefficients loaded once, the level loop free of
  /// them (the points-outer schedule calls this; launch.hpp ColumnLoop).
  KOKKOS_INLINE_FUNCTION void levels(const index_t e, const index_t k0, const index_t k1) const {
    const EdgeColumn c = column(e);
    ICONDIFF_POINT_LOOP_SIMD
    for (index_t k = k0; k < k1; ++k) at(c, e, k);
  }
};

}  // namespace icondiff::stencils
