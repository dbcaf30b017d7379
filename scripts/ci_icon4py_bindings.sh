#!/usr/bin/env bash
# CI step: ICON's route to icondiff, with ICON4Py 0.2.0's own generated binding module. ICON
# regenerates `icon4py_bindings` from the PyPI packages (python -m icon4py.bindings.all_bindings);
# that module, unmodified, must compile and link against libicondiff_icon4py_bindings (no
# --gc-sections) and drive icondiff's granules exactly as icondiff's own module does.
#
#   scripts/ci_icon4py_bindings.sh BUILD_DIR
#
# BUILD_DIR: an existing build with -DICONDIFF_ENABLE_FORTRAN=ON -DICONDIFF_ENABLE_TESTS=ON.
#  1. The peer venv (perf_tests/peers/icon4py/setup_venv.sh, cached) plus the binding packages.
#  2. ICON4Py's generated Fortran module and C header into BUILD_DIR/icon4py-generated (never in
#     the repository).
#  3. The C ABI: ICON4Py's header and icondiff's icon4py_bindings.h declare the same five functions;
#     a C compiler refuses two declarations of one function with different parameter types.
#  4. test_fortran_solve_nh built against ICON4Py's module (CMake ICONDIFF_ICON4PY_MODULE) and run:
#     grid_init, diffusion_init, solve_nh_init and solve_nh_run through ICON4Py's module, every
#     output equal to the C++ granule bit for bit.
# Exit status: 0 passed, 1 a failure, 2 a setup error (no venv, no build).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:?usage: ci_icon4py_bindings.sh BUILD_DIR}" && pwd) || exit 2
[[ -f "$build/CMakeCache.txt" ]] || { echo "ci_icon4py_bindings: $build is not a build" >&2; exit 2; }
say() { echo "[icon4py-bindings] $*" >&2; }

venv=$("$root/perf_tests/peers/icon4py/setup_venv.sh") || exit 2
"$root/perf_tests/peers/icon4py/add_binding_packages.sh" "$venv" || exit 2

work="$build/icon4py-generated"
mkdir -p "$work"
say "ICON4Py's generated module and header -> $work"
"$venv/bin/python" -m icon4py.bindings.all_bindings --output-f90 "$work/icon4py_bindings.f90" \
  --output-h "$work/icon4py_bindings.h" >"$work/all_bindings.log" 2>&1 ||
  { tail -20 "$work/all_bindings.log"; exit 2; }
for function in grid_init diffusion_init diffusion_run solve_nh_init solve_nh_run; do
  grep -q "subroutine $function(" "$work/icon4py_bindings.f90" ||
    { say "ICON4Py's module has no subroutine $function"; exit 1; }
done

printf '#include "%s"\n#include "%s"\n' "$work/icon4py_bindings.h" \
  "$root/fortran_bindings/include/icon4py_bindings.h" >"$work/abi_check.c"
cc -Wall -Werror -fsyntax-only "$work/abi_check.c"
say "C ABI: icondiff's icon4py_bindings.h declares the five functions exactly as ICON4Py's header"

cmake -DICONDIFF_ICON4PY_MODULE="$work/icon4py_bindings.f90" "$build" >/dev/null
cmake --build "$build" -j "$(nproc)" --target test_fortran_solve_nh_icon4py_module
ctest --test-dir "$build" -R '^fortran_solve_nh_icon4py_module$' --output-on-failure
say "ICON4Py's own module drives icondiff bit-identically to the C++ granule"
