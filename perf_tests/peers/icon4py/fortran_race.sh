#!/usr/bin/env bash
# The Fortran race: the same Fortran drivers (perf_tests/fortran/bench_fortran_call.F90 for the
# diffusion granule, bench_fortran_solve_nh.F90 for solve_nh) linked once against icondiff's drop-in
# bindings and once against ICON4Py 0.2.0's own, built here with its py2fgen from the PyPI
# packages in the peer venv. Prints the tables of perf_tests/fortran/bench_fortran_call.sh and
# bench_fortran_solve_nh.sh with ICON4Py's rows (dace and gtfn backends).
# Not run by CI (minutes of gt4py compilation per grid and backend on a cold cache).
#
#   perf_tests/peers/icon4py/fortran_race.sh BUILD_DIR [OUT]
#
# BUILD_DIR: an icondiff build with -DICONDIFF_ENABLE_FORTRAN=ON -DICONDIFF_ENABLE_TESTS=ON
# -DICONDIFF_ENABLE_PERF_TESTS=ON (Release); this script sets ICONDIFF_ICON4PY_BINDINGS_DIR in it
# and builds bench_fortran_call, bench_fortran_solve_nh and their *_icon4py twins.
# FORTRAN_RACE_TABLES: which races to run (default "diffusion solve_nh"); ICON4PY_BACKENDS and
# the tables' own variables (BENCH_SOLVE_NH_CASES, ...) pass through. OUT: OUT.jsonl (diffusion)
# and OUT-solve_nh.jsonl get the JSON records.
#
# What it takes to run ICON4Py's bindings here (docs/user/fortran.md tells why):
#  * the bindings' packages (icon4py-bindings, -tools, -atmosphere-dycore, -atmosphere-muphys
#    0.2.0, cffi, pycparser and py2fgen's formatters) added to the peer venv, pinned, no deps;
#  * py2fgen looks every function up in one module: a two-line module re-exports the three;
#  * grid_init always takes ICON4Py's multi-node path, which needs mpi4py (and GHEX): a start-up
#    hook (PY2FGEN_EXTRA_CALLABLES) registers single-node process properties for one rank;
#  * the netCDF4 wheel's own libnetcdf must be preloaded (the system one, which libicondiff links,
#    crashes netCDF4's module init: SIGSEGV in strdup);
#  * PYTHONOPTIMIZE=2, as ICON4Py recommends for production.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$(cd "$1" && pwd)
out=${2:-}
venv=$("$here/setup_venv.sh")
python="$venv/bin/python"

"$here/add_binding_packages.sh" "$venv"

work="$build/icon4py-fortran-race"
mkdir -p "$work/bindings"
cat >"$work/icondiff_race_bindings.py" <<'PY'
# The five functions of ICON4Py's bindings in one module (py2fgen looks them up on one module).
from icon4py.bindings.diffusion_wrapper import diffusion_init, diffusion_run
from icon4py.bindings.dycore_wrapper import solve_nh_init, solve_nh_run
from icon4py.bindings.grid_wrapper import grid_init
PY
cat >"$work/icondiff_single_rank.py" <<'PY'
"""py2fgen start-up hook: one rank without mpi4py. ICON4Py 0.2.0's grid_init always takes its
multi-node path (comm_id is never None), whose process properties need mpi4py; on one rank the
single-node properties are what it ends up with anyway."""


def install():
    from icon4py.model.common.decomposition import definitions, mpi_decomposition  # noqa: F401

    @definitions.get_process_properties.register(definitions.MultiNodeRun)
    def _single_rank(runtime, comm_id=None):
        return definitions.SingleNodeProcessProperties()
PY
export PYTHONPATH="$work/bindings:$work:$venv/lib/python3.11/site-packages"
echo "[fortran-race] py2fgen -> $work/bindings" >&2
(cd "$work" && "$venv/bin/py2fgen" icondiff_race_bindings \
  grid_init,diffusion_init,diffusion_run,solve_nh_init,solve_nh_run \
  icon4py_bindings -o "$work/bindings" >"$work/py2fgen.log" 2>&1) ||
  { tail -20 "$work/py2fgen.log"; exit 1; }

# The C ABI: ICON4Py's generated header and icondiff's declare the same functions; a C compiler
# refuses two declarations of one function with different parameter types.
"$python" -m icon4py.bindings.all_bindings --output-h "$work/icon4py_all_bindings.h"
printf '#include "%s"\n#include "%s"\n' "$work/icon4py_all_bindings.h" \
  "$root/fortran_bindings/include/icon4py_bindings.h" >"$work/abi_check.c"
cc -Wall -Werror -fsyntax-only "$work/abi_check.c" &&
  echo "C ABI: icondiff's icon4py_bindings.h declares grid_init_wrapper, diffusion_init_wrapper, diffusion_run_wrapper, solve_nh_init_wrapper and solve_nh_run_wrapper exactly as ICON4Py 0.2.0's generated header"

cmake -DICONDIFF_ICON4PY_BINDINGS_DIR="$work/bindings" "$build" >/dev/null
cmake --build "$build" -j "$(nproc)" --target bench_fortran_call bench_fortran_call_icon4py \
  bench_fortran_solve_nh bench_fortran_solve_nh_icon4py >/dev/null
echo "Fortran API: the drivers compiled against ICON4Py's generated module icon4py_bindings as well"

netcdf_wheel=$(ls "$venv"/lib/python3.11/site-packages/netcdf4.libs/libnetcdf-*.so* | head -1)
# run_icon4py.sh EXE ARGS...: a driver linked against ICON4Py's bindings, in their environment.
cat >"$work/run_icon4py.sh" <<SH
#!/usr/bin/env bash
exe=\$1
shift
exec env PYTHONPATH="$PYTHONPATH" PY2FGEN_EXTRA_CALLABLES=icondiff_single_rank:install \\
  GT4PY_BUILD_CACHE_DIR="$venv/gt4py-cache" PYTHONOPTIMIZE=2 PYTHONWARNINGS=ignore \\
  LD_LIBRARY_PATH="$(dirname "$netcdf_wheel")" LD_PRELOAD="$netcdf_wheel" \\
  "$build/bin/\$exe" "\$@"
SH
chmod +x "$work/run_icon4py.sh"
printf '#!/usr/bin/env bash\nexec "%s" bench_fortran_call_icon4py "$@"\n' "$work/run_icon4py.sh" \
  >"$work/run_icon4py_bench.sh"
printf '#!/usr/bin/env bash\nexec "%s" bench_fortran_solve_nh_icon4py "$@"\n' "$work/run_icon4py.sh" \
  >"$work/run_icon4py_solve_nh_bench.sh"
chmod +x "$work/run_icon4py_bench.sh" "$work/run_icon4py_solve_nh_bench.sh"
for table in ${FORTRAN_RACE_TABLES:-diffusion solve_nh}; do
  case $table in
    diffusion)
      ICON4PY_BENCH="$work/run_icon4py_bench.sh" \
        "$root/perf_tests/fortran/bench_fortran_call.sh" "$build" $out ;;
    solve_nh)
      ICON4PY_BENCH="$work/run_icon4py_solve_nh_bench.sh" \
        "$root/perf_tests/fortran/bench_fortran_solve_nh.sh" "$build" ${out:+"$out-solve_nh"} ;;
    *) echo "unknown table $table (diffusion, solve_nh)" >&2; exit 2 ;;
  esac
done
