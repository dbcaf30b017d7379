#!/usr/bin/env python3
"""Write a fake icondiff statics file from ICON4Py's own values, to test
`compare_factories.py --statics` end to end before `icondiff grid-info --statics` exists.

The file has exactly the format that compare_factories.py --statics reads and checks (its
comment "the dycore's statics"): netCDF-4, dimensions cell, edge, vertex, nlev, nlev_half and
one per neighbour table (e2c 2, c2e 3, v2e 6, v2c 6, c2e2co 4, e2c2eo 5, e2c2e 4); one variable
per static of ICON4Py 0.2.0's solve_nh_init (compare_factories.STATICS: ICON's short names,
vertoffset_gradp as level offsets, pg_exdist dense, rbf_vec_coeff_v1/v2, geofac_grg_x/y,
pos_on_tplane_e_1/2, booleans as byte 0/1, nflat_gradp a 0-based scalar int) plus
topography_c and z_ifc, dimensions (point[, neighbour][, level]) in C order, attributes units,
long_name, icon_name, icon4py_name, used_by. The values are ICON4Py's, computed with the same
options as the comparison (every option of compare_factories.py is accepted), so that the
comparison of an unchanged file is bit-identical everywhere.

To see that the comparison reports differences:
  --perturb FIELD[:N]     move one value inside ICON4Py's domain by N ulp (default 1; integer
                          fields: by N), at the field's largest |value|
  --perturb-rel FIELD:REL multiply every value inside ICON4Py's domain by (1 + REL) (a
                          formula error of relative size REL; float fields)
  --perturb-outside FIELD change one value outside ICON4Py's domain (+1)
  --drop FIELD            leave a variable out
  --vct-a                 add vct_a (nlev_half), which the comparison then checks directly
  --wgtfacq-3             write wgtfacq_c/e as (point, 3) (ICON4Py's levels nlev-3..nlev-1)
                          instead of (point, nlev)

Usage:
  make_fake_statics.py --grid NAME GRID.nc [--grid ...] --out-dir DIR [--nlev 65] [options]
  compare_factories.py --statics --grid NAME GRID.nc --statics-file NAME DIR/NAME-statics.nc

Writes DIR/NAME-statics.nc per grid (the name compare_factories.py gives icondiff's file).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare_factories as cf  # noqa: E402  (imports icon4py_inputs first: gt4py's cache)
import icon4py_inputs as ii  # noqa: E402

import netCDF4  # noqa: E402
import numpy as np  # noqa: E402

NC_TYPE = {"f8": "f8", "i4": "i4", "u1": "u1"}


def perturb(s: cf.Static, a: np.ndarray, grid, nlev: int, nrd: int, steps: int, inside: bool):
    """One value of `a` changed (in place): inside ICON4Py's domain by `steps` ulp (integers: by
    `steps`) at the largest |value|, or outside it (+1). Returns the index."""
    hr, kr, _ = cf.static_domain(s, grid, nlev, nrd)
    index = []
    if hr is not None:
        index.append(slice(*hr))
    if s.neighbour is not None:
        index.append(slice(None))
    if kr is not None:
        index.append(slice(*kr))
    mask = np.zeros(a.shape, bool)
    mask[tuple(index)] = True
    if not inside:
        mask = ~mask
        if not mask.any():
            raise ValueError(f"{s.name}: ICON4Py's domain covers the whole array")
        where = tuple(int(i) for i in np.argwhere(mask)[0])
        a[where] = a[where] + 1
        return where
    if a.ndim == 0:
        a[()] = a[()] + steps
        return ()
    magnitude = np.where(mask, np.abs(a.astype(np.float64)), -1.0)
    where = np.unravel_index(int(np.argmax(magnitude)), a.shape)
    if s.integer:
        a[where] = a[where] + steps
    else:
        value = a[where]
        for _ in range(abs(steps)):
            value = np.nextafter(value, np.inf if steps > 0 else -np.inf)
        a[where] = value
    return tuple(int(i) for i in where)


def perturb_relative(s: cf.Static, a: np.ndarray, grid, nlev: int, nrd: int, rel: float) -> int:
    """Every value of `a` inside ICON4Py's domain multiplied by (1 + rel), in place. Returns the
    number of values changed."""
    if s.integer:
        raise ValueError(f"{s.name}: --perturb-rel is for float fields")
    hr, kr, _ = cf.static_domain(s, grid, nlev, nrd)
    index = []
    if hr is not None:
        index.append(slice(*hr))
    if s.neighbour is not None:
        index.append(slice(None))
    if kr is not None:
        index.append(slice(*kr))
    index = tuple(index)
    before = a[index].copy()
    a[index] = before * (1.0 + rel)
    return int(np.count_nonzero(a[index] != before))


def write_statics(path: Path, arrays: dict, grid, args, *, nrd: int, nflatlev: int,
                  vct_a: np.ndarray | None, wgtfacq_3: bool, grid_file: str) -> None:
    with netCDF4.Dataset(str(path), "w", format="NETCDF4") as ds:
        ds.title = "solve_nh_init statics (FAKE: ICON4Py 0.2.0's values, make_fake_statics.py)"
        ds.source = f"ICON4Py {ii.icon4py_version()} factories ({args.backend})"
        ds.grid_file = str(grid_file)
        ds.nrd = np.int32(nrd)
        ds.nflatlev = np.int32(nflatlev)
        for key, value in cf.statics_options(args).items():
            if isinstance(value, (int, float)):
                ds.setncattr(key, value)
        for name, size in (("cell", grid.num_cells), ("edge", grid.num_edges),
                           ("vertex", grid.num_vertices), ("nlev", args.nlev),
                           ("nlev_half", args.nlev + 1), *cf.STATICS_NEIGHBOUR_DIMS.items()):
            ds.createDimension(name, size)
        if wgtfacq_3:
            ds.createDimension("wgtfacq_lev", 3)
        for s in cf.STATICS:
            if s.name not in arrays:
                continue
            a = arrays[s.name]
            dims_ = s.dims
            if wgtfacq_3 and s.name in ("wgtfacq_c", "wgtfacq_e"):
                a = a[..., args.nlev - 3:]
                dims_ = dims_[:-1] + ("wgtfacq_lev",)
            var = ds.createVariable(s.name, NC_TYPE[s.dtype], dims_)
            var[...] = a
            var.units = s.units
            var.long_name = s.long_name
            var.icon_name = s.icon_name
            var.icon4py_name = s.icon4py
            var.used_by = s.used_by
        if vct_a is not None:
            var = ds.createVariable("vct_a", "f8", ("nlev_half",))
            var[:] = vct_a
            var.units = "m"
            var.long_name = "height of the half levels over flat ground"
            var.icon_name = "vct_a"
            var.icon4py_name = "VerticalGrid.vct_a"
            var.used_by = "z_ifc"


def main(argv=None) -> int:
    ap = cf.build_parser(__doc__)
    ap.add_argument("--out-dir", required=True, help="write NAME-statics.nc here")
    ap.add_argument("--perturb", action="append", default=[], metavar="FIELD[:N]")
    ap.add_argument("--perturb-rel", action="append", default=[], metavar="FIELD:REL")
    ap.add_argument("--perturb-outside", action="append", default=[], metavar="FIELD")
    ap.add_argument("--drop", action="append", default=[], metavar="FIELD")
    ap.add_argument("--vct-a", action="store_true")
    ap.add_argument("--wgtfacq-3", action="store_true")
    args = ap.parse_args(argv)
    if argv is None:
        cf.apply_numpy_simd(args)
    ii.backend_like(args.backend)
    wanted = ({p.split(":")[0] for p in args.perturb + args.perturb_rel} | set(args.perturb_outside)
              | set(args.drop))
    unknown = wanted - set(cf.STATICS_BY_NAME)
    if unknown:
        print(f"error: unknown field(s) {sorted(unknown)}; known: {sorted(cf.STATICS_BY_NAME)}",
              file=sys.stderr)
        return 2
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, grid_spec in args.grid:
        grid_file = ii.grid_file(grid_spec, args.icondiff, out_dir)
        t0 = time.perf_counter()
        mine = cf.icon4py_statics(grid_file, args)
        grid, nrd = mine["grid"], mine["nrd"]
        for field, err in mine["errors"].items():
            print(f"[{name}] {field}: ICON4Py failed, left out of the file: {err}", file=sys.stderr)
        arrays = {k: v.copy() for k, v in mine["arrays"].items() if k not in args.drop}
        for spec in args.perturb:
            field, _, steps = spec.partition(":")
            where = perturb(cf.STATICS_BY_NAME[field], arrays[field], grid, args.nlev, nrd,
                            int(steps or 1), inside=True)
            print(f"[{name}] {field}: perturbed by {steps or 1} at {where}", file=sys.stderr)
        for spec in args.perturb_rel:
            field, _, rel = spec.partition(":")
            n = perturb_relative(cf.STATICS_BY_NAME[field], arrays[field], grid, args.nlev, nrd,
                                 float(rel))
            print(f"[{name}] {field}: {n} values inside the domain multiplied by 1 + {rel}",
                  file=sys.stderr)
        for field in args.perturb_outside:
            where = perturb(cf.STATICS_BY_NAME[field], arrays[field], grid, args.nlev, nrd, 1,
                            inside=False)
            print(f"[{name}] {field}: changed outside ICON4Py's domain at {where}", file=sys.stderr)
        path = out_dir / f"{name}-statics.nc"
        write_statics(path, arrays, grid, args, nrd=nrd, nflatlev=mine["nflatlev"],
                      vct_a=ii.as_numpy(mine["vertical"].vct_a) if args.vct_a else None,
                      wgtfacq_3=args.wgtfacq_3, grid_file=grid_file)
        print(f"[{name}] wrote {path} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
