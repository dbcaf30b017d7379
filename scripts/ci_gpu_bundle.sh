#!/usr/bin/env bash
# CI gate for the GPU bundle (perf_tests/gpu/, docs/user/benchmarking.md "A GPU run in one call"):
#   * the CUDA bundle is made from the release CUDA build of scripts/ci_backends.sh (its default
#     mode) and must stay within 60 MiB as shipped (.tar.xz; nothing of it can run here: CI has no
#     GPU). CI runs the twin only: its CUDA build is a compile check (ICONDIFF_BACKEND_MODE=check),
#     which make_bundle.sh refuses. make_bundle.sh fails any bundle over 60 MiB and logs its size;
#   * its CPU twin — the same bundling script on the OpenMP build of scripts/run_tests.sh — is
#     unpacked from its .tar.xz into a fresh folder and run with the same run script (--quick) in
#     a clean environment that sees only the bundle: no build tree on any path, no
#     LD_LIBRARY_PATH, another working directory. The run script itself checks that every library
#     of every program resolves inside the bundle, then runs the two granules' unit tests of the
#     OPENMP category (all of them ran in the test command), the STREAM and both benchmarks, and
#     writes its summary.
#
#   scripts/ci_gpu_bundle.sh [cuda] [twin]        (default: both)
# Environment: ICONDIFF_BUILD_DIR (the OpenMP build; default build-tests),
# ICONDIFF_BACKEND_BUILD_ROOT (where build-cuda is; default the repository).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(cuda twin)
log() { echo "[ci_gpu_bundle] $*" >&2; }
# The twin's unit tests: the two granules' programs. The test command has run every program of
# the build already; the twin proves that the unpacked bundle runs them alone.
readonly twin_tests='test_*_granule_OPENMP'

work=$(mktemp -d "${TMPDIR:-/tmp}/icondiff-gpu-bundle.XXXXXX")
trap 'rm -rf "$work"' EXIT

for part in "${parts[@]}"; do
  case "$part" in
    cuda)
      build="${ICONDIFF_BACKEND_BUILD_ROOT:-$root}/build-cuda"
      "$root/perf_tests/gpu/make_bundle.sh" --build "$build" --out "$build-bundle/icondiff-cuda" \
        --category CUDA >/dev/null
      ;;
    twin)
      build=${ICONDIFF_BUILD_DIR:-$root/build-tests}
      "$root/perf_tests/gpu/make_bundle.sh" --build "$build" --out "$work/made/icondiff-openmp" \
        --category OPENMP >/dev/null
      mkdir -p "$work/machine" "$work/elsewhere"
      tar -C "$work/machine" -xJf "$work/made/icondiff-openmp.tar.xz"
      rm -rf "$work/made"
      start=$SECONDS
      (cd "$work/elsewhere" &&
        env -i PATH=/usr/bin:/bin HOME="$work/elsewhere" OMP_NUM_THREADS=2 \
          "$work/machine/icondiff-openmp/run.sh" "$work/out" --quick --tests "$twin_tests") || {
        log "the CPU twin failed; its parts:"
        cat "$work/out/parts.tsv" >&2 || true
        cat "$work/out/summary.md" >&2 || true
        exit 1
      }
      log "the CPU twin passed in $((SECONDS - start)) s"
      ;;
    *) log "unknown part '$part' (expected cuda or twin)"; exit 2 ;;
  esac
done
