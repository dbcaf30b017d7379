#!/usr/bin/env bash
# The README's test command: installs the dependencies (scripts/bootstrap.sh), configures with
# every optional part on (tests, benchmarks, MPI, Fortran), builds, and runs the whole test suite.
# Then builds the mixed-precision configuration (vp = float, ICONDIFF_MIXED_PRECISION) and runs
# the tests whose results depend on vp (stencils, granule, savepoints, the CLI run/verify cycle).
# These builds have the default field layout of a CPU build (ICONDIFF_FIELD_LAYOUT=auto:
# level-fastest); ICON's layout (ICONDIFF_FIELD_LAYOUT=left) runs the whole suite in CI's
# sanitizer gate (scripts/ci_sanitizers.sh), and ICONDIFF_TEST_LAYOUT_LEFT=1 adds it here too, as
# an optimised build with every part on (kernel tests on OpenMP only), for work on layout code.
# Environment: ICONDIFF_BUILD_DIR (default: build-tests; the other builds go to <dir>-mixed and
# <dir>-left), ICONDIFF_SKIP_MIXED=1 skips the mixed-precision part, ICONDIFF_TEST_LAYOUT_LEFT=1
# adds ICON's layout, plus what bootstrap.sh reads.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
eval "$("$root/scripts/bootstrap.sh")"
# shellcheck source=scripts/ci_timing.sh
source "$root/scripts/ci_timing.sh"
build=${ICONDIFF_BUILD_DIR:-$root/build-tests}
jobs=$(nproc)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DICONDIFF_ENABLE_TESTS=ON \
  -DICONDIFF_ENABLE_PERF_TESTS=ON -DICONDIFF_ENABLE_MPI=ON -DICONDIFF_ENABLE_FORTRAN=ON
timed_build main cmake --build "$build" -j "$jobs"
timed_ctest main --test-dir "$build" --output-on-failure -j "$jobs"

if [[ "${ICONDIFF_SKIP_MIXED:-0}" != 1 ]]; then
  mixed="$build-mixed"
  # Backend tests on OpenMP only: their Serial programs run the same bodies in the build above.
  cmake -S "$root" -B "$mixed" -DCMAKE_BUILD_TYPE=Release -DICONDIFF_ENABLE_TESTS=ON \
    -DICONDIFF_MIXED_PRECISION=ON -DICONDIFF_TEST_BACKENDS_ONLY=OPENMP
  timed_build mixed cmake --build "$mixed" -j "$jobs" --target \
    test_diffusion_stencils_OPENMP test_diffusion_granule_OPENMP test_diffusion_physics_OPENMP \
    test_diffusion_reference test_diffusion_savepoint icondiff_cli \
    test_dycore_edge_programs_OPENMP test_dycore_solver_OPENMP test_dycore_reference \
    test_dycore_tools_OPENMP test_dycore_metric_fields \
    test_dycore_interpolation_coefficients test_dycore_config test_static_fields \
    test_velocity_advection_OPENMP test_velocity_advection_reference \
    test_solve_nonhydro_programs_OPENMP test_solve_nonhydro_reference
  # Every test the pattern below selects must be in the list above (else ctest reports it Not Run).
  timed_ctest mixed --test-dir "$mixed" --output-on-failure -j "$jobs" \
    -R 'diffusion|dycore|static_fields|cli_run|cli_dynamics|velocity_advection|solve_nonhydro'
fi

if [[ "${ICONDIFF_TEST_LAYOUT_LEFT:-0}" == 1 ]]; then
  # The other field layout, everything on, every test: each path (C API and Fortran zero copy,
  # MPI, the CLI, savepoints) must work and agree in both layouts. Kernel tests on the OpenMP
  # backend only: their Serial twins would add build time and no layout case.
  left="$build-left"
  cmake -S "$root" -B "$left" -DCMAKE_BUILD_TYPE=Release -DICONDIFF_ENABLE_TESTS=ON \
    -DICONDIFF_ENABLE_PERF_TESTS=ON -DICONDIFF_ENABLE_MPI=ON -DICONDIFF_ENABLE_FORTRAN=ON \
    -DICONDIFF_ENABLE_CLI=ON -DICONDIFF_FIELD_LAYOUT=left -DICONDIFF_TEST_BACKENDS_ONLY=OPENMP \
    -DICONDIFF_OTHER_LAYOUT_CLI="$build/bin/icondiff"
  timed_build left cmake --build "$left" -j "$jobs"
  timed_ctest left --test-dir "$left" --output-on-failure -j "$jobs"
fi
