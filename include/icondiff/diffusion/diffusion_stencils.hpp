// One factory per stencil program of the granule: each builds the stencil's point body from the
// input bundle, the temporaries and the states BY NAME (member = field), so a swapped argument
// cannot compile into a wrong kernel, and the granule, the tests and the ICON4Py stencil runner
// build the same bodies. Kernel labels are made from the stencil's ICON4Py name
// (diffusion_labels.hpp).
#pragma once

#include <icondiff/diffusion/diffusion_inputs.hpp>
#include <icondiff/diffusion/diffusion_params.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/stencils/apply_diffusion_to_theta_and_exner.hpp>
#include <icondiff/stencils/apply_diffusion_to_vn.hpp>
#include <icondiff/stencils/apply_diffusion_to_w.hpp>
#include <icondiff/stencils/cold_pools.hpp>
#include <icondiff/stencils/copy_field.hpp>
#include <icondiff/stencils/diagnostic_quantities_for_turbulence.hpp>
#include <icondiff/stencils/fused_diffusion.hpp>
#include <icondiff/stencils/nabla2_and_smag_coefficients_for_vn.hpp>
#include <icondiff/stencils/rbf_vec_interpol_vertex.hpp>

#include <string>

namespace icondiff {

/// The granule's temporaries and device copies of its vertical profiles, allocated once.
template <class MemorySpace>
struct DiffusionTemporaries {
  // K-profiles (regular and initial-run variants chosen per call).
  View1D<wp, MemorySpace> diff_multfac_vn, diff_multfac_vn_initial, enh_smag_fac, diff_multfac_n2w;
  View1D<vp, MemorySpace> smag_limit, smag_limit_initial, diff_multfac_smag;
  // geofac_n2s split into the self and neighbour parts (ICON grids: self first).
  View1D<wp, MemorySpace> geofac_n2s_c;
  View2D<wp, MemorySpace> geofac_n2s_nbh;
  // (point, level) temporaries, zero-initialised once.
  View2D<vp, MemorySpace> u_vert, v_vert, kh_smag_e, kh_smag_ec, z_nabla2_c;
  View2D<wp, MemorySpace> z_nabla2_e, w_tmp, theta_v_tmp;
};

namespace diffusion_stencils {

/// S2/S5 mo_intp_rbf_rbf_vec_interpol_vertex: (u_vert, v_vert) from an edge-normal field.
template <class M>
stencils::MoIntpRbfRbfVecInterpolVertex<M> rbf_vec_interpol_vertex(const DiffusionInputs<M>& in,
                                                                   const View2D<wp, M>& p_e_in,
                                                                   const View2D<vp, M>& u_vert,
                                                                   const View2D<vp, M>& v_vert) {
  stencils::MoIntpRbfRbfVecInterpolVertex<M> s;
  s.p_e_in = p_e_in;
  s.ptr_coeff_1 = in.interpolation.rbf_coeff_1;
  s.ptr_coeff_2 = in.interpolation.rbf_coeff_2;
  s.v2e = in.grid.v2e;
  s.p_u_out = u_vert;
  s.p_v_out = v_vert;
  return s;
}

/// S3 calculate_nabla2_and_smag_coefficients_for_vn.
template <class M>
stencils::CalculateNabla2AndSmagCoefficientsForVn<M> nabla2_and_smag_coefficients_for_vn(
    const DiffusionInputs<M>& in, const DiffusionTemporaries<M>& t, const View2D<wp, M>& vn,
    const View1D<vp, M>& smag_limit, vp smag_offset) {
  stencils::CalculateNabla2AndSmagCoefficientsForVn<M> s;
  s.diff_multfac_smag = t.diff_multfac_smag;
  s.tangent_orientation = in.edges.tangent_orientation;
  s.inv_primal_edge_length = in.edges.inverse_primal_edge_lengths;
  s.inv_vert_vert_length = in.edges.inverse_vertex_vertex_lengths;
  s.u_vert = t.u_vert;
  s.v_vert = t.v_vert;
  s.primal_normal_vert_x = in.edges.primal_normal_vert_x;
  s.primal_normal_vert_y = in.edges.primal_normal_vert_y;
  s.dual_normal_vert_x = in.edges.dual_normal_vert_x;
  s.dual_normal_vert_y = in.edges.dual_normal_vert_y;
  s.vn = vn;
  s.smag_limit = smag_limit;
  s.e2c2v = in.grid.e2c2v;
  s.smag_offset = smag_offset;
  s.kh_smag_e = t.kh_smag_e;
  s.kh_smag_ec = t.kh_smag_ec;
  s.z_nabla2_e = t.z_nabla2_e;
  return s;
}

/// S4 calculate_diagnostic_quantities_for_turbulence.
template <class M>
stencils::CalculateDiagnosticQuantitiesForTurbulence<M> diagnostic_quantities_for_turbulence(
    const DiffusionInputs<M>& in, const DiffusionTemporaries<M>& t,
    const DiffusionDiagnosticState<M>& diagnostic, const View2D<wp, M>& vn) {
  stencils::CalculateDiagnosticQuantitiesForTurbulence<M> s;
  s.temporaries.kh_smag_ec = t.kh_smag_ec;
  s.temporaries.vn = vn;
  s.temporaries.e_bln_c_s = in.interpolation.e_bln_c_s;
  s.temporaries.geofac_div = in.interpolation.geofac_div;
  s.temporaries.diff_multfac_smag = t.diff_multfac_smag;
  s.temporaries.c2e = in.grid.c2e;
  s.wgtfac_c = in.metric.wgtfac_c;
  s.div_ic = diagnostic.div_ic;
  s.hdef_ic = diagnostic.hdef_ic;
  return s;
}

/// S6 apply_diffusion_to_vn.
template <class M>
stencils::ApplyDiffusionToVn<M> apply_diffusion_to_vn(
    const DiffusionInputs<M>& in, const DiffusionTemporaries<M>& t, const DiffusionParams& params,
    const View1D<wp, M>& diff_multfac_vn, index_t start_2nd_nudge_line, const View2D<wp, M>& vn) {
  stencils::ApplyDiffusionToVn<M> s;
  s.nabla4.u_vert = t.u_vert;
  s.nabla4.v_vert = t.v_vert;
  s.nabla4.primal_normal_vert_v1 = in.edges.primal_normal_vert_x;
  s.nabla4.primal_normal_vert_v2 = in.edges.primal_normal_vert_y;
  s.nabla4.z_nabla2_e = t.z_nabla2_e;
  s.nabla4.inv_vert_vert_length = in.edges.inverse_vertex_vertex_lengths;
  s.nabla4.inv_primal_edge_length = in.edges.inverse_primal_edge_lengths;
  s.nabla4.e2c2v = in.grid.e2c2v;
  s.area_edge = in.edges.edge_areas;
  s.kh_smag_e = t.kh_smag_e;
  s.diff_multfac_vn = diff_multfac_vn;
  s.nudgecoeff_e = in.interpolation.nudgecoeff_e;
  s.nudgezone_diff = static_cast<vp>(params.nudgezone_diff);
  s.fac_bdydiff_v = params.fac_bdydiff_v;
  s.start_2nd_nudge_line_idx_e = start_2nd_nudge_line;
  s.limited_area = in.grid.limited_area;
  s.vn = vn;
  return s;
}

/// The Laplacian of w (elementary calculate_nabla2_for_w), shared by both strategies' w steps.
template <class M>
stencils::CalculateNabla2ForW<M> nabla2_for_w(const DiffusionInputs<M>& in,
                                              const View2D<wp, M>& w) {
  stencils::CalculateNabla2ForW<M> s;
  s.w = w;
  s.geofac_n2s = in.interpolation.geofac_n2s;
  s.c2e2co = in.grid.c2e2co;
  return s;
}

/// dwdx, dwdy (elementary calculate_horizontal_gradients_for_turbulence).
template <class M>
stencils::CalculateHorizontalGradientsForTurbulence<M> horizontal_gradients_for_turbulence(
    const DiffusionInputs<M>& in, const View2D<wp, M>& w) {
  stencils::CalculateHorizontalGradientsForTurbulence<M> s;
  s.w = w;
  s.geofac_grg_x = in.interpolation.geofac_grg_x;
  s.geofac_grg_y = in.interpolation.geofac_grg_y;
  s.c2e2co = in.grid.c2e2co;
  return s;
}

/// S8 apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence over the copy w_old.
template <class M>
stencils::ApplyDiffusionToWAndComputeHorizontalGradientsForTurbulence<M>
apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
    const DiffusionInputs<M>& in, const DiffusionTemporaries<M>& t, const DiffusionParams& params,
    int shear_type, index_t nrdmax, IndexRange updated_cells,
    const DiffusionDiagnosticState<M>& diagnostic, const View2D<wp, M>& w_old,
    const View2D<wp, M>& w) {
  stencils::ApplyDiffusionToWAndComputeHorizontalGradientsForTurbulence<M> s;
  s.nabla2 = nabla2_for_w(in, w_old);
  s.gradients = horizontal_gradients_for_turbulence(in, w_old);
  s.area = in.cells.cell_area;
  s.diff_multfac_n2w = t.diff_multfac_n2w;
  s.type_shear = shear_type;
  s.diff_multfac_w = params.diff_multfac_w;
  s.nrdmax = nrdmax;
  s.interior_idx = updated_cells.start;
  s.halo_idx = updated_cells.end;
  s.w = w;
  s.dwdx = diagnostic.dwdx;
  s.dwdy = diagnostic.dwdy;
  return s;
}

/// Fused S8, part 1: the Laplacian of w stored once (and dwdx, dwdy).
template <class M>
stencils::Nabla2ForWAndHorizontalGradients<M> nabla2_for_w_and_horizontal_gradients(
    const DiffusionInputs<M>& in, const DiffusionTemporaries<M>& t, bool compute_gradients,
    const DiffusionDiagnosticState<M>& diagnostic, const View2D<wp, M>& w) {
  stencils::Nabla2ForWAndHorizontalGradients<M> s;
  s.nabla2 = nabla2_for_w(in, w);
  s.gradients = horizontal_gradients_for_turbulence(in, w);
  s.compute_gradients = compute_gradients;
  s.z_nabla2_c = t.z_nabla2_c;
  s.dwdx = diagnostic.dwdx;
  s.dwdy = diagnostic.dwdy;
  return s;
}

/// Fused S8, part 2: nabla4 from the stored Laplacian and the damping, in place.
template <class M>
stencils::ApplyNabla4AndDampingToW<M> apply_nabla4_and_damping_to_w(
    const DiffusionInputs<M>& in, const DiffusionTemporaries<M>& t, const DiffusionParams& params,
    index_t nrdmax, const View2D<wp, M>& w) {
  stencils::ApplyNabla4AndDampingToW<M> s;
  s.nabla4.area = in.cells.cell_area;
  s.nabla4.z_nabla2_c = t.z_nabla2_c;
  s.nabla4.geofac_n2s = in.interpolation.geofac_n2s;
  s.nabla4.c2e2co = in.grid.c2e2co;
  s.nabla4.diff_multfac_w = params.diff_multfac_w;
  s.nabla4.w = w;
  s.diff_multfac_n2w = t.diff_multfac_n2w;
  s.nrdmax = nrdmax;
  return s;
}

/// S9 calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools.
template <class M>
stencils::CalculateEnhancedDiffusionCoefficientsForGridPointColdPools<M>
enhanced_diffusion_coefficients_for_grid_point_cold_pools(const DiffusionInputs<M>& in,
                                                          const DiffusionTemporaries<M>& t,
                                                          const DiffusionParams& params,
                                                          const View2D<wp, M>& theta_v) {
  stencils::CalculateEnhancedDiffusionCoefficientsForGridPointColdPools<M> s;
  s.enhancement.theta_v = theta_v;
  s.enhancement.theta_ref_mc = in.metric.theta_ref_mc;
  s.enhancement.c2e2c = in.grid.c2e2c;
  s.enhancement.thresh_tdiff = params.thresh_tdiff;
  s.enhancement.smallest_vpfloat = static_cast<vp>(params.smallest_vpfloat);
  s.e2c = in.grid.e2c;
  s.kh_smag_e = t.kh_smag_e;
  return s;
}

/// S11 apply_diffusion_to_theta_and_exner over the copy theta_v_tmp.
template <class M>
stencils::ApplyDiffusionToThetaAndExner<M> apply_diffusion_to_theta_and_exner(
    const DiffusionInputs<M>& in, const DiffusionTemporaries<M>& t, const DiffusionParams& params,
    bool apply_zdiffusion_t, const DiffusionPrognosticState<M>& prognostic) {
  stencils::ApplyDiffusionToThetaAndExner<M> s;
  s.nabla2.flux.kh_smag_e = t.kh_smag_e;
  s.nabla2.flux.inv_dual_edge_length = in.edges.inverse_dual_edge_lengths;
  s.nabla2.flux.theta_v = t.theta_v_tmp;
  s.nabla2.flux.e2c = in.grid.e2c;
  s.nabla2.geofac_div = in.interpolation.geofac_div;
  s.nabla2.c2e = in.grid.c2e;
  s.zdiffu.zd_vertoffset = in.metric.zd_vertoffset;
  s.zdiffu.zd_diffcoef = in.metric.zd_diffcoef;
  s.zdiffu.geofac_n2s_c = t.geofac_n2s_c;
  s.zdiffu.geofac_n2s_nbh = t.geofac_n2s_nbh;
  s.zdiffu.vcoef = in.metric.zd_intcoef;
  s.zdiffu.theta_v = t.theta_v_tmp;
  s.zdiffu.c2e2c = in.grid.c2e2c;
  s.apply_zdiffusion_t = apply_zdiffusion_t;
  s.area = in.cells.cell_area;
  s.rd_o_cvd = static_cast<vp>(params.rd_o_cvd);
  s.theta_v = prognostic.theta_v;
  s.exner = prognostic.exner;
  return s;
}

}  // namespace diffusion_stencils
}  // namespace icondiff
