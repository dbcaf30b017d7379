# Shared by the CLI test scripts (sourced): comparisons of output files and the rank counts a
# run may use.

# Every variable of two UGRID files equal bit for bit (attributes other than history too).
same_output() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys, netCDF4, numpy as np
a, b = (netCDF4.Dataset(p) for p in sys.argv[1:3])
for d in (a, b):
    d.set_auto_mask(False)  # fill values compared as the stored numbers
bad = [] if a.data_model == b.data_model else [f"format {a.data_model} / {b.data_model}"]
bad += [d for d in a.dimensions if d not in b.dimensions or len(a.dimensions[d]) != len(b.dimensions[d])]
for v in a.variables:
    if v not in b.variables:
        bad.append(v)
        continue
    x, y = a[v], b[v]
    if (x.dimensions != y.dimensions or x.dtype != y.dtype
            or {k: str(x.getncattr(k)) for k in x.ncattrs()} != {k: str(y.getncattr(k)) for k in y.ncattrs()}
            or not np.array_equal(np.asarray(x[:]), np.asarray(y[:]))):
        bad.append(v)
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
