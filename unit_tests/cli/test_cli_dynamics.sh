#!/usr/bin/env bash
# `icondiff run` (the dynamics, its default model) end to end (issue 34, item 3): ICON's time loop
# over solve_nh and the diffusion from the hydrostatically balanced Jablonowski-Williamson state.
#  * a short run prints a line per step and the timer table with both granules' programs and the
#    whole time step, writes a UGRID file with rho and pres_sfc at every output time and a timer
#    JSON; the surface pressure is the JW06 surface's (1000 hPa minus the wave's small dent);
#  * the steady state (--jw_up 0) stays steady over the run; the perturbed one moves;
#  * under mpirun (2 and 3 ranks, generated global and limited-area grids; ICONDIFF_TEST_MAX_RANKS
#    caps them, cli_test_support.sh) the one output file equals the single-rank run's bit for
#    bit, every variable;
#  * checkpoints: a run restarted from one (one rank, 2 ranks) ends bit for bit where the
#    uninterrupted run does, also after a kill -9 at a random moment (checkpoints are written
#    through temporaries); a restart that does not match the checkpoint is refused by name;
#  * bad options end with exit code 2 and one message naming what is wrong.
# usage: test_cli_dynamics.sh ICONDIFF_EXECUTABLE [MPIEXEC]
set -u
exe=$1
mpiexec=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
mpi() { timeout 300 "$mpiexec" --oversubscribe "$@"; }
# shellcheck source=unit_tests/cli/cli_test_support.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_test_support.sh"
small=(--generate R2B1 --nlev 8 --steps 3 --dtime 600)
longer=(--generate R2B1 --nlev 8 --steps 4 --dtime 600)

# ---- a short run: lines, table, output, timers ----
out=$("$exe" run "${small[@]}" --output dyn.nc --timers dyn.json --output-every 1 2>&1) ||
  fail "dynamics run failed: $out"
[ "$(printf '%s\n' "$out" | grep -c '^step ')" = 3 ] || fail "not one line per step: $out"
printf '%s' "$out" | grep -q "^dynamics    dtime 600 s, 5 substeps of solve_nh + diffusion" ||
  fail "no dynamics line: $out"
for program in compute_rho_theta_pgrad_and_update_vn vertically_implicit_solver_at_corrector_step \
  compute_advection_in_horizontal_momentum apply_diffusion_to_vn nh_hdiff time_step; do
  printf '%s' "$out" | grep -q "^$program " || fail "the timer table lacks $program: $out"
done
printf '%s' "$out" | grep -q "simulated days per wall-clock day" || fail "no time-step summary: $out"
/usr/bin/python3 - dyn.nc dyn.json <<'PY' || fail "the dynamics output or timers are wrong"
import json, sys
import netCDF4, numpy as np
d = netCDF4.Dataset(sys.argv[1])
assert len(d["time"]) == 4, len(d["time"])  # the initial state and 3 steps
assert list(d["time"][:]) == [0, 600, 1200, 1800], d["time"][:]
for v in ("vn", "w", "theta_v", "exner", "rho", "pres_sfc"):
    x = np.asarray(d[v][:])
    assert np.isfinite(x).all(), v
assert d["pres_sfc"].dimensions == ("time", "ncells"), d["pres_sfc"].dimensions
assert d["rho"].dimensions == ("time", "height", "ncells"), d["rho"].dimensions
assert d["pres_sfc"].units == "Pa" and d["pres_sfc"].standard_name == "surface_air_pressure"
ps = np.asarray(d["pres_sfc"][:])
# JW06's surface is at p_s = 1000 hPa; the discrete diagnostic on the balanced state is within a
# few hPa of it (the lowest three levels' hydrostatics).
assert 95000 < ps.min() and ps.max() < 105000, (ps.min(), ps.max())
# The diffusion's diagnostics exist once it has run: fill values at time 0 only.
assert np.ma.is_masked(d["div_ic"][0]) and not np.ma.is_masked(d["div_ic"][3])
assert d.getncattr("icondiff:model") == "dynamics"
assert d.getncattr("nonhydrostatic_nml:divdamp_order") == "24"
t = json.load(open(sys.argv[2]))
assert t["_metadata"]["model"] == "dynamics" and t["_metadata"]["ndyn_substeps"] == 5
assert t["time_step"]["num_calls"]["value"] == 3
assert t["compute_rho_theta_pgrad_and_update_vn"]["num_calls"]["value"] == 15
assert t["nh_hdiff"]["num_calls"]["value"] == 3
PY

# ---- the steady state stays steady; the perturbation moves the flow ----
steady=$("$exe" run "${longer[@]}" --jw_up 0 --output steady.nc 2>&1) ||
  fail "steady run failed: $steady"
"$exe" run "${longer[@]}" --output wave.nc >/dev/null 2>&1 || fail "perturbed run failed"
/usr/bin/python3 - steady.nc wave.nc <<'PY' || fail "the steady state drifted or the wave did not move"
import sys
import netCDF4, numpy as np
s, w = (netCDF4.Dataset(p) for p in sys.argv[1:3])
ps = np.asarray(s["pres_sfc"][:])
# 40 minutes of the balanced steady state: the surface pressure moves by far less than 1 hPa.
drift = np.abs(ps[-1] - ps[0]).max()
assert drift < 100, drift
assert np.abs(np.asarray(s["w"][-1])).max() < 0.05
# The perturbed run differs from the steady one (the perturbation is in the wind).
assert not np.array_equal(np.asarray(s["vn"][-1]), np.asarray(w["vn"][-1]))
PY

# ---- bad input: exit code 2 and one message ----
expect_error() {
  local want=$1
  shift
  local err
  err=$("$exe" "$@" 2>&1 >/dev/null)
  local code=$?
  [ $code = 2 ] || fail "expected exit code 2 for '$*', got $code: $err"
  printf '%s' "$err" | grep -q -- "$want" || fail "expected '$want' for '$*', got: $err"
}
expect_error "--savepoints: the dynamics run writes no savepoints yet" run "${small[@]}" --savepoints sp
expect_error "--nlev 2: the dynamics needs at least 3 levels" run --generate R2B1 --nlev 2 --steps 1
expect_error "--jw_up -1: expected 0..50" run "${small[@]}" --jw_up -1
expect_error "--divdamp_fac_o2 nan: expected 0 .. 0.5" run "${small[@]}" --divdamp_fac_o2 nan
expect_error "divdamp_order" run "${small[@]}" --divdamp_order 3
expect_error "rayleigh_type" run "${small[@]}" --rayleigh_type 1
expect_error "--ndyn_substeps 0: expected 1 .. 100" run "${small[@]}" --ndyn_substeps 0
[ -e sp ] && fail "a refused run created its savepoint folder"

# ---- checkpoints: a restarted run continues bit for bit ----
ck=(--generate R2B1 --nlev 8 --dtime 600 --quiet)
"$exe" run "${ck[@]}" --steps 6 --output full.nc >/dev/null 2>&1 || fail "uninterrupted run failed"
"$exe" run "${ck[@]}" --steps 3 --checkpoint-dir ck >/dev/null 2>&1 || fail "checkpointing run failed"
[ -f ck/step000003.nc ] || fail "no checkpoint ck/step000003.nc"
out=$("$exe" run --generate R2B1 --nlev 8 --dtime 600 --steps 6 --restart ck --checkpoint-dir ck \
  --output restarted.nc 2>&1) || fail "restart failed: $out"
printf '%s' "$out" | grep -q "^restart     from ck after step 3" || fail "no restart line: $out"
[ "$(printf '%s\n' "$out" | grep -c '^step ')" = 3 ] || fail "the restart did not run steps 4-6: $out"
[ -f ck/step000006.nc ] || fail "the restarted run wrote no checkpoint at its end"
same_last() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys, netCDF4, numpy as np
a, b = (netCDF4.Dataset(p) for p in sys.argv[1:3])
assert a["time"][-1] == b["time"][-1], (a["time"][:], b["time"][:])
bad = [v for v in ("vn", "w", "rho", "exner", "theta_v", "pres_sfc", "div_ic", "hdef_ic", "dwdx")
       if not np.array_equal(np.asarray(a[v][-1]), np.asarray(b[v][-1]))]
if bad: sys.exit("differ: " + ", ".join(bad))
PY
}
same_last full.nc restarted.nc || fail "the restarted run differs from the uninterrupted one"
# A restart must match the run that wrote the checkpoint, and have something left to do.
expect_error "dtime = '600', this run has '300'" run --generate R2B1 --nlev 8 --dtime 300 \
  --steps 9 --restart ck --quiet
expect_error "hdiff_efdt_ratio = '10', this run has '12'" run "${ck[@]}" --steps 9 --restart ck \
  --hdiff_efdt_ratio 12
expect_error "with statics = 'topography jabw" run "${ck[@]}" --steps 9 --restart ck --vwind_offctr 0.3
expect_error "latest checkpoint is after step 6, --steps 6 leaves nothing" run "${ck[@]}" --steps 6 \
  --restart ck
expect_error "--restart empty: no checkpoint of 1 rank there" run "${ck[@]}" --steps 6 --restart empty
expect_error "--checkpoint-every needs --checkpoint-dir" run "${ck[@]}" --checkpoint-every 2
expect_error "2000000000 checkpoints of 1 rank(s); at most 1000000 files" run --generate R2B1 \
  --nlev 8 --steps 2000000000 --checkpoint-every 1 --checkpoint-dir many
expect_error "the diffusion-only run has no checkpoints" run --model diffusion --generate R2B1 \
  --nlev 8 --steps 1 --checkpoint-dir ck2
expect_error "step000006.nc' exists; pass --overwrite" run "${ck[@]}" --steps 6 --checkpoint-dir ck
# A damaged checkpoint is refused naming the file.
mkdir -p ck_bad && cp ck/step000003.nc ck_bad/ &&
  printf 'garbage' | dd of=ck_bad/step000003.nc bs=1 seek=100 conv=notrunc 2>/dev/null
expect_error "checkpoint 'ck_bad/step000003.nc'" run "${ck[@]}" --steps 6 --restart ck_bad
# A run killed at any moment, even inside a checkpoint write, leaves complete checkpoints only:
# the latest restarts and ends bit for bit where the uninterrupted run does.
"$exe" run "${ck[@]}" --steps 100000 --checkpoint-dir killed --checkpoint-every 1 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1200); do [ -f killed/step000005.nc ] && break; sleep 0.1; done
sleep 0.$((RANDOM % 10))
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
latest=$(ls killed | sed -n 's/^step0*\([0-9][0-9]*\)\.nc$/\1/p' | sort -n | tail -1)
[ "${latest:-0}" -ge 5 ] || fail "the killed run left no checkpoint after step 5 (latest: ${latest:-none})"
end=$((${latest:-5} + 3))
"$exe" run "${ck[@]}" --steps $end --output long.nc >/dev/null 2>&1 || fail "uninterrupted run failed"
"$exe" run "${ck[@]}" --steps $end --restart killed --output long-restarted.nc >/dev/null 2>&1 ||
  fail "restart from the killed run's latest checkpoint (step ${latest:-none}) failed"
same_last long.nc long-restarted.nc || fail "restart after a kill differs from the uninterrupted run"

# ---- decomposed: one output equal to one rank ----
if [ -n "$mpiexec" ]; then
  check_case() {
    local name=$1 ranks=$2
    shift 2
    "$exe" run "$@" --output "one-$name.nc" --quiet >/dev/null 2>&1 || {
      fail "$name: single-rank run failed"
      return
    }
    for n in $(ranks_up_to_limit "$ranks"); do
      out=$(mpi -np "$n" "$exe" run "$@" --output "$name-$n.nc" 2>&1) || {
        fail "$name: run on $n ranks failed: $out"
        continue
      }
      same_output "one-$name.nc" "$name-$n.nc" ||
        fail "$name: output on $n ranks differs from one rank"
      printf '%s' "$out" | grep -q "load balance: time-step median per rank" ||
        fail "$name, $n ranks: no load-balance line: $out"
      [ "$(printf '%s\n' "$out" | grep -c '^time_step ')" = 1 ] ||
        fail "$name, $n ranks: the report is not printed exactly once"
    done
  }
  check_case r2b2 "2 3" --generate R2B2 --nlev 6 --steps 2 --output-every 1
  # The factories on the whole grid on every rank (the default runs them on extended grids).
  check_case r2b2-whole "2" --generate R2B2 --nlev 6 --steps 2 --setup whole
  check_case lam "2 3" --generate R2B4 --lam --nlev 5 --steps 2
  # Checkpoints of every rank; a restart on the same ranks continues bit for bit, on others it
  # is refused.
  mpi -np 2 "$exe" run "${ck[@]}" --steps 3 --checkpoint-dir ck-mpi >/dev/null 2>&1 ||
    fail "checkpointing run on 2 ranks failed"
  [ -f ck-mpi/step000003.rank0.nc ] && [ -f ck-mpi/step000003.rank1.nc ] ||
    fail "not one checkpoint per rank"
  mpi -np 2 "$exe" run "${ck[@]}" --steps 6 --restart ck-mpi --output restarted-mpi.nc \
    >/dev/null 2>&1 || fail "restart on 2 ranks failed"
  same_last full.nc restarted-mpi.nc || fail "the restart on 2 ranks differs from one rank's run"
  err=$(mpi -np 3 "$exe" run "${ck[@]}" --steps 6 --restart ck-mpi 2>&1 >/dev/null)
  [ $? = 2 ] && printf '%s' "$err" | grep -q "no checkpoint of 3 ranks there" ||
    fail "a restart on other ranks was not refused: $err"
fi

[ $failures -eq 0 ] && echo "all dynamics CLI checks passed"
exit $((failures > 0))
