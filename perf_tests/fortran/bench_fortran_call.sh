#!/usr/bin/env bash
# What a diffusion call costs from Fortran: bench_fortran_call on a tiny grid (where the call's
# overhead dominates), R2B4 x 65 and R2B5 x 65, OpenMP with all cores. Prints a markdown table
# (docs/user/fortran.md quotes it) and writes the JSON records to OUT.jsonl when OUT is given.
# usage: perf_tests/fortran/bench_fortran_call.sh BUILD_DIR [OUT]
#   ICON4PY_BENCH=EXE adds the same benchmark linked against ICON4Py's own bindings, once per
#   backend in ICON4PY_BACKENDS (default "1 2": dace, gtfn); perf_tests/peers/icon4py/
#   fortran_race.sh builds it and sets both.
set -euo pipefail
build=$1
out=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
cases=("generate:R2B0 10 2000" "generate:R2B4 65 20" "generate:R2B5 65 10")
for c in "${cases[@]}"; do
  read -r grid nlev calls <<<"$c"
  "$build/bin/bench_fortran_call" "$grid" "$nlev" "$calls" icondiff | tail -1 >>"$work/records.jsonl"
  if [[ -n "${ICON4PY_BENCH:-}" ]]; then
    for backend in ${ICON4PY_BACKENDS:-1 2}; do
      name=$([[ $backend == 1 ]] && echo "ICON4Py (dace)" || echo "ICON4Py (gtfn)")
      icon4py_calls=$((calls > 200 ? 200 : calls))  # a few ms per call: 200 are plenty
      "$ICON4PY_BENCH" "$grid" "$nlev" "$icon4py_calls" "$name" "$backend" 2>"$work/icon4py.log" |
        tail -1 >>"$work/records.jsonl" ||
        { echo "ICON4Py's bindings failed on $grid (backend $backend):" >&2; tail -5 "$work/icon4py.log" >&2; }
    done
  fi
done
[[ -n "$out" ]] && cp "$work/records.jsonl" "$out.jsonl"
/usr/bin/python3 - "$work/records.jsonl" "$OMP_NUM_THREADS" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1]) if line.strip().startswith("{")]
us = lambda s: f"{s * 1e6:.1f}"
ms = lambda s: f"{s * 1e3:.3f}"
print(f"OpenMP, {sys.argv[2]} threads; per call: median over the timed calls (µs on the tiny grid, ms otherwise)")
print()
print("| grid | implementation | grid_init | diffusion_init | first call | call (median) | call (min) | outputs vs C++ path (max rel. diff.) | icondiff module call | C++ API call | host overhead: drop-in | host overhead: C++ |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in records:
    tiny = r["cells"] < 1000
    t = us if tiny else ms
    unit = "µs" if tiny else "ms"
    row = [f'{r["grid"].replace("generate:", "")} × {r["nlev"]} ({r["cells"]} cells)', r["implementation"],
           f'{r["grid_init_s"]:.3g} s', f'{r["diffusion_init_s"]:.3g} s', f'{t(r["first_call_s"])} {unit}',
           f'{t(r["dropin_median_s"])} {unit}', f'{t(r["dropin_min_s"])} {unit}',
           "bit-identical" if r["max_relative_difference"] == 0 else f'{r["max_relative_difference"]:.1e}']
    if "cpp_median_s" in r:
        row += [f'{t(r["module_median_s"])} {unit}', f'{t(r["cpp_median_s"])} {unit}',
                f'{us(r["host_overhead_median_s"])} µs ({100 * r["host_overhead_median_s"] / r["dropin_median_s"]:.2f} %)',
                f'{us(r["cpp_host_overhead_median_s"])} µs']
    else:
        row += ["-"] * 4
    print("| " + " | ".join(row) + " |")
PY
