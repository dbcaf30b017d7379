// S4 calculate_diagnostic_quantities_for_turbulence (diffusion_spec.md §3.5) and its elementary
// stencils temporary_fields_for_turbulence_diagnostics (full levels) and
// calculate_diagnostics_for_turbulence (half levels).
#pragma once

#include <icondiff/stencils/stencil_types.hpp>

namespace icondiff::stencils {

/// kh_c (the deformation |D| at the cell) and the divergence at full level k.
template <class MemorySpace>
struct TemporaryFieldsForTurbulenceDiagnostics {
  ConstField<vp, MemorySpace> kh_smag_ec;          ///< (E, K)
  ConstField<wp, MemorySpace> vn;                  ///< (E, K)
  ConstField<wp, MemorySpace> e_bln_c_s;           ///< (C, 3 [C2E])
  ConstField<wp, MemorySpace> geofac_div;          ///< (C, 3 [C2E])
  ConstVector<vp, MemorySpace> diff_multfac_smag;  ///< (K)
  ConstIndexTable<MemorySpace> c2e;

  /// What a cell's levels share: its C2E edges and their coefficients.
  struct CellColumn {
    index_t e[3];
    wp bln[3], div[3];
  };

  KOKKOS_FORCEINLINE_FUNCTION CellColumn column(const index_t c) const {
    CellColumn col;
    for (int j = 0; j < 3; ++j) {
      col.e[j] = c2e(c, j);
      col.bln[j] = e_bln_c_s(c, j);
      col.div[j] = geofac_div(c, j);
    }
    return col;
  }

  /// {kh_c, div} at level k of the column.
  KOKKOS_FORCEINLINE_FUNCTION Pair<vp> at(const CellColumn& col, const index_t k) const {
    wp kh_sum = 0, div = 0;
    for (int j = 0; j < 3; ++j) {
      kh_sum += static_cast<wp>(kh_smag_ec(col.e[j], k)) * col.bln[j];
      div += vn(col.e[j], k) * col.div[j];
    }
    return {static_cast<vp>(kh_sum / static_cast<wp>(diff_multfac_smag(k))), static_cast<vp>(div)};
  }

  /// {kh_c, div}
  KOKKOS_INLINE_FUNCTION Pair<vp> compute(const index_t c, const index_t k) const {
    return at(column(c), k);
  }
};

/// Stores TemporaryFieldsForTurbulenceDiagnostics (the elementary ICON4Py stencil).
template <class MemorySpace>
struct StoreTemporaryFieldsForTurbulenceDiagnostics {
  TemporaryFieldsForTurbulenceDiagnostics<MemorySpace> temporaries;
  OutField<vp, MemorySpace> kh_c;  ///< (C, K)
  OutField<vp, MemorySpace> div;   ///< (C, K)
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t k) const {
    const Pair<vp> r = temporaries.compute(c, k);
    kh_c(c, k) = r.first;
    div(c, k) = r.second;
  }
};

/// div_ic and hdef_ic on half level kh (1 <= kh < nlev) from the full-level values at kh and kh-1.
KOKKOS_INLINE_FUNCTION Pair<vp> diagnostics_for_turbulence(const vp wgtfac, const vp div,
                                                           const vp div_above, const vp kh_c,
                                                           const vp kh_c_above) {
  const wp w = static_cast<wp>(wgtfac);
  const wp div_ic = static_cast<wp>(wgtfac * div) + (wp(1.0) - w) * static_cast<wp>(div_above);
  wp hdef = static_cast<wp>(wgtfac * kh_c) + (wp(1.0) - w) * static_cast<wp>(kh_c_above);
  hdef = hdef * hdef;
  return {static_cast<vp>(div_ic), static_cast<vp>(hdef)};
}

/// calculate_diagnostics_for_turbulence from stored temporaries.
template <class MemorySpace>
struct CalculateDiagnosticsForTurbulence {
  ConstField<vp, MemorySpace> div;       ///< (C, K)
  ConstField<vp, MemorySpace> kh_c;      ///< (C, K)
  ConstField<vp, MemorySpace> wgtfac_c;  ///< (C, K+1)
  OutField<vp, MemorySpace> div_ic;      ///< (C, K+1)
  OutField<vp, MemorySpace> hdef_ic;     ///< (C, K+1)
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t kh) const {
    const Pair<vp> r = diagnostics_for_turbulence(wgtfac_c(c, kh), div(c, kh), div(c, kh - 1),
                                                  kh_c(c, kh), kh_c(c, kh - 1));
    div_ic(c, kh) = r.first;
    hdef_ic(c, kh) = r.second;
  }
};

/// The fused program: temporaries computed on the fly at kh and kh-1.
template <class MemorySpace>
struct CalculateDiagnosticQuantitiesForTurbulence {
  /// ICON4Py name of the program; the kernel label is made from it.
  static constexpr const char* name = "calculate_diagnostic_quantities_for_turbulence";
  TemporaryFieldsForTurbulenceDiagnostics<MemorySpace> temporaries;
  ConstField<vp, MemorySpace> wgtfac_c;  ///< (C, K+1)
  OutField<vp, MemorySpace> div_ic;      ///< (C, K+1)
  OutField<vp, MemorySpace> hdef_ic;     ///< (C, K+1)
  KOKKOS_INLINE_FUNCTION void operator()(const index_t c, const index_t kh) const {
    const Pair<vp> here = temporaries.compute(c, kh);
    const Pair<vp> above = temporaries.compute(c, kh - 1);
    const Pair<vp> r = diagnostics_for_turbulence(wgtfac_c(c, kh), here.second, above.second,
                                                  here.first, above.first);
    div_ic(c, kh) = r.first;
    hdef_ic(c, kh) = r.second;
  }

  /// Half levels [k0, k1) of cell c (points-outer schedule; k0 >= 1): the edges and coefficients
  /// once, and each full level's temporaries computed once and carried to the next half level.
  KOKKOS_INLINE_FUNCTION void levels(const index_t c, const index_t k0, const index_t k1) const {
    if (k0 >= k1) return;
    const auto col = temporaries.column(c);
    Pair<vp> above = temporaries.at(col, k0 - 1);
    for (index_t kh = k0; kh < k1; ++kh) {
      const Pair<vp> here = temporaries.at(col, kh);
      const Pair<vp> r = diagnostics_for_turbulence(wgtfac_c(c, kh), here.second, above.second,
                                                    here.first, above.first);
      div_ic(c, kh) = r.first;
      hdef_ic(c, kh) = r.second;
      above = here;
    }
  }
};

}  // namespace icondiff::stencils
