// S6 apply_diffusion_to_vn (diffusion_spec.md §3.6): nabla4 of vn from the second RBF
// reconstruction and the update of vn, with its elementary stencils calculate_nabla4,
// apply_nabla2_and_nabla4_to_vn (limited area), apply_nabla2_and_nabla4_global_to_vn and
// apply_nabla2_to_vn_in_lateral_boundary. Each edge reads and writes only its own vn.
#pragma once

#include <icondiff/core/launch.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

template <class MemorySpace>
struct CalculateNabla4 {
  ConstField<vp, MemorySpace> u_vert;  ///< (V, K) RBF of z_nabla2_e
  ConstField<vp, MemorySpace> v_vert;
  ConstField<wp, MemorySpace> primal_normal_vert_v1;  ///< (E, 4 [E2C2V]) eastward
  ConstField<wp, MemorySpace> primal_normal_vert_v2;  ///< (E, 4 [E2C2V]) northward
  ConstField<wp, MemorySpace> z_nabla2_e;             ///< (E, K)
  ConstVector<wp, MemorySpace> inv_vert_vert_length;
  ConstVector<wp, MemorySpace> inv_primal_edge_length;
  ConstIndexTable<MemorySpace> e2c2v;

  /// What an edge's levels share: its E2C2V vertices, their coefficients, its lengths.
  struct EdgeColumn {
    index_t v[4];
    wp p1[4], p2[4];
    wp ivv, ip;
  };

  KOKKOS_FORCEINLINE_FUNCTION EdgeColumn column(const index_t e) const {
    EdgeColumn c;
    for (int i = 0; i < 4; ++i) {
      c.v[i] = e2c2v(e, i);
      c.p1[i] = primal_normal_vert_v1(e, i);
      c.p2[i] = primal_normal_vert_v2(e, i);
    }
    c.ivv = inv_vert_vert_length(e);
    c.ip = inv_primal_edge_length(e);
    return c;
  }

  /// nabla4 at level k of the column (ICON4Py's expression order).
  KOKKOS_FORCEINLINE_FUNCTION vp at(const EdgeColumn& c, const index_t e, const index_t k) const {
    const vp nabv_tang = static_cast<vp>(static_cast<wp>(u_vert(c.v[0], k)) * c.p1[0] +
                                         static_cast<wp>(v_vert(c.v[0], k)) * c.p2[0] +
                                         static_cast<wp>(u_vert(c.v[1], k)) * c.p1[1] +
                                         static_cast<wp>(v_vert(c.v[1], k)) * c.p2[1]);
    const vp nabv_norm = static_cast<vp>(static_cast<wp>(u_vert(c.v[2], k)) * c.p1[2] +
                                         static_cast<wp>(v_vert(c.v[2], k)) * c.p2[2] +
                                         static_cast<wp>(u_vert(c.v[3], k)) * c.p1[3] +
                                         static_cast<wp>(v_vert(c.v[3], k)) * c.p2[3]);
    const wp z2 = z_nabla2_e(e, k);
    const wp nabla4 = wp(4.0) * ((static_cast<wp>(nabv_norm) - wp(2.0) * z2) * (c.ivv * c.ivv) +
                                 (static_cast<wp>(nabv_tang) - wp(2.0) * z2) * (c.ip * c.ip));
    return static_cast<vp>(nabla4);
  }

  KOKKOS_INLINE_FUNCTION vp compute(const index_t e, const index_t k) const {
    return at(column(e), e, k);
  }
};

/// Stores calculate_nabla4 (the elementary ICON4Py stencil).
template <class MemorySpace>
struct StoreNabla4 {
  CalculateNabla4<MemorySpace> nabla4;
  OutField<vp, MemorySpace> z_nabla4_e2;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    z_nabla4_e2(e, k) = nabla4.compute(e, k);
  }
};

/// apply_nabla2_and_nabla4_to_vn: limited-area interior update (nudging-zone floor on K).
KOKKOS_INLINE_FUNCTION wp nabla2_and_nabla4_to_vn(const wp vn, const wp area_edge,
                                                  const vp kh_smag_e, const wp z_nabla2_e,
                                                  const vp z_nabla4_e2, const wp diff_multfac_vn,
                                                  const wp nudgecoeff_e, const vp nudgezone_diff) {
  const wp k =
      compat::max(static_cast<wp>(nudgezone_diff) * nudgecoeff_e, static_cast<wp>(kh_smag_e));
  return vn +
         area_edge * (k * z_nabla2_e - area_edge * diff_multfac_vn * static_cast<wp>(z_nabla4_e2));
}

/// apply_nabla2_and_nabla4_global_to_vn: global-grid update.
KOKKOS_INLINE_FUNCTION wp nabla2_and_nabla4_global_to_vn(const wp vn, const wp area_edge,
                                                         const vp kh_smag_e, const wp z_nabla2_e,
                                                         const vp z_nabla4_e2,
                                                         const wp diff_multfac_vn) {
  return vn + area_edge * (static_cast<wp>(kh_smag_e) * z_nabla2_e -
                           diff_multfac_vn * static_cast<wp>(z_nabla4_e2) * area_edge);
}

/// apply_nabla2_to_vn_in_lateral_boundary: boundary rows 5..8 and nudging row 9 of a LAM.
KOKKOS_INLINE_FUNCTION wp nabla2_to_vn_in_lateral_boundary(const wp vn, const wp z_nabla2_e,
                                                           const wp area_edge,
                                                           const wp fac_bdydiff_v) {
  return vn + (area_edge * fac_bdydiff_v * z_nabla2_e);
}

/// Elementary stencil launchers over a stored z_nabla4_e2 (for the per-stencil tests).
template <class MemorySpace>
struct ApplyNabla2AndNabla4ToVn {
  ConstVector<wp, MemorySpace> area_edge;
  ConstField<vp, MemorySpace> kh_smag_e;
  ConstField<wp, MemorySpace> z_nabla2_e;
  ConstField<vp, MemorySpace> z_nabla4_e2;
  ConstVector<wp, MemorySpace> diff_multfac_vn;  ///< (K)
  ConstVector<wp, MemorySpace> nudgecoeff_e;
  vp nudgezone_diff = 0;
  OutField<wp, MemorySpace> vn;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    vn(e, k) = nabla2_and_nabla4_to_vn(vn(e, k), area_edge(e), kh_smag_e(e, k), z_nabla2_e(e, k),
                                       z_nabla4_e2(e, k), diff_multfac_vn(k), nudgecoeff_e(e),
                                       nudgezone_diff);
  }
};

template <class MemorySpace>
struct ApplyNabla2AndNabla4GlobalToVn {
  ConstVector<wp, MemorySpace> area_edge;
  ConstField<vp, MemorySpace> kh_smag_e;
  ConstField<wp, MemorySpace> z_nabla2_e;
  ConstField<vp, MemorySpace> z_nabla4_e2;
  ConstVector<wp, MemorySpace> diff_multfac_vn;
  OutField<wp, MemorySpace> vn;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    vn(e, k) =
        nabla2_and_nabla4_global_to_vn(vn(e, k), area_edge(e), kh_smag_e(e, k), z_nabla2_e(e, k),
                                       z_nabla4_e2(e, k), diff_multfac_vn(k));
  }
};

template <class MemorySpace>
struct ApplyNabla2ToVnInLateralBoundary {
  ConstField<wp, MemorySpace> z_nabla2_e;
  ConstVector<wp, MemorySpace> area_edge;
  wp fac_bdydiff_v = 0;
  OutField<wp, MemorySpace> vn;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    vn(e, k) =
        nabla2_to_vn_in_lateral_boundary(vn(e, k), z_nabla2_e(e, k), area_edge(e), fac_bdydiff_v);
  }
};

/// The fused program: nabla4 on the fly, then the update chosen by the edge's zone.
template <class MemorySpace>
struct ApplyDiffusionToVn {
  /// ICON4Py name of the program; the kernel label is made from it.
  static constexpr const char* name = "apply_diffusion_to_vn";
  CalculateNabla4<MemorySpace> nabla4;
  ConstVector<wp, MemorySpace> area_edge;
  ConstField<vp, MemorySpace> kh_smag_e;
  ConstVector<wp, MemorySpace> diff_multfac_vn;  ///< (K)
  ConstVector<wp, MemorySpace> nudgecoeff_e;
  vp nudgezone_diff = 0;
  wp fac_bdydiff_v = 0;
  index_t start_2nd_nudge_line_idx_e = 0;  ///< S(E, NUDGING_LEVEL_2)
  bool limited_area = false;
  OutField<wp, MemorySpace> vn;

  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    const wp z2 = nabla4.z_nabla2_e(e, k);
    if (e >= start_2nd_nudge_line_idx_e) {
      const vp z4 = nabla4.compute(e, k);
      vn(e, k) = limited_area
                     ? nabla2_and_nabla4_to_vn(vn(e, k), area_edge(e), kh_smag_e(e, k), z2, z4,
                                               diff_multfac_vn(k), nudgecoeff_e(e), nudgezone_diff)
                     : nabla2_and_nabla4_global_to_vn(vn(e, k), area_edge(e), kh_smag_e(e, k), z2,
                                                      z4, diff_multfac_vn(k));
    } else if (limited_area) {
      vn(e, k) = nabla2_to_vn_in_lateral_boundary(vn(e, k), z2, area_edge(e), fac_bdydiff_v);
    }
  }

  /// Levels [k0, k1) of edge e (points-outer schedule): the zone test, the vertices and the
  /// coefficients once per edge, then a branch-free level loop with operator()'s arithmetic.
  KOKKOS_INLINE_FUNCTION void levels(const index_t e, const index_t k0, const index_t k1) const {
    const wp area = area_edge(e);
    if (e >= start_2nd_nudge_line_idx_e) {
      const auto c = nabla4.column(e);
      if (limited_area) {
        const wp nudge = nudgecoeff_e(e);
        ICONDIFF_POINT_LOOP_SIMD
        for (index_t k = k0; k < k1; ++k)
          vn(e, k) = nabla2_and_nabla4_to_vn(vn(e, k), area, kh_smag_e(e, k),
                                             nabla4.z_nabla2_e(e, k), nabla4.at(c, e, k),
                                             diff_multfac_vn(k), nudge, nudgezone_diff);
      } else {
        ICONDIFF_POINT_LOOP_SIMD
        for (index_t k = k0; k < k1; ++k)
          vn(e, k) = nabla2_and_nabla4_global_to_vn(vn(e, k), area, kh_smag_e(e, k),
                                                    nabla4.z_nabla2_e(e, k), nabla4.at(c, e, k),
                                                    diff_multfac_vn(k));
      }
    } else if (limited_area) {
      ICONDIFF_POINT_LOOP_SIMD
      for (index_t k = k0; k < k1; ++k)
        vn(e, k) = nabla2_to_vn_in_lateral_boundary(vn(e, k), nabla4.z_nabla2_e(e, k), area,
                                                    fac_bdydiff_v);
    }
  }
};

}  // namespace icondiff::stencils
