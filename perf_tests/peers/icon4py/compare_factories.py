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

Exit status: 0 if every field passes, 1 otherwise, 2 for setup errors.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
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
    cmd = [icondiff, "run", "--grid", grid_file, "--steps", "1", "--savepoints", str(workdir),
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--icondiff", required=True, help="icondiff binary")
    ap.add_argument("--grid", nargs=2, action="append", required=True, metavar=("NAME", "GRID"),
                    help="a grid file or generate:RnBk (written by icondiff grid-info; repeat)")
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
    ap.add_argument("--nudge-max-coeff", type=float, default=0.075,
                    help="interpol_nml:nudge_max_coeff (both sides scale it by 5)")
    ap.add_argument("--rtol", type=float, default=1e-12)
    ap.add_argument("--no-explain", dest="explain", action="store_false",
                    help="skip the numpy recomputation of the explained differences")
    ap.add_argument("--workdir", help="keep icondiff's savepoints here (default: a temporary directory)")
    ap.add_argument("--markdown", help="write the tables as markdown here")
    ap.add_argument("--json", help="write all numbers as JSON here")
    args = ap.parse_args(argv)
    ii.backend_like(args.backend)

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
