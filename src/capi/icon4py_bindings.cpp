// ICON4Py 0.2.0's Fortran-binding C functions (icon4py_bindings.h) on icondiff: each packs its
// arguments into the C API's argument struct and calls the handle-based function on the one
// global grid and granule ICON4Py's bindings also keep. Return codes as ICON4Py's: 1 success,
// 2 failure (message on stderr, as ICON4Py logs its exceptions, and in icondiff_last_error()).
#include "capi_errors.hpp"

#include <icondiff/core/error.hpp>

#include <icon4py_bindings.h>
#include <icondiff_c.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace {

constexpr int success = 1;
constexpr int failure = 2;

icondiff_icon_grid* global_grid = nullptr;
icondiff_diffusion* global_granule = nullptr;

int report(const char* function, icondiff_status status) {
  if (status == ICONDIFF_OK) return success;
  std::fprintf(stderr, "icondiff: %s failed: %s\n", function, icondiff_last_error());
  std::fflush(stderr);
  return failure;
}

/// Set while a thread is inside grid_init, diffusion_init or diffusion_run: the drop-in's one
/// grid and granule are global, and a second thread's call is refused (return code 2, "busy")
/// instead of racing with the first (two overlapping runs each returned success with a mixed
/// result before).
std::atomic<bool> busy{false};

/// Holds the drop-in's busy flag for the rest of a wrapper, or says why not (`refused` != 0).
struct Exclusive {
  std::optional<icondiff::capi::BusyGuard> guard;
  int refused = 0;
  explicit Exclusive(const char* function) {
    try {
      guard.emplace(busy, function, "the drop-in's granule");
    } catch (const icondiff::capi::Busy& e) {
      icondiff::capi::set_last_error(e.what());
      refused = report(function, ICONDIFF_BUSY);
    }
  }
};

int refuse(const char* function, const std::string& message) {
  icondiff::capi::set_last_error(std::string(function) + ": " + message);
  return report(function, ICONDIFF_INVALID_ARGUMENT);
}

/// ICONDIFF_SAVEPOINT_DIR / _CALL / ICONDIFF_GRID_SOURCE: savepoints of one run of the global
/// granule without changing the host model's code.
int capture_from_environment() {
  const char* directory = std::getenv("ICONDIFF_SAVEPOINT_DIR");
  if (directory == nullptr || *directory == '\0') return success;
  const char* call_text = std::getenv("ICONDIFF_SAVEPOINT_CALL");
  const std::string call_string = call_text ? call_text : "1";
  char* end = nullptr;
  const long call = std::strtol(call_string.c_str(), &end, 10);
  if (end == call_string.c_str() || *end != '\0' || call < 1 || call > 1000000000)
    return refuse("diffusion_init",
                  "ICONDIFF_SAVEPOINT_CALL = '" + call_string + "' is not a call number >= 1");
  return report("diffusion_init", icondiff_diffusion_capture_savepoints(
                                      global_granule, directory, static_cast<int>(call),
                                      std::getenv("ICONDIFF_GRID_SOURCE")));
}

icondiff_array array(void* data, int size_0, int size_1 = 0, int size_2 = 0) {
  // ICON4Py leaves the sizes of an absent optional array unset: never read them.
  if (data == nullptr) return icondiff_array{nullptr, {0, 0, 0}};
  return icondiff_array{data, {size_0, size_1, size_2}};
}

}  // namespace

extern "C" {

int grid_init_wrapper(
    int* cell_starts, int cell_starts_size_0, int* cell_ends, int cell_ends_size_0,
    int* vertex_starts, int vertex_starts_size_0, int* vertex_ends, int vertex_ends_size_0,
    int* edge_starts, int edge_starts_size_0, int* edge_ends, int edge_ends_size_0, int* c2e,
    int c2e_size_0, int c2e_size_1, int* e2c, int e2c_size_0, int e2c_size_1, int* c2e2c,
    int c2e2c_size_0, int c2e2c_size_1, int* e2c2e, int e2c2e_size_0, int e2c2e_size_1, int* e2v,
    int e2v_size_0, int e2v_size_1, int* v2e, int v2e_size_0, int v2e_size_1, int* v2c,
    int v2c_size_0, int v2c_size_1, int* e2c2v, int e2c2v_size_0, int e2c2v_size_1, int* c2v,
    int c2v_size_0, int c2v_size_1, unsigned char* c_owner_mask, int c_owner_mask_size_0,
    unsigned char* e_owner_mask, int e_owner_mask_size_0, unsigned char* v_owner_mask,
    int v_owner_mask_size_0, int* c_glb_index, int c_glb_index_size_0, int* e_glb_index,
    int e_glb_index_size_0, int* v_glb_index, int v_glb_index_size_0, double* tangent_orientation,
    int tangent_orientation_size_0, double* inverse_primal_edge_lengths,
    int inverse_primal_edge_lengths_size_0, double* inv_dual_edge_length,
    int inv_dual_edge_length_size_0, double* inv_vert_vert_length, int inv_vert_vert_length_size_0,
    double* edge_areas, int edge_areas_size_0, double* f_e, int f_e_size_0, double* cell_center_lat,
    int cell_center_lat_size_0, double* cell_center_lon, int cell_center_lon_size_0,
    double* cell_areas, int cell_areas_size_0, double* primal_normal_vert_x,
    int primal_normal_vert_x_size_0, int primal_normal_vert_x_size_1, double* primal_normal_vert_y,
    int primal_normal_vert_y_size_0, int primal_normal_vert_y_size_1, double* dual_normal_vert_x,
    int dual_normal_vert_x_size_0, int dual_normal_vert_x_size_1, double* dual_normal_vert_y,
    int dual_normal_vert_y_size_0, int dual_normal_vert_y_size_1, double* primal_normal_cell_x,
    int primal_normal_cell_x_size_0, int primal_normal_cell_x_size_1, double* primal_normal_cell_y,
    int primal_normal_cell_y_size_0, int primal_normal_cell_y_size_1, double* dual_normal_cell_x,
    int dual_normal_cell_x_size_0, int dual_normal_cell_x_size_1, double* dual_normal_cell_y,
    int dual_normal_cell_y_size_0, int dual_normal_cell_y_size_1, double* edge_center_lat,
    int edge_center_lat_size_0, double* edge_center_lon, int edge_center_lon_size_0,
    double* primal_normal_x, int primal_normal_x_size_0, double* primal_normal_y,
    int primal_normal_y_size_0, double* vct_a, int vct_a_size_0, double lowest_layer_thickness,
    double model_top_height, double stretch_factor, double flat_height,
    double rayleigh_damping_height, double mean_cell_area, int comm_id, int num_vertices,
    int num_cells, int num_edges, int vertical_size, unsigned char limited_area, int backend,
    unsigned char on_gpu) {
  const Exclusive exclusive("grid_init");
  if (exclusive.refused) return exclusive.refused;
  if (global_grid != nullptr)
    return refuse("grid_init",
                  "called a second time; icondiff's drop-in bindings hold one grid and one "
                  "granule (the icondiff module's handles allow several)");
  const icondiff_icon_grid_args a{
      array(cell_starts, cell_starts_size_0),
      array(cell_ends, cell_ends_size_0),
      array(vertex_starts, vertex_starts_size_0),
      array(vertex_ends, vertex_ends_size_0),
      array(edge_starts, edge_starts_size_0),
      array(edge_ends, edge_ends_size_0),
      array(c2e, c2e_size_0, c2e_size_1),
      array(e2c, e2c_size_0, e2c_size_1),
      array(c2e2c, c2e2c_size_0, c2e2c_size_1),
      array(e2c2e, e2c2e_size_0, e2c2e_size_1),
      array(e2v, e2v_size_0, e2v_size_1),
      array(v2e, v2e_size_0, v2e_size_1),
      array(v2c, v2c_size_0, v2c_size_1),
      array(e2c2v, e2c2v_size_0, e2c2v_size_1),
      array(c2v, c2v_size_0, c2v_size_1),
      array(c_owner_mask, c_owner_mask_size_0),
      array(e_owner_mask, e_owner_mask_size_0),
      array(v_owner_mask, v_owner_mask_size_0),
      array(c_glb_index, c_glb_index_size_0),
      array(e_glb_index, e_glb_index_size_0),
      array(v_glb_index, v_glb_index_size_0),
      array(tangent_orientation, tangent_orientation_size_0),
      array(inverse_primal_edge_lengths, inverse_primal_edge_lengths_size_0),
      array(inv_dual_edge_length, inv_dual_edge_length_size_0),
      array(inv_vert_vert_length, inv_vert_vert_length_size_0),
      array(edge_areas, edge_areas_size_0),
      array(f_e, f_e_size_0),
      array(cell_center_lat, cell_center_lat_size_0),
      array(cell_center_lon, cell_center_lon_size_0),
      array(cell_areas, cell_areas_size_0),
      array(primal_normal_vert_x, primal_normal_vert_x_size_0, primal_normal_vert_x_size_1),
      array(primal_normal_vert_y, primal_normal_vert_y_size_0, primal_normal_vert_y_size_1),
      array(dual_normal_vert_x, dual_normal_vert_x_size_0, dual_normal_vert_x_size_1),
      array(dual_normal_vert_y, dual_normal_vert_y_size_0, dual_normal_vert_y_size_1),
      array(primal_normal_cell_x, primal_normal_cell_x_size_0, primal_normal_cell_x_size_1),
      array(primal_normal_cell_y, primal_normal_cell_y_size_0, primal_normal_cell_y_size_1),
      array(dual_normal_cell_x, dual_normal_cell_x_size_0, dual_normal_cell_x_size_1),
      array(dual_normal_cell_y, dual_normal_cell_y_size_0, dual_normal_cell_y_size_1),
      array(edge_center_lat, edge_center_lat_size_0),
      array(edge_center_lon, edge_center_lon_size_0),
      array(primal_normal_x, primal_normal_x_size_0),
      array(primal_normal_y, primal_normal_y_size_0),
      array(vct_a, vct_a_size_0),
      lowest_layer_thickness,
      model_top_height,
      stretch_factor,
      flat_height,
      rayleigh_damping_height,
      mean_cell_area,
      comm_id,
      num_vertices,
      num_cells,
      num_edges,
      vertical_size,
      limited_area,
      backend,
      on_gpu};
  return report("grid_init", icondiff_icon_grid_create(&a, &global_grid));
}

int diffusion_init_wrapper(
    double* theta_ref_mc, int theta_ref_mc_size_0, int theta_ref_mc_size_1, double* wgtfac_c,
    int wgtfac_c_size_0, int wgtfac_c_size_1, double* e_bln_c_s, int e_bln_c_s_size_0,
    int e_bln_c_s_size_1, double* geofac_div, int geofac_div_size_0, int geofac_div_size_1,
    double* geofac_grg_x, int geofac_grg_x_size_0, int geofac_grg_x_size_1, double* geofac_grg_y,
    int geofac_grg_y_size_0, int geofac_grg_y_size_1, double* geofac_n2s, int geofac_n2s_size_0,
    int geofac_n2s_size_1, double* nudgecoeff_e, int nudgecoeff_e_size_0, double* rbf_vec_coeff_v,
    int rbf_vec_coeff_v_size_0, int rbf_vec_coeff_v_size_1, int rbf_vec_coeff_v_size_2,
    int* zd_cellidx, int zd_cellidx_size_0, int zd_cellidx_size_1, int* zd_vertidx,
    int zd_vertidx_size_0, int zd_vertidx_size_1, double* zd_intcoef, int zd_intcoef_size_0,
    int zd_intcoef_size_1, double* zd_diffcoef, int zd_diffcoef_size_0, int ndyn_substeps,
    int diffusion_type, unsigned char hdiff_w, unsigned char hdiff_vn, unsigned char hdiff_smag_w,
    unsigned char zdiffu_t, int type_t_diffu, int type_vn_diffu, double hdiff_efdt_ratio,
    double hdiff_w_efdt_ratio, double smagorinski_scaling_factor,
    double smagorinski_scaling_factor2, double smagorinski_scaling_factor3,
    double smagorinski_scaling_factor4, double smagorinski_scaling_height,
    double smagorinski_scaling_height2, double smagorinski_scaling_height3,
    double smagorinski_scaling_height4, unsigned char hdiff_temp, double denom_diffu_v,
    double nudge_max_coeff, int itype_sher, int iforcing, double a_hshr, unsigned char loutshs,
    int backend, unsigned char on_gpu) {
  const Exclusive exclusive("diffusion_init");
  if (exclusive.refused) return exclusive.refused;
  if (global_grid == nullptr)
    return refuse("diffusion_init",
                  "the grid is not initialised: call grid_init successfully first");
  if (global_granule != nullptr)
    return refuse("diffusion_init",
                  "called a second time; icondiff's drop-in bindings hold one granule (the "
                  "icondiff module's handles allow several)");
  const icondiff_diffusion_args a{array(theta_ref_mc, theta_ref_mc_size_0, theta_ref_mc_size_1),
                                  array(wgtfac_c, wgtfac_c_size_0, wgtfac_c_size_1),
                                  array(e_bln_c_s, e_bln_c_s_size_0, e_bln_c_s_size_1),
                                  array(geofac_div, geofac_div_size_0, geofac_div_size_1),
                                  array(geofac_grg_x, geofac_grg_x_size_0, geofac_grg_x_size_1),
                                  array(geofac_grg_y, geofac_grg_y_size_0, geofac_grg_y_size_1),
                                  array(geofac_n2s, geofac_n2s_size_0, geofac_n2s_size_1),
                                  array(nudgecoeff_e, nudgecoeff_e_size_0),
                                  array(rbf_vec_coeff_v, rbf_vec_coeff_v_size_0,
                                        rbf_vec_coeff_v_size_1, rbf_vec_coeff_v_size_2),
                                  array(zd_cellidx, zd_cellidx_size_0, zd_cellidx_size_1),
                                  array(zd_vertidx, zd_vertidx_size_0, zd_vertidx_size_1),
                                  array(zd_intcoef, zd_intcoef_size_0, zd_intcoef_size_1),
                                  array(zd_diffcoef, zd_diffcoef_size_0),
                                  ndyn_substeps,
                                  diffusion_type,
                                  hdiff_w,
                                  hdiff_vn,
                                  hdiff_smag_w,
                                  zdiffu_t,
                                  type_t_diffu,
                                  type_vn_diffu,
                                  hdiff_efdt_ratio,
                                  hdiff_w_efdt_ratio,
                                  smagorinski_scaling_factor,
                                  smagorinski_scaling_factor2,
                                  smagorinski_scaling_factor3,
                                  smagorinski_scaling_factor4,
                                  smagorinski_scaling_height,
                                  smagorinski_scaling_height2,
                                  smagorinski_scaling_height3,
                                  smagorinski_scaling_height4,
                                  hdiff_temp,
                                  denom_diffu_v,
                                  nudge_max_coeff,
                                  itype_sher,
                                  iforcing,
                                  a_hshr,
                                  loutshs,
                                  backend,
                                  on_gpu};
  const int rc =
      report("diffusion_init", icondiff_diffusion_create(global_grid, &a, &global_granule));
  if (rc != success) return rc;
  return capture_from_environment();
}

int diffusion_run_wrapper(double* w, int w_size_0, int w_size_1, double* vn, int vn_size_0,
                          int vn_size_1, double* exner, int exner_size_0, int exner_size_1,
                          double* theta_v, int theta_v_size_0, int theta_v_size_1, double* rho,
                          int rho_size_0, int rho_size_1, double* hdef_ic, int hdef_ic_size_0,
                          int hdef_ic_size_1, double* div_ic, int div_ic_size_0, int div_ic_size_1,
                          double* dwdx, int dwdx_size_0, int dwdx_size_1, double* dwdy,
                          int dwdy_size_0, int dwdy_size_1, double dtime, unsigned char linit,
                          unsigned char on_gpu) {
  const Exclusive exclusive("diffusion_run");
  if (exclusive.refused) return exclusive.refused;
  if (global_granule == nullptr)
    return refuse("diffusion_run",
                  "the granule is not initialised: call grid_init and diffusion_init "
                  "successfully first");
  const icondiff_run_args a{array(w, w_size_0, w_size_1),
                            array(vn, vn_size_0, vn_size_1),
                            array(exner, exner_size_0, exner_size_1),
                            array(theta_v, theta_v_size_0, theta_v_size_1),
                            array(rho, rho_size_0, rho_size_1),
                            array(hdef_ic, hdef_ic_size_0, hdef_ic_size_1),
                            array(div_ic, div_ic_size_0, div_ic_size_1),
                            array(dwdx, dwdx_size_0, dwdx_size_1),
                            array(dwdy, dwdy_size_0, dwdy_size_1),
                            dtime,
                            linit,
                            on_gpu};
  return report("diffusion_run", icondiff_diffusion_run(global_granule, &a));
}

/// The drop-in's global granule (for savepoints and tests; not part of ICON4Py's bindings).
icondiff_diffusion* icondiff_icon4py_bindings_granule(void) {
  return global_granule;
}

}  // extern "C"
