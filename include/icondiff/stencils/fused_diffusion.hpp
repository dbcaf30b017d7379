// icondiff's own fusions for DiffusionStrategy::Fused, composed from the ICON4Py stencil bodies
// (docs/dev/diffusion.md explains the dependency analysis behind each).
#pragma once

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
};

}  // namespace icondiff::stencils
