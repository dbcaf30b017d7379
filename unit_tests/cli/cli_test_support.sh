# Shared by the CLI test scripts (sourced): comparisons of output files and the rank counts a
# run may use.

# Every variable of two UGRID files equal bit for bit (attributes other than history too).
same_output() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys, netCDF4, numpy as np
a, b = (netCDF4.Dataset(p) for p in sys.argv[1:3])
bad = [v for v in a.variables
       if v not in b.variables or not np.array_equal(np.asarray(a[v][:]), np.asarray(b[v][:]))]
bad += [k for k in a.ncattrs() if k != "history" and str(a.getncattr(k)) != str(b.getncattr(k))]
if bad: sys.exit("differ: " + ", ".join(bad))
PY
}

# The rank counts of a list ("2 3 4") up to ICONDIFF_TEST_MAX_RANKS (default: all). The sanitizer
# gate sets 2, as it leaves out the _np3/_np4 unit tests: more ranks run the same code paths.
ranks_up_to_limit() {
  local n limit=${ICONDIFF_TEST_MAX_RANKS:-0} kept=()
  for n in $1; do
    [ "$limit" -gt 0 ] && [ "$n" -gt "$limit" ] && continue
    kept+=("$n")
  done
  echo "${kept[*]}"
}

# Whether a run on N ranks is within ICONDIFF_TEST_MAX_RANKS.
ranks_allowed() { [ -n "$(ranks_up_to_limit "$1")" ]; }
