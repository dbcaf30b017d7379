// Quantities derived once from the configuration (diffusion_spec.md §2.2) and the vertical
// profiles of the coefficients (§2.3, §2.4), computed as ICON4Py's DiffusionParams,
// Diffusion.__init__ and diffusion_utils do.
#pragma once

#include <icondiff/diffusion/diffusion_config.hpp>
#include <icondiff/grid/vertical_grid.hpp>

#include <vector>

namespace icondiff {

struct DiffusionParams {
  double K2 = 0, K4 = 0, K6 = 0, K4W = 0;
  double smag_offset = 0;     ///< 0.25 K4 ndyn_substeps (regular steps; 0 in the initial run)
  double diff_multfac_w = 0;  ///< min(1/48, K4W ndyn_substeps)
  double nudgezone_diff = 0;  ///< 0.04 / (max_nudging_coefficient + eps)
  double bdy_diff = 0;  ///< 0.015 / (max_nudging_coefficient + eps); unused (nests with feedback)
  double fac_bdydiff_v = 0;                         ///< sqrt(ndyn_substeps) / denom_diffu_v
  double rd_o_cvd = 0;                              ///< Rd / (cpd - Rd)
  double thresh_tdiff = -5.0;                       ///< cold-pool threshold (K)
  double smallest_vpfloat = 2.220446049250313e-16;  ///< ICON4Py's "cold pool not active" value
};

/// Validates `config` and derives the scalars of §2.2.
DiffusionParams derive_diffusion_params(const DiffusionConfig& config);

/// Vertical profiles, nlev values each.
struct DiffusionProfiles {
  std::vector<double> diff_multfac_vn;          ///< min(1/128, K4 N / 3)
  std::vector<double> smag_limit;               ///< 0.125 - 4 diff_multfac_vn
  std::vector<double> diff_multfac_vn_initial;  ///< K4 / 3 hdiff_efdt_ratio (initial run)
  std::vector<double> smag_limit_initial;       ///< 0.125 - 4 diff_multfac_vn_initial
  std::vector<double> enh_smag_fac;             ///< Smagorinsky factor height profile
  std::vector<double> diff_multfac_n2w;         ///< nabla2 damping of w, non-zero on 1..nrd
};

/// Validates `vertical` and computes the profiles.
DiffusionProfiles compute_diffusion_profiles(const DiffusionConfig& config,
                                             const DiffusionParams& params,
                                             const VerticalGrid& vertical);

}  // namespace icondiff
