// S8 apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence (diffusion_spec.md
// §3.7) and its elementary stencils calculate_nabla2_for_w, apply_nabla2_to_w,
// apply_nabla2_to_w_in_upper_damping_layer and calculate_horizontal_gradients_for_turbulence.
// Neighbour sums run over C2E2CO in the table's own slot order (self first on ICON grids, last on
// the test torus); nothing here assumes which slot holds the cell itself.
#pragma once

#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

/// What a cell's levels share in a C2E2CO sum: the neighbours and one coefficient each, loaded
/// once for the column (the column bodies' levels()) or per (cell, level) by compute().
struct C2E2COColumn {
  index_t n[4];
  wp coef[4];
};

template <class Table, class Coefficients>
KOKKOS_FORCEINLINE_FUNCTION C2E2COColumn c2e2co_column(const Table& c2e2co,
                                                       const Coefficients& coef, const index_t c) {
  C2E2COColumn col;
  for (int i = 0; i < 4; ++i) {
    col.n[i] = c2e2co(c, i);
    col.coef[i] = coef(c, i);
  }
  return col;
}

/// z_nabla2_c = sum_i geofac_n2s[c,i] w[C2E2CO[c,i]]: the scalar Laplacian of w.
template <class MemorySpace>
struct CalculateNabla2ForW {
  ConstField<wp, MemorySpace> w;           ///< (C, K+1)
  ConstField<wp, MemorySpace> geofac_n2s;  ///< (C, 4 [C2E2CO])
  ConstIndexTable<MemorySpace> c2e2co;
  KOKKOS_FORCEINLINE_FUNCTION C2E2COColumn column(const index_t c) const {
    return c2e2co_column(c2e2co, geofac_n2s, c);
  }
  KOKKOS_FORCEINLINE_FUNCTION vp at(const C2E2COColumn& col, const index_t k) const {
    wp s = 0;
    for (int i = 0; i < 4; ++i) s += w(col.n[i], k) * col.coef[i];
    return static_cast<vp>(s);
  }
  KOKKOS_INLINE_FUNCTION vp compute(const index_t c, const index_t k) const {
    return at(column(c), k);
  }
};

/// dw/dx and dw/dy by the Green-Gauss coefficients geofac_grg.
template <class MemorySpace>
struct CalculateHorizontalGradientsForTurbulence {
  ConstField<wp, MemorySpace> w;             ///< (C, K+1)
  ConstField<wp, MemorySpace> geofac_grg_x;  ///< (C, 4 [C2E2CO])
  ConstField<wp, MemorySpace> geofac_grg_y;
  ConstIndexTable<MemorySpace> c2e2co;
  /// The neighbours with their x coefficients, and the y coefficients.
  struct Column {
    C2E2COColumn x;
    wp y[4];
  };
  KOKKOS_FORCEINLINE_FUNCTION Column column(const index_t c) const {
    Column col{c2e2co_column(c2e2co, geofac_grg_x, c), {}};
    for (int i = 0; i < 4; ++i) col.y[i] = geofac_grg_y(c, i);
    return col;
  }
  KOKKOS_FORCEINLINE_FUNCTION Pair<vp> at(const Column& col, const index_t k) const {
    wp x = 0, y = 0;
    for (int i = 0; i < 4; ++i) {
      const wp wi = w(col.x.n[i], k);
      x += col.x.coef[i] * wi;
      y += col.y[i] * wi;
    }
    return {static_cast<vp>(x), static_cast<vp>(y)};
  }
  KOKKOS_INLINE_FUNCTION Pair<vp> compute(const index_t c, const index_t k) const {
    return at(column(c), k);
  }
};

/// apply_nabla2_to_w: w - diff_multfac_w area^2 sum_i geofac_n2s[c,i] z_nabla2_c[C2E2CO[c,i]].
KOKKOS_INLINE_FUNCTION wp nabla2_to_w(const wp w, const wp area, const wp diff_multfac_w,
                                      const wp laplacian_of_nabla2) {
  return w - diff_multfac_w * (area * area) * laplacian_of_nabla2;
}

/// apply_nabla2_to_w_in_upper_damping_layer: w + diff_multfac_n2w area z_nabla2_c.
KOKKOS_INLINE_FUNCTION wp nabla2_to_w_in_upper_damping_layer(const wp w, const wp diff_multfac_n2w,
                                                             const wp area, const vp z_nabla2_c) {
  return w + diff_multfac_n2w * area * static_cast<wp>(z_nabla2_c);
}

// ---- Elementary launchers (per-stencil tests and the two-pass w strategy) -----------------------

template <class MemorySpace>
struct StoreNabla2ForW {
  CalculateNabla2ForW<MemorySpace> nabla2;
  OutField<vp, MemorySpace> z_nabla2_c;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    z_nabla2_c(c, k) = nabla2.compute(c, k);
  }
};

template <class MemorySpace>
struct StoreHorizontalGradientsForTurbulence {
  CalculateHorizontalGradientsForTurbulence<MemorySpace> gradients;
  OutField<vp, MemorySpace> dwdx;
  OutField<vp, MemorySpace> dwdy;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    const Pair<vp> g = gradients.compute(c, k);
    dwdx(c, k) = g.first;
    dwdy(c, k) = g.second;
  }
};

template <class MemorySpace>
struct ApplyNabla2ToW {
  ConstVector<wp, MemorySpace> area;
  ConstField<vp, MemorySpace> z_nabla2_c;  ///< (C, K)
  ConstField<wp, MemorySpace> geofac_n2s;  ///< (C, 4 [C2E2CO])
  ConstIndexTable<MemorySpace> c2e2co;
  wp diff_multfac_w = 0;
  OutField<wp, MemorySpace> w;  ///< (C, K+1): reads only w(c, k) itself, so in place is safe
  KOKKOS_FORCEINLINE_FUNCTION C2E2COColumn column(const index_t c) const {
    return c2e2co_column(c2e2co, geofac_n2s, c);
  }
  KOKKOS_FORCEINLINE_FUNCTION wp laplacian_of_nabla2_at(const C2E2COColumn& col,
                                                        const index_t k) const {
    wp s = 0;
    for (int i = 0; i < 4; ++i) s += static_cast<wp>(z_nabla2_c(col.n[i], k)) * col.coef[i];
    return s;
  }
  KOKKOS_INLINE_FUNCTION wp laplacian_of_nabla2(const index_t c, const index_t k) const {
    return laplacian_of_nabla2_at(column(c), k);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    w(c, k) = nabla2_to_w(w(c, k), area(c), diff_multfac_w, laplacian_of_nabla2(c, k));
  }
};

template <class MemorySpace>
struct ApplyNabla2ToWInUpperDampingLayer {
  ConstVector<wp, MemorySpace> diff_multfac_n2w;  ///< (K)
  ConstVector<wp, MemorySpace> cell_area;
  ConstField<vp, MemorySpace> z_nabla2_c;
  OutField<wp, MemorySpace> w;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    w(c, k) = nabla2_to_w_in_upper_damping_layer(w(c, k), diff_multfac_n2w(k), cell_area(c),
                                                 z_nabla2_c(c, k));
  }
};

/// The fused program (ICON4Py's structure): reads the copy w_old everywhere and recomputes
/// z_nabla2_c at the C2E2CO neighbours of every updated cell.
template <class MemorySpace>
struct ApplyDiffusionToWAndComputeHorizontalGradientsForTurbulence {
  /// ICON4Py name of the program; the kernel label is made from it.
  static constexpr const char* name =
      "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence";
  CalculateNabla2ForW<MemorySpace> nabla2;                           ///< over w_old
  CalculateHorizontalGradientsForTurbulence<MemorySpace> gradients;  ///< over w_old
  ConstVector<wp, MemorySpace> area;
  ConstVector<wp, MemorySpace> diff_multfac_n2w;  ///< (K)
  int type_shear = 0;
  wp diff_multfac_w = 0;
  index_t nrdmax = 0;        ///< nrd + 1: damping on levels 0 < k < nrdmax
  index_t interior_idx = 0;  ///< S(C, INTERIOR)
  index_t halo_idx = 0;      ///< E(C, LOCAL)
  OutField<wp, MemorySpace> w;
  OutField<vp, MemorySpace> dwdx;
  OutField<vp, MemorySpace> dwdy;

  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    if (type_shear == 2 && k > 0) {
      const Pair<vp> g = gradients.compute(c, k);
      dwdx(c, k) = g.first;
      dwdy(c, k) = g.second;
    }
    const wp w_old = nabla2.w(c, k);
    if (c < interior_idx || c >= halo_idx) {
      w(c, k) = w_old;
      return;
    }
    wp s = 0;
    for (int i = 0; i < 4; ++i) {
      const index_t n = nabla2.c2e2co(c, i);
      s += static_cast<wp>(nabla2.compute(n, k)) * nabla2.geofac_n2s(c, i);
    }
    wp w_new = nabla2_to_w(w_old, area(c), diff_multfac_w, s);
    if (k > 0 && k < nrdmax)
      w_new = nabla2_to_w_in_upper_damping_layer(w_new, diff_multfac_n2w(k), area(c),
                                                 nabla2.compute(c, k));
    w(c, k) = w_new;
  }
};

}  // namespace icondiff::stencils
