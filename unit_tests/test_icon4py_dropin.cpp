// ICON4Py's drop-in functions (icon4py_bindings.h) called from C++ as ICON's Fortran calls them,
// on the one global grid and granule they hold: two threads calling diffusion_run_wrapper at once
// (the first held inside its first kernel until the second has returned) -- the second is
// refused with return code 2 and a "busy" message, the first succeeds. Its own executable: the
// drop-in's grid and granule are global to the process.
#include "support/icon_api_arrays.hpp"

#include <icondiff/kokkos_compat.hpp>

#include <icon4py_bindings.h>
#include <icondiff_c.h>

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace icondiff {
namespace {

using test::IconArrays;

template <class T = double>
T* p(const icondiff_array& a) {
  return static_cast<T*>(a.data);
}

int grid_init(const icondiff_icon_grid_args& g) {
  const auto b = [](const icondiff_array& a) { return static_cast<unsigned char*>(a.data); };
  return grid_init_wrapper(
      p<int>(g.cell_starts), g.cell_starts.size[0], p<int>(g.cell_ends), g.cell_ends.size[0],
      p<int>(g.vertex_starts), g.vertex_starts.size[0], p<int>(g.vertex_ends),
      g.vertex_ends.size[0], p<int>(g.edge_starts), g.edge_starts.size[0], p<int>(g.edge_ends),
      g.edge_ends.size[0], p<int>(g.c2e), g.c2e.size[0], g.c2e.size[1], p<int>(g.e2c),
      g.e2c.size[0], g.e2c.size[1], p<int>(g.c2e2c), g.c2e2c.size[0], g.c2e2c.size[1],
      p<int>(g.e2c2e), g.e2c2e.size[0], g.e2c2e.size[1], p<int>(g.e2v), g.e2v.size[0],
      g.e2v.size[1], p<int>(g.v2e), g.v2e.size[0], g.v2e.size[1], p<int>(g.v2c), g.v2c.size[0],
      g.v2c.size[1], p<int>(g.e2c2v), g.e2c2v.size[0], g.e2c2v.size[1], p<int>(g.c2v),
      g.c2v.size[0], g.c2v.size[1], b(g.c_owner_mask), g.c_owner_mask.size[0], b(g.e_owner_mask),
      g.e_owner_mask.size[0], b(g.v_owner_mask), g.v_owner_mask.size[0], p<int>(g.c_glb_index),
      g.c_glb_index.size[0], p<int>(g.e_glb_index), g.e_glb_index.size[0], p<int>(g.v_glb_index),
      g.v_glb_index.size[0], p(g.tangent_orientation), g.tangent_orientation.size[0],
      p(g.inverse_primal_edge_lengths), g.inverse_primal_edge_lengths.size[0],
      p(g.inv_dual_edge_length), g.inv_dual_edge_length.size[0], p(g.inv_vert_vert_length),
      g.inv_vert_vert_length.size[0], p(g.edge_areas), g.edge_areas.size[0], p(g.f_e),
      g.f_e.size[0], p(g.cell_center_lat), g.cell_center_lat.size[0], p(g.cell_center_lon),
      g.cell_center_lon.size[0], p(g.cell_areas), g.cell_areas.size[0], p(g.primal_normal_vert_x),
      g.primal_normal_vert_x.size[0], g.primal_normal_vert_x.size[1], p(g.primal_normal_vert_y),
      g.primal_normal_vert_y.size[0], g.primal_normal_vert_y.size[1], p(g.dual_normal_vert_x),
      g.dual_normal_vert_x.size[0], g.dual_normal_vert_x.size[1], p(g.dual_normal_vert_y),
      g.dual_normal_vert_y.size[0], g.dual_normal_vert_y.size[1], p(g.primal_normal_cell_x),
      g.primal_normal_cell_x.size[0], g.primal_normal_cell_x.size[1], p(g.primal_normal_cell_y),
      g.primal_normal_cell_y.size[0], g.primal_normal_cell_y.size[1], p(g.dual_normal_cell_x),
      g.dual_normal_cell_x.size[0], g.dual_normal_cell_x.size[1], p(g.dual_normal_cell_y),
      g.dual_normal_cell_y.size[0], g.dual_normal_cell_y.size[1], p(g.edge_center_lat),
      g.edge_center_lat.size[0], p(g.edge_center_lon), g.edge_center_lon.size[0],
      p(g.primal_normal_x), g.primal_normal_x.size[0], p(g.primal_normal_y),
      g.primal_normal_y.size[0], p(g.vct_a), g.vct_a.size[0], g.lowest_layer_thickness,
      g.model_top_height, g.stretch_factor, g.flat_height, g.rayleigh_damping_height,
      g.mean_cell_area, g.comm_id, g.num_vertices, g.num_cells, g.num_edges, g.vertical_size,
      g.limited_area, g.backend, g.on_gpu);
}

int diffusion_init(const icondiff_diffusion_args& d) {
  return diffusion_init_wrapper(
      p(d.theta_ref_mc), d.theta_ref_mc.size[0], d.theta_ref_mc.size[1], p(d.wgtfac_c),
      d.wgtfac_c.size[0], d.wgtfac_c.size[1], p(d.e_bln_c_s), d.e_bln_c_s.size[0],
      d.e_bln_c_s.size[1], p(d.geofac_div), d.geofac_div.size[0], d.geofac_div.size[1],
      p(d.geofac_grg_x), d.geofac_grg_x.size[0], d.geofac_grg_x.size[1], p(d.geofac_grg_y),
      d.geofac_grg_y.size[0], d.geofac_grg_y.size[1], p(d.geofac_n2s), d.geofac_n2s.size[0],
      d.geofac_n2s.size[1], p(d.nudgecoeff_e), d.nudgecoeff_e.size[0], p(d.rbf_vec_coeff_v),
      d.rbf_vec_coeff_v.size[0], d.rbf_vec_coeff_v.size[1], d.rbf_vec_coeff_v.size[2],
      p<int>(d.zd_cellidx), d.zd_cellidx.size[0], d.zd_cellidx.size[1], p<int>(d.zd_vertidx),
      d.zd_vertidx.size[0], d.zd_vertidx.size[1], p(d.zd_intcoef), d.zd_intcoef.size[0],
      d.zd_intcoef.size[1], p(d.zd_diffcoef), d.zd_diffcoef.size[0], d.ndyn_substeps,
      d.diffusion_type, d.hdiff_w, d.hdiff_vn, d.hdiff_smag_w, d.zdiffu_t, d.type_t_diffu,
      d.type_vn_diffu, d.hdiff_efdt_ratio, d.hdiff_w_efdt_ratio, d.smagorinski_scaling_factor,
      d.smagorinski_scaling_factor2, d.smagorinski_scaling_factor3, d.smagorinski_scaling_factor4,
      d.smagorinski_scaling_height, d.smagorinski_scaling_height2, d.smagorinski_scaling_height3,
      d.smagorinski_scaling_height4, d.hdiff_temp, d.denom_diffu_v, d.nudge_max_coeff, d.itype_sher,
      d.iforcing, d.a_hshr, d.loutshs, d.backend, d.on_gpu);
}

int diffusion_run(const icondiff_run_args& r) {
  return diffusion_run_wrapper(
      p(r.w), r.w.size[0], r.w.size[1], p(r.vn), r.vn.size[0], r.vn.size[1], p(r.exner),
      r.exner.size[0], r.exner.size[1], p(r.theta_v), r.theta_v.size[0], r.theta_v.size[1],
      p(r.rho), r.rho.size[0], r.rho.size[1], p(r.hdef_ic), r.hdef_ic.size[0], r.hdef_ic.size[1],
      p(r.div_ic), r.div_ic.size[0], r.div_ic.size[1], p(r.dwdx), r.dwdx.size[0], r.dwdx.size[1],
      p(r.dwdy), r.dwdy.size[0], r.dwdy.size[1], r.dtime, r.linit, r.on_gpu);
}

// The first run is held inside its first kernel (a Kokkos Tools callback on its thread) until the
// other thread's call has returned: the two calls provably overlap.
std::mutex mutex;
std::condition_variable changed;
bool inside = false, other_done = false;
std::thread::id first_caller;
void hold_first_kernel(const char*, std::uint32_t, std::uint64_t*) {
  if (std::this_thread::get_id() != first_caller) return;
  std::unique_lock<std::mutex> lock(mutex);
  if (inside) return;
  inside = true;
  changed.notify_all();
  changed.wait_for(lock, std::chrono::seconds(60), [] { return other_done; });
}

TEST(icon4py_dropin, a_run_overlapping_another_is_refused_busy_and_the_first_is_untouched) {
  IconArrays a("generate:R2B2", 8);
  ASSERT_EQ(grid_init(a.grid), 1) << icondiff_last_error();
  ASSERT_EQ(diffusion_init(a.diffusion), 1) << icondiff_last_error();
  a.run.linit = 1;
  compat::set_begin_parallel_for_callback(hold_first_kernel);
  int first = 0;
  std::thread caller([&] {
    first_caller = std::this_thread::get_id();
    first = diffusion_run(a.run);
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    EXPECT_TRUE(changed.wait_for(lock, std::chrono::seconds(60), [] { return inside; }))
        << "the first call never reached a kernel";
  }
  const int second = diffusion_run(a.run);
  const std::string message = icondiff_last_error();
  const int init_again = diffusion_init(a.diffusion);
  const std::string init_message = icondiff_last_error();
  {
    std::lock_guard<std::mutex> lock(mutex);
    other_done = true;
  }
  changed.notify_all();
  caller.join();
  compat::set_begin_parallel_for_callback(nullptr);
  EXPECT_EQ(first, 1) << icondiff_last_error();
  EXPECT_EQ(second, 2) << "two overlapping diffusion_run_wrapper calls both went ahead";
  EXPECT_NE(message.find("diffusion_run: the drop-in's granule is busy: another thread is "
                         "inside a call on it"),
            std::string::npos)
      << message;
  EXPECT_EQ(init_again, 2);
  EXPECT_NE(init_message.find("diffusion_init: the drop-in's granule is busy"), std::string::npos)
      << init_message;
  // Only the first run happened, and its result is the C++ path's one call.
  ASSERT_EQ(icon_case_run_reference(1, a.run.dtime), 0);
  a.expect_outputs_equal_reference();
}

}  // namespace
}  // namespace icondiff
