#!/usr/bin/env bash
# `mpirun -np N icondiff run` end to end (issue 12, items 5 and 6): for 2, 3 and 4 ranks the one
# UGRID output file equals the single-rank run's bit for bit (every variable; the factories on
# each rank's extended grid, the default, and on the whole grid, --setup whole), rank 0 alone prints
# the report, the timer JSON knows the ranks, the per-rank savepoints replay on one process with
# `icondiff verify` (and a tampered one fails); generated global and limited-area grids and the
# real files (ICONDIFF_TEST_GRIDS=generated: generated only; ICONDIFF_TEST_MAX_RANKS caps the
# ranks of the comparisons, cli_test_support.sh). Bad input (a rank whose grid file fails to read, ranks reading different grids,
# partitions that do not fit, bad options, an unwritable output) ends on every rank with exit code
# 2 and one message, never a hang (each launch runs under `timeout`).
# usage: test_cli_mpi.sh ICONDIFF_EXECUTABLE GRID_DIR MPIEXEC
set -u
exe=$1
grid_dir=$2
mpiexec=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
mpi() { timeout 300 "$mpiexec" --oversubscribe "$@"; }
# shellcheck source=unit_tests/cli/cli_test_support.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_test_support.sh"

# ---- one output file, identical to one rank ----
check_case() {
  local name=$1 ranks=$2
  shift 2
  "$exe" run --model diffusion "$@" --output "one-$name.nc" --quiet >/dev/null 2>&1 || {
    fail "$name: single-rank run failed"
    return
  }
  for n in $(ranks_up_to_limit "$ranks"); do
    out=$(mpi -np "$n" "$exe" run --model diffusion "$@" --output "$name-$n.nc" --timers "$name-$n.json" \
      --savepoints "sp-$name-$n" 2>/dev/null) || {
      fail "$name: run on $n ranks failed: $out"
      continue
    }
    same_output "one-$name.nc" "$name-$n.nc" || fail "$name: output on $n ranks differs from one rank"
    [ "$(printf '%s\n' "$out" | grep -c '^nh_hdiff ')" = 1 ] ||
      fail "$name, $n ranks: the report is not printed exactly once: $out"
    printf '%s' "$out" | grep -q "ranks       $n MPI ranks" || fail "$name, $n ranks: no ranks line"
    printf '%s' "$out" | grep -q "load balance: whole-call median per rank" ||
      fail "$name, $n ranks: no load-balance line"
    /usr/bin/python3 - "$name-$n.json" "$n" <<'PY' || fail "$name, $n ranks: timer JSON lacks the ranks"
import json, sys
t = json.load(open(sys.argv[1]))
m = t["_metadata"]
assert m["ranks"] == int(sys.argv[2]), m["ranks"]
r = m["rank_median_ms"]["nh_hdiff"]
assert r["min"] <= r["median"] <= r["max"], r
PY
    ls "sp-$name-$n"/diffusion-init.rank*.nc | wc -l | grep -qx "$n" ||
      fail "$name, $n ranks: not one init savepoint per rank"
    out=$("$exe" verify --in "sp-$name-$n"/diffusion-init.rank*.nc \
      --out "sp-$name-$n"/diffusion-exit.rank*.nc 2>&1) && printf '%s' "$out" | grep -q PASSED ||
      fail "$name, $n ranks: verify of the per-rank savepoints failed: $out"
  done
}
check_case r2b3 "2 3 4" --generate R2B3 --nlev 6 --steps 3 --output-every 1
# The same with the factories on the whole grid on every rank (--setup whole, METIS): the default
# above runs them on each rank's extended grid (bisection partition).
check_case r2b3-whole "2 3" --generate R2B3 --nlev 6 --steps 3 --output-every 1 --setup whole
check_case lam "2 3" --generate R2B4 --lam --nlev 5 --steps 2 --strategy unfused --iforcing 0
# ICONDIFF_TEST_GRIDS=generated (the sanitizer gate): the real files run in the test command.
if [ "${ICONDIFF_TEST_GRIDS:-}" = generated ]; then
  echo "note: ICONDIFF_TEST_GRIDS=generated; only generated grids were run"
elif [ -f "$grid_dir/mch_ch_coarsegrid_wind_R19B04.nc" ]; then
  check_case r19b04 "3" --grid "$grid_dir/mch_ch_coarsegrid_wind_R19B04.nc" --nlev 5 --steps 2
  check_case r02b03 "2" --grid "$grid_dir/icon_grid_0009_R02B03_R.nc" --nlev 5 --steps 2 \
    --strategy unfused
else
  echo "note: $grid_dir has no real grid files; only generated grids were run"
fi

# ---- verify: a set is needed, and a tampered rank fails ----
out=$("$exe" verify --in sp-r2b3-2/diffusion-init.rank1.nc --out sp-r2b3-2/diffusion-exit.rank1.nc 2>&1)
[ $? = 2 ] && printf '%s' "$out" | grep -q "needs the savepoints of all 2 ranks" ||
  fail "verify of one rank's savepoint alone did not ask for the set: $out"
cp -r sp-r2b3-2 tampered
/usr/bin/python3 - <<'PY' || fail "could not tamper with rank 1's exit savepoint"
import netCDF4, numpy as np
with netCDF4.Dataset("tampered/diffusion-exit.rank1.nc", "a") as d:
    owned = np.flatnonzero(d["cell_owner_rank"][:] == 1)
    v = d.variables["theta_v"]
    v[2, owned[5]] = v[2, owned[5]] + 0.5
PY
out=$("$exe" verify --in tampered/diffusion-init.rank*.nc --out tampered/diffusion-exit.rank*.nc 2>&1)
[ $? = 1 ] && printf '%s' "$out" | grep -q FAILED || fail "verify passed a tampered rank: $out"

# ---- bad input: every rank exits with 2, one message, no hang ----
expect_error() {
  local pattern=$1
  shift
  out=$(mpi "$@" 2>&1 >/dev/null)
  local status=$?
  [ "$status" = 2 ] || fail "exit code $status (expected 2) for: $* :: $out"
  printf '%s' "$out" | grep -q -- "$pattern" || fail "no '$pattern' for: $* :: $out"
  [ "$(printf '%s\n' "$out" | grep -c '^icondiff: error')" = 1 ] ||
    fail "not exactly one error line for: $* :: $out"
}
args=(--nlev 4 --steps 1 --quiet)
expect_error "rank 1: --grid $work/missing.nc: the file does not exist" \
  -np 1 "$exe" run --model diffusion --generate R2B3 "${args[@]}" : -np 1 "$exe" run --model diffusion --grid "$work/missing.nc" "${args[@]}"
expect_error "every rank must read the same grid" \
  -np 1 "$exe" run --model diffusion --generate R2B3 "${args[@]}" : -np 1 "$exe" run --model diffusion --generate R2B2 "${args[@]}"
seq 1 5120 | awk '{print ($1 <= 2600) ? 0 : 1}' >two.txt
head -100 two.txt >short.txt
(cat two.txt; echo 7) >long.txt
expect_error "100 cells listed, the grid has 5120" -np 2 "$exe" run --model diffusion --generate R2B3 "${args[@]}" --partition short.txt
expect_error "line 5121: rank 7 is outside" -np 2 "$exe" run --model diffusion --generate R2B3 "${args[@]}" --partition long.txt
expect_error "rank 2 owns no cell" -np 3 "$exe" run --model diffusion --generate R2B3 "${args[@]}" --partition two.txt
expect_error "steps 0" -np 2 "$exe" run --model diffusion --generate R2B3 --nlev 4 --steps 0 --quiet
expect_error "no-such-dir" -np 2 "$exe" run --model diffusion --generate R2B3 "${args[@]}" --output no-such-dir/x.nc
# A given partition is used as it is, and gives the same answer.
out=$(mpi -np 2 "$exe" run --model diffusion --generate R2B3 --nlev 6 --steps 3 --output-every 1 --partition two.txt \
  --output part.nc 2>/dev/null) || fail "run with --partition failed: $out"
printf '%s' "$out" | grep -q "file two.txt): owned cells per rank 2520..2600" ||
  fail "the partition file was not used: $out"
same_output one-r2b3.nc part.nc || fail "output with --partition differs from one rank"
# --partition needs several ranks.
out=$("$exe" run --model diffusion --generate R2B3 "${args[@]}" --partition two.txt 2>&1)
[ $? = 2 ] && printf '%s' "$out" | grep -q "needs a run on several MPI ranks" ||
  fail "--partition on one rank was not refused: $out"

[ "$failures" = 0 ] && echo "all mpirun icondiff checks passed"
exit $((failures > 0))
