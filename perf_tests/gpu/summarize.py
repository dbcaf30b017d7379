#!/usr/bin/env python3
"""The results of one bundle run (perf_tests/gpu/run.sh) as results.json and summary.md.

    summarize.py OUT_DIR --grid SOURCE --nlev N

Reads what the parts left in OUT_DIR (a part that timed out or failed leaves its file missing or
empty; that part is reported as such). Every bandwidth fraction divides by the copy bandwidth of
this run's STREAM (bench_stream's reference, measured on the execution space the kernels run on:
the GPU in a CUDA build), as the GPU goals are stated. Standard library only.
"""
import argparse
import json
import pathlib
import sys


def load_json(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def parts(out):
    rows = []
    path = out / "parts.tsv"
    if path.exists():
        for line in path.read_text().splitlines()[1:]:
            name, status, seconds, budget = line.split("\t")
            rows.append({"part": name, "status": status, "seconds": int(seconds),
                         "budget": int(budget)})
    return rows


def stream(out):
    data = load_json(out / "stream.json")
    if not data:
        return None
    context = data.get("context", {})
    sizes = [{"elements": int(b["name"].split("/")[1]), "triad_GBs": b.get("GB/s")}
             for b in data.get("benchmarks", []) if b["name"].startswith("bench_triad/")]
    return {"space": context.get("stream_space", "?"),
            "copy_GBs": float(context.get("stream_copy_GBs", "nan")),
            "triad_GBs": float(context.get("stream_triad_GBs", "nan")),
            "triad_by_size": sizes}


# The keys gtest writes for every test case; any other key is a value the test recorded
# (RecordProperty), e.g. test_icon_granule_device's time per C API call.
GTEST_CASE_KEYS = {"name", "file", "line", "status", "result", "timestamp", "time", "classname",
                   "failures", "skipped", "value_param", "type_param"}


def tests(out):
    result = {}
    for report in sorted((out / "tests").glob("*.json")):
        data = load_json(report)
        if not data:
            continue
        failed = [f"{suite['name']}.{case['name']}" for suite in data.get("testsuites", [])
                  for case in suite.get("testsuite", []) if case.get("failures")]
        measured = {f"{suite['name']}.{case['name']}": {k: v for k, v in case.items()
                                                         if k not in GTEST_CASE_KEYS}
                    for suite in data.get("testsuites", []) for case in suite.get("testsuite", [])}
        result[report.stem] = {"tests": data.get("tests", 0), "failures": data.get("failures", 0),
                               "errors": data.get("errors", 0),
                               "disabled": data.get("disabled", 0), "failed": failed,
                               "time": data.get("time", ""),
                               "measured": {k: v for k, v in measured.items() if v}}
    for log in sorted((out / "tests").glob("*.log")):
        if log.stem not in result:  # crashed before gtest wrote its report
            result[log.stem] = {"tests": 0, "failures": 0, "errors": 1, "failed": ["(no report: "
                                "crashed or stopped; see tests/" + log.name + ")"]}
    return result


def diffusion(out, copy_gbs):
    data = load_json(out / "bench_diffusion.json")
    if not data:
        return None
    granule, kernels = [], {}
    for b in data.get("benchmarks", []):
        name = b["name"].split("/")
        if name[0] == "bench_granule":
            block = name[3].split(":")[1] if name[3].startswith("kblock:") else "-"
            granule.append({"strategy": name[1], "schedule": name[2],
                            "kblock": block, "median_ms": b["median_ms"],
                            "min_model_GBs": b["min_model_GBs"],
                            "min_model_of_copy": b["min_model_GBs"] / copy_gbs,
                            "kernel_model_GBs": b["kernel_model_GBs"]})
        elif name[0] == "bench_kernels":
            per = {}
            for key, value in b.items():
                if "/" in key:
                    kernel, what = key.split("/")
                    per.setdefault(kernel, {})[what] = value
            for values in per.values():
                if "model_GBs" in values:
                    values["of_copy"] = values["model_GBs"] / copy_gbs
            kernels[name[1]] = per
    best = {}
    for row in granule:
        if row["strategy"] not in best or row["median_ms"] < best[row["strategy"]]["median_ms"]:
            best[row["strategy"]] = row
    ratio = (best["unfused"]["median_ms"] / best["fused"]["median_ms"]
             if "unfused" in best and "fused" in best else None)
    return {"granule": granule, "kernels": kernels, "best": best, "fused_speedup": ratio}


def dycore(out, copy_gbs):
    data = load_json(out / "bench_dycore.json")
    if not data:
        return None
    rows = []
    for b in data.get("benchmarks", []):
        rows.append({"benchmark": b["name"].removesuffix("/real_time"), "label": b.get("label", ""),
                     "median_ms": b["real_time"], "model_GBs": b["model_GBs"],
                     "of_copy": b["model_GBs"] / copy_gbs,
                     "bytes_per_point_level": b["bytes_per_point_level"]})
    return rows


def cli(out):
    """icondiff run's whole-call timer (cli_timers.json, bencher format) and its set-up line."""
    data = load_json(out / "cli_timers.json")
    if not data or "nh_hdiff" not in data:
        return None
    meta = data.get("_metadata", {})
    setup = next((line.split()[1] for line in (out / "cli.log").read_text().splitlines()
                  if line.startswith("setup ")), "?") if (out / "cli.log").exists() else "?"
    return {"grid": meta.get("grid"), "nlev": meta.get("nlev"), "timing": meta.get("timing"),
            "space": meta.get("execution_space"), "setup_s": setup,
            "median_ms": data["nh_hdiff"]["latency"]["value"],
            "calls": data["nh_hdiff"]["num_calls"]["value"]}


def markdown(results):
    lines = [f"# icondiff bundle run: {results['grid']} x {results['nlev']} levels", ""]
    lines += ["```", results["device"].strip(), "```", ""]
    lines += ["| part | status | seconds (budget) |", "|---|---|---|"]
    lines += [f"| {p['part']} | {p['status']} | {p['seconds']} ({p['budget']}) |"
              for p in results["parts"]]
    s = results["stream"]
    lines += [""]
    if s:
        lines += [f"STREAM on {s['space']}: copy {s['copy_GBs']:.1f} GB/s, triad "
                  f"{s['triad_GBs']:.1f} GB/s (every fraction below is of the copy).", ""]
    t = results["tests"]
    if t:
        lines += ["| test program | tests | failures | errors |", "|---|---|---|---|"]
        lines += [f"| {name} | {r['tests']} | {r['failures']} | {r['errors']} |"
                  for name, r in t.items()]
        for name, r in t.items():
            for f in r.get("failed", []):
                lines.append(f"- failed: {name}: {f}")
        for name, r in t.items():
            for case, values in r.get("measured", {}).items():
                lines.append(f"- measured by {case}: " +
                             ", ".join(f"{k} = {v}" for k, v in values.items()))
        lines.append("")
    d = results["diffusion"]
    if d:
        lines += ["Diffusion granule (276 B per cell-level model):", "",
                  "| strategy | schedule | level block | median ms | GB/s | of copy |",
                  "|---|---|---|---|---|---|"]
        lines += [f"| {r['strategy']} | {r['schedule']} | {r['kblock']} | {r['median_ms']:.3f} | "
                  f"{r['min_model_GBs']:.1f} | {100 * r['min_model_of_copy']:.0f} % |"
                  for r in d["granule"]]
        if d["fused_speedup"]:
            lines += ["", f"Best fused vs best unfused: {d['fused_speedup']:.2f}x", ""]
        for strategy, per in d["kernels"].items():
            lines += [f"Kernels, {strategy} (fenced each):", "",
                      "| kernel | median ms | GB/s | of copy |", "|---|---|---|---|"]
            lines += [f"| {k} | {v.get('median_ms', 0):.4f} | {v.get('model_GBs', 0):.1f} | "
                      f"{100 * v.get('of_copy', 0):.0f} % |" for k, v in sorted(per.items())]
            lines.append("")
    y = results["dycore"]
    if y:
        lines += ["Dycore programs:", "", "| benchmark | median ms | GB/s | of copy |",
                  "|---|---|---|---|"]
        lines += [f"| {r['benchmark']} ({r['label']}) | {r['median_ms']:.3f} | "
                  f"{r['model_GBs']:.1f} | {100 * r['of_copy']:.0f} % |" for r in y]
    c = results.get("cli")
    if c:
        lines += ["", f"icondiff run on {c['grid']} x {c['nlev']} ({c['space']}, --timing "
                  f"{c['timing']}): nh_hdiff {c['median_ms']:.3f} ms median of {c['calls']} calls; "
                  f"set-up {c['setup_s']} s (host)."]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--grid", required=True)
    parser.add_argument("--nlev", type=int, required=True)
    args = parser.parse_args()
    out = args.out
    device = (out / "device.txt").read_text() if (out / "device.txt").exists() else "(unknown)"
    s = stream(out)
    copy_gbs = s["copy_GBs"] if s and s["copy_GBs"] > 0 else float("nan")
    results = {"grid": args.grid, "nlev": args.nlev, "device": device, "parts": parts(out),
               "stream": s, "tests": tests(out), "diffusion": diffusion(out, copy_gbs),
               "dycore": dycore(out, copy_gbs), "cli": cli(out)}
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    (out / "summary.md").write_text(markdown(results))
    print(f"[summarize] {out / 'summary.md'}, {out / 'results.json'}", file=sys.stderr)
    failed = sum(r["failures"] + r["errors"] for r in results["tests"].values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
