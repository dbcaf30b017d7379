// What the diffusion granule needs of the vertical grid (diffusion_spec.md §1.2, §4.6).
#pragma once

#include <vector>

namespace icondiff {

struct VerticalGrid {
  /// Nominal interface heights in metres, nlev + 1 values, decreasing: vct_a[0] is the model top.
  std::vector<double> vct_a;
  /// nrd: the largest half level kh with vct_a[kh] >= the Rayleigh damping height (0 if none);
  /// ICON's nrdmax = nrd + 1. Diffusion damps w on the half levels 1..nrd.
  int end_index_of_damping_layer = 0;

  int num_levels() const { return static_cast<int>(vct_a.size()) - 1; }

  /// Throws ConfigError unless vct_a has at least 2 finite, strictly decreasing values and
  /// 0 <= nrd <= nlev - 1 (diff_multfac_n2w reads vct_a[nrd + 1]).
  void validate() const;
};

/// nrd for a damping height (ICON4Py VerticalGrid.end_index_of_damping_layer).
int end_index_of_damping_layer(const std::vector<double>& vct_a, double rayleigh_damping_height);

}  // namespace icondiff
