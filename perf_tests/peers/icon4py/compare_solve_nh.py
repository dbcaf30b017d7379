#!/usr/bin/env python3
"""icondiff's solve_nh granule against ICON4Py 0.2.0's SolveNonhydro.time_step, bit for bit.

icondiff's side: ``SolveNonhydro<ExecSpace>`` (include/icondiff/dycore/solve_nonhydro.hpp) run by
stencil_runner/icondiff_solve_nh_runner (its header comment has the file formats). ICON4Py's side:
``icon4py.model.atmosphere.dycore.solve_nonhydro.SolveNonhydro`` from icon4py-atmosphere-dycore
0.2.0 on the gtfn_cpu backend, single node (``decomposition.single_node_exchange``), built from
the same inputs as ICON4Py's Fortran binding builds it (bindings/dycore_wrapper.py
``solve_nh_init`` / ``solve_nh_run``).

``--backend embedded`` runs the same SolveNonhydro on gt4py's embedded backend (ICON4Py's
backend=None: ICON4Py's field operators executed in numpy, nothing compiled; the quick case takes
about 20 s instead of gtfn's 23-31 minutes of compiling with a cold cache). gt4py 1.1.10's
embedded execution cannot run SolveNonhydro as it is (ICON4Py 0.2.0 marks these tests
``embedded_remap_error``); embedded_fixes.py fills the four gaps (neighbour tables to the same
location, concat_where on a domain, as_offset, scans over the arguments' levels) without changing
an arithmetic operation. ICON4Py's exp and log are then numpy's: its AVX-512 kernels differ from
glibc's (which gtfn's C++ and icondiff call) by 1 ulp in exner at about 2 % of the points of
every substep, so the script re-runs itself with numpy's SIMD kernels disabled
(NPY_DISABLE_CPU_FEATURES; ``--numpy-simd on`` keeps them). Measured on the 2-core VM
(2026-11-28): the quick case and the 20-level matrix (3 grids x dd24/dd4-iau) bit-identical,
likewise gen-R2B4 x 65 dd4-iau (CFL clipping active, max_vertical_cfl 0.6974 on both sides).
``--statics-source icon4py`` still computes ICON4Py's statics with its factories on gtfn_cpu.

For each grid -- the real global R02B03 and limited-area R19B04 files in ../shared/data/grids and
a global R2B4 written by ``icondiff grid-info --write`` -- at 65 levels (--nlev):

1. **Statics.** ``icondiff grid-info --grid G --nlev N --statics FILE`` (icondiff's factories: the
   vertical grid of ``icondiff run``, top 23 km, lowest layer 20 m, and its Gaussian hill, 4 km
   high, 200 km half width, at 8 E 46.5 N: topography on every grid). With ``--statics-source
   icon4py`` (or ``both``) the file is written instead from ICON4Py's own GridGeometry,
   InterpolationFieldsFactory and MetricsFieldsFactory (compare_factories.icon4py_statics, the
   same vertical grid and hill, ICON4Py's MetricsConfig defaults) in icondiff's format (names,
   (level, slot, point) order, the vertical indices as attributes, vct_a), so that both granules
   run on ICON4Py's statics. Both sides read the SAME file: icondiff with read_static_fields_file +
   make_dycore_inputs, ICON4Py as MetricStateNonHydro, InterpolationState, EdgeParams,
   CellParams, the owner mask and a VerticalGrid (VerticalGridConfig with the same heights,
   vct_a from the file; its nflatlev, end_index_of_damping_layer and kstart_moist are checked
   against the file's attributes). wgtfacq_c/e live on levels [nlev - 3, nlev) on ICON4Py's side
   (its metrics factory's domain), mask_prog_halo_c and c_owner_mask are booleans there.
   mean_cell_area: icondiff's mean_cell_area(grid) (the runner writes it), given to ICON4Py's
   CellParams, so that the second-order divergence damping coefficient is the same double.
2. **Initial state.** The runner writes the Jablonowski-Williamson state of icondiff's test case
   (testcases/jablonowski_williamson.hpp: rho, exner, theta_v consistent, from T and p) on the
   statics' z_ifc with noise on vn (1 m/s) and w (0.02 m/s); this script adds, identically for
   both sides: in case dd4-iau a smooth updraft on w (5 m/s, radius 2 sqrt(mean cell area),
   over the hill, sin-shaped in the lowest 10 km: it makes the vertical CFL exceed its limit
   in the first substeps on the global grids, so that the clipping, the extra diffusion and
   max_vertical_cfl are exercised), next = current, exner_pr = exner - exner_ref_mc,
   theta_v_ic and rho_ic the
   means of the adjacent full levels (the top/bottom level's value at the top/surface; ICON never
   writes the surface's rho_ic and keeps it 0, so a long run must not start like this, see
   docs/user/jw_baroclinic_wave.md, but here it exercises the solver's surface term), seeded
   random slow-physics tendencies (ddt_vn_phy +-1e-4 m/s2, ddt_exner_phy +-1e-8 /s), on the
   limited-area grid random boundary tendencies (grf_tend_rho +-1e-7, grf_tend_thv +-1e-5,
   grf_tend_w +-1e-6, grf_tend_vn +-1e-5), with IAU (iau_init) random increments (rho_incr
   +-1e-6, vn_incr +-0.01, exner_incr +-1e-7), everything else 0. The limited-area tendencies and
   the IAU increments are absent from icondiff's file when not used (the granule then passes
   zeros, as ICON4Py's binding passes dummy zero fields).
3. **Schedule** (CASES): physics steps of 5 substeps (--substeps), dtime per grid (DTIME: 63 s
   on R02B03, 32 s on R2B4, 8 s on R19B04; about half of what this setup, with no diffusion
   between the substeps and the 4 km hill, survives for 15 substeps), ndyn_substeps_var the
   step's substep count, at_first_substep / at_last_substep from the substep index, the CFL
   maximum reset to 0 before each step's first substep (ICON's max_vcfl_dyn), and after every
   substep the time levels and the predictor/corrector slots of ddt_vn_apc and ddt_w_adv swap
   (ICON's nnow/nnew with ntl1 = nnow, ntl2 = nnew; ICON4Py's binding receives ddt_vn_apc_ntl1/ntl2
   after the swap): ``prognostic_states.swap()``, ``normal_wind_advective_tendency.swap()``,
   ``vertical_wind_advective_tendency.swap()`` on ICON4Py's side, std::swap on icondiff's.
   The configuration: NonHydrostaticConfig's defaults except divdamp_order, iau_init and
   max_nudging_coefficient = 0.375 (NUDGE_MAX_COEFF: the statics' nudgecoeff_e maximum;
   ICON4Py's default 0.1 would flip the sign of the 4th-order damping in the nudging zone), as
   config.* attributes for icondiff and NonHydrostaticConfig for ICON4Py.
   Cases: ``dd24`` (divdamp_order 24, no IAU; step 1 the model's first (at_initial_timestep,
   lprep_adv, divdamp_fac_o2 0.032: 2nd order only), step 2 a later one without lprep_adv
   (0.004: 2nd and 4th order), step 3 with lprep_adv (0: 4th order only)) and ``dd4-iau``
   (divdamp_order 4, iau_init; step 1 the first with IAU active (iau_wgt_dyn 0.5) without
   lprep_adv, step 2 a later one without IAU with lprep_adv). --quick: R19B04 only, 20 levels,
   case ``quick`` (divdamp_order 24 with iau_init: step 1 first, IAU on, lprep_adv; step 2 later,
   IAU off, no lprep_adv), 2 substeps per step.
4. **Comparison.** After the last substep (and with --every-substep after each) every field of
   the state both sides hold is compared over the whole array, bit for bit: the prognostic time
   levels current_* / next_* (before the last swap), every DiagnosticStateNonHydro field
   (predictor_/corrector_ the two slots of each PredictorCorrectorPair), every PrepAdvection
   field, the granule's own fields (icondiff's SolveNhLocalFields: SolveNonhydro's locals, its
   IntermediateFields and VelocityAdvection's locals, e.g. local_spatially_averaged_vn against
   SolveNonhydro.z_vn_avg; hydrostatic_correction on level nlev - 1, ICON4Py's field's only
   level), interpolated_fourth_order_divdamp_factor, and max_vertical_cfl after every substep.
   Reported: values, bit-identical values, max |diff|, max ulp, where the largest difference
   is. Pass: every value bit-identical (NaN counts as identical only with the same bits).

Usage (a Release build with -DICONDIFF_ENABLE_PERF_TESTS=ON: bin/icondiff_solve_nh_runner and
bin/icondiff):

    VENV=$(perf_tests/peers/icon4py/setup_venv.sh)
    $VENV/bin/python perf_tests/peers/icon4py/compare_solve_nh.py --build-dir build --quick
    $VENV/bin/python perf_tests/peers/icon4py/compare_solve_nh.py --build-dir build --quick \\
        --backend embedded            # nothing compiled (scripts/ci_icon4py_quick.sh)
    $VENV/bin/python perf_tests/peers/icon4py/compare_solve_nh.py --build-dir build \\
        [--backend gtfn_cpu|embedded] [--grids R02B03,R19B04-LAM,gen-R2B4] [--nlev 65] \\
        [--cases dd24,dd4-iau] [--statics-source icondiff|icon4py|both] [--every-substep] \\
        [--markdown M] [--json J]

gt4py compiles every program of SolveNonhydro (with all their variants: SolveNonhydro.__init__
compiles them eagerly, domain bounds and level indices as compile-time constants) once per
(grid, nlev, divdamp_order, iau_init); the compiled programs stay in $GT4PY_BUILD_CACHE_DIR
(default $VENV/gt4py-cache, icon4py_inputs.py).

Exit status: 0 when every comparison is bit-identical, 1 otherwise, 2 on a setup error.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import zlib

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

DEFAULT_GRID_DIR = str(HERE.parents[2].parent / "shared" / "data" / "grids")
VENV_HINT = "run with the venv of perf_tests/peers/icon4py/setup_venv.sh"


class SetupError(RuntimeError):
    pass


# ---- cases -------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Step:
    """One physics step: its substeps and the flags ICON gives solve_nh in it."""

    substeps: int
    at_initial_timestep: bool
    lprep_adv: bool
    second_order_divdamp_factor: float
    is_iau_active: bool = False
    iau_wgt_dyn: float = 0.0


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    divdamp_order: int
    iau_init: bool
    steps: tuple  # of Step (substeps filled in by schedule())
    w_noise: float = 0.02  # amplitude of the JW state's noise on w (m/s)
    updraft: float = 0.0  # amplitude (m/s) of a smooth updraft added to w (updraft())


CASES = {
    "dd24": Case("dd24", 24, False, (
        Step(0, True, True, 0.032),
        Step(0, False, False, 0.004),
        Step(0, False, True, 0.0))),
    "dd4-iau": Case("dd4-iau", 4, True, (
        Step(0, True, False, 0.0, True, 0.5),
        Step(0, False, True, 0.0, False, 0.0)), updraft=5.0),
    "quick": Case("quick", 24, True, (
        Step(0, True, True, 0.032, True, 0.5),
        Step(0, False, False, 0.004, False, 0.0))),
}

GRIDS = (("R02B03", "icon_grid_0009_R02B03_R.nc"),
         ("R19B04-LAM", "mch_ch_coarsegrid_wind_R19B04.nc"),
         ("gen-R2B4", "generate:R2B4"))

#: icondiff run's vertical grid and hill (compare_factories.py's defaults), given to both sides.
VERTICAL = dict(top_height=23000.0, min_lay_thckn=20.0, stretch_fac=0.65, damp_height=12500.0)
HILL = dict(mount_height=4000.0, mount_half_width=200000.0, mount_lon=8.0, mount_lat=46.5)
JW_NOISE = dict(vn=1.0, seed=11)  # w's: the case's
#: The substep per grid (s). Without diffusion between the substeps and with the 4 km hill the JW
#: state blows up within 15 substeps at about twice these (R02B03 from 158 s, R2B4 from 47 s,
#: R19B04 from 24 s; a flat R2B4 is stable at 158 s), measured with icondiff's runner.
DTIME = {"R02B03": 63.0, "R19B04-LAM": 8.0, "gen-R2B4": 32.0}
#: max_nudging_coefficient (5 x interpol_nml:nudge_max_coeff): the maximum of the statics'
#: nudgecoeff_e (icondiff grid-info's and compare_factories.py's nudge_max_coeff 0.075). The
#: limited-area 4th-order divergence damping weights the damping by 1 - 0.75 nudgecoeff_e /
#: max_nudging_coefficient: with ICON4Py's default 0.1 against 0.375 in the statics the damping
#: changes sign in the nudging zone and vn grows by 20 m/s within 10 substeps of 2 s on R19B04.
NUDGE_MAX_COEFF = 5.0 * 0.075


def schedule(case: Case, substeps: int, dtime: float) -> list[dict]:
    """The substeps of a case: one dict of SolveNhStep's scalars (+ reset_max_vertical_cfl) each."""
    out = []
    for step in case.steps:
        for i in range(substeps):
            out.append(dict(
                second_order_divdamp_factor=step.second_order_divdamp_factor, dtime=dtime,
                ndyn_substeps_var=substeps, at_initial_timestep=step.at_initial_timestep,
                lprep_adv=step.lprep_adv, at_first_substep=i == 0,
                at_last_substep=i == substeps - 1, is_iau_active=step.is_iau_active,
                iau_wgt_dyn=step.iau_wgt_dyn, reset_max_vertical_cfl=i == 0))
    return out


def config_of(case: Case) -> dict:
    """Every DycoreConfig member (icondiff's names, NonHydrostaticConfig's defaults) for a case."""
    return dict(itime_scheme=4, iadv_rhotheta=2, igradp_method=3, rayleigh_type=2,
                divdamp_order=case.divdamp_order, divdamp_type=3, l_vert_nested=0, ldeepatmo=0,
                iau_init=int(case.iau_init), extra_diffu=1, rhotheta_offctr=-0.1,
                veladv_offctr=0.25, max_nudging_coefficient=NUDGE_MAX_COEFF,
                fourth_order_divdamp_factor=0.0025, fourth_order_divdamp_factor2=0.004,
                fourth_order_divdamp_factor3=0.004, fourth_order_divdamp_factor4=0.004,
                fourth_order_divdamp_z=32500.0, fourth_order_divdamp_z2=40000.0,
                fourth_order_divdamp_z3=60000.0, fourth_order_divdamp_z4=80000.0)


# ---- the state's fields (icondiff's names; solve_nonhydro_states.hpp) --------------------------

#: name -> (location, half levels?)
PROGNOSTIC = {"w": ("cell", True), "vn": ("edge", False), "theta_v": ("cell", False),
              "rho": ("cell", False), "exner": ("cell", False)}
DIAGNOSTIC = {
    "tangential_wind": ("edge", False), "vn_on_half_levels": ("edge", True),
    "contravariant_correction_at_cells_on_half_levels": ("cell", True),
    "theta_v_at_cells_on_half_levels": ("cell", True),
    "perturbed_exner_at_cells_on_model_levels": ("cell", False),
    "rho_at_cells_on_half_levels": ("cell", True),
    "exner_tendency_due_to_slow_physics": ("cell", False),
    "grf_tend_rho": ("cell", False), "grf_tend_thv": ("cell", False),
    "grf_tend_w": ("cell", True), "mass_flux_at_edges_on_model_levels": ("edge", False),
    "normal_wind_tendency_due_to_slow_physics_process": ("edge", False),
    "grf_tend_vn": ("edge", False),
    "predictor_normal_wind_advective_tendency": ("edge", False),
    "corrector_normal_wind_advective_tendency": ("edge", False),
    "predictor_vertical_wind_advective_tendency": ("cell", True),
    "corrector_vertical_wind_advective_tendency": ("cell", True),
    "rho_iau_increment": ("cell", False), "normal_wind_iau_increment": ("edge", False),
    "exner_iau_increment": ("cell", False), "exner_dynamical_increment": ("cell", False),
}
GRF = ("grf_tend_rho", "grf_tend_thv", "grf_tend_w", "grf_tend_vn")
IAU = ("rho_iau_increment", "normal_wind_iau_increment", "exner_iau_increment")
PREP_ADV = {"vn_traj": ("edge", False), "mass_flx_me": ("edge", False),
            "dynamical_vertical_mass_flux_at_cells_on_half_levels": ("cell", True),
            "dynamical_vertical_volumetric_flux_at_cells_on_half_levels": ("cell", True)}
#: icondiff's SolveNhLocalFields -> where ICON4Py's SolveNonhydro keeps it ("z." the
#: IntermediateFields, "va." VelocityAdvection's).
LOCALS = {
    "temporal_extrapolation_of_perturbed_exner": "temporal_extrapolation_of_perturbed_exner",
    "exner_at_cells_on_half_levels": "exner_at_cells_on_half_levels",
    "ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels":
        "ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels",
    "d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels":
        "d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels",
    "perturbed_theta_v_at_cells_on_half_levels": "perturbed_theta_v_at_cells_on_half_levels",
    "nonhydro_buoy_at_cells_on_half_levels": "nonhydro_buoy_at_cells_on_half_levels",
    "perturbed_rho_at_cells_on_model_levels": "perturbed_rho_at_cells_on_model_levels",
    "perturbed_theta_v_at_cells_on_model_levels": "perturbed_theta_v_at_cells_on_model_levels",
    "spatially_averaged_vn": "z_vn_avg",
    "theta_v_flux_at_edges_on_model_levels": "theta_v_flux_at_edges_on_model_levels",
    "contravariant_correction_at_edges_on_model_levels":
        "_contravariant_correction_at_edges_on_model_levels",
    "hydrostatic_correction": "hydrostatic_correction_on_lowest_level",
    "hydrostatic_correction_on_lowest_level": "hydrostatic_correction_on_lowest_level_1d_view",
    "horizontal_pressure_gradient": "z.horizontal_pressure_gradient",
    "rho_at_edges_on_model_levels": "z.rho_at_edges_on_model_levels",
    "theta_v_at_edges_on_model_levels": "z.theta_v_at_edges_on_model_levels",
    "horizontal_kinetic_energy_at_edges_on_model_levels":
        "z.horizontal_kinetic_energy_at_edges_on_model_levels",
    "tangential_wind_on_half_levels": "z.tangential_wind_on_half_levels",
    "horizontal_gradient_of_normal_wind_divergence":
        "z.horizontal_gradient_of_normal_wind_divergence",
    "dwdz_at_cells_on_model_levels": "z.dwdz_at_cells_on_model_levels",
    "horizontal_advection_of_w_at_edges_on_half_levels":
        "va._horizontal_advection_of_w_at_edges_on_half_levels",
    "contravariant_corrected_w_at_cells_on_model_levels":
        "va._contravariant_corrected_w_at_cells_on_model_levels",
    "vertical_cfl": "va._vertical_cfl",
}


# ---- files -------------------------------------------------------------------------------------


def write_nc(path, arrays: dict, sizes: dict, attrs: dict | None = None, scalars=None) -> None:
    """arrays: name -> (point[, level]) numpy (ICON4Py's order) with its file dims (outermost
    first, the point last); written transposed (the point index fastest)."""
    import netCDF4

    with netCDF4.Dataset(str(path), "w", format="NETCDF3_64BIT_DATA") as ds:
        for d, n in sizes.items():
            ds.createDimension(d, n)
        for name, (dims_, a) in arrays.items():
            var = ds.createVariable(name, "f8" if a.dtype.kind == "f" else "i4", dims_)
            var[...] = np.ascontiguousarray(np.asarray(a).T)
        for name, (dims_, a) in (scalars or {}).items():
            var = ds.createVariable(name, "f8" if np.asarray(a).dtype.kind == "f" else "i4", dims_)
            var[...] = a
        for k, v in (attrs or {}).items():
            ds.setncattr(k, v)


def read_nc(path) -> tuple[dict, dict]:
    """Every variable in ICON4Py's order ((point[, slot][, level]): the file's dims reversed) and
    the global attributes."""
    import netCDF4

    with netCDF4.Dataset(str(path)) as ds:
        ds.set_auto_mask(False)
        arrays = {n: (np.asarray(v[...]).reshape(()) if v.ndim == 0
                      else np.ascontiguousarray(np.asarray(v[...]).T))
                  for n, v in ds.variables.items()}
        attrs = {a: ds.getncattr(a) for a in ds.ncattrs()}
    return arrays, attrs


def run_checked(cmd: list[str], what: str) -> str:
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{what} failed ({proc.returncode}): {' '.join(map(str, cmd))}\n"
                           f"{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    return proc.stdout


def find_tool(build_dir: pathlib.Path, name: str) -> pathlib.Path:
    for p in (build_dir / "bin" / name, build_dir / name):
        if p.is_file():
            return p
    raise SetupError(f"{name} not found in {build_dir}/bin (a build with "
                     "-DICONDIFF_ENABLE_PERF_TESTS=ON: cmake --build BUILD --target "
                     "icondiff_solve_nh_runner icondiff_cli)")


# ---- statics ------------------------------------------------------------------------------------


def icondiff_statics(icondiff, grid_file: str, nlev: int, out: pathlib.Path) -> None:
    cmd = [icondiff, "grid-info", "--grid", grid_file, "--nlev", str(nlev), "--overwrite"]
    for k, v in {**VERTICAL, **HILL}.items():
        cmd += [f"--{k}", repr(v)]
    run_checked(cmd + ["--statics", str(out)], "icondiff grid-info --statics")


#: icondiff's statics-file names of ICON4Py's GridGeometry fields that are not in
#: compare_factories.STATICS (grid_init's arguments).
def _geometry_names():
    from icon4py.model.common.grid import geometry_attributes as g

    return {"tangent_orientation": g.TANGENT_ORIENTATION,
            "inverse_primal_edge_lengths": f"inverse_of_{g.EDGE_LENGTH}",
            "inverse_dual_edge_lengths": f"inverse_of_{g.DUAL_EDGE_LENGTH}",
            "inverse_vertex_vertex_lengths": f"inverse_of_{g.VERTEX_VERTEX_LENGTH}",
            "edge_areas": g.EDGE_AREA,
            "primal_normal_vert_x": g.EDGE_NORMAL_VERTEX_U,
            "primal_normal_vert_y": g.EDGE_NORMAL_VERTEX_V,
            "dual_normal_vert_x": g.EDGE_TANGENT_VERTEX_U,
            "dual_normal_vert_y": g.EDGE_TANGENT_VERTEX_V,
            "primal_normal_cell_x": g.EDGE_NORMAL_CELL_U,
            "primal_normal_cell_y": g.EDGE_NORMAL_CELL_V,
            "dual_normal_cell_x": g.EDGE_TANGENT_CELL_U,
            "dual_normal_cell_y": g.EDGE_TANGENT_CELL_V,
            "cell_area": g.CELL_AREA}


def icon4py_statics_file(grid_file: str, nlev: int, template: pathlib.Path,
                         out: pathlib.Path) -> dict:
    """A statics file in icondiff's format (that of `template`, icondiff's own file of the same
    grid: every variable it has, with its dimensions and type) holding ICON4Py's values: its
    factories' fields (compare_factories.icon4py_statics, ICON short names mapped to icondiff's),
    its GridGeometry's edge and cell fields, its vct_a and vertical indices. Returns
    {'missing': icondiff's variables ICON4Py has no value for (copied from the template)}."""
    import compare_factories as cf
    import netCDF4

    args = cf.build_parser().parse_args(["--grid", "x", grid_file, "--nlev", str(nlev),
                                         "--top-height", repr(VERTICAL["top_height"]),
                                         "--min-lay-thckn", repr(VERTICAL["min_lay_thckn"]),
                                         "--stretch-fac", repr(VERTICAL["stretch_fac"]),
                                         "--damp-height", repr(VERTICAL["damp_height"]),
                                         "--mount-height", repr(HILL["mount_height"]),
                                         "--mount-half-width", repr(HILL["mount_half_width"]),
                                         "--mount-lon", repr(HILL["mount_lon"]),
                                         "--mount-lat", repr(HILL["mount_lat"])])
    mine = cf.icon4py_statics(grid_file, args)
    if mine["errors"]:
        raise RuntimeError(f"ICON4Py's factories failed: {mine['errors']}")
    short_to_icondiff = {v: k for k, v in cf.ICONDIFF_FIELD_NAMES.items()}
    values = {short_to_icondiff.get(k, k): v for k, v in mine["arrays"].items()}
    geometry = mine["geometry"]
    for name, attr in _geometry_names().items():
        values[name] = np.asarray(ii_as_numpy(geometry.get(attr)), np.float64)
    values["vct_a"] = ii_as_numpy(mine["vertical"].vct_a)
    missing = []
    with netCDF4.Dataset(str(template)) as src, \
            netCDF4.Dataset(str(out), "w", format="NETCDF3_64BIT_DATA") as dst:
        src.set_auto_mask(False)
        for d, dim in src.dimensions.items():
            dst.createDimension(d, len(dim))
        for a in src.ncattrs():
            dst.setncattr(a, src.getncattr(a))
        dst.title = "icondiff statics format, ICON4Py 0.2.0's values (compare_solve_nh.py)"
        dst.nflatlev = np.int32(mine["nflatlev"])
        dst.end_index_of_damping_layer = np.int32(mine["nrd"])
        dst.nflat_gradp = np.int32(values.pop("nflat_gradp"))
        vertical = mine["vertical"]
        dst.kstart_moist = np.int32(vertical.kstart_moist)
        for name, var in src.variables.items():
            new = dst.createVariable(name, var.dtype, var.dimensions)
            for a in var.ncattrs():
                new.setncattr(a, var.getncattr(a))
            if name not in values:
                missing.append(name)
                new[...] = var[...]
                continue
            a = np.asarray(values[name])
            # ICON4Py's (point[, slot][, level]) -> the file's (level[, slot], point)
            new[...] = np.ascontiguousarray(a.T).astype(var.dtype)
    return {"missing": missing}


def ii_as_numpy(x):
    import icon4py_inputs as ii

    return ii.as_numpy(x)


# ---- ICON4Py's granule --------------------------------------------------------------------------


def icon4py_granule(grid, statics: dict, sattrs: dict, case: Case, nlev: int,
                    mean_cell_area: float, backend_name: str = "gtfn_cpu"):
    """ICON4Py's SolveNonhydro from the statics file's arrays, as solve_nh_init builds it."""
    import gt4py.next as gtx
    import icon4py_inputs as ii
    from icon4py.model.atmosphere.dycore import dycore_states, solve_nonhydro
    from icon4py.model.common import constants, dimension as dims, model_backends
    from icon4py.model.common.decomposition import definitions as decomposition
    from icon4py.model.common.grid import states as grid_states, vertical as v_grid

    backend = ii.backend_like(backend_name)
    if backend_name == "embedded":
        import embedded_fixes

        embedded_fixes.install()
    alloc = model_backends.get_allocator(backend)
    C, E, V, K = dims.CellDim, dims.EdgeDim, dims.VertexDim, dims.KDim

    def f(name, *dims_, dtype=None):
        a = np.asarray(statics[name])
        if dtype is not None:
            a = a.astype(dtype)
        return gtx.as_field(dims_, np.ascontiguousarray(a), allocator=alloc)

    def surface3(name, horizontal):  # wgtfacq_c/e: levels [nlev - 3, nlev) (the factory's domain)
        a = np.asarray(statics[name])
        return gtx.as_field(gtx.domain({horizontal: (0, a.shape[0]), K: (nlev - 3, nlev)}),
                            np.ascontiguousarray(a[:, nlev - 3:]), allocator=alloc)

    vconfig = v_grid.VerticalGridConfig(
        num_levels=nlev, model_top_height=VERTICAL["top_height"],
        lowest_layer_thickness=VERTICAL["min_lay_thckn"], stretch_factor=VERTICAL["stretch_fac"],
        rayleigh_damping_height=VERTICAL["damp_height"])
    vertical = v_grid.VerticalGrid(config=vconfig, vct_a=f("vct_a", K), vct_b=None)
    for name, theirs in (("nflatlev", vertical.nflatlev),
                         ("end_index_of_damping_layer", vertical.end_index_of_damping_layer),
                         ("kstart_moist", vertical.kstart_moist)):
        if int(theirs) != int(sattrs[name]):
            raise SetupError(f"ICON4Py's VerticalGrid has {name} {int(theirs)}, the statics "
                             f"file {int(sattrs[name])}")
    metric = dycore_states.MetricStateNonHydro(
        mask_prog_halo_c=f("mask_prog_halo_c", C, dtype=bool),
        rayleigh_w=f("rayleigh_w", K),
        time_extrapolation_parameter_for_exner=f("time_extrapolation_parameter_for_exner", C, K),
        reference_exner_at_cells_on_model_levels=f("reference_exner_at_cells_on_model_levels",
                                                   C, K),
        wgtfac_c=f("wgtfac_c", C, K),
        wgtfacq_c=surface3("wgtfacq_c", C),
        inv_ddqz_z_full=f("inv_ddqz_z_full", C, K),
        reference_rho_at_cells_on_model_levels=f("reference_rho_at_cells_on_model_levels", C, K),
        reference_theta_at_cells_on_model_levels=f("theta_ref_mc", C, K),
        exner_w_explicit_weight_parameter=f("exner_w_explicit_weight_parameter", C),
        ddz_of_reference_exner_at_cells_on_half_levels=f(
            "ddz_of_reference_exner_at_cells_on_half_levels", C, K),
        ddqz_z_half=f("ddqz_z_half", C, K),
        reference_theta_at_cells_on_half_levels=f("reference_theta_at_cells_on_half_levels", C, K),
        d2dexdz2_fac1_mc=f("d2dexdz2_fac1_mc", C, K),
        d2dexdz2_fac2_mc=f("d2dexdz2_fac2_mc", C, K),
        reference_rho_at_edges_on_model_levels=f("reference_rho_at_edges_on_model_levels", E, K),
        reference_theta_at_edges_on_model_levels=f("reference_theta_at_edges_on_model_levels",
                                                   E, K),
        ddxn_z_full=f("ddxn_z_full", E, K),
        zdiff_gradp=f("zdiff_gradp", E, dims.E2CDim, K),
        vertoffset_gradp=f("vertoffset_gradp", E, dims.E2CDim, K, dtype=np.int32),
        nflat_gradp=gtx.int32(int(sattrs["nflat_gradp"])),
        pg_exdist=f("pg_exdist", E, K),
        ddqz_z_full_e=f("ddqz_z_full_e", E, K),
        ddxt_z_full=f("ddxt_z_full", E, K),
        wgtfac_e=f("wgtfac_e", E, K),
        wgtfacq_e=surface3("wgtfacq_e", E),
        exner_w_implicit_weight_parameter=f("exner_w_implicit_weight_parameter", C),
        horizontal_mask_for_3d_divdamp=f("horizontal_mask_for_3d_divdamp", E),
        scaling_factor_for_3d_divdamp=f("scaling_factor_for_3d_divdamp", K),
        coeff1_dwdz=f("coeff1_dwdz", C, K),
        coeff2_dwdz=f("coeff2_dwdz", C, K),
        coeff_gradekin=f("coeff_gradekin", E, dims.E2CDim),
    )
    interpolation = dycore_states.InterpolationState(
        c_lin_e=f("c_lin_e", E, dims.E2CDim),
        c_intp=f("c_intp", V, dims.V2CDim),
        e_flx_avg=f("e_flx_avg", E, dims.E2C2EODim),
        geofac_grdiv=f("geofac_grdiv", E, dims.E2C2EODim),
        geofac_rot=f("geofac_rot", V, dims.V2EDim),
        pos_on_tplane_e_1=f("pos_on_tplane_e_1", E, dims.E2CDim),
        pos_on_tplane_e_2=f("pos_on_tplane_e_2", E, dims.E2CDim),
        rbf_vec_coeff_e=f("rbf_vec_coeff_e", E, dims.E2C2EDim),
        e_bln_c_s=f("e_bln_c_s", C, dims.C2EDim),
        rbf_coeff_1=f("rbf_coeff_1", V, dims.V2EDim),
        rbf_coeff_2=f("rbf_coeff_2", V, dims.V2EDim),
        geofac_div=f("geofac_div", C, dims.C2EDim),
        geofac_n2s=f("geofac_n2s", C, dims.C2E2CODim),
        geofac_grg_x=f("geofac_grg_x", C, dims.C2E2CODim),
        geofac_grg_y=f("geofac_grg_y", C, dims.C2E2CODim),
        nudgecoeff_e=f("nudgecoeff_e", E),
    )
    edges = grid_states.EdgeParams(
        tangent_orientation=f("tangent_orientation", E),
        inverse_primal_edge_lengths=f("inverse_primal_edge_lengths", E),
        inverse_dual_edge_lengths=f("inverse_dual_edge_lengths", E),
        inverse_vertex_vertex_lengths=f("inverse_vertex_vertex_lengths", E),
        primal_normal_vert_x=f("primal_normal_vert_x", E, dims.E2C2VDim),
        primal_normal_vert_y=f("primal_normal_vert_y", E, dims.E2C2VDim),
        dual_normal_vert_x=f("dual_normal_vert_x", E, dims.E2C2VDim),
        dual_normal_vert_y=f("dual_normal_vert_y", E, dims.E2C2VDim),
        primal_normal_cell_x=f("primal_normal_cell_x", E, dims.E2CDim),
        primal_normal_cell_y=f("primal_normal_cell_y", E, dims.E2CDim),
        dual_normal_cell_x=f("dual_normal_cell_x", E, dims.E2CDim),
        dual_normal_cell_y=f("dual_normal_cell_y", E, dims.E2CDim),
        edge_areas=f("edge_areas", E),
        coriolis_frequency=f("coriolis_frequency", E),
    )
    cells = grid_states.CellParams(area=f("cell_area", C), mean_cell_area=mean_cell_area)
    c = config_of(case)
    config = solve_nonhydro.NonHydrostaticConfig(
        itime_scheme=dycore_states.TimeSteppingScheme(c["itime_scheme"]),
        iadv_rhotheta=dycore_states.RhoThetaAdvectionType(c["iadv_rhotheta"]),
        igradp_method=dycore_states.HorizontalPressureDiscretizationType(c["igradp_method"]),
        rayleigh_type=constants.RayleighType(c["rayleigh_type"]),
        divdamp_order=dycore_states.DivergenceDampingOrder(c["divdamp_order"]),
        divdamp_type=dycore_states.DivergenceDampingType(c["divdamp_type"]),
        l_vert_nested=bool(c["l_vert_nested"]), deepatmos_mode=bool(c["ldeepatmo"]),
        iau_init=bool(c["iau_init"]), extra_diffu=bool(c["extra_diffu"]),
        rhotheta_offctr=c["rhotheta_offctr"], veladv_offctr=c["veladv_offctr"],
        max_nudging_coefficient=c["max_nudging_coefficient"],
        fourth_order_divdamp_factor=c["fourth_order_divdamp_factor"],
        fourth_order_divdamp_factor2=c["fourth_order_divdamp_factor2"],
        fourth_order_divdamp_factor3=c["fourth_order_divdamp_factor3"],
        fourth_order_divdamp_factor4=c["fourth_order_divdamp_factor4"],
        fourth_order_divdamp_z=c["fourth_order_divdamp_z"],
        fourth_order_divdamp_z2=c["fourth_order_divdamp_z2"],
        fourth_order_divdamp_z3=c["fourth_order_divdamp_z3"],
        fourth_order_divdamp_z4=c["fourth_order_divdamp_z4"])
    granule = solve_nonhydro.SolveNonhydro(
        grid=grid, config=config, params=solve_nonhydro.NonHydrostaticParams(config),
        metric_state_nonhydro=metric, interpolation_state=interpolation,
        vertical_params=vertical, edge_geometry=edges, cell_geometry=cells,
        owner_mask=f("c_owner_mask", C, dtype=bool), backend=backend,
        exchange=decomposition.single_node_exchange)
    gtx.wait_for_compilation()
    return granule, alloc


class Icon4pyStates:
    """ICON4Py's TimeStepPair of PrognosticState, DiagnosticStateNonHydro and PrepAdvection from
    the state's arrays (icondiff's names), as solve_nh_run builds them."""

    def __init__(self, arrays: dict, alloc, sizes: dict):
        import gt4py.next as gtx
        from icon4py.model.atmosphere.dycore import dycore_states
        from icon4py.model.common import dimension as dims, utils as common_utils
        from icon4py.model.common.states import prognostic_state
        from icon4py.model.common.utils import data_allocation as data_alloc

        loc = {"cell": dims.CellDim, "edge": dims.EdgeDim}

        def f(name, spec):
            location, half = spec
            a = arrays.get(name)
            if a is None:  # absent: zeros (the binding's dummy fields)
                a = np.zeros((sizes[location], sizes["nlev"] + (1 if half else 0)))
            return gtx.as_field((loc[location], dims.KDim), np.array(a, np.float64, copy=True),
                                allocator=alloc)

        def prog(prefix):
            return prognostic_state.PrognosticState(
                **{n: f(prefix + n, s) for n, s in PROGNOSTIC.items()})

        self.prognostic = common_utils.TimeStepPair(prog("current_"), prog("next_"))
        d = {n: f(n, s) for n, s in DIAGNOSTIC.items()}
        self.diagnostic = dycore_states.DiagnosticStateNonHydro(
            max_vertical_cfl=data_alloc.scalar_like_array(
                float(arrays.get("max_vertical_cfl", 0.0)), alloc),
            normal_wind_advective_tendency=common_utils.PredictorCorrectorPair(
                d.pop("predictor_normal_wind_advective_tendency"),
                d.pop("corrector_normal_wind_advective_tendency")),
            vertical_wind_advective_tendency=common_utils.PredictorCorrectorPair(
                d.pop("predictor_vertical_wind_advective_tendency"),
                d.pop("corrector_vertical_wind_advective_tendency")),
            **d)
        self.prep_adv = dycore_states.PrepAdvection(
            **{n: f(n, s) for n, s in PREP_ADV.items()})

    def snapshot(self, granule, nlev: int) -> dict:
        """Every compared array under icondiff's output names."""
        out = {}
        for prefix, p in (("current_", self.prognostic.current), ("next_", self.prognostic.next)):
            for n in PROGNOSTIC:
                out[prefix + n] = getattr(p, n).asnumpy().copy()
        d = self.diagnostic
        for n in DIAGNOSTIC:
            if n.startswith(("predictor_", "corrector_")):
                slot, _, rest = n.partition("_")
                out[n] = getattr(getattr(d, rest), slot).asnumpy().copy()
            else:
                out[n] = getattr(d, n).asnumpy().copy()
        for n in PREP_ADV:
            out[n] = getattr(self.prep_adv, n).asnumpy().copy()
        for mine, theirs in LOCALS.items():
            obj = granule
            if theirs.startswith("z."):
                obj, theirs = granule.intermediate_fields, theirs[2:]
            elif theirs.startswith("va."):
                obj, theirs = granule.velocity_advection, theirs[3:]
            a = getattr(obj, theirs).asnumpy().copy()
            out["local_" + mine] = a
        out["interpolated_fourth_order_divdamp_factor"] = (
            granule.interpolated_fourth_order_divdamp_factor.asnumpy().copy())
        out["max_vertical_cfl"] = np.asarray(float(d.max_vertical_cfl))
        return out

    def swap(self):
        self.prognostic.swap()
        self.diagnostic.normal_wind_advective_tendency.swap()
        self.diagnostic.vertical_wind_advective_tendency.swap()


# ---- comparison ---------------------------------------------------------------------------------


def ulp_distance(a: np.ndarray, b: np.ndarray) -> float:
    """The largest distance between a and b in doubles (units in the last place), exact: the bit
    patterns mapped to ordered integers and subtracted as integers (inf where a NaN or an
    infinity differs)."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    differ = a.view(np.int64) != b.view(np.int64)
    if not differ.any():
        return 0.0
    if not (np.isfinite(a[differ]).all() and np.isfinite(b[differ]).all()):
        return float("inf")

    def ordered(x):
        i = np.ascontiguousarray(x).view(np.int64)
        return np.where(i < 0, np.int64(-(2**63)) - i, i)

    ia, ib = ordered(a[differ]), ordered(b[differ])
    same_sign = (ia >= 0) == (ib >= 0)  # their difference fits in int64
    exact = np.abs(ia[same_sign] - ib[same_sign])
    other = np.abs(ia[~same_sign].astype(np.float64) - ib[~same_sign].astype(np.float64))
    return float(max(exact.max(initial=0), other.max(initial=0.0)))


@dataclasses.dataclass
class Row:
    grid: str
    nlev: int
    statics: str
    case: str
    substep: int
    field: str
    values: int = 0
    identical: int = 0
    max_abs: float = 0.0
    max_ulp: float = 0.0
    where: str = ""
    note: str = ""
    changed: float = float("nan")  # share of icondiff's values the run changed

    @property
    def ok(self) -> bool:
        return self.values > 0 and self.identical == self.values


def compare_one(name: str, ours: np.ndarray, theirs: np.ndarray) -> tuple:
    """(values, identical, max_abs, max_ulp, where) of icondiff's `ours` against ICON4Py's."""
    a = np.asarray(ours, np.float64)
    b = np.asarray(theirs, np.float64)
    if a.size == b.size == 1:  # a scalar (netCDF4 may read a 0-d variable as (1,))
        a, b = a.reshape(()), b.reshape(())
    if a.shape != b.shape:
        raise ValueError(f"{name}: icondiff {a.shape}, ICON4Py {b.shape}")
    same = a.view(np.int64) == b.view(np.int64)
    identical = int(np.count_nonzero(same))
    where = ""
    max_abs = 0.0
    if identical != a.size:
        diff = np.where(same, 0.0, np.abs(a - b))
        diff = np.where(np.isnan(diff), np.inf, diff)
        idx = np.unravel_index(int(np.argmax(diff)), a.shape)
        max_abs = float(diff[idx])
        where = (f"at {tuple(int(i) for i in idx)}: icondiff {a[idx]!r}, ICON4Py {b[idx]!r}"
                 if a.ndim else f"icondiff {a!r}, ICON4Py {b!r}")
    return int(a.size), identical, max_abs, ulp_distance(a, b), where


def compare_snapshot(ours: dict, theirs: dict, nlev: int, meta: dict,
                     initial: dict) -> list[Row]:
    """One Row per field ICON4Py holds; `initial`: the state both started from (Row.changed:
    the share of icondiff's values that differ from it, or from 0 for the granule's own
    fields)."""
    rows = []
    for name in sorted(theirs):
        mine = ours.get(name)
        row = Row(**meta, field=name)
        if mine is None:
            # icondiff leaves absent optional inputs out of its file: ICON4Py's must be zero
            if name in GRF + IAU and not np.any(theirs[name]):
                continue
            row.note = "missing from icondiff's output"
            rows.append(row)
            continue
        t = theirs[name]
        if name == "local_hydrostatic_correction":  # ICON4Py's field: level nlev - 1 only
            rest = np.delete(mine, nlev - 1, axis=1)
            mine = mine[:, nlev - 1:nlev]
            if np.any(rest):
                row.note = "icondiff wrote levels other than nlev - 1"
        row.values, row.identical, row.max_abs, row.max_ulp, row.where = compare_one(name, mine, t)
        start = initial.get(name)
        if start is None or np.shape(start) != np.shape(mine):
            start = np.zeros_like(np.asarray(mine, np.float64))
        row.changed = float(np.mean(np.asarray(mine, np.float64) != start)) if row.values else 0.0
        rows.append(row)
    return rows


# ---- one grid x case ----------------------------------------------------------------------------


def updraft(statics: dict, cell_lon: np.ndarray, cell_lat: np.ndarray, amplitude: float,
            radius: float) -> np.ndarray:
    """(C, nlev + 1): a smooth updraft of `amplitude` m/s over the hill's centre,
    amplitude exp(-(d / radius)^2) sin(pi h / 10 km) at heights h above the ground below 10 km
    (0 elsewhere, so w stays 0 at the ground and the top); d the great-circle distance."""
    z = np.asarray(statics["z_ifc"], np.float64)  # (C, nlev + 1)
    h = z - z[:, -1:]
    lon0, lat0 = np.deg2rad(HILL["mount_lon"]), np.deg2rad(HILL["mount_lat"])
    cos_d = (np.sin(cell_lat) * np.sin(lat0)
             + np.cos(cell_lat) * np.cos(lat0) * np.cos(cell_lon - lon0))
    d = 6371229.0 * np.arccos(np.clip(cos_d, -1.0, 1.0))
    vertical = np.where((h > 0) & (h < 10000.0), np.sin(np.pi * h / 10000.0), 0.0)
    return amplitude * np.exp(-((d / radius) ** 2))[:, None] * vertical


def initial_arrays(jw: dict, statics: dict, sizes: dict, case: Case, limited_area: bool,
                   seed: int, w_extra: np.ndarray | None = None) -> dict:
    """The complete initial state (icondiff's names, ICON4Py's (point, level) order)."""
    rng = np.random.default_rng(seed)
    nc, ne, nlev = sizes["cell"], sizes["edge"], sizes["nlev"]
    out = {}
    for n in PROGNOSTIC:
        out["current_" + n] = np.array(jw[n], np.float64)
        if n == "w" and w_extra is not None:
            out["current_w"] = out["current_w"] + w_extra
        out["next_" + n] = np.array(out["current_" + n], copy=True)
    for n, (location, half) in DIAGNOSTIC.items():
        out[n] = np.zeros((sizes[location], nlev + (1 if half else 0)))
    theta, rho = out["current_theta_v"], out["current_rho"]
    out["perturbed_exner_at_cells_on_model_levels"] = (
        out["current_exner"] - statics["reference_exner_at_cells_on_model_levels"])
    for name, full in (("theta_v_at_cells_on_half_levels", theta),
                       ("rho_at_cells_on_half_levels", rho)):
        half = np.empty((nc, nlev + 1))
        half[:, 0] = full[:, 0]
        half[:, nlev] = full[:, nlev - 1]
        half[:, 1:nlev] = 0.5 * (full[:, :-1] + full[:, 1:])
        out[name] = half
    out["normal_wind_tendency_due_to_slow_physics_process"] = rng.uniform(-1e-4, 1e-4, (ne, nlev))
    out["exner_tendency_due_to_slow_physics"] = rng.uniform(-1e-8, 1e-8, (nc, nlev))
    if limited_area:
        out["grf_tend_rho"] = rng.uniform(-1e-7, 1e-7, (nc, nlev))
        out["grf_tend_thv"] = rng.uniform(-1e-5, 1e-5, (nc, nlev))
        out["grf_tend_w"] = rng.uniform(-1e-6, 1e-6, (nc, nlev + 1))
        out["grf_tend_vn"] = rng.uniform(-1e-5, 1e-5, (ne, nlev))
    else:
        for n in GRF:
            del out[n]
    if case.iau_init:
        out["rho_iau_increment"] = rng.uniform(-1e-6, 1e-6, (nc, nlev))
        out["normal_wind_iau_increment"] = rng.uniform(-0.01, 0.01, (ne, nlev))
        out["exner_iau_increment"] = rng.uniform(-1e-7, 1e-7, (nc, nlev))
    else:
        for n in IAU:
            del out[n]
    for n, (location, half) in PREP_ADV.items():
        out[n] = np.zeros((sizes[location], nlev + (1 if half else 0)))
    return out


def write_state_file(path, arrays: dict, sizes: dict) -> None:
    specs = {**{p + n: s for p in ("current_", "next_") for n, s in PROGNOSTIC.items()},
             **DIAGNOSTIC, **PREP_ADV}
    nc_arrays = {}
    for name, a in arrays.items():
        location, half = specs[name]
        nc_arrays[name] = (("nlev_half" if half else "nlev", location), a)
    write_nc(path, nc_arrays, {"cell": sizes["cell"], "edge": sizes["edge"],
                               "nlev": sizes["nlev"], "nlev_half": sizes["nlev"] + 1})


def write_run_file(path, case: Case, steps: list[dict]) -> None:
    scalars = {k: (("substep",), np.array([s[k] for s in steps],
                                           np.float64 if isinstance(steps[0][k], float)
                                           else np.int32))
               for k in steps[0]}
    write_nc(path, {}, {"substep": len(steps)},
             attrs={f"config.{k}": v for k, v in config_of(case).items()}, scalars=scalars)


@dataclasses.dataclass
class Setup:
    """One grid's files and ICON4Py grid."""

    name: str
    grid_file: str
    grid: object
    statics_name: str  # 'icondiff' or 'icon4py'
    statics_path: pathlib.Path
    statics: dict
    sattrs: dict
    sizes: dict


def run_case(args, s: Setup, case: Case, runner, workdir: pathlib.Path, timings: dict) -> list[Row]:
    nlev = s.sizes["nlev"]
    jw, mean_cell_area = jw_state(s, runner, workdir, case.w_noise)
    dtime = DTIME[s.name]
    steps = schedule(case, args.substeps, dtime)
    tag = f"{s.name}-{nlev}-{s.statics_name}-{case.name}"
    seed = args.seed + zlib.crc32(tag.encode()) % 100000
    w_extra = None
    if case.updraft:
        import icon4py_inputs as ii
        from icon4py.model.common import dimension as dims

        cells = ii.load_icon4py_grid_manager(s.grid_file, args.backend, nlev).coordinates[
            dims.CellDim]
        w_extra = updraft(s.statics, ii.as_numpy(cells["lon"]), ii.as_numpy(cells["lat"]),
                          case.updraft, 2.0 * np.sqrt(mean_cell_area))
    arrays = initial_arrays(jw, s.statics, s.sizes, case, bool(s.grid.limited_area), seed,
                            w_extra)
    state_path, run_path = workdir / f"{tag}.state.nc", workdir / f"{tag}.run.nc"
    out_path = workdir / f"{tag}.out.nc"
    mine = arrays
    if args.perturb_icondiff:  # the self-test: icondiff's input 1 ulp off at one point
        mine = dict(arrays)
        a = mine[args.perturb_icondiff] = np.array(arrays[args.perturb_icondiff], copy=True)
        where = (a.shape[0] // 2, a.shape[1] // 2)
        a[where] = np.nextafter(a[where], np.inf)
        print(f"  self-test: icondiff's {args.perturb_icondiff} at {where} moved by 1 ulp",
              flush=True)
    write_state_file(state_path, mine, s.sizes)
    write_run_file(run_path, case, steps)
    substep_dir = None
    if args.every_substep:
        substep_dir = workdir / f"{tag}.substeps"
        substep_dir.mkdir(exist_ok=True)

    # icondiff
    t0 = time.perf_counter()
    cmd = [runner, "--grid", s.grid_file, "--statics", s.statics_path, "--state", state_path,
           "--run", run_path, "--output", out_path]
    if substep_dir:
        cmd += ["--substep-output", substep_dir]
    log = run_checked(cmd, "icondiff_solve_nh_runner")
    timings[f"{tag} icondiff"] = time.perf_counter() - t0
    print("  " + log.strip(), flush=True)

    # ICON4Py
    t0 = time.perf_counter()
    granule, alloc = icon4py_granule(s.grid, s.statics, s.sattrs, case, nlev, mean_cell_area,
                                     args.backend)
    timings[f"{tag} ICON4Py set-up (gt4py compile when not cached)"] = time.perf_counter() - t0
    states = Icon4pyStates(arrays, alloc, s.sizes)
    rows: list[Row] = []
    cfl_theirs, substep_seconds = [], []
    for i, step in enumerate(steps):
        if step["reset_max_vertical_cfl"]:
            states.diagnostic.max_vertical_cfl = np.asarray(0.0)
        t1 = time.perf_counter()
        granule.time_step(
            diagnostic_state_nh=states.diagnostic, prognostic_states=states.prognostic,
            prep_adv=states.prep_adv,
            **{k: v for k, v in step.items() if k != "reset_max_vertical_cfl"})
        substep_seconds.append(time.perf_counter() - t1)
        cfl_theirs.append(float(states.diagnostic.max_vertical_cfl))
        last = i == len(steps) - 1
        if last or substep_dir:
            path = out_path if last else substep_dir / f"substep_{i}.nc"
            ours, oattrs = read_nc(path)
            if int(oattrs["vp_bytes"]) != 8:
                raise SetupError(f"the runner's vp has {int(oattrs['vp_bytes'])} bytes: this "
                                 "check is double precision only (a build without "
                                 "-DICONDIFF_MIXED_PRECISION)")
            theirs = states.snapshot(granule, nlev)
            meta = dict(grid=s.name, nlev=nlev, statics=s.statics_name, case=case.name,
                        substep=i)
            new = compare_snapshot(ours, theirs, nlev, meta, arrays)
            bad = [r for r in new if not r.ok]
            print(f"  [{case.name}] substep {i}: {len(new) - len(bad)}/{len(new)} fields "
                  f"bit-identical, max_vertical_cfl icondiff {float(ours['max_vertical_cfl'])!r} "
                  f"ICON4Py {cfl_theirs[-1]!r}", flush=True)
            for r in bad[:12]:
                print(f"    {r.field}: {r.identical}/{r.values} identical, max ulp "
                      f"{r.max_ulp:.0f}, {r.where} {r.note}", flush=True)
            if last or bad:
                rows += new
            if last:
                cfl = Row(**meta, field="max_vertical_cfl after each substep")
                series = np.asarray(ours["max_vertical_cfl_after_substep"], np.float64)
                (cfl.values, cfl.identical, cfl.max_abs, cfl.max_ulp,
                 cfl.where) = compare_one("cfl", series, np.asarray(cfl_theirs))
                cfl.note = f"{float(np.max(series)):.17g}"
                rows.append(cfl)
        if not last:
            states.swap()
    timings[f"{tag} ICON4Py {len(steps)} substeps"] = sum(substep_seconds)
    if not args.keep and not args.workdir:
        for p in (state_path, run_path, out_path):
            p.unlink(missing_ok=True)
        if substep_dir:
            shutil.rmtree(substep_dir, ignore_errors=True)
    return rows


def setup_grid(args, name: str, grid_file: str, statics_name: str, icondiff, runner,
               workdir: pathlib.Path) -> Setup:
    import icon4py_inputs as ii

    nlev = args.nlev
    grid = ii.load_icon4py_grid(grid_file, args.backend, num_levels=nlev)
    own = workdir / f"{name}-{nlev}-icondiff-statics.nc"
    if not own.is_file():
        icondiff_statics(icondiff, grid_file, nlev, own)
    path = own
    if statics_name == "icon4py":
        path = workdir / f"{name}-{nlev}-icon4py-statics.nc"
        t0 = time.perf_counter()
        info = icon4py_statics_file(grid_file, nlev, own, path)
        print(f"  ICON4Py's statics in icondiff's format: {path} ({time.perf_counter() - t0:.0f} "
              f"s; icondiff's values kept for {', '.join(info['missing']) or 'none'})", flush=True)
    statics, sattrs = read_nc(path)
    sizes = {"cell": grid.num_cells, "edge": grid.num_edges, "nlev": nlev}
    if statics["cell_area"].shape[0] != grid.num_cells:
        raise SetupError(f"{path}: {statics['cell_area'].shape[0]} cells, ICON4Py's grid "
                         f"{grid.num_cells}")
    return Setup(name, grid_file, grid, statics_name, path, statics, sattrs, sizes)


def jw_state(s: Setup, runner, workdir: pathlib.Path, w_noise: float) -> tuple[dict, float]:
    """The runner's JW state on the setup's statics (arrays, icondiff's mean_cell_area)."""
    path = workdir / f"{s.name}-{s.sizes['nlev']}-{s.statics_name}-jw-w{w_noise:g}.nc"
    run_checked([runner, "--grid", s.grid_file, "--statics", s.statics_path,
                 "--write-initial-state", path, "--vn-noise", repr(JW_NOISE["vn"]),
                 "--w-noise", repr(w_noise), "--noise-seed", str(JW_NOISE["seed"])],
                "icondiff_solve_nh_runner (JW state)")
    jw, attrs = read_nc(path)
    return jw, float(attrs["mean_cell_area"])


def markdown(rows: list[Row], args, seconds: float, timings: dict) -> str:
    out = [f"icondiff's SolveNonhydro vs ICON4Py 0.2.0's SolveNonhydro.time_step ({args.backend}), "
           f"seed {args.seed}, {args.substeps} substeps per step, {seconds:.0f} s.\n"]
    groups = {}
    for r in rows:
        groups.setdefault((r.grid, r.nlev, r.statics, r.case), []).append(r)
    out.append("| grid | nlev | statics | case | fields bit-identical | values bit-identical | "
               "max ulp | max_vertical_cfl equal after every substep (largest) | "
               "prognostic values changed | pass |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for (g, n, st, c), rs in groups.items():
        fields = [r for r in rs if not r.field.startswith("max_vertical_cfl after")]
        cfl = [r for r in rs if r.field.startswith("max_vertical_cfl after")]
        values = sum(r.values for r in fields)
        same = sum(r.identical for r in fields)
        ulp = max((r.max_ulp for r in rs), default=0.0)
        cfl_ok = "yes" if cfl and all(r.ok for r in cfl) else "NO"
        changed = [r.changed for r in fields
                   if r.field.startswith("next_") and r.substep == max(x.substep for x in rs)]
        changed_text = f"{100 * min(changed):.1f}%" if changed else "-"
        out.append(f"| {g} | {n} | {st} | {c} | {sum(r.ok for r in fields)}/{len(fields)} | "
                   f"{same:,}/{values:,} | {ulp:.0f} | {cfl_ok} "
                   f"({cfl[0].note if cfl else '-'}) | >= {changed_text} | "
                   f"{'yes' if all(r.ok for r in rs) else 'NO'} |")
    bad = [r for r in rows if not r.ok]
    if bad:
        out.append("\nDiffering fields:\n")
        out.append("| grid | case | substep | field | identical | max ulp | largest difference |")
        out.append("|---|---|---|---|---|---|---|")
        for r in bad:
            out.append(f"| {r.grid} | {r.case} | {r.substep} | {r.field} | "
                       f"{r.identical}/{r.values} | {r.max_ulp:.0f} | {r.where} {r.note} |")
    out.append("\nTimings (s):\n")
    out += [f"- {k}: {v:.1f}" for k, v in timings.items()]
    return "\n".join(out) + "\n"


def numpy_simd_off() -> None:
    """Re-run this script with every SIMD kernel numpy dispatches to on this CPU disabled
    (NPY_DISABLE_CPU_FEATURES, read by numpy at import), as compare_factories.py --numpy-simd off.
    On the embedded backend ICON4Py's float64 exp and log (exner) are numpy's: with its AVX-512
    kernels exner differs from icondiff's (and gtfn's, both glibc's libm) by 1 ulp at a few
    percent of the points after two substeps of the quick case; without them every value is
    bit-identical."""
    if os.environ.get("NPY_DISABLE_CPU_FEATURES"):
        return
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    active = [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]
    if not active:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=" ".join(active))
    os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", type=pathlib.Path,
                        default=os.environ.get("ICONDIFF_BUILD_DIR", HERE.parents[2] / "build"))
    parser.add_argument("--grid-dir", default=os.environ.get("ICONDIFF_GRID_DIR", DEFAULT_GRID_DIR))
    parser.add_argument("--grids", help="comma-separated subset of R02B03, R19B04-LAM, gen-R2B4")
    parser.add_argument("--nlev", type=int, help="levels (default 65; 20 with --quick)")
    parser.add_argument("--substeps", type=int, help="substeps per step (default 5; --quick 2)")
    parser.add_argument("--cases", help="comma-separated subset of " + ", ".join(CASES))
    parser.add_argument("--quick", action="store_true",
                        help="R19B04-LAM, 20 levels, case 'quick', 2 substeps per step")
    parser.add_argument("--backend", choices=("gtfn_cpu", "embedded"), default="gtfn_cpu",
                        help="ICON4Py's gt4py backend (embedded: numpy, nothing compiled)")
    parser.add_argument("--numpy-simd", choices=("on", "off"),
                        help="embedded only: numpy's SIMD math kernels (default off: the script "
                             "re-runs itself with NPY_DISABLE_CPU_FEATURES, so that numpy's "
                             "float64 exp/log are glibc's, as gtfn's and icondiff's)")
    parser.add_argument("--statics-source", choices=("icondiff", "icon4py", "both"),
                        default="icondiff", help="who computes the statics both sides read")
    parser.add_argument("--every-substep", action="store_true",
                        help="compare after every substep (the first difference is reported)")
    parser.add_argument("--seed", type=int, default=20250301)
    parser.add_argument("--perturb-icondiff", metavar="FIELD",
                        help="self-test: move icondiff's initial FIELD (e.g. current_theta_v) by "
                             "1 ulp at one point; the comparison must then fail")
    parser.add_argument("--markdown", type=pathlib.Path)
    parser.add_argument("--json", type=pathlib.Path)
    parser.add_argument("--workdir", type=pathlib.Path, help="keep every file here")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    if args.backend == "embedded" and args.numpy_simd != "on":
        numpy_simd_off()
    args.nlev = args.nlev or (20 if args.quick else 65)
    args.substeps = args.substeps or (2 if args.quick else 5)
    grids = args.grids.split(",") if args.grids else (["R19B04-LAM"] if args.quick
                                                      else [g for g, _ in GRIDS])
    cases = args.cases.split(",") if args.cases else (["quick"] if args.quick
                                                      else ["dd24", "dd4-iau"])
    unknown = (set(grids) - {g for g, _ in GRIDS}) | (set(cases) - set(CASES))
    if unknown:
        parser.error(f"unknown grids/cases {sorted(unknown)}")
    statics_sources = ["icondiff", "icon4py"] if args.statics_source == "both" else [
        args.statics_source]

    start = time.time()
    os.environ.setdefault("FLOAT_PRECISION", "double")
    import warnings

    warnings.filterwarnings("ignore", message=".*Using Python execution.*")
    warnings.filterwarnings("ignore", category=UserWarning, module="gt4py")
    try:
        try:
            import icon4py_inputs as ii  # noqa: F401  (gt4py's cache first)
            import netCDF4  # noqa: F401
            from icon4py.model.atmosphere.dycore import solve_nonhydro  # noqa: F401
        except ImportError as e:
            raise SetupError(f"{e}: {VENV_HINT}") from e
        runner = find_tool(args.build_dir, "icondiff_solve_nh_runner")
        icondiff = find_tool(args.build_dir, "icondiff")
        if args.workdir:
            args.workdir.mkdir(parents=True, exist_ok=True)
            workdir = args.workdir
        else:
            workdir = pathlib.Path(tempfile.mkdtemp(prefix="icondiff-solve-nh-"))
        print(f"compare_solve_nh: ICON4Py backend {args.backend}, runner {runner}, workdir "
              f"{workdir}, GT4PY_BUILD_CACHE_DIR {os.environ.get('GT4PY_BUILD_CACHE_DIR')}"
              + (f", NPY_DISABLE_CPU_FEATURES={os.environ['NPY_DISABLE_CPU_FEATURES']}"
                 if os.environ.get("NPY_DISABLE_CPU_FEATURES") else ""), flush=True)
        grid_files = {}
        for name, spec in GRIDS:
            if name not in grids:
                continue
            if not spec.startswith("generate:"):
                spec = str(pathlib.Path(args.grid_dir) / spec)
                if not pathlib.Path(spec).is_file():
                    raise SetupError(f"{spec} is missing (see ../shared/data/grids/SOURCES.md)")
            grid_files[name] = ii.grid_file(spec, str(icondiff), workdir)
    except SetupError as e:
        print(f"compare_solve_nh: error: {e}", file=sys.stderr)
        return 2

    rows: list[Row] = []
    timings: dict = {}
    failures = 0
    for name, grid_file in grid_files.items():
        for statics_name in statics_sources:
            print(f"\n== {name} ({grid_file}), {args.nlev} levels, statics from {statics_name}",
                  flush=True)
            try:
                t0 = time.perf_counter()
                setup = setup_grid(args, name, grid_file, statics_name, icondiff, runner, workdir)
                timings[f"{name}-{args.nlev}-{statics_name} statics + JW state"] = (
                    time.perf_counter() - t0)
                print(f"  {setup.sizes['cell']} cells, {setup.sizes['edge']} edges, "
                      f"limited_area={setup.grid.limited_area}, nflatlev "
                      f"{int(setup.sattrs['nflatlev'])}, nflat_gradp "
                      f"{int(setup.sattrs['nflat_gradp'])}, damping layer to "
                      f"{int(setup.sattrs['end_index_of_damping_layer'])}, kstart_moist "
                      f"{int(setup.sattrs['kstart_moist'])}", flush=True)
            except SetupError as e:
                print(f"compare_solve_nh: error: {e}", file=sys.stderr)
                return 2
            except Exception as e:  # noqa: BLE001
                traceback.print_exc()
                rows.append(Row(name, args.nlev, statics_name, "-", -1, "setup",
                                note=f"{type(e).__name__}: {e}"))
                failures += 1
                continue
            for case_name in cases:
                try:
                    new = run_case(args, setup, CASES[case_name], runner, workdir, timings)
                except SetupError as e:
                    print(f"compare_solve_nh: error: {e}", file=sys.stderr)
                    return 2
                except Exception as e:  # noqa: BLE001
                    traceback.print_exc()
                    new = [Row(name, args.nlev, statics_name, case_name, -1, "run",
                               note=f"{type(e).__name__}: {str(e)[:500]}")]
                rows += new
                failures += sum(not r.ok for r in new)
    seconds = time.time() - start
    text = markdown(rows, args, seconds, timings)
    print("\n" + text)
    print(f"{len(rows)} comparisons, {failures} failures, {seconds:.0f} s")
    if args.markdown:
        args.markdown.write_text(text)
    if args.json:
        args.json.write_text(json.dumps({
            "rows": [{**dataclasses.asdict(r), "ok": r.ok} for r in rows], "timings": timings,
            "seconds": seconds, "nlev": args.nlev, "substeps": args.substeps}, indent=1))
    if not args.workdir and not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
