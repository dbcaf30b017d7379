#!/usr/bin/env python3
"""`icondiff run`'s time loop against ICON4Py 0.2.0's standalone driver, from the same full state.

The substep comparisons (compare_solve_nh.py) give both granules the same inputs. This script
checks what they cannot: what a driver carries between substeps and steps (the diagnostic fields,
the advective-tendency slots, the time levels, the diffusion) and how it starts. It found the
surface rho_ic of icondiff's JW start, which moved mass through JW06's sloping surface at every
substep (docs/user/jw_baroclinic_wave.md).

1. ICON4Py: ``standalone_driver.initialize_driver`` on the grid file (its JW experiment's
   configuration, gtfn_cpu), ``initial_condition.jablonowski_williamson``, then the loop body of
   its time integration (``_integrate_one_time_step``, ``_adjust_ndyn_substeps_var``) for --steps
   steps. Every field of the carried state (prognostics current/next, every
   DiagnosticStateNonHydro field with both advective-tendency slots, PrepAdvection,
   DiffusionDiagnosticState) is saved at step 0 and after each step. ICON4Py 0.2.0 hard-codes
   dtime 300 s and the JW perturbation 0 in the standalone driver: --dtime and --jw-up patch them
   (the same monkeypatches for both values the driver's _read_config and
   zonalwind_2_normalwind_ndarray return; nothing of ICON4Py's source is changed).
2. icondiff: ``icondiff run --model dynamics`` for one step writes a checkpoint (the layout of
   its carried state); ICON4Py's complete step-0 state replaces every variable in it (ICON4Py's
   (point, level) arrays as icondiff's level-major ones), and ``icondiff run --restart`` continues
   from it for --steps steps with a checkpoint after each.
3. Every checkpoint variable after every step against ICON4Py's: the largest difference relative
   to the field's largest magnitude, and the lowest level's. Exit 1 if any exceeds --rtol.
4. The starts: ``icondiff run`` from its own JW state for the same steps against ICON4Py's. The
   two starts differ by design (vn: eta at the edges by a Newton solve here, interpolated there,
   3e-3 m/s apart), so the states differ everywhere by small amounts; what must not happen is a
   level that departs far more than the others (the surface rho_ic: 3.9e-3 K at the lowest
   level against 2e-6 K above after one step). Exit 1 if any level's largest difference of a
   prognostic field exceeds --level-ratio times the median level's.

The standalone driver is not in ICON4Py's PyPI packages: --driver-src names a checkout of
icon4py v0.2.0 (``model/standalone_driver/src``; ``model/atmosphere/advection/src`` and
``model/testing/src`` beside it are added to the path too). The grid's cells, edges and vertices
keep the file's order on both sides. With a warm gt4py cache (GT4PY_BUILD_CACHE_DIR) R02B03 x 35
takes about a minute; a cold cache compiles for 20 minutes or more.

Usage: compare_time_loop.py --icondiff BUILD/bin/icondiff --driver-src ICON4PY_CHECKOUT
           --grid icon_grid_0009_R02B03_R.nc [--steps 3] [--dtime 600] [--jw-up 1] [--workdir D]
"""
import argparse
import dataclasses
import datetime
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import numpy as np


def parse_arguments(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--icondiff", required=True, help="the icondiff executable")
    p.add_argument("--driver-src", required=True,
                   help="a checkout of icon4py v0.2.0 (its model/standalone_driver is used)")
    p.add_argument("--grid", required=True, help="an ICON grid file (global)")
    p.add_argument("--steps", type=int, default=3, help="time steps compared (default 3)")
    p.add_argument("--dtime", type=float, default=600.0, help="time step in s (default 600)")
    p.add_argument("--jw-up", type=float, default=1.0,
                   help="JW perturbation amplitude in m/s (default 1; 0: the steady state)")
    p.add_argument("--rtol", type=float, default=1e-9,
                   help="largest accepted difference relative to the field's largest magnitude")
    p.add_argument("--level-ratio", type=float, default=100.0,
                   help="own starts: the largest accepted ratio of one level's difference to the "
                        "median level's (default 100)")
    p.add_argument("--backend", default="gtfn_cpu", help="ICON4Py backend (default gtfn_cpu)")
    p.add_argument("--workdir", help="keep the files here (default: a temporary folder)")
    args = p.parse_args(argv)
    if args.steps < 1:
        p.error(f"--steps must be >= 1, got {args.steps}")
    if not (args.dtime > 0):
        p.error(f"--dtime must be > 0, got {args.dtime}")
    for path, what in ((args.icondiff, "--icondiff"), (args.grid, "--grid")):
        if not pathlib.Path(path).is_file():
            p.error(f"{what}: no file {path}")
    driver = pathlib.Path(args.driver_src) / "model/standalone_driver/src"
    if not (driver / "icon4py/model/standalone_driver/standalone_driver.py").is_file():
        p.error(f"--driver-src: {driver} has no icon4py/model/standalone_driver "
                "(a checkout of icon4py v0.2.0 is needed)")
    return args


def icon4py_states(args, out: pathlib.Path) -> None:
    """ICON4Py's carried state at step 0 and after each step -> out/icon4py_NNNNN.npz."""
    root = pathlib.Path(args.driver_src)
    for sub in ("model/standalone_driver/src", "model/atmosphere/advection/src",
                "model/testing/src"):
        sys.path.insert(0, str(root / sub))
    from icon4py.model.standalone_driver import driver_utils, standalone_driver
    from icon4py.model.standalone_driver.testcases import initial_condition
    from icon4py.model.standalone_driver.testcases import utils as testcase_utils

    read_config = standalone_driver._read_config

    def patched_read_config(output_path, enable_profiling):
        drv, vertical, diffusion, advection, nonhydro = read_config(output_path, enable_profiling)
        step = datetime.timedelta(seconds=args.dtime)
        drv = dataclasses.replace(drv, dtime=step, end_date=drv.start_date + args.steps * step)
        return drv, vertical, diffusion, advection, nonhydro

    zonal_to_normal = testcase_utils.zonalwind_2_normalwind_ndarray

    def patched_zonal_to_normal(**kw):
        kw["jw_baroclinic_amplitude"] = args.jw_up
        return zonal_to_normal(**kw)

    standalone_driver._read_config = patched_read_config
    testcase_utils.zonalwind_2_normalwind_ndarray = patched_zonal_to_normal

    driver = standalone_driver.initialize_driver(
        output_path=out / "icon4py-driver", grid_file_path=pathlib.Path(args.grid),
        log_level="warning", backend_like=driver_utils.get_backend_from_name(args.backend),
        force_serial_run=True)
    factories = driver.static_field_factories
    vertical = driver.vertical_grid_config
    state = initial_condition.jablonowski_williamson(
        grid=driver.grid, geometry_field_source=factories.geometry_field_source,
        interpolation_field_source=factories.interpolation_field_source,
        metrics_field_source=factories.metrics_field_source, backend=driver.backend,
        lowest_layer_thickness=vertical.lowest_layer_thickness,
        model_top_height=vertical.model_top_height, stretch_factor=vertical.stretch_factor,
        damping_height=vertical.rayleigh_damping_height, exchange=driver.exchange)

    def array(x):
        return np.asarray(x.ndarray) if hasattr(x, "ndarray") else np.asarray(x)

    def save(step):
        fields = {}
        for level, prognostic in (("current", state.prognostics.current),
                                  ("next", state.prognostics.next)):
            for name in ("vn", "w", "exner", "theta_v", "rho"):
                fields[f"{level}__{name}"] = array(getattr(prognostic, name))
        diagnostic = state.solve_nonhydro_diagnostic
        for f in dataclasses.fields(diagnostic):
            value = getattr(diagnostic, f.name)
            if hasattr(value, "predictor"):  # the advective-tendency pairs
                fields[f"solve_nh__predictor_{f.name}"] = array(value.predictor)
                fields[f"solve_nh__corrector_{f.name}"] = array(value.corrector)
            else:
                fields[f"solve_nh__{f.name}"] = array(value)
        for prefix, group in (("prep_adv", state.prep_advection_prognostic),
                              ("diffusion", state.diffusion_diagnostic)):
            for f in dataclasses.fields(group):
                fields[f"{prefix}__{f.name}"] = array(getattr(group, f.name))
        np.savez(out / f"icon4py_{step:05d}.npz", **fields)

    save(0)
    times = driver.model_time_variables
    for step in range(1, args.steps + 1):
        times.next_simulation_date()
        driver._integrate_one_time_step(
            diffusion_diagnostic_state=state.diffusion_diagnostic,
            solve_nonhydro_diagnostic_state=state.solve_nonhydro_diagnostic,
            tracer_advection_diagnostic_state=state.tracer_advection_diagnostic,
            prognostic_states=state.prognostics, prep_adv=state.prep_advection_prognostic,
            do_prep_adv=False, tracer_prep_adv=state.prep_tracer_advection_prognostic)
        times.is_first_step_in_simulation = False
        driver._adjust_ndyn_substeps_var(state.solve_nonhydro_diagnostic)
        save(step)


def icondiff_run(args, *options) -> None:
    command = [args.icondiff, "run", "--model", "dynamics", "--grid", args.grid,
               "--dtime", repr(args.dtime), "--jw_up", repr(args.jw_up), "--quiet", *options]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")


def checkpoint_from_icon4py(template: pathlib.Path, icon4py: dict, target: pathlib.Path) -> None:
    """icondiff's checkpoint `template` with every variable replaced by ICON4Py's step-0 value."""
    import netCDF4
    shutil.copy(template, target)
    with netCDF4.Dataset(target, "a") as f:
        for name, variable in f.variables.items():
            if name not in icon4py:
                sys.exit(f"ICON4Py's state has no {name}: the two drivers carry different fields")
            value = icon4py[name]
            flat = value.T.ravel() if value.ndim == 2 else value.ravel()  # (point, level) -> level-major
            if flat.size != variable.shape[0]:
                sys.exit(f"{name}: ICON4Py's {value.shape} does not fill icondiff's {variable.shape}")
            variable[:] = flat
        f.setncattr("steps_done", "0")
        f.setncattr("time_seconds", 0.0)
        f.setncattr("max_vertical_cfl", 0.0)


def compare(step: int, checkpoint: pathlib.Path, icon4py: dict, rtol: float) -> list[str]:
    import netCDF4
    failures = []
    with netCDF4.Dataset(checkpoint) as f:
        for name, variable in f.variables.items():
            theirs = icon4py[name]
            mine = np.asarray(variable[:])
            mine = mine.reshape(theirs.shape[1], -1).T if theirs.ndim == 2 else mine
            scale = float(np.abs(theirs).max()) or 1.0
            difference = np.abs(mine - theirs)
            relative = float(difference.max()) / scale
            lowest = (f"{float(difference[:, -1].max()) / scale:9.1e}" if theirs.ndim == 2
                      else "        -")
            print(f"{step:4d}  {name:72s} {relative:9.1e} {lowest}")
            if not relative <= rtol:
                failures.append(f"step {step} {name}: {relative:.2e} relative (rtol {rtol:g})")
    return failures


def compare_levels(step: int, checkpoint: pathlib.Path, icon4py: dict, ratio: float) -> list[str]:
    """The own starts: per prognostic field, each level's largest difference against the median
    level's."""
    import netCDF4
    failures = []
    with netCDF4.Dataset(checkpoint) as f:
        for name in ("current__vn", "current__w", "current__theta_v", "current__rho",
                     "current__exner"):
            theirs = icon4py[name]
            mine = np.asarray(f[name][:]).reshape(theirs.shape[1], -1).T
            per_level = np.abs(mine - theirs).max(axis=0)
            typical = float(np.median(per_level[per_level > 0])) if (per_level > 0).any() else 0.0
            worst = int(np.argmax(per_level))
            print(f"{step:4d}  {name:24s} median level {typical:9.2e}, largest {per_level[worst]:9.2e}"
                  f" at level {worst + 1} of {per_level.size}")
            if typical > 0 and not per_level[worst] <= ratio * typical:
                failures.append(f"own start, step {step} {name}: level {worst + 1} departs by "
                                f"{per_level[worst]:.2e}, {per_level[worst] / typical:.0f} times "
                                f"the median level's {typical:.2e}")
    return failures


def main(argv=None) -> int:
    args = parse_arguments(argv)
    work = pathlib.Path(args.workdir or tempfile.mkdtemp(prefix="compare_time_loop."))
    work.mkdir(parents=True, exist_ok=True)
    icon4py_states(args, work)
    icon4py = [dict(np.load(work / f"icon4py_{s:05d}.npz")) for s in range(args.steps + 1)]

    template, restart = work / "template", work / "restart"
    for folder in (template, restart):
        shutil.rmtree(folder, ignore_errors=True)
    icondiff_run(args, "--steps", "1", "--checkpoint-dir", str(template))
    restart.mkdir()
    checkpoint_from_icon4py(template / "step000001.nc", icon4py[0], restart / "step000000.nc")
    icondiff_run(args, "--steps", str(args.steps), "--restart", str(restart), "--checkpoint-dir",
                 str(restart), "--checkpoint-every", "1")

    own = work / "own"
    shutil.rmtree(own, ignore_errors=True)
    icondiff_run(args, "--steps", str(args.steps), "--checkpoint-dir", str(own),
                 "--checkpoint-every", "1")

    print("From ICON4Py's state:")
    print("step  field" + " " * 68 + "max|d|/max|x|   lowest level")
    failures = []
    for step in range(1, args.steps + 1):
        failures += compare(step, restart / f"step{step:06d}.nc", icon4py[step], args.rtol)
    print("From each one's own JW start:")
    for step in range(1, args.steps + 1):
        failures += compare_levels(step, own / f"step{step:06d}.nc", icon4py[step],
                                   args.level_ratio)
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print(f"icondiff's time loop equals ICON4Py's standalone driver for {args.steps} step(s) "
          f"to {args.rtol:g} relative; from the own starts no level departs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
