#!/usr/bin/env python3
"""Race ICON4Py's diffusion granule against icondiff's on the same grid, inputs and threads.

For each grid (a generated global RnBk written once as a grid file by `icondiff grid-info
--write`, or an ICON grid file):

* icondiff: `icondiff run --grid FILE --nlev N --steps CALLS+1 --timers T.json` with
  OMP_NUM_THREADS = --threads. Step 1 is ICON's initial call (initial_run), steps 2.. are
  regular calls. Reported: setup (grid, coefficients, metrics, initial state), the first call,
  the median of the regular calls (from the per-step lines) and the per-kernel medians of the
  timer report (median over all CALLS+1 calls, fenced after every kernel).
* ICON4Py: its Diffusion granule built from icondiff's diffusion-init savepoint of step 1 (so
  the same static fields and the same initial state; a separate `icondiff run --steps 1
  --savepoints` writes it), same OMP_NUM_THREADS, on each --backends entry, in a Python started
  with -O as gt4py advises ("Python is not running in optimized mode, which may impact
  performance"; the script re-executes itself with -O). Reported:
  construction (Diffusion.__init__: gt4py compiles or loads every program here, since ICON4Py
  0.2.0 binds the domain bounds as compile-time constants), the first (initial_run) call (it
  may compile a few more programs), the number of programs gt4py compiled (0: every program
  came from its cache, so construction and first call are pure initialisation), the
  median of CALLS regular calls timed with perf_counter around `run()`, and per program the
  gt4py metrics of CALLS further calls (GT4PY_COLLECT_METRICS_LEVEL = PERFORMANCE: "compute" is
  the time inside the compiled C++ program, "total" the whole Python call; summed per granule
  call, e.g. the two RBF interpolations; dace_cpu reports "total" only, because it fixes at a
  program's first call whether it measures "compute"). Metrics are collected in a separate set of calls so
  that their synchronisation does not enter the whole-call median.

Both implementations start from the same state and take the same branches (the zd points, the
damping layer), so the work is the same. The thread count and OpenMP binding (OMP_PROC_BIND /
OMP_PLACES; default spread / threads unless already set) apply to both; set them before the run
because OpenMP reads them once per process (this script sets them before importing gt4py).

Usage:
  race.py --icondiff BUILD/bin/icondiff --grids R2B4,R2B5 --nlev 65 --threads 2 --calls 10 \\
          [--backends gtfn_cpu,dace_cpu] [--markdown out.md] [--json out.json] [--workdir DIR]
  --grids entries: RnBk (generated global grid) or a path to an ICON grid file.

Exit status 1 if an ICON4Py backend could not build or run the granule (the others still run).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: ICON4Py program -> the icondiff kernels (timer names) doing the same work; icondiff's fused
#: strategy splits the w stencil in two and names the two RBF calls and the theta copy itself.
STENCILS = {
    "scale_k": ["scale_k"],
    "mo_intp_rbf_rbf_vec_interpol_vertex": ["rbf_vector_interpolation_of_u_v_vert_before_nabla2",
                                            "rbf_vector_interpolation_of_u_v_vert_before_nabla4"],
    "calculate_nabla2_and_smag_coefficients_for_vn": ["calculate_nabla2_and_smag_coefficients_for_vn"],
    "calculate_diagnostic_quantities_for_turbulence": ["calculate_diagnostic_quantities_for_turbulence"],
    "apply_diffusion_to_vn": ["apply_diffusion_to_vn"],
    "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence": [
        "copy_w", "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence",
        "calculate_nabla2_for_w_and_horizontal_gradients", "apply_nabla4_and_damping_to_w"],
    "calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools": [
        "calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools"],
    "copy_field": ["copy_theta_v"],
    "apply_diffusion_to_theta_and_exner": ["apply_diffusion_to_theta_and_exner"],
}


# The CPUs this race may use, read before ICON4Py's compiled programs load libgomp: with
# OMP_PROC_BIND set, libgomp then binds this process's main thread to one CPU, and every child
# started afterwards would inherit that one-CPU affinity (icondiff's R2B5 call took twice as long
# when R2B4 had been raced first). Children get the whole set back (preexec_fn below), and
# race_icondiff checks the CPUs icondiff reports it was allowed.
ALL_CPUS = frozenset(os.sched_getaffinity(0))


def _full_cpu_set() -> None:
    os.sched_setaffinity(0, ALL_CPUS)


def run(cmd: list[str], env: dict) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, preexec_fn=_full_cpu_set)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return proc.stdout


# ---- icondiff -------------------------------------------------------------------------------------


def race_icondiff(icondiff: str, grid_file: str, args, workdir: Path, env: dict) -> dict:
    """One timed `icondiff run`: setup, first call, median regular call, per-kernel medians."""
    timers = workdir / "icondiff_timers.json"
    out = run([icondiff, "run", "--model", "diffusion", "--grid", grid_file, "--nlev", str(args.nlev),
               "--steps", str(args.calls + 1), "--timers", str(timers), "--overwrite"], env)
    setup = float(re.search(r"^setup\s+([0-9.]+) s", out, re.M).group(1))
    steps = [float(m.group(1)) for m in re.finditer(r"^step\s+\d+/\d+.*?\s([0-9.]+) ms", out, re.M)]
    report = json.loads(timers.read_text())
    allowed = report["_metadata"].get("cpus_allowed")
    if allowed is None or allowed < args.threads:
        raise RuntimeError(f"icondiff ran on {allowed} allowed CPUs with --threads {args.threads}: "
                           "its timings would not be comparable (CPU affinity inherited?)")
    kernels = {k: v["latency"]["value"] for k, v in report.items() if k != "_metadata"}
    return {
        "implementation": "icondiff (OpenMP)",
        "init_s": setup,
        "init_what": "setup: grid file, geometry, coefficients, metrics, initial state",
        "first_call_ms": steps[0],
        "compiled_programs": 0,
        "median_ms": statistics.median(steps[1:]),
        "min_ms": min(steps[1:]),
        "kernels_ms": kernels,
        "stream_triad_gbs": report["_metadata"].get("stream_triad_gbs"),
        "concurrency": report["_metadata"].get("concurrency"),
    }


# ---- ICON4Py ---------------------------------------------------------------------------------------


def race_icon4py(grid_file: str, savepoint_dir: Path, backend: str, args) -> dict:
    """ICON4Py's granule on icondiff's init savepoint: construction, first call, median call,
    per-program gt4py metrics."""
    import icon4py_inputs as ii  # after OMP_* are set (main)
    from gt4py.next import config as gt_config
    from gt4py.next.instrumentation import metrics

    def cached_programs() -> int:
        cache = Path(os.environ["GT4PY_BUILD_CACHE_DIR"]) / ".gt4py_cache"
        return len(list(cache.iterdir())) if cache.is_dir() else 0

    programs_before = cached_programs()
    init = ii.read_savepoint(savepoint_dir / "diffusion-init.nc")
    grid = ii.load_icon4py_grid(grid_file, backend, init.num_levels)
    inputs = ii.diffusion_inputs(init, backend)
    t0 = time.perf_counter()
    diffusion = ii.make_diffusion(grid, inputs, backend)
    construct_s = time.perf_counter() - t0
    prognostic, diagnostic = ii.prognostic_and_diagnostic_states(init, backend)
    t0 = time.perf_counter()
    diffusion.run(diagnostic, prognostic, inputs.dtime, True)
    first_ms = (time.perf_counter() - t0) * 1e3
    compiled = cached_programs() - programs_before
    calls = []
    for _ in range(args.calls):
        t0 = time.perf_counter()
        diffusion.run(diagnostic, prognostic, inputs.dtime, False)
        calls.append((time.perf_counter() - t0) * 1e3)

    metrics.sources.clear()
    gt_config.COLLECT_METRICS_LEVEL = metrics.PERFORMANCE
    try:
        for _ in range(args.calls):
            diffusion.run(diagnostic, prognostic, inputs.dtime, False)
    finally:
        gt_config.COLLECT_METRICS_LEVEL = metrics.DISABLED
    # dace_cpu decides at a program's first call whether it measures "compute" (its argument
    # vector is built then), so it reports only "total" here; "compute" stays None.
    programs: dict[str, dict[str, float | None]] = {}
    for key, source in metrics.sources.items():
        name = key.split("<", 1)[0]
        entry = programs.setdefault(name, {"total_ms": None, "compute_ms": None})
        for metric, field in ((metrics.TOTAL_METRIC, "total_ms"), (metrics.COMPUTE_METRIC, "compute_ms")):
            if metric in source.metrics and len(source.metrics[metric].samples):
                entry[field] = ((entry[field] or 0.0)
                                + sum(source.metrics[metric].samples) * 1e3 / args.calls)
    return {
        "implementation": f"ICON4Py {backend}",
        "init_s": construct_s,
        "init_what": "Diffusion.__init__ (gt4py compiles or loads every program)",
        "first_call_ms": first_ms,
        "compiled_programs": compiled,
        "median_ms": statistics.median(calls),
        "min_ms": min(calls),
        "programs_ms": programs,
    }


# ---- tables ----------------------------------------------------------------------------------------


def tables(results: list[dict]) -> tuple[list[dict], list[dict]]:
    """Whole-granule rows and per-stencil rows (ms per granule call; ratio = ICON4Py / icondiff)."""
    whole, per_stencil = [], []
    for grid in results:
        ref = grid["runs"][0]
        for r in grid["runs"]:
            whole.append({
                "grid": f"{grid['grid']} ({grid['cells']} cells x {grid['nlev']})",
                "implementation": r["implementation"],
                "threads": grid["threads"],
                "init (s)": f"{r['init_s']:.2f}",
                "first call (ms)": f"{r['first_call_ms']:.2f}",
                "programs compiled": r["compiled_programs"],
                "median call (ms)": f"{r['median_ms']:.3f}",
                "min call (ms)": f"{r['min_ms']:.3f}",
                "median / icondiff": f"{r['median_ms'] / ref['median_ms']:.2f}",
            })
        for program, kernels in STENCILS.items():
            mine = sum(ref["kernels_ms"].get(k, 0.0) for k in kernels)
            row = {"grid": grid["grid"], "ICON4Py program": program, "icondiff (ms)": f"{mine:.3f}"}
            for r in grid["runs"][1:]:
                p = r["programs_ms"].get(program)
                label = r["implementation"].removeprefix("ICON4Py ")
                total = None if p is None else p["total_ms"]
                compute = None if p is None else p["compute_ms"]
                row[f"{label} total (ms)"] = "-" if total is None else f"{total:.3f}"
                row[f"{label} compute (ms)"] = "-" if compute is None else f"{compute:.3f}"
                row[f"{label} total / icondiff"] = (
                    "-" if total is None or mine == 0 else f"{total / mine:.2f}")
            per_stencil.append(row)
    return whole, per_stencil


def performance_process(threads: int) -> dict:
    """Makes this process a race's: re-executed with python -O (gt4py's advice for performance
    runs) and both sides' OpenMP settings (OMP_NUM_THREADS=threads, binding spread/threads unless
    set; OpenMP reads them once, so call this before gt4py is imported). Returns the environment
    for the icondiff side."""
    if not sys.flags.optimize:
        os.execv(sys.executable, [sys.executable, "-O", *sys.argv])
    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ.setdefault("OMP_PROC_BIND", "spread")
    os.environ.setdefault("OMP_PLACES", "threads")
    return dict(os.environ)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--icondiff", required=True, help="icondiff binary (OpenMP build)")
    ap.add_argument("--grids", default="R2B4", help="comma-separated: RnBk (generated) or grid files")
    ap.add_argument("--nlev", type=int, default=65)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--calls", type=int, default=10, help="timed regular calls (after the initial one)")
    ap.add_argument("--backends", default="gtfn_cpu", help="ICON4Py backends: gtfn_cpu, dace_cpu")
    ap.add_argument("--workdir", help="grid files and savepoints (default: a temporary directory)")
    ap.add_argument("--markdown", help="write the tables as markdown here")
    ap.add_argument("--json", help="write all numbers as JSON here")
    args = ap.parse_args(argv)
    env = performance_process(args.threads)
    sys.path.insert(0, str(HERE))
    import icon4py_inputs as ii

    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    for b in backends:
        ii.backend_like(b)
    workdir = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="icondiff-race-"))
    results, failures = [], []
    try:
        for spec in [g.strip() for g in args.grids.split(",") if g.strip()]:
            is_generated = re.fullmatch(r"R\d+B\d+", spec) is not None
            grid_file = ii.grid_file(f"generate:{spec}" if is_generated else spec, args.icondiff, workdir)
            name = spec if is_generated else Path(spec).stem
            gdir = workdir / name
            gdir.mkdir(parents=True, exist_ok=True)
            print(f"[{name}] icondiff run ...", file=sys.stderr, flush=True)
            runs = [race_icondiff(args.icondiff, grid_file, args, gdir, env)]
            spdir = gdir / "savepoints"
            run([args.icondiff, "run", "--model", "diffusion", "--grid", grid_file, "--nlev", str(args.nlev), "--steps", "1",
                 "--savepoints", str(spdir), "--savepoint-step", "1", "--quiet", "--overwrite"], env)
            cells = ii.read_savepoint(spdir / "diffusion-init.nc").sizes["cell"]
            for backend in backends:
                print(f"[{name}] ICON4Py {backend} ...", file=sys.stderr, flush=True)
                try:
                    runs.append(race_icon4py(grid_file, spdir, backend, args))
                except Exception as err:  # a backend that cannot build/run: report, go on
                    failures.append(f"{name} {backend}: {type(err).__name__}: {err}")
                    print(f"[{name}] ICON4Py {backend} failed: {type(err).__name__}: {err}",
                          file=sys.stderr)
            shutil.rmtree(spdir, ignore_errors=True)
            results.append({"grid": name, "grid_file": grid_file, "cells": cells, "nlev": args.nlev,
                            "threads": args.threads, "runs": runs})
    finally:
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)

    whole, per_stencil = tables(results)
    machine = (f"{platform.node()}, {os.cpu_count()} cores, load average "
               f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} at the end, OMP_NUM_THREADS="
               f"{args.threads} OMP_PROC_BIND={env['OMP_PROC_BIND']} OMP_PLACES={env['OMP_PLACES']}")
    stream = results[0]["runs"][0].get("stream_triad_gbs") if results else None
    title = (f"icondiff vs ICON4Py {ii.icon4py_version()}: diffusion granule, {args.calls} regular "
             f"calls after the initial one; {machine}"
             + (f"; STREAM triad {stream:.1f} GB/s" if stream else ""))
    print("\n" + title)
    print(ii.format_table(whole))
    print("Per stencil, ms per granule call (icondiff: kernel medians; ICON4Py: gt4py metrics, "
          "mean of the calls; total = Python call, compute = compiled program):")
    print(ii.format_table(per_stencil))
    if args.markdown:
        Path(args.markdown).write_text(
            f"### Speed\n\n{title}.\n\n{ii.format_table(whole, markdown=True)}\n"
            "Per stencil, ms per granule call (icondiff: median of its kernel timer; ICON4Py: "
            "gt4py metrics, mean; total = the Python program call, compute = the compiled "
            f"program alone):\n\n{ii.format_table(per_stencil, markdown=True)}")
    if args.json:
        Path(args.json).write_text(json.dumps({"title": title, "machine": machine, "results": results,
                                               "failures": failures}, indent=1))
    for failure in failures:
        print(f"failed: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
