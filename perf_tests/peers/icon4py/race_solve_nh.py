#!/usr/bin/env python3
"""Race icondiff's solve_nh granule against ICON4Py 0.2.0's SolveNonhydro.time_step, per substep.

Both sides run the same work: compare_solve_nh.py's grid file, statics file (icondiff's factories:
`icondiff grid-info --statics`), Jablonowski-Williamson state with noise, configuration (case
dd24: divdamp_order 24) and substep size, and the same schedule: the model's first physics step
(at_initial_timestep, lprep_adv: not timed, it warms caches and compiles nothing more) followed
by --steps regular physics steps of --substeps substeps each (a later step without lprep_adv,
second-order divergence damping factor 0.004, as compare_solve_nh's second step). The timed
substeps are those of the regular steps.

* icondiff: stencil_runner/icondiff_solve_nh_runner (SolveNonhydro<OpenMP>::time_step), which
  fences and times every substep itself (substep_seconds in its output file).
* ICON4Py: SolveNonhydro built once per backend (--backends; gtfn_cpu, dace_cpu) exactly as
  compare_solve_nh.icon4py_granule builds it, each time_step timed with perf_counter (the CPU
  backends return when the work is done), the time levels and the advective-tendency slots
  swapped between substeps as compare_solve_nh does.

Rounds (--rounds) are interleaved: in each round icondiff runs first, then every ICON4Py backend,
each from the initial state again, so that a slow phase of a noisy machine hits all of them.
OMP_NUM_THREADS (--threads) and OMP_PROC_BIND/OMP_PLACES (spread/threads unless set) are set
before gt4py loads OpenMP and passed to the runner. Reported per implementation: the median and
the minimum over all timed substeps of all rounds, and the ratio of each ICON4Py backend's median
to icondiff's (> 1: icondiff is faster).

Usage (the venv of setup_venv.sh; a Release build with -DICONDIFF_ENABLE_PERF_TESTS=ON):

    $VENV/bin/python perf_tests/peers/icon4py/race_solve_nh.py --build-dir build \\
        --grids gen-R2B4,gen-R2B5 --nlev 65 --threads 2 [--backends gtfn_cpu,dace_cpu] \\
        [--rounds 3] [--steps 2] [--substeps 5] [--markdown M] [--json J] [--workdir DIR]

--grids: compare_solve_nh's names (R02B03, R19B04-LAM, gen-R2B4) or gen-R2Bk for another
generated global grid (its substep: compare_solve_nh's 32 s at R2B4, halved per bisection). ICON4Py compiles its programs once per backend and configuration into gt4py's cache
(GT4PY_BUILD_CACHE_DIR; compare_solve_nh.py's docstring): the first race of a backend can take
half an hour or more; its construction time is reported separately and not part of the race.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pathlib
import platform
import statistics
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def set_openmp(threads: int) -> None:
    """Before gt4py (and its OpenMP programs) load: the same threads and binding for both sides."""
    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ.setdefault("OMP_PROC_BIND", "spread")
    os.environ.setdefault("OMP_PLACES", "threads")


def dtime_of(name: str) -> float:
    import compare_solve_nh as csn

    if name in csn.DTIME:
        return csn.DTIME[name]
    level = int(name.split("B")[-1])  # gen-R2Bk: the substep halves with each bisection
    return csn.DTIME["gen-R2B4"] * 2.0 ** (4 - level)


def race_case(substeps: int, steps: int):
    import compare_solve_nh as csn

    first = csn.Step(0, True, True, 0.032)
    regular = csn.Step(0, False, False, 0.004)
    return csn.Case("race", 24, False, (first,) + (regular,) * steps)


@dataclasses.dataclass
class Result:
    implementation: str
    substep_seconds: list = dataclasses.field(default_factory=list)
    setup_seconds: float = 0.0

    def median_ms(self) -> float:
        return 1e3 * statistics.median(self.substep_seconds)

    def min_ms(self) -> float:
        return 1e3 * min(self.substep_seconds)


def race_grid(args, name: str, grid_file: str, icondiff, runner, workdir: pathlib.Path) -> dict:
    import compare_solve_nh as csn
    import numpy as np

    setup = csn.setup_grid(args, name, grid_file, "icondiff", icondiff, runner, workdir)
    case = race_case(args.substeps, args.steps)
    jw, mean_cell_area = csn.jw_state(setup, runner, workdir, case.w_noise)
    steps = csn.schedule(case, args.substeps, dtime_of(name))
    arrays = csn.initial_arrays(jw, setup.statics, setup.sizes, case,
                                bool(setup.grid.limited_area), args.seed, None)
    state_path, run_path = workdir / f"{name}-race.state.nc", workdir / f"{name}-race.run.nc"
    out_path = workdir / f"{name}-race.out.nc"
    csn.write_state_file(state_path, arrays, setup.sizes)
    csn.write_run_file(run_path, case, steps)
    timed = slice(args.substeps, None)  # the regular steps' substeps

    results = {"icondiff": Result("icondiff (OpenMP)")}
    granules = {}
    for backend in args.backends:
        t0 = time.perf_counter()
        granules[backend] = csn.icon4py_granule(setup.grid, setup.statics, setup.sattrs, case,
                                                setup.sizes["nlev"], mean_cell_area,
                                                backend_name=backend)
        results[backend] = Result(f"ICON4Py {backend}", setup_seconds=time.perf_counter() - t0)
        print(f"  ICON4Py {backend}: SolveNonhydro built in {results[backend].setup_seconds:.1f} s",
              flush=True)

    for r in range(args.rounds):
        t0 = time.perf_counter()
        csn.run_checked([runner, "--grid", setup.grid_file, "--statics", setup.statics_path,
                         "--state", state_path, "--run", run_path, "--output", out_path],
                        "icondiff_solve_nh_runner")
        ours, _ = csn.read_nc(out_path)
        seconds = [float(s) for s in np.asarray(ours["substep_seconds"])][timed]
        results["icondiff"].substep_seconds += seconds
        print(f"  round {r + 1}: icondiff {1e3 * statistics.median(seconds):.1f} ms/substep "
              f"({time.perf_counter() - t0:.1f} s with set-up)", flush=True)
        for backend, (granule, alloc) in granules.items():
            states = csn.Icon4pyStates(arrays, alloc, setup.sizes)
            seconds = []
            for i, step in enumerate(steps):
                if step["reset_max_vertical_cfl"]:
                    states.diagnostic.max_vertical_cfl = np.asarray(0.0)
                t1 = time.perf_counter()
                granule.time_step(
                    diagnostic_state_nh=states.diagnostic, prognostic_states=states.prognostic,
                    prep_adv=states.prep_adv,
                    **{k: v for k, v in step.items() if k != "reset_max_vertical_cfl"})
                seconds.append(time.perf_counter() - t1)
                states.swap()
            results[backend].substep_seconds += seconds[timed]
            print(f"  round {r + 1}: ICON4Py {backend} "
                  f"{1e3 * statistics.median(seconds[timed]):.1f} ms/substep", flush=True)
    base = results["icondiff"].median_ms()
    return {
        "grid": name, "cells": setup.sizes["cell"], "edges": setup.sizes["edge"],
        "nlev": setup.sizes["nlev"], "dtime": dtime_of(name),
        "timed_substeps_per_round": len(steps[timed]),
        "results": [dict(implementation=v.implementation, median_ms=v.median_ms(),
                         min_ms=v.min_ms(), setup_s=v.setup_seconds,
                         icondiff_speedup=v.median_ms() / base)
                    for v in results.values()],
    }


def markdown(races: list[dict], args) -> str:
    lines = [f"icondiff's solve_nh granule against ICON4Py 0.2.0's SolveNonhydro.time_step, per "
             f"substep: {args.threads} OpenMP threads (OMP_PROC_BIND "
             f"{os.environ.get('OMP_PROC_BIND')}), {args.rounds} interleaved rounds of "
             f"{args.steps} regular physics steps x {args.substeps} substeps, {platform.node()}.",
             "",
             "| grid | cells | nlev | substep (s) | implementation | median ms/substep | min | "
             "ICON4Py set-up (s) | icondiff faster by |",
             "|---|---|---|---|---|---|---|---|---|"]
    for g in races:
        for r in g["results"]:
            lines.append(
                f"| {g['grid']} | {g['cells']} | {g['nlev']} | {g['dtime']:g} | "
                f"{r['implementation']} | {r['median_ms']:.1f} | {r['min_ms']:.1f} | "
                f"{r['setup_s']:.1f} | {r['icondiff_speedup']:.2f}x |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", type=pathlib.Path, required=True)
    parser.add_argument("--grid-dir", default=None)
    parser.add_argument("--grids", default="gen-R2B4")
    parser.add_argument("--nlev", type=int, default=65)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--backends", default="gtfn_cpu")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--substeps", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20250301)
    parser.add_argument("--markdown", type=pathlib.Path)
    parser.add_argument("--json", type=pathlib.Path)
    parser.add_argument("--workdir", type=pathlib.Path)
    args = parser.parse_args()
    args.backends = [b for b in args.backends.split(",") if b]
    args.backend = "gtfn_cpu"  # compare_solve_nh.setup_grid's ICON4Py grid (connectivities only)
    if args.rounds < 1 or args.steps < 1 or args.substeps < 1 or args.threads < 1:
        parser.error("--rounds, --steps, --substeps and --threads must be >= 1")
    set_openmp(args.threads)
    os.environ.setdefault("FLOAT_PRECISION", "double")

    import compare_solve_nh as csn
    import icon4py_inputs as ii

    runner = csn.find_tool(args.build_dir, "icondiff_solve_nh_runner")
    icondiff = csn.find_tool(args.build_dir, "icondiff")
    workdir = args.workdir or pathlib.Path(tempfile.mkdtemp(prefix="icondiff-race-solve-nh-"))
    workdir.mkdir(parents=True, exist_ok=True)
    grid_dir = pathlib.Path(args.grid_dir or csn.DEFAULT_GRID_DIR)
    known = dict(csn.GRIDS)
    races = []
    for name in args.grids.split(","):
        spec = known.get(name)
        if spec is None:
            if not name.startswith("gen-R2B"):
                parser.error(f"unknown grid {name}")
            spec = "generate:" + name[len("gen-"):]
        if not spec.startswith("generate:"):
            spec = str(grid_dir / spec)
        grid_file = ii.grid_file(spec, str(icondiff), workdir)
        print(f"\n== {name} ({grid_file}), {args.nlev} levels, {args.threads} threads", flush=True)
        races.append(race_grid(args, name, grid_file, icondiff, runner, workdir))
    text = markdown(races, args)
    print("\n" + text)
    if args.markdown:
        args.markdown.write_text(text)
    if args.json:
        args.json.write_text(json.dumps(dict(threads=args.threads, rounds=args.rounds,
                                             steps=args.steps, substeps=args.substeps,
                                             races=races), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
