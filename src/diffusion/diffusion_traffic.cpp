#include <icondiff/diffusion/diffusion_labels.hpp>
#include <icondiff/diffusion/diffusion_traffic.hpp>

namespace icondiff {

std::map<std::string, double> diffusion_kernel_bytes(const DiffusionRanges& r, index_t num_cells,
                                                     index_t num_edges, index_t num_vertices,
                                                     int nlev, const DiffusionConfig& config,
                                                     DiffusionStrategy strategy) {
  namespace L = diffusion_labels;
  const double W = sizeof(wp), V = sizeof(vp), I = sizeof(index_t);
  const double K = nlev, KH = nlev + 1;
  const double C = num_cells, E = num_edges, NV = num_vertices;
  const double n_rbf = r.rbf_vertices.size(), n_nabla2 = r.nabla2_edges.size();
  const double n_turb = r.turbulence_cells.size(), n_vn = r.vn_edges.size();
  const double n_w = r.w_cells.size(), n_w_upd = r.w_updated_cells.size();
  const double n_cold = r.cold_pool_edges.size(), n_theta = r.turbulence_cells.size();
  const bool gradients =
      config.shear_type == TurbulenceShearForcingType::VerticalHorizontalOfHorizontalVerticalWind;

  std::map<std::string, double> b;
  b[L::scale_k] = K * (W + V);
  // RBF: the edge field once, u and v written; 12 coefficients and 6 indices per vertex.
  const double rbf = E * K * W + n_rbf * K * 2 * V + n_rbf * (12 * W + 6 * I);
  b[L::rbf_before_nabla2] = rbf;
  b[L::rbf_before_nabla4] = rbf;
  // nabla2 + Smagorinsky: u, v at the vertices, vn; kh_smag_e, kh_smag_ec, z_nabla2_e written;
  // 16 normal components, 3 edge scalars and 4 indices per edge.
  b[L::nabla2_and_smag] =
      NV * K * 2 * V + n_nabla2 * K * (W + 2 * V + W) + n_nabla2 * (19 * W + 4 * I);
  if (config.computes_turbulence_diagnostics())
    b[L::turbulence] = E * K * (V + W) + n_turb * (K - 1) * 3 * V + n_turb * (6 * W + 3 * I);
  // nabla4 + vn update: u, v, z_nabla2_e, kh_smag_e read, vn read and written.
  b[L::vn] = NV * K * 2 * V + n_vn * K * (W + V + 2 * W) + n_vn * (12 * W + 4 * I);
  const double gradient_bytes = gradients ? 2 * V : 0.0;
  if (strategy == DiffusionStrategy::Unfused) {
    b[L::copy_w] = 2 * C * KH * W;
    b[L::w] = C * K * W + n_w * K * (W + gradient_bytes) + n_w * (13 * W + 4 * I);
  } else {
    b[L::w_nabla2] = C * K * W + n_w * K * (V + gradient_bytes) + n_w * (12 * W + 4 * I);
    b[L::w_update] = C * K * V + n_w_upd * K * 2 * W + n_w_upd * (5 * W + 4 * I);
  }
  if (config.apply_to_temperature) {
    const double zdiffu =
        config.apply_zdiffusion_t ? n_theta * K * W : 0.0;  // the zd_diffcoef mask
    const double theta =
        E * K * V + C * K * W + n_theta * K * 3 * W + zdiffu + n_theta * (9 * W + 9 * I);
    b[L::copy_theta] = 2 * C * K * W;
    b[L::cold_pools] = C * 2 * (W + V) + n_cold * 2 * 2 * V + n_cold * 2 * I;
    b[L::theta] = theta;
  }
  double total = 0;
  for (const auto& [label, bytes] : b) total += bytes;
  b[L::run] = total;
  return b;
}

std::map<std::string, DiffusionKernelExtent> diffusion_kernel_extents(const DiffusionRanges& r,
                                                                      int nlev,
                                                                      const DiffusionConfig& config,
                                                                      DiffusionStrategy strategy) {
  namespace L = diffusion_labels;
  std::map<std::string, DiffusionKernelExtent> e;
  e[L::scale_k] = {"column", 1, nlev};
  e[L::rbf_before_nabla2] = {"vertices", double(r.rbf_vertices.size()), nlev};
  e[L::rbf_before_nabla4] = {"vertices", double(r.rbf_vertices.size()), nlev};
  e[L::nabla2_and_smag] = {"edges", double(r.nabla2_edges.size()), nlev};
  if (config.computes_turbulence_diagnostics())
    e[L::turbulence] = {"cells", double(r.turbulence_cells.size()), nlev - 1};
  e[L::vn] = {"edges", double(r.vn_edges.size()), nlev};
  if (strategy == DiffusionStrategy::Unfused) {
    e[L::copy_w] = {"cells", double(r.all_cells.size()), nlev + 1};
    e[L::w] = {"cells", double(r.w_cells.size()), nlev};
  } else {
    e[L::w_nabla2] = {"cells", double(r.w_cells.size()), nlev};
    e[L::w_update] = {"cells", double(r.w_updated_cells.size()), nlev};
  }
  if (config.apply_to_temperature) {
    e[L::cold_pools] = {"edges", double(r.cold_pool_edges.size()), 2};
    e[L::copy_theta] = {"cells", double(r.all_cells.size()), nlev};
    e[L::theta] = {"cells", double(r.turbulence_cells.size()), nlev};
  }
  return e;
}

double diffusion_minimum_bytes(index_t num_cells, index_t num_edges, index_t num_vertices,
                               int nlev) {
  return (104.0 * num_edges + 64.0 * num_vertices + 88.0 * num_cells) * nlev;
}

std::string openacc_timer_name(const std::string& label) {
  namespace L = diffusion_labels;
  if (label == L::run) return "nh_hdiff";
  if (label == L::copy_w || label == L::w_nabla2 || label == L::w_update)
    return L::w.substr(L::prefix.size());
  if (label == L::copy_theta) return L::theta.substr(L::prefix.size());
  return label.rfind(L::prefix, 0) == 0 ? label.substr(L::prefix.size()) : label;
}

}  // namespace icondiff
