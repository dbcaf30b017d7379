#!/usr/bin/env bash
# The Python side of icondiff's output files, run by CTest (unit_tests/output_scripts.cmake):
#   check: netCDF4-python reads the UGRID files written by ugrid_output_fixture and
#          unit_tests/check_ugrid_output.py asserts their conventions and values;
#   plot:  scripts/plot_icondiff.py draws cell, edge and limited-area fields and timer reports
#          (alone and compared) into non-empty PNGs.
# Exit code 77 (CTest: skipped) with a message when python3 lacks numpy, netCDF4 or matplotlib.
#
# Usage: test_output_scripts.sh check|plot FIXTURE PYTHON3 SOURCE_DIR WORK_DIR
set -euo pipefail

mode=$1 fixture=$2 python=$3 source_dir=$4 work=$5

modules="numpy netCDF4"
[ "$mode" = plot ] && modules="numpy netCDF4 matplotlib"
if [ ! -x "$python" ]; then
  echo "SKIP: $python not found (Debian: apt-get install python3)"
  exit 77
fi
for m in $modules; do
  if ! "$python" -c "import $m" 2>/dev/null; then
    echo "SKIP: $python cannot import $m (Debian: python3-numpy python3-netcdf4 python3-matplotlib)"
    exit 77
  fi
done

rm -rf "$work"
mkdir -p "$work"
"$fixture" "$work"

if [ "$mode" = check ]; then
  "$python" "$source_dir/unit_tests/check_ugrid_output.py" "$work"
  exit 0
fi

plot="$source_dir/scripts/plot_icondiff.py"
# An icondiff-style report and one shaped like ICON's OpenACC timers (C2SM/icon4py
# scripts/data/bencher=...=OPENACC.json): "_" keys are metadata, timers may differ between files.
cat > "$work/ours.json" <<'JSON'
{
  "_metadata": {"grid": "R2B4", "backend": "OpenMP"},
  "apply_diffusion_to_vn": {"latency": {"value": 0.81, "lower_value": 0.78, "upper_value": 0.95},
                            "latency_total": {"value": 81.0}, "num_calls": {"value": 100}},
  "calculate_nabla2_and_smag_coefficients_for_vn": {"latency": {"value": 0.52, "lower_value": 0.5, "upper_value": 0.6},
                            "latency_total": {"value": 52.0}, "num_calls": {"value": 100}},
  "apply_diffusion_to_theta_and_exner": {"latency": {"value": 0.33, "lower_value": 0.3, "upper_value": 0.4},
                            "latency_total": {"value": 33.0}, "num_calls": {"value": 100}},
  "nh_hdiff": {"latency": {"value": 2.1, "lower_value": 2.0, "upper_value": 2.5},
               "latency_total": {"value": 210.0}, "num_calls": {"value": 100}}
}
JSON
cat > "$work/openacc.json" <<'JSON'
{
  "apply_diffusion_to_vn": {"latency": {"value": 0.41, "lower_value": 0.4, "upper_value": 0.5},
                            "latency_total": {"value": 147.6}, "num_calls": {"value": 360}},
  "calculate_nabla2_and_smag_coefficients_for_vn": {"latency": {"value": 0.3, "lower_value": 0.29, "upper_value": 0.35},
                            "latency_total": {"value": 108.0}, "num_calls": {"value": 360}},
  "nh_hdiff": {"latency": {"value": 1.2, "lower_value": 1.1, "upper_value": 1.9},
               "latency_total": {"value": 432.0}, "num_calls": {"value": 360}},
  "nh_solve": {"latency": {"value": 9.0}, "latency_total": {"value": 3240.0}, "num_calls": {"value": 360}}
}
JSON

run() {
  echo "+ plot_icondiff.py $*"
  "$python" "$plot" "$@"
}
run field "$work/jw.nc" --var theta_v --level 15 -o "$work/theta_v.png"
run field "$work/jw.nc" --var vn --level 8 --time 1 -o "$work/vn.png"
run field "$work/jw.nc" --var w --level -1 --time 0 -o "$work/w.png"
run field "$work/lam.nc" --var exner --level 4 -o "$work/lam_exner.png"
run field "$work/lam.nc" --var vn --level 2 --cmap RdBu_r -o "$work/lam_vn.png"
run timers "$work/ours.json" -o "$work/timers.png"
run timers "$work/ours.json" --compare "$work/openacc.json" --labels icondiff OpenACC \
  -o "$work/timers_compare.png"
run timers "$work/ours.json" "$work/openacc.json" -o "$work/timers_two.png"  # the documented form

for png in theta_v vn w lam_exner lam_vn timers timers_compare timers_two; do
  file="$work/$png.png"
  size=$(stat -c %s "$file" 2>/dev/null || echo 0)
  if [ "$size" -lt 5000 ]; then
    echo "FAIL: $file is missing or suspiciously small ($size bytes)"
    exit 1
  fi
  if [ "$(head -c 8 "$file" | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ]; then
    echo "FAIL: $file is not a PNG"
    exit 1
  fi
  echo "ok: $file ($size bytes)"
done

# Bad input: a clear message and a non-zero exit code, no traceback.
expect_failure() {
  local expected=$1
  shift
  local out
  if out=$("$python" "$plot" "$@" 2>&1); then
    echo "FAIL: plot_icondiff.py $* succeeded, expected an error"
    exit 1
  fi
  if ! grep -q -- "$expected" <<<"$out" || grep -q Traceback <<<"$out"; then
    echo "FAIL: plot_icondiff.py $*: expected a message containing '$expected', got:"
    echo "$out"
    exit 1
  fi
  echo "ok: plot_icondiff.py $* fails with: $out"
}
expect_failure "no variable 'nope'" field "$work/jw.nc" --var nope --level 0 -o "$work/x.png"
expect_failure "level 40 is out of range" field "$work/jw.nc" --var theta_v --level 40 -o "$work/x.png"
expect_failure "time index 5 is out of range" field "$work/jw.nc" --var theta_v --level 0 --time 5 -o "$work/x.png"
expect_failure "no timers in common" timers "$work/ours.json" --compare <(echo '{"x": {"latency": {"value": 1}}}') -o "$work/x.png"
expect_failure "cannot read" timers "$work/missing.json" -o "$work/x.png"
expect_failure "one report, or two" timers "$work/ours.json" "$work/ours.json" "$work/ours.json" -o "$work/x.png"
# An ICON grid file is not an output file: a message, not a traceback (even for one of its fields).
grid_file=$(ls "$source_dir"/../shared/data/grids/*.nc 2>/dev/null | head -1)
if [ -n "$grid_file" ]; then
  expect_failure "not an icondiff UGRID output file" field "$grid_file" --var cell_area -o "$work/x.png"
fi
echo "all plots written"
