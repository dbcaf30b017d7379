#!/usr/bin/env bash
# Builds icondiff's libFuzzer harnesses (fuzz/, with clang) and runs each for a while from a copy
# of its seed corpus (fuzz/corpus/<harness>/) in a scratch folder: the repository is never
# written to. Exits non-zero on any finding (crash, sanitizer report, leak, timeout, out of
# memory) and prints, per harness, the executions done. docs/dev/fuzzing.md explains it all.
#
#   scripts/fuzz.sh [--seconds N | --runs N] [--only H[,H...]] [--build-dir DIR]
#                   [--artifacts DIR] [--keep-corpus DIR] [--jobs N] [--parallel N] [--no-build]
#
#   --seconds N       run each harness N seconds (default 60; what CI runs)
#   --runs N          run each harness for N inputs instead
#   --only H,...      only these harnesses (grid_file, savepoint_file, run_config, partition_file,
#                     capi_static, capi_solve_nh)
#   --build-dir DIR   build folder (default: build-fuzz)
#   --artifacts DIR   where the inputs of findings go (default: <build-dir>/fuzz-artifacts)
#   --keep-corpus DIR copy each harness's grown corpus to DIR/<harness>/ at the end
#   --jobs N          parallel compile jobs (default: nproc)
#   --parallel N      harnesses fuzzed at once (default: nproc; each one process on one core)
#   --no-build        use the harnesses already built in the build folder
#
# Environment: ICONDIFF_SKIP_APT=1 (do not install clang/libFuzzer/libomp), CXX_FUZZ (the clang++
# to use, default clang++-15; then nothing is installed), ICONDIFF_FUZZ_RSS_MB (default 2048),
# ICONDIFF_FUZZ_TIMEOUT_S (seconds one input may take, default 10), and whatever
# scripts/bootstrap.sh takes (Kokkos_ROOT, ...).
#
# Why clang 15 (Debian 12 has 14 and 15): Kokkos' OpenMP backend needs clang's OpenMP runtime,
# and Debian's libomp-14-dev and libomp-15-dev exclude each other; the HIP build
# (scripts/ci_backends.sh, hipcc = clang 15) needs libomp-15-dev, so fuzzing uses it too.
set -euo pipefail

log() { echo "[fuzz] $*" >&2; }
die() {
  echo "[fuzz] error: $*" >&2
  exit 2
}

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/ci_timing.sh
source "$repo/scripts/ci_timing.sh"
all_harnesses=(grid_file savepoint_file run_config partition_file capi_static capi_solve_nh)
seconds=60
runs=""
only=""
build_dir="$repo/build-fuzz"
artifacts=""
keep_corpus=""
jobs=$(nproc)
parallel=$(nproc)
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; runs=""; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --artifacts) artifacts=$2; shift 2 ;;
    --keep-corpus) keep_corpus=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --parallel) parallel=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ "$seconds" =~ ^[0-9]+$ ]] || die "--seconds takes a whole number, not '$seconds'"
[ -z "$runs" ] || [[ "$runs" =~ ^[0-9]+$ ]] || die "--runs takes a whole number, not '$runs'"
[[ "$parallel" =~ ^[1-9][0-9]*$ ]] || die "--parallel takes a positive whole number, not '$parallel'"
case "$build_dir" in /*) ;; *) build_dir="$PWD/$build_dir" ;; esac
artifacts=${artifacts:-$build_dir/fuzz-artifacts}
harnesses=("${all_harnesses[@]}")
if [ -n "$only" ]; then
  IFS=, read -r -a harnesses <<<"$only"
  for h in "${harnesses[@]}"; do
    [[ " ${all_harnesses[*]} " == *" $h "* ]] || die "unknown harness '$h' (${all_harnesses[*]})"
  done
fi

# ---- clang, libFuzzer (in libclang-common-15-dev) and the LLVM OpenMP runtime (Debian 12) -------
cxx=${CXX_FUZZ:-clang++-15}
if [ "$build" = 1 ]; then
  packages=(clang-15 libclang-common-15-dev libomp-15-dev)
  missing=()
  for p in "${packages[@]}"; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" = installed ] ||
      missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ] && [ -z "${CXX_FUZZ:-}" ]; then
    if [ "${ICONDIFF_SKIP_APT:-0}" = 1 ]; then
      log "ICONDIFF_SKIP_APT=1: not installing ${missing[*]}"
    else
      sudo_cmd=()
      if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null && sudo -n true 2>/dev/null ||
          die "missing Debian packages and no root: sudo apt-get install -y ${missing[*]}"
        sudo_cmd=(sudo -n)
      fi
      log "installing ${missing[*]}"
      apt_install() {
        DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q \
          --no-install-recommends "${missing[@]}" >&2
      }
      apt_install || {
        DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get update -q >&2
        apt_install || die "apt-get install ${missing[*]} failed"
      }
    fi
  fi
  command -v "$cxx" >/dev/null || die "no $cxx (apt-get install ${packages[*]})"

  # ---- Build: the icondiff library instrumented, and the three harnesses -----------------------
  eval "$("$repo/scripts/bootstrap.sh")"
  generator=()
  if [ ! -f "$build_dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then
    generator=(-G Ninja)
  fi
  log "configuring $build_dir ($cxx)"
  cmake -S "$repo/fuzz" -B "$build_dir" "${generator[@]}" -DCMAKE_CXX_COMPILER="$cxx" >&2
  targets=()
  for h in "${harnesses[@]}"; do targets+=("fuzz_$h"); done
  log "building ${targets[*]} (-j $jobs)"
  timed_build fuzz cmake --build "$build_dir" -j "$jobs" --target "${targets[@]}" >&2
fi

# ---- Seed netCDF files: made by icondiff itself, never stored in the repository ----------------
# The grid and savepoint harnesses start from small valid files (fuzz/corpus/<harness>/*.nc, read
# by the harnesses at start-up; git ignores them). They are written here with the icondiff command
# (ICONDIFF_CLI, else build-tests/ or build/, else built into <build-dir>/seed-cli) and nccopy.
make_seeds() {
  local cli=${ICONDIFF_CLI:-}
  for c in "$cli" "$repo/build-tests/bin/icondiff" "$repo/build/bin/icondiff"; do
    if [ -n "$c" ] && [ -x "$c" ]; then cli=$c; break; fi
  done
  if [ -z "$cli" ] || [ ! -x "$cli" ]; then
    log "building the icondiff command for the seed files ($build_dir/seed-cli)"
    eval "$("$repo/scripts/bootstrap.sh")"
    cmake -S "$repo" -B "$build_dir/seed-cli" -DICONDIFF_ENABLE_MPI=ON >&2
    timed_build fuzz-seed-cli cmake --build "$build_dir/seed-cli" -j "$jobs" --target icondiff_cli >&2
    cli="$build_dir/seed-cli/bin/icondiff"
  fi
  local g="$repo/fuzz/corpus/grid_file" s="$repo/fuzz/corpus/savepoint_file" t
  t=$(mktemp -d)
  export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
  "$cli" grid-info --grid generate:R1B0 --write "$t/r1b0.nc" >/dev/null
  "$cli" grid-info --grid generate:R2B0/cap:0,0,50 --write "$t/cap.nc" >/dev/null
  nccopy -k 64-bit-offset "$t/r1b0.nc" "$g/r1b0_offset64.nc"
  nccopy -k cdf5 "$t/r1b0.nc" "$g/r1b0_cdf5.nc"
  nccopy -k 64-bit-offset "$t/cap.nc" "$g/r2b0_cap_offset64.nc"
  nccopy -k classic "$t/cap.nc" "$g/r2b0_cap_classic.nc"
  "$cli" run --model diffusion --generate R1B0 --nlev 2 --steps 1 --quiet --savepoints "$t/one" >/dev/null
  nccopy -k 64-bit-offset "$t/one/diffusion-init.nc" "$s/r1b0_init.nc"
  nccopy -k 64-bit-offset "$t/one/diffusion-exit.nc" "$s/r1b0_exit.nc"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 --oversubscribe \
    "$cli" run --model diffusion --generate R1B0 --nlev 2 --steps 1 --quiet --savepoints "$t/two" >/dev/null
  nccopy -k 64-bit-offset "$t/two/diffusion-init.rank0.nc" "$s/r1b0_init_rank0_of_2.nc"
  nccopy -k cdf5 "$t/two/diffusion-exit.rank1.nc" "$s/r1b0_exit_rank1_of_2_cdf5.nc"
  rm -rf "$t"
}
# Only the grid and savepoint harnesses read them.
if [[ " ${harnesses[*]} " == *" grid_file "* || " ${harnesses[*]} " == *" savepoint_file "* ]]; then
  make_seeds
fi

# ---- Run ---------------------------------------------------------------------------------------
scratch_root=/dev/shm
[ -d "$scratch_root" ] && [ -w "$scratch_root" ] || scratch_root=${TMPDIR:-/tmp}
scratch=$(mktemp -d "$scratch_root/icondiff-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$artifacts"

# Sanitizer defaults are compiled into the harnesses (fuzz/fuzz_support.cpp); one OpenMP thread.
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false

budget=$([ -n "$runs" ] && echo "-runs=$runs" || echo "-max_total_time=$seconds")
# One harness: fuzzes in its own scratch folder, then leaves its summary line in
# $scratch/<h>.summary and, on a finding, its name in $scratch/<h>.finding.
run_harness() {
  local h=$1 binary="$build_dir/bin/fuzz_$h" corpus="$scratch/corpus/$h" output="$scratch/$h.log"
  mkdir -p "$corpus" "$scratch/files/$h" "$artifacts/$h"
  cp "$repo/fuzz/corpus/$h/"* "$corpus/"
  local options=("$budget" -rss_limit_mb="${ICONDIFF_FUZZ_RSS_MB:-2048}"
    -timeout="${ICONDIFF_FUZZ_TIMEOUT_S:-10}" -print_final_stats=1
    -artifact_prefix="$artifacts/$h/")
  [ -f "$repo/fuzz/$h.dict" ] && options+=(-dict="$repo/fuzz/$h.dict")
  log "fuzz_$h ${options[*]} (log: $artifacts/$h.log)"
  local status=0
  (cd "$scratch/files/$h" && ICONDIFF_FUZZ_SCRATCH="$scratch/files/$h" "$binary" "${options[@]}" \
    "$corpus") >"$output" 2>&1 || status=$?
  cp "$output" "$artifacts/$h.log"
  # libFuzzer's last words: "Done N runs in S second(s)", the final stats and the last status line.
  local done_line executions rate coverage line
  done_line=$(grep -E '^Done [0-9]+ runs' "$output" | tail -n 1 || true)
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$output" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$output" | tail -n 1)
  coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' "$output" | tail -n 1 || true)
  line=$(printf '%-15s %12s executions %8s exec/s  %s' "$h" "${executions:-?}" "${rate:-?}" "$coverage")
  if [ "$status" -ne 0 ] || [ -z "$done_line" ]; then
    line="$line  FINDING (exit $status)"
    touch "$scratch/$h.finding"
    { grep -E 'ERROR: |FINDING|SUMMARY|Test unit written|runtime error' "$output" | head -n 20 || true
      tail -n 40 "$output"; } >"$scratch/$h.report"
  fi
  echo "$line" >"$scratch/$h.summary"
  if [ -n "$keep_corpus" ]; then
    mkdir -p "$keep_corpus/$h"
    cp "$corpus/"* "$keep_corpus/$h/"
  fi
}
for h in "${harnesses[@]}"; do
  [ -x "$build_dir/bin/fuzz_$h" ] || die "$build_dir/bin/fuzz_$h is missing (build without --no-build)"
done
# libFuzzer runs one process on one core: --parallel harnesses at once (default: one per core)
# keep every core busy, each harness still fuzzing its full budget.
for h in "${harnesses[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  run_harness "$h" &
done
wait
failed=()
summary=()
for h in "${harnesses[@]}"; do
  summary+=("$(cat "$scratch/$h.summary" 2>/dev/null || echo "$h  no summary (the harness run died)")")
  if [ -f "$scratch/$h.finding" ] || [ ! -f "$scratch/$h.summary" ]; then
    failed+=("$h")
    echo "---- fuzz_$h:" >&2
    cat "$scratch/$h.report" >&2 2>/dev/null || true
  fi
done

echo "harness           executions (exec/s, coverage at the end)"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "findings in: ${failed[*]} (inputs and logs in $artifacts)"
  exit 1
fi
echo "no findings"
