#!/usr/bin/env bash
# The README's test command: installs the dependencies (scripts/bootstrap.sh), configures with
# every optional part on (tests, benchmarks, MPI, Fortran), builds, and runs the whole test suite.
# Environment: ICONDIFF_BUILD_DIR (default: build-tests), plus what bootstrap.sh reads.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
eval "$("$root/scripts/bootstrap.sh")"
build=${ICONDIFF_BUILD_DIR:-$root/build-tests}
jobs=$(nproc)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DICONDIFF_ENABLE_TESTS=ON \
  -DICONDIFF_ENABLE_PERF_TESTS=ON -DICONDIFF_ENABLE_MPI=ON -DICONDIFF_ENABLE_FORTRAN=ON
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
