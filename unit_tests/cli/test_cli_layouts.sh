#!/usr/bin/env bash
# The two field layouts agree (issue 26): the same `icondiff run` in a build with ICON's layout
# (point fastest) and one with level-fastest fields writes the same output file bit for bit
# (diffusion and dynamics, generated global and limited-area grids, one rank and, with MPI, 2
# ranks of the second build against one rank of the first); a savepoint written by either build
# replays in the other with `icondiff verify`; a checkpoint of either restarts in the other and
# ends where the uninterrupted run does.
# usage: test_cli_layouts.sh THIS_BUILD_ICONDIFF OTHER_LAYOUT_ICONDIFF [MPIEXEC]
set -u
this=$1
other=$2
mpiexec=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
mpi() { timeout 300 "$mpiexec" --oversubscribe "$@"; }
# shellcheck source=unit_tests/cli/cli_test_support.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_test_support.sh"
[ -x "$other" ] || {
  echo "the other layout's icondiff ($other) is not built"
  exit 1
}
# Two builds of the same layout would agree without proving anything (`--version` names it).
this_version=$("$this" --version) other_version=$("$other" --version)
[ "${this_version##*, }" != "${other_version##*, }" ] || {
  echo "FAIL: both builds have the same field layout: '$this_version' and '$other_version'"
  exit 1
}

# ---- the same output file from both layouts ----
check_case() {
  local name=$1
  shift
  "$other" run "$@" --output "other-$name.nc" --quiet >/dev/null 2>&1 || {
    fail "$name: the other layout's run failed"
    return
  }
  out=$("$this" run "$@" --output "this-$name.nc" --quiet 2>&1) || {
    fail "$name: this layout's run failed: $out"
    return
  }
  same_output "other-$name.nc" "this-$name.nc" || fail "$name: the layouts' outputs differ"
  if [ -n "$mpiexec" ] && ranks_allowed 2; then
    out=$(mpi -np 2 "$this" run "$@" --output "this2-$name.nc" --quiet 2>&1) || {
      fail "$name: this layout on 2 ranks failed: $out"
      return
    }
    same_output "other-$name.nc" "this2-$name.nc" ||
      fail "$name: this layout on 2 ranks differs from the other on one"
  fi
}
check_case diffusion-global --model diffusion --generate R2B2 --nlev 12 --steps 3 --output-every 1
check_case diffusion-lam --model diffusion --generate R2B4 --lam --nlev 5 --steps 2 --strategy unfused
check_case dynamics-global --generate R2B1 --nlev 8 --steps 3 --dtime 600 --output-every 1
check_case dynamics-lam --generate R2B4 --lam --nlev 5 --steps 2

# ---- savepoints written by one layout replay in the other ----
"$other" run --model diffusion --generate R2B2 --nlev 12 --steps 2 --savepoints sp-other --quiet \
  >/dev/null 2>&1 || fail "the other layout's savepoint run failed"
"$this" run --model diffusion --generate R2B2 --nlev 12 --steps 2 --savepoints sp-this --quiet \
  >/dev/null 2>&1 || fail "this layout's savepoint run failed"
for pair in "this sp-other" "other sp-this"; do
  read -r exe_name dir <<<"$pair"
  exe=$([ "$exe_name" = this ] && echo "$this" || echo "$other")
  out=$("$exe" verify --in "$dir/diffusion-init.nc" --out "$dir/diffusion-exit.nc" 2>&1)
  printf '%s' "$out" | grep -q "PASSED" ||
    fail "$exe_name layout's verify of $dir did not pass: $out"
done

# ---- a checkpoint of one layout restarts in the other ----
ck=(--generate R2B1 --nlev 8 --dtime 600 --quiet)
"$this" run "${ck[@]}" --steps 4 --output full.nc >/dev/null 2>&1 || fail "uninterrupted run failed"
"$other" run "${ck[@]}" --steps 2 --checkpoint-dir ck >/dev/null 2>&1 ||
  fail "the other layout's checkpointing run failed"
out=$("$this" run "${ck[@]}" --steps 4 --restart ck --output restarted.nc 2>&1) ||
  fail "this layout's restart from the other's checkpoint failed: $out"
/usr/bin/python3 - full.nc restarted.nc <<'PY' || fail "the restart across layouts differs"
import sys, netCDF4, numpy as np
a, b = (netCDF4.Dataset(p) for p in sys.argv[1:3])
assert a["time"][-1] == b["time"][-1], (a["time"][:], b["time"][:])
bad = [v for v in ("vn", "w", "rho", "exner", "theta_v", "pres_sfc")
       if not np.array_equal(np.asarray(a[v][-1]), np.asarray(b[v][-1]))]
if bad: sys.exit("differ: " + ", ".join(bad))
PY

[ "$failures" = 0 ] && echo "PASSED" || exit 1
