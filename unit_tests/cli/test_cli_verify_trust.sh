#!/usr/bin/env bash
# icondiff verify does not pass what it cannot vouch for (issue 30): an exit savepoint holding
# +-inf fails (a tolerance relative to an infinite expected value would accept anything), and an
# init and exit savepoint of different calls (another nlev, grid or dtime) are refused naming the
# difference instead of failing every field.
# usage: test_cli_verify_trust.sh ICONDIFF_EXECUTABLE
set -u
exe=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$exe" run --model diffusion --generate "$1" --nlev "$2" --dtime "$3" --steps 1 --quiet --savepoints "$4" >/dev/null 2>&1 ||
  fail "icondiff run $* failed"; }
run R2B2 12 300 a
run R2B2 10 300 levels
run R2B1 12 300 grid
run R2B2 12 150 dtime

out=$("$exe" verify --in a/diffusion-init.nc --out a/diffusion-exit.nc 2>&1) || fail "verify of a good pair failed: $out"

# ---- non-finite expected values never pass ----
cp a/diffusion-exit.nc inf.nc
/usr/bin/python3 - <<'PY' || fail "could not write inf into the exit savepoint"
import netCDF4, numpy as np
with netCDF4.Dataset("inf.nc", "a") as d:
    d.variables["theta_v"][3, 17] = np.inf
    d.variables["w"][2, 5] = -np.inf
PY
out=$("$exe" verify --in a/diffusion-init.nc --out inf.nc 2>&1)
code=$?
[ $code -eq 1 ] || fail "verify against an exit savepoint holding inf exited $code, expected 1: $out"
printf '%s' "$out" | grep "^theta_v " | grep -q "1/15360  FAIL" || fail "theta_v = inf passed: $out"
printf '%s' "$out" | grep "^w " | grep -q "FAIL" || fail "w = -inf passed: $out"
printf '%s' "$out" | grep -q "theta_v: 1 non-finite value(s), the first at (point 17, level 3)" ||
  fail "the non-finite theta_v value is not named: $out"
printf '%s' "$out" | grep -q "^FAILED: w, theta_v" || fail "no FAILED line naming w and theta_v: $out"

# ---- an init and an exit savepoint of different calls ----
expect_mismatch() {  # EXIT_FILE FRAGMENT
  local out code
  out=$("$exe" verify --in a/diffusion-init.nc --out "$1" 2>&1)
  code=$?
  [ $code -eq 2 ] || fail "verify --out $1 exited $code, expected 2: $out"
  printf '%s' "$out" | grep -q "not savepoints of the same call: $2" ||
    fail "verify --out $1 does not name the mismatch '$2': $out"
  printf '%s' "$out" | grep -q "FAIL " && fail "verify --out $1 compared fields: $out"
}
expect_mismatch levels/diffusion-exit.nc "the number of levels (nlev) is 12 in 'a/diffusion-init.nc' but 10 in 'levels/diffusion-exit.nc'"
expect_mismatch grid/diffusion-exit.nc "the grid is 1280 cells, 1920 edges, 642 vertices in 'a/diffusion-init.nc' but 320 cells"
expect_mismatch dtime/diffusion-exit.nc "the call is dtime 300 s, initial run in 'a/diffusion-init.nc' but dtime 150 s"

[ $failures -eq 0 ] && echo "all verify trust checks passed"
exit $((failures > 0))
