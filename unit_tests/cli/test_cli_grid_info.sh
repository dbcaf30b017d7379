#!/usr/bin/env bash
# usage: test_cli_grid_info.sh ICONDIFF_EXECUTABLE GRID_DIR
set -u
exe=$1
grid_dir=$2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Bad input: one line on stderr, non-zero exit, no stack trace.
expect_error() {
  local expected_code=$1 fragment=$2
  shift 2
  local err code
  err=$("$exe" "$@" 2>&1 >/dev/null)
  code=$?
  [ "$code" -eq "$expected_code" ] || fail "'$*' exited with $code, expected $expected_code"
  [ "$(printf '%s\n' "$err" | wc -l)" -le 2 ] || fail "'$*' printed more than a short message: $err"
  printf '%s' "$err" | grep -q -- "$fragment" || fail "'$*' did not mention '$fragment': $err"
}
expect_error 2 "does not exist" grid-info --grid /no/such/file.nc
expect_error 106 "grid" grid-info
expect_error 109 "bogus" grid-info --grid x.nc --bogus

lam="$grid_dir/mch_ch_coarsegrid_wind_R19B04.nc"
if [ ! -f "$lam" ]; then
  echo "SKIP: $lam not found"
  [ $failures -eq 0 ] && exit 77 || exit 1
fi
out=$("$exe" grid-info --grid "$lam") || fail "grid-info on the LAM grid failed"
printf '%s' "$out" | grep -q "4444 cells, 6761 edges, 2318 vertices" || fail "sizes missing: $out"
printf '%s' "$out" | grep -q "limited-area" || fail "kind missing"
printf '%s' "$out" | grep -Eq "^NUDGING +\[1404, 1710\)" || fail "nudging zone missing: $out"
json=$("$exe" grid-info --grid "$lam" --json) || fail "--json failed"
/usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["cells"]==4444 and d["zones"]["cell"]["INTERIOR"]==[1710,4444], d' <<<"$json" ||
  fail "JSON output wrong"
[ $failures -eq 0 ] && echo "all CLI checks passed"
exit $failures
