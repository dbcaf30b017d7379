/* icondiff C API: the entry point for Fortran (module `icondiff`, icondiff.f90) and other
 * languages.
 *
 * Every function returns an icondiff_status; on failure icondiff_last_error() holds a message that
 * names what was wrong (argument, sizes, file, variable, index, expected value). No function
 * aborts the caller and no C++ exception crosses this boundary.
 *
 * Two parts:
 *  - grid files: read an ICON grid file and ask for its sizes and zones (0-based, half-open
 *    [start, end) ranges, as in the C++ API; the Fortran module converts them to 1-based ranges);
 *  - the diffusion granule on ICON's own arrays, with explicit handles (several granules, e.g. one
 *    per domain): icondiff_icon_grid_create (ICON4Py's grid_init), icondiff_diffusion_create
 *    (diffusion_init), icondiff_diffusion_run (diffusion_run). The argument structs hold exactly
 *    what ICON4Py 0.2.0's bindings take, under the same names and meanings; icon4py_bindings.h
 *    declares the drop-in functions with ICON4Py's own signatures on top of these.
 *
 * Arrays come as icondiff_array: the address of the first element and the Fortran extents
 * (SIZE(x, 1), SIZE(x, 2), SIZE(x, 3); unused extents 0), column-major, the first index (ICON's
 * nproma, >= the number of points) fastest. Connectivity tables, start/end index arrays and
 * global indices are 1-based as ICON holds them. Booleans are unsigned char (any non-zero value is
 * true: NVHPC writes .TRUE. as -1).
 *
 * Memory: icondiff_icon_grid_create and icondiff_diffusion_create copy what they need (the caller
 * may free or reuse every array afterwards); icondiff_diffusion_run works in place on the
 * caller's arrays (zero copy) and returns when the results are in them. */
#ifndef ICONDIFF_C_H
#define ICONDIFF_C_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum icondiff_status {
  ICONDIFF_OK = 0,
  ICONDIFF_INVALID_ARGUMENT = 1, /* null pointer, wrong size, call out of order */
  ICONDIFF_GRID_ERROR = 2,       /* unreadable, truncated or inconsistent grid */
  ICONDIFF_CONFIG_ERROR = 3,     /* configuration out of range or not implemented */
  ICONDIFF_BUSY = 4,             /* another thread is inside a call on the same handle */
  ICONDIFF_INTERNAL_ERROR = 99   /* anything else (out of memory, ...) */
} icondiff_status;

/* Locations and zones, numbered as in the C++ enums icondiff::Location and icondiff::Zone. */
enum { ICONDIFF_CELL = 0, ICONDIFF_EDGE = 1, ICONDIFF_VERTEX = 2 };
enum {
  ICONDIFF_ZONE_LATERAL_BOUNDARY_1 = 0, /* ..._8 = 7 (edges), rows 1..4 for cells and vertices */
  ICONDIFF_ZONE_NUDGING = 8,
  ICONDIFF_ZONE_NUDGING_2 = 9,
  ICONDIFF_ZONE_INTERIOR = 10,
  ICONDIFF_ZONE_LOCAL = 11,
  ICONDIFF_ZONE_HALO = 12,
  ICONDIFF_ZONE_HALO_2 = 13,
  ICONDIFF_ZONE_END = 14
};

/* The message of the last failed call on this thread ("" if none). */
const char* icondiff_last_error(void);

void icondiff_version(int* major, int* minor, int* patch);

/* ---- Kokkos lifetime ------------------------------------------------------------------------
 * icondiff_initialize starts Kokkos unless it runs already (then it does nothing); any creating
 * call starts it on its own if needed. icondiff_finalize frees every granule and grid handle still
 * alive and finalizes Kokkos if icondiff started it; afterwards icondiff_initialize may start it
 * again. Both are idempotent and independent of MPI (call them before or after MPI_Init /
 * MPI_Finalize). A program that never calls icondiff_finalize gets it at exit. */
icondiff_status icondiff_initialize(void);
icondiff_status icondiff_finalize(void);
int icondiff_is_initialized(void);

/* ---- Grid files ------------------------------------------------------------------------------ */
typedef struct icondiff_grid icondiff_grid; /* opaque */

/* Reads an ICON grid netCDF file. On success *grid must be released with icondiff_grid_free. */
icondiff_status icondiff_grid_read(const char* path, icondiff_grid** grid);
void icondiff_grid_free(icondiff_grid* grid);

icondiff_status icondiff_grid_sizes(const icondiff_grid* grid, int* num_cells, int* num_edges,
                                    int* num_vertices, int* limited_area);

/* The [start, end) range of a zone (0-based). */
icondiff_status icondiff_grid_zone(const icondiff_grid* grid, int location, int zone, int* start,
                                   int* end);

/* ---- The diffusion granule on ICON's arrays ---------------------------------------------------
 */

/* One array from Fortran: first element and extents. */
typedef struct icondiff_array {
  void* data;
  int size[3];
} icondiff_array;

/* ICON4Py 0.2.0 grid_init's arguments (icon4py.bindings.grid_wrapper.grid_init), same order. */
typedef struct icondiff_icon_grid_args {
  /* ICON's start_index/end_index(min_rl:max_rl) per location: int, 14 / 24 / 13 values. */
  icondiff_array cell_starts, cell_ends, vertex_starts, vertex_ends, edge_starts, edge_ends;
  /* Connectivity (nproma, slots), int, 1-based; e2v may be e2c2v (only its first 2 columns are
   * read). */
  icondiff_array c2e, e2c, c2e2c, e2c2e, e2v, v2e, v2c, e2c2v, c2v;
  /* Decomposition: owner masks (unsigned char) and 1-based global indices (int) per point. */
  icondiff_array c_owner_mask, e_owner_mask, v_owner_mask;
  icondiff_array c_glb_index, e_glb_index, v_glb_index;
  /* Geometry (double): edges (nproma) */
  icondiff_array tangent_orientation, inverse_primal_edge_lengths, inv_dual_edge_length,
      inv_vert_vert_length, edge_areas, f_e;
  /* cells (nproma) */
  icondiff_array cell_center_lat, cell_center_lon, cell_areas;
  /* edges x diamond vertices (nproma, 4) and edges x cells (nproma, 2) */
  icondiff_array primal_normal_vert_x, primal_normal_vert_y, dual_normal_vert_x, dual_normal_vert_y;
  icondiff_array primal_normal_cell_x, primal_normal_cell_y, dual_normal_cell_x, dual_normal_cell_y;
  /* edges (nproma) */
  icondiff_array edge_center_lat, edge_center_lon, primal_normal_x, primal_normal_y;
  /* Vertical grid: vct_a (nlev + 1 half-level heights, model top first) and its parameters. */
  icondiff_array vct_a;
  double lowest_layer_thickness, model_top_height, stretch_factor, flat_height,
      rayleigh_damping_height, mean_cell_area;
  int comm_id; /* Fortran MPI communicator (MPI_Comm_c2f) */
  int num_vertices, num_cells, num_edges, vertical_size;
  unsigned char limited_area;
  int backend;          /* ICON4Py's backend selector: 0 default, 1 dace, 2 gtfn (all: icondiff) */
  unsigned char on_gpu; /* the MAYBE_DEVICE arrays are device pointers (OpenACC host_data) */
} icondiff_icon_grid_args;

/* ICON4Py 0.2.0 diffusion_init's arguments (icon4py.bindings.diffusion_wrapper), same order. */
typedef struct icondiff_diffusion_args {
  icondiff_array theta_ref_mc;                           /* (nproma, nlev) */
  icondiff_array wgtfac_c;                               /* (nproma, nlev + 1): gives nlev */
  icondiff_array e_bln_c_s, geofac_div;                  /* (nproma, 3) */
  icondiff_array geofac_grg_x, geofac_grg_y, geofac_n2s; /* (nproma, 4) */
  icondiff_array nudgecoeff_e;                           /* (nproma) */
  icondiff_array rbf_vec_coeff_v;                        /* (6, 2, nproma), ICON's shape */
  /* Truly horizontal temperature diffusion lists as ICON holds them (p_nh_metrics%zd_*), 1-based;
   * data NULL when zdiffu_t is off or the list is empty on this rank: zd_cellidx (4, n) (row 1:
   * the cell), zd_vertidx (4, n) (row 1: the cell's level, rows 2-4: its neighbours' levels),
   * zd_intcoef (3, n), zd_diffcoef (n). */
  icondiff_array zd_cellidx, zd_vertidx, zd_intcoef, zd_diffcoef;
  int ndyn_substeps, diffusion_type;
  unsigned char hdiff_w, hdiff_vn, hdiff_smag_w, zdiffu_t;
  int type_t_diffu, type_vn_diffu;
  double hdiff_efdt_ratio, hdiff_w_efdt_ratio;
  double smagorinski_scaling_factor, smagorinski_scaling_factor2, smagorinski_scaling_factor3,
      smagorinski_scaling_factor4;
  double smagorinski_scaling_height, smagorinski_scaling_height2, smagorinski_scaling_height3,
      smagorinski_scaling_height4;
  unsigned char hdiff_temp;
  double denom_diffu_v;
  double nudge_max_coeff; /* as ICON passes it: the namelist value times 5 */
  int itype_sher, iforcing;
  double a_hshr;
  unsigned char loutshs;
  int backend;
  unsigned char on_gpu;
} icondiff_diffusion_args;

/* ICON4Py 0.2.0 diffusion_run's arguments. Fields (nproma, nlev) or, for w and the diagnostics,
 * (nproma, nlev + 1); the diagnostics may have data NULL (then icondiff writes them to fields of
 * its own, as ICON4Py does). rho is checked, not used (the granule does not read it). */
typedef struct icondiff_run_args {
  icondiff_array w, vn, exner, theta_v, rho;
  icondiff_array hdef_ic, div_ic, dwdx, dwdy;
  double dtime;
  unsigned char linit;
  unsigned char on_gpu;
} icondiff_run_args;

/* ICON4Py 0.2.0 solve_nh_init's arguments (icon4py.bindings.dycore_wrapper), same order. Every
 * array as ICON holds it, first extent nproma (>= the points of its location) unless said:
 * cells (nproma[, n]), edges (nproma[, n]), vertices (nproma, n); levels nlev, or nlev + 1 for
 * half-level fields. The static fields are copied; those diffusion_init got as well (same values)
 * are held once. */
typedef struct icondiff_solve_nh_args {
  icondiff_array c_lin_e;                                /* (edges, 2) */
  icondiff_array c_intp;                                 /* (vertices, 6) */
  icondiff_array e_flx_avg, geofac_grdiv;                /* (edges, 5) */
  icondiff_array geofac_rot;                             /* (vertices, 6) */
  icondiff_array pos_on_tplane_e_1, pos_on_tplane_e_2;   /* (edges, >= 2): columns 1:2 are read */
  icondiff_array rbf_vec_coeff_e;                        /* (4, edges), ICON's shape */
  icondiff_array e_bln_c_s;                              /* (cells, 3) */
  icondiff_array rbf_vec_coeff_v;                        /* (6, 2, vertices), ICON's shape */
  icondiff_array geofac_div;                             /* (cells, 3) */
  icondiff_array geofac_n2s, geofac_grg_x, geofac_grg_y; /* (cells, 4) */
  icondiff_array nudgecoeff_e;                           /* (edges) */
  icondiff_array mask_prog_halo_c;                       /* (cells), unsigned char */
  icondiff_array rayleigh_w;                             /* (nlev + 1) */
  icondiff_array exner_exfac, exner_ref_mc;              /* (cells, nlev) */
  icondiff_array wgtfac_c;                               /* (cells, nlev + 1) */
  icondiff_array wgtfacq_c; /* (cells, 3): levels nlev, nlev-1, nlev-2 */
  icondiff_array inv_ddqz_z_full, rho_ref_mc, theta_ref_mc;    /* (cells, nlev) */
  icondiff_array vwind_expl_wgt;                               /* (cells) */
  icondiff_array d_exner_dz_ref_ic, ddqz_z_half, theta_ref_ic; /* (cells, nlev + 1) */
  icondiff_array d2dexdz2_fac1_mc, d2dexdz2_fac2_mc;           /* (cells, nlev) */
  icondiff_array rho_ref_me, theta_ref_me, ddxn_z_full;        /* (edges, nlev) */
  icondiff_array zdiff_gradp;                                  /* (edges, 2, nlev) */
  icondiff_array vertidx_gradp; /* (edges, 2, nlev), int, 1-based levels */
  /* The hydrostatic correction's point list, 1-based, all three NULL or all three of one length
   * n (as ICON's p_nh_metrics%pg_edgeidx/pg_vertidx/pg_exdist): (n) int, (n) int, (n) double. */
  icondiff_array pg_edgeidx, pg_vertidx, pg_exdist;
  icondiff_array ddqz_z_full_e, ddxt_z_full; /* (edges, nlev) */
  icondiff_array wgtfac_e;                   /* (edges, nlev + 1) */
  icondiff_array wgtfacq_e;                  /* (edges, 3): levels nlev, nlev-1, nlev-2 */
  icondiff_array vwind_impl_wgt;             /* (cells) */
  icondiff_array hmask_dd3d;                 /* (edges) */
  icondiff_array scalfac_dd3d;               /* (nlev) */
  icondiff_array coeff1_dwdz, coeff2_dwdz;   /* (cells, nlev) */
  icondiff_array coeff_gradekin;             /* (edges, 2) */
  icondiff_array c_owner_mask;               /* (cells), unsigned char */
  /* nonhydrostatic_nml and friends, as ICON passes them to ICON4Py. */
  int itime_scheme, iadv_rhotheta, igradp_method, rayleigh_type, divdamp_order, divdamp_type;
  unsigned char l_vert_nested, ldeepatmo, iau_init, extra_diffu;
  double rhotheta_offctr, veladv_offctr;
  double nudge_max_coeff; /* as ICON passes it: the namelist value times 5 */
  double divdamp_fac, divdamp_fac2, divdamp_fac3, divdamp_fac4;
  double divdamp_z, divdamp_z2, divdamp_z3, divdamp_z4;
  int nflat_gradp; /* 1-based, as ICON's */
  int backend;
  unsigned char on_gpu;
} icondiff_solve_nh_args;

/* ICON4Py 0.2.0 solve_nh_run's arguments: one dynamics substep in place on the caller's arrays.
 * Cell fields (nproma, nlev) or (nproma, nlev + 1) for w, w_concorr_c, ddt_w_adv_*, theta_v_ic,
 * rho_ic, grf_tend_w, mass_flx_ic, vol_flx_ic; edge fields (nproma, nlev) or (nproma, nlev + 1)
 * for vn_ie. vn_incr, rho_incr, exner_incr may be NULL (zeros; needed only with is_iau_active).
 * max_vcfl_size1_array: one double in host memory, in and out. */
typedef struct icondiff_solve_nh_run_args {
  icondiff_array rho_now, rho_new, exner_now, exner_new, w_now, w_new, theta_v_now, theta_v_new;
  icondiff_array vn_now, vn_new;
  icondiff_array w_concorr_c, ddt_vn_apc_ntl1, ddt_vn_apc_ntl2, ddt_w_adv_ntl1, ddt_w_adv_ntl2;
  icondiff_array theta_v_ic, rho_ic, exner_pr, exner_dyn_incr, ddt_exner_phy;
  icondiff_array grf_tend_rho, grf_tend_thv, grf_tend_w, mass_fl_e, ddt_vn_phy, grf_tend_vn;
  icondiff_array vn_ie, vt;
  icondiff_array vn_incr, rho_incr, exner_incr;
  icondiff_array mass_flx_me, mass_flx_ic, vol_flx_ic, vn_traj;
  double dtime;
  icondiff_array max_vcfl_size1_array;
  unsigned char lprep_adv, at_initial_timestep;
  double divdamp_fac_o2;
  int ndyn_substeps_var, idyn_timestep; /* idyn_timestep 1-based: 1..ndyn_substeps_var */
  unsigned char is_iau_active;
  double iau_wgt_dyn;
  unsigned char on_gpu;
} icondiff_solve_nh_run_args;

typedef struct icondiff_icon_grid icondiff_icon_grid; /* opaque */
typedef struct icondiff_diffusion icondiff_diffusion; /* opaque */
typedef struct icondiff_solve_nh icondiff_solve_nh;   /* opaque */

/* The grid, geometry and vertical grid of ICON4Py's grid_init. Release with
 * icondiff_icon_grid_free (granules created on it keep what they need). */
icondiff_status icondiff_icon_grid_create(const icondiff_icon_grid_args* args,
                                          icondiff_icon_grid** grid);
void icondiff_icon_grid_free(icondiff_icon_grid* grid);

/* A diffusion granule on `grid` (ICON4Py's diffusion_init). Release with
 * icondiff_diffusion_free. */
icondiff_status icondiff_diffusion_create(const icondiff_icon_grid* grid,
                                          const icondiff_diffusion_args* args,
                                          icondiff_diffusion** granule);
void icondiff_diffusion_free(icondiff_diffusion* granule);

/* One diffusion step in place on the caller's arrays (ICON4Py's diffusion_run). */
icondiff_status icondiff_diffusion_run(icondiff_diffusion* granule, const icondiff_run_args* args);

/* The halo exchange of theta_v, exner and w in the arrays of `args` (the other members are not
 * read), which ICON's dycore does between diffusion calls; for a driver that stands in for the
 * rest of the model on a decomposed grid (the granule itself leaves it out after a regular call
 * with NWP or AES physics, as ICON). Collective over the grid's ranks; nothing on one rank. */
icondiff_status icondiff_diffusion_exchange_halos(icondiff_diffusion* granule,
                                                  const icondiff_run_args* args);

/* Savepoints: the init/exit pair of the `call`-th run of this granule (1-based, counted from its
 * creation: icondiff_diffusion_calls + 1 is the next run) is written to
 * DIR/diffusion-init.nc and DIR/diffusion-exit.nc (on a decomposed grid
 * DIR/diffusion-{init,exit}.rank<r>.nc); `grid_source` (may be NULL or "") names the grid file
 * ICON read, for `icondiff verify`. call = 0 switches capture off. The directory must exist. */
icondiff_status icondiff_diffusion_capture_savepoints(icondiff_diffusion* granule,
                                                      const char* directory, int call,
                                                      const char* grid_source);

/* The granule the ICON4Py drop-in functions (icon4py_bindings.h) created in diffusion_init, NULL
 * before (e.g. for icondiff_diffusion_capture_savepoints). Defined in libicondiff_icon4py_bindings.
 * The drop-in also captures savepoints without code changes: ICONDIFF_SAVEPOINT_DIR=DIR and
 * ICONDIFF_SAVEPOINT_CALL=N (and ICONDIFF_GRID_SOURCE=FILE) in the environment of diffusion_init.
 */
icondiff_diffusion* icondiff_icon4py_bindings_granule(void);

/* How many times run has been called on this granule (successful calls). */
icondiff_status icondiff_diffusion_calls(const icondiff_diffusion* granule, int* calls);

/* sizeof of the argument structs, so a Fortran or other binding can check its mirror of them. */
void icondiff_args_sizes(int* array, int* grid_args, int* diffusion_args, int* run_args);

/* A solve_nh granule on `grid` (ICON4Py's solve_nh_init). Release with icondiff_solve_nh_free. */
icondiff_status icondiff_solve_nh_create(const icondiff_icon_grid* grid,
                                         const icondiff_solve_nh_args* args,
                                         icondiff_solve_nh** granule);
void icondiff_solve_nh_free(icondiff_solve_nh* granule);

/* One dynamics substep in place on the caller's arrays (ICON4Py's solve_nh_run). Collective over
 * the grid's ranks on a decomposed grid. */
icondiff_status icondiff_solve_nh_run(icondiff_solve_nh* granule,
                                      const icondiff_solve_nh_run_args* args);

/* How many times run has been called on this granule (successful calls). */
icondiff_status icondiff_solve_nh_calls(const icondiff_solve_nh* granule, int* calls);

/* The solve_nh granule the drop-in's solve_nh_init created, NULL before. Defined in
 * libicondiff_icon4py_bindings. */
icondiff_solve_nh* icondiff_icon4py_bindings_solve_nh(void);

/* sizeof of the solve_nh argument structs (as icondiff_args_sizes). */
void icondiff_solve_nh_args_sizes(int* init_args, int* run_args);

#ifdef __cplusplus
}
#endif

#endif /* ICONDIFF_C_H */
