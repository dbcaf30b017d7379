#!/usr/bin/env bash
# CI step: icondiff's solve_nh granule against ICON4Py 0.2.0's own SolveNonhydro.time_step, bit
# for bit, on gt4py's embedded (numpy) backend, so that nothing of ICON4Py is compiled.
#
#   scripts/ci_icon4py_quick.sh BUILD_DIR [--out DIR] [-- MORE compare_solve_nh.py OPTIONS]
#
# BUILD_DIR: an existing Release build (double precision, -DICONDIFF_ENABLE_PERF_TESTS=ON) that
# holds bin/icondiff_solve_nh_runner and bin/icondiff; this script builds nothing.
#
# 1. perf_tests/peers/icon4py/setup_venv.sh: creates the pinned venv (ICON4Py 0.2.0, gt4py 1.1.10)
#    in ${ICONDIFF_CACHE_DIR:-$HOME/.cache/icondiff}/icon4py-0.2.0-venv unless it is there already
#    (PyPI; 33 s from scratch with no pip cache on the 2-core development VM).
# 2. perf_tests/peers/icon4py/compare_solve_nh.py --quick --backend embedded: R19B04 (limited area)
#    x 20 levels, case `quick` (divdamp_order 24; a first step with IAU and lprep_adv, then a later
#    step), 2 x 2 substeps; every prognostic, diagnostic, prep_adv and temporary field and
#    max_vertical_cfl after every substep, 61 comparisons, 6,074,836 values. Passes only if every
#    value is bit-identical (20 s on the development VM). The embedded backend needs the
#    harness's embedded_fixes.py (three gaps of gt4py 1.1.10's embedded execution filled, no
#    arithmetic changed) and runs with numpy's SIMD math kernels disabled (the harness re-runs
#    itself with NPY_DISABLE_CPU_FEATURES: numpy's AVX-512 exp/log differ from glibc's by an ulp).
#    Options after `--` go to compare_solve_nh.py, e.g. the 20-level matrix of all three grids and
#    both cases (126 s on the development VM):
#      scripts/ci_icon4py_quick.sh build -- --grids R02B03,R19B04-LAM,gen-R2B4 --cases dd24,dd4-iau
#
# Grids: ${ICONDIFF_GRID_DIR:-<repo>/../shared/data/grids} (mch_ch_coarsegrid_wind_R19B04.nc).
# Missing grids are an error (exit 2): a CI step that silently compared nothing would look green.
#
# Exit status: 0 all bit-identical, 1 a difference, 2 a setup error (venv, build dir, grids).
# Writes solve-nh.md, solve-nh.json and solve-nh.log into --out (default BUILD_DIR/icon4py-ci).
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() { sed -n '2,32p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

build_dir=""
out=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "ci_icon4py_quick: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) [ -z "$build_dir" ] || { echo "ci_icon4py_quick: one BUILD_DIR only" >&2; exit 2; }
       build_dir=$1; shift ;;
  esac
done
[ -n "$build_dir" ] || { usage >&2; exit 2; }
[ -d "$build_dir" ] || { echo "ci_icon4py_quick: no build directory $build_dir" >&2; exit 2; }
build_dir=$(cd "$build_dir" && pwd)
for tool in icondiff_solve_nh_runner icondiff; do
  [ -x "$build_dir/bin/$tool" ] || {
    echo "ci_icon4py_quick: $build_dir/bin/$tool is missing (build it with" \
      "-DICONDIFF_ENABLE_PERF_TESTS=ON: cmake --build $build_dir --target" \
      "icondiff_solve_nh_runner icondiff)" >&2
    exit 2
  }
done
grid_dir=${ICONDIFF_GRID_DIR:-$repo/../shared/data/grids}
[ -f "$grid_dir/mch_ch_coarsegrid_wind_R19B04.nc" ] || {
  echo "ci_icon4py_quick: $grid_dir/mch_ch_coarsegrid_wind_R19B04.nc is missing" \
    "(ICONDIFF_GRID_DIR; ../shared/data/grids/SOURCES.md)" >&2
  exit 2
}
out=${out:-$build_dir/icon4py-ci}
mkdir -p "$out" || exit 2

start=$SECONDS
echo "[icon4py-ci] venv: perf_tests/peers/icon4py/setup_venv.sh" >&2
venv=$("$repo/perf_tests/peers/icon4py/setup_venv.sh") || {
  echo "ci_icon4py_quick: setup_venv.sh failed" >&2; exit 2; }
venv_s=$((SECONDS - start))
echo "[icon4py-ci] venv $venv ready in $venv_s s" >&2

cmp_start=$SECONDS
echo "[icon4py-ci] compare_solve_nh.py --quick --backend embedded ${extra[*]:-}" >&2
status=0
(cd "$repo" && "$venv/bin/python" perf_tests/peers/icon4py/compare_solve_nh.py \
  --build-dir "$build_dir" --grid-dir "$grid_dir" --quick --backend embedded \
  --markdown "$out/solve-nh.md" --json "$out/solve-nh.json" "${extra[@]}") \
  2>&1 | tee "$out/solve-nh.log" || status=$?
cmp_s=$((SECONDS - cmp_start))

# The harness's exit status, and its JSON read again: at least one comparison, every one passed.
if [ "$status" -eq 0 ]; then
  "$venv/bin/python" - "$out/solve-nh.json" <<'EOF' || status=1
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"]
bad = [r for r in rows if not r["ok"]]
values = sum(r["values"] for r in rows)
print(f"[icon4py-ci] {len(rows)} comparisons, {values:,} values, {len(bad)} differing",
      file=sys.stderr)
sys.exit(1 if bad or not rows or not values else 0)
EOF
fi
echo "[icon4py-ci] timings: venv $venv_s s, comparison $cmp_s s, total $((SECONDS - start)) s" >&2
case "$status" in
  0) echo "[icon4py-ci] PASS: every field bit-identical to ICON4Py 0.2.0 (embedded)" >&2 ;;
  1) echo "[icon4py-ci] FAIL: fields differ from ICON4Py 0.2.0 ($out/solve-nh.md)" >&2 ;;
  *) echo "[icon4py-ci] ERROR: setup failed (status $status, $out/solve-nh.log)" >&2 ;;
esac
exit "$status"
