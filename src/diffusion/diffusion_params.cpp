#include <icondiff/core/error.hpp>
#include <icondiff/diffusion/diffusion_params.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace icondiff {

namespace {
constexpr double gas_constant_dry_air = 287.04;  // Rd, J/(kg K) (ICON4Py constants)
constexpr double cpd = 1004.64;                  // specific heat at constant pressure
}  // namespace

DiffusionParams derive_diffusion_params(const DiffusionConfig& config) {
  config.validate();
  DiffusionParams p;
  const double n = static_cast<double>(config.ndyn_substeps);
  p.K2 = config.hdiff_efdt_ratio > 0.0 ? 1.0 / (config.hdiff_efdt_ratio * 8.0) : 0.0;
  p.K4 = p.K2 / 8.0;
  p.K6 = p.K2 / 64.0;
  p.K4W = config.hdiff_w_efdt_ratio > 0.0 ? 1.0 / (config.hdiff_w_efdt_ratio * 36.0) : 0.0;
  p.smag_offset = 0.25 * p.K4 * n;
  p.diff_multfac_w = std::min(1.0 / 48.0, p.K4W * n);
  p.nudgezone_diff = 0.04 / (config.max_nudging_coefficient + DBL_EPSILON);
  p.bdy_diff = 0.015 / (config.max_nudging_coefficient + DBL_EPSILON);
  p.fac_bdydiff_v = std::sqrt(n) / config.velocity_boundary_diffusion_denominator;
  p.rd_o_cvd = gas_constant_dry_air / (cpd - gas_constant_dry_air);
  return p;
}

DiffusionProfiles compute_diffusion_profiles(const DiffusionConfig& config,
                                             const DiffusionParams& params,
                                             const VerticalGrid& vertical) {
  vertical.validate();
  const int nlev = vertical.num_levels();
  const auto& vct_a = vertical.vct_a;
  const double n = static_cast<double>(config.ndyn_substeps);
  DiffusionProfiles p;

  // diffusion_utils._setup_runtime_diff_multfac_vn / _setup_initial_diff_multfac_vn /
  // _setup_smag_limit
  p.diff_multfac_vn.assign(nlev, std::min(1.0 / 128.0, params.K4 * n / 3.0));
  p.diff_multfac_vn_initial.assign(nlev, params.K4 / 3.0 * config.hdiff_efdt_ratio);
  for (int k = 0; k < nlev; ++k) {
    p.smag_limit.push_back(0.125 - 4.0 * p.diff_multfac_vn[k]);
    p.smag_limit_initial.push_back(0.125 - 4.0 * p.diff_multfac_vn_initial[k]);
  }

  // math/smagorinsky._en_smag_fac_for_zero_nshift: linear between z1 and z2, quadratic above.
  p.enh_smag_fac = en_smag_fac_for_zero_nshift(
      vct_a,
      {config.smagorinski_scaling_factor, config.smagorinski_scaling_factor2,
       config.smagorinski_scaling_factor3, config.smagorinski_scaling_factor4},
      {config.smagorinski_scaling_height, config.smagorinski_scaling_height2,
       config.smagorinski_scaling_height3, config.smagorinski_scaling_height4});
  p.enh_smag_fac.resize(nlev);

  // diffusion_utils._init_nabla2_factor_in_upper_damping_zone on levels [1, nrd + 1).
  const int nrd = vertical.end_index_of_damping_layer;
  p.diff_multfac_n2w.assign(nlev, 0.0);
  const double heights_1 = vct_a[1], heights_nrd = vct_a[nrd + 1];
  for (int k = 1; k < nrd + 1; ++k)
    p.diff_multfac_n2w[k] =
        1.0 / 12.0 * std::pow((vct_a[k] - heights_nrd) / (heights_1 - heights_nrd), 4.0);
  return p;
}

}  // namespace icondiff
