#!/usr/bin/env python3
"""Compare icondiff's geometry, interpolation coefficients and metric fields with ICON4Py's
factories on the same grid file.

icondiff's side: the diffusion-init savepoint of `icondiff run` (it holds every static input of
the granule, computed by icondiff's factories from the grid file). ICON4Py's side: its
GridGeometry, InterpolationFieldsFactory and MetricsFieldsFactory on the same file
(icon4py_inputs.make_factories), configured like the icondiff run: the same vertical-grid
parameters (so the same vct_a; checked), the same analytic Gaussian-hill topography (evaluated
here with icondiff's formula and operation order), the same zdiffu thresholds and the same
nudging coefficient.

ICON4Py fills most fields only on part of the grid (its `horizontal_start`, e.g. lateral boundary
row 2 onwards for the RBF coefficients, the nudging zone onwards for zd_*) and leaves the rest at
its allocation value, while icondiff may compute them everywhere or write 0. Every field is
therefore reported twice: inside ICON4Py's domain (this decides pass/fail) and outside it
(counted, for information). The domains are those of ICON4Py 0.2.0's factories (FIELDS below).

Known differences of convention are recomputed here in numpy from the grid, so that the report
says which formula each side follows rather than only that they differ (`--explain`, default on):

* vertex_vertex_length: ICON4Py R*arccos(a.b), icondiff R*atan2(|a x b|, a.b). arccos loses
  accuracy for small angles (relative error ~ eps/theta^2), atan2 does not.
* rbf_coeff_1/2: the 6x6 RBF systems are nearly singular (Gaussian kernel with scale 0.5 rad on
  edges a few mrad apart); ICON4Py solves them with LAPACK's pivoted LU (numpy.linalg.solve) on
  arccos distances, icondiff with an unpivoted LU (KokkosBatched) on atan2 distances. The
  explanation solves icondiff's systems with two different numpy solvers and reports their spread
  next to the condition numbers.

Usage:
  compare_factories.py --icondiff build/bin/icondiff --grid NAME GRID.nc|generate:RnBk [--grid ...] \\
      [--nlev 65] [--backend gtfn_cpu] [--markdown OUT.md] [--json OUT.json]

Pass criterion, inside ICON4Py's domain: |icon4py - icondiff| <= bound (|icondiff| + max over
the points of |icondiff| in the same slot/level), bound = --rtol (1e-12) except for the two
explained fields: 1e-9 for inverse_vertex_vertex_lengths (arccos error eps/theta^2 = 1e-11 on
the 12 km LAM grid; a grid with 1 km edges would need 5e-9) and 3e-3 for rbf_coeff_1/2 (what
ICON4Py's own test of these coefficients against ICON's allows on MCH_CH_R04B09: atol 3e-3;
3e-10 on the global APE R02B04). The floor term matters for values near 0 (unit
vector components of an edge almost aligned with a meridian, gradient coefficients that nearly
cancel): their pointwise relative difference is meaningless, the table shows it anyway next to
max|diff| / max|icondiff|.

--statics: the dycore's static fields instead (every static array of ICON4Py 0.2.0's
solve_nh_init, c_owner_mask included: 48 arrays, plus nflat_gradp, z_ifc, the topography and
the Coriolis parameter coriolis_frequency of ICON4Py's GridGeometry, grid_init's f_e);
STATICS below lists each with its ICON4Py attribute, dimensions and domain). icondiff's side is its
statics file (format: the comment "the dycore's statics" below), written by
`icondiff grid-info --grid GRID --nlev N [vertical and --mount_* options] --statics OUT.nc` or
given with --statics-file NAME FILE; ICON4Py's side its InterpolationFieldsFactory and
MetricsFieldsFactory with the same vertical grid and hill and ICON4Py's MetricsConfig defaults
(--exner-expol, --vwind-offctr, --rayleigh-coeff, --divdamp-type, --divdamp-trans-start/end).
Per field, inside ICON4Py's domain (horizontal zones x levels): bitwise-equal or not, max ulp,
max relative difference and the pass criterion above (bound 1e-12, 2e-9 for rbf_vec_coeff_e,
3e-3 for rbf_vec_coeff_v1/v2, with the floor term; integer and boolean fields exactly; a float32
variable, a vp field of a mixed-precision build, against ICON4Py's value rounded to float32 with
a bound of at least float32's epsilon), and the values outside it that differ (counted).
ddxn_z_full, ddxt_z_full and pos_on_tplane_e_2 (small differences of large terms) add a
documented absolute term to the bound (Static.floor, STATICS_FLOORS); geofac_rot leaves out the
V2E slots that have no edge in the grid file (Static.slots); STATICS_DIFFERS gives the measured
reason of each field that is not bit-identical. --numpy-simd off re-runs the script with numpy's
SIMD kernels disabled (NPY_DISABLE_CPU_FEATURES), so that ICON4Py's float64 numpy math is glibc's
on any x86-64 CPU. The file's format (dimensions, variables, attributes) is checked too.
make_fake_statics.py writes such a file from ICON4Py's own values (optionally perturbed) to test
this end to end.

  compare_factories.py --statics --grid NAME GRID.nc [--grid ...] \\
      (--icondiff build/bin/icondiff | --statics-file NAME FILE [...]) [--nlev 65] \\
      [--numpy-simd off] [--markdown OUT.md] [--json OUT.json]

Exit status: 0 if every field passes, 1 otherwise, 2 for setup errors.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import icon4py_inputs as ii  # noqa: E402  (sets the gt4py cache before importing gt4py)

import netCDF4  # noqa: E402
import numpy as np  # noqa: E402

from icon4py.model.common import dimension as dims  # noqa: E402
from icon4py.model.common.grid import geometry_attributes as geometry_meta  # noqa: E402
from icon4py.model.common.grid import horizontal as h_grid  # noqa: E402
from icon4py.model.common.interpolation import interpolation_attributes as interp_meta  # noqa: E402
from icon4py.model.common.metrics import metrics_attributes as metrics_meta  # noqa: E402
from icon4py.model.common.states import factory  # noqa: E402

warnings.filterwarnings("ignore", message=".*Using Python execution.*")
warnings.filterwarnings("ignore", message="Python is not running in optimized mode")


@dataclasses.dataclass(frozen=True)
class Field:
    """One compared field: icondiff's savepoint name, ICON4Py's factory and attribute name, and
    the horizontal range ICON4Py computes it on ([start of zone `start`, end of zone `end`))."""

    savepoint: str
    source: str  # 'geometry', 'interpolation', 'metrics'
    icon4py: str
    location: str  # 'cell', 'edge', 'vertex'
    start: str = "LOCAL"
    end: str = "END"
    #: documented bound for a field whose two sides follow different formulas (see --explain)
    rtol: float | None = None
    note: str = ""


LB2, NUDGING = "LATERAL_BOUNDARY_LEVEL_2", "NUDGING"
G, I, M = "geometry", "interpolation", "metrics"
#: Fields of icondiff's savepoint and the ICON4Py 0.2.0 factory fields and domains they match.
FIELDS = (
    Field("cell_area", G, geometry_meta.CELL_AREA, "cell", note="read from the grid file"),
    Field("tangent_orientation", G, geometry_meta.TANGENT_ORIENTATION, "edge",
          note="read from the grid file"),
    Field("inverse_primal_edge_lengths", G, f"inverse_of_{geometry_meta.EDGE_LENGTH}", "edge"),
    Field("inverse_dual_edge_lengths", G, f"inverse_of_{geometry_meta.DUAL_EDGE_LENGTH}", "edge"),
    Field("inverse_vertex_vertex_lengths", G, f"inverse_of_{geometry_meta.VERTEX_VERTEX_LENGTH}",
          "edge", LB2, "LOCAL", rtol=1e-9,
          note="ICON4Py R*arccos(a.b), icondiff R*atan2(|a x b|, a.b)"),
    Field("edge_areas", G, geometry_meta.EDGE_AREA, "edge"),
    Field("primal_normal_vert_x", G, geometry_meta.EDGE_NORMAL_VERTEX_U, "edge", LB2, "LOCAL"),
    Field("primal_normal_vert_y", G, geometry_meta.EDGE_NORMAL_VERTEX_V, "edge", LB2, "LOCAL"),
    Field("dual_normal_vert_x", G, geometry_meta.EDGE_TANGENT_VERTEX_U, "edge", LB2, "LOCAL"),
    Field("dual_normal_vert_y", G, geometry_meta.EDGE_TANGENT_VERTEX_V, "edge", LB2, "LOCAL"),
    Field("geofac_div", I, interp_meta.GEOFAC_DIV, "cell"),
    Field("geofac_n2s", I, interp_meta.GEOFAC_N2S, "cell", LB2),
    Field("geofac_grg_x", I, interp_meta.GEOFAC_GRG_X, "cell", LB2),
    Field("geofac_grg_y", I, interp_meta.GEOFAC_GRG_Y, "cell", LB2),
    Field("e_bln_c_s", I, interp_meta.E_BLN_C_S, "cell"),
    Field("rbf_coeff_1", I, interp_meta.RBF_VEC_COEFF_V1, "vertex", LB2, "LOCAL", rtol=3e-3,
          note="ill-conditioned 6x6 solves: pivoted LU + arccos (ICON4Py) vs unpivoted LU + atan2; "
               "ICON4Py's test against ICON allows atol 3e-3 on MCH_CH_R04B09"),
    Field("rbf_coeff_2", I, interp_meta.RBF_VEC_COEFF_V2, "vertex", LB2, "LOCAL", rtol=3e-3,
          note="as rbf_coeff_1"),
    Field("nudgecoeff_e", I, interp_meta.NUDGECOEFFS_E, "edge", "NUDGING_LEVEL_2"),
    Field("theta_ref_mc", M, metrics_meta.THETA_REF_MC, "cell"),
    Field("wgtfac_c", M, metrics_meta.WGTFAC_C, "cell"),
    Field("zd_diffcoef", M, metrics_meta.ZD_DIFFCOEF, "cell", NUDGING),
    Field("zd_intcoef", M, metrics_meta.ZD_INTCOEF, "cell", NUDGING),
    Field("zd_vertoffset", M, metrics_meta.ZD_VERTOFFSET, "cell", NUDGING),
)

LOCATION_DIM = {"cell": dims.CellDim, "edge": dims.EdgeDim, "vertex": dims.VertexDim}


def domain_range(grid, location: str, start: str, end: str) -> tuple[int, int]:
    """[start index of zone `start`, end index of zone `end`) at `location` on ICON4Py's grid."""
    domain = h_grid.domain(LOCATION_DIM[location])
    return (int(grid.start_index(domain(h_grid.Zone[start]))),
            int(grid.end_index(domain(h_grid.Zone[end]))))


# ---- icondiff side ------------------------------------------------------------------------------


def icondiff_run_args(args) -> list[str]:
    """The `icondiff run` options that define the static fields, set explicitly so that ICON4Py
    gets exactly the same values (they are not all recorded in the savepoint)."""
    return ["--nlev", str(args.nlev), "--top_height", repr(args.top_height),
            "--min_lay_thckn", repr(args.min_lay_thckn), "--stretch_fac", repr(args.stretch_fac),
            "--damp_height", repr(args.damp_height), "--thslp_zdiffu", repr(args.thslp_zdiffu),
            "--thhgtd_zdiffu", repr(args.thhgtd_zdiffu), "--mount_height", repr(args.mount_height),
            "--mount_half_width", repr(args.mount_half_width), "--mount_lon", repr(args.mount_lon),
            "--mount_lat", repr(args.mount_lat), "--nudge_max_coeff", repr(args.nudge_max_coeff),
            "--l_zdiffu_t", "1"]


def icondiff_fields(icondiff: str, grid_file: str, workdir: Path, args) -> ii.Savepoint:
    """icondiff's static fields: the init savepoint of one `icondiff run` call on the grid."""
    cmd = [icondiff, "run", "--model", "diffusion", "--grid", grid_file, "--steps", "1", "--savepoints", str(workdir),
           "--savepoint-step", "1", "--quiet", "--overwrite", *icondiff_run_args(args)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return ii.read_savepoint(workdir / "diffusion-init.nc")


# ---- ICON4Py side -------------------------------------------------------------------------------


def icon4py_factories(grid_file: str, args):
    """ICON4Py's three factories on the grid file with the icondiff run's configuration."""
    manager = ii.load_icon4py_grid_manager(grid_file, args.backend, args.nlev)
    cells = manager.coordinates[dims.CellDim]
    with netCDF4.Dataset(grid_file) as ds:
        radius = float(getattr(ds, "sphere_radius", 6371229.0))
    topography = ii.gaussian_hill_topography(
        ii.as_numpy(cells["lon"]), ii.as_numpy(cells["lat"]), args.mount_height,
        args.mount_half_width, args.mount_lon, args.mount_lat, radius)
    return ii.make_factories(
        grid_file, args.backend, num_levels=args.nlev,
        vertical_config=dict(model_top_height=args.top_height,
                             lowest_layer_thickness=args.min_lay_thckn,
                             stretch_factor=args.stretch_fac,
                             rayleigh_damping_height=args.damp_height),
        topography=topography, thslp_zdiffu=args.thslp_zdiffu, thhgtd_zdiffu=args.thhgtd_zdiffu,
        max_nudging_coefficient=5.0 * args.nudge_max_coeff)


# ---- comparison -----------------------------------------------------------------------------------


def compare_field(field: Field, actual: np.ndarray, expected: np.ndarray, grid, rtol: float) -> dict:
    """Inside/outside ICON4Py's domain comparison of one field (point index first)."""
    start, end = domain_range(grid, field.location, field.start, field.end)
    bound = field.rtol if field.rtol is not None else rtol
    inside = ii.compare_arrays(field.savepoint, actual[start:end], expected[start:end], bound,
                               floor=True)
    outside_mask = np.ones(actual.shape[0], bool)
    outside_mask[start:end] = False
    out_a, out_e = actual[outside_mask], expected[outside_mask]
    differing = np.abs(out_a - out_e) > rtol * np.abs(out_e)
    points = np.flatnonzero(outside_mask)
    rows = np.unique(np.nonzero(differing)[0]) if differing.size else np.array([], int)
    return {
        "field": field.savepoint,
        "icon4py": f"{field.source}:{field.icon4py}",
        "domain": f"{field.location}s [{start}, {end}) of {actual.shape[0]}"
                  + ("" if (field.start, field.end) == ("LOCAL", "END")
                     else f" ({field.start}..{field.end})"),
        "inside": inside,
        "bound": bound,
        "outside_points_differing": int(rows.size),
        "outside_example": (int(points[rows[0]]) if rows.size else None),
        "outside_icon4py_zero": bool(rows.size and np.all(out_a[rows] == 0)),
        "outside_icondiff_zero": bool(rows.size and np.all(out_e[rows] == 0)),
        "note": field.note,
    }


def explain_vertex_vertex_length(geometry, grid, savepoint: ii.Savepoint, radius: float) -> dict:
    """Recompute 1/vertex_vertex_length both ways from the vertex coordinates: which formula
    does each side follow, and which is closer to an extended-precision reference?"""
    lat = ii.as_numpy(geometry.get(geometry_meta.VERTEX_LAT))
    lon = ii.as_numpy(geometry.get(geometry_meta.VERTEX_LON))
    start, end = domain_range(grid, "edge", LB2, "LOCAL")
    e2c2v = np.asarray(grid.get_connectivity("E2C2V").ndarray)[start:end]

    def cart(v, xp=np):
        return (xp.cos(lat[v]) * xp.cos(lon[v]), xp.cos(lat[v]) * xp.sin(lon[v]), xp.sin(lat[v]))

    a, b = cart(e2c2v[:, 2]), cart(e2c2v[:, 3])
    dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    cross = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
    arccos_form = 1.0 / (radius * np.arccos(dot))
    atan2_form = 1.0 / (radius * np.arctan2(
        np.sqrt(cross[0] * cross[0] + cross[1] * cross[1] + cross[2] * cross[2]), dot))
    # extended precision (x87 long double): the reference both are measured against
    la, lo = lat.astype(np.longdouble), lon.astype(np.longdouble)
    al = [np.cos(la[e2c2v[:, 2]]) * np.cos(lo[e2c2v[:, 2]]),
          np.cos(la[e2c2v[:, 2]]) * np.sin(lo[e2c2v[:, 2]]), np.sin(la[e2c2v[:, 2]])]
    bl = [np.cos(la[e2c2v[:, 3]]) * np.cos(lo[e2c2v[:, 3]]),
          np.cos(la[e2c2v[:, 3]]) * np.sin(lo[e2c2v[:, 3]]), np.sin(la[e2c2v[:, 3]])]
    cl = [al[1] * bl[2] - al[2] * bl[1], al[2] * bl[0] - al[0] * bl[2], al[0] * bl[1] - al[1] * bl[0]]
    dl = al[0] * bl[0] + al[1] * bl[1] + al[2] * bl[2]
    reference = 1.0 / (np.longdouble(radius) * np.arctan2(
        np.sqrt(cl[0] ** 2 + cl[1] ** 2 + cl[2] ** 2), dl))

    icon4py = ii.as_numpy(geometry.get(f"inverse_of_{geometry_meta.VERTEX_VERTEX_LENGTH}"))[start:end]
    icondiff = savepoint.fields["inverse_vertex_vertex_lengths"][start:end]

    def rel(x, y):
        return float(np.max(np.abs(np.asarray(x, np.longdouble) - y) / np.abs(y)))

    return {
        "field": "inverse_vertex_vertex_lengths",
        "ICON4Py vs R*arccos(a.b) in numpy": rel(icon4py, arccos_form),
        "icondiff vs R*atan2(|a x b|, a.b) in numpy": rel(icondiff, atan2_form),
        "ICON4Py vs long-double reference": rel(icon4py, reference),
        "icondiff vs long-double reference": rel(icondiff, reference),
        "smallest far-vertex angle (rad)": float(np.min(1.0 / (radius * atan2_form))),
    }


def explain_rbf(geometry, grid, savepoint: ii.Savepoint, icon4py_coeffs: dict) -> dict:
    """Rebuild the vertex RBF systems of the hexagons (Gaussian kernel, ICON4Py's scale) twice:
    with icondiff's atan2 distances and with ICON4Py's arccos(normalised dot) distances. Solve
    them with numpy's pivoted LU (what ICON4Py calls) and with a Cholesky factorisation, and
    report, next to the condition numbers, how far apart the solutions are: icondiff-vs-ICON4Py
    is round-off of an ill-conditioned solve if it is of the size of the spread that the other
    distance formula alone, another solver, or a numpy re-run of ICON4Py's own recipe produce
    (~ cond * eps). Both coefficient sets then reconstruct a solid-body rotation (u = cos(lat),
    v = 0 on the unit sphere) from its normal components: equal errors mean equally valid."""
    start, end = domain_range(grid, "vertex", LB2, "LOCAL")
    v2e = np.asarray(grid.get_connectivity("V2E").ndarray)[start:end]
    g = {name: ii.as_numpy(geometry.get(name)) for name in (
        geometry_meta.EDGE_CENTER_X, geometry_meta.EDGE_CENTER_Y, geometry_meta.EDGE_CENTER_Z,
        geometry_meta.EDGE_NORMAL_X, geometry_meta.EDGE_NORMAL_Y, geometry_meta.EDGE_NORMAL_Z,
        geometry_meta.VERTEX_X, geometry_meta.VERTEX_Y, geometry_meta.VERTEX_Z,
        geometry_meta.VERTEX_LAT, geometry_meta.VERTEX_LON)}
    scale = float(icon4py_coeffs["scale"])
    full = (v2e >= 0).all(axis=1)  # hexagons; pentagons have a 5x5 system, left out here
    v2e = v2e[full]
    mid = np.stack([g[geometry_meta.EDGE_CENTER_X], g[geometry_meta.EDGE_CENTER_Y],
                    g[geometry_meta.EDGE_CENTER_Z]], -1)[v2e]
    nrm = np.stack([g[geometry_meta.EDGE_NORMAL_X], g[geometry_meta.EDGE_NORMAL_Y],
                    g[geometry_meta.EDGE_NORMAL_Z]], -1)[v2e]
    vx = np.stack([g[geometry_meta.VERTEX_X], g[geometry_meta.VERTEX_Y],
                   g[geometry_meta.VERTEX_Z]], -1)[start:end][full]

    def arc(p, q):
        c = np.cross(p, q)
        return np.arctan2(np.sqrt(np.sum(c * c, -1)), np.sum(p * q, -1))

    def arc_icon4py(p, q):
        """rbf_interpolation._compute_distance_*: arccos of the normalised dot, clipped."""
        cos = np.sum(p * q, -1) / np.linalg.norm(p, axis=-1) / np.linalg.norm(q, axis=-1)
        return np.arccos(np.clip(cos, -1.0, 1.0))

    def phi(r):
        return np.exp(-(r / scale) ** 2)

    normals = np.einsum("vid,vjd->vij", nrm, nrm)
    matrix = normals * phi(arc(mid[:, :, None, :], mid[:, None, :, :]))
    matrix_icon4py = normals * phi(arc_icon4py(mid[:, :, None, :], mid[:, None, :, :]))
    lat = g[geometry_meta.VERTEX_LAT][start:end][full]
    lon = g[geometry_meta.VERTEX_LON][start:end][full]
    east = np.stack([-np.sin(lon), np.cos(lon), np.zeros_like(lon)], -1)
    north = np.stack([-np.sin(lat) * np.cos(lon), -np.sin(lat) * np.sin(lon), np.cos(lat)], -1)
    # solid-body rotation about the z axis: velocity z x p at the edge midpoints
    mid_unit = mid / np.linalg.norm(mid, axis=-1, keepdims=True)
    vn = np.sum(np.cross(np.array([0.0, 0.0, 1.0]), mid_unit) * nrm, -1)
    exact = {"rbf_coeff_1": np.cos(lat), "rbf_coeff_2": np.zeros_like(lat)}
    rows = {}
    for name, t in (("rbf_coeff_1", east), ("rbf_coeff_2", north)):
        tn = np.einsum("vd,vid->vi", t, nrm)
        rhs = tn * phi(arc(vx[:, None, :], mid))
        rhs_icon4py = tn * phi(arc_icon4py(vx[:, None, :], mid))
        lu = np.linalg.solve(matrix, rhs[..., None])[..., 0]
        lu_icon4py = np.linalg.solve(matrix_icon4py, rhs_icon4py[..., None])[..., 0]
        chol = np.linalg.cholesky(matrix)
        y = np.linalg.solve(chol, rhs[..., None])
        ch = np.linalg.solve(np.swapaxes(chol, -1, -2), y)[..., 0]
        for c in (lu, lu_icon4py, ch):
            c /= np.sum(tn * c, -1, keepdims=True)
        icondiff = savepoint.fields[name][start:end][full]
        icon4py = icon4py_coeffs[name][start:end][full]
        ref = np.max(np.abs(icondiff), axis=1, keepdims=True)
        rows[name] = {
            "icondiff vs ICON4Py": float(np.max(np.abs(icondiff - icon4py) / ref)),
            "ICON4Py vs numpy re-run of its recipe (arccos, LU)":
                float(np.max(np.abs(icon4py - lu_icon4py) / ref)),
            "icondiff vs numpy (atan2, LU)": float(np.max(np.abs(icondiff - lu) / ref)),
            "numpy atan2 vs arccos distances (LU)": float(np.max(np.abs(lu - lu_icon4py) / ref)),
            "numpy LU vs Cholesky (atan2)": float(np.max(np.abs(lu - ch) / ref)),
            "solid-body rotation error, icondiff": float(np.max(np.abs(
                np.sum(icondiff * vn, -1) - exact[name]))),
            "solid-body rotation error, ICON4Py": float(np.max(np.abs(
                np.sum(icon4py * vn, -1) - exact[name]))),
        }
    cond = np.linalg.cond(matrix)
    return {"field": "rbf_coeff_1/2", "scale (rad)": scale, "hexagon systems": int(full.sum()),
            "condition number median/max": f"{np.median(cond):.2e} / {np.max(cond):.2e}",
            "max |difference| / max |coefficient of the vertex|": rows}


# ---- driver ---------------------------------------------------------------------------------------


def run_grid(name: str, grid_spec: str, args, workdir: Path) -> dict:
    grid_file = ii.grid_file(grid_spec, args.icondiff, workdir)
    t0 = time.perf_counter()
    savepoint = icondiff_fields(args.icondiff, grid_file, workdir / name, args)
    t_icondiff = time.perf_counter() - t0
    t0 = time.perf_counter()
    manager, geometry, interpolation, metrics, vertical = icon4py_factories(grid_file, args)
    grid = manager.grid
    sources = {G: geometry, I: interpolation, M: metrics}
    result = {"grid": name, "file": grid_file, "cells": grid.num_cells,
              "limited_area": bool(grid.limited_area), "nlev": args.nlev, "fields": [],
              "errors": {}}
    vct = ii.compare_arrays("vct_a", ii.as_numpy(vertical.vct_a), savepoint.fields["vct_a"], args.rtol)
    result["vct_a"] = vct
    if int(vertical.end_index_of_damping_layer) != savepoint.nrd:
        result["errors"]["nrd"] = (f"ICON4Py nrd {vertical.end_index_of_damping_layer}, "
                                   f"icondiff {savepoint.nrd}")
    for field in FIELDS:
        if field.savepoint not in savepoint.fields:
            continue
        try:
            actual = ii.as_numpy(sources[field.source].get(field.icon4py))
        except Exception as err:  # an ICON4Py factory that cannot compute the field
            result["errors"][field.savepoint] = f"{type(err).__name__}: {str(err)[:300]}"
            continue
        expected = savepoint.fields[field.savepoint]
        if actual.shape != expected.shape:
            result["errors"][field.savepoint] = (f"shape: ICON4Py {actual.shape}, "
                                                 f"icondiff {expected.shape}")
            continue
        result["fields"].append(compare_field(field, actual, expected, grid, args.rtol))
    if args.explain:
        with netCDF4.Dataset(grid_file) as ds:
            radius = float(getattr(ds, "sphere_radius", 6371229.0))
        result["explanations"] = [
            explain_vertex_vertex_length(geometry, grid, savepoint, radius),
            explain_rbf(geometry, grid, savepoint, {
                "scale": interpolation.get(interp_meta.RBF_SCALE_VERTEX, factory.RetrievalType.SCALAR),
                "rbf_coeff_1": ii.as_numpy(interpolation.get(interp_meta.RBF_VEC_COEFF_V1)),
                "rbf_coeff_2": ii.as_numpy(interpolation.get(interp_meta.RBF_VEC_COEFF_V2))}),
        ]
    result["seconds"] = {"icondiff run": t_icondiff, "ICON4Py factories": time.perf_counter() - t0}
    return result


def summary_rows(results: list[dict]) -> list[dict]:
    """One row per (grid, field): the numbers of the docs table."""
    rows = []
    for r in results:
        for f in r["fields"]:
            d = f["inside"]
            rows.append({
                "grid": r["grid"],
                "field": f["field"],
                "ICON4Py domain": f["domain"],
                "max abs diff": f"{d.max_abs:.2e}",
                "max rel diff": f"{d.max_rel:.2e}",
                "at": ii.where_text(d.where_rel),
                "max abs / max|e|": f"{d.max_normwise:.2e}",
                "bound": f"{f['bound']:g}",
                "outside: points differing": (
                    "0" if not f["outside_points_differing"] else
                    f"{f['outside_points_differing']} (e.g. {f['outside_example']}; "
                    + ("ICON4Py 0" if f["outside_icon4py_zero"] else
                       "icondiff 0" if f["outside_icondiff_zero"] else "both non-zero") + ")"),
                "result": "pass" if d.passed else "FAIL",
            })
        rows.append({"grid": r["grid"], "field": "vct_a", "ICON4Py domain": f"{r['nlev'] + 1} half levels",
                     "max abs diff": f"{r['vct_a'].max_abs:.2e}", "max rel diff": f"{r['vct_a'].max_rel:.2e}",
                     "at": ii.where_text(r["vct_a"].where_rel),
                     "max abs / max|e|": f"{r['vct_a'].max_normwise:.2e}", "bound": f"{r['vct_a'].rtol:g}",
                     "outside: points differing": "-",
                     "result": "pass" if r["vct_a"].passed else "FAIL"})
    return rows


# ---- the dycore's statics (--statics) ---------------------------------------------------------------
#
# Every static array of ICON4Py 0.2.0's `solve_nh_init` (bindings/dycore_wrapper.py), plus z_ifc,
# the topography and c_owner_mask, from ICON4Py's own factories, against icondiff's statics file
# (`icondiff grid-info --grid GRID --nlev N [vertical and --mount_* options] --statics OUT.nc`).
#
# The statics file (format checked by read_statics): netCDF, dimensions cell, edge, vertex, nlev,
# nlev_half (= nlev + 1) and one per neighbour table, in lower case, with its slot count
# (STATICS_NEIGHBOUR_DIMS); one variable per field named by ICON's short name, dimensions
# (point[, neighbour][, level]) in C order; vertoffset_gradp as int level offsets relative to k
# (ICON4Py's form, not ICON's vertidx_gradp), pg_exdist dense (edge, nlev) with 0 where nothing
# is extrapolated, booleans as byte 0/1, nflat_gradp a scalar int (0-based level), rayleigh_w
# (nlev_half) and scalfac_dd3d (nlev) vertical profiles only; attributes units, long_name,
# icon_name, icon4py_name, used_by. An optional vct_a (nlev_half) is compared when present.

#: The neighbour dimensions of the statics file and their slot counts.
STATICS_NEIGHBOUR_DIMS = {"e2c": 2, "c2e": 3, "v2e": 6, "v2c": 6, "c2e2co": 4, "e2c2eo": 5,
                          "e2c2e": 4}
#: Attributes every variable of the statics file carries.
STATICS_ATTRIBUTES = ("units", "long_name", "icon_name", "icon4py_name", "used_by")


@dataclasses.dataclass(frozen=True)
class Static:
    """One static field of solve_nh_init: its name in the statics file (ICON's short name),
    ICON4Py's factory and attribute, the file's dimensions, and the domain ICON4Py computes it
    on: zones [start of `start`, end of `end`) at `location` (None: no horizontal dimension) and
    levels [`levels[0]`, `levels[1]`), expressions of nlev and nrd (ICON4Py's
    end_index_of_damping_layer); None: every level of the variable."""

    name: str
    source: str  # 'geometry', 'interpolation', 'metrics'
    icon4py: str
    location: str | None  # 'cell', 'edge', 'vertex'; None for vertical profiles and scalars
    neighbour: str | None = None  # neighbour dimension of the file (STATICS_NEIGHBOUR_DIMS)
    vertical: str | None = None  # 'nlev' or 'nlev_half'
    start: str = "LOCAL"
    end: str = "END"
    levels: tuple[str, str] | None = None
    dtype: str = "f8"  # 'f8', 'i4', 'u1' (a boolean as byte 0/1)
    rtol: float | None = None  # documented bound where the two sides follow different recipes
    #: an absolute term added to the bound, per value, for a field that is a small difference of
    #: large terms (STATICS_FLOORS: its name -> how it is computed and why)
    floor: str | None = None
    #: a neighbour table whose missing entries (-1 in the grid file) are outside the domain
    #: ("V2E": slots of a boundary vertex with fewer than 6 edges)
    slots: str | None = None
    units: str = "1"
    long_name: str = ""
    icon_name: str = ""
    used_by: str = ""
    config: tuple[str, ...] = ()  # the options (STATICS_OPTIONS keys) the value depends on
    note: str = ""

    @property
    def dims(self) -> tuple[str, ...]:
        """The variable's dimensions in the statics file (C order)."""
        out = ((self.location,) if self.location else ()) + (
            (self.neighbour,) if self.neighbour else ()) + ((self.vertical,) if self.vertical else ())
        return out

    @property
    def integer(self) -> bool:
        return self.dtype != "f8"


LB3, LB5 = "LATERAL_BOUNDARY_LEVEL_3", "LATERAL_BOUNDARY_LEVEL_5"
_NH = "solve_nonhydro"
_VA = "velocity_advection"
#: solve_nh_init's static arrays (in its argument order), then nflat_gradp, z_ifc, the topography,
#: c_owner_mask and grid_init's Coriolis parameter (velocity advection's coriolis_frequency)
#: and c_owner_mask. Domains: ICON4Py 0.2.0's factories (metrics_factory.py,
#: interpolation_factory.py and the numpy functions they call); where a field is computed
#: everywhere but from a dependency that ICON4Py leaves at 0 on the lateral boundary rows, the
#: domain is where its inputs are computed, and the note says so.
STATICS = (
    Static("c_lin_e", I, interp_meta.C_LIN_E, "edge", "e2c", start=LB2,
           long_name="linear interpolation weights cell to edge", icon_name="c_lin_e",
           used_by=f"{_NH}, {_VA}, diffusion"),
    Static("c_intp", I, interp_meta.CELL_AW_VERTS, "vertex", "v2c", start=LB2,
           long_name="area weights cell to vertex interpolation", icon_name="cells_aw_verts",
           used_by=_VA),
    Static("e_flx_avg", I, interp_meta.E_FLX_AVG, "edge", "e2c2eo", start=LB5,
           long_name="mass-flux averaging weights at edges", icon_name="e_flx_avg",
           used_by=_NH, config=("divavg_cntrwgt",),
           note="slots 1-4 are filled from LATERAL_BOUNDARY_LEVEL_4 on, slot 0 and the "
                "normalisation from LEVEL_5 on"),
    Static("geofac_grdiv", I, interp_meta.GEOFAC_GRDIV, "edge", "e2c2eo", start=LB2, units="m-2",
           long_name="geometric factor gradient of divergence", icon_name="geofac_grdiv",
           used_by=_NH),
    Static("geofac_rot", I, interp_meta.GEOFAC_ROT, "vertex", "v2e", units="m-1", slots="V2E",
           long_name="geometric factor curl", icon_name="geofac_rot", used_by=f"{_VA}, diffusion",
           note="slots without an edge in the grid file (vertices of a LAM's boundary row 1 have "
                "fewer than 6) are outside the domain: ICON4Py, loading the grid with "
                "keep_skip_values=False, replaces such a V2E entry by the vertex's largest edge "
                "index and fills the slot with that edge's dual length times the file's "
                "orientation there (-1); icondiff, like ICON, writes 0"),
    Static("pos_on_tplane_e_1", I, interp_meta.POS_ON_TPLANE_E_X, "edge", "e2c", start=LB2,
           units="m", long_name="neighbour cell centres on the edge's tangent plane, normal "
                                "coordinate", icon_name="pos_on_tplane_e(:,:,1:2,1)", used_by=_NH),
    Static("pos_on_tplane_e_2", I, interp_meta.POS_ON_TPLANE_E_Y, "edge", "e2c", start=LB2,
           units="m", long_name="neighbour cell centres on the edge's tangent plane, tangential "
                                "coordinate", icon_name="pos_on_tplane_e(:,:,1:2,2)", used_by=_NH,
           floor="pos_on_tplane_e_1",
           note="0 in exact arithmetic (the cell centre lies on the edge's perpendicular "
                "bisector): the values, <= 2e-10 of the edge-cell distance, are rounding noise, "
                "so the bound has an absolute term relative to that distance (STATICS_FLOORS)"),
    Static("rbf_vec_coeff_e", I, interp_meta.RBF_VEC_COEFF_E, "edge", "e2c2e", start=LB2,
           end="LOCAL", rtol=2e-9, long_name="RBF coefficients of the tangential wind at edges",
           icon_name="rbf_vec_coeff_e", used_by=_NH, config=("rbf_kernel_edge",),
           note="4x4 RBF solves (inverse multiquadric kernel); bound: ICON4Py's own test of them "
                "against ICON allows atol 2e-9 on MCH_CH_R04B09"),
    Static("e_bln_c_s", I, interp_meta.E_BLN_C_S, "cell", "c2e",
           long_name="bilinear interpolation weights edge to cell", icon_name="e_bln_c_s",
           used_by=f"{_NH}, {_VA}, diffusion"),
    Static("rbf_vec_coeff_v1", I, interp_meta.RBF_VEC_COEFF_V1, "vertex", "v2e", start=LB2,
           end="LOCAL", rtol=3e-3, long_name="RBF coefficients of the eastward wind at vertices",
           icon_name="rbf_vec_coeff_v(:,1,:,:)", used_by=f"{_VA}, diffusion",
           config=("rbf_kernel_vertex",),
           note="ill-conditioned 6x6 solves (see --explain); ICON4Py's test against ICON allows "
                "atol 3e-3 on MCH_CH_R04B09"),
    Static("rbf_vec_coeff_v2", I, interp_meta.RBF_VEC_COEFF_V2, "vertex", "v2e", start=LB2,
           end="LOCAL", rtol=3e-3, long_name="RBF coefficients of the northward wind at vertices",
           icon_name="rbf_vec_coeff_v(:,2,:,:)", used_by=f"{_VA}, diffusion",
           config=("rbf_kernel_vertex",), note="as rbf_vec_coeff_v1"),
    Static("geofac_div", I, interp_meta.GEOFAC_DIV, "cell", "c2e", units="m-1",
           long_name="geometric factor divergence", icon_name="geofac_div",
           used_by=f"{_NH}, diffusion"),
    Static("geofac_n2s", I, interp_meta.GEOFAC_N2S, "cell", "c2e2co", start=LB2, units="m-2",
           long_name="geometric factor nabla2 scalar", icon_name="geofac_n2s",
           used_by=f"{_NH}, diffusion"),
    Static("geofac_grg_x", I, interp_meta.GEOFAC_GRG_X, "cell", "c2e2co", start=LB2,
           units="m-1", long_name="Green-Gauss gradient factor, zonal",
           icon_name="geofac_grg(:,:,:,1)", used_by=f"{_NH}, diffusion"),
    Static("geofac_grg_y", I, interp_meta.GEOFAC_GRG_Y, "cell", "c2e2co", start=LB2,
           units="m-1", long_name="Green-Gauss gradient factor, meridional",
           icon_name="geofac_grg(:,:,:,2)", used_by=f"{_NH}, diffusion"),
    Static("nudgecoeff_e", I, interp_meta.NUDGECOEFFS_E, "edge", start="NUDGING_LEVEL_2",
           long_name="lateral boundary nudging coefficient at edges", icon_name="nudgecoeff_e",
           used_by=f"{_NH}, diffusion",
           config=("max_nudging_coefficient", "nudge_efold_width", "nudge_zone_width")),
    Static("mask_prog_halo_c", M, metrics_meta.MASK_PROG_HALO_C, "cell", dtype="u1",
           long_name="mask of prognostic halo cells", icon_name="mask_prog_halo_c", used_by=_NH,
           note="computed on [HALO, END): empty on one rank; elsewhere ICON4Py's allocation "
                "(False), ICON's initial .FALSE."),
    Static("rayleigh_w", M, metrics_meta.RAYLEIGH_W, None, vertical="nlev_half",
           levels=("0", "nrd + 1"), units="s-1", long_name="Rayleigh damping coefficient of w",
           icon_name="rayleigh_w", used_by=_NH,
           config=("rayleigh_type", "rayleigh_coeff", "damp_height"),
           note="half levels [0, nrd] (nrd = end_index_of_damping_layer); 0 below"),
    Static("exner_exfac", M, metrics_meta.EXNER_EXFAC, "cell", vertical="nlev",
           long_name="temporal extrapolation factor of the Exner perturbation",
           icon_name="exner_exfac", used_by=_NH, config=("exner_expol",)),
    Static("exner_ref_mc", M, metrics_meta.EXNER_REF_MC, "cell", vertical="nlev",
           long_name="reference Exner pressure at full levels", icon_name="exner_ref_mc",
           used_by=_NH),
    Static("wgtfac_c", M, metrics_meta.WGTFAC_C, "cell", vertical="nlev_half",
           long_name="weights full to half levels at cells", icon_name="wgtfac_c",
           used_by=f"{_NH}, {_VA}, diffusion"),
    Static("wgtfacq_c", M, metrics_meta.WGTFACQ_C, "cell", vertical="nlev",
           levels=("nlev - 3", "nlev"),
           long_name="weights of the quadratic extrapolation to the surface at cells",
           icon_name="wgtfacq_c(:,3:1:-1,:) at levels nlev-3..nlev-1", used_by=_NH,
           note="ICON4Py holds the three weights on levels [nlev-3, nlev) (level nlev-1: ICON's "
                "wgtfacq_c(1)); a (cell, 3) variable is compared as those three levels"),
    Static("inv_ddqz_z_full", M, metrics_meta.INV_DDQZ_Z_FULL, "cell", vertical="nlev",
           units="m-1", long_name="inverse layer thickness at full levels",
           icon_name="inv_ddqz_z_full", used_by=_NH),
    Static("rho_ref_mc", M, metrics_meta.RHO_REF_MC, "cell", vertical="nlev", units="kg m-3",
           long_name="reference density at full levels", icon_name="rho_ref_mc", used_by=_NH),
    Static("theta_ref_mc", M, metrics_meta.THETA_REF_MC, "cell", vertical="nlev", units="K",
           long_name="reference potential temperature at full levels", icon_name="theta_ref_mc",
           used_by=f"{_NH}, diffusion"),
    Static("vwind_expl_wgt", M, metrics_meta.EXNER_W_EXPLICIT_WEIGHT_PARAMETER, "cell",
           start=LB2, long_name="explicit weight of the vertical solver (1 - vwind_impl_wgt)",
           icon_name="vwind_expl_wgt", used_by=_NH, config=("vwind_offctr",),
           note="1 - vwind_impl_wgt; see there"),
    Static("d_exner_dz_ref_ic", M, metrics_meta.D_EXNER_DZ_REF_IC, "cell",
           vertical="nlev_half", units="m-1",
           long_name="vertical derivative of the reference Exner pressure at half levels",
           icon_name="d_exner_dz_ref_ic", used_by=_NH),
    Static("ddqz_z_half", M, metrics_meta.DDQZ_Z_HALF, "cell", vertical="nlev_half", units="m",
           long_name="layer thickness at half levels", icon_name="ddqz_z_half",
           used_by=f"{_NH}, {_VA}"),
    Static("theta_ref_ic", M, metrics_meta.THETA_REF_IC, "cell", vertical="nlev_half",
           units="K", long_name="reference potential temperature at half levels",
           icon_name="theta_ref_ic", used_by=_NH),
    Static("d2dexdz2_fac1_mc", M, metrics_meta.D2DEXDZ2_FAC1_MC, "cell", vertical="nlev",
           units="K-1 m-2", long_name="first factor of the second vertical derivative of Exner",
           icon_name="d2dexdz2_fac1_mc", used_by=_NH),
    Static("d2dexdz2_fac2_mc", M, metrics_meta.D2DEXDZ2_FAC2_MC, "cell", vertical="nlev",
           units="m-2", long_name="second factor of the second vertical derivative of Exner",
           icon_name="d2dexdz2_fac2_mc", used_by=_NH),
    Static("rho_ref_me", M, metrics_meta.RHO_REF_ME, "edge", vertical="nlev", start=LB2,
           units="kg m-3", long_name="reference density at edges", icon_name="rho_ref_me",
           used_by=_NH),
    Static("theta_ref_me", M, metrics_meta.THETA_REF_ME, "edge", vertical="nlev", start=LB2,
           units="K", long_name="reference potential temperature at edges",
           icon_name="theta_ref_me", used_by=_NH),
    Static("ddxn_z_full", M, metrics_meta.DDXN_Z_FULL, "edge", vertical="nlev", start=LB2,
           long_name="terrain slope normal to the edge at full levels", icon_name="ddxn_z_full",
           used_by=f"{_NH}, {_VA}",
           floor="z_ifc across the edge",
           note="computed on all edges from ddxn_z_half_e, which ICON4Py fills from "
                "LATERAL_BOUNDARY_LEVEL_2 on (0 before); a difference of z_ifc across the edge, "
                "so the bound adds z_ifc's difference propagated (STATICS_FLOORS)"),
    Static("zdiff_gradp", M, metrics_meta.ZDIFF_GRADP, "edge", "e2c", "nlev", start=LB2,
           units="m", long_name="height differences for the pressure gradient over steep "
                                "terrain", icon_name="zdiff_gradp", used_by=_NH,
           note="computed whatever igradp_method is (MetricsConfig.igradp_method is not read)"),
    Static("vertoffset_gradp", M, metrics_meta.VERTOFFSET_GRADP, "edge", "e2c", "nlev",
           start=LB2, dtype="i4",
           long_name="level offsets (relative to k) for the pressure gradient over steep terrain",
           icon_name="vertidx_gradp - 1 - k (ICON4Py's offsets)", used_by=_NH),
    Static("pg_exdist", M, metrics_meta.PG_EXDIST_DSL, "edge", vertical="nlev",
           start="NUDGING_LEVEL_2", units="m",
           long_name="extrapolation distance of the pressure gradient below the terrain",
           icon_name="pg_exdist at (pg_edgeidx, pg_vertidx), dense", used_by=_NH,
           note="non-zero only on edges [end of NUDGING, end of LOCAL) below flat_idx_max"),
    Static("ddqz_z_full_e", M, metrics_meta.DDQZ_Z_FULL_E, "edge", vertical="nlev", start=LB2,
           units="m", long_name="layer thickness at edges", icon_name="ddqz_z_full_e",
           used_by=f"{_NH}, {_VA}",
           note="computed on all edges with c_lin_e, which ICON4Py leaves at 0 on boundary row 1"),
    Static("ddxt_z_full", M, metrics_meta.DDXT_Z_FULL, "edge", vertical="nlev", start=LB3,
           long_name="terrain slope tangential to the edge at full levels",
           icon_name="ddxt_z_full", used_by=f"{_NH}, {_VA}",
           floor="z_ifc along the edge",
           note="computed from LATERAL_BOUNDARY_LEVEL_2 on from ddxt_z_half_e, which ICON4Py "
                "fills from LEVEL_3 on (0 before); a difference of z_ifc interpolated to the "
                "edge's vertices, so the bound adds z_ifc's difference propagated "
                "(STATICS_FLOORS)"),
    Static("wgtfac_e", M, metrics_meta.WGTFAC_E, "edge", vertical="nlev_half", start=LB2,
           long_name="weights full to half levels at edges", icon_name="wgtfac_e",
           used_by=f"{_NH}, {_VA}",
           note="computed on all edges with c_lin_e, which ICON4Py leaves at 0 on boundary row 1"),
    Static("wgtfacq_e", M, metrics_meta.WGTFACQ_E, "edge", vertical="nlev", start=LB2,
           levels=("nlev - 3", "nlev"),
           long_name="weights of the quadratic extrapolation to the surface at edges",
           icon_name="wgtfacq_e(:,3:1:-1,:) at levels nlev-3..nlev-1", used_by=f"{_NH}, {_VA}",
           note="as wgtfacq_c; computed on all edges with c_lin_e (0 on boundary row 1)"),
    Static("vwind_impl_wgt", M, metrics_meta.EXNER_W_IMPLICIT_WEIGHT_PARAMETER, "cell",
           start=LB2, long_name="implicit weight of the vertical solver",
           icon_name="vwind_impl_wgt", used_by=_NH, config=("vwind_offctr",),
           note="computed on all cells from the surface slopes ddxn/ddxt_z_half_e of the cell's "
                "edges, which ICON4Py leaves at 0 on edge rows 1 (ddxn) and 1-2 (ddxt): the "
                "cells of boundary row 1 use those zeros"),
    Static("hmask_dd3d", M, metrics_meta.HORIZONTAL_MASK_FOR_3D_DIVDAMP, "edge", start=LB2,
           end="LOCAL", long_name="horizontal mask of the 3D divergence damping",
           icon_name="hmask_dd3d", used_by=_NH),
    Static("scalfac_dd3d", M, metrics_meta.SCALING_FACTOR_FOR_3D_DIVDAMP, None, vertical="nlev",
           long_name="vertical scaling of the 3D divergence damping", icon_name="scalfac_dd3d",
           used_by=_NH, config=("divdamp_type", "divdamp_trans_start", "divdamp_trans_end"),
           note="1 on every level unless divdamp_type = 32"),
    Static("coeff1_dwdz", M, metrics_meta.COEFF1_DWDZ, "cell", vertical="nlev",
           levels=("1", "nlev"), units="m-1", long_name="first coefficient of dw/dz",
           icon_name="coeff1_dwdz", used_by=_VA),
    Static("coeff2_dwdz", M, metrics_meta.COEFF2_DWDZ, "cell", vertical="nlev",
           levels=("1", "nlev"), units="m-1", long_name="second coefficient of dw/dz",
           icon_name="coeff2_dwdz", used_by=_VA),
    Static("coeff_gradekin", M, metrics_meta.COEFF_GRADEKIN, "edge", "e2c", start=LB2,
           units="m-1", long_name="coefficients of the kinetic energy gradient",
           icon_name="coeff_gradekin", used_by=_VA),
    Static("nflat_gradp", M, metrics_meta.NFLAT_GRADP, None, dtype="i4",
           long_name="highest level (0-based) where the pressure gradient needs no terrain "
                     "treatment", icon_name="nflat_gradp - 1", used_by=_NH,
           note="ICON's nflat_gradp is 1-based; solve_nh_init subtracts 1"),
    Static("z_ifc", M, metrics_meta.CELL_HEIGHT_ON_HALF_LEVEL, "cell", vertical="nlev_half",
           units="m", long_name="height of the half levels", icon_name="z_ifc",
           used_by="all metric fields", config=("flat_height", "sleve")),
    Static("topography_c", M, "topography", "cell", units="m", long_name="surface height",
           icon_name="topography_c", used_by="z_ifc",
           note="the Gaussian hill given to ICON4Py (icondiff's formula, evaluated here)"),
    Static("c_owner_mask", M, "c_owner_mask", "cell", dtype="u1",
           long_name="cells owned by this rank", icon_name="decomp_info%owner_mask",
           used_by=_NH),
    Static("coriolis_frequency", G, geometry_meta.CORIOLIS_PARAMETER, "edge", units="s-1",
           long_name="Coriolis parameter 2 Omega sin(latitude) at the edge midpoint",
           icon_name="p_patch%edges%f_e (grid_init's f_e)", used_by=_VA,
           note="ICON4Py's GridGeometry (compute_coriolis_parameter_on_edges: 2.0 * "
                "EARTH_ANGULAR_VELOCITY * sin(edge_center_lat) on edges [LOCAL, END)), passed "
                "by grid_init as EdgeParams.coriolis_frequency, not by solve_nh_init"),
)
STATICS_BY_NAME = {s.name: s for s in STATICS}

# Why a field is not bit-identical where it is not: measured on R19B04 (LAM), R02B03 and a
# generated R2B4 (docs/user/icon4py_comparison.md, "solve_nh_init statics"). `--numpy-simd off`
# runs ICON4Py with numpy's baseline code only (no AVX2/AVX-512 kernels, whose float64 arccos,
# power, sinh, sin, cos, ... differ from glibc's correctly rounded results by an ulp here and
# there): every field marked _SIMD is then bit-identical, i.e. icondiff matches ICON4Py's
# formulas operation for operation and the difference is where numpy rounds.
_SIMD = "numpy SIMD"
_Z = (f"{_SIMD}: z_ifc's ulps (ICON4Py's SLEVE decay: numpy's AVX-512 sinh and power), "
      "propagated")
_NORMALS = ("edge normals (unit vectors) <= 1.5 eps apart per component: icondiff's edge geometry "
            "normalizes as (1/|a|) a and projects with 3-term dot products, ICON4Py as a/|a| and "
            "cos(lat) z - sin(lat) (cos(lon) x + sin(lon) y)")
STATICS_DIFFERS = {
    "e_flx_avg": (f"{_SIMD} in c_bln_avg (as e_bln_c_s; 2 ulp left with --numpy-simd off) and "
                  "the Cartesian edge normals ((1/|a|) a vs a/|a|, <= 1.5 eps apart)"),
    "pos_on_tplane_e_1": _NORMALS,
    "pos_on_tplane_e_2": _NORMALS + "; the values themselves are rounding noise",
    "rbf_vec_coeff_e": ("4x4 solves, condition number 3e2-4e5 by grid: numpy's OpenBLAS (FMA "
                        "kernels) vs icondiff's LU, and the edge normals"),
    "e_bln_c_s": f"{_SIMD}: sin, cos, arcsin, arctan2 of the pole rotation in ICON4Py's "
                 "_weighting_factors",
    "rbf_vec_coeff_v1": "6x6 solves, condition number 3e4-8e10 by grid (see --explain)",
    "rbf_vec_coeff_v2": "6x6 solves, condition number 3e4-8e10 by grid (see --explain)",
    "geofac_grg_x": ("edge normals at the cell centres <= 1.5 eps apart (icondiff's edge-geometry "
                     "operation order) in sums that nearly cancel"),
    "geofac_grg_y": "as geofac_grg_x",
    "rayleigh_w": f"{_SIMD}: vct_a's ulps (arccos, power), propagated",
    "z_ifc": f"{_SIMD}: vct_a's ulps (arccos, power) and the SLEVE decay's (sinh, power)",
    **{name: _Z for name in (
        "exner_exfac", "exner_ref_mc", "wgtfac_c", "wgtfacq_c", "inv_ddqz_z_full", "rho_ref_mc",
        "theta_ref_mc", "vwind_expl_wgt", "d_exner_dz_ref_ic", "ddqz_z_half", "theta_ref_ic",
        "d2dexdz2_fac1_mc", "d2dexdz2_fac2_mc", "rho_ref_me", "theta_ref_me", "ddxn_z_full",
        "zdiff_gradp", "pg_exdist", "ddqz_z_full_e", "ddxt_z_full", "wgtfac_e", "wgtfacq_e",
        "vwind_impl_wgt", "coeff1_dwdz", "coeff2_dwdz")},
    "vct_a": f"{_SIMD}: numpy's AVX-512 arccos and power (icondiff = glibc = correctly rounded)",
}

EPS = float(np.finfo(np.float64).eps)
#: Absolute terms of the bound (Static.floor), added per value to rtol (|e| + max|e| of the
#: level): fields that are small differences of large terms, where an ulp of the terms is far
#: more than 1e-12 of the result. Each term is what the inputs' measured difference and the
#: terms' rounding explain; a formula error (a wrong sign, factor, neighbour or level) changes
#: the result by much more and still fails (checked with perturbed files, see the docs).
STATICS_FLOORS = {
    "z_ifc across the edge": (
        "ddxn_z_full[e,k] = avg over half levels k, k+1 of (z_ifc[E2C[e,1]] - z_ifc[E2C[e,0]]) / "
        "dual_edge_length: P + 2 eps S where P > 0, else 0; P = the same expression with "
        "|z_ifc(ICON4Py) - z_ifc(icondiff)| and all signs +, S = max |z_ifc| of the four terms / "
        "dual_edge_length. Measured on the three grids: every differing value has P > 0 (where "
        "the four z_ifc terms are bit-identical, so is ddxn_z_full) and |diff| <= P + 0.7 eps S"),
    "z_ifc along the edge": (
        "ddxt_z_full[e,k] = avg over k, k+1 of (z_v[E2V[e,1]] - z_v[E2V[e,0]]) / edge_length, "
        "z_v = sum c_intp z_ifc over V2C: P + 2 eps S where P > 0, else 0, as for ddxn_z_full, "
        "with ICON4Py's c_intp weights (|c_intp| |diff z_ifc|) and S over the cells around both "
        "vertices. Measured: every differing value has P > 0 and |diff| <= P + 1.2 eps S (the "
        "vertex sums round differently once their inputs differ)"),
    "pos_on_tplane_e_1": (
        "8 eps |pos_on_tplane_e_1| of the same edge and slot (the edge-cell distance): the edge "
        "normals' components differ by <= 1.5 eps (icondiff's operation order; numpy with "
        "either side's order reproduces either side's pos_on_tplane_e bit for bit), which moves "
        "R (x u + y v) by <= ~2 eps |pos_on_tplane_e_1|, the projection adds rounding; measured "
        "|diff| <= 1.6 eps |pos_on_tplane_e_1| (pos_on_tplane_e_1 itself: <= 2.9 eps, within "
        "the relative bound)"),
}


def statics_floor(s: Static, mine: dict, f: "StaticsFile", grid) -> np.ndarray | None:
    """The absolute term of `s`'s bound (Static.floor) on the whole array (file layout), or None.
    Raises ValueError if the inputs it needs are missing."""
    if s.floor is None:
        return None
    if s.floor == "pos_on_tplane_e_1":
        if "pos_on_tplane_e_1" not in f.arrays:
            raise ValueError("its bound needs pos_on_tplane_e_1 in the statics file")
        return 8.0 * EPS * np.abs(np.asarray(f.arrays["pos_on_tplane_e_1"], np.float64))
    za = mine["arrays"].get("z_ifc")
    ze = f.arrays.get("z_ifc")
    if za is None or ze is None or np.shape(za) != np.shape(ze):
        raise ValueError("its bound needs z_ifc (cell, nlev_half) on both sides")
    dz = np.abs(np.asarray(za, np.float64) - np.asarray(ze, np.float64))
    mz = np.abs(np.asarray(ze, np.float64))

    def pair_sum(x):  # x on half levels -> x[k] + x[k + 1] on full levels
        return x[..., :-1] + x[..., 1:]

    def pair_max(x):
        return np.maximum(x[..., :-1], x[..., 1:])

    geometry = mine["geometry"]
    if s.floor == "z_ifc across the edge":
        e2c = np.asarray(grid.get_connectivity("E2C").ndarray)
        inv = ii.as_numpy(geometry.get(f"inverse_of_{geometry_meta.DUAL_EDGE_LENGTH}"))[:, None]
        c0, c1 = np.where(e2c[:, 0] >= 0, e2c[:, 0], 0), np.where(e2c[:, 1] >= 0, e2c[:, 1], 0)
        p = 0.5 * pair_sum(dz[c0] + dz[c1]) * inv
        scale = pair_max(np.maximum(mz[c0], mz[c1])) * inv
    elif s.floor == "z_ifc along the edge":
        e2v = np.asarray(grid.get_connectivity("E2V").ndarray)
        v2c = np.asarray(grid.get_connectivity("V2C").ndarray)
        if "c_intp" not in mine["arrays"]:
            raise ValueError("its bound needs ICON4Py's c_intp")
        weights = np.where(v2c >= 0, np.abs(np.asarray(mine["arrays"]["c_intp"], np.float64)), 0.0)
        cells = np.where(v2c >= 0, v2c, 0)
        dz_v = np.einsum("vj,vjk->vk", weights, dz[cells])
        mz_v = np.where((v2c >= 0)[:, :, None], mz[cells], 0.0).max(axis=1)
        inv = ii.as_numpy(geometry.get(f"inverse_of_{geometry_meta.EDGE_LENGTH}"))[:, None]
        v0, v1 = e2v[:, 0], e2v[:, 1]
        p = 0.5 * pair_sum(dz_v[v0] + dz_v[v1]) * inv
        scale = pair_max(np.maximum(mz_v[v0], mz_v[v1])) * inv
    else:
        raise ValueError(f"unknown floor {s.floor!r}")
    # where the z_ifc terms are bit-identical, so is the result (same formula): no floor there
    return np.where(p > 0, p + 2.0 * EPS * scale, 0.0)


def statics_valid_slots(s: Static, grid_file: str, args) -> np.ndarray | None:
    """For a Static with `slots`: True where the neighbour table of the grid file (ICON4Py's
    grid loaded with keep_skip_values=True) has an entry, else None."""
    if s.slots is None:
        return None
    raw = ii.load_icon4py_grid_manager(grid_file, args.backend, args.nlev, keep_skip_values=True)
    return np.asarray(raw.grid.get_connectivity(s.slots).ndarray) >= 0


def statics_options(args) -> dict:
    """Every option the statics depend on, with the value both sides get: the vertical grid and
    hill of the command line (icondiff run's defaults), ICON4Py's defaults for the rest
    (MetricsConfig, InterpolationConfig, VerticalGridConfig)."""
    from icon4py.model.common.grid import vertical as v_grid
    from icon4py.model.common.interpolation import interpolation_factory
    from icon4py.model.common.metrics import metrics_factory

    m = metrics_factory.MetricsConfig()
    i = interpolation_factory.InterpolationConfig(max_nudging_coefficient=5.0 * args.nudge_max_coeff)
    v = v_grid.VerticalGridConfig(num_levels=args.nlev)
    return {
        "nlev": args.nlev, "top_height": args.top_height, "min_lay_thckn": args.min_lay_thckn,
        "stretch_fac": args.stretch_fac, "damp_height": args.damp_height,
        "flat_height": v.flat_height, "max_lay_thckn": v.maximal_layer_thickness,
        "htop_thcknlimit": v.top_height_limit_for_maximal_layer_thickness,
        "sleve": (f"decay_scale_1 {v.SLEVE_decay_scale_1}, decay_scale_2 {v.SLEVE_decay_scale_2}, "
                  f"decay_exp {v.SLEVE_decay_exponent}"),
        "mount_height": args.mount_height, "mount_half_width": args.mount_half_width,
        "mount_lon": args.mount_lon, "mount_lat": args.mount_lat,
        "exner_expol": args.exner_expol, "vwind_offctr": args.vwind_offctr,
        "rayleigh_type": f"{int(m.rayleigh_type)} ({m.rayleigh_type.name})",
        "rayleigh_coeff": args.rayleigh_coeff, "divdamp_type": args.divdamp_type,
        "divdamp_trans_start": args.divdamp_trans_start,
        "divdamp_trans_end": args.divdamp_trans_end,
        "igradp_method": f"{m.igradp_method} (MetricsConfig; not read by the factory)",
        "max_nudging_coefficient": i.max_nudging_coefficient,
        "nudge_efold_width": i.nudge_efold_width, "nudge_zone_width": i.nudge_zone_width,
        "divavg_cntrwgt": i.divergence_averaging_central_cell_weight,
        "rbf_kernel_edge": i.rbf_kernel_edge.name, "rbf_kernel_vertex": i.rbf_kernel_vertex.name,
    }


def icon4py_statics(grid_file: str, args, names=None) -> dict:
    """ICON4Py's value of every static (or of `names`) on the grid file, in the statics file's
    layout (numpy; bool as uint8; wgtfacq_c/e on (point, nlev) with 0 above level nlev-3;
    nflat_gradp a 0-d int). Returns {'arrays', 'errors', 'seconds', 'shapes' (ICON4Py's),
    'grid', 'vertical', 'geometry', 'interpolation', 'metrics', 'nrd', 'nflatlev'}."""
    metrics_config = dict(exner_expol=args.exner_expol, vwind_offctr=args.vwind_offctr,
                          rayleigh_coeff=args.rayleigh_coeff, divdamp_type=args.divdamp_type,
                          divdamp_trans_start=args.divdamp_trans_start,
                          divdamp_trans_end=args.divdamp_trans_end)
    manager = ii.load_icon4py_grid_manager(grid_file, args.backend, args.nlev)
    cells = manager.coordinates[dims.CellDim]
    with netCDF4.Dataset(grid_file) as ds:
        radius = float(getattr(ds, "sphere_radius", 6371229.0))
    if args.topography == "jabw":
        topography = ii.jablonowski_williamson_topography(ii.as_numpy(cells["lat"]), radius)
    else:
        topography = ii.gaussian_hill_topography(
            ii.as_numpy(cells["lon"]), ii.as_numpy(cells["lat"]), args.mount_height,
            args.mount_half_width, args.mount_lon, args.mount_lat, radius)
    manager, geometry, interpolation, metrics, vertical = ii.make_factories(
        grid_file, args.backend, num_levels=args.nlev,
        vertical_config=dict(model_top_height=args.top_height,
                             lowest_layer_thickness=args.min_lay_thckn,
                             stretch_factor=args.stretch_fac,
                             rayleigh_damping_height=args.damp_height),
        topography=topography, thslp_zdiffu=args.thslp_zdiffu, thhgtd_zdiffu=args.thhgtd_zdiffu,
        max_nudging_coefficient=5.0 * args.nudge_max_coeff, metrics_config=metrics_config)
    sources = {G: geometry, I: interpolation, M: metrics}
    nlev = args.nlev
    out = {"arrays": {}, "errors": {}, "seconds": {}, "shapes": {}, "grid": manager.grid,
           "vertical": vertical, "geometry": geometry, "interpolation": interpolation,
           "metrics": metrics, "nrd": int(vertical.end_index_of_damping_layer),
           "nflatlev": int(vertical.nflatlev)}
    for s in STATICS:
        if names is not None and s.name not in names:
            continue
        t0 = time.perf_counter()
        try:
            if s.location is None and s.vertical is None:  # a scalar
                value = sources[s.source].get(s.icon4py, factory.RetrievalType.SCALAR)
                a = np.asarray(int(value), dtype=np.int32)
            else:
                a = ii.as_numpy(sources[s.source].get(s.icon4py))
            out["shapes"][s.name] = tuple(a.shape)
            if s.levels is not None and s.vertical == "nlev" and a.shape[-1] != nlev:
                # wgtfacq_c/e: ICON4Py's field lives on levels [nlev - 3, nlev) only
                k0, k1 = level_range(s, nlev, out["nrd"])
                full = np.zeros(a.shape[:-1] + (nlev,), a.dtype)
                full[..., k0:k1] = a
                a = full
            if s.dtype == "u1":
                a = a.astype(np.uint8)
            elif s.dtype == "i4":
                a = a.astype(np.int32)
            out["arrays"][s.name] = np.array(a, order="C")  # (keeps a 0-d scalar 0-d)
        except Exception as err:  # an ICON4Py factory that cannot compute the field
            out["errors"][s.name] = f"{type(err).__name__}: {str(err)[:300]}"
        out["seconds"][s.name] = time.perf_counter() - t0
    return out


def level_range(s: Static, nlev: int, nrd: int) -> tuple[int, int] | None:
    """[k0, k1) of ICON4Py's values of `s` (None: no vertical dimension)."""
    if s.vertical is None:
        return None
    size = nlev + 1 if s.vertical == "nlev_half" else nlev
    if s.levels is None:
        return (0, size)
    env = {"nlev": nlev, "nrd": nrd}
    return tuple(int(eval(x, {"__builtins__": {}}, env)) for x in s.levels)  # noqa: S307


def static_domain(s: Static, grid, nlev: int, nrd: int):
    """(point range or None, level range or None, text) of ICON4Py's domain of `s`."""
    hr = domain_range(grid, s.location, s.start, s.end) if s.location else None
    kr = level_range(s, nlev, nrd)
    parts = []
    if hr is not None:
        n = {"cell": grid.num_cells, "edge": grid.num_edges, "vertex": grid.num_vertices}[s.location]
        zones = "" if (s.start, s.end) == ("LOCAL", "END") else f" ({s.start}..{s.end})"
        parts.append(f"{s.location}s [{hr[0]}, {hr[1]}) of {n}{zones}")
    if kr is not None:
        parts.append(f"{'half ' if s.vertical == 'nlev_half' else ''}levels [{kr[0]}, {kr[1]})")
    return hr, kr, " × ".join(parts) if parts else "scalar"


# ---- the statics file --------------------------------------------------------------------------


@dataclasses.dataclass
class StaticsFile:
    path: str
    sizes: dict
    arrays: dict
    dims: dict
    attrs: dict  # variable -> {attribute: value}
    global_attrs: dict


#: icondiff's statics file names its variables by icondiff's static field list
#: (statics/static_fields.hpp: the granules' ICON4Py state attribute names); the harness by ICON's
#: short names (solve_nh_init's arguments). Only the names that differ.
ICONDIFF_FIELD_NAMES = {
    "rbf_coeff_1": "rbf_vec_coeff_v1",
    "rbf_coeff_2": "rbf_vec_coeff_v2",
    "time_extrapolation_parameter_for_exner": "exner_exfac",
    "reference_exner_at_cells_on_model_levels": "exner_ref_mc",
    "reference_rho_at_cells_on_model_levels": "rho_ref_mc",
    "exner_w_explicit_weight_parameter": "vwind_expl_wgt",
    "exner_w_implicit_weight_parameter": "vwind_impl_wgt",
    "ddz_of_reference_exner_at_cells_on_half_levels": "d_exner_dz_ref_ic",
    "reference_theta_at_cells_on_half_levels": "theta_ref_ic",
    "reference_rho_at_edges_on_model_levels": "rho_ref_me",
    "reference_theta_at_edges_on_model_levels": "theta_ref_me",
    "horizontal_mask_for_3d_divdamp": "hmask_dd3d",
    "scaling_factor_for_3d_divdamp": "scalfac_dd3d",
}


def read_statics(path: str | Path) -> StaticsFile:
    """icondiff's statics file as the harness compares it: every variable as numpy with the
    dimensions (point[, neighbour][, level]) in C order, under ICON's short name.

    `icondiff grid-info --statics` writes ICON's memory order, (level[, slot], point) in netCDF's
    order (the point index fastest, as the savepoints), under the names of icondiff's field list
    with the vertical indices as global attributes; such a file is transposed and renamed here,
    and its global nflat_gradp becomes the scalar variable the spec has. A file already in the
    spec's order (make_fake_statics.py) is read as it is."""
    with netCDF4.Dataset(str(path), "r") as ds:
        ds.set_auto_mask(False)
        sizes = {name: len(d) for name, d in ds.dimensions.items()}
        arrays, dims_, attrs = {}, {}, {}
        points_last = any(tuple(v.dimensions)[-1:] in (("cell",), ("edge",), ("vertex",))
                          and len(v.dimensions) > 1 for v in ds.variables.values())
        for name, var in ds.variables.items():
            a, d = np.asarray(var[...]), tuple(var.dimensions)
            if points_last and len(d) > 1:
                a, d = np.ascontiguousarray(a.T), d[::-1]
            name = ICONDIFF_FIELD_NAMES.get(name, name)
            arrays[name], dims_[name] = a, d
            attrs[name] = {a_: var.getncattr(a_) for a_ in var.ncattrs()}
        global_attrs = {a: ds.getncattr(a) for a in ds.ncattrs()}
    if "nflat_gradp" not in arrays and "nflat_gradp" in global_attrs:
        arrays["nflat_gradp"] = np.asarray(int(global_attrs["nflat_gradp"]), dtype=np.int32)
        dims_["nflat_gradp"] = ()
        attrs["nflat_gradp"] = {a: "" for a in STATICS_ATTRIBUTES}
    return StaticsFile(str(path), sizes, arrays, dims_, attrs, global_attrs)


def check_statics_format(f: StaticsFile, grid, nlev: int) -> list[str]:
    """The statics file's format against the spec (module comment above): dimensions and their
    sizes, every field present with its dimensions, kind of type and attributes. Returns the
    problems (empty: as specified)."""
    problems = []
    expected = {"cell": grid.num_cells, "edge": grid.num_edges, "vertex": grid.num_vertices,
                "nlev": nlev, "nlev_half": nlev + 1, **STATICS_NEIGHBOUR_DIMS}
    for name, size in expected.items():
        if name not in f.sizes:
            problems.append(f"dimension {name} missing")
        elif f.sizes[name] != size:
            problems.append(f"dimension {name} = {f.sizes[name]}, expected {size}")
    for s in STATICS:
        if s.name not in f.arrays:
            problems.append(f"variable {s.name} missing")
            continue
        d = f.dims[s.name]
        ok_dims = d == s.dims or (s.levels is not None and s.vertical == "nlev" and len(d) == len(s.dims)
                                  and d[:-1] == s.dims[:-1] and f.sizes.get(d[-1]) == 3)
        if not ok_dims:
            problems.append(f"{s.name}: dimensions {d}, expected {s.dims}")
        kind = f.arrays[s.name].dtype.kind
        if (s.dtype == "f8" and kind != "f") or (s.dtype != "f8" and kind not in "iub"):
            problems.append(f"{s.name}: type {f.arrays[s.name].dtype}, expected "
                            f"{'floating point' if s.dtype == 'f8' else 'integer/byte'}")
        if s.dtype == "f8" and f.arrays[s.name].dtype not in (np.float64, np.float32):
            problems.append(f"{s.name}: {f.arrays[s.name].dtype}, expected float64 (or float32 "
                            "for a vp field of a mixed-precision build)")
        missing = [a for a in STATICS_ATTRIBUTES if a not in f.attrs[s.name]]
        if missing:
            problems.append(f"{s.name}: attributes {', '.join(missing)} missing")
    return problems


# ---- per-field comparison -------------------------------------------------------------------------


def ulp_distance(a: np.ndarray, e: np.ndarray, dtype=np.float64) -> np.ndarray:
    """|a - e| in units in the last place of `dtype` (float64 or float32; unsigned result; 0 for
    +0 vs -0; NaNs excluded by the caller): the number of representable values between them."""
    signed, unsigned = (np.int64, np.uint64) if dtype == np.float64 else (np.int32, np.uint32)
    ia = np.ascontiguousarray(a, dtype).view(signed)
    ie = np.ascontiguousarray(e, dtype).view(signed)
    lowest = signed(np.iinfo(signed).min)
    with np.errstate(over="ignore"):
        ma = np.where(ia < 0, lowest - ia, ia)
        me = np.where(ie < 0, lowest - ie, ie)
        up, down = ma.view(unsigned) - me.view(unsigned), me.view(unsigned) - ma.view(unsigned)
    return np.where(ma >= me, up, down)


def over_bound(actual: np.ndarray, expected: np.ndarray, rtol: float,
               floor: np.ndarray | float) -> np.ndarray:
    """compare_arrays' test with an absolute term: NaN or |a - e| > rtol (|e| + max|e| of the
    level, as compare_arrays takes it) + floor."""
    a = np.asarray(actual, np.float64)
    e = np.asarray(expected, np.float64)
    mag = np.where(np.isnan(e), 0.0, np.abs(e))
    if not e.size:
        return np.zeros(e.shape, bool)
    level_max = np.max(mag, axis=0, keepdims=True) if e.ndim == 2 else np.max(mag)
    diff = np.abs(a - e)
    with np.errstate(invalid="ignore"):
        return np.isnan(diff) | (diff > rtol * (mag + level_max) + floor)


def compare_static(s: Static, actual: np.ndarray, expected: np.ndarray, grid, nlev: int, nrd: int,
                   rtol: float, floor: np.ndarray | None = None,
                   valid: np.ndarray | None = None) -> dict:
    """One static: inside ICON4Py's domain (pass/fail; bitwise-equal count, max ulp, max rel
    diff, the compare_arrays bound with its floor term, plus the absolute term `floor` (whole
    array, Static.floor) where given; integers exactly) and outside it (counted). `valid` (whole
    array, Static.slots): neighbour slots that exist; the others are outside the domain.
    `actual` = ICON4Py, `expected` = icondiff, both in the file's layout."""
    hr, kr, text = static_domain(s, grid, nlev, nrd)
    if s.levels is not None and expected.ndim == actual.ndim and expected.shape[-1] == 3 != nlev:
        # a (point, 3) wgtfacq: ICON4Py's three levels [nlev - 3, nlev), in ICON4Py's order
        actual, kr = actual[..., kr[0]:kr[1]], (0, 3)
    if actual.shape != expected.shape:
        raise ValueError(f"shapes differ: ICON4Py {actual.shape}, icondiff {expected.shape}")
    if valid is not None and valid.shape != actual.shape[:valid.ndim]:
        raise ValueError(f"{s.slots} table {valid.shape} does not fit {actual.shape}")
    index = []
    if hr is not None:
        index.append(slice(*hr))
    if s.neighbour is not None:
        index.append(slice(None))
    if kr is not None:
        index.append(slice(*kr))
    index = tuple(index)
    a_in, e_in = actual[index], expected[index]
    outside = np.ones(actual.shape, bool)
    outside[index] = False
    missing = 0
    if valid is not None:
        # slots without a neighbour: outside the domain; inside, ICON4Py's value is replaced by
        # icondiff's so that they count as equal (and the level maximum stays icondiff's)
        valid = valid.reshape(valid.shape + (1,) * (actual.ndim - valid.ndim))
        valid = np.broadcast_to(valid, actual.shape)
        outside |= ~valid
        missing = int((~valid[index]).sum())
        a_in = np.where(valid[index], a_in, e_in)
    bound = s.rtol if s.rtol is not None else rtol
    row = {"field": s.name, "icon4py": f"{s.source}:{s.icon4py}", "domain": text
           + (f", {missing} slots without a neighbour ({s.slots}) excluded" if missing else ""),
           "values": int(a_in.size) - missing, "bound": bound, "note": s.note,
           "floor": s.floor, "differs": STATICS_DIFFERS.get(s.name, "")}
    if s.integer:
        diff = a_in.astype(np.int64) != e_in.astype(np.int64)
        row.update(integer=True, bitwise=not diff.any(), differing=int(diff.sum()),
                   max_abs=int(np.max(np.abs(a_in.astype(np.int64) - e_in.astype(np.int64))))
                   if a_in.size else 0, max_ulp=None, max_rel=None, passed=not diff.any(),
                   where=(tuple(int(i) for i in np.argwhere(diff)[0]) if diff.any() else None))
        out_diff = outside & (actual.astype(np.int64) != expected.astype(np.int64))
    else:
        # a float32 variable (a vp field of a mixed-precision build): ICON4Py's double rounded to
        # float32, bits and ulps counted in float32
        ftype = np.float32 if expected.dtype == np.float32 else np.float64
        if ftype == np.float32:  # and the bound at least one float32 ulp (relative)
            actual = actual.astype(np.float32)
            a_in = actual[index]
            bound = row["bound"] = max(bound, float(np.finfo(np.float32).eps))
        d = ii.compare_arrays(s.name, a_in, e_in, bound, floor=True)
        if floor is not None:  # the documented absolute term (STATICS_FLOORS)
            f_in = np.asarray(floor, np.float64)[index]
            d = dataclasses.replace(d, n_over=int(over_bound(a_in, e_in, bound, f_in).sum()))
            row["floor_max"] = float(np.max(f_in)) if f_in.size else 0.0
            row["n_over_without_floor"] = int(over_bound(a_in, e_in, bound, 0.0).sum())
        nan = np.isnan(a_in) | np.isnan(e_in)
        ulps = ulp_distance(np.where(nan, 0.0, a_in), np.where(nan, 0.0, e_in), ftype)
        bits = np.int64 if ftype == np.float64 else np.int32
        same_bits = (np.ascontiguousarray(a_in, ftype).view(bits)
                     == np.ascontiguousarray(e_in, ftype).view(bits))
        row["float32"] = ftype == np.float32
        row.update(integer=False, inside=d, bitwise=bool(same_bits.all()),
                   differing=int((~same_bits).sum()),
                   max_ulp=int(ulps.max()) if ulps.size else 0, max_rel=d.max_rel,
                   max_abs=d.max_abs, passed=d.passed, where=d.where_rel)
        with np.errstate(invalid="ignore"):
            out_diff = outside & ~((actual == expected) | (np.isnan(actual) & np.isnan(expected)))
    if hr is not None:
        points = np.flatnonzero(np.any(out_diff.reshape(out_diff.shape[0], -1), axis=1))
        row["outside_unit"] = "points"
    else:
        points = np.flatnonzero(out_diff.reshape(-1))
        row["outside_unit"] = "values"
    row["outside_total"] = int(outside.reshape(outside.shape[0], -1).any(axis=1).sum()
                               if hr is not None and outside.ndim else outside.sum())
    row["outside_differing"] = int(points.size)
    row["outside_example"] = int(points[0]) if points.size else None
    if points.size:
        a_o, e_o = actual[out_diff], expected[out_diff]
        row["outside_icon4py_zero"] = bool(np.all(a_o == 0))
        row["outside_icondiff_zero"] = bool(np.all(e_o == 0))
    return row


def run_statics_grid(name: str, grid_spec: str, statics_path: str | None, args, workdir: Path) -> dict:
    """ICON4Py's statics on one grid against icondiff's statics file (given, or written by
    `icondiff grid-info ... --statics`)."""
    grid_file = ii.grid_file(grid_spec, args.icondiff, workdir)
    t_icondiff = None
    if statics_path is None:
        statics_path = str(workdir / f"{name}-statics.nc")
        t0 = time.perf_counter()
        icondiff_statics(args.icondiff, grid_file, statics_path, args)
        t_icondiff = time.perf_counter() - t0
    f = read_statics(statics_path)
    t0 = time.perf_counter()
    mine = icon4py_statics(grid_file, args)
    t_icon4py = time.perf_counter() - t0
    grid, vertical, nrd = mine["grid"], mine["vertical"], mine["nrd"]
    result = {"grid": name, "file": grid_file, "statics": statics_path, "cells": grid.num_cells,
              "limited_area": bool(grid.limited_area), "nlev": args.nlev, "nrd": nrd,
              "nflatlev": mine["nflatlev"], "fields": [], "errors": dict(), "format": [],
              "icon4py_errors": dict(mine["errors"]), "icon4py_shapes": mine["shapes"],
              "icon4py_seconds": mine["seconds"]}
    result["format"] = check_statics_format(f, grid, args.nlev)
    for s in STATICS:
        if s.name in mine["errors"]:
            result["errors"][s.name] = f"ICON4Py: {mine['errors'][s.name]}"
            continue
        if s.name not in f.arrays:
            result["errors"][s.name] = "not in the statics file"
            continue
        try:
            result["fields"].append(compare_static(
                s, mine["arrays"][s.name], f.arrays[s.name], grid, args.nlev, nrd, args.rtol,
                floor=statics_floor(s, mine, f, grid),
                valid=statics_valid_slots(s, grid_file, args)))
        except ValueError as err:
            result["errors"][s.name] = str(err)
    # the vertical reference: vct_a if the file has it, else z_ifc's flat levels [0, nflatlev]
    vct = ii.as_numpy(vertical.vct_a)
    if "vct_a" in f.arrays:
        result["vct_a"] = ii.compare_arrays("vct_a", vct, f.arrays["vct_a"], args.rtol)
        result["vct_a_source"] = "vct_a"
    elif "z_ifc" in f.arrays and f.arrays["z_ifc"].shape[-1] == args.nlev + 1:
        k = mine["nflatlev"] + 1
        z = f.arrays["z_ifc"][:, :k]
        result["vct_a"] = ii.compare_arrays("vct_a", np.broadcast_to(vct[:k], z.shape), z, args.rtol)
        result["vct_a_source"] = f"z_ifc half levels [0, {k}) (flat: z_ifc = vct_a; no vct_a in the file)"
    if "vct_a" in result:
        if "vct_a" in f.arrays:
            theirs, ours = f.arrays["vct_a"], vct
        else:
            theirs = f.arrays["z_ifc"][:, :mine["nflatlev"] + 1]
            ours = np.broadcast_to(vct[:theirs.shape[-1]], theirs.shape)
        result["vct_a_max_ulp"] = (int(ulp_distance(ours, theirs).max())
                                   if np.shape(ours) == np.shape(theirs) else "-")
    for key, mine_value in (("nrd", nrd), ("nflatlev", mine["nflatlev"])):
        if key in f.global_attrs and int(f.global_attrs[key]) != mine_value:
            result["errors"][key] = f"ICON4Py {mine_value}, icondiff {int(f.global_attrs[key])}"
    options = statics_options(args)
    result["options"] = options
    for key, value in options.items():  # the file may record the options it was made with
        if key not in f.global_attrs or not isinstance(value, (int, float)):
            continue
        try:
            theirs = float(np.asarray(f.global_attrs[key]).reshape(-1)[0])
        except (TypeError, ValueError, IndexError):
            continue
        if not np.isclose(theirs, float(value), rtol=1e-15, atol=0):
            result["errors"][f"option {key}"] = f"ICON4Py {value}, icondiff {f.global_attrs[key]}"
    if args.explain and {"rbf_vec_coeff_v1", "rbf_vec_coeff_v2"} <= f.arrays.keys():
        import types
        shim = types.SimpleNamespace(fields={"rbf_coeff_1": f.arrays["rbf_vec_coeff_v1"],
                                             "rbf_coeff_2": f.arrays["rbf_vec_coeff_v2"]})
        interpolation = mine["interpolation"]
        result["explanations"] = [explain_rbf(mine["geometry"], grid, shim, {
            "scale": interpolation.get(interp_meta.RBF_SCALE_VERTEX, factory.RetrievalType.SCALAR),
            "rbf_coeff_1": mine["arrays"]["rbf_vec_coeff_v1"],
            "rbf_coeff_2": mine["arrays"]["rbf_vec_coeff_v2"]})]
    result["seconds"] = {"icondiff grid-info": t_icondiff, "ICON4Py factories": t_icon4py}
    return result


def icondiff_statics_args(args) -> list[str]:
    """The options of `icondiff grid-info` that define the statics (vertical grid and hill, as
    `icondiff run` has them; see icondiff_run_args)."""
    return ["--nlev", str(args.nlev), "--top_height", repr(args.top_height),
            "--min_lay_thckn", repr(args.min_lay_thckn), "--stretch_fac", repr(args.stretch_fac),
            "--damp_height", repr(args.damp_height), "--mount_height", repr(args.mount_height),
            "--mount_half_width", repr(args.mount_half_width), "--mount_lon", repr(args.mount_lon),
            "--mount_lat", repr(args.mount_lat), "--topography", args.topography]


def icondiff_statics(icondiff: str, grid_file: str, out: str, args) -> None:
    if not icondiff:
        raise ValueError("--statics needs --statics-file NAME FILE for each grid or --icondiff")
    cmd = [icondiff, "grid-info", "--grid", grid_file, *icondiff_statics_args(args), "--statics", out]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")


def statics_rows(results: list[dict]) -> list[dict]:
    """One row per (grid, static): the markdown/text table."""
    rows = []
    for r in results:
        for f in r["fields"]:
            if f["integer"]:
                ulp, rel = "-", ("0" if f["bitwise"] else f"max abs {f['max_abs']}")
            else:
                ulp, rel = f"{f['max_ulp']}", f"{f['max_rel']:.2e}"
            outside = ("0" if not f["outside_differing"] else
                       f"{f['outside_differing']}/{f['outside_total']} {f['outside_unit']} (e.g. "
                       f"{f['outside_example']}; "
                       + ("ICON4Py 0" if f.get("outside_icon4py_zero") else
                          "icondiff 0" if f.get("outside_icondiff_zero") else "both non-zero") + ")")
            rows.append({
                "grid": r["grid"], "field": f["field"], "ICON4Py attribute": f["icon4py"],
                "domain": f["domain"],
                "bitwise?": ("yes" if f["bitwise"] else f"no ({f['differing']}/{f['values']})")
                            + (" (float32)" if f.get("float32") else ""),
                "max ulp": ulp, "max rel diff": rel,
                "max abs / max|e|": ("-" if f["integer"] else f"{f['inside'].max_normwise:.2e}"),
                "bound": "exact" if f["integer"] else f"{f['bound']:g}"
                         + (f" + floor (max {f['floor_max']:.1e})" if f.get("floor") else ""),
                "outside: differing": outside,
                "status": "pass" if f["passed"] else "FAIL",
                "reason (not bitwise)": "" if f["bitwise"] else f.get("differs", ""),
            })
        for key, err in r["errors"].items():
            rows.append({"grid": r["grid"], "field": key, "ICON4Py attribute":
                         (f"{STATICS_BY_NAME[key].source}:{STATICS_BY_NAME[key].icon4py}"
                          if key in STATICS_BY_NAME else "-"), "domain": "-", "bitwise?": "-",
                         "max ulp": "-", "max rel diff": "-", "max abs / max|e|": "-",
                         "bound": "-", "outside: differing": "-", "status": f"ERROR: {err}",
                         "reason (not bitwise)": ""})
        if "vct_a" in r:
            v = r["vct_a"]
            rows.append({"grid": r["grid"], "field": "vct_a", "ICON4Py attribute": "vertical_grid.vct_a",
                         "domain": r["vct_a_source"], "bitwise?": "yes" if v.max_abs == 0 else "no",
                         "max ulp": str(r.get("vct_a_max_ulp", "-")),
                         "max rel diff": f"{v.max_rel:.2e}",
                         "max abs / max|e|": f"{v.max_normwise:.2e}", "bound": f"{v.rtol:g}",
                         "outside: differing": "-", "status": "pass" if v.passed else "FAIL",
                         "reason (not bitwise)": ("" if v.max_abs == 0
                                                  else STATICS_DIFFERS["vct_a"])})
    return rows


def statics_compact_rows(results: list[dict]) -> list[dict]:
    """One row per static, one column per grid: 'bitwise', or max ulp / max rel diff / max|diff|
    / max|icondiff| inside ICON4Py's domain (integers: the count of differing values)."""
    grids = [r["grid"] for r in results]
    by_field: dict[str, dict] = {}
    for r in results:
        for f in r["fields"]:
            by_field.setdefault(f["field"], {})[r["grid"]] = f
        for key, err in r["errors"].items():
            by_field.setdefault(key, {})[r["grid"]] = {"error": err}
        if "vct_a" in r:
            v = r["vct_a"]
            by_field.setdefault("vct_a", {})[r["grid"]] = {
                "integer": False, "bitwise": v.max_abs == 0, "max_ulp": r.get("vct_a_max_ulp", "-"),
                "max_rel": v.max_rel, "inside": v, "passed": v.passed,
                "differs": STATICS_DIFFERS["vct_a"], "icon4py": "vertical_grid:vct_a"}
    rows = []
    for name, per_grid in by_field.items():
        any_f = next(iter(per_grid.values()))
        row = {"field": name, "ICON4Py attribute": any_f.get("icon4py", "-").split(":", 1)[-1]}
        status, reason = "pass", ""
        for g in grids:
            f = per_grid.get(g)
            if f is None:
                row[g] = "-"
            elif "error" in f:
                row[g], status = f"ERROR: {f['error']}", "ERROR"
            elif f["bitwise"]:
                row[g] = "bitwise"
            elif f["integer"]:
                row[g] = f"{f['differing']} values differ (max {f['max_abs']})"
            else:
                row[g] = (f"{f['max_ulp']} ulp, rel {f['max_rel']:.1e}, "
                          f"{f['inside'].max_normwise:.1e} of max")
            if f is not None and "error" not in f:
                if not f["passed"] and status == "pass":
                    status = "FAIL"
                if not f["bitwise"]:
                    reason = f.get("differs", "")
        row["status"] = status
        row["reason (not bitwise)"] = reason
        rows.append(row)
    return rows


def statics_main(args) -> int:
    files = dict(args.statics_file or [])
    unknown = set(files) - {name for name, _ in args.grid}
    if unknown:
        print(f"error: --statics-file for unknown grid(s) {sorted(unknown)}", file=sys.stderr)
        return 2
    if not args.icondiff and any(name not in files for name, _ in args.grid):
        print("error: --statics needs --statics-file NAME FILE for every grid, or --icondiff "
              "(icondiff grid-info --statics)", file=sys.stderr)
        return 2
    workdir = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="icondiff-statics-"))
    workdir.mkdir(parents=True, exist_ok=True)
    results = []
    try:
        for name, grid_spec in args.grid:
            t0 = time.perf_counter()
            results.append(run_statics_grid(name, grid_spec, files.get(name), args, workdir))
            print(f"[{name}] done in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    finally:
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    rows = statics_rows(results)
    failed = any(r["status"] != "pass" for r in rows) or any(r["format"] for r in results)
    runtime = numpy_runtime()
    title = (f"icondiff's statics file vs ICON4Py {ii.icon4py_version()} factories "
             f"({args.backend}; {runtime['text']}): solve_nh_init's static fields inside "
             "ICON4Py's domain")
    for r in results:
        r["numpy"] = runtime
    print("\n" + title)
    print(ii.format_table(rows))
    for r in results:
        for problem in r["format"]:
            print(f"[{r['grid']}] format: {problem}")
    options = results[0]["options"] if results else {}
    print("Options (both sides): " + ", ".join(f"{k} {v}" for k, v in options.items()))
    explanation_text = [f"[{r['grid']}] {json.dumps(ex, indent=1)}"
                        for r in results for ex in r.get("explanations", [])]
    if explanation_text:
        print("Explained differences (numpy recomputation of each side's formula):")
        print("\n".join(explanation_text))
    if args.markdown:
        md = [f"### solve_nh_init statics\n\n{title}. Pass: |icon4py - icondiff| <= bound "
              "(|icondiff| + max|icondiff| on the level/slot) [+ the field's floor]; integers "
              "exactly. Per grid: 'bitwise', or max ulp, max relative difference and "
              "max|diff| / max|icondiff|.\n\n",
              ii.format_table(statics_compact_rows(results), markdown=True),
              "\n<details><summary>Per grid and field</summary>\n\n",
              ii.format_table(rows, markdown=True), "\n</details>\n"]
        for r in results:
            for problem in r["format"]:
                md.append(f"\n* {r['grid']}: statics file format: {problem}\n")
        md.append("\nOptions (both sides): " + ", ".join(f"{k} `{v}`" for k, v in options.items())
                  + "\n")
        notes = [f"* `{s.name}`: {s.note}" for s in STATICS if s.note]
        md.append("\n<details><summary>Notes on the domains</summary>\n\n" + "\n".join(notes)
                  + "\n</details>\n")
        floors = [f"* `{name}` ({', '.join(s.name for s in STATICS if s.floor == name)}): {text}"
                  for name, text in STATICS_FLOORS.items()]
        md.append("\n<details><summary>Floors (absolute terms of the bound)</summary>\n\n"
                  + "\n".join(floors) + "\n</details>\n")
        if explanation_text:
            md.append("\n<details><summary>Explained differences</summary>\n\n```\n"
                      + "\n".join(explanation_text) + "\n```\n</details>\n")
        Path(args.markdown).write_text("".join(md))
    if args.json:
        def default(o):
            if isinstance(o, ii.Difference):
                return {k: (list(map(int, v)) if isinstance(v, tuple) else v) for k, v in o.__dict__.items()}
            if isinstance(o, (np.integer, np.floating, np.bool_)):
                return o.item()
            return str(o)
        Path(args.json).write_text(json.dumps(results, indent=1, default=default))
    return 1 if failed else 0


def numpy_runtime() -> dict:
    """numpy's version and the SIMD kernels it dispatches to on this CPU (float64 arccos, power,
    sinh, sin, cos, exp, log differ from glibc by an ulp here and there in the AVX-512 ones)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    active = [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]
    disabled = os.environ.get("NPY_DISABLE_CPU_FEATURES", "").split()
    text = (f"numpy {np.__version__}, SIMD kernels " + (", ".join(active) if active else "none")
            + (f" (NPY_DISABLE_CPU_FEATURES={' '.join(disabled)})" if disabled else ""))
    return {"version": np.__version__, "dispatched_active": active, "disabled": disabled,
            "text": text}


def apply_numpy_simd(args) -> None:
    """--numpy-simd off: run again with every SIMD kernel numpy dispatches to on this CPU
    disabled (NPY_DISABLE_CPU_FEATURES; numpy reads it at import, hence the re-exec), so that
    ICON4Py's numpy math is the baseline build's (glibc's libm for float64 arccos, power, sinh,
    sin, cos, ...), the same on every x86-64 CPU."""
    if getattr(args, "numpy_simd", "on") != "off" or os.environ.get("NPY_DISABLE_CPU_FEATURES"):
        return
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    active = [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]
    if not active:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=" ".join(active))
    os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)


def add_statics_options(ap: argparse.ArgumentParser) -> None:
    """MetricsConfig options of the statics (ICON4Py 0.2.0's defaults)."""
    from icon4py.model.common.metrics import metrics_factory

    m = metrics_factory.MetricsConfig()
    g = ap.add_argument_group("statics (MetricsConfig; ICON4Py's defaults)")
    g.add_argument("--exner-expol", type=float, default=m.exner_expol)
    g.add_argument("--vwind-offctr", type=float, default=m.vwind_offctr)
    g.add_argument("--rayleigh-coeff", type=float, default=m.rayleigh_coeff,
                   help="rayleigh_type is KLEMP (2), the only type MetricsConfig accepts")
    g.add_argument("--divdamp-type", type=int, default=m.divdamp_type)
    g.add_argument("--divdamp-trans-start", type=float, default=m.divdamp_trans_start)
    g.add_argument("--divdamp-trans-end", type=float, default=m.divdamp_trans_end)


def build_parser(description: str = __doc__) -> argparse.ArgumentParser:
    """The command line of this script (also make_fake_statics.py's configuration options)."""
    ap = argparse.ArgumentParser(description=description,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--icondiff", help="icondiff binary (needed unless --statics-file is given "
                                       "for every grid)")
    ap.add_argument("--grid", nargs=2, action="append", required=True, metavar=("NAME", "GRID"),
                    help="a grid file or generate:RnBk (written by icondiff grid-info; repeat)")
    ap.add_argument("--statics", action="store_true",
                    help="compare solve_nh_init's statics (icondiff's statics file) instead of "
                         "the diffusion's static fields (icondiff's savepoint)")
    ap.add_argument("--statics-file", nargs=2, action="append", metavar=("NAME", "FILE"),
                    help="with --statics: icondiff's statics file of grid NAME (default: written "
                         "by icondiff grid-info --statics; repeat)")
    ap.add_argument("--backend", default="gtfn_cpu",
                    help="ICON4Py backend of the factories' gt4py programs (gtfn_cpu; "
                         "'embedded' cannot compute wgtfac_c and zd_* in gt4py 1.1.10)")
    ap.add_argument("--nlev", type=int, default=65)
    # icondiff run's defaults (MCH_CH_R04B09 vertical grid, 4 km Gaussian hill over the Alps)
    ap.add_argument("--top-height", type=float, default=23000.0)
    ap.add_argument("--min-lay-thckn", type=float, default=20.0)
    ap.add_argument("--stretch-fac", type=float, default=0.65)
    ap.add_argument("--damp-height", type=float, default=12500.0)
    ap.add_argument("--thslp-zdiffu", type=float, default=0.02)
    ap.add_argument("--thhgtd-zdiffu", type=float, default=125.0)
    ap.add_argument("--mount-height", type=float, default=4000.0)
    ap.add_argument("--mount-half-width", type=float, default=200000.0)
    ap.add_argument("--mount-lon", type=float, default=8.0)
    ap.add_argument("--mount-lat", type=float, default=46.5)
    ap.add_argument("--topography", choices=("hill", "jabw"), default="hill",
                    help="--statics: the Gaussian hill of --mount-* (default) or JW06's surface "
                         "(jabw, the dynamics run's)")
    ap.add_argument("--nudge-max-coeff", type=float, default=0.075,
                    help="interpol_nml:nudge_max_coeff (both sides scale it by 5)")
    ap.add_argument("--rtol", type=float, default=1e-12)
    ap.add_argument("--numpy-simd", choices=("on", "off"), default="on",
                    help="off: run ICON4Py with numpy's SIMD kernels disabled "
                         "(NPY_DISABLE_CPU_FEATURES, set by re-running this script): its float64 "
                         "math is then glibc's on every x86-64 CPU; on: as numpy finds the CPU")
    ap.add_argument("--no-explain", dest="explain", action="store_false",
                    help="skip the numpy recomputation of the explained differences")
    ap.add_argument("--workdir", help="keep icondiff's savepoints here (default: a temporary directory)")
    ap.add_argument("--markdown", help="write the tables as markdown here")
    ap.add_argument("--json", help="write all numbers as JSON here")
    add_statics_options(ap)
    return ap


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if argv is None:
        apply_numpy_simd(args)
    ii.backend_like(args.backend)
    if args.statics:
        return statics_main(args)
    if not args.icondiff:
        print("error: --icondiff is needed (icondiff run writes the savepoint)", file=sys.stderr)
        return 2

    workdir = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="icondiff-factories-"))
    results = []
    try:
        for name, grid_spec in args.grid:
            t0 = time.perf_counter()
            results.append(run_grid(name, grid_spec, args, workdir))
            print(f"[{name}] done in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    finally:
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)

    rows = summary_rows(results)
    failed = any(r["result"] == "FAIL" for r in rows) or any(r["errors"] for r in results)
    title = (f"icondiff vs ICON4Py {ii.icon4py_version()} factories ({args.backend}): "
             f"|icon4py - icondiff| inside ICON4Py's domain, relative to |icondiff|")
    print("\n" + title)
    print(ii.format_table(rows))
    explanation_text = []
    for r in results:
        for key, err in r["errors"].items():
            print(f"[{r['grid']}] {key}: ERROR {err}")
        for ex in r.get("explanations", []):
            explanation_text.append(f"[{r['grid']}] {json.dumps(ex, indent=1)}")
    if explanation_text:
        print("Explained differences (numpy recomputation of each side's formula):")
        print("\n".join(explanation_text))

    if args.markdown:
        md = [f"### Factories\n\n{title}.\n\n", ii.format_table(rows, markdown=True)]
        for r in results:
            for key, err in r["errors"].items():
                md.append(f"\n* {r['grid']} `{key}`: could not compare: `{err}`\n")
        if explanation_text:
            md.append("\n<details><summary>Explained differences</summary>\n\n```\n"
                      + "\n".join(explanation_text) + "\n```\n</details>\n")
        Path(args.markdown).write_text("".join(md))
    if args.json:
        def default(o):
            if isinstance(o, ii.Difference):
                return {k: (list(map(int, v)) if isinstance(v, tuple) else v) for k, v in o.__dict__.items()}
            return str(o)
        Path(args.json).write_text(json.dumps(results, indent=1, default=default))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
