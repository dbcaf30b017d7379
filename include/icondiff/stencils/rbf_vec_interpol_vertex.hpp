// S2/S5 mo_intp_rbf_rbf_vec_interpol_vertex (diffusion_spec.md §3.3): the eastward and northward
// velocity at a vertex reconstructed from the normal components on its edges with RBF weights.
// V2E slots holding missing_index (pentagons, LAM boundary) contribute nothing.
#pragma once

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
};

}  // namespace icondiff::stencils
