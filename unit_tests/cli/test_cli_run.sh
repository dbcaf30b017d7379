#!/usr/bin/env bash
# End to end: icondiff run -> UGRID output + timer report + savepoints -> icondiff verify (passes;
# a tampered expected output fails) -> icondiff compare-timers; configuration files; limited-area
# and real grids; every kind of bad input ends in one clear line and a non-zero exit code.
# usage: test_cli_run.sh ICONDIFF_EXECUTABLE GRID_DIR
set -u
exe=$1
grid_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
small=(--generate R2B2 --nlev 12 --steps 3 --quiet)

# ---- run -> files ----
out=$("$exe" run --model diffusion "${small[@]}" --output out.nc --timers timers.json --savepoints sp --output-every 1 2>&1) ||
  fail "run failed: $out"
printf '%s' "$out" | grep -q "^nh_hdiff " || fail "no nh_hdiff row in the timer table: $out"
printf '%s' "$out" | grep -q "calculate_nabla2_and_smag_coefficients_for_vn" || fail "no per-kernel rows: $out"
printf '%s' "$out" | grep -q "GB/s against the 276 B/cell-level minimum" || fail "no bandwidth line: $out"
for f in out.nc timers.json sp/diffusion-init.nc sp/diffusion-exit.nc; do [ -s "$f" ] || fail "$f missing"; done
ncdump -h out.nc | grep -q 'cf_role = "mesh_topology"' || fail "out.nc has no UGRID mesh topology"
ncdump -h out.nc | grep -q "double theta_v(time, height, ncells)\|theta_v(time" || fail "out.nc has no theta_v"
ncdump -h out.nc | grep -q 'diffusion_nml\\:hdiff_order = "5"' || fail "out.nc lacks the configuration attributes"
/usr/bin/python3 - <<'PY' || fail "timers.json is not the documented bencher format"
import json
t = json.load(open("timers.json"))
assert t["nh_hdiff"]["num_calls"]["value"] == 3, t["nh_hdiff"]
for name, e in t.items():
    if name.startswith("_"): continue
    assert e["latency"]["lower_value"] <= e["latency"]["value"] <= e["latency"]["upper_value"], name
assert t["_metadata"]["cells"] == 1280 and t["_metadata"]["nlev"] == 12
assert t["_metadata"]["config"]["turbdiff_nml:itype_sher"] == "2"
PY

# ---- --timing calls: the whole call timed, no kernel fenced or timed ----
out=$("$exe" run --model diffusion "${small[@]}" --timing calls --timers calls.json 2>&1) || fail "run --timing calls failed: $out"
printf '%s' "$out" | grep -q "^whole-call timer (3 calls, one fence per call" || fail "no whole-call heading: $out"
printf '%s' "$out" | grep -q "calculate_nabla2_and_smag_coefficients_for_vn" && fail "--timing calls timed kernels: $out"
/usr/bin/python3 - <<'PY' || fail "calls.json should hold the whole call only"
import json
t = json.load(open("calls.json"))
assert sorted(k for k in t if not k.startswith("_")) == ["nh_hdiff"], list(t)
assert t["nh_hdiff"]["num_calls"]["value"] == 3 and t["_metadata"]["timing"] == "calls"
PY

# ---- help and Kokkos arguments: --help is ours alone, --kokkos-* goes to Kokkos ----
out=$("$exe" --help 2>&1) || fail "--help failed: $out"
printf '%s' "$out" | grep -q "Kokkos command line arguments" && fail "--help printed Kokkos' help page"
printf '%s' "$out" | grep -q "^Subcommands:" || fail "--help did not list the subcommands: $out"
# Kokkos 3.4 calls it --kokkos-threads, Kokkos 4 --kokkos-num-threads.
threads_arg=--kokkos-num-threads=1
"$exe" --version | grep -q "(Kokkos 3\." && threads_arg=--kokkos-threads=1
out=$(OMP_NUM_THREADS=2 "$exe" run --model diffusion "${small[@]}" "$threads_arg" --timers k.json 2>&1) ||
  fail "run with $threads_arg failed: $out"
/usr/bin/python3 -c 'import json,sys; sys.exit(json.load(open("k.json"))["_metadata"]["concurrency"] != 1)' ||
  fail "$threads_arg did not reach Kokkos: $out"

# ---- CPU affinity: threads beyond the allowed CPUs are reported (the ICON4Py race checks it) ----
if command -v taskset >/dev/null && [ "$(nproc --all)" -ge 2 ]; then
  out=$(OMP_NUM_THREADS=2 taskset -c 0 "$exe" run --model diffusion "${small[@]}" --timers aff.json 2>&1) ||
    fail "run under taskset failed: $out"
  printf '%s' "$out" | grep -q "2 threads but only 1 CPUs allowed" ||
    fail "no warning for 2 threads on 1 allowed CPU: $out"
  /usr/bin/python3 -c 'import json,sys; sys.exit(json.load(open("aff.json"))["_metadata"]["cpus_allowed"] != 1)' ||
    fail "the timer report does not say 1 CPU was allowed"
  # OpenMP binding its own main thread (OMP_PROC_BIND) must not read as a narrowed CPU set.
  out=$(OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads taskset -c 0,1 "$exe" run --model diffusion \
    "${small[@]}" --timers bound.json 2>&1) || fail "run with OMP_PROC_BIND=spread failed: $out"
  /usr/bin/python3 -c 'import json,sys; sys.exit(json.load(open("bound.json"))["_metadata"]["cpus_allowed"] != 2)' ||
    fail "OMP_PROC_BIND=spread on CPUs 0,1 is not reported as 2 allowed CPUs"
  printf '%s' "$out" | grep -q "warning" && fail "spurious warning under OMP_PROC_BIND=spread: $out"
fi

# ---- verify ----
out=$("$exe" verify --in sp/diffusion-init.nc --out sp/diffusion-exit.nc 2>&1) || fail "verify failed: $out"
printf '%s' "$out" | grep -q "PASSED" || fail "verify did not pass: $out"
out=$("$exe" verify --in sp/diffusion-init.nc --out sp/diffusion-exit.nc --strategy unfused 2>&1) ||
  fail "verify (unfused) failed: $out"
cp sp/diffusion-exit.nc tampered.nc
/usr/bin/python3 - <<'PY' || fail "could not tamper with the exit savepoint"
import netCDF4
with netCDF4.Dataset("tampered.nc", "a") as d:
    v = d.variables["theta_v"]
    v[3, 17] = v[3, 17] + 0.5
PY
out=$("$exe" verify --in sp/diffusion-init.nc --out tampered.nc 2>&1)
code=$?
[ $code -eq 1 ] || fail "verify against a tampered expectation exited $code, expected 1: $out"
printf '%s' "$out" | grep -q "FAILED" || fail "verify did not report the failure: $out"
printf '%s' "$out" | grep "theta_v" | grep -q "FAIL" || fail "verify did not name theta_v: $out"

# ---- compare-timers against an OpenACC report in ICON4Py's bencher format ----
cat >openacc.json <<'JSON'
{"nh_hdiff": {"latency": {"lower_value": 1.1, "upper_value": 1.3, "value": 1.2}, "latency_total": {"value": 436.0}, "num_calls": {"value": 360}},
 "apply_diffusion_to_vn": {"latency": {"lower_value": 0.17, "upper_value": 0.2, "value": 0.1765}, "latency_total": {"value": 63.7}, "num_calls": {"value": 361}},
 "nh_solve": {"latency": {"lower_value": 4.5, "upper_value": 4.6, "value": 4.55}, "latency_total": {"value": 8195.0}, "num_calls": {"value": 1800}}}
JSON
out=$("$exe" compare-timers timers.json openacc.json 2>&1) || fail "compare-timers failed: $out"
printf '%s' "$out" | grep "^apply_diffusion_to_vn" | grep -q "x$" || fail "no speed-up for apply_diffusion_to_vn: $out"
printf '%s' "$out" | grep -q "overall (nh_hdiff)" || fail "no overall ratio: $out"

# ---- configuration file (keys = option names) ----
printf '[run]\nhdiff_efdt_ratio = 24\nitype_sher = 1\n' >config.toml
"$exe" run --model diffusion "${small[@]}" --config config.toml --timers t2.json >/dev/null 2>&1 || fail "run with --config failed"
/usr/bin/python3 -c 'import json,sys; c=json.load(open("t2.json"))["_metadata"]["config"]; sys.exit(0 if c["diffusion_nml:hdiff_efdt_ratio"]=="24" and c["turbdiff_nml:itype_sher"]=="1" else 1)' ||
  fail "the configuration file was not applied"
printf 'hdiff_efdt_ratio = 24\n' >bad_config.toml
expect_config_error=$("$exe" run --model diffusion "${small[@]}" --config bad_config.toml 2>&1 >/dev/null)
[ $? -ne 0 ] || fail "a configuration key outside [run] was accepted silently"
# Errors in a configuration file name the file, the line and the key.
printf '[run]\nsteps = 2\nfoo = 3\n' >unknown_key.toml
out=$("$exe" --config unknown_key.toml run --model diffusion --generate R2B2 --nlev 12 2>&1 >/dev/null)
printf '%s' "$out" | grep -q "unknown_key.toml, line 3: unknown key 'foo' in \[run\]" ||
  fail "an unknown key is not reported with file, line and key: $out"
printf '[run]\n\nsteps = two\n' >bad_value.toml
out=$("$exe" --config bad_value.toml run --model diffusion --generate R2B2 --nlev 12 2>&1 >/dev/null)
printf '%s' "$out" | grep -q "bad_value.toml, line 3: 'steps = two'" ||
  fail "a bad value is not reported with file, line and key: $out"

# ---- limited area, fused and unfused ----
for strategy in fused unfused; do
  "$exe" run --model diffusion --generate R2B3 --lam --lam-region cap:8,46.5,60 --nlev 10 --steps 2 --quiet --strategy $strategy \
    >lam.txt 2>&1 || fail "limited-area run ($strategy) failed: $(tail -3 lam.txt)"
done

# ---- bad input: one short message, non-zero exit ----
expect_error() {
  local expected_code=$1 fragment=$2
  shift 2
  local err code
  err=$("$exe" "$@" 2>&1 >/dev/null)
  code=$?
  [ "$code" -eq "$expected_code" ] || fail "'$*' exited with $code, expected $expected_code: $err"
  [ "$(printf '%s\n' "$err" | wc -l)" -le 2 ] || fail "'$*' printed more than a short message: $err"
  printf '%s' "$err" | grep -q -- "$fragment" || fail "'$*' did not mention '$fragment': $err"
}
expect_error 2 "expected at least 1" run --model diffusion --generate R2B2 --steps 0
expect_error 2 "expected at least 2 levels" run --model diffusion --generate R2B2 --nlev 1
expect_error 2 "does not exist" run --model diffusion --grid /no/such/grid.nc
expect_error 2 "hdiff_order" run --model diffusion --generate R2B2 --hdiff_order 4
expect_error 2 "itype_sher" run --model diffusion --generate R2B2 --itype_sher 3
expect_error 2 "lsmag_3d" run --model diffusion --generate R2B2 --lsmag_3d true
expect_error 2 "R2X4" run --model diffusion --generate R2X4
expect_error 2 "cannot be combined" run --model diffusion --grid x.nc --lam
expect_error 2 "not a region" run --model diffusion --generate R2B2 --lam --lam-region circle:1,2,3
expect_error 109 "bogus" run --model diffusion --bogus
expect_error 105 "fastest" run --model diffusion --strategy fastest
expect_error 105 "--timing: each" run --model diffusion --timing each
expect_error 106 "--in" verify --out x.nc
expect_error 2 "does not exist" verify --in /no/such.nc --out /no/such2.nc
expect_error 2 "not valid JSON" compare-timers timers.json config.toml
expect_error 2 "cannot be opened" compare-timers timers.json /no/such.json

# ---- ICON's logicals, stdout flushed per step when redirected ----
out=$("$exe" run --model diffusion "${small[@]}" --l_zdiffu_t .FALSE. --lhdiff_temp .true. --timers logical.json 2>&1) ||
  fail "--l_zdiffu_t .FALSE. was not accepted: $out"
/usr/bin/python3 -c 'import json,sys; sys.exit(json.load(open("logical.json"))["_metadata"]["config"]["nonhydrostatic_nml:l_zdiffu_t"] != ".FALSE.")' ||
  fail ".FALSE. did not reach the configuration"
# Redirected, stdout is block-buffered (4 kB): without a flush per step the file stays empty until
# a whole block is full. Watch the file of a long run: its first content must be less than a
# block and hold step 1 (then the run is killed, as a batch system would at its wall time).
"$exe" run --model diffusion --generate R2B4 --nlev 65 --steps 400 >live.txt 2>&1 &
pid=$!
size=0
for _ in $(seq 1 600); do
  size=$(stat -c %s live.txt)
  [ "$size" -gt 0 ] && break
  sleep 0.2
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
{ [ "$size" -gt 0 ] && [ "$size" -lt 4096 ] && grep -q "^step    1/" live.txt; } ||
  fail "the step lines are not flushed per step (first content: $size bytes): $(head -c 300 live.txt)"

# ---- options out of range (issue 15) ----
expect_error 2 "positive, finite time step" run --model diffusion --generate R2B2 --dtime inf
expect_error 2 "hdiff_smag_fac" run --model diffusion --generate R2B2 --hdiff_smag_fac -1
expect_error 2 "0..10 m/s" run --model diffusion --generate R2B2 --w-noise 1e10
expect_error 2 "0..50 m/s" run --model diffusion --generate R2B2 --vn-noise -1
expect_error 2 "--output-every -1" run --model diffusion --generate R2B2 --output-every -1 --output oe.nc
expect_error 2 "lhdiff_vn" run --model diffusion --generate R2B2 --lhdiff_vn false
expect_error 2 "lhdiff_w" run --model diffusion --generate R2B2 --lhdiff_w false
expect_error 2 "expected a call in 1..3" run --model diffusion "${small[@]}" --savepoints spx --savepoint-step 0
expect_error 2 "expected a call in 1..3" run --model diffusion "${small[@]}" --savepoints spx --savepoint-step 4
[ -e spx ] && fail "a refused --savepoint-step left the folder spx"

# ---- outputs: never over an input, never over a file without --overwrite, checked first ----
"$exe" grid-info --grid generate:R2B2 --write in.nc >/dev/null 2>&1 || fail "grid-info --write in.nc failed"
before=$(md5sum <in.nc)
expect_error 2 "never writes over its input" run --model diffusion --grid in.nc --nlev 12 --steps 1 --quiet --output in.nc
expect_error 2 "never writes over its input" run --model diffusion --grid in.nc --nlev 12 --steps 1 --quiet --timers ./in.nc --overwrite
expect_error 2 "never writes over its input" grid-info --grid in.nc --write in.nc --overwrite
[ "$(md5sum <in.nc)" = "$before" ] || fail "an input grid file was changed"
expect_error 2 "pass --overwrite" grid-info --grid generate:R2B2 --write in.nc
expect_error 2 "pass --overwrite" run --model diffusion "${small[@]}" --output out.nc
expect_error 2 "pass --overwrite" run --model diffusion "${small[@]}" --timers timers.json
expect_error 2 "pass --overwrite" run --model diffusion "${small[@]}" --savepoints sp
out=$("$exe" run --model diffusion "${small[@]}" --output out.nc --timers timers.json --savepoints sp --overwrite 2>&1) ||
  fail "run --overwrite failed: $out"
expect_error 2 "does not exist" run --model diffusion "${small[@]}" --timers /no/such/dir/t.json
expect_error 2 "is a directory" run --model diffusion "${small[@]}" --timers sp
expect_error 2 "is a directory" run --model diffusion "${small[@]}" --output sp
touch plainfile
expect_error 2 "not a directory" run --model diffusion "${small[@]}" --savepoints plainfile
ls | grep -q "\.tmp\." && fail "a temporary output file was left behind: $(ls)"

# ---- a run that cannot fit in memory is refused before it starts ----
start=$(date +%s)
expect_error 2 "needs about" run --model diffusion --generate R2B12
[ $(($(date +%s) - start)) -le 10 ] || fail "refusing R2B12 took more than 10 s"
expect_error 2 "more than the 100 MB of --max-memory" run --model diffusion --generate R2B4 --max-memory 100M
expect_error 2 "positive size in bytes" run --model diffusion --generate R2B2 --max-memory 8X
out=$("$exe" run --model diffusion "${small[@]}" --max-memory 2G 2>&1) || fail "run with --max-memory 2G failed: $out"

# ---- a grid whose geometry contradicts itself is refused when read ----
cp in.nc huge.nc
/usr/bin/python3 - <<'PY' || fail "could not edit huge.nc"
import netCDF4
with netCDF4.Dataset("huge.nc", "a") as f:
    f["cell_area"][3] = 1e300
PY
expect_error 2 "spherical triangle of its vertices" run --model diffusion --grid huge.nc --nlev 12 --steps 1

# ---- an edge 1e-300 m long (once the way to make a run overflow) is refused when read ----
# The run-time stop at the first non-finite value has no CLI trigger left that the input checks
# let through (issue 30); the granules' own checks of it stay in the unit tests.
cp in.nc tiny_edge.nc
/usr/bin/python3 - <<'PY' || fail "could not edit tiny_edge.nc"
import netCDF4
with netCDF4.Dataset("tiny_edge.nc", "a") as f:
    f["edge_length"][5] = 1e-300
PY
out=$("$exe" run --model diffusion --grid tiny_edge.nc --nlev 12 --steps 3 --quiet --output huge_out.nc 2>&1)
code=$?
[ "$code" -eq 2 ] || fail "a grid with a 1e-300 m edge: exit $code, expected 2: $out"
printf '%s' "$out" | grep -q "edge_length" || fail "no message naming edge_length: $out"
[ -e huge_out.nc ] && fail "the refused run left its output file"
ls | grep -q "huge_out.nc.tmp" && fail "the refused run left a temporary output file"

# ---- a real grid, when present ----
lam="$grid_dir/mch_ch_coarsegrid_wind_R19B04.nc"
if [ -f "$lam" ]; then
  "$exe" run --model diffusion --grid "$lam" --nlev 10 --steps 2 --quiet >real.txt 2>&1 || fail "run on $lam failed: $(tail -3 real.txt)"
else
  echo "note: $lam absent; the real-grid run was skipped"
fi

[ $failures -eq 0 ] && echo "all CLI run/verify/compare-timers checks passed"
exit $failures
