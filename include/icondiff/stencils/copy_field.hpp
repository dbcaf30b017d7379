// S7/S10 copy_field: the copies ICON4Py takes of w and theta_v so that stencils reading
// neighbours can write the field in place.
#pragma once

#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

template <class T, class MemorySpace>
struct CopyField {
  /// ICON4Py name of the program; the kernel label is made from it.
  static constexpr const char* name = "copy_field";
  ConstField<T, MemorySpace> source;
  OutField<T, MemorySpace> target;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t i, const index_t k) const {
    target(i, k) = source(i, k);
  }
};

/// scale_k: diff_multfac_smag = enh_smag_fac * dtime (diffusion_spec §3.2), one level per index.
template <class MemorySpace>
struct ScaleK {
  /// ICON4Py name of the program; the kernel label is made from it.
  static constexpr const char* name = "scale_k";
  ConstVector<wp, MemorySpace> field;
  wp factor = 0;
  Kokkos::View<vp*, FieldLayout, MemorySpace> scaled;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t k) const {
    scaled(k) = static_cast<vp>(field(k) * factor);
  }
};

}  // namespace icondiff::stencils
