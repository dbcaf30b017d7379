// A granule call as ICON would set it up, for the tests and benchmarks of the C/Fortran API: the
// inputs of a grid (file or generated) from icondiff's factories and a Jablonowski-Williamson
// state, handed out in ICON's shapes (1-based tables with nproma rows, start/end index arrays,
// the zd_* point lists, rbf_vec_coeff_v (6, 2, nproma)) into arrays the caller allocates, and the
// same calls run through the C++ API (the reference every other path must equal bit for bit).
// Padding rows (nproma > points) are filled with a sentinel that must survive every call.
//
// C functions, so that a Fortran driver can use them through bind(c). One case at a time.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* Builds the case: grid_source is a grid file or "generate:RnBk"; MCH R04B09 configuration and
 * vertical grid with nlev levels, JW state with noise. 0 on success (else the message is on
 * stderr). Starts Kokkos (icondiff_initialize) if needed; call icon_case_free before
 * icondiff_finalize. */
int icon_case_create(const char* grid_source, int nlev);
/* The same case on rank `rank`'s part of a decomposition into `num_ranks` (METIS partition and
 * ICON-like halos, comm/decomposition.hpp): the arrays hold the local points with their global
 * indices and owner masks; the reference still runs on the whole grid and compare() checks the
 * owned points at their global indices. */
int icon_case_create_part(const char* grid_source, int nlev, int rank, int num_ranks);
void icon_case_free(void);
void icon_case_sizes(int* num_cells, int* num_edges, int* num_vertices, int* nlev, int* zd_entries);

/* Fill caller arrays in ICON's shapes (Fortran order, first extent `ld`): rows beyond the points
 * get the sentinel. Names are ICON4Py's argument names (grid_init, diffusion_init,
 * diffusion_run). For zd_* the first extent is the list's row count (4, 4, 3) and cols the
 * number of entries; for rbf_vec_coeff_v ld is nproma (shape (6, 2, ld)). 0 on success. */
int icon_case_fill_int(const char* name, int* data, int ld, int cols);
int icon_case_fill_double(const char* name, double* data, int ld, int cols);
int icon_case_fill_bool(const char* name, unsigned char* data, int ld);

/* Scalars of grid_init / diffusion_init by ICON4Py's argument name (flags as 0/1). */
double icon_case_real(const char* name);
int icon_case_int(const char* name);

/* Runs `steps` calls through the C++ API (the first with initial_run) on the case's own state. */
int icon_case_run_reference(int steps, double dtime);

/* Number of values of field `name` (vn, w, theta_v, exner, hdef_ic, div_ic, dwdx, dwdy) in the
 * caller's (ld, cols) array that differ bitwise from the reference, padding rows included (they
 * must still hold the sentinel); prints the first difference. */
int icon_case_compare(const char* name, const double* data, int ld, int cols);

/* max |data - reference| / max |reference| over the points of field `name` (as compare), for
 * implementations that are not bit-identical. */
double icon_case_max_difference(const char* name, const double* data, int ld, int cols);

/* The C++ API's call, for timing it beside the C and Fortran paths: icon_case_cpp_prepare makes a
 * granule through the C++ API on a copy of the case's state (whole grid) and runs the initial
 * call; each icon_case_cpp_call runs one regular call and a fence (what a C++ driver pays per
 * call) and returns its wall time in seconds. */
int icon_case_cpp_prepare(double dtime);
double icon_case_cpp_call(double dtime);

/* The solve_nh granule's part of the case (after icon_case_create or icon_case_create_part): the
 * static fields of every granule on the same grid and vertical grid, ICON4Py's default
 * configuration and a Jablonowski-Williamson state (solve_nh_case.hpp). Afterwards the fill
 * functions also know solve_nh_init's and solve_nh_run's arguments (ICON's shapes: wgtfacq_c/e
 * (nproma, 3) with column j for level nlev + 1 - j, rbf_vec_coeff_e (4, nproma) with ld =
 * nproma, zdiff_gradp/vertidx_gradp (nproma, 2, nlev) with cols = 2 nlev, the pg_* lists of
 * icon_case_int("pg_count") entries with ld = that count, rayleigh_w/scalfac_dd3d with ld = the
 * levels, the IAU increments with a small pattern), grid_init's edge geometry is the real one,
 * icon_case_real/int the solve_nh_init scalars, and compare the solve_nh_run outputs (names as
 * the arguments of the next call after ICON's swaps: rho_now is the state the last substep wrote,
 * ddt_vn_apc_ntl1 the slot it filled in its corrector). */
int icon_case_create_solve_nh(void);

/* The C++ granule on the whole grid: `steps` physics steps of `substeps` substeps (ICON's
 * time-level and tendency-slot swaps after each; solve_nh_case.hpp's substep arguments: the
 * second-order divergence damping and at_initial_timestep in the first step, lprep_adv always),
 * IAU off, max_vcfl carried over from 0. */
int icon_case_run_solve_nh_reference(int steps, int substeps, double dtime);

/* The padding sentinel. */
double icon_case_sentinel(void);

#ifdef __cplusplus
}
#endif
