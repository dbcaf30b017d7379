#!/usr/bin/env bash
# What a solve_nh call costs from Fortran: bench_fortran_solve_nh on a tiny grid (where the call's
# overhead dominates), R2B4 x 65 and R2B5 x 65, 5 substeps per physics step (ICON's
# ndyn_substeps), OpenMP with all cores. Prints a markdown table (docs/user/fortran.md quotes it)
# and writes the JSON records to OUT.jsonl when OUT is given.
# usage: perf_tests/fortran/bench_fortran_solve_nh.sh BUILD_DIR [OUT]
#        perf_tests/fortran/bench_fortran_solve_nh.sh --table RECORDS.jsonl (the table of records)
#   ICON4PY_BENCH=EXE adds the same benchmark linked against ICON4Py's own bindings, once per
#   backend in ICON4PY_BACKENDS (default "1 2": dace, gtfn); perf_tests/peers/icon4py/
#   fortran_race.sh builds it and sets both. BENCH_SOLVE_NH_CASES: the cases, "GRID NLEV CALLS"
#   separated by commas (default below); ICON4PY_SOLVE_NH_CASES: the grids ICON4Py runs on
#   (default: all of them).
set -euo pipefail
build=$1
out=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
if [[ $build == --table ]]; then
  cp "$out" "$work/records.jsonl"
  cases=()
  out=
else
  IFS=, read -r -a cases <<<"${BENCH_SOLVE_NH_CASES:-generate:R2B0 10 100,generate:R2B4 65 20,generate:R2B5 65 10}"
  # One record with the process's wall time (set-up of the case and the C++ reference included).
  run() {  # run NAME EXE ARGS...
    local name=$1 start end
    shift
    start=$(date +%s.%N)
    if "$@" 2>"$work/run.log" | tail -1 >"$work/record.json" && grep -q '^{' "$work/record.json"; then
      end=$(date +%s.%N)
      sed "s/}\$/, \"process_s\": $(awk "BEGIN { printf \"%.3f\", $end - $start }")}/" "$work/record.json" >>"$work/records.jsonl"
    else
      echo "$name failed on $grid:" >&2
      tail -20 "$work/run.log" >&2
      cat "$work/record.json" >&2
    fi
  }
  for c in "${cases[@]}"; do
    read -r grid nlev calls <<<"$c"
    run icondiff "$build/bin/bench_fortran_solve_nh" "$grid" "$nlev" "$calls" icondiff
    if [[ -n "${ICON4PY_BENCH:-}" && " ${ICON4PY_SOLVE_NH_CASES:-$grid} " == *" $grid "* ]]; then
      for backend in ${ICON4PY_BACKENDS:-1 2}; do
        name=$([[ $backend == 1 ]] && echo "ICON4Py (dace)" || echo "ICON4Py (gtfn)")
        icon4py_calls=$((calls > 100 ? 100 : calls))
        run "$name" "$ICON4PY_BENCH" "$grid" "$nlev" "$icon4py_calls" "$name" "$backend"
      done
    fi
  done
fi
[[ -n "$out" ]] && cp "$work/records.jsonl" "$out.jsonl"
/usr/bin/python3 - "$work/records.jsonl" "$OMP_NUM_THREADS" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1]) if line.strip().startswith("{")]
def t(s):  # seconds, in a readable unit
    if s != s: return "nan"
    if s >= 10: return f"{s:.0f} s"
    if s >= 1: return f"{s:.2f} s"
    if s >= 1e-3: return f"{s * 1e3:.3g} ms"
    return f"{s * 1e6:.3g} µs"
print(f"OpenMP, {sys.argv[2]} threads; {records[0]['substeps'] if records else 5} substeps per physics step; "
      "per call: median and minimum over the substeps after the initial step")
print()
print("| grid | implementation | grid_init | solve_nh_init | first call | call, median (min) | outputs vs C++ granule (max rel. diff.) | process (all set-up included) |")
print("|---|---|---|---|---|---|---|---|")
for r in records:
    row = [f'{r["grid"].replace("generate:", "")} × {r["nlev"]} ({r["cells"]} cells)',
           r["implementation"] + (f' ({r["note"]})' if "note" in r else ""),
           t(r["grid_init_s"]), t(r["solve_nh_init_s"]), t(r["first_call_s"]),
           f'{t(r["dropin_median_s"])} ({t(r["dropin_min_s"])}), {r["calls"]} calls',
           "bit-identical" if r["max_relative_difference"] == 0 else "not compared" if r["max_relative_difference"] < 0 else f'{r["max_relative_difference"]:.1e}',
           t(r["process_s"]) if "process_s" in r else "-"]
    print("| " + " | ".join(row) + " |")
PY
