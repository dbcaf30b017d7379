# Sourced by the test and gate scripts: wall times of every build and every ctest run, and each
# ctest run's slowest tests by ctest's own timing, for CI's closing report (.ci/run,
# scripts/ci_report.py; docs/dev/testing.md "Where CI's time goes").
#
#   timed_build LABEL COMMAND...   runs COMMAND (a build), records "build LABEL SECONDS"
#   timed_ctest LABEL CTEST_ARGS... runs ctest with a JUnit report, records "ctest LABEL SECONDS"
#                                  and one "test LABEL/NAME SECONDS" line per test
#
# Records go to the file named by ICONDIFF_TIMINGS (tab-separated: kind, label, seconds, step),
# prefixed with the step that .ci/run is in (ICONDIFF_CI_STEP); without ICONDIFF_TIMINGS nothing
# is recorded and the commands run as they would without this file. Each command's exit status is
# returned unchanged.

# shellcheck shell=bash

timing_record() {
  [ -n "${ICONDIFF_TIMINGS:-}" ] || return 0
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${ICONDIFF_CI_STEP:-}" >>"$ICONDIFF_TIMINGS"
}

timed_build() {
  local label=$1 start=$SECONDS status=0
  shift
  "$@" || status=$?
  echo "[timing] build $label: $((SECONDS - start)) s" >&2
  timing_record build "$label" $((SECONDS - start))
  return "$status"
}

timed_ctest() {
  local label=$1 start=$SECONDS status=0 junit
  shift
  junit=$(mktemp "${TMPDIR:-/tmp}/icondiff-ctest.XXXXXX.xml")
  ctest --output-junit "$junit" "$@" || status=$?
  echo "[timing] ctest $label: $((SECONDS - start)) s" >&2
  timing_record ctest "$label" $((SECONDS - start))
  if [ -s "$junit" ] && command -v python3 >/dev/null; then
    # One line per test: "name<TAB>seconds" from ctest's own measurement.
    python3 - "$junit" <<'EOF' | while IFS=$'\t' read -r name seconds; do
import sys, xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    print(f"{case.get('name')}\t{float(case.get('time') or 0):.1f}")
EOF
      timing_record test "$label/$name" "$seconds"
    done
  fi
  rm -f "$junit"
  return "$status"
}
