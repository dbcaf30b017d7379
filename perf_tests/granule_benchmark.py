#!/usr/bin/env python3
"""The one benchmark command of icondiff's diffusion granule.

In one run, per build variant (--build, --variant NAME=DIR), grid (--grids), level count (--nlevs)
and thread count (--threads) it runs bench_diffusion once: the STREAM triad with the same threads,
the whole granule for both strategies with every loop schedule and level block, and every kernel
from the granule's own fenced timers. Per variant and level count it runs count_instructions under
valgrind's callgrind (1 thread, a small grid: --callgrind-grid) and divides the instructions of
every kernel by cell-levels and by the kernel's point-levels. It writes granule_benchmark.json and
granule_benchmark.md into --out.

  perf_tests/granule_benchmark.py --build build-me --out bench-out
  perf_tests/granule_benchmark.py --quick --out /tmp/bench-quick           # a smoke run (seconds)
  perf_tests/granule_benchmark.py --grids R2B5 --nlevs 65 --threads 1,2 \\
      --variant mixed=build-mixed --out bench-r2b5

Python 3 standard library only. See docs/user/benchmarking.md for every column.
"""

import argparse
import datetime
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time

# Memory held by bench_diffusion, measured (maximum resident set, 2 threads, OpenMP): R2B3 x 65
# 325 MiB, R2B4 x 65 681 MiB, R2B5 x 65 1.94 GiB, R2B5 x 80 2.30 GiB, i.e. about 320-375 B per
# cell-level (host inputs, device inputs, states, temporaries) on top of about 200 MiB (the STREAM
# arrays, the runtime). The estimate below keeps a margin above that.
MEMORY_FIXED_BYTES = 256 * 2**20
MEMORY_BYTES_PER_CELL_LEVEL = 420.0
# The ~276 B per cell-level minimum of performance_model.md §3.2 (the byte model's roofline).
MINIMUM_BYTES_TEXT = "≈276 B per cell-level minimum (performance_model.md §3.2)"

GRANULE_RE = re.compile(r"^bench_granule/(?P<strategy>[^/]+)/(?P<schedule>[^/]+)"
                        r"(?:/kblock:(?P<kblock>[^/]+))?(?:/real_time)?$")
KERNELS_RE = re.compile(r"^bench_kernels/(?P<strategy>[^/]+)(?:/.*)?$")
GRID_LINE_RE = re.compile(r"grid (?P<source>\S+): (?P<cells>\d+) cells, (?P<edges>\d+) edges, "
                          r"(?P<vertices>\d+) vertices, (?P<nlev>\d+) levels")
GENERATED_RE = re.compile(r"^R(\d+)B(\d+)$")
SCHEDULE_ORDER = ["level-chunks", "mdrange", "flat", "points-outer"]
KBLOCK_ORDER = ["1", "2", "4", "8", "16", "all", "-"]
LABEL_PREFIX = "icondiff::diffusion::"
# The kernels in the order a call runs them (docs/dev/diffusion.md, "Steps"); others go last.
KERNEL_ORDER = [
    "scale_k", "rbf_vector_interpolation_of_u_v_vert_before_nabla2",
    "calculate_nabla2_and_smag_coefficients_for_vn",
    "calculate_diagnostic_quantities_for_turbulence",
    "rbf_vector_interpolation_of_u_v_vert_before_nabla4", "apply_diffusion_to_vn", "copy_w",
    "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence",
    "calculate_nabla2_for_w_and_horizontal_gradients", "apply_nabla4_and_damping_to_w",
    "calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools", "copy_theta_v",
    "apply_diffusion_to_theta_and_exner"]


class BenchmarkError(Exception):
    """A problem the user can fix (a missing build, binary or valgrind); reported without a
    traceback."""


def log(message):
    print(f"[granule_benchmark] {message}", file=sys.stderr, flush=True)


# ---- inputs ----------------------------------------------------------------------------------


def comma_list(text, convert=str, what="value"):
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise argparse.ArgumentTypeError(f"empty list of {what}s")
    try:
        return [convert(t) for t in items]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}': expected a comma-separated list of {what}s")


def grid_source(name):
    """The bench_diffusion grid source of a --grids item: R2B5 -> generate:R2B5; anything with a
    ':' or '/' (generate:R2B4/cap:..., a grid file) is taken as it is."""
    if GENERATED_RE.match(name):
        return f"generate:{name}"
    return name


def generated_sizes(name):
    """(cells, edges, vertices) of a generated global RnBk grid, None for anything else."""
    m = GENERATED_RE.match(name)
    if not m:
        m = re.match(r"^generate:R(\d+)B(\d+)$", name)
    if not m:
        return None
    n, k = int(m.group(1)), int(m.group(2))
    cells = 20 * n * n * 4**k
    return cells, cells * 3 // 2, cells // 2 + 2


def meminfo_bytes(key):
    """The /proc/meminfo entry `key` in bytes, or None."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def available_memory_bytes():
    """MemAvailable of /proc/meminfo, lowered to what the cgroup (v2 or v1) still allows."""
    available = meminfo_bytes("MemAvailable")
    for limit_file, usage_file in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                                   ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                    "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        try:
            with open(limit_file) as f:
                limit = f.read().strip()
            with open(usage_file) as f:
                usage = int(f.read().strip())
        except (OSError, ValueError):
            continue
        if limit.isdigit() and int(limit) < 2**60:
            left = int(limit) - usage
            available = left if available is None else min(available, left)
        break
    return available


def gib(n):
    return n / 2**30


def machine_description():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    total = meminfo_bytes("MemTotal")
    return {"host": socket.gethostname(), "cpu": cpu, "cores": os.cpu_count(),
            "memory_GiB": round(gib(total), 1) if total else None,
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def git_commit(directory):
    try:
        out = subprocess.run(["git", "-C", directory, "describe", "--always", "--dirty"],
                             capture_output=True, text=True, timeout=20)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


# ---- running ---------------------------------------------------------------------------------


def check_builds(variants, need_count):
    for name, directory in variants:
        if not os.path.isdir(directory):
            raise BenchmarkError(
                f"build directory '{directory}' (variant {name}) does not exist: configure and "
                f"build it with -DICONDIFF_ENABLE_PERF_TESTS=ON, e.g.\n"
                f"  cmake -S . -B {directory} -DCMAKE_BUILD_TYPE=Release "
                f"-DICONDIFF_ENABLE_PERF_TESTS=ON\n"
                f"  cmake --build {directory} --target bench_diffusion count_instructions")
        bench = os.path.join(directory, "bin", "bench_diffusion")
        if not os.access(bench, os.X_OK):
            raise BenchmarkError(
                f"{bench} is missing (variant {name}): build it with "
                f"`cmake --build {directory} --target bench_diffusion` (configured with "
                f"-DICONDIFF_ENABLE_PERF_TESTS=ON)")
        count = os.path.join(directory, "bin", "count_instructions")
        if need_count and not os.access(count, os.X_OK):
            raise BenchmarkError(
                f"{count} is missing (variant {name}): build it with `cmake --build {directory} "
                f"--target count_instructions` (it needs valgrind/callgrind.h, Debian package "
                f"valgrind), or run with --no-callgrind")
    if need_count and shutil.which("valgrind") is None:
        raise BenchmarkError("valgrind is not on PATH (Debian package valgrind): install it, or "
                             "run with --no-callgrind to skip the instruction counts")


def run_logged(command, env, log_path, timeout):
    """Runs `command`, writes its output to `log_path`; returns (ok, output, seconds)."""
    start = time.monotonic()
    with open(log_path, "w") as log_file:
        log_file.write("$ " + " ".join(shlex.quote(c) for c in command) + "\n")
        log_file.flush()
        try:
            proc = subprocess.run(command, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as error:
            output = error.stdout or ""
            if isinstance(output, bytes):
                output = output.decode(errors="replace")
            log_file.write(output + f"\n[timed out after {timeout} s]\n")
            return False, output, time.monotonic() - start
        log_file.write(proc.stdout)
    return proc.returncode == 0, proc.stdout, time.monotonic() - start


def read_bench_json(path):
    with open(path) as f:
        text = f.read()
    if not text.strip():
        # Google Benchmark writes nothing when --filter matched no benchmark.
        raise ValueError(f"{path} is empty: did --filter match no bench_diffusion benchmark?")
    report = json.loads(text)
    context = report.get("context", {})
    granule, kernels = [], {}
    stream = cell_levels = None
    for b in report.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration":
            continue  # aggregates of repetitions
        name = b.get("name", "")
        m = GRANULE_RE.match(name)
        if m:
            row = {"strategy": m.group("strategy"), "schedule": m.group("schedule"),
                   "kblock": m.group("kblock") or "-"}
            for key in ("median_ms", "min_ms", "max_ms", "min_model_GBs", "kernel_model_GBs",
                        "min_model_of_stream", "kernel_model_of_stream", "stream_GBs",
                        "min_bytes_per_cell_level", "bytes_per_cell_level", "cell_levels"):
                row[key] = b.get(key)
            row["iterations"] = b.get("iterations")
            granule.append(row)
            stream = stream or b.get("stream_GBs")
            cell_levels = cell_levels or b.get("cell_levels")
            continue
        m = KERNELS_RE.match(name)
        if m:
            steps = {}
            for key, value in b.items():
                if "/" not in key:
                    continue
                step, quantity = key.rsplit("/", 1)
                steps.setdefault(step, {})[quantity] = value
            kernels[m.group("strategy")] = steps
            stream = stream or b.get("stream_GBs")
            cell_levels = cell_levels or b.get("cell_levels")
    context_stream = context.get("stream_triad_GBs")
    try:
        context_stream = float(context_stream) if context_stream is not None else None
    except ValueError:
        context_stream = None
    return {"granule": granule, "kernels": kernels, "stream_GBs": stream,
            "stream_triad_context_GBs": context_stream, "cell_levels": cell_levels,
            "load_avg": context.get("load_avg"), "date": context.get("date")}


def parse_callgrind_dumps(directory, prefix):
    """({(strategy, call, part): {event: count}}, files, cache description) summed over
    callgrind's dump files in `directory` whose trigger is a client request starting with
    `prefix`; part is "host" or the kernel label. Uses each file's `events:` names and `totals:`
    line (or `summary:`): Ir always, the cache events (D1mr, DLmr, ...) under --cache-sim."""
    counts = {}
    files = 0
    caches = {}
    for name in sorted(os.listdir(directory)):
        if not name.startswith("callgrind.out."):
            continue
        trigger = total = summary = None
        events = ["Ir"]
        with open(os.path.join(directory, name), errors="replace") as f:
            for line in f:
                if line.startswith("desc: Trigger:"):
                    trigger = line.split(":", 2)[2].strip()
                elif line.startswith("desc: ") and " cache:" in line:
                    cache, text = line[len("desc: "):].split(":", 1)
                    caches[cache.strip()] = " ".join(text.split())
                elif line.startswith("events:"):
                    events = line.split()[1:]
                elif line.startswith("summary:"):
                    summary = [int(x) for x in line.split()[1:]]
                elif line.startswith("totals:"):
                    total = [int(x) for x in line.split()[1:]]
        request = "Client Request: "
        if trigger is None or not trigger.startswith(request + prefix):
            continue
        files += 1
        words = trigger[len(request + prefix):].split(" ", 3)
        if len(words) < 3:
            continue
        strategy, call, kind = words[0], words[1], words[2]
        part = "host" if kind == "host" else (words[3] if len(words) > 3 else "?")
        values = total if total is not None else summary
        if values is None or any(v >= 2**62 for v in values):  # an empty or unreadable dump
            values = []
        values = values + [0] * (len(events) - len(values))  # callgrind drops trailing zeros
        entry = counts.setdefault((strategy, call, part), {})
        for event, value in zip(events, values):
            entry[event] = entry.get(event, 0) + value
    return counts, files, caches


CACHE_LINE_BYTES = 64


def cache_bytes(events):
    """(memory, L1-miss) bytes of one dump's events under --cache-sim: the last-level cache's
    data read and write misses, and the L1 data misses, times the line size; (None, None)
    without cache simulation."""
    if "DLmr" not in events:
        return None, None
    return ((events.get("DLmr", 0) + events.get("DLmw", 0)) * CACHE_LINE_BYTES,
            (events.get("D1mr", 0) + events.get("D1mw", 0)) * CACHE_LINE_BYTES)


def cache_bytes_entry(event_sets, calls, cell_levels):
    """Simulated memory and L1-miss bytes per call and per cell-level of the dumps `event_sets`
    (summed over `calls` calls); {} without --cache-sim."""
    pairs = [cache_bytes(e) for e in event_sets]
    if not any(m is not None for m, _ in pairs):
        return {}
    pairs = [(m or 0, l1 or 0) for m, l1 in pairs]  # a dump without events: nothing ran
    memory = sum(m for m, _ in pairs) / calls
    l1 = sum(m for _, m in pairs) / calls
    return {"memory_bytes": memory, "memory_bytes_per_cell_level": memory / cell_levels,
            "l1_miss_bytes": l1, "l1_miss_bytes_per_cell_level": l1 / cell_levels}


def count_instructions(variant, directory, args, nlev, out_dir):
    """Runs count_instructions under callgrind; returns the instruction table of one (variant,
    nlev) or a dict with "error"."""
    work = os.path.join(out_dir, "callgrind", f"{variant}-nlev{nlev}")
    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(work)
    plan_path = os.path.join(work, "plan.json")
    command = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
               f"--callgrind-out-file={os.path.join(work, 'callgrind.out.%p')}"]
    if args.cache_sim:
        command += ["--cache-sim=yes", f"--D1={args.cache_sim_d1}", f"--LL={args.cache_sim_ll}"]
    command += [
               os.path.join(directory, "bin", "count_instructions"),
               "--grid", grid_source(args.callgrind_grid), "--nlev", str(nlev),
               "--calls", str(args.callgrind_calls), "--level-block", args.callgrind_kblock,
               "--json", plan_path]
    if args.callgrind_schedule != "default":
        command[-2:-2] = ["--schedule", args.callgrind_schedule]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    log(f"{variant}: counting instructions, {args.callgrind_grid} x {nlev}, 1 thread (callgrind)")
    ok, output, seconds = run_logged(command, env, os.path.join(work, "count_instructions.log"),
                                     args.timeout)
    if not ok:
        return {"error": f"count_instructions under callgrind failed (see {work}/"
                         f"count_instructions.log): {' / '.join(output.strip().splitlines()[-2:])}"}
    with open(plan_path) as f:
        plan = json.load(f)
    if not plan.get("under_valgrind"):
        return {"error": "count_instructions did not see valgrind (RUNNING_ON_VALGRIND == 0)"}
    counts, files, caches = parse_callgrind_dumps(work, plan["dump_prefix"])
    calls = plan["calls"]
    cell_levels = plan["cell_levels"]
    result = {"grid": args.callgrind_grid, "grid_source": plan["grid"],
              "num_cells": plan["num_cells"], "num_edges": plan["num_edges"],
              "num_vertices": plan["num_vertices"], "nlev": nlev, "cell_levels": cell_levels,
              "schedule": plan["schedule"], "level_block": plan["level_block"], "calls": calls,
              "threads": 1, "dump_files": files, "seconds": round(seconds, 1), "strategies": {}}
    if args.cache_sim:
        result["cache_sim"] = caches
    for strategy, kernels in plan["strategies"].items():
        per_call = []
        for call in range(calls):
            parts = {part: n for (s, c, part), n in counts.items()
                     if s == strategy and c == str(call)}
            per_call.append(parts)
        if not any(per_call):
            return {"error": f"no callgrind dumps of strategy {strategy} in {work}"}
        whole = [sum(e.get("Ir", 0) for e in p.values()) for p in per_call]
        host = [p.get("host", {}).get("Ir", 0) for p in per_call]
        entry = {"whole_call": sum(whole) / calls, "whole_call_min": min(whole),
                 "whole_call_max": max(whole), "host": sum(host) / calls,
                 "whole_call_per_cell_level": sum(whole) / calls / cell_levels, "kernels": {}}
        entry.update(cache_bytes_entry([e for p in per_call for e in p.values()], calls,
                                       cell_levels))
        for label, extent in kernels.items():
            values = [p.get(label, {}).get("Ir", 0) for p in per_call]
            n = sum(values) / calls
            point_levels = extent["points"] * extent["levels"] * extent["launches"]
            entry["kernels"][label] = {
                "instructions": n, "launches": extent["launches"], "location": extent["location"],
                "points": extent["points"], "levels": extent["levels"],
                "per_cell_level": n / cell_levels,
                "per_point_level": n / point_levels if point_levels else None}
            entry["kernels"][label].update(cache_bytes_entry(
                [p[label] for p in per_call if label in p], calls, cell_levels))
        result["strategies"][strategy] = entry
    log(f"{variant}: {files} callgrind dumps read in {seconds:.0f} s")
    return result


def run_case(variant, directory, grid, nlev, threads, args, out_dir):
    case = {"variant": variant, "build": directory, "grid": grid, "grid_source": grid_source(grid),
            "nlev": nlev, "threads": threads}
    sizes = generated_sizes(grid)
    available = available_memory_bytes()
    if sizes:
        cells, edges, vertices = sizes
        case.update(num_cells=cells, num_edges=edges, num_vertices=vertices)
        needed = MEMORY_FIXED_BYTES + MEMORY_BYTES_PER_CELL_LEVEL * cells * nlev
        case["memory_estimate_GiB"] = round(gib(needed), 2)
        if available is not None:
            case["memory_available_GiB"] = round(gib(available), 2)
            if needed > available:
                case["status"] = "skipped"
                case["reason"] = (f"skipped: needs {gib(needed):.1f} GiB, have "
                                  f"{gib(available):.1f} GiB")
                log(f"{variant} {grid} x {nlev}, {threads} threads: {case['reason']}")
                return case
    name = f"{variant}-{grid.replace('/', '_').replace(':', '_')}-nlev{nlev}-t{threads}"
    json_path = os.path.join(out_dir, "bench", name + ".json")
    log_path = os.path.join(out_dir, "bench", name + ".log")
    command = [os.path.join(directory, "bin", "bench_diffusion"),
               f"--benchmark_min_time={args.min_time}", f"--benchmark_out={json_path}",
               "--benchmark_out_format=json"]
    if args.filter:
        command.append(f"--benchmark_filter={args.filter}")
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), ICONDIFF_BENCH_GRID=grid_source(grid),
               ICONDIFF_BENCH_NLEV=str(nlev), ICONDIFF_BENCH_CALLS=str(args.calls))
    log(f"{variant} {grid} x {nlev}, {threads} thread(s): bench_diffusion "
        f"(estimate {case.get('memory_estimate_GiB', '?')} GiB)")
    ok, output, seconds = run_logged(command, env, log_path, args.timeout)
    case["seconds"] = round(seconds, 1)
    case["log"] = os.path.relpath(log_path, out_dir)
    if not ok or not os.path.isfile(json_path):
        tail = output.strip().splitlines()[-3:]
        case["status"] = "failed"
        case["reason"] = f"bench_diffusion failed (see {log_path}): " + " / ".join(tail)
        log(f"{variant} {grid} x {nlev}, {threads} threads: {case['reason']}")
        return case
    m = GRID_LINE_RE.search(output)
    if m:
        case.update(num_cells=int(m.group("cells")), num_edges=int(m.group("edges")),
                    num_vertices=int(m.group("vertices")))
    try:
        results = read_bench_json(json_path)
    except ValueError as error:
        case["status"] = "failed"
        case["reason"] = str(error)
        log(f"{variant} {grid} x {nlev}, {threads} threads: {case['reason']}")
        return case
    case["status"] = "ok"
    case["bench_json"] = os.path.relpath(json_path, out_dir)
    case.update(results)
    log(f"{variant} {grid} x {nlev}, {threads} thread(s): done in {seconds:.0f} s, STREAM "
        f"{case['stream_GBs'] or 0:.1f} GB/s")
    return case


# ---- markdown --------------------------------------------------------------------------------


def ms(x):
    if x is None:
        return "–"
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}" if x >= 1 \
        else f"{x:.3f}"


def num(x, digits=2):
    return "–" if x is None else f"{x:.{digits}f}"


def percent(x):
    return "–" if x is None else f"{100 * x:.0f} %"


def instr(x):
    if x is None:
        return "–"
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def stream_text(case):
    """The STREAM triad the ratios divide by; with the one measured at the start of the process
    beside it when the two differ by more than 25 % (a noisy machine)."""
    reference, start = case.get("stream_GBs"), case.get("stream_triad_context_GBs")
    text = num(reference, 1)
    if reference and start and abs(reference - start) > 0.25 * min(reference, start):
        text += f" (start: {start:.1f})"
    return text


def load_text(case):
    load = case.get("load_avg")
    return ", ".join(f"{x:.1f}" for x in load) if isinstance(load, list) and load else "?"


def waiting_text(case):
    """A warning when the one-column kernel scale_k (65-80 values, microseconds on a free core)
    took more than 1 ms per call: the threads' barriers waited for a CPU (a busy machine)."""
    slow = {s: q["scale_k"]["median_ms"] for s, q in case.get("kernels", {}).items()
            if isinstance(q.get("scale_k"), dict)
            and (q["scale_k"].get("median_ms") or 0) > 1.0}
    if not slow:
        return None
    worst = max(slow.values())
    return (f"**Busy machine:** `scale_k`, one column of {case['nlev']} values, took {worst:.1f} ms "
            "per call in the per-kernel table (microseconds on a free core): the threads waited "
            "for a CPU at the end of every kernel, at least in that last part of the run; this "
            "case's times are not reliable.")


def combo(row):
    kb = f", kblock {row['kblock']}" if row["kblock"] != "-" else ""
    return f"{row['strategy']} / {row['schedule']}{kb}"


def row_order(row):
    return (row["strategy"] != "unfused",
            SCHEDULE_ORDER.index(row["schedule"]) if row["schedule"] in SCHEDULE_ORDER else 9,
            KBLOCK_ORDER.index(row["kblock"]) if row["kblock"] in KBLOCK_ORDER else 9)


def case_title(case):
    return (f"{case['variant']}, {case['grid']} × {case['nlev']} levels, {case['threads']} "
            f"thread{'s' if case['threads'] != 1 else ''}")


def table(header, rows, align=None):
    align = align or ["---"] * len(header)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return lines


def markdown(report):
    meta = report["metadata"]
    cases = report["cases"]
    counts = report["instructions"]
    out = ["# Diffusion granule benchmark", ""]
    machine = meta["machine"]
    out += [f"Run {meta['date']} on {machine['host']} ({machine['cpu']}, {machine['cores']} cores, "
            f"{machine['memory_GiB']} GiB; load average at the start "
            f"{', '.join(str(x) for x in machine['load_average'])}), commit {meta['commit']}.",
            "", f"Command: `{meta['command']}`", ""]
    out += ["Variants: " + ", ".join(f"`{v['name']}` = {v['build']}" for v in meta["variants"])
            + f". bench_diffusion with `--benchmark_min_time={meta['min_time']}`, per-kernel "
            f"table from {meta['calls']} calls fenced after every kernel. Instructions: "
            + (f"callgrind on {meta['callgrind']['grid']} with the case's levels, 1 thread, "
               f"{meta['callgrind']['schedule']} / level block {meta['callgrind']['level_block']}, "
               f"{meta['callgrind']['calls']} call(s) after a warm-up."
               if meta.get("callgrind") else "not counted (--no-callgrind).")
            + f" GB/s by the {MINIMUM_BYTES_TEXT} and by the kernel byte model "
            "(`diffusion_traffic.hpp`); \"of STREAM\": that bandwidth over the STREAM triad "
            "measured by the same process with the same threads.", ""]

    ok = [c for c in cases if c["status"] == "ok"]
    out += ["## Summary: the best combination per case", ""]
    rows = []
    for c in cases:
        if c["status"] != "ok":
            rows.append([c["variant"], c["grid"], c["nlev"], c["threads"], "–",
                         c.get("reason", c["status"]), "–", "–", "–", "–", "–"])
            continue
        best = min(c["granule"], key=lambda r: r["median_ms"]) if c["granule"] else None
        per_strategy = {}
        for r in c["granule"]:
            s = r["strategy"]
            if s not in per_strategy or r["median_ms"] < per_strategy[s]["median_ms"]:
                per_strategy[s] = r
        ic = counts.get(f"{c['variant']}/{c['nlev']}", {}).get("strategies", {})
        instr_text = " / ".join(instr(ic[s]["whole_call_per_cell_level"]) if s in ic else "–"
                                for s in ("unfused", "fused"))
        rows.append([c["variant"], c["grid"], c["nlev"], c["threads"], stream_text(c),
                     combo(best) if best else "–", ms(best["median_ms"]) if best else "–",
                     num(best["min_model_GBs"]) if best else "–",
                     percent(best["min_model_of_stream"]) if best else "–",
                     " / ".join(ms(per_strategy[s]["median_ms"]) if s in per_strategy else "–"
                                for s in ("unfused", "fused")),
                     instr_text])
    out += table(["variant", "grid", "levels", "threads", "STREAM triad GB/s", "best: strategy / "
                  "schedule, level block", "ms per call (median)", "GB/s (276 B)",
                  "of STREAM (276 B)", "best unfused / fused ms", "instr. per cell-level, "
                  "unfused / fused"], rows,
                 ["---", "---", "--:", "--:", "--:", "---", "--:", "--:", "--:", "--:", "--:"])
    out.append("")

    # Threads side by side: the best time of each thread count per (variant, grid, nlev).
    thread_counts = sorted({c["threads"] for c in ok})
    if len(thread_counts) > 1:
        out += ["### Threads side by side (best combination, median ms per call)", ""]
        keys = []
        for c in ok:
            k = (c["variant"], c["grid"], c["nlev"])
            if k not in keys:
                keys.append(k)
        rows = []
        for k in keys:
            best = {}
            for c in ok:
                if (c["variant"], c["grid"], c["nlev"]) == k and c["granule"]:
                    best[c["threads"]] = min(r["median_ms"] for r in c["granule"])
            row = list(k) + [ms(best.get(t)) for t in thread_counts]
            t0, t1 = thread_counts[0], thread_counts[-1]
            row.append(num(best[t0] / best[t1]) + "×" if t0 in best and t1 in best else "–")
            rows.append(row)
        out += table(["variant", "grid", "levels"] + [f"{t} thread{'s' if t != 1 else ''}"
                                                      for t in thread_counts]
                     + [f"speed-up {thread_counts[0]} → {thread_counts[-1]}"], rows,
                     ["---", "---", "--:"] + ["--:"] * (len(thread_counts) + 1))
        out.append("")

    variants = [v["name"] for v in meta["variants"]]
    if len(variants) > 1:
        out += ["### Variants side by side (best combination, median ms per call; instructions "
                "per cell-level of the fused call)", ""]
        keys = []
        for c in ok:
            k = (c["grid"], c["nlev"], c["threads"])
            if k not in keys:
                keys.append(k)
        rows = []
        for k in keys:
            row = list(k)
            for v in variants:
                match = [c for c in ok if (c["grid"], c["nlev"], c["threads"]) == k
                         and c["variant"] == v and c["granule"]]
                ic = counts.get(f"{v}/{k[1]}", {}).get("strategies", {}).get("fused")
                t = ms(min(r["median_ms"] for r in match[0]["granule"])) if match else "–"
                row.append(t + (f" ({instr(ic['whole_call_per_cell_level'])})" if ic else ""))
            rows.append(row)
        out += table(["grid", "levels", "threads"] + variants, rows,
                     ["---", "--:", "--:"] + ["--:"] * len(variants))
        out.append("")

    for c in cases:
        out += [f"## {case_title(c)}", ""]
        if c["status"] != "ok":
            out += [c.get("reason", c["status"]), ""]
            continue
        out += [f"{c.get('num_cells', '?')} cells, {c.get('num_edges', '?')} edges, "
                f"{c.get('num_vertices', '?')} vertices; build `{c['build']}`. STREAM triad "
                f"{num(c['stream_GBs'], 2)} GB/s (the reference of every ratio below, measured "
                f"by bench_diffusion before its first counters), "
                f"{num(c.get('stream_triad_context_GBs'), 2)} GB/s at the start of the same "
                f"process. Load average when its benchmarks started: {load_text(c)}. "
                f"It took {c['seconds']:.0f} s; memory estimate "
                f"{c.get('memory_estimate_GiB', '?')} GiB.", ""]
        warning = waiting_text(c)
        if warning:
            out += [warning, ""]
        out += ["Whole granule (unfenced kernels, one fence per call):", ""]
        rows = []
        best = min(r["median_ms"] for r in c["granule"]) if c["granule"] else None
        for r in sorted(c["granule"], key=row_order):
            mark = "**" if r["median_ms"] == best else ""
            rows.append([r["strategy"], r["schedule"], r["kblock"],
                         f"{mark}{ms(r['median_ms'])}{mark}", ms(r["min_ms"]), ms(r["max_ms"]),
                         num(r["min_model_GBs"]), num(r["kernel_model_GBs"]),
                         percent(r["min_model_of_stream"]), percent(r["kernel_model_of_stream"])])
        out += table(["strategy", "schedule", "level block", "median ms", "min ms", "max ms",
                      "GB/s (276 B)", "GB/s (kernel model)", "of STREAM (276 B)",
                      "of STREAM (kernel model)"], rows,
                     ["---", "---", "--:", "--:", "--:", "--:", "--:", "--:", "--:", "--:"])
        out.append("")
        ic_all = counts.get(f"{c['variant']}/{c['nlev']}", {})
        ic_strategies = ic_all.get("strategies", {})
        where = (f"instructions counted on {ic_all['grid']} × {ic_all['nlev']}, 1 thread"
                 if "grid" in ic_all else ic_all.get("error", "instructions not counted"))
        cache_sim = ic_all.get("cache_sim")
        if cache_sim:
            where += ("; memory and L1-miss bytes from callgrind's cache simulation ("
                      + "; ".join(f"{name}: {text}" for name, text in sorted(cache_sim.items()))
                      + "): demand misses x 64 B, without hardware prefetches and write-backs")
        out += [f"Per kernel, in call order (the build's default loop schedule, level block 1; "
                f"{c.get('calls', '')} "
                f"calls fenced after every kernel; {where}):", ""]
        rows = []
        for strategy in sorted(c["kernels"], key=lambda s: s != "unfused"):
            steps = c["kernels"][strategy]
            ic = ic_strategies.get(strategy, {})
            kernel_counts = {k[len(LABEL_PREFIX):] if k.startswith(LABEL_PREFIX) else k: v
                             for k, v in ic.get("kernels", {}).items()}
            order = sorted((s for s in steps if s != "run"),
                           key=lambda s: (KERNEL_ORDER.index(s) if s in KERNEL_ORDER
                                          else len(KERNEL_ORDER), s))
            for step in order + (["run"] if "run" in steps else []):
                q = steps[step]
                k = kernel_counts.get(step)
                if step == "run":
                    name = "**whole call** (fenced per kernel)"
                    per_cell = ic.get("whole_call_per_cell_level")
                    per_point = None
                    simulated = ic
                else:
                    simulated = k or {}
                    name = f"`{step}`"
                    per_cell = k["per_cell_level"] if k else None
                    per_point = k["per_point_level"] if k else None
                point_text = (f"{instr(per_point)} ({k['location']})" if per_point is not None
                              else "–")
                row = [strategy, name, ms(q.get("median_ms")), ms(q.get("min_ms")),
                       ms(q.get("max_ms")), num((q.get("bytes") or 0) / 1e6, 1),
                       num(q.get("model_GBs")), percent(q.get("of_stream")),
                       instr(per_cell), point_text]
                if cache_sim:
                    model = (q.get("bytes") or 0) / c["cell_levels"] if c.get("cell_levels") \
                        else None
                    row += [num(model, 0), num(simulated.get("memory_bytes_per_cell_level"), 0),
                            num(simulated.get("l1_miss_bytes_per_cell_level"), 0)]
                rows.append(row)
        headers = ["strategy", "kernel", "median ms", "min ms", "max ms", "model MB",
                   "GB/s (model)", "of STREAM", "instr. per cell-level", "instr. per point-level"]
        if cache_sim:
            headers += ["model B per cell-level", "simulated memory B per cell-level",
                        "simulated L1-miss B per cell-level"]
        out += table(headers, rows, ["---", "---"] + ["--:"] * (len(headers) - 2))
        out.append("")
    if counts:
        out += ["## Instruction counts", ""]
        rows = []
        for key, ic in counts.items():
            if "error" in ic:
                rows.append([key, ic["error"], "", "", "", "", ""])
                continue
            for strategy, s in ic["strategies"].items():
                rows.append([key.split("/")[0], f"{ic['grid']} × {ic['nlev']}", strategy,
                             f"{s['whole_call']:,.0f}", instr(s["whole_call_per_cell_level"]),
                             f"{s['host']:,.0f}",
                             num(s.get("memory_bytes_per_cell_level"), 0)
                             if "memory_bytes_per_cell_level" in s else "–"])
        out += table(["variant", "grid × levels", "strategy", "instructions per call",
                      "per cell-level", "of which host code between kernels",
                      "simulated memory B per cell-level (--cache-sim)"], rows,
                     ["---", "---", "---", "--:", "--:", "--:", "--:"])
        out.append("")
    return "\n".join(out)


# ---- command line ----------------------------------------------------------------------------


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="granule_benchmark.py", description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build-me",
                        help="build directory with bin/bench_diffusion and bin/count_instructions "
                        "(default build-me); its variant is called 'default'")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=DIR",
                        help="an extra build directory run the same way, labelled NAME "
                        "(repeatable), e.g. mixed=build-mixed")
    parser.add_argument("--grids", type=lambda t: comma_list(t, what="grid"),
                        help="comma-separated generated grids (R2B5) or grid sources (default "
                        "R2B5,R2B6; --quick: R2B2)")
    parser.add_argument("--nlevs", type=lambda t: comma_list(t, int, "level count"),
                        help="comma-separated level counts (default 65,80; --quick: 20)")
    parser.add_argument("--threads", type=lambda t: comma_list(t, int, "thread count"),
                        help="comma-separated OpenMP thread counts (default 1,2)")
    parser.add_argument("--min-time", type=float,
                        help="Google Benchmark's --benchmark_min_time per granule benchmark, in s "
                        "(default 2; --quick: 0.01)")
    parser.add_argument("--calls", type=int,
                        help="calls per strategy of the per-kernel table (default 10; --quick: 2)")
    parser.add_argument("--filter", help="only the bench_diffusion benchmarks matching this "
                        "regular expression (--benchmark_filter)")
    parser.add_argument("--callgrind-grid",
                        help="grid of the instruction counts (default R2B3; --quick: R2B1)")
    parser.add_argument("--callgrind-calls", type=int, default=1,
                        help="measured calls per strategy under callgrind (default 1)")
    parser.add_argument("--callgrind-schedule", default="default",
                        help="loop schedule of the instruction counts (default: each build's "
                             "default, level-chunks with ICON's field layout)")
    parser.add_argument("--callgrind-kblock", default="1",
                        help="level block of the instruction counts (default 1)")
    parser.add_argument("--cache-sim", action="store_true",
                        help="also simulate the caches under callgrind (--cache-sim=yes): per "
                        "kernel the memory bytes (last-level misses x 64 B) and L1-miss bytes per "
                        "cell-level, next to the byte model; use a grid larger than the simulated "
                        "last-level cache (--callgrind-grid R2B5 for 32 MiB)")
    parser.add_argument("--cache-sim-d1", default="32768,8,64",
                        help="simulated L1 data cache: size,associativity,line bytes (default "
                        "32768,8,64)")
    parser.add_argument("--cache-sim-ll", default="33554432,16,64",
                        help="simulated last-level cache: size,associativity,line bytes (default "
                        "33554432,16,64: 32 MiB, 16-way)")
    parser.add_argument("--no-callgrind", action="store_true",
                        help="skip the instruction counts (no valgrind needed)")
    parser.add_argument("--quick", action="store_true",
                        help="tiny grids and short times: a smoke run of the whole command")
    parser.add_argument("--timeout", type=int, default=3600,
                        help="seconds one bench_diffusion or callgrind run may take (default 3600)")
    parser.add_argument("--render", metavar="JSON",
                        help="only write the markdown again from an existing "
                        "granule_benchmark.json (to --out, default: beside the JSON)")
    parser.add_argument("--out", default=None,
                        help="output directory (default granule-benchmark): "
                        "granule_benchmark.json, granule_benchmark.md, logs")
    args = parser.parse_args(argv)
    quick = args.quick
    defaults = {"grids": (["R2B5", "R2B6"], ["R2B2"]), "nlevs": ([65, 80], [20]),
                "threads": ([1, 2], [1, 2]), "min_time": (2.0, 0.01), "calls": (10, 2),
                "callgrind_grid": ("R2B3", "R2B1")}
    for key, (normal, small) in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, small if quick else normal)
    if any(t < 1 for t in args.threads) or any(n < 2 for n in args.nlevs):
        parser.error("--threads must be >= 1 and --nlevs >= 2")
    if args.calls < 1 or args.callgrind_calls < 1 or args.min_time <= 0:
        parser.error("--calls and --callgrind-calls must be >= 1, --min-time > 0")
    if args.cache_sim and args.no_callgrind:
        parser.error("--cache-sim needs callgrind: drop --no-callgrind")
    for option, value in (("--cache-sim-d1", args.cache_sim_d1),
                          ("--cache-sim-ll", args.cache_sim_ll)):
        parts = value.split(",")
        if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
            parser.error(f"{option} {value}: expected size,associativity,line bytes "
                         "(positive integers, e.g. 32768,8,64)")
        if int(parts[2]) != CACHE_LINE_BYTES:
            parser.error(f"{option} {value}: the line size must be {CACHE_LINE_BYTES} bytes")
    variants = [("default", args.build)]
    for v in args.variant:
        name, sep, directory = v.partition("=")
        if not sep or not name or not directory:
            parser.error(f"--variant {v}: expected NAME=DIR")
        if name in [n for n, _ in variants]:
            parser.error(f"--variant {v}: the name {name} is used twice")
        variants.append((name, directory))
    args.variants = variants
    return args


def render(json_path, out_dir):
    try:
        with open(json_path) as f:
            report = json.load(f)
    except (OSError, ValueError) as error:
        raise BenchmarkError(f"cannot read {json_path}: {error}")
    if not isinstance(report, dict) or "cases" not in report or "metadata" not in report:
        raise BenchmarkError(f"{json_path} is not a granule_benchmark.json")
    md_path = os.path.join(out_dir or os.path.dirname(json_path) or ".", "granule_benchmark.md")
    with open(md_path, "w") as f:
        f.write(markdown(report))
        f.write("\n")
    log(f"wrote {md_path}")


def main(argv):
    args = parse_args(argv)
    if args.render:
        try:
            render(args.render, args.out)
        except BenchmarkError as error:
            print(f"granule_benchmark.py: error: {error}", file=sys.stderr)
            return 2
        return 0
    args.out = args.out or "granule-benchmark"
    try:
        check_builds(args.variants, not args.no_callgrind)
        os.makedirs(os.path.join(args.out, "bench"), exist_ok=True)
        meta = {
            "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "command": " ".join(shlex.quote(a) for a in [sys.argv[0]] + argv),
            "commit": git_commit(os.path.dirname(os.path.abspath(__file__))),
            "machine": machine_description(),
            "kernel_order": KERNEL_ORDER,
            "variants": [{"name": n, "build": d} for n, d in args.variants],
            "grids": args.grids, "nlevs": args.nlevs, "threads": args.threads,
            "min_time": args.min_time, "calls": args.calls, "filter": args.filter,
            "omp_environment": {k: v for k, v in os.environ.items()
                                if k.startswith("OMP_") and k != "OMP_NUM_THREADS"},
            "memory_model": {"fixed_bytes": MEMORY_FIXED_BYTES,
                             "bytes_per_cell_level": MEMORY_BYTES_PER_CELL_LEVEL},
            "callgrind": None if args.no_callgrind else {
                "grid": args.callgrind_grid, "calls": args.callgrind_calls,
                "schedule": args.callgrind_schedule, "level_block": args.callgrind_kblock,
                "cache_sim": {"D1": args.cache_sim_d1, "LL": args.cache_sim_ll}
                if args.cache_sim else None}}
        report = {"metadata": meta, "instructions": {}, "cases": []}
        started = time.monotonic()
        if not args.no_callgrind:
            for name, directory in args.variants:
                for nlev in args.nlevs:
                    report["instructions"][f"{name}/{nlev}"] = count_instructions(
                        name, directory, args, nlev, args.out)
        for name, directory in args.variants:
            for grid in args.grids:
                for nlev in args.nlevs:
                    for threads in args.threads:
                        case = run_case(name, directory, grid, nlev, threads, args, args.out)
                        case["calls"] = args.calls
                        report["cases"].append(case)
        meta["seconds"] = round(time.monotonic() - started, 1)
        json_path = os.path.join(args.out, "granule_benchmark.json")
        md_path = os.path.join(args.out, "granule_benchmark.md")
        with open(json_path, "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
        with open(md_path, "w") as f:
            f.write(markdown(report))
            f.write("\n")
    except BenchmarkError as error:
        print(f"granule_benchmark.py: error: {error}", file=sys.stderr)
        return 2
    failed = [c for c in report["cases"] if c["status"] == "failed"]
    failed_counts = [k for k, v in report["instructions"].items() if "error" in v]
    log(f"wrote {json_path} and {md_path} ({meta['seconds']:.0f} s)")
    if failed or failed_counts:
        log(f"{len(failed)} case(s) and {len(failed_counts)} instruction count(s) failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
