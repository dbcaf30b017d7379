// The labels of the granule's kernels, icondiff::diffusion::<ICON4Py program or ICON OpenACC timer
// name>, and of its profiling regions: the call's, nh_hdiff, and the exchange steps'. Persistent
// strings, so launching a kernel allocates nothing; public, so timer reports, the byte model and
// tests name kernels the same way.
#pragma once

#include <icondiff/stencils/apply_diffusion_to_theta_and_exner.hpp>
#include <icondiff/stencils/apply_diffusion_to_vn.hpp>
#include <icondiff/stencils/apply_diffusion_to_w.hpp>
#include <icondiff/stencils/cold_pools.hpp>
#include <icondiff/stencils/copy_field.hpp>
#include <icondiff/stencils/diagnostic_quantities_for_turbulence.hpp>
#include <icondiff/stencils/fused_diffusion.hpp>
#include <icondiff/stencils/nabla2_and_smag_coefficients_for_vn.hpp>

#include <string>

namespace icondiff {

namespace diffusion_labels {
/// The prefix every label starts with.
inline const std::string prefix = "icondiff::diffusion::";
/// prefix + the stencil's ICON4Py name (kernels launched once per call are named after their
/// stencil; a stencil launched twice gets one label per call site below).
template <template <class> class Stencil>
std::string label_of_stencil() {
  return prefix + Stencil<Kokkos::HostSpace>::name;
}
/// The profiling region of a whole granule call: ICON's timer name for the diffusion. Each step
/// inside it has its own region, named as ICON4Py and the timer table name it: a kernel step's is
/// its label without the prefix (KernelRunner::region_name), an exchange step's is below.
inline const std::string call_region = "nh_hdiff";
/// The timer of a whole granule call (reported as nh_hdiff).
inline const std::string run = "icondiff::diffusion::run";
// The regions of the exchange steps X1-X6 (diffusion_spec §3.0), fence before the exchange
// included; pushed whether or not the exchange moves data, so the steps are the same on one rank.
inline const std::string exchange_u_v_vert_before_nabla2 = "exchange_u_v_vert_before_nabla2";  // X1
inline const std::string exchange_z_nabla2_e = "exchange_z_nabla2_e";                          // X2
inline const std::string exchange_u_v_vert_before_nabla4 = "exchange_u_v_vert_before_nabla4";  // X3
inline const std::string start_exchange_vn = "start_exchange_vn";            // X4a
inline const std::string wait_exchange_vn = "wait_exchange_vn";              // X4b
inline const std::string exchange_theta_v_exner = "exchange_theta_v_exner";  // X5
inline const std::string exchange_w = "exchange_w";                          // X6
// Kernel labels: icondiff::diffusion::<ICON4Py program or OpenACC timer name>. Persistent strings,
// so launching a kernel allocates nothing.
inline const std::string scale_k = label_of_stencil<stencils::ScaleK>();
inline const std::string rbf_before_nabla2 =
    "icondiff::diffusion::rbf_vector_interpolation_of_u_v_vert_before_nabla2";
inline const std::string rbf_before_nabla4 =
    "icondiff::diffusion::rbf_vector_interpolation_of_u_v_vert_before_nabla4";
inline const std::string nabla2_and_smag =
    label_of_stencil<stencils::CalculateNabla2AndSmagCoefficientsForVn>();
inline const std::string turbulence =
    label_of_stencil<stencils::CalculateDiagnosticQuantitiesForTurbulence>();
inline const std::string vn = label_of_stencil<stencils::ApplyDiffusionToVn>();
inline const std::string copy_w = "icondiff::diffusion::copy_w";
inline const std::string w =
    label_of_stencil<stencils::ApplyDiffusionToWAndComputeHorizontalGradientsForTurbulence>();
inline const std::string w_nabla2 = label_of_stencil<stencils::Nabla2ForWAndHorizontalGradients>();
inline const std::string w_update = label_of_stencil<stencils::ApplyNabla4AndDampingToW>();
inline const std::string cold_pools =
    label_of_stencil<stencils::CalculateEnhancedDiffusionCoefficientsForGridPointColdPools>();
inline const std::string copy_theta = "icondiff::diffusion::copy_theta_v";
inline const std::string theta = label_of_stencil<stencils::ApplyDiffusionToThetaAndExner>();
inline const std::string split_geofac_n2s = "icondiff::diffusion::split_geofac_n2s";
inline const std::string check_neighbours = "icondiff::diffusion::check_neighbours";
}  // namespace diffusion_labels

}  // namespace icondiff
