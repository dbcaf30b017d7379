#!/usr/bin/env bash
# icondiff verify on solve_nh savepoints: the whole-grid ones of a global and a limited-area call
# and two ranks' of the global one (left by test_solve_nh_savepoint in SAVEPOINT_DIR) replay bit
# for bit; a tampered output (a field, max_vertical_cfl) fails naming it; one rank alone, init and
# exit swapped and a diffusion savepoint mixed in end in one clear line and exit code 2.
# usage: test_cli_verify_solve_nh.sh ICONDIFF_EXECUTABLE SAVEPOINT_DIR
set -u
exe=$1
dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# ---- replays that pass ----
for case in global lam; do
  out=$("$exe" verify --in "$dir/$case/solve_nh-init.nc" --out "$dir/$case/solve_nh-exit.nc" 2>&1) ||
    fail "$case: verify failed: $out"
  printf '%s' "$out" | grep -q "replaying the solve_nh call" || fail "$case: not replayed as solve_nh: $out"
  printf '%s' "$out" | grep -q "^PASSED" || fail "$case: verify did not pass: $out"
  printf '%s' "$out" | grep "^vn_new " | grep -q " 0/" || fail "$case: vn_new differs: $out"
done
for case in global lam; do
  out=$("$exe" verify --in "$dir/$case"/solve_nh-init.rank*.nc --out "$dir/$case"/solve_nh-exit.rank*.nc 2>&1) ||
    fail "$case: verify of the per-rank savepoints failed: $out"
  printf '%s' "$out" | grep -q "2 per-rank savepoints" || fail "$case: not read as a set: $out"
  printf '%s' "$out" | grep -q "^PASSED" || fail "$case: per-rank verify did not pass: $out"
done

# ---- tampered expectations fail, naming the field ----
cp "$dir/global/solve_nh-exit.nc" tampered.nc
/usr/bin/python3 - <<'PY' || fail "could not tamper with the exit savepoint"
import netCDF4
import numpy
with netCDF4.Dataset("tampered.nc", "a") as d:
    v = d.variables["vn_new"]
    v[3, 17] = numpy.nextafter(v[3, 17], numpy.inf)
    d.setncattr("diagnostic.max_vertical_cfl", numpy.float64(0.25))
PY
out=$("$exe" verify --in "$dir/global/solve_nh-init.nc" --out tampered.nc 2>&1)
code=$?
[ $code -eq 1 ] || fail "verify against a tampered expectation exited $code, expected 1: $out"
printf '%s' "$out" | grep -q "^FAILED: vn_new, max_vertical_cfl" || fail "verify did not name the fields: $out"
printf '%s' "$out" | grep "^vn_new " | grep -q " 1/[0-9]*  FAIL" || fail "vn_new: not one differing value: $out"

# ---- bad input: exit code 2 and one clear line ----
expect_error() {
  local fragment=$1
  shift
  local out code
  out=$("$exe" "$@" 2>&1)
  code=$?
  [ $code -eq 2 ] || fail "'$*' exited $code, expected 2: $out"
  printf '%s' "$out" | grep -qF -- "$fragment" || fail "'$*' did not say '$fragment': $out"
}
expect_error "needs the savepoints of all 2 ranks" \
  verify --in "$dir/global/solve_nh-init.rank1.nc" --out "$dir/global/solve_nh-exit.rank1.nc"
expect_error "is a solve_nh-exit savepoint; --in needs solve_nh-init savepoints" \
  verify --in "$dir/global/solve_nh-exit.nc" --out "$dir/global/solve_nh-init.nc"
# A diffusion call's savepoints (icondiff run) mixed with solve_nh ones.
"$exe" run --model diffusion --generate R2B2 --nlev 12 --steps 1 --quiet --savepoints sp >/dev/null 2>&1 ||
  fail "icondiff run did not write diffusion savepoints"
expect_error "is a diffusion-exit savepoint; --out needs solve_nh-exit savepoints (the --in savepoint is a solve_nh one)" \
  verify --in "$dir/global/solve_nh-init.nc" --out sp/diffusion-exit.nc
expect_error "is a solve_nh-exit savepoint; --out needs diffusion-exit savepoints (the --in savepoint is a diffusion one)" \
  verify --in sp/diffusion-init.nc --out "$dir/global/solve_nh-exit.nc"
# The diffusion's own replay still passes beside them.
out=$("$exe" verify --in sp/diffusion-init.nc --out sp/diffusion-exit.nc 2>&1) || fail "diffusion verify failed: $out"
printf '%s' "$out" | grep -q "replaying the diffusion call" || fail "not replayed as diffusion: $out"

[ $failures -eq 0 ] && echo "all solve_nh verify checks passed"
exit $failures
