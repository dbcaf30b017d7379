#!/usr/bin/env bash
# Run an icondiff bundle (perf_tests/gpu/make_bundle.sh) on this machine: needs only this folder,
# bash, coreutils and (for the GPU) the driver; no network, no build tree, no LD_LIBRARY_PATH.
# Every program starts through the bundle's own loader with the bundle's libraries only.
#
#   BUNDLE/run.sh OUT_DIR [--quick] [--grid SOURCE] [--nlev N] [--budget-scale F] [--tests GLOB]
#
#   OUT_DIR         created (refused if it exists and is not empty); gets device.txt, libraries.txt,
#                   stream.json, tests/<program>.{json,log}, bench_diffusion.json,
#                   bench_dycore.json, cli.log, cli_timers.json, parts.tsv (part, status,
#                   seconds), results.json, summary.md
#   --quick         the smoke run (CI's CPU twin): generate:R2B3 x 20 levels, short budgets
#   --grid, --nlev  the benchmarks' grid and levels (default generate:R2B6 x 80)
#   --budget-scale  multiply every part's time budget (default 1)
#   --tests GLOB    the unit test programs to run (default test_*: all; CI's CPU twin runs two, as
#                   the test command has run them all: the twin proves the bundle runs alone)
#
# Parts and their budgets in seconds (full run; the sum, 480 s, stays under 8 minutes with the
# summary): device 10, libraries 20, stream 40, tests 160, bench_diffusion 120, bench_dycore 90,
# cli 40 (`icondiff run`, whole calls timed, on generate:R2B5 x 65: its set-up is host code).
# A part that overruns its budget is stopped (SIGTERM, SIGKILL 5 s later), recorded as
# "timeout", and the run goes on with the next part, keeping everything that finished.
# Exit status: 0 when every part passed, 1 otherwise (the outputs are written either way).
set -uo pipefail
# shellcheck disable=SC2317  # the part functions run through `bash -c` (exported), not inline
bundle=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
log() { echo "[run] $*" >&2; }
die() { echo "[run] error: $*" >&2; exit 2; }

out="" quick=0 grid="generate:R2B6" nlev=80 scale=1 tests_glob="test_*"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; grid="generate:R2B3"; nlev=20; shift ;;
    --grid) grid=${2:?--grid needs a grid source}; shift 2 ;;
    --nlev) nlev=${2:?--nlev needs a number}; shift 2 ;;
    --budget-scale) scale=${2:?--budget-scale needs a number}; shift 2 ;;
    --tests) tests_glob=${2:?--tests needs a pattern}; shift 2 ;;
    -h|--help) sed -n '2,22p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) [ -z "$out" ] || die "one OUT_DIR only (got '$out' and '$1')"; out=$1; shift ;;
  esac
done
[ -n "$out" ] || die "OUT_DIR is required (see --help)"
[[ "$nlev" =~ ^[0-9]+$ ]] && [ "$nlev" -ge 3 ] || die "--nlev $nlev: expected a number >= 3"
[[ "$scale" =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--budget-scale $scale: expected a positive number"
[ -f "$bundle/MANIFEST.json" ] && [ -x "$bundle/lib/ld-linux-x86-64.so.2" ] ||
  die "$bundle is not a complete bundle (no MANIFEST.json or loader)"
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  die "$out exists and is not empty: give a new folder"
fi
mkdir -p "$out/tests" "$out/scratch" || die "cannot create $out"
out=$(cd "$out" && pwd)
category=$(sed -n 's/.*"category": "\([A-Z]*\)".*/\1/p' "$bundle/MANIFEST.json" | head -n 1)

# The budgets (seconds), scaled; the quick run's are shorter.
if [ $quick = 1 ]; then
  declare -A budget=([device]=10 [libraries]=20 [stream]=20 [tests]=240 [bench_diffusion]=40 [bench_dycore]=30 [cli]=30)
  cli_grid=$grid cli_nlev=$nlev
  min_time=0.01
else
  declare -A budget=([device]=10 [libraries]=20 [stream]=40 [tests]=160 [bench_diffusion]=120 [bench_dycore]=90 [cli]=40)
  cli_grid=generate:R2B5 cli_nlev=65
  min_time=0.05
fi
for part in "${!budget[@]}"; do
  budget[$part]=$(awk -v b="${budget[$part]}" -v s="$scale" 'BEGIN { printf "%d", b * s + 0.5 }')
done

# A bundled program through the bundled loader, with the environment the run sets.
export ICONDIFF_TEST_SCRATCH_DIR="$out/scratch"
export ICONDIFF_GRID_DIR="$bundle/grids"  # none bundled: the tests use generated grids
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}
program() {
  local name=$1
  shift
  "$bundle/lib/ld-linux-x86-64.so.2" --library-path "$bundle/lib" "$bundle/bin/$name" "$@"
}

printf 'part\tstatus\tseconds\tbudget\n' >"$out/parts.tsv"
failed=0
# run_part NAME COMMAND...: the command under the part's budget; records status and time.
run_part() {
  local part=$1 start=$SECONDS status
  shift
  log "$part (budget ${budget[$part]} s)"
  # timeout runs a program, not a function: a bash that has the exported functions runs it; it
  # signals its whole process group, so the programs the part started stop too.
  timeout --signal=TERM --kill-after=5 "${budget[$part]}" bash -c '"$@"' part "$@"
  local rc=$?
  case $rc in
    0) status=passed ;;
    124|137) status=timeout ;;
    *) status="failed($rc)" ;;
  esac
  [ "$status" = passed ] || failed=1
  printf '%s\t%s\t%d\t%d\n' "$part" "$status" $((SECONDS - start)) "${budget[$part]}" >>"$out/parts.tsv"
  log "$part: $status in $((SECONDS - start)) s"
}

device_part() {
  {
    echo "bundle: $bundle (category $category)"
    echo "host: $(uname -srm)"
    if command -v nvidia-smi >/dev/null 2>&1; then
      nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap,clocks.max.memory \
        --format=csv 2>&1
    elif command -v rocm-smi >/dev/null 2>&1; then
      rocm-smi --showproductname 2>&1
    else
      echo "no nvidia-smi or rocm-smi: CPU only"
    fi
    grep -m 1 "model name" /proc/cpuinfo 2>/dev/null
    echo "cpus: $(nproc)"
  } >"$out/device.txt"
  cat "$out/device.txt" >&2
}

# Every library every program loads comes from the bundle (the GPU driver's excepted): the proof
# that the bundle is complete, on this machine.
libraries_part() {
  local outside=0 p
  : >"$out/libraries.txt"
  for p in "$bundle"/bin/*; do
    "$bundle/lib/ld-linux-x86-64.so.2" --library-path "$bundle/lib" --list "$p" >"$out/list.tmp" 2>&1 ||
      { echo "$(basename "$p"): the loader cannot resolve it:" >>"$out/libraries.txt"; cat "$out/list.tmp" >>"$out/libraries.txt"; outside=1; continue; }
    while read -r name arrow path _; do
      [ "$arrow" = "=>" ] || continue
      case "$name" in libcuda.so*|libnvidia-*) continue ;; esac
      case "$path" in
        "$bundle"/lib/*) ;;
        *) echo "$(basename "$p"): $name from $path, outside the bundle" >>"$out/libraries.txt"; outside=1 ;;
      esac
    done <"$out/list.tmp"
  done
  rm -f "$out/list.tmp"
  [ $outside = 0 ] && echo "every library of every program resolves inside the bundle" >>"$out/libraries.txt"
  cat "$out/libraries.txt" >&2
  return $outside
}

stream_part() {
  program bench_stream --benchmark_format=json --benchmark_out="$out/stream.json" \
    --benchmark_out_format=json --benchmark_min_time="$min_time" >"$out/stream.log" 2>&1
}

# Each unit test program with the time left in the part; gtest's JSON report per program.
tests_part() {
  local deadline=$((SECONDS + tests_budget - 5)) rc=0 t name left ran=0
  # shellcheck disable=SC2231  # the pattern is the user's glob
  for t in "$bundle"/bin/$tests_glob; do
    [ -x "$t" ] || continue
    ran=$((ran + 1))
    name=$(basename "$t")
    left=$((deadline - SECONDS))
    if [ $left -le 0 ]; then
      echo "$name: not run (the part's budget is spent)" >>"$out/tests/not_run.txt"
      rc=1
      continue
    fi
    timeout --signal=TERM --kill-after=5 "$left" \
      "$bundle/lib/ld-linux-x86-64.so.2" --library-path "$bundle/lib" "$t" \
      --gtest_output="json:$out/tests/$name.json" >"$out/tests/$name.log" 2>&1
    local code=$?
    [ $code = 0 ] || { rc=1; log "  $name: exit $code (tests/$name.log)"; }
  done
  [ $ran -gt 0 ] || { log "  no unit test program matches --tests '$tests_glob'"; rc=1; }
  return $rc
}

bench_part() {
  local name=$1
  ICONDIFF_BENCH_GRID="$grid" ICONDIFF_BENCH_NLEV="$nlev" ICONDIFF_BENCH_CALLS=5 \
    program "$name" --benchmark_format=json --benchmark_out="$out/$name.json" \
    --benchmark_out_format=json --benchmark_min_time="$min_time" >"$out/$name.log" 2>&1
}

# The main job end to end on the device: set-up, calls timed whole (one fence per call, as a
# GPU user runs it), the timer report as JSON.
cli_part() {
  program icondiff run --model diffusion --grid "$cli_grid" --nlev "$cli_nlev" --steps 6 --timing calls \
    --timers "$out/cli_timers.json" >"$out/cli.log" 2>&1
}

export -f log program device_part libraries_part stream_part tests_part bench_part cli_part
export bundle out category grid nlev min_time cli_grid cli_nlev tests_glob
export tests_budget=${budget[tests]}
start=$SECONDS
log "bundle $bundle ($category), grid $grid x $nlev, output $out"
run_part device device_part
run_part libraries libraries_part
run_part stream stream_part
run_part tests tests_part
run_part bench_diffusion bench_part bench_diffusion
run_part bench_dycore bench_part bench_dycore
run_part cli cli_part
if command -v python3 >/dev/null 2>&1; then
  python3 "$bundle/summarize.py" "$out" --grid "$grid" --nlev "$nlev" || failed=1
else
  log "no python3: results.json and summary.md not written (the raw outputs are in $out)"
fi
log "done in $((SECONDS - start)) s: $( [ $failed = 0 ] && echo 'every part passed' || echo 'some parts failed (parts.tsv)')"
exit $failed
