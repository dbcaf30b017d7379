#!/usr/bin/env bash
# CI gate: icondiff compiles and links for every Kokkos backend it supports, with Debian's own
# toolchains only — CUDA 11.8 (nvidia-cuda-toolkit from bookworm's non-free component, host
# compiler g++-11, sm_80) and HIP 5.2.3 (hipcc, gfx908) — each against a Kokkos 3.4.01 built
# for that backend by scripts/bootstrap.sh from the same Debian trilinos source (cached).
# Built: the target icondiff_device_programs (top-level CMakeLists.txt): the libraries with the
# MPI parts, the Fortran module, the CLI, the device program of each backend test
# (unit_tests/test_<name>.hpp; ICONDIFF_TEST_BACKENDS_ONLY) and the GPU bundle's benchmarks: every
# source with device code. Not built: the backend tests' Serial and OpenMP programs and the
# host-only test programs: host code that the OpenMP build of the test command compiles and runs
# (compiled by nvcc_wrapper or hipcc they would double this gate's time and check no device code).
# Nothing runs: with CUDA or HIP enabled, Kokkos::initialize needs a GPU, and CI has none.
#
#   scripts/ci_backends.sh [cuda] [hip]      (default: both)
#
# Another CUDA (this machine kind carries CUDA 13 in /usr/local) breaks a CUDA 11.8 build: its
# ptxas comes first on PATH and its cuda.h in /usr/local/include shadows Debian's. The CUDA build
# therefore runs in a private mount namespace (unshare -m, needs root) with tmpfs over
# /usr/local/include, /usr/local/lib and /usr/local/cuda*, and /usr/local from PATH removed;
# nothing outside this script sees it.
# Environment: ICONDIFF_BACKEND_BUILD_ROOT (default: the repository; builds go to build-<backend>),
#   ICONDIFF_BACKEND_MODE (release, the default: -O3, CUDA with Hopper machine code too, what a
#   GPU bundle is made from; check, what CI runs: a compile-and-link check at -O0 for Kokkos' one
#   device architecture; perf_tests/gpu/make_bundle.sh refuses such a build),
#   ICONDIFF_BACKEND_TARGETS (default: icondiff_device_programs; "all": every program; e.g.
#   "icondiff test_icon_solve_nh_api" to check that a few changed files compile with nvcc before
#   the whole two-backend build)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_root=${ICONDIFF_BACKEND_BUILD_ROOT:-$root}
backends=("$@")
[ ${#backends[@]} -gt 0 ] || backends=(cuda hip)
mode=${ICONDIFF_BACKEND_MODE:-release}
case "$mode" in
  release | check) ;;
  *) echo "[ci_backends] ICONDIFF_BACKEND_MODE=$mode: expected release or check" >&2; exit 2 ;;
esac
log() { echo "[ci_backends] $*" >&2; }
# shellcheck source=scripts/ci_timing.sh
source "$root/scripts/ci_timing.sh"

# Configure + build one backend; runs with the environment the caller prepared.
build_backend() {
  local backend=$1 build="$build_root/build-$1" start=$SECONDS
  eval "$(ICONDIFF_KOKKOS_VARIANT=$backend "$root/scripts/bootstrap.sh")"
  log "$backend: Kokkos in $Kokkos_ROOT, compiler $ICONDIFF_CXX"
  local extra=()
  case "$mode" in
    release)
      # CUDA: Hopper machine code beside the Ampere code Kokkos 3.4 targets (the GPU bundle runs
      # on H100/H200 without JIT-compiling every kernel at load; docs/user/gpu.md).
      extra+=(-DCMAKE_BUILD_TYPE=Release)
      [ "$backend" = cuda ] && extra+=("-DICONDIFF_CUDA_GENCODE=arch=compute_90,code=sm_90")
      ;;
    check)
      # Unoptimised host code, device code for Kokkos' one architecture: every file still goes
      # through the device compiler's front end and code generation, in less time per file
      # (src/dycore/velocity_advection.cpp with nvcc: 78 s at -O3 for sm_80 + sm_90, 34 s).
      # hipcc's -O0 holds for its device code too (clang compiles both).
      extra+=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_Fortran_FLAGS_DEBUG=-O0)
      [ "$backend" = cuda ] && extra+=(-DICONDIFF_CUDA_GENCODE=)
      ;;
  esac
  cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER="$ICONDIFF_CXX" \
    "${extra[@]}" -DICONDIFF_ENABLE_TESTS=ON -DICONDIFF_ENABLE_PERF_TESTS=ON -DICONDIFF_ENABLE_MPI=ON \
    -DICONDIFF_ENABLE_FORTRAN=ON -DICONDIFF_TEST_BACKENDS_ONLY="$(echo "$backend" | tr '[:lower:]' '[:upper:]')" \
    >"$build.configure.log" 2>&1 || {
    tail -n 40 "$build.configure.log" >&2
    log "$backend: configure failed"
    return 1
  }
  local macro
  macro=KOKKOS_ENABLE_$(echo "$backend" | tr '[:lower:]' '[:upper:]')
  grep -q "#define $macro" "$Kokkos_ROOT/include/KokkosCore_config.h" || {
    log "$backend: $Kokkos_ROOT has no $macro"
    return 1
  }
  local targets=()
  for t in ${ICONDIFF_BACKEND_TARGETS:-icondiff_device_programs}; do targets+=(--target "$t"); done
  timed_build "$backend" cmake --build "$build" -j "$(nproc)" "${targets[@]}" >"$build.build.log" 2>&1 || {
    grep -B2 -A8 -m 10 'error' "$build.build.log" >&2 || tail -n 60 "$build.build.log" >&2
    log "$backend: build failed (log: $build.build.log)"
    return 1
  }
  local programs
  programs=$(find "$build/bin" -maxdepth 1 -type f -executable | wc -l)
  log "$backend ($mode): OK — library, CLI and $programs programs compiled and linked in $((SECONDS - start)) s"
}

for backend in "${backends[@]}"; do
  case "$backend" in
    hip) build_backend hip ;;
    cuda)
      if [ "${ICONDIFF_CUDA_NAMESPACE:-0}" != 1 ] && ls -d /usr/local/cuda* /usr/local/include/cuda.h >/dev/null 2>&1; then
        [ "$(id -u)" -eq 0 ] || {
          log "cuda: another CUDA is installed in /usr/local; hiding it needs root (unshare -m)"
          exit 1
        }
        hide=(/usr/local/include /usr/local/lib)
        for d in /usr/local/cuda-*; do [ -d "$d" ] && hide+=("$d"); done
        log "cuda: hiding ${hide[*]} in a private mount namespace"
        clean_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v '^/usr/local' | paste -sd: -)
        unshare -m --propagation private \
          env -u CUDA_HOME -u CUDA_PATH -u LIBRARY_PATH -u CPATH PATH="$clean_path" \
          ICONDIFF_CUDA_NAMESPACE=1 bash -c 'for d in "${@:2}"; do
              mount -t tmpfs -o size=1m,mode=0755 tmpfs "$d" || exit 1
            done
            exec "$1" cuda' _ "$root/scripts/ci_backends.sh" "${hide[@]}"
      else
        build_backend cuda
      fi
      ;;
    *)
      log "unknown backend '$backend' (expected cuda or hip)"
      exit 2
      ;;
  esac
done
