#!/usr/bin/env python3
"""Run ICON4Py's diffusion granule on icondiff's init savepoints and compare with icondiff's exit
savepoints.

For each case (a grid file and a directory holding icondiff's diffusion-init.nc and
diffusion-exit.nc of one call, written by `icondiff run --grid FILE --savepoints DIR`):

1. ICON4Py's GridManager reads the same grid file (icon4py_inputs.load_icon4py_grid); its zone
   ranges must equal those icondiff wrote into the savepoint.
2. ICON4Py's DiffusionConfig, DiffusionParams, VerticalGrid, metric/interpolation states,
   EdgeParams, CellParams, prognostic and diagnostic states are built from the init savepoint.
3. ``Diffusion(...).run(diagnostic, prognostic, dtime, initial_run)`` on each backend.
4. Every output (vn, w, theta_v, exner, div_ic, hdef_ic, dwdx, dwdy) is compared over the whole
   array with icondiff's exit savepoint: max abs and max relative difference, and the count of
   values with |icon4py - icondiff| > rtol (|icondiff| + max|icondiff| on the level) (default
   rtol 1e-12; --pointwise drops the level term, so that a zero in icondiff's output must be an
   exact zero in ICON4Py's). The level term admits a different rounding of values that nearly
   cancel (div_ic near 0: an FMA on one side changes it by eps times its summands, which is a
   large relative change of a tiny result). The details also count the values the call changed
   (exit != init), so that an agreement is never the trivial one of an untouched field.

Backends: gtfn_cpu and dace_cpu compile the programs (minutes on the first run; gt4py's cache
keeps them). 'embedded' (pure Python) cannot run this granule in gt4py 1.1.10: its concat_where
fails ("AttributeError: 'Domain' object has no attribute 'domain'") in
init_nabla2_factor_in_upper_damping_zone and apply_diffusion_to_vn; ICON4Py marks its own
granule tests `embedded_remap_error` (expected to fail on embedded) for this reason.

Cases whose granule setup is identical (same grid, config, vertical grid and static fields;
typically the initial_run on/off pair) share one Diffusion object per backend, so gt4py compiles
its programs once for them.

Usage:
  # existing savepoint pairs
  compare_granule.py --case NAME GRID.nc SAVEPOINT_DIR [--case ...]
  # matrix mode: icondiff writes the savepoints (itype_sher 0/2 x l_zdiffu_t 0/1 x initial_run
  # on/off per grid; step 1 of `icondiff run` is the initial call, step 2 a regular one)
  compare_granule.py --icondiff build/bin/icondiff --grid NAME GRID.nc [--grid ...] [--nlev 65]
  # GRID may be generate:RnBk[/cap:...]: icondiff writes it as a grid file into --workdir first
  common: [--backends gtfn_cpu,dace_cpu] [--rtol 1e-12] [--markdown OUT.md] [--json OUT.json]

Exit status: 0 if every compared field of every case passes on every backend that ran, 1 if a
comparison failed, 2 for a usage/setup error. A backend that cannot build or run the granule is
reported (with its error) and does not count as a comparison failure unless --strict-backends.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import time
import traceback
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import icon4py_inputs as ii  # noqa: E402  (sets the gt4py cache before importing gt4py)

import numpy as np  # noqa: E402

warnings.filterwarnings("ignore", message="Python is not running in optimized mode")

#: Static (init-only) savepoint fields: they are bound into ICON4Py's programs at construction.
STATIC_FIELDS = (
    "vct_a", "theta_ref_mc", "wgtfac_c", "zd_vertoffset", "zd_diffcoef", "zd_intcoef",
    "e_bln_c_s", "rbf_coeff_1", "rbf_coeff_2", "geofac_div", "geofac_n2s", "geofac_grg_x",
    "geofac_grg_y", "nudgecoeff_e", "tangent_orientation", "inverse_primal_edge_lengths",
    "inverse_vertex_vertex_lengths", "inverse_dual_edge_lengths", "edge_areas",
    "primal_normal_vert_x", "primal_normal_vert_y", "dual_normal_vert_x", "dual_normal_vert_y",
    "cell_area",
)


def setup_key(grid_file: str, sp: ii.Savepoint) -> str:
    """Everything that goes into Diffusion.__init__: equal keys can share one granule."""
    h = hashlib.sha256()
    h.update(str(Path(grid_file).resolve()).encode())
    h.update(json.dumps(sorted((k, str(v)) for k, v in sp.config.items())).encode())
    h.update(str(sp.nrd).encode())
    for name in STATIC_FIELDS:
        if name in sp.fields:
            h.update(name.encode())
            h.update(np.ascontiguousarray(sp.fields[name]).tobytes())
    return h.hexdigest()


def describe(sp: ii.Savepoint) -> dict:
    """The case's settings as read from the savepoint (what was actually run)."""
    c = sp.config
    # cell-levels with truly horizontal temperature diffusion (the savepoint may hold the zd
    # fields with l_zdiffu_t off too; they are not used then)
    zd = int(np.count_nonzero(sp.fields["zd_diffcoef"])) if "zd_diffcoef" in sp.fields else 0
    zd = zd if bool(c["apply_zdiffusion_t"]) else 0
    return {
        "cells": sp.sizes["cell"],
        "nlev": sp.num_levels,
        "limited_area": bool(sp.attrs.get("grid.limited_area", 0)),
        "shear_type": int(c["shear_type"]),
        "zdiffu_t": bool(c["apply_zdiffusion_t"]),
        "zd_points": zd,
        "initial_run": sp.initial_run,
        "dtime": sp.dtime,
        "iforcing": int(c["iforcing"]),
    }


def icondiff_savepoints(icondiff: str, grid_file: str, outdir: Path, *, nlev: int, shear: int,
                        zdiffu: bool, initial_run: bool, extra: list[str]) -> Path:
    """Run `icondiff run --grid FILE --savepoints DIR --savepoint-step K`: step 1 is ICON's
    initial call (initial_run on), step 2 a regular one (initial_run off)."""
    step = 1 if initial_run else 2
    outdir.mkdir(parents=True, exist_ok=True)
    cmd = [icondiff, "run", "--model", "diffusion", "--grid", grid_file, "--nlev", str(nlev), "--steps", str(step),
           "--savepoints", str(outdir), "--savepoint-step", str(step),
           "--itype_sher", str(shear), "--l_zdiffu_t", "1" if zdiffu else "0", "--quiet",
           "--overwrite", *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return outdir


def matrix_groups(args):
    """Cases of --grid NAME FILE: shear_type {0, 2} x zdiffu {off, on} x initial_run {on, off};
    one group per (grid, shear, zdiffu) so that the initial_run pair shares one granule. Each
    group's savepoints are produced by icondiff when the group is reached and deleted after it
    (unless --keep-savepoints)."""
    for grid_name, grid_spec in args.grid:
        grid_file = ii.grid_file(grid_spec, args.icondiff, args.workdir)
        for shear in args.shear_types:
            for zdiffu in args.zdiffu:
                group = []
                for initial_run in (True, False):
                    name = (f"{grid_name}/sher{shear}/zdiffu{int(zdiffu)}/"
                            f"{'init' if initial_run else 'step'}")
                    spdir = Path(args.workdir) / name.replace("/", "_")
                    group.append({"name": name, "grid": grid_file, "spdir": spdir,
                                  "make": dict(nlev=args.nlev, shear=shear, zdiffu=zdiffu,
                                               initial_run=initial_run, extra=args.icondiff_arg)})
                yield group


def explicit_groups(args):
    for name, grid_file, spdir in args.case or []:
        yield [{"name": name, "grid": grid_file, "spdir": Path(spdir), "make": None}]


def worst_per_grid_and_backend(results: list[dict]) -> list[dict]:
    """One row per (grid, backend): per output the worst pointwise relative difference and the
    worst difference relative to the field's largest value, over all cases that ran."""
    worst: dict[tuple, dict] = {}
    for entry in results:
        if "fields" not in entry:
            continue
        key = (entry["case"].split("/")[0], entry["backend"])
        row = worst.setdefault(key, {"grid": key[0], "backend": key[1], "cases": 0})
        row["cases"] += 1
        for d in entry["fields"]:
            pointwise, fieldwise = row.get(d.name, (0.0, 0.0))
            row[d.name] = (max(pointwise, d.max_rel), max(fieldwise, d.max_normwise))
    return [{k: (f"{v[0]:.1e} / {v[1]:.1e}" if isinstance(v, tuple) else v) for k, v in row.items()}
            for row in worst.values()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--case", nargs=3, action="append", metavar=("NAME", "GRID", "SAVEPOINT_DIR"),
                    help="an existing case: name, grid file, directory of the savepoint pair")
    ap.add_argument("--grid", nargs=2, action="append", default=[], metavar=("NAME", "GRID"),
                    help="matrix mode: run icondiff (--icondiff) on this grid file (or "
                         "generate:RnBk) for every itype_sher x l_zdiffu_t x initial_run case")
    ap.add_argument("--icondiff", help="icondiff binary (matrix mode)")
    ap.add_argument("--workdir", default="granule-savepoints", help="savepoints (matrix mode)")
    ap.add_argument("--nlev", type=int, default=65, help="levels (matrix mode)")
    ap.add_argument("--shear-types", type=lambda t: [int(x) for x in t.split(",")], default=[0, 2])
    ap.add_argument("--zdiffu", type=lambda t: [bool(int(x)) for x in t.split(",")], default=[False, True])
    ap.add_argument("--icondiff-arg", action="append", default=[],
                    help="extra argument for `icondiff run` (repeat; e.g. --icondiff-arg=--mount_height=3000)")
    ap.add_argument("--keep-savepoints", action="store_true")
    ap.add_argument("--backends", default="gtfn_cpu",
                    help="comma-separated ICON4Py backends (gtfn_cpu, dace_cpu, embedded)")
    ap.add_argument("--rtol", type=float, default=1e-12,
                    help="pass if |icon4py - icondiff| <= rtol (|icondiff| + max|icondiff| on the "
                         "level) everywhere")
    ap.add_argument("--pointwise", action="store_true",
                    help="pass only if |icon4py - icondiff| <= rtol |icondiff| (no level floor)")
    ap.add_argument("--markdown", help="write the tables as markdown here")
    ap.add_argument("--json", help="write all numbers as JSON here")
    ap.add_argument("--strict-backends", action="store_true",
                    help="a backend that fails to build/run the granule fails the script")
    args = ap.parse_args(argv)
    if not args.case and not args.grid:
        ap.error("give --case NAME GRID DIR or --grid NAME GRID (with --icondiff)")
    if args.grid and not args.icondiff:
        ap.error("--grid needs --icondiff BIN")
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    for b in backends:
        ii.backend_like(b)

    results = []  # one entry per (case, backend)
    backend_errors = {}
    t_start = time.perf_counter()
    for group in [*explicit_groups(args), *matrix_groups(args)]:
        # ---- produce (matrix mode) and read the group's savepoints ----------------------------
        cases = []
        for c in group:
            if c["make"] is not None:
                icondiff_savepoints(args.icondiff, c["grid"], c["spdir"], **c["make"])
            init = ii.read_savepoint(c["spdir"] / "diffusion-init.nc")
            exit_ = ii.read_savepoint(c["spdir"] / "diffusion-exit.nc")
            cases.append({**c, "init": init, "exit": exit_, "key": setup_key(c["grid"], init),
                          "settings": describe(init)})
        # ---- run ICON4Py on each backend ------------------------------------------------------
        for backend in backends:
            granules = {}  # setup key -> Diffusion (cases of one group usually share one)
            for case in cases:
                init, exit_ = case["init"], case["exit"]
                entry = {"case": case["name"], "backend": backend, "grid": case["grid"],
                         "settings": case["settings"]}
                try:
                    grid = ii.load_icon4py_grid(case["grid"], backend, init.num_levels)
                    zone_problems = ii.check_zones(grid, init)
                    entry["zone_mismatches"] = zone_problems
                    if zone_problems:
                        raise RuntimeError("ICON4Py's zones differ from icondiff's: " + "; ".join(zone_problems))
                    inputs = ii.diffusion_inputs(init, backend)
                    if case["key"] not in granules:
                        t0 = time.perf_counter()
                        granules[case["key"]] = ii.make_diffusion(grid, inputs, backend)
                        entry["construct_s"] = time.perf_counter() - t0
                    else:
                        entry["construct_s"] = 0.0  # shared with the previous case
                    diffusion = granules[case["key"]]
                    prognostic, diagnostic = ii.prognostic_and_diagnostic_states(init, backend)
                    t0 = time.perf_counter()
                    diffusion.run(diagnostic, prognostic, inputs.dtime, inputs.initial_run)
                    entry["run_s"] = time.perf_counter() - t0
                    out = ii.output_arrays(prognostic, diagnostic)
                    entry["fields"] = [
                        ii.compare_arrays(f, out[f], exit_.fields[f], args.rtol, floor=not args.pointwise)
                        for f in ii.OUTPUT_FIELDS
                    ]
                    entry["changed"] = {f: int(np.count_nonzero(exit_.fields[f] != init.fields[f]))
                                        for f in ii.OUTPUT_FIELDS}
                except Exception as err:  # a backend that cannot build or run the granule
                    entry["error"] = f"{type(err).__name__}: {err}"
                    entry["traceback"] = traceback.format_exc()
                    backend_errors.setdefault(backend, entry["error"])
                    print(f"[{case['name']} / {backend}] ERROR {entry['error'].splitlines()[0][:300]}",
                          file=sys.stderr)
                results.append(entry)
                if "fields" in entry:
                    worst = max(entry["fields"], key=lambda d: d.max_rel)
                    status = "pass" if all(d.passed for d in entry["fields"]) else "FAIL"
                    print(f"[{case['name']} / {backend}] {status}: worst rel {worst.max_rel:.3e} "
                          f"({worst.name}); construct {entry['construct_s']:.1f} s, "
                          f"run {entry['run_s']:.3f} s", file=sys.stderr)
        if not args.keep_savepoints:
            for c in group:
                if c["make"] is not None:
                    shutil.rmtree(c["spdir"], ignore_errors=True)
    print(f"compare_granule: {len(results)} case/backend runs in {time.perf_counter() - t_start:.0f} s",
          file=sys.stderr)

    # ---- tables --------------------------------------------------------------------------------
    summary_rows, detail_sections = [], []
    failed = False
    for entry in results:
        s = entry["settings"]
        row = {
            "case": entry["case"],
            "backend": entry["backend"],
            "grid": f"{'LAM' if s['limited_area'] else 'global'} {s['cells']} cells x {s['nlev']}",
            "itype_sher": s["shear_type"],
            "l_zdiffu_t": int(s["zdiffu_t"]),
            "zd points": s["zd_points"],
            "initial_run": int(s["initial_run"]),
        }
        if "fields" in entry:
            for d in entry["fields"]:
                row[d.name] = f"{d.max_rel:.1e}"
            ok = all(d.passed for d in entry["fields"])
            failed |= not ok
            row["result"] = "pass" if ok else "FAIL"
            detail_sections.append(
                (f"{entry['case']} / {entry['backend']}",
                 [{**d.row(), "changed by the call": entry["changed"][d.name]}
                  for d in entry["fields"]]))
        else:
            for f in ii.OUTPUT_FIELDS:
                row[f] = "-"
            row["result"] = "ERROR"
            failed |= args.strict_backends
        summary_rows.append(row)

    worst_rows = worst_per_grid_and_backend(results)
    title = (f"icondiff vs ICON4Py {ii.icon4py_version()} diffusion granule: worst relative "
             f"difference per output (|icon4py - icondiff| / |icondiff|, whole arrays); "
             f"pass = no |icon4py - icondiff| beyond "
             f"{'rtol |icondiff|' if args.pointwise else 'rtol (|icondiff| + max|icondiff| on the level)'}"
             f", rtol {args.rtol:g}")
    print("\n" + title)
    print(ii.format_table(summary_rows))
    print("Worst over all cases of a grid and backend: max |icon4py - icondiff| / |icondiff| "
          "(pointwise) and max |icon4py - icondiff| / max |icondiff| (field-wise):")
    print(ii.format_table(worst_rows))
    for name, rows in detail_sections:
        print(f"-- {name}")
        print(ii.format_table(rows))
    for backend, err in backend_errors.items():
        print(f"backend {backend}: could not build/run the granule: {err.splitlines()[0]}")

    if args.markdown:
        md = [f"### Granule agreement\n\n{title}.\n\n", ii.format_table(summary_rows, markdown=True),
              "\nWorst over all cases of a grid and backend, pointwise / field-wise "
              "(max |diff| / max |icondiff|):\n\n", ii.format_table(worst_rows, markdown=True)]
        if backend_errors:
            md.append("\nBackends that could not build or run the granule:\n\n")
            for backend, err in backend_errors.items():
                md.append(f"* `{backend}`: `{err.splitlines()[0][:400]}`\n")
        md.append("\n<details><summary>Per-field details</summary>\n\n")
        for name, rows in detail_sections:
            md.append(f"**{name}**\n\n{ii.format_table(rows, markdown=True)}\n")
        md.append("</details>\n")
        Path(args.markdown).write_text("".join(md))
    if args.json:
        def jsonable(entry):
            e = dict(entry)
            if "fields" in e:
                e["fields"] = [
                    {k: (list(map(int, v)) if isinstance(v, tuple) else v)
                     for k, v in d.__dict__.items()} for d in e["fields"]]
            return e
        Path(args.json).write_text(json.dumps([jsonable(e) for e in results], indent=1, default=str))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
