#!/usr/bin/env bash
# icondiff vs ICON4Py in one command: sets up the pinned ICON4Py venv (setup_venv.sh), builds
# what is needed, then runs
#   1. compare_granule.py   ICON4Py's diffusion granule on icondiff's init savepoints vs icondiff's
#                           exit savepoints (itype_sher 0/2 x l_zdiffu_t 0/1 x initial_run on/off)
#   2. compare_factories.py ICON4Py's geometry/interpolation/metrics factories vs icondiff's
#                           diffusion savepoint, then (--statics, once `icondiff grid-info` has
#                           --statics) vs icondiff's statics file of solve_nh_init's fields
#   3. compare_stencils.py  stencil by stencil (when present; --quick passed through)
#   4. compare_dycore.py    the dycore programs (compute_rho_theta_pgrad_and_update_vn,
#                           apply_divergence_damping_and_update_vn, the vertically implicit
#                           solver's two steps, velocity advection's
#                           compute_diagnostics_from_normal_wind,
#                           compute_advection_in_predictor/corrector_vertical_momentum and
#                           compute_advection_in_horizontal_momentum, solve_nonhydro's six small
#                           point programs, stencils_61_62, its horizontal velocity and cell
#                           programs and compute_rayleigh_damping_factor) bit for bit; 20 levels
#                           with --quick, 65 otherwise
#   5. compare_solve_nh.py  the solve_nh granule (SolveNonhydro::time_step) against ICON4Py's
#                           SolveNonhydro.time_step over several steps of substeps, bit for bit;
#                           --quick: R19B04 x 10 levels, one case
#   6. race.py              speed (only with --race), and compare_dycore.py --race (the dycore
#                           programs, same grids, threads and backends)
# and exits non-zero if any comparison failed. Tables (markdown, JSON) and logs go to --out.
#
#   perf_tests/peers/icon4py/run_comparison.sh [--quick] [--race] [--build-dir DIR] [--out DIR]
#
#   --quick        the quick set (not run by CI; see docs/user/icon4py_comparison.md): the two
#                  real grids (global R02B03, limited-area R19B04) only, 20
#                  levels, itype_sher 2 with l_zdiffu_t on (the case that runs every stencil),
#                  initial_run on and off, backend gtfn_cpu; factories on R19B04; stencils with
#                  --quick. Default (full): the real grids and a generated R2B4 at 65
#                  levels, the whole case matrix, backends gtfn_cpu and dace_cpu, factories on all
#                  three grids, the full stencil set.
#   --race         also race.py on generated R2B4 and R2B5 x 65 levels (--race-grids to change),
#                  OMP_NUM_THREADS = --threads (default: all cores), --calls regular calls.
#   --build-dir D  an existing icondiff build (Release, double precision, OpenMP, with
#                  -DICONDIFF_ENABLE_PERF_TESTS=ON for the stencil runner); default: configure
#                  and build the needed targets in <repo>/build-icon4py (Kokkos from
#                  scripts/bootstrap.sh, as the other scripts).
#   --out D        results (default <build dir>/icon4py-comparison)
#
# Needs the real grid files in ${ICONDIFF_GRID_DIR:-<repo>/../shared/data/grids}; without them
# it prints why and exits 0 (skipped), like the tests that use them.
# gt4py compiles every ICON4Py program for each grid (domain bounds are compile-time constants
# in ICON4Py 0.2.0) into $GT4PY_BUILD_CACHE_DIR (default $VENV/gt4py-cache); a second run
# reuses them. Quick-mode timings are in perf_tests/peers/icon4py/README.md.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)

quick=0 race=0 build="" out="" threads=$(nproc) calls=10 race_grids=R2B4,R2B5
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --race) race=1 ;;
    --build-dir) build=$(cd "$2" && pwd); shift ;;
    --out) out=$2; shift ;;
    --threads) threads=$2; shift ;;
    --calls) calls=$2; shift ;;
    --race-grids) race_grids=$2; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_comparison: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

log() { echo "[run_comparison] $*" >&2; }

grid_dir=${ICONDIFF_GRID_DIR:-$root/../shared/data/grids}
global_grid=$grid_dir/icon_grid_0009_R02B03_R.nc
lam_grid=$grid_dir/mch_ch_coarsegrid_wind_R19B04.nc
if [ ! -f "$global_grid" ] || [ ! -f "$lam_grid" ]; then
  log "skipped: the real ICON grid files are not in $grid_dir (set ICONDIFF_GRID_DIR)"
  exit 0
fi

# ---- venv and build -------------------------------------------------------------------------------
venv=$("$here/setup_venv.sh")
python=("$venv/bin/python")
# One gt4py program cache for all steps, tied to the venv: compiled programs link the venv's
# nanobind and fail to link once the venv is rebuilt with another one (see setup_venv.sh).
export GT4PY_BUILD_CACHE_DIR=${GT4PY_BUILD_CACHE_DIR:-$venv/gt4py-cache}
stencils_script=$here/compare_stencils.py
dycore_script=$here/compare_dycore.py
solve_nh_script=$here/compare_solve_nh.py
if [ -z "$build" ]; then
  build=$root/build-icon4py
  eval "$("$root/scripts/bootstrap.sh")"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DICONDIFF_ENABLE_PERF_TESTS=ON >&2
  targets=(icondiff_cli)
  { [ -f "$stencils_script" ] || [ -f "$dycore_script" ]; } && targets+=(icondiff_stencil_runner)
  [ -f "$solve_nh_script" ] && targets+=(icondiff_solve_nh_runner)
  cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >&2
fi
icondiff=$build/bin/icondiff
[ -x "$icondiff" ] || { log "error: no $icondiff (build target icondiff_cli)"; exit 2; }
out=${out:-$build/icon4py-comparison}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/icondiff-icon4py.XXXXXX")
trap 'rm -rf "$work"' EXIT

# ---- the steps ----------------------------------------------------------------------------------------
failed=()
summary=()
step() {  # step NAME COMMAND...: run, log to $out/NAME.log, remember time and status
  local name=$1 start status
  shift
  log "$name: $*"
  start=$(date +%s)
  set +e
  "$@" >"$out/$name.log" 2>&1
  status=$?
  set -e
  summary+=("$(printf '%-10s %5d s  exit %d  (log %s)' "$name" $(( $(date +%s) - start )) "$status" "$out/$name.log")")
  tail -n 40 "$out/$name.log" >&2
  [ "$status" -eq 0 ] || failed+=("$name")
}

start_all=$(date +%s)
if [ "$quick" = 1 ]; then
  step granule "${python[@]}" "$here/compare_granule.py" --icondiff "$icondiff" --nlev 20 \
    --workdir "$work/granule" --backends gtfn_cpu --strict-backends \
    --shear-types 2 --zdiffu 1 --grid R02B03 "$global_grid" --grid R19B04-LAM "$lam_grid" \
    --markdown "$out/granule.md" --json "$out/granule.json"
  step factories "${python[@]}" "$here/compare_factories.py" --icondiff "$icondiff" --nlev 20 \
    --grid R19B04-LAM "$lam_grid" --markdown "$out/factories.md" --json "$out/factories.json"
else
  step granule "${python[@]}" "$here/compare_granule.py" --icondiff "$icondiff" --nlev 65 \
    --workdir "$work/granule" --backends gtfn_cpu,dace_cpu --strict-backends \
    --grid R02B03 "$global_grid" --grid R19B04-LAM "$lam_grid" --grid gen-R2B4 generate:R2B4 \
    --markdown "$out/granule.md" --json "$out/granule.json"
  step factories "${python[@]}" "$here/compare_factories.py" --icondiff "$icondiff" --nlev 65 \
    --workdir "$work/factories" --grid R02B03 "$global_grid" --grid R19B04-LAM "$lam_grid" \
    --grid gen-R2B4 generate:R2B4 \
    --markdown "$out/factories.md" --json "$out/factories.json"
fi
# solve_nh_init's statics: icondiff grid-info --statics against ICON4Py's factories (only once
# icondiff's grid-info has --statics)
if "$icondiff" grid-info --help 2>/dev/null | grep -q -- '--statics'; then
  if [ "$quick" = 1 ]; then
    step statics "${python[@]}" "$here/compare_factories.py" --statics --icondiff "$icondiff" \
      --nlev 20 --grid R19B04-LAM "$lam_grid" --markdown "$out/statics.md" --json "$out/statics.json"
  else
    step statics "${python[@]}" "$here/compare_factories.py" --statics --icondiff "$icondiff" \
      --nlev 65 --workdir "$work/statics" --grid R02B03 "$global_grid" --grid R19B04-LAM "$lam_grid" \
      --grid gen-R2B4 generate:R2B4 --markdown "$out/statics.md" --json "$out/statics.json"
  fi
else
  log "statics: skipped ($icondiff grid-info has no --statics option yet)"
fi
if [ -f "$stencils_script" ]; then
  quick_arg=()
  [ "$quick" = 1 ] && quick_arg=(--quick)
  step stencils "${python[@]}" "$stencils_script" --build-dir "$build" "${quick_arg[@]}" \
    --markdown "$out/stencils.md"
fi
if [ -f "$dycore_script" ]; then
  quick_arg=()
  [ "$quick" = 1 ] && quick_arg=(--quick)
  step dycore "${python[@]}" "$dycore_script" --build-dir "$build" "${quick_arg[@]}" \
    --markdown "$out/dycore.md" --json "$out/dycore.json"
fi
if [ -f "$solve_nh_script" ]; then
  quick_arg=()
  [ "$quick" = 1 ] && quick_arg=(--quick)
  step solve-nh "${python[@]}" "$solve_nh_script" --build-dir "$build" "${quick_arg[@]}" \
    --markdown "$out/solve-nh.md" --json "$out/solve-nh.json"
fi
if [ "$race" = 1 ]; then
  backends=gtfn_cpu,dace_cpu
  [ "$quick" = 1 ] && backends=gtfn_cpu
  step race "${python[@]}" "$here/race.py" --icondiff "$icondiff" --grids "$race_grids" \
    --nlev 65 --threads "$threads" --calls "$calls" --backends "$backends" \
    --markdown "$out/race.md" --json "$out/race.json"
  if [ -f "$dycore_script" ]; then
    step dycore-race "${python[@]}" "$dycore_script" --build-dir "$build" --race \
      --race-grids "$race_grids" --nlev 65 --threads "$threads" --calls "$calls" \
      --race-backends "$backends" --markdown "$out/dycore-race.md" --json "$out/dycore-race.json"
  fi
fi

log "done in $(( $(date +%s) - start_all )) s; results in $out"
printf '  %s\n' "${summary[@]}" >&2
if [ ${#failed[@]} -gt 0 ]; then
  log "FAILED: ${failed[*]}"
  exit 1
fi
