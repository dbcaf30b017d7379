// S9 calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools (diffusion_spec.md
// §3.8) and its elementary stencils temporary_field_for_grid_point_cold_pools_enhancement (cells)
// and enhance_diffusion_coefficient_for_grid_point_cold_pools (edges).
#pragma once

#include <icondiff/kokkos_compat.hpp>
#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

/// enh_diffu_3d at a cell: extra diffusion where the cell is much colder than its neighbours.
template <class MemorySpace>
struct TemporaryFieldForGridPointColdPoolsEnhancement {
  ConstField<wp, MemorySpace> theta_v;       ///< (C, K), before the theta update
  ConstField<vp, MemorySpace> theta_ref_mc;  ///< (C, K)
  ConstIndexTable<MemorySpace> c2e2c;
  wp thresh_tdiff = -5.0;
  vp smallest_vpfloat = 0;  ///< the "not active" value

  KOKKOS_INLINE_FUNCTION vp compute(const index_t c, const index_t k) const {
    wp theta_sum = 0;
    vp ref_sum = 0;
    for (int j = 0; j < 3; ++j) {
      const index_t n = c2e2c(c, j);
      theta_sum += theta_v(n, k);
      ref_sum += theta_ref_mc(n, k);
    }
    const wp tdiff = theta_v(c, k) - theta_sum / wp(3.0);
    const wp trefdiff = static_cast<wp>(theta_ref_mc(c, k)) - static_cast<wp>(ref_sum) / wp(3.0);
    const bool active = ((tdiff - trefdiff) < thresh_tdiff && trefdiff < wp(0.0)) ||
                        (tdiff - trefdiff < wp(1.5) * thresh_tdiff);
    return active ? static_cast<vp>((thresh_tdiff - tdiff + trefdiff) * wp(5.0e-4))
                  : smallest_vpfloat;
  }
};

template <class MemorySpace>
struct StoreColdPoolsEnhancement {
  TemporaryFieldForGridPointColdPoolsEnhancement<MemorySpace> enhancement;
  OutField<vp, MemorySpace> enh_diffu_3d;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    enh_diffu_3d(c, k) = enhancement.compute(c, k);
  }
};

/// kh_smag_e = max(kh_smag_e, enh of both cells of the edge).
KOKKOS_INLINE_FUNCTION vp enhanced_diffusion_coefficient(const vp kh_smag_e, const vp enh0,
                                                         const vp enh1) {
  return compat::max(kh_smag_e, compat::max(enh0, enh1));
}

template <class MemorySpace>
struct EnhanceDiffusionCoefficientForGridPointColdPools {
  ConstField<vp, MemorySpace> enh_diffu_3d;  ///< (C, K)
  ConstIndexTable<MemorySpace> e2c;
  OutField<vp, MemorySpace> kh_smag_e;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    kh_smag_e(e, k) = enhanced_diffusion_coefficient(kh_smag_e(e, k), enh_diffu_3d(e2c(e, 0), k),
                                                     enh_diffu_3d(e2c(e, 1), k));
  }
};

/// The fused program: the enhancement of both cells computed on the fly. It reads only cell
/// fields and writes one edge value, so the in-place update is race-free.
template <class MemorySpace>
struct CalculateEnhancedDiffusionCoefficientsForGridPointColdPools {
  /// ICON4Py name of the program; the kernel label is made from it.
  static constexpr const char* name =
      "calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools";
  TemporaryFieldForGridPointColdPoolsEnhancement<MemorySpace> enhancement;
  ConstIndexTable<MemorySpace> e2c;
  OutField<vp, MemorySpace> kh_smag_e;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t e, const index_t k) const {
    kh_smag_e(e, k) = enhanced_diffusion_coefficient(
        kh_smag_e(e, k), enhancement.compute(e2c(e, 0), k), enhancement.compute(e2c(e, 1), k));
  }
};

}  // namespace icondiff::stencils
