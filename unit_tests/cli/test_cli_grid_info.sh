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

# --statics: every static field of a (generated) grid in one netCDF file; its path checked first.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
statics="$scratch/statics.nc"
"$exe" grid-info --grid generate:R2B3/cap:8,46.5,60 --nlev 12 --mount_half_width 300000 \
  --statics "$statics" >/dev/null || fail "grid-info --statics failed"
header=$(ncdump -h "$statics") || fail "ncdump -h $statics failed"
# zdiff_gradp is vp: double, or float in a mixed-precision build.
printf '%s' "$header" | grep -qE -- "(double|float) zdiff_gradp\(nlev, e2c, edge\)" ||
  fail "the statics file lacks zdiff_gradp(nlev, e2c, edge)"
for want in "int vertoffset_gradp(nlev, e2c, edge)" \
  "double rbf_vec_coeff_e(e2c2e, edge)" "double c_intp(v2c, vertex)" "double z_ifc(nlev_half, cell)" \
  ":nflat_gradp = "; do
  printf '%s' "$header" | grep -qF -- "$want" || fail "the statics file lacks '$want'"
done
# Every field says which granules and programs read it: the diffusion first, solve_nh last, the
# dycore programs between (their list grows with the programs; test_static_fields checks it).
for want in 'zdiff_gradp:used_by = "compute_rho_theta_pgrad_and_update_vn, .*solve_nh"' \
  'wgtfac_c:used_by = "diffusion, vertically_implicit_solver_at_predictor_step, .*solve_nh"'; do
  printf '%s' "$header" | grep -q -- "$want" || fail "the statics file lacks '$want'"
done
expect_error 2 "pass --overwrite" grid-info --grid generate:R2B1 --nlev 12 --statics "$statics"
"$exe" grid-info --grid generate:R2B1 --write "$scratch/g.nc" >/dev/null || fail "--write failed"
expect_error 2 "never writes over its input" grid-info --grid "$scratch/g.nc" --statics "$scratch/g.nc" --overwrite
expect_error 2 "--statics" grid-info --grid generate:R2B1 --write "$scratch/w.nc" --statics "$scratch/w.nc"
expect_error 2 "divdamp_type" grid-info --grid generate:R2B1 --statics "$scratch/x.nc" --divdamp_type 2
[ ! -e "$scratch/x.nc" ] || fail "a refused --statics run left $scratch/x.nc behind"

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
