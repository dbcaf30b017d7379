// The labels of the granule's kernels and region: icondiff::diffusion::<ICON4Py program or ICON
// OpenACC timer name>. Persistent strings, so launching a kernel allocates nothing; public, so
// timer reports, the byte model and tests name kernels the same way.
#pragma once

#include <string>

namespace icondiff {

namespace diffusion_labels {
/// The prefix every label starts with.
inline const std::string prefix = "icondiff::diffusion::";
// Kernel labels: icondiff::diffusion::<ICON4Py program or OpenACC timer name>. Persistent
// strings, so launching a kernel allocates nothing.
inline const std::string run = "icondiff::diffusion::run";
inline const std::string scale_k = "icondiff::diffusion::scale_k";
inline const std::string rbf_before_nabla2 =
    "icondiff::diffusion::rbf_vector_interpolation_of_u_v_vert_before_nabla2";
inline const std::string rbf_before_nabla4 =
    "icondiff::diffusion::rbf_vector_interpolation_of_u_v_vert_before_nabla4";
inline const std::string nabla2_and_smag =
    "icondiff::diffusion::calculate_nabla2_and_smag_coefficients_for_vn";
inline const std::string turbulence =
    "icondiff::diffusion::calculate_diagnostic_quantities_for_turbulence";
inline const std::string vn = "icondiff::diffusion::apply_diffusion_to_vn";
inline const std::string copy_w = "icondiff::diffusion::copy_w";
inline const std::string w =
    "icondiff::diffusion::apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence";
inline const std::string w_nabla2 =
    "icondiff::diffusion::calculate_nabla2_for_w_and_horizontal_gradients";
inline const std::string w_update = "icondiff::diffusion::apply_nabla4_and_damping_to_w";
inline const std::string cold_pools =
    "icondiff::diffusion::calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools";
inline const std::string copy_theta = "icondiff::diffusion::copy_theta_v";
inline const std::string theta = "icondiff::diffusion::apply_diffusion_to_theta_and_exner";
inline const std::string split_geofac_n2s = "icondiff::diffusion::split_geofac_n2s";
inline const std::string check_neighbours = "icondiff::diffusion::check_neighbours";
}  // namespace diffusion_labels

}  // namespace icondiff
