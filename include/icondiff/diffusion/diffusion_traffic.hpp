// The byte model behind every bandwidth icondiff reports (../shared/docs/performance_model.md §3):
// how many bytes each kernel of the granule must move between memory and the processor at least,
// i.e. every 3-D field it reads or writes counted once, plus its per-point coefficients and
// connectivity (read once per call). Effective bandwidth = bytes / measured time.
#pragma once

#include <icondiff/diffusion/diffusion.hpp>

#include <map>
#include <string>

namespace icondiff {

/// Bytes per call of every kernel the granule launches with `config` and `strategy`, keyed by
/// kernel label (diffusion_labels), plus the whole call under diffusion_labels::run.
std::map<std::string, double> diffusion_kernel_bytes(const DiffusionRanges& ranges,
                                                     index_t num_cells, index_t num_edges,
                                                     index_t num_vertices, int nlev,
                                                     const DiffusionConfig& config,
                                                     DiffusionStrategy strategy);

/// The iteration space of one kernel of the granule: the kind of its points (cells, edges,
/// vertices, or column for a vertical profile), how many, and its levels.
struct DiffusionKernelExtent {
  const char* location;
  double points;
  int levels;
};

/// Points and levels of every kernel the granule launches with `config` and `strategy`, keyed
/// by kernel label, from the same ranges src/diffusion/diffusion_impl.hpp launches them over (the
/// per-point-level counts of count_instructions divide by them). Its labels, and those of
/// diffusion_kernel_bytes, are the kernels a call launches (checked by the Kokkos Tools test).
std::map<std::string, DiffusionKernelExtent> diffusion_kernel_extents(const DiffusionRanges& ranges,
                                                                      int nlev,
                                                                      const DiffusionConfig& config,
                                                                      DiffusionStrategy strategy);

/// performance_model.md §3.2's lower bound for one call: 104 E + 64 V + 88 C bytes per level in
/// FP64 (about 276 B per cell and level): the 3-D traffic of kernels fused as far as possible,
/// without copies or stored temporaries. The roofline every strategy is measured against.
double diffusion_minimum_bytes(index_t num_cells, index_t num_edges, index_t num_vertices,
                               int nlev);

/// The ICON OpenACC timer a kernel's time belongs to (ICON4Py's compare_icon4py_openacc names),
/// e.g. both fused w kernels and the w copy -> apply_diffusion_to_w_and_compute_horizontal_
/// gradients_for_turbulence, the whole call -> nh_hdiff. Labels without an OpenACC counterpart
/// (scale_k) keep their own name without the prefix.
std::string openacc_timer_name(const std::string& label);

}  // namespace icondiff
