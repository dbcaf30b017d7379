#!/usr/bin/env bash
# CI gate: the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer, against a
# Kokkos built with Kokkos_ENABLE_DEBUG and Kokkos_ENABLE_DEBUG_BOUNDS_CHECK (every View access
# bounds-checked), Serial + OpenMP backends, MPI and Fortran parts included. One build serves
# both gates, so CI compiles icondiff once for them.
# The build has ICON's field layout (ICONDIFF_FIELD_LAYOUT=left): the test command runs the
# whole suite in the default layout of a CPU build (level-fastest), this gate runs it in the other
# one, so every test runs in both layouts in CI without a fourth build of everything
# (docs/dev/testing.md, "Both layouts"). Given ICONDIFF_OTHER_LAYOUT_CLI (the test command's
# icondiff, level-fastest), cli_layouts_agree compares the two layouts' files bit for bit. The benchmarks are left out here (their
# smoke runs are in the README's test command; under the sanitizers they would add minutes to
# CI and test no library code the unit tests do not).
# Any finding fails: UBSan does not recover, ASan and LeakSanitizer abort the test, a Kokkos
# bounds violation aborts. Two exceptions, both outside icondiff:
#  - The tests run under mpirun (label mpi) run without LeakSanitizer: Open MPI 4.1 keeps
#    start-up allocations to the end and unloads its plugins before LSan reports, so their
#    leaks come without a module name and cannot be suppressed by library. ASan and UBSan stay
#    on there; leaks in icondiff's own code are caught by the same code paths in the other tests
#    (one rank, no mpirun).
#  - No strict_string_checks: libgfortran's INQUIRE/OPEN hand Fortran strings (not
#    NUL-terminated) to strndup with their length, which that check misreads as an overflow.
# Environment: ICONDIFF_SANITIZER_BUILD_DIR (default: build-sanitizers), ICONDIFF_CTEST_ARGS
# (extra ctest arguments, e.g. -R granule), ICONDIFF_SANITIZER_LAYOUT (default left; right for
# level-fastest fields), ICONDIFF_SANITIZER_EXCLUDE (UBSan checks left out, see below; empty: none),
# ICONDIFF_OTHER_LAYOUT_CLI (see above), ICONDIFF_SANITIZER_ALL_RANKS=1 (the MPI tests on 3
# and 4 ranks too), ICONDIFF_SANITIZER_BACKENDS (default OPENMP; "SERIAL;OPENMP" for both)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ICONDIFF_SANITIZER_BUILD_DIR:-$root/build-sanitizers}
eval "$(ICONDIFF_KOKKOS_VARIANT=boundscheck "$root/scripts/bootstrap.sh")"
# shellcheck source=scripts/ci_timing.sh
source "$root/scripts/ci_timing.sh"
jobs=$(nproc)
start=$SECONDS
layout=${ICONDIFF_SANITIZER_LAYOUT:-left}
other_cli=""
if [[ -n "${ICONDIFF_OTHER_LAYOUT_CLI:-}" ]]; then
  other_cli=$(realpath "$ICONDIFF_OTHER_LAYOUT_CLI")
  [[ -x "$other_cli" ]] || { echo "[ci_sanitizers] ICONDIFF_OTHER_LAYOUT_CLI: $other_cli is not an executable" >&2; exit 1; }
fi
# Each backend test once, on the OpenMP backend: its teams have more than one thread (2 here), so
# per-team scratch and reductions are checked where Serial's teams of one would hide them; the
# Serial copies run the same kernel bodies and Views in the test command.
# -O1: ASan's recommendation (usable speed, exact reports). -g1: line tables and function names,
# all a sanitizer report's stack trace needs; full debug info (-g) compiles 30 % slower.
# UBSan without four of its checks (ICONDIFF_SANITIZER_EXCLUDE, default alignment,null,object-size,
# vptr): with GCC 12 at -O1 they made every translation unit compile 2-3x slower (a test: 73 s
# with them, 27 s without; 31 s ASan alone), and what they would find is reported here anyway or
# cannot happen: a null access is an ASan SEGV report with its stack (null), an access past an
# object an ASan overflow report or a Kokkos bounds error (object-size), Views and containers
# allocate aligned storage and x86-64 does not fault on a misaligned load (alignment), and
# icondiff declares no virtual function (vptr).
# Signed overflow, shifts, division by zero, bool/enum loads, VLA bounds, unreachable, missing
# returns, pointer overflow and the builtin checks stay on.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" \
  -DCMAKE_Fortran_FLAGS_DEBUG="-g1 -O1" -DICONDIFF_SANITIZERS=address,undefined \
  -DICONDIFF_SANITIZERS_EXCLUDE="${ICONDIFF_SANITIZER_EXCLUDE-alignment,null,object-size,vptr}" \
  -DICONDIFF_ENABLE_TESTS=ON -DICONDIFF_ENABLE_PERF_TESTS=OFF -DICONDIFF_ENABLE_MPI=ON \
  -DICONDIFF_ENABLE_FORTRAN=ON -DICONDIFF_ENABLE_CLI=ON -DICONDIFF_TEST_TIMEOUT_FACTOR=8 \
  -DICONDIFF_TEST_BACKENDS_ONLY="${ICONDIFF_SANITIZER_BACKENDS:-OPENMP}" \
  -DICONDIFF_FIELD_LAYOUT="$layout" -DICONDIFF_OTHER_LAYOUT_CLI="$other_cli"
grep -q '#define KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK' "$Kokkos_ROOT/include/KokkosCore_config.h" ||
  { echo "[ci_sanitizers] $Kokkos_ROOT is not bounds-checked" >&2; exit 1; }
# ... and the check fires, through the bootstrap's patched error path, under these sanitizers.
probe="$build/bounds_check_probe"
mkdir -p "$build"
c++ -std=c++17 -fopenmp -g1 -O1 -fsanitize=address,undefined -I"$Kokkos_ROOT/include" \
  "$root/scripts/sanitizers/bounds_check_probe.cpp" -L"$Kokkos_ROOT/lib" -lkokkoscore -ldl \
  -Wl,-rpath,"$Kokkos_ROOT/lib" -o "$probe"
probe_out=$(OMP_PROC_BIND=false OMP_NUM_THREADS=1 ASAN_OPTIONS=detect_stack_use_after_return=1 "$probe" 2>/dev/null) &&
  [[ "$probe_out" == *"View bounds error of view bounds_check_probe ( 3 < 3 , 1 < 4 )"* ]] ||
  { echo "[ci_sanitizers] Kokkos' bounds check did not fire: $probe_out" >&2; exit 1; }
echo "[ci_sanitizers] bounds check live: $probe_out" >&2
timed_build sanitizers cmake --build "$build" -j "$jobs"
built=$SECONDS
asan=abort_on_error=1:detect_stack_use_after_return=1:check_initialization_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The granule, dycore and MPI comparison bodies and the CLI's mpirun comparisons on the generated
# grids of a bare checkout (same branches, a quarter of the cells; granule_test_grids() in
# unit_tests/support/test_grids.hpp): the real files run through them in the test command.
export ICONDIFF_TEST_GRIDS=generated
export LSAN_OPTIONS=suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0
# Label static (the layer checker and the headers' -fsyntax-only compile) is left out: it runs no
# icondiff code, so instrumenting it finds nothing; the test command runs it (30 s here).
# shellcheck disable=SC2086
# Label model_day (the JW model day against the stored long run, the steady JW day of the time
# loop) too: their code runs here in cli_dynamics and the time loop's other cases.
ASAN_OPTIONS=$asan:detect_leaks=1 timed_ctest sanitizers --test-dir "$build" --output-on-failure -j "$jobs" \
  -LE 'mpi|static|model_day' ${ICONDIFF_CTEST_ARGS:-}
# The MPI unit tests on 1 and 2 ranks (3 and 4 ranks run the same code paths; under the
# sanitizers they would add ~10 minutes to CI): ICONDIFF_SANITIZER_ALL_RANKS=1 runs them all.
# The CLI scripts' mpirun comparisons likewise stop at 2 ranks (ICONDIFF_TEST_MAX_RANKS; their
# error paths on 3 ranks still run).
mpi_skip=(-E '_np[34]$')
export ICONDIFF_TEST_MAX_RANKS=2
[ "${ICONDIFF_SANITIZER_ALL_RANKS:-0}" != 1 ] || { mpi_skip=(); unset ICONDIFF_TEST_MAX_RANKS; }
# shellcheck disable=SC2086
ASAN_OPTIONS=$asan:detect_leaks=0 timed_ctest sanitizers-mpi --test-dir "$build" --output-on-failure -j "$jobs" \
  -L mpi "${mpi_skip[@]}" ${ICONDIFF_CTEST_ARGS:-}
echo "[ci_sanitizers] clean: build $((built - start)) s, tests $((SECONDS - built)) s" >&2
