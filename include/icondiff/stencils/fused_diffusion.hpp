// icondiff's own fusions for DiffusionStrategy::Fused, composed from the ICON4Py stencil bodies
// (docs/dev/diffusion.md explains the dependency analysis behind each).
#pragma once

#include <icondiff/stencils/apply_diffusion_to_theta_and_exner.hpp>
#include <icondiff/stencils/apply_diffusion_to_w.hpp>
#include <icondiff/stencils/cold_pools.hpp>

namespace icondiff::stencils {

/// First pass of w without a copy: the Laplacian z_nabla2_c (stored once) and, for shear type 2
/// above level 0, dwdx and dwdy. Reads w before any cell updates it.
template <class MemorySpace>
struct Nabla2ForWAndHorizontalGradients {
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

/// apply_diffusion_to_theta_and_exner with the cold-pool enhancement of kh_smag_e (S9) applied to
/// each edge flux on the fly at the levels it concerns, instead of a separate edge kernel that
/// rewrites kh_smag_e. Every theta it reads is `theta_old` (the value before this step).
template <class MemorySpace>
struct ApplyDiffusionToThetaAndExnerWithColdPools {
  ConstField<vp, MemorySpace> kh_smag_e;
  ConstVector<wp, MemorySpace> inv_dual_edge_length;
  ConstField<wp, MemorySpace> geofac_div;  ///< (C, 3 [C2E])
  ConstIndexTable<MemorySpace> c2e;
  ConstIndexTable<MemorySpace> e2c;
  TemporaryFieldForGridPointColdPoolsEnhancement<MemorySpace> cold_pools;  ///< over theta_old
  index_t cold_pool_level_begin = 0;  ///< nlev - 2; levels >= it get the enhancement
  bool apply_cold_pools = true;
  TrulyHorizontalDiffusionNablaOfThetaOverSteepPoints<MemorySpace> zdiffu;  ///< over theta_old
  bool apply_zdiffusion_t = false;
  ConstVector<wp, MemorySpace> area;
  vp rd_o_cvd = 0;
  OutField<wp, MemorySpace> theta_v;
  OutField<wp, MemorySpace> exner;

  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    const auto& theta_old = zdiffu.theta_v;
    const bool enhance = apply_cold_pools && k >= cold_pool_level_begin;
    wp s = 0;
    for (int j = 0; j < 3; ++j) {
      const index_t e = c2e(c, j);
      const index_t c0 = e2c(e, 0), c1 = e2c(e, 1);
      vp kh = kh_smag_e(e, k);
      if (enhance)
        kh = enhanced_diffusion_coefficient(kh, cold_pools.compute(c0, k),
                                            cold_pools.compute(c1, k));
      s += nabla2_for_z(kh, inv_dual_edge_length(e), theta_old(c1, k), theta_old(c0, k)) *
           geofac_div(c, j);
    }
    vp z_temp = static_cast<vp>(s);
    if (apply_zdiffusion_t && zdiffu.zd_diffcoef(c, k) != wp(0.0))
      z_temp = zdiffu.compute(c, k, z_temp);
    const Pair<wp> r = theta_and_exner(z_temp, area(c), theta_old(c, k), exner(c, k), rd_o_cvd);
    theta_v(c, k) = r.first;
    exner(c, k) = r.second;
  }
};

}  // namespace icondiff::stencils
