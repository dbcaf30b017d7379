// S11 apply_diffusion_to_theta_and_exner (diffusion_spec.md §3.9) and its elementary stencils
// calculate_nabla2_for_z (edges), calculate_nabla2_of_theta (cells), calculate_nabla2_for_theta
// (the two fused), truly_horizontal_diffusion_nabla_of_theta_over_steep_points and
// update_theta_and_exner.
#pragma once

#include <icondiff/core/launch.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

/// The diffusive theta flux across an edge with diffusion coefficient `kh`.
KOKKOS_INLINE_FUNCTION wp nabla2_for_z(const vp kh, const wp inv_dual_edge_length,
                                       const wp theta_cell1, const wp theta_cell0) {
  return static_cast<wp>(kh) * inv_dual_edge_length * (theta_cell1 - theta_cell0);
}

/// calculate_nabla2_for_z: the diffusive theta flux across an edge.
template <class MemorySpace>
struct CalculateNabla2ForZ {
  ConstField<vp, MemorySpace> kh_smag_e;  ///< (E, K)
  ConstVector<wp, MemorySpace> inv_dual_edge_length;
  ConstField<wp, MemorySpace> theta_v;  ///< (C, K)
  ConstIndexTable<MemorySpace> e2c;
  KOKKOS_INLINE_FUNCTION wp compute(const index_t e, const index_t k) const {
    return nabla2_for_z(kh_smag_e(e, k), inv_dual_edge_length(e), theta_v(e2c(e, 1), k),
                        theta_v(e2c(e, 0), k));
  }
};

template <class MemorySpace>
struct StoreNabla2ForZ {
  CalculateNabla2ForZ<MemorySpace> flux;
  OutField<wp, MemorySpace> z_nabla2_e;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    z_nabla2_e(e, k) = flux.compute(e, k);
  }
};

/// calculate_nabla2_of_theta from stored edge fluxes.
template <class MemorySpace>
struct CalculateNabla2OfTheta {
  ConstField<wp, MemorySpace> z_nabla2_e;  ///< (E, K)
  ConstField<wp, MemorySpace> geofac_div;  ///< (C, 3 [C2E])
  ConstIndexTable<MemorySpace> c2e;
  OutField<vp, MemorySpace> z_temp;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    wp s = 0;
    for (int j = 0; j < 3; ++j) s += z_nabla2_e(c2e(c, j), k) * geofac_div(c, j);
    z_temp(c, k) = static_cast<vp>(s);
  }
};

/// calculate_nabla2_for_theta: the divergence of the on-the-fly edge fluxes.
template <class MemorySpace>
struct CalculateNabla2ForTheta {
  CalculateNabla2ForZ<MemorySpace> flux;
  ConstField<wp, MemorySpace> geofac_div;  ///< (C, 3 [C2E])
  ConstIndexTable<MemorySpace> c2e;

  /// What a cell's levels share: its C2E edges, their two cells, lengths and coefficients.
  struct CellColumn {
    index_t e[3], cell0[3], cell1[3];
    wp inv_dual_edge_length[3], div[3];
  };

  KOKKOS_FORCEINLINE_FUNCTION CellColumn column(const index_t c) const {
    CellColumn col;
    for (int j = 0; j < 3; ++j) {
      const index_t e = c2e(c, j);
      col.e[j] = e;
      col.cell0[j] = flux.e2c(e, 0);
      col.cell1[j] = flux.e2c(e, 1);
      col.inv_dual_edge_length[j] = flux.inv_dual_edge_length(e);
      col.div[j] = geofac_div(c, j);
    }
    return col;
  }

  /// The divergence at level k of the column (flux.compute's arithmetic at each edge).
  KOKKOS_FORCEINLINE_FUNCTION vp at(const CellColumn& col, const index_t k) const {
    wp s = 0;
    for (int j = 0; j < 3; ++j)
      s += nabla2_for_z(flux.kh_smag_e(col.e[j], k), col.inv_dual_edge_length[j],
                        flux.theta_v(col.cell1[j], k), flux.theta_v(col.cell0[j], k)) *
           col.div[j];
    return static_cast<vp>(s);
  }

  KOKKOS_INLINE_FUNCTION vp compute(const index_t c, const index_t k) const {
    return at(column(c), k);
  }
};

template <class MemorySpace>
struct StoreNabla2ForTheta {
  CalculateNabla2ForTheta<MemorySpace> nabla2;
  OutField<vp, MemorySpace> z_temp;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    z_temp(c, k) = nabla2.compute(c, k);
  }
};

/// truly_horizontal_diffusion_nabla_of_theta_over_steep_points: adds the Laplacian of theta
/// interpolated to the cell's height at its neighbours (relative level offsets zd_vertoffset).
template <class MemorySpace>
struct TrulyHorizontalDiffusionNablaOfThetaOverSteepPoints {
  ConstField3<int, MemorySpace> zd_vertoffset;  ///< (C, 3 [C2E2C], K)
  ConstField<wp, MemorySpace> zd_diffcoef;      ///< (C, K)
  ConstVector<wp, MemorySpace> geofac_n2s_c;    ///< (C) geofac_n2s[:, 0]
  ConstField<wp, MemorySpace> geofac_n2s_nbh;   ///< (C, 3 [C2E2C]) geofac_n2s[:, 1:4]
  ConstField3<wp, MemorySpace> vcoef;           ///< (C, 3 [C2E2C], K) zd_intcoef
  ConstField<wp, MemorySpace> theta_v;          ///< (C, K)
  ConstIndexTable<MemorySpace> c2e2c;

  KOKKOS_INLINE_FUNCTION vp compute(const index_t c, const index_t k, const vp z_temp) const {
    wp sum = theta_v(c, k) * geofac_n2s_c(c);
    for (int j = 0; j < 3; ++j) {
      const index_t n = c2e2c(c, j);
      const index_t kn = k + zd_vertoffset(c, j, k);
      const wp a = vcoef(c, j, k);
      sum += geofac_n2s_nbh(c, j) * (a * theta_v(n, kn) + (wp(1.0) - a) * theta_v(n, kn + 1));
    }
    return static_cast<vp>(static_cast<wp>(z_temp) + zd_diffcoef(c, k) * sum);
  }
};

template <class MemorySpace>
struct StoreTrulyHorizontalDiffusion {
  TrulyHorizontalDiffusionNablaOfThetaOverSteepPoints<MemorySpace> zdiffu;
  OutField<vp, MemorySpace> z_temp;  ///< in/out
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    z_temp(c, k) = zdiffu.compute(c, k, z_temp(c, k));
  }
};

/// update_theta_and_exner: theta += area z_temp; exner scaled consistently.
KOKKOS_INLINE_FUNCTION Pair<wp> theta_and_exner(const vp z_temp, const wp area, const wp theta_v,
                                                const wp exner, const vp rd_o_cvd) {
  const wp theta_new = theta_v + (area * static_cast<wp>(z_temp));
  const wp exner_new =
      exner * (wp(1.0) + static_cast<wp>(rd_o_cvd) * (theta_new / theta_v - wp(1.0)));
  return {theta_new, exner_new};
}

template <class MemorySpace>
struct UpdateThetaAndExner {
  ConstField<vp, MemorySpace> z_temp;
  ConstVector<wp, MemorySpace> area;
  vp rd_o_cvd = 0;
  OutField<wp, MemorySpace> theta_v;
  OutField<wp, MemorySpace> exner;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    const Pair<wp> r = theta_and_exner(z_temp(c, k), area(c), theta_v(c, k), exner(c, k), rd_o_cvd);
    theta_v(c, k) = r.first;
    exner(c, k) = r.second;
  }
};

/// The fused program (ICON4Py's structure): reads the copy theta_v_tmp (theta*) everywhere and
/// writes theta_v and exner.
template <class MemorySpace>
struct ApplyDiffusionToThetaAndExner {
  /// ICON4Py name of the program; the kernel label is made from it.
  static constexpr const char* name = "apply_diffusion_to_theta_and_exner";
  CalculateNabla2ForTheta<MemorySpace> nabla2;                              ///< over theta*
  TrulyHorizontalDiffusionNablaOfThetaOverSteepPoints<MemorySpace> zdiffu;  ///< over theta*
  bool apply_zdiffusion_t = false;
  ConstVector<wp, MemorySpace> area;
  vp rd_o_cvd = 0;
  OutField<wp, MemorySpace> theta_v;
  OutField<wp, MemorySpace> exner;

  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    vp z_temp = nabla2.compute(c, k);
    if (apply_zdiffusion_t && zdiffu.zd_diffcoef(c, k) != wp(0.0))
      z_temp = zdiffu.compute(c, k, z_temp);
    const Pair<wp> r =
        theta_and_exner(z_temp, area(c), zdiffu.theta_v(c, k), exner(c, k), rd_o_cvd);
    theta_v(c, k) = r.first;
    exner(c, k) = r.second;
  }

  /// Levels [k0, k1) of cell c (points-outer schedule): the edges, their cells and coefficients
  /// once, then operator()'s arithmetic per level (without the steep-point test when the
  /// truly horizontal diffusion is off).
  KOKKOS_INLINE_FUNCTION void levels(const index_t c, const index_t k0, const index_t k1) const {
    const auto col = nabla2.column(c);
    const wp a = area(c);
    if (!apply_zdiffusion_t) {
      ICONDIFF_POINT_LOOP_SIMD
      for (index_t k = k0; k < k1; ++k) {
        const Pair<wp> r =
            theta_and_exner(nabla2.at(col, k), a, zdiffu.theta_v(c, k), exner(c, k), rd_o_cvd);
        theta_v(c, k) = r.first;
        exner(c, k) = r.second;
      }
      return;
    }
    for (index_t k = k0; k < k1; ++k) {
      vp z_temp = nabla2.at(col, k);
      if (zdiffu.zd_diffcoef(c, k) != wp(0.0)) z_temp = zdiffu.compute(c, k, z_temp);
      const Pair<wp> r = theta_and_exner(z_temp, a, zdiffu.theta_v(c, k), exner(c, k), rd_o_cvd);
      theta_v(c, k) = r.first;
      exner(c, k) = r.second;
    }
  }
};

}  // namespace icondiff::stencils
