// The fields the diffusion granule reads and writes (diffusion_spec.md §4), as Kokkos Views in
// one memory space. Every field is (points, levels) or (points, slots) in FieldLayout (point index
// fastest); half-level fields have nlev + 1 levels. Views may be unmanaged wrappers of memory the
// caller owns (e.g. Fortran arrays).
#pragma once

#include <icondiff/core/types.hpp>

namespace icondiff {

/// In/out state (§4.1). vn (E, nlev), w (C, nlev+1), theta_v and exner (C, nlev).
template <class MemorySpace>
struct DiffusionPrognosticState {
  View2D<wp, MemorySpace> vn;
  View2D<wp, MemorySpace> w;
  View2D<wp, MemorySpace> theta_v;
  View2D<wp, MemorySpace> exner;
};

/// Turbulence diagnostics (§4.2), all (C, nlev+1).
template <class MemorySpace>
struct DiffusionDiagnosticState {
  View2D<vp, MemorySpace> hdef_ic;
  View2D<vp, MemorySpace> div_ic;
  View2D<vp, MemorySpace> dwdx;
  View2D<vp, MemorySpace> dwdy;
};

/// Metric fields (§4.3).
template <class MemorySpace>
struct DiffusionMetricState {
  View2D<vp, MemorySpace> theta_ref_mc;    ///< (C, nlev)
  View2D<vp, MemorySpace> wgtfac_c;        ///< (C, nlev+1)
  View3D<int, MemorySpace> zd_vertoffset;  ///< (C, 3 [C2E2C], nlev) relative level offsets
  View2D<wp, MemorySpace> zd_diffcoef;     ///< (C, nlev); 0 = no truly horizontal diffusion
  View3D<wp, MemorySpace> zd_intcoef;      ///< (C, 3 [C2E2C], nlev)
};

/// Interpolation coefficients (§4.4); slots in the order of the named connectivity.
template <class MemorySpace>
struct DiffusionInterpolationState {
  View2D<wp, MemorySpace> e_bln_c_s;     ///< (C, 3 [C2E])
  View2D<wp, MemorySpace> rbf_coeff_1;   ///< (V, 6 [V2E]) eastward component
  View2D<wp, MemorySpace> rbf_coeff_2;   ///< (V, 6 [V2E]) northward component
  View2D<wp, MemorySpace> geofac_div;    ///< (C, 3 [C2E])
  View2D<wp, MemorySpace> geofac_n2s;    ///< (C, 4 [C2E2CO]); [:,0] self, [:,1:4] C2E2C
  View2D<wp, MemorySpace> geofac_grg_x;  ///< (C, 4 [C2E2CO])
  View2D<wp, MemorySpace> geofac_grg_y;  ///< (C, 4 [C2E2CO])
  View1D<wp, MemorySpace> nudgecoeff_e;  ///< (E)
};

/// Edge geometry (§4.5).
template <class MemorySpace>
struct DiffusionEdgeParams {
  View1D<wp, MemorySpace> tangent_orientation;
  View1D<wp, MemorySpace> inverse_primal_edge_lengths;
  View1D<wp, MemorySpace> inverse_vertex_vertex_lengths;
  View1D<wp, MemorySpace> inverse_dual_edge_lengths;
  View1D<wp, MemorySpace> edge_areas;
  View2D<wp, MemorySpace> primal_normal_vert_x;  ///< (E, 4 [E2C2V]) eastward
  View2D<wp, MemorySpace> primal_normal_vert_y;  ///< (E, 4 [E2C2V]) northward
  View2D<wp, MemorySpace> dual_normal_vert_x;
  View2D<wp, MemorySpace> dual_normal_vert_y;
};

/// Cell geometry (§4.5).
template <class MemorySpace>
struct DiffusionCellParams {
  View1D<wp, MemorySpace> area;
};

}  // namespace icondiff
