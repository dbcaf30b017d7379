#!/usr/bin/env bash
# The README's test command: installs the dependencies (scripts/bootstrap.sh), configures with
# every optional part on (tests, benchmarks, MPI, Fortran), builds, and runs the whole test suite.
# Then builds the mixed-precision configuration (vp = float, ICONDIFF_MIXED_PRECISION) and runs
# the tests whose results depend on vp (stencils, granule, savepoints, the CLI run/verify cycle).
# Environment: ICONDIFF_BUILD_DIR (default: build-tests; the mixed build goes to <dir>-mixed),
# ICONDIFF_SKIP_MIXED=1 skips the mixed-precision part, plus what bootstrap.sh reads.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
eval "$("$root/scripts/bootstrap.sh")"
build=${ICONDIFF_BUILD_DIR:-$root/build-tests}
jobs=$(nproc)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DICONDIFF_ENABLE_TESTS=ON \
  -DICONDIFF_ENABLE_PERF_TESTS=ON -DICONDIFF_ENABLE_MPI=ON -DICONDIFF_ENABLE_FORTRAN=ON
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure -j "$jobs"

if [[ "${ICONDIFF_SKIP_MIXED:-0}" != 1 ]]; then
  mixed="$build-mixed"
  cmake -S "$root" -B "$mixed" -DCMAKE_BUILD_TYPE=Release -DICONDIFF_ENABLE_TESTS=ON \
    -DICONDIFF_MIXED_PRECISION=ON
  cmake --build "$mixed" -j "$jobs" --target test_diffusion_stencils_SERIAL \
    test_diffusion_stencils_OPENMP test_diffusion_granule_SERIAL test_diffusion_granule_OPENMP \
    test_diffusion_physics_SERIAL test_diffusion_physics_OPENMP \
    test_diffusion_reference test_diffusion_savepoint icondiff_cli \
    test_dycore_edge_programs_SERIAL test_dycore_edge_programs_OPENMP \
    test_dycore_solver_SERIAL test_dycore_solver_OPENMP test_dycore_reference
  ctest --test-dir "$mixed" --output-on-failure -j "$jobs" -R 'diffusion|dycore|cli_run'
fi
