#!/usr/bin/env bash
# Create (once) the cached Python virtual environment with ICON4Py and gt4py pinned, for the
# ICON4Py peer harness (compare_granule.py, compare_factories.py, compare_dycore.py, race.py) and the per-stencil
# comparison (compare_stencils.py).
#
#   perf_tests/peers/icon4py/setup_venv.sh          # prints the venv path on stdout
#   VENV=$(perf_tests/peers/icon4py/setup_venv.sh) && "$VENV/bin/python" ...
#
# Location: ${ICONDIFF_CACHE_DIR:-$HOME/.cache/icondiff}/icon4py-0.2.0-venv. The venv is complete
# when it holds the marker file `.ready`; the marker records a hash of the pinned requirement list
# below, so changing a pin rebuilds the venv on the next run. A second run, with the marker in
# place and the pins unchanged, only checks the marker (~1 s; no network).
#
# What is installed (pip, from PyPI):
#   icon4py-common==0.2.0, icon4py-atmosphere-diffusion==0.2.0, icon4py-atmosphere-dycore==0.2.0
#   (compare_dycore.py), gt4py==1.1.10 (with dace for the
#   dace backends and gridtools-cpp for the gtfn backend), plus the two run-time imports of
#   icon4py-common's `io` extra that the grid manager and the factories need:
#     * netCDF4   (icon4py.model.common.grid.gridfile reads the grid file with it)
#     * xarray    (icon4py.model.common.states.{factory,utils}, imported by the diffusion granule
#                  and the geometry/interpolation/metrics factories)
#   The rest of that extra (cartopy, datashader, holoviews, uxarray, pymetis, scikit-learn,
#   xarray[complete] = dask, pyarrow, numba, ...; about 80 packages) serves ICON4Py's output
#   writers and plotting only and is not installed.
#   Every package of the resulting environment is constrained to the version ICON4Py v0.2.0's own
#   lock file (uv.lock of the v0.2.0 tag, Python 3.11 on Linux) resolves to: `pip install` alone
#   picks the newest versions instead, notably the pre-release dace 2.0.0b1 (gt4py 1.1.10 only
#   asks for dace>=2.0.0a3), with which gt4py's dace backend fails to build ICON4Py's RBF
#   stencil ("Connector neighbor_indices ... is not equivalent", reduce_with_skip_values);
#   ICON4Py 0.2.0 locks dace 2.0.0a3.
#
# Needs (Debian 12 packages; this script never calls apt-get, it fails with a message instead):
#   python3 (3.10 or newer), python3-venv (`python3 -m venv` with pip), python3-dev (Python.h, for
#   the gtfn/dace bindings that gt4py compiles with nanobind), build-essential (g++), cmake.
#   The gtfn and dace backends compile C++ at the first call of each program; gt4py's compile
#   cache goes to $GT4PY_BUILD_CACHE_DIR, which the harness sets to $venv/gt4py-cache: the
#   compiled programs link a nanobind built from this venv's headers, so they must go when the
#   venv is rebuilt (a cache kept across venvs fails to link with undefined nanobind symbols).
#
# Environment:
#   ICONDIFF_CACHE_DIR   cache root (default $HOME/.cache/icondiff)
#   ICONDIFF_PYTHON      interpreter to build the venv from (default: /usr/bin/python3 if it
#                        exists, the Debian system Python, else `python3` on PATH)
set -euo pipefail

ICON4PY_VERSION=0.2.0
GT4PY_VERSION=1.1.10
requirements=(
  "icon4py-common==${ICON4PY_VERSION}"
  "icon4py-atmosphere-diffusion==${ICON4PY_VERSION}"
  "icon4py-atmosphere-dycore==${ICON4PY_VERSION}"
  "gt4py==${GT4PY_VERSION}"
  "netCDF4==1.7.4"
  "xarray==2026.2.0"
)
# Versions of ICON4Py v0.2.0's uv.lock (Python 3.11, Linux) for every package pip installs here.
constraints="
array-api-compat==1.14.0 asttokens==2.4.1 astunparse==1.6.3 attrs==26.1.0 black==26.5.1
boltons==25.0.0 cachebox==5.2.3 cached-property==2.0.1 certifi==2026.5.20 cftime==1.6.5
click==8.3.3 cmake==4.3.2 cytoolz==1.1.0 dace==2.0.0a3 deepdiff==9.1.0 devtools==0.12.2
dill==0.4.1 executing==2.2.1 factory-boy==3.3.3 faker==40.18.0 filelock==3.19.1 fparser==0.2.2
frozendict==2.4.7 gridtools-cpp==2.3.9 gt4py==1.1.10 icon4py-atmosphere-diffusion==0.2.0
icon4py-atmosphere-dycore==0.2.0
icon4py-common==0.2.0 jinja2==3.1.6 lark==1.3.1 mako==1.3.12 markupsafe==3.0.3 mpmath==1.3.0
mypy-extensions==1.1.0 nanobind==2.12.0 netcdf4==1.7.4 networkx==3.5 ninja==1.13.0
numpy==2.4.6 orderly-set==5.5.0 packaging==26.2 pandas==3.0.3 pathspec==1.1.1
platformdirs==4.9.6 ply==3.11 pybind11==3.0.4 pygments==2.20.0 python-dateutil==2.9.0.post0
pytokens==0.4.1 pyyaml==6.0.3 setuptools-scm==10.0.5 six==1.17.0 sympy==1.14.0 tabulate==0.10.0
toolz==1.1.0 vcs-versioning==1.1.1
typing-extensions==4.15.0 tzdata==2026.2 versioningit==3.3.0 xarray==2026.2.0 xxhash==3.7.0
"

cache_dir="${ICONDIFF_CACHE_DIR:-$HOME/.cache/icondiff}"
venv="$cache_dir/icon4py-${ICON4PY_VERSION}-venv"
marker="$venv/.ready"

log() { echo "[icon4py-venv] $*" >&2; }
die() { echo "[icon4py-venv] error: $*" >&2; exit 1; }

# The hash of everything that defines the venv's content: the pins and the interpreter.
if [ -n "${ICONDIFF_PYTHON:-}" ]; then
  python="$ICONDIFF_PYTHON"
elif [ -x /usr/bin/python3 ]; then
  python=/usr/bin/python3
else
  python=python3
fi
key=$(printf '%s\n' "${requirements[@]}" $constraints "python=$python" | sha256sum | cut -c1-16)

# Fast path: complete venv with the same pins.
if [ -f "$marker" ] && grep -q "^key=$key\$" "$marker" && [ -x "$venv/bin/python" ]; then
  echo "$venv"
  exit 0
fi

# ---- prerequisites (clear messages instead of half-built venvs) --------------------------------
command -v "$python" >/dev/null 2>&1 || die "no Python interpreter '$python' (set ICONDIFF_PYTHON)"
"$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' ||
  die "$python is $("$python" -V 2>&1); ICON4Py 0.2.0 needs Python >= 3.10"
"$python" -c 'import venv, ensurepip' 2>/dev/null ||
  die "$python cannot create virtual environments with pip: install the Debian package python3-venv"
python_include=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
[ -f "$python_include/Python.h" ] ||
  die "no $python_include/Python.h: install the Debian package python3-dev (gt4py compiles Python bindings for the gtfn and dace backends)"
command -v c++ >/dev/null 2>&1 || die "no C++ compiler: install the Debian package build-essential"
command -v cmake >/dev/null 2>&1 || die "no cmake: install the Debian package cmake"

# ---- build into a temporary directory, then move into place ------------------------------------
# A venv is not relocatable (its scripts hard-code their path), so it is built at its final path
# after removing any stale or partial one; the marker is written last.
mkdir -p "$cache_dir"
lock="$cache_dir/icon4py-${ICON4PY_VERSION}-venv.lock"
exec 9>"$lock"
if ! flock -n 9; then
  log "another setup is running; waiting for it"
  flock 9
  if [ -f "$marker" ] && grep -q "^key=$key\$" "$marker"; then
    echo "$venv"
    exit 0
  fi
fi

start=$(date +%s)
log "creating $venv with $("$python" -V 2>&1) ($python)"
rm -rf "$venv"
"$python" -m venv "$venv" >&2
"$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >&2
printf '%s\n' $constraints >"$venv/constraints.txt"
log "pip install ${requirements[*]} (constrained to ICON4Py v0.2.0's lock: $venv/constraints.txt)"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -c "$venv/constraints.txt" \
  "${requirements[@]}" >&2 ||
  die "pip install failed (see above); the partial venv $venv is left for inspection"

# Smoke test: the modules the harness imports, and the backends it uses.
"$venv/bin/python" - >&2 <<'EOF' || die "the new venv fails its import check (see above)"
import gt4py.next as gtx
import icon4py.model.atmosphere.diffusion.diffusion as diffusion
import icon4py.model.atmosphere.dycore.solve_nonhydro as solve_nonhydro
import icon4py.model.common.grid.grid_manager as gm
import icon4py.model.common.grid.geometry as geometry
import icon4py.model.common.interpolation.interpolation_factory as interpolation_factory
import icon4py.model.common.metrics.metrics_factory as metrics_factory
import netCDF4, xarray
from gt4py.next.program_processors.runners import gtfn
print("import check ok: gt4py", gtx.__version__ if hasattr(gtx, "__version__") else "")
EOF

{
  echo "key=$key"
  echo "python=$python ($("$python" -V 2>&1))"
  echo "requirements=${requirements[*]}"
  echo "created=$(date -u +%Y-%m-%dT%H:%M:%SZ) in $(( $(date +%s) - start )) s"
  echo "# pip freeze:"
  "$venv/bin/python" -m pip freeze --disable-pip-version-check
} >"$marker.tmp"
mv "$marker.tmp" "$marker"
log "ready in $(( $(date +%s) - start )) s"
echo "$venv"
