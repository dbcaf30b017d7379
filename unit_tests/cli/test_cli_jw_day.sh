#!/usr/bin/env bash
# CI's model day of the Jablonowski-Williamson baroclinic wave (issue 34, item 4): `icondiff run`
# on generated R2B2 (dtime 1200 s, ICON4Py's JW configuration: the CLI's defaults) for one day,
# read back by `scripts/plot_icondiff.py jw --table`, equals the day-1 numbers of the documented
# 10-day run (REFERENCE: unit_tests/cli/jw_r2b2_reference.json, made by the command in
# docs/user/jw_baroclinic_wave.md): minimum surface pressure and where it is, maximum surface
# pressure, the northern 850 hPa temperature range; the same run for one day repeats the long
# run's first day, so they agree to rounding (1e-9 relative, for other compilers and libms).
# Also the steady state (--jw_up 0): its largest surface-pressure drift in the day equals the
# stored one (2.97 hPa at the poles on R2B2; 0.77 hPa on R2B3: the discretisation error, which
# falls by 4 per halving of the mesh).
# usage: test_cli_jw_day.sh ICONDIFF_EXECUTABLE PYTHON3 REPOSITORY REFERENCE_JSON
set -u
exe=$1
python=$2
repo=$3
reference=$4
"$python" -c "import numpy, netCDF4, matplotlib" 2>/dev/null || {
  echo "numpy, netCDF4 or matplotlib missing for $python: skipped"
  exit 77
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
day=(--generate R2B2 --dtime 1200 --steps 72 --output-every 72 --quiet)

"$exe" run "${day[@]}" --output wave.nc >run.log 2>&1 || fail "the one-day run failed: $(cat run.log)"
"$python" "$repo/scripts/plot_icondiff.py" jw wave.nc --days 0 1 -o wave.png --table wave.json \
  >plot.log 2>&1 || fail "plot_icondiff.py jw failed: $(cat plot.log)"
"$python" - wave.json "$reference" <<'PY' || fail "day 1 differs from the 10-day run's"
import json, math, sys
got = {row["day"]: row for row in json.load(open(sys.argv[1]))}
reference = json.load(open(sys.argv[2]))
want = {row["day"]: row for row in reference["days"]}
bad = []
for day in (0, 1):
    for key, value in want[day].items():
        if not math.isclose(got[day][key], value, rel_tol=1e-9, abs_tol=1e-9):
            bad.append(f"day {day} {key}: {got[day][key]!r}, the long run had {value!r}")
if bad:
    sys.exit("\n".join(bad))
print(f"day 1: min surface pressure {got[1]['min_pres_sfc_hpa']:.4f} hPa at "
      f"{got[1]['min_lon_deg']:.2f} E {got[1]['min_lat_deg']:.2f} N, as the 10-day run")
PY

"$exe" run "${day[@]}" --jw_up 0 --output steady.nc >steady.log 2>&1 ||
  fail "the one-day steady run failed: $(cat steady.log)"
"$python" - steady.nc "$reference" <<'PY' || fail "the steady state's drift differs from the stored one"
import json, math, sys, netCDF4, numpy as np
ps = np.asarray(netCDF4.Dataset(sys.argv[1])["pres_sfc"][:], dtype=float) / 100.0
drift = float(np.abs(ps[-1] - ps[0]).max())
want = json.load(open(sys.argv[2]))["steady_day1_max_abs_drift_hpa"]
assert math.isclose(drift, want, rel_tol=1e-9), f"drift {drift!r} hPa in a day, stored {want!r}"
print(f"steady state: surface pressure drift {drift:.4f} hPa in a day, as stored")
PY

[ $failures -eq 0 ] && echo "the JW model day equals the 10-day run's first day"
exit $((failures > 0))
