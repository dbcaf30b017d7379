// icondiff's own fusions for DiffusionStrategy::Fused, composed from the ICON4Py stencil bodies
// (docs/dev/diffusion.md explains the dependency analysis behind each).
#pragma once

#include <icondiff/core/launch.hpp>
#include <icondiff/stencils/apply_diffusion_to_w.hpp>

namespace icondiff::stencils {

/// First pass of w without a copy: the Laplacian z_nabla2_c (stored once) and, for shear type 2
/// above level 0, dwdx and dwdy. Reads w before any cell updates it.
template <class MemorySpace>
struct Nabla2ForWAndHorizontalGradients {
  /// ICON4Py name of the program; the kernel label is made from it.
  static constexpr const char* name = "calculate_nabla2_for_w_and_horizontal_gradients";
  CalculateNabla2ForW<MemorySpace> nabla2;
  CalculateHorizontalGradientsForTurbulence<MemorySpace> gradients;
  bool compute_gradients = false;
  OutField<vp, MemorySpace> z_nabla2_c;
  OutField<vp, MemorySpace> dwdx;
  OutField<vp, MemorySpace> dwdy;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    z_nabla2_c(c, k) = nabla2.compute(c, k);
    if (compute_gradients && k > 0) {
      const Pair<vp> g = gradients.compute(c, k);
      dwdx(c, k) = g.first;
      dwdy(c, k) = g.second;
    }
  }

  /// Levels [k0, k1) of cell c (points-outer schedule): the neighbours and coefficients once
  /// (nabla2.column, gradients.column), then level loops with compute()'s arithmetic (at()).
  KOKKOS_INLINE_FUNCTION void levels(const index_t c, const index_t k0, const index_t k1) const {
    const C2E2COColumn col = nabla2.column(c);
    ICONDIFF_POINT_LOOP_SIMD
    for (index_t k = k0; k < k1; ++k) z_nabla2_c(c, k) = nabla2.at(col, k);
    if (!compute_gradients) return;
    const auto grad = gradients.column(c);
    ICONDIFF_POINT_LOOP_SIMD
    for (index_t k = k0 > 0 ? k0 : 1; k < k1; ++k) {
      const Pair<vp> g = gradients.at(grad, k);
      dwdx(c, k) = g.first;
      dwdy(c, k) = g.second;
    }
  }
};

/// Second pass of w: the nabla4 damping everywhere and the nabla2 damping in the upper damping
/// layer, in place (each cell reads only its own w).
template <class MemorySpace>
struct ApplyNabla4AndDampingToW {
  /// ICON4Py name of the program; the kernel label is made from it.
  static constexpr const char* name = "apply_nabla4_and_damping_to_w";
  ApplyNabla2ToW<MemorySpace> nabla4;
  ConstVector<wp, MemorySpace> diff_multfac_n2w;  ///< (K)
  index_t nrdmax = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    wp w = nabla2_to_w(nabla4.w(c, k), nabla4.area(c), nabla4.diff_multfac_w,
                       nabla4.laplacian_of_nabla2(c, k));
    if (k > 0 && k < nrdmax)
      w = nabla2_to_w_in_upper_damping_layer(w, diff_multfac_n2w(k), nabla4.area(c),
                                             nabla4.z_nabla2_c(c, k));
    nabla4.w(c, k) = w;
  }

  /// Levels [k0, k1) of cell c (points-outer schedule): the neighbours, coefficients and area
  /// once; the nabla4 update on every level, then the damping on the levels of [k0, k1) inside
  /// the damping layer (0 < k < nrdmax), from the stored w — the same operations in the same
  /// order as operator(), w being stored in its own precision in between.
  KOKKOS_INLINE_FUNCTION void levels(const index_t c, const index_t k0, const index_t k1) const {
    const C2E2COColumn col = nabla4.column(c);
    const wp area = nabla4.area(c);
    ICONDIFF_POINT_LOOP_SIMD
    for (index_t k = k0; k < k1; ++k)
      nabla4.w(c, k) = nabla2_to_w(nabla4.w(c, k), area, nabla4.diff_multfac_w,
                                   nabla4.laplacian_of_nabla2_at(col, k));
    const index_t damp_end = k1 < nrdmax ? k1 : nrdmax;
    for (index_t k = k0 > 0 ? k0 : 1; k < damp_end; ++k)
      nabla4.w(c, k) = nabla2_to_w_in_upper_damping_layer(nabla4.w(c, k), diff_multfac_n2w(k), area,
                                                          nabla4.z_nabla2_c(c, k));
  }
};

}  // namespace icondiff::stencils
