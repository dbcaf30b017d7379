"""Shared inputs of the ICON4Py peer harness.

* gt4py's build cache: set here (before gt4py is imported) with a persistent lifetime,
  unless the caller already set ``GT4PY_BUILD_CACHE_DIR`` / ``GT4PY_BUILD_CACHE_LIFETIME``.
  Default: ``gt4py-cache`` inside the venv of setup_venv.sh, so that rebuilding the venv
  (new pins) also drops the compiled programs: they link a static nanobind library built from
  the venv's nanobind headers, and a cache kept across venvs fails to link
  ("undefined reference to nanobind::detail::..."). Outside that venv:
  ``${ICONDIFF_CACHE_DIR:-$HOME/.cache/icondiff}/gt4py-cache``.
  Import this module before anything that imports gt4py.
* ``grid_file(spec, icondiff, workdir)``: a grid file path as it is, or ``generate:RnBk``
  written as an ICON grid file by ``icondiff grid-info --write`` (ICON4Py needs a file).
* ``load_icon4py_grid(path, backend, ...)``: an ICON grid netCDF file -> ICON4Py ``IconGrid``
  (through ICON4Py's own ``GridManager``, so ICON4Py reads the file itself).
* ``read_savepoint(path)``: an icondiff diffusion savepoint (docs/dev/savepoints.md, format 1)
  -> numpy arrays in ICON4Py's (point, [slot,] level) order plus the attributes.
* ``diffusion_inputs(savepoint, grid, backend)``: the savepoint -> ICON4Py's DiffusionConfig,
  DiffusionParams, VerticalGrid, DiffusionMetricState, DiffusionInterpolationState, EdgeParams,
  CellParams, PrognosticState and DiffusionDiagnosticState.
* ``make_factories(...)``: ICON4Py's GridGeometry, InterpolationFieldsFactory and
  MetricsFieldsFactory on a grid file (used by compare_factories.py).
* ``write_runner_inputs(path, fields, arrays, scalars, nlev)``: the netCDF inputs file of
  stencil_runner/icondiff_stencil_runner (compare_stencils.py, compare_dycore.py).
* ``compare_arrays(name, actual, expected, rtol, floor)`` / ``format_table(rows)``: the
  comparison helpers.

Everything here is ICON4Py 0.2.0 / gt4py 1.1.10 API (the pinned venv of setup_venv.sh).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import pathlib
import sys

# ---- gt4py build cache (must precede the first gt4py import) -------------------------------------
CACHE_ROOT = pathlib.Path(
    os.environ.get("ICONDIFF_CACHE_DIR", pathlib.Path.home() / ".cache" / "icondiff")
)
#: Where gt4py keeps compiled programs (see the module docstring for why it lives in the venv).
GT4PY_CACHE = (
    pathlib.Path(sys.prefix) / "gt4py-cache"
    if (pathlib.Path(sys.prefix) / ".ready").is_file()
    else CACHE_ROOT / "gt4py-cache"
)
os.environ.setdefault("GT4PY_BUILD_CACHE_DIR", str(GT4PY_CACHE))
os.environ.setdefault("GT4PY_BUILD_CACHE_LIFETIME", "persistent")

import gt4py.next as gtx  # noqa: E402
import netCDF4  # noqa: E402
import numpy as np  # noqa: E402

from icon4py.model.atmosphere.diffusion import diffusion as icon4py_diffusion  # noqa: E402
from icon4py.model.atmosphere.diffusion import diffusion_states  # noqa: E402
from icon4py.model.common import dimension as dims  # noqa: E402
from icon4py.model.common import model_backends, model_options  # noqa: E402
from icon4py.model.common.decomposition import definitions as decomposition  # noqa: E402
from icon4py.model.common.grid import grid_manager as gm  # noqa: E402
from icon4py.model.common.grid import horizontal as h_grid  # noqa: E402
from icon4py.model.common.grid import icon as icon_grid  # noqa: E402
from icon4py.model.common.grid import states as grid_states  # noqa: E402
from icon4py.model.common.grid import vertical as v_grid  # noqa: E402
from icon4py.model.common.states import prognostic_state  # noqa: E402

#: The backends the harness knows by name (ICON4Py's model_backends.BACKENDS keys).
CPU_BACKENDS = ("embedded", "gtfn_cpu", "dace_cpu")


def icon4py_version() -> str:
    """'icon4py-atmosphere-diffusion X, gt4py Y' of the running environment."""
    from importlib import metadata

    return (f"{metadata.version('icon4py-atmosphere-diffusion')} "
            f"(gt4py {metadata.version('gt4py')})")


def backend_like(name: str):
    """ICON4Py backend descriptor for a name: 'embedded' (None), 'gtfn_cpu', 'dace_cpu', ..."""
    if name not in model_backends.BACKENDS:
        raise ValueError(f"unknown ICON4Py backend '{name}'; known: {sorted(model_backends.BACKENDS)}")
    return model_backends.BACKENDS[name]


def _backend_key(backend) -> str | None:
    """Accept a backend name or an ICON4Py BackendLike; return the name (None for embedded)."""
    if backend is None or backend == "embedded":
        return None
    if isinstance(backend, str):
        backend_like(backend)  # validates the name
        return backend
    for name, value in model_backends.BACKENDS.items():
        if value is backend or value == backend:
            return None if name == "embedded" else name
    raise ValueError(f"unsupported backend {backend!r}: pass a name from {CPU_BACKENDS}")


def allocator_for(backend):
    """The array allocator ICON4Py uses for a backend (name or BackendLike)."""
    key = _backend_key(backend)
    return model_backends.get_allocator(None if key is None else backend_like(key))


# ---- grid ------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def _grid_manager(path: str, backend_key: str | None, num_levels: int, keep_skip_values: bool):
    allocator = model_backends.get_allocator(
        None if backend_key is None else backend_like(backend_key)
    )
    manager = gm.GridManager(str(path), v_grid.VerticalGridConfig(num_levels=num_levels))
    manager(allocator=allocator, keep_skip_values=keep_skip_values)
    return manager


def load_icon4py_grid_manager(
    path: str | os.PathLike,
    backend=None,
    num_levels: int = 65,
    keep_skip_values: bool = False,
) -> gm.GridManager:
    """ICON4Py's GridManager after reading `path` (grid, coordinates, geometry fields,
    decomposition info). Cached per (path, backend, num_levels, keep_skip_values)."""
    return _grid_manager(
        str(pathlib.Path(path).resolve()), _backend_key(backend), int(num_levels), keep_skip_values
    )


def load_icon4py_grid(
    path: str | os.PathLike,
    backend=None,
    num_levels: int = 65,
    keep_skip_values: bool = False,
) -> icon_grid.IconGrid:
    """Load an ICON grid netCDF file into ICON4Py's ``IconGrid`` with ICON4Py's GridManager.

    Args:
        path: the grid file (a real ICON grid or one written by ``icondiff grid-info --write``).
        backend: 'embedded' / None, 'gtfn_cpu', 'dace_cpu' (a name, or the BackendLike value of
            ``model_backends.BACKENDS``); selects the allocator of the connectivity tables.
        num_levels: number of full levels of the grid (ICON4Py keeps it in the horizontal grid).
        keep_skip_values: False (default) replaces -1 in limited-area/halo neighbour tables by a
            valid neighbour, as ICON4Py does for its stencil tests and LAM runs; pentagon skip
            values of global grids (V2E, V2C, ...) are kept either way.

    Single node (no decomposition). The result is cached per argument set.
    """
    return load_icon4py_grid_manager(path, backend, num_levels, keep_skip_values).grid


def grid_file(spec: str, icondiff: str | None, workdir: str | os.PathLike) -> str:
    """A grid file for `spec`: an existing ICON grid file as it is, or ``generate:RnBk[/...]``
    written once by ``icondiff grid-info --grid SPEC --write`` into `workdir` (ICON4Py needs a
    file; icondiff's generator output is written there as an ICON grid file)."""
    import subprocess

    if not spec.startswith("generate:"):
        if not pathlib.Path(spec).is_file():
            raise FileNotFoundError(f"grid file {spec} does not exist")
        return spec
    if not icondiff:
        raise ValueError(f"grid {spec} needs the icondiff binary (--icondiff) to be written")
    name = spec[len("generate:"):].replace("/", "_").replace(":", "_").replace(",", "_")
    path = pathlib.Path(workdir) / f"generated_{name}.nc"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([icondiff, "grid-info", "--grid", spec, "--write", str(path)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"icondiff grid-info --grid {spec} --write {path} failed:\n"
                               f"{proc.stderr[-2000:]}")
    return str(path)


ZONES = {
    "cell": dims.CellDim,
    "edge": dims.EdgeDim,
    "vertex": dims.VertexDim,
}


def zone_ranges(grid: icon_grid.IconGrid) -> dict[str, tuple[int, int]]:
    """{'cell.NUDGING': (start, end), ...} for every zone ICON4Py defines at each location."""
    out = {}
    for loc, dim in ZONES.items():
        domain = h_grid.domain(dim)
        for zone in h_grid.Zone:
            try:
                d = domain(zone)
                out[f"{loc}.{zone.name}"] = (int(grid.start_index(d)), int(grid.end_index(d)))
            except (AssertionError, KeyError, ValueError):
                continue  # zone not defined at this location (e.g. NUDGING_LEVEL_2 on cells)
    return out


def check_zones(grid: icon_grid.IconGrid, savepoint: "Savepoint") -> list[str]:
    """Compare ICON4Py's zone ranges with those icondiff wrote into the savepoint; returns the
    mismatches (empty list: identical). A savepoint zone [0, 0) that ICON4Py does not define
    is ignored."""
    mine = zone_ranges(grid)
    problems = []
    if grid.num_cells != savepoint.sizes["cell"] or grid.num_edges != savepoint.sizes["edge"] or (
        grid.num_vertices != savepoint.sizes["vertex"]
    ):
        problems.append(
            f"sizes: ICON4Py {grid.num_cells}/{grid.num_edges}/{grid.num_vertices}, savepoint "
            f"{savepoint.sizes['cell']}/{savepoint.sizes['edge']}/{savepoint.sizes['vertex']}"
        )
    if bool(grid.limited_area) != bool(savepoint.attrs.get("grid.limited_area", 0)):
        problems.append(f"limited_area: ICON4Py {grid.limited_area}, savepoint "
                        f"{savepoint.attrs.get('grid.limited_area')}")
    for key, value in savepoint.zones.items():
        if key in mine and tuple(mine[key]) != tuple(value):
            problems.append(f"zone {key}: ICON4Py {mine[key]}, icondiff {tuple(value)}")
    return problems


# ---- savepoints ------------------------------------------------------------------------------------

#: Variables of (level, point) and (slot, point) shape and their transposition to ICON4Py order.
_TRANSPOSE_2D = {
    # prognostic / diagnostic / metric (level, point) -> (point, level)
    "vn", "w", "theta_v", "exner", "hdef_ic", "div_ic", "dwdx", "dwdy", "theta_ref_mc",
    "wgtfac_c", "zd_diffcoef",
    # sparse coefficients (slot, point) -> (point, slot)
    "e_bln_c_s", "rbf_coeff_1", "rbf_coeff_2", "geofac_div", "geofac_n2s", "geofac_grg_x",
    "geofac_grg_y", "primal_normal_vert_x", "primal_normal_vert_y", "dual_normal_vert_x",
    "dual_normal_vert_y",
}
#: (level, slot, point) -> (point, slot, level)
_TRANSPOSE_3D = {"zd_vertoffset", "zd_intcoef"}

#: The granule's outputs, in the order of icondiff's comparison table.
OUTPUT_FIELDS = ("vn", "w", "theta_v", "exner", "div_ic", "hdef_ic", "dwdx", "dwdy")


@dataclasses.dataclass
class Savepoint:
    """An icondiff diffusion savepoint read into numpy (ICON4Py's index order)."""

    path: str
    kind: str  # 'diffusion-init' or 'diffusion-exit'
    attrs: dict
    sizes: dict
    fields: dict  # name -> numpy array, (point, level) / (point, slot) / (point, slot, level)

    @property
    def config(self) -> dict:
        return {k[len("config."):]: v for k, v in self.attrs.items() if k.startswith("config.")}

    @property
    def zones(self) -> dict:
        p = "grid.zones."
        return {k[len(p):]: tuple(int(x) for x in np.atleast_1d(v))
                for k, v in self.attrs.items() if k.startswith(p)}

    @property
    def dtime(self) -> float:
        return float(self.attrs["dtime"])

    @property
    def initial_run(self) -> bool:
        return bool(int(self.attrs["initial_run"]))

    @property
    def nrd(self) -> int:
        return int(self.attrs["vertical.end_index_of_damping_layer"])

    @property
    def num_levels(self) -> int:
        return int(self.sizes["nlev"])


def _attr_value(value):
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.reshape(()).item()
    if isinstance(value, np.generic):
        value = value.item()
    return value


def read_savepoint(path: str | os.PathLike) -> Savepoint:
    """Read an icondiff savepoint (format 1) with netCDF4; arrays in ICON4Py's index order."""
    with netCDF4.Dataset(str(path), "r") as ds:
        ds.set_auto_mask(False)
        attrs = {name: _attr_value(ds.getncattr(name)) for name in ds.ncattrs()}
        if attrs.get("icondiff_savepoint_format") != 1:
            raise ValueError(f"{path}: not an icondiff savepoint of format 1 "
                             f"(icondiff_savepoint_format = {attrs.get('icondiff_savepoint_format')})")
        sizes = {name: len(dim) for name, dim in ds.dimensions.items()}
        fields = {}
        for name, var in ds.variables.items():
            data = np.asarray(var[...])
            if name in _TRANSPOSE_2D:
                data = data.T
            elif name in _TRANSPOSE_3D:
                data = data.transpose(2, 1, 0)
            fields[name] = np.ascontiguousarray(data)
    return Savepoint(str(path), attrs["savepoint"], attrs, sizes, fields)


# ---- savepoint -> ICON4Py objects ------------------------------------------------------------------


def diffusion_config(savepoint: Savepoint) -> icon4py_diffusion.DiffusionConfig:
    """ICON4Py's DiffusionConfig from the savepoint's config.* attributes (same ICON encoding)."""
    c = savepoint.config
    return icon4py_diffusion.DiffusionConfig(
        diffusion_type=icon4py_diffusion.DiffusionType(int(c["diffusion_type"])),
        hdiff_w=bool(c["apply_to_vertical_wind"]),
        hdiff_vn=bool(c["apply_to_horizontal_wind"]),
        hdiff_temp=bool(c["apply_to_temperature"]),
        hdiff_smag_w=bool(c["apply_smag_diff_to_vertical_wind"]),
        type_vn_diffu=icon4py_diffusion.SmagorinskyStencilType(int(c["type_vn_diffu"])),
        smag_3d=bool(c["compute_3d_smag_coeff"]),
        type_t_diffu=icon4py_diffusion.TemperatureDiscretizationType(int(c["type_t_diffu"])),
        hdiff_efdt_ratio=float(c["hdiff_efdt_ratio"]),
        hdiff_w_efdt_ratio=float(c["hdiff_w_efdt_ratio"]),
        smagorinski_scaling_factor=float(c["smagorinski_scaling_factor"]),
        smagorinski_scaling_factor2=float(c["smagorinski_scaling_factor2"]),
        smagorinski_scaling_factor3=float(c["smagorinski_scaling_factor3"]),
        smagorinski_scaling_factor4=float(c["smagorinski_scaling_factor4"]),
        smagorinski_scaling_height=float(c["smagorinski_scaling_height"]),
        smagorinski_scaling_height2=float(c["smagorinski_scaling_height2"]),
        smagorinski_scaling_height3=float(c["smagorinski_scaling_height3"]),
        smagorinski_scaling_height4=float(c["smagorinski_scaling_height4"]),
        n_substeps=int(c["ndyn_substeps"]),
        zdiffu_t=bool(c["apply_zdiffusion_t"]),
        velocity_boundary_diffusion_denom=float(c["velocity_boundary_diffusion_denominator"]),
        temperature_boundary_diffusion_denom=float(c["temperature_boundary_diffusion_denominator"]),
        # already ICON4Py's scaled value (5 x interpol_nml:nudge_max_coeff)
        max_nudging_coefficient=float(c["max_nudging_coefficient"]),
        shear_type=icon4py_diffusion.TurbulenceShearForcingType(int(c["shear_type"])),
        iforcing=icon4py_diffusion.ForcingType(int(c["iforcing"])),
        a_hshr=float(c["a_hshr"]),
        loutshs=bool(c["loutshs"]),
    )


def vertical_grid(savepoint: Savepoint, backend=None) -> v_grid.VerticalGrid:
    """ICON4Py VerticalGrid with the savepoint's vct_a and nrd.

    ICON4Py derives nrd from `rayleigh_damping_height` (largest kh with vct_a[kh] >= height);
    the savepoint stores nrd itself, so the height is set to vct_a[nrd], which gives back nrd
    (checked). The other config fields do not enter the diffusion granule.
    """
    vct_a = savepoint.fields["vct_a"].astype(np.float64)
    nrd = savepoint.nrd
    config = v_grid.VerticalGridConfig(
        num_levels=savepoint.num_levels,
        model_top_height=float(vct_a[0]),
        rayleigh_damping_height=float(vct_a[nrd]),
    )
    vg = v_grid.VerticalGrid(
        config=config,
        vct_a=gtx.as_field((dims.KDim,), vct_a, allocator=allocator_for(backend)),
        vct_b=None,
    )
    if int(vg.end_index_of_damping_layer) != nrd:
        raise RuntimeError(f"ICON4Py derived nrd {vg.end_index_of_damping_layer} from vct_a, "
                           f"the savepoint says {nrd}")
    return vg


@dataclasses.dataclass
class DiffusionInputs:
    config: icon4py_diffusion.DiffusionConfig
    params: icon4py_diffusion.DiffusionParams
    vertical_grid: v_grid.VerticalGrid
    metric_state: diffusion_states.DiffusionMetricState
    interpolation_state: diffusion_states.DiffusionInterpolationState
    edge_params: grid_states.EdgeParams
    cell_params: grid_states.CellParams
    dtime: float
    initial_run: bool


def diffusion_inputs(savepoint: Savepoint, backend=None) -> DiffusionInputs:
    """Everything ``Diffusion.__init__`` needs, from an init savepoint."""
    if savepoint.kind != "diffusion-init":
        raise ValueError(f"{savepoint.path}: expected a diffusion-init savepoint, got {savepoint.kind}")
    f = savepoint.fields
    alloc = allocator_for(backend)

    def field(domain, name, dtype=np.float64):
        return gtx.as_field(domain, np.ascontiguousarray(f[name], dtype=dtype), allocator=alloc)

    C, E, V, K = dims.CellDim, dims.EdgeDim, dims.VertexDim, dims.KDim
    nc, nk = savepoint.sizes["cell"], savepoint.num_levels
    if "zd_diffcoef" in f:
        zd_vertoffset = field((C, dims.C2E2CDim, K), "zd_vertoffset", np.int32)
        zd_diffcoef = field((C, K), "zd_diffcoef")
        zd_intcoef = field((C, dims.C2E2CDim, K), "zd_intcoef")
    else:  # optional when apply_zdiffusion_t is off (docs/dev/savepoints.md); never read then
        zd_vertoffset = gtx.as_field((C, dims.C2E2CDim, K), np.zeros((nc, 3, nk), np.int32), allocator=alloc)
        zd_diffcoef = gtx.as_field((C, K), np.zeros((nc, nk)), allocator=alloc)
        zd_intcoef = gtx.as_field((C, dims.C2E2CDim, K), np.zeros((nc, 3, nk)), allocator=alloc)

    metric = diffusion_states.DiffusionMetricState(
        theta_ref_mc=field((C, K), "theta_ref_mc"),
        wgtfac_c=field((C, K), "wgtfac_c"),
        zd_vertoffset=zd_vertoffset,
        zd_diffcoef=zd_diffcoef,
        zd_intcoef=zd_intcoef,
    )
    interpolation = diffusion_states.DiffusionInterpolationState(
        e_bln_c_s=field((C, dims.C2EDim), "e_bln_c_s"),
        rbf_coeff_1=field((V, dims.V2EDim), "rbf_coeff_1"),
        rbf_coeff_2=field((V, dims.V2EDim), "rbf_coeff_2"),
        geofac_div=field((C, dims.C2EDim), "geofac_div"),
        geofac_n2s=field((C, dims.C2E2CODim), "geofac_n2s"),
        geofac_grg_x=field((C, dims.C2E2CODim), "geofac_grg_x"),
        geofac_grg_y=field((C, dims.C2E2CODim), "geofac_grg_y"),
        nudgecoeff_e=field((E,), "nudgecoeff_e"),
    )
    edges = grid_states.EdgeParams(
        tangent_orientation=field((E,), "tangent_orientation"),
        inverse_primal_edge_lengths=field((E,), "inverse_primal_edge_lengths"),
        inverse_dual_edge_lengths=field((E,), "inverse_dual_edge_lengths"),
        inverse_vertex_vertex_lengths=field((E,), "inverse_vertex_vertex_lengths"),
        primal_normal_vert_x=field((E, dims.E2C2VDim), "primal_normal_vert_x"),
        primal_normal_vert_y=field((E, dims.E2C2VDim), "primal_normal_vert_y"),
        dual_normal_vert_x=field((E, dims.E2C2VDim), "dual_normal_vert_x"),
        dual_normal_vert_y=field((E, dims.E2C2VDim), "dual_normal_vert_y"),
        edge_areas=field((E,), "edge_areas"),
    )
    cells = grid_states.CellParams(area=field((C,), "cell_area"))
    config = diffusion_config(savepoint)
    return DiffusionInputs(
        config=config,
        params=icon4py_diffusion.DiffusionParams(config),
        vertical_grid=vertical_grid(savepoint, backend),
        metric_state=metric,
        interpolation_state=interpolation,
        edge_params=edges,
        cell_params=cells,
        dtime=savepoint.dtime,
        initial_run=savepoint.initial_run,
    )


def prognostic_and_diagnostic_states(savepoint: Savepoint, backend=None):
    """Fresh (copied) ICON4Py PrognosticState and DiffusionDiagnosticState from a savepoint;
    the granule updates them in place. rho is not in the savepoint and not read: zeros."""
    f = savepoint.fields
    alloc = allocator_for(backend)
    C, E, K = dims.CellDim, dims.EdgeDim, dims.KDim

    def field(domain, name):
        return gtx.as_field(domain, np.array(f[name], dtype=np.float64, copy=True), allocator=alloc)

    prognostic = prognostic_state.PrognosticState(
        rho=gtx.as_field((C, K), np.zeros_like(f["theta_v"]), allocator=alloc),
        w=field((C, K), "w"),
        vn=field((E, K), "vn"),
        exner=field((C, K), "exner"),
        theta_v=field((C, K), "theta_v"),
    )
    diagnostic = diffusion_states.DiffusionDiagnosticState(
        hdef_ic=field((C, K), "hdef_ic"),
        div_ic=field((C, K), "div_ic"),
        dwdx=field((C, K), "dwdx"),
        dwdy=field((C, K), "dwdy"),
    )
    return prognostic, diagnostic


def make_diffusion(grid: icon_grid.IconGrid, inputs: DiffusionInputs, backend=None):
    """ICON4Py's Diffusion granule (single node), compiled for `backend` (a name)."""
    key = _backend_key(backend)
    return icon4py_diffusion.Diffusion(
        grid=grid,
        config=inputs.config,
        params=inputs.params,
        vertical_grid=inputs.vertical_grid,
        metric_state=inputs.metric_state,
        interpolation_state=inputs.interpolation_state,
        edge_params=inputs.edge_params,
        cell_params=inputs.cell_params,
        backend=None if key is None else backend_like(key),
        exchange=decomposition.single_node_exchange,
    )


def output_arrays(prognostic, diagnostic) -> dict[str, np.ndarray]:
    """The granule's outputs as numpy arrays (point, level)."""
    return {
        "vn": prognostic.vn.asnumpy(),
        "w": prognostic.w.asnumpy(),
        "theta_v": prognostic.theta_v.asnumpy(),
        "exner": prognostic.exner.asnumpy(),
        "div_ic": diagnostic.div_ic.asnumpy(),
        "hdef_ic": diagnostic.hdef_ic.asnumpy(),
        "dwdx": diagnostic.dwdx.asnumpy(),
        "dwdy": diagnostic.dwdy.asnumpy(),
    }


# ---- ICON4Py factories -------------------------------------------------------------------------------


def jablonowski_williamson_topography(cell_lat, radius):
    """icondiff's JW06 surface (src/geometry/metric_fields.cpp compute_topography, JW06 eq. (7) at
    the surface divided by g, in ICON's init_nh_topo_jabw order), with the same operations
    through Python's math module so that it matches icondiff's bit for bit."""
    u0, eta0, grav, omega = 35.0, 0.252, 9.80665, 7.29212e-5
    cos_etav_15 = math.pow(math.cos((1.0 - eta0) * math.pi * 0.5), 1.5)
    a_omega = radius * omega
    out = np.zeros(len(cell_lat))
    for i, lat in enumerate(cell_lat.tolist()):
        s, co = math.sin(lat), math.cos(lat)
        s6 = s * s * s * s * s * s
        out[i] = u0 * cos_etav_15 * ((-2.0 * s6 * (co * co + 1.0 / 3.0) + 10.0 / 63.0) * u0
                                     * cos_etav_15 + (1.6 * co * co * co * (s * s + 2.0 / 3.0)
                                                      - 0.25 * math.pi) * a_omega) / grav
    return out


def gaussian_hill_topography(cell_lon, cell_lat, height, half_width, lon_deg, lat_deg, radius):
    """icondiff's analytic Gaussian hill (src/geometry/metric_fields.cpp compute_topography),
    h = h0 exp(-(d/a)^2), d the great-circle distance on the grid sphere, evaluated with the
    same operations in the same order through Python's math module (the C library's libm,
    as icondiff) so the topography matches icondiff's bit for bit."""
    deg = math.pi / 180.0

    def to_cart(lon, lat):
        return (math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat))

    cx, cy, cz = to_cart(lon_deg * deg, lat_deg * deg)
    out = np.zeros(len(cell_lon))
    if height <= 0:
        return out
    for i, (lon, lat) in enumerate(zip(cell_lon.tolist(), cell_lat.tolist())):
        ax, ay, az = to_cart(lon, lat)
        # cross(a, c) and dot(a, c) as in icondiff::sphere::arc_length
        x = ay * cz - az * cy
        y = az * cx - ax * cz
        z = ax * cy - ay * cx
        cross_norm = math.sqrt(x * x + y * y + z * z)
        dot = ax * cx + ay * cy + az * cz
        d = radius * math.atan2(cross_norm, dot)
        r = d / half_width
        out[i] = height * math.exp(-r * r)
    return out


def make_factories(
    grid_file: str | os.PathLike,
    backend=None,
    *,
    num_levels: int,
    vertical_config: dict,
    topography: np.ndarray,
    thslp_zdiffu: float,
    thhgtd_zdiffu: float,
    max_nudging_coefficient: float = 0.375,
    metrics_config: dict | None = None,
):
    """ICON4Py's GridGeometry, InterpolationFieldsFactory and MetricsFieldsFactory for a grid
    file, as ICON4Py's own benchmark fixtures build them (testing/fixtures/benchmark.py).

    `vertical_config`: keyword arguments of ``VerticalGridConfig`` (model_top_height,
    lowest_layer_thickness, stretch_factor, rayleigh_damping_height, ...).
    `metrics_config`: further keyword arguments of ``MetricsConfig`` (exner_expol, vwind_offctr,
    rayleigh_coeff, divdamp_trans_start, ...); ICON4Py's defaults for the ones not given.
    Returns (grid_manager, geometry, interpolation, metrics, vertical_grid).
    """
    from icon4py.model.common.grid import geometry as grid_geometry
    from icon4py.model.common.grid import geometry_attributes as geometry_meta
    from icon4py.model.common.interpolation import interpolation_attributes, interpolation_factory
    from icon4py.model.common.metrics import metrics_attributes, metrics_factory

    key = _backend_key(backend)
    blike = None if key is None else backend_like(key)
    manager = load_icon4py_grid_manager(grid_file, key, num_levels)
    concrete = model_options.customize_backend(None, blike)
    geometry = grid_geometry.GridGeometry(
        grid=manager.grid,
        decomposition_info=manager.decomposition_info,
        exchange=decomposition.single_node_exchange,
        backend=concrete,
        coordinates=manager.coordinates,
        extra_fields=manager.geometry_fields,
        metadata=geometry_meta.attrs,
    )
    interpolation = interpolation_factory.InterpolationFieldsFactory(
        config=interpolation_factory.InterpolationConfig(
            max_nudging_coefficient=max_nudging_coefficient
        ),
        grid=manager.grid,
        decomposition_info=manager.decomposition_info,
        exchange=decomposition.single_node_exchange,
        geometry_source=geometry,
        backend=concrete,
        metadata=interpolation_attributes.attrs,
    )
    alloc = model_backends.get_allocator(blike)
    vconfig = v_grid.VerticalGridConfig(num_levels=num_levels, **vertical_config)
    vct_a, vct_b = v_grid.get_vct_a_and_vct_b(vconfig, alloc)
    vertical = v_grid.VerticalGrid(config=vconfig, vct_a=vct_a, vct_b=vct_b)
    metrics = metrics_factory.MetricsFieldsFactory(
        grid=manager.grid,
        vertical_grid=vertical,
        decomposition_info=manager.decomposition_info,
        exchange=decomposition.single_node_exchange,
        geometry_source=geometry,
        topography=gtx.as_field((dims.CellDim,), np.asarray(topography, np.float64), allocator=alloc),
        interpolation_source=interpolation,
        config=metrics_factory.MetricsConfig(thslp_zdiffu=thslp_zdiffu, thhgtd_zdiffu=thhgtd_zdiffu,
                                             **(metrics_config or {})),
        backend=concrete,
        metadata=metrics_attributes.attrs,
    )
    return manager, geometry, interpolation, metrics, vertical


def as_numpy(x) -> np.ndarray:
    """gt4py field / numpy / cupy -> numpy."""
    if hasattr(x, "asnumpy"):
        return np.asarray(x.asnumpy())
    if hasattr(x, "ndarray"):
        return np.asarray(x.ndarray)
    return np.asarray(x)


# ---- input files of stencil_runner/icondiff_stencil_runner -------------------------------------------

#: netCDF dimension names of the short dimension names of a field's `dims` ("E,K", "C,C2E2C,K").
NC_DIM_NAMES = {"C": "Cell", "E": "Edge", "V": "Vertex", "K": "K", "KH": "KHalf"}


def write_runner_inputs(path: str | os.PathLike, fields, arrays: dict, scalars: dict, nlev: int,
                        int_scalars=frozenset()) -> None:
    """Writes the inputs file of icondiff_stencil_runner (its header comment): one variable per
    field, named as ICON4Py's argument, whose netCDF dimensions are the field's `dims` ("E,K",
    "E,E2C,K", ...: ICON4Py's order) reversed, so that the C order of the transposed array is
    the runner's LayoutLeft View byte for byte; then the scalars as 0-d variables: int32 for the
    names in `int_scalars` and for bool/integer values, float64 otherwise. `fields`: objects
    with .name, .dims and .dtype ("f8" or "i4"); `arrays[name]` in ICON4Py's index order."""
    with netCDF4.Dataset(str(path), "w", format="NETCDF3_64BIT_DATA") as ds:
        for f in fields:
            for d, n in zip(f.dims.split(","), arrays[f.name].shape):
                name = NC_DIM_NAMES.get(d, d)
                if name not in ds.dimensions:
                    ds.createDimension(name, n)
        if "K" not in ds.dimensions:
            ds.createDimension("K", nlev)
        for f in fields:
            a = arrays[f.name]
            dims_ = tuple(NC_DIM_NAMES.get(d, d) for d in reversed(f.dims.split(",")))
            var = ds.createVariable(f.name, "i4" if f.dtype == "i4" else "f8", dims_)
            var[:] = np.ascontiguousarray(a.T)
        for name, value in scalars.items():
            if name in int_scalars or isinstance(value, (bool, int, np.integer, np.bool_)):
                var = ds.createVariable(name, "i4", ())
                var.assignValue(int(value))
            else:
                var = ds.createVariable(name, "f8", ())
                var.assignValue(float(value))


# ---- comparison -----------------------------------------------------------------------------------


@dataclasses.dataclass
class Difference:
    """Field difference |actual - expected| (expected = icondiff's value)."""

    name: str
    values: int
    max_abs: float
    where_abs: tuple | None
    max_rel: float  # max over expected != 0 of |a - e| / |e|; inf if a != 0 where e == 0
    where_rel: tuple | None
    n_over: int  # values beyond the tolerance (NaN counts)
    n_nan: int
    expected_abs_max: float
    rtol: float
    floor: bool  # tolerance rtol (|e| + max|e| of the level) instead of rtol |e|

    @property
    def max_normwise(self) -> float:
        """max |a - e| / max |e|: the difference relative to the field's magnitude."""
        return self.max_abs / self.expected_abs_max if self.expected_abs_max > 0 else (
            0.0 if self.max_abs == 0 else math.inf)

    @property
    def tolerance_text(self) -> str:
        return f"{self.rtol:g} (|e| + max_level|e|)" if self.floor else f"{self.rtol:g} |e|"

    @property
    def passed(self) -> bool:
        return self.n_over == 0

    def row(self) -> dict:
        return {
            "field": self.name,
            "max abs diff": f"{self.max_abs:.3e}",
            "at": where_text(self.where_abs),
            "max rel diff": f"{self.max_rel:.3e}",
            "at (rel)": where_text(self.where_rel),
            "max abs / max|e|": f"{self.max_normwise:.3e}",
            f"> {self.tolerance_text}": f"{self.n_over}/{self.values}",
            "result": "pass" if self.passed else "FAIL",
        }


def where_text(where) -> str:
    return "-" if where is None else "(" + ", ".join(str(int(i)) for i in where) + ")"


def compare_arrays(name: str, actual, expected, rtol: float = 1e-12, floor: bool = False) -> Difference:
    """Whole-array comparison: max abs/rel difference, where, and the count of values with
    |a - e| > rtol * |e| (so e == 0 requires a == 0 exactly), or, with `floor`,
    |a - e| > rtol * (|e| + max|e| over the level): a value much smaller than the field's
    magnitude on its level (a divergence that nearly cancels) then need not carry 12 correct
    digits of its own, since rounding the large terms it is summed from differently changes it by
    about eps * max|e|. The level is the last axis of a (point, level) array; other arrays use
    their overall maximum."""
    a = np.asarray(actual, dtype=np.float64)
    e = np.asarray(expected, dtype=np.float64)
    if a.shape != e.shape:
        raise ValueError(f"{name}: shapes differ, actual {a.shape}, expected {e.shape}")
    diff = np.abs(a - e)
    nan = np.isnan(diff)
    finite_diff = np.where(nan, 0.0, diff)
    mag = np.abs(e)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(mag > 0, finite_diff / np.where(mag > 0, mag, 1.0),
                       np.where(finite_diff > 0, np.inf, 0.0))
    finite_mag = np.where(np.isnan(mag), 0.0, mag)
    expected_abs_max = float(np.max(finite_mag)) if e.size else 0.0
    if not floor or not e.size:
        level_max = 0.0
    elif e.ndim == 2:
        level_max = np.max(finite_mag, axis=0, keepdims=True)
    else:
        level_max = expected_abs_max
    over = nan | (finite_diff > rtol * (mag + level_max))
    idx_abs = np.unravel_index(np.argmax(finite_diff), a.shape) if a.size else None
    idx_rel = np.unravel_index(np.argmax(rel), a.shape) if a.size else None
    max_abs = float(finite_diff[idx_abs]) if a.size else 0.0
    max_rel = float(rel[idx_rel]) if a.size else 0.0
    return Difference(
        name=name,
        values=int(a.size),
        max_abs=max_abs,
        where_abs=idx_abs if max_abs > 0 else None,
        max_rel=max_rel,
        where_rel=idx_rel if max_rel > 0 else None,
        n_over=int(np.count_nonzero(over)),
        n_nan=int(np.count_nonzero(nan)),
        expected_abs_max=expected_abs_max,
        rtol=rtol,
        floor=floor,
    )


def format_table(rows: list[dict], markdown: bool = False) -> str:
    """A list of dicts (same keys) -> aligned text table, or a markdown table."""
    if not rows:
        return "(no rows)\n"
    keys = list(rows[0].keys())
    cells = [[str(r.get(k, "")) for k in keys] for r in rows]
    if markdown:  # a | inside a cell (|e|) would end the cell: escape it
        def md(text):
            return text.replace("|", "\\|")
        out = ["| " + " | ".join(md(k) for k in keys) + " |", "|" + "|".join("---" for _ in keys) + "|"]
        out += ["| " + " | ".join(md(x) for x in c) + " |" for c in cells]
        return "\n".join(out) + "\n"
    widths = [max(len(k), *(len(c[i]) for c in cells)) for i, k in enumerate(keys)]
    line = "  ".join(k.ljust(w) for k, w in zip(keys, widths))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c[i].ljust(widths[i]) for i in range(len(keys))) for c in cells]
    return "\n".join(out) + "\n"
