#!/usr/bin/env python3
"""CI's closing report: where the time of one `.ci/run` went, and its time guard.

Reads the timings the CI steps recorded (scripts/ci_timing.sh: kind, label, seconds, step;
tab-separated) and prints, on stdout:
  - each step's wall time, and inside it every build and ctest run;
  - the slowest tests over all ctest runs (ctest's own timing);
  - the total.
With --guard SECONDS it exits 1 when the total passes that limit, naming the slowest step and its
slowest parts, so that a submission drifting towards CI's 90-minute limit is caught by its author
while it still lands (docs/dev/testing.md, "Where CI's time goes").

    scripts/ci_report.py TIMINGS --total SECONDS [--guard SECONDS] [--slowest N] [--markdown]
"""
import argparse
import sys
from collections import defaultdict


def read_timings(path):
    """Rows (kind, label, seconds, step) in the order they were recorded."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 4:
                raise SystemExit(f"{path}:{number}: expected 4 tab-separated fields, got {line!r}")
            kind, label, seconds, step = fields
            rows.append((kind, label, float(seconds), step))
    return rows


def minutes(seconds):
    return f"{seconds:.0f} s ({seconds / 60:.1f} min)"


def report(rows, total, slowest, markdown):
    steps = [(label, s) for kind, label, s, _ in rows if kind == "step"]
    parts = defaultdict(list)  # step -> [(kind, label, seconds)]
    for kind, label, s, step in rows:
        if kind in ("build", "ctest"):
            parts[step].append((kind, label, s))
    tests = sorted(((s, label) for kind, label, s, _ in rows if kind == "test"), reverse=True)
    out = []
    if markdown:
        out += ["| step | part | seconds |", "|---|---|--:|"]
        for step, s in steps:
            out.append(f"| **{step}** | | **{s:.0f}** |")
            out += [f"| | {kind} {label} | {ps:.0f} |" for kind, label, ps in parts[step]]
        out.append(f"| **total** | | **{total:.0f}** |")
        out += ["", f"| slowest tests | seconds |", "|---|--:|"]
        out += [f"| {label} | {s:.1f} |" for s, label in tests[:slowest]]
    else:
        out.append("[ci] where the time went:")
        for step, s in steps:
            out.append(f"[ci]   {step:<12} {minutes(s)}")
            out += [f"[ci]       {kind} {label:<28} {ps:6.0f} s" for kind, label, ps in parts[step]]
        if tests:
            out.append(f"[ci] slowest tests (ctest's timing, of {len(tests)}):")
            out += [f"[ci]   {s:7.1f} s  {label}" for s, label in tests[:slowest]]
        out.append(f"[ci] total {minutes(total)}")
    print("\n".join(out))
    return steps, parts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("timings", help="the file the steps recorded into (ICONDIFF_TIMINGS)")
    parser.add_argument("--total", type=float, required=True, help="the run's wall time, seconds")
    parser.add_argument("--guard", type=float, help="fail when the total passes this, seconds")
    parser.add_argument("--slowest", type=int, default=15, help="how many tests to list")
    parser.add_argument("--markdown", action="store_true", help="tables for docs/dev/testing.md")
    args = parser.parse_args()
    rows = read_timings(args.timings)
    steps, parts = report(rows, args.total, args.slowest, args.markdown)
    if args.guard is not None and args.total > args.guard:
        name, seconds = max(steps, key=lambda item: item[1]) if steps else ("(none recorded)", 0)
        worst = sorted(parts.get(name, []), key=lambda p: p[2], reverse=True)[:3]
        detail = ", ".join(f"{kind} {label} {s:.0f} s" for kind, label, s in worst)
        print(f"[ci] FAILED: the run took {minutes(args.total)}, over the guard of "
              f"{minutes(args.guard)} (CI stops at 90 minutes). The slowest step is '{name}' "
              f"with {minutes(seconds)}" + (f" ({detail})" if detail else "") +
              ". Make it faster before submitting (docs/dev/testing.md, \"Where CI's time goes\").",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
