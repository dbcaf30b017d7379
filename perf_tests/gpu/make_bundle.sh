#!/usr/bin/env bash
# Collect, from an icondiff build, everything a GPU run needs into one self-contained folder (and
# a .tar.xz of it): the unit tests of the build's device category, the benchmarks, the CLI, every
# shared library they load (glibc and its loader included, so the bundle runs on any x86-64 Linux
# whatever its libraries; the GPU driver's libcuda excluded: it must be the machine's own), the
# run script and a manifest. docs/user/benchmarking.md ("A GPU run in one call").
#
#   perf_tests/gpu/make_bundle.sh --build DIR --out DIR [--category CUDA|HIP|OPENMP] [--no-tar]
#
#   --build     a build configured with -DICONDIFF_ENABLE_TESTS=ON -DICONDIFF_ENABLE_PERF_TESTS=ON
#               (scripts/ci_backends.sh makes build-cuda; scripts/run_tests.sh makes build-tests)
#   --out       the bundle folder (created; refused if it exists and is not an earlier bundle)
#   --category  which unit tests: <name>_<CATEGORY>; default: CUDA if the build has any, else HIP,
#               else OPENMP (the CPU twin CI runs)
# Prints the bundle folder and its size; fails naming what is missing, on an unoptimised build and
# when the .tar.xz is over 60 MiB (what a GPU window can carry).
set -euo pipefail
readonly max_mib=60
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
log() { echo "[make_bundle] $*" >&2; }
die() { echo "[make_bundle] error: $*" >&2; exit 1; }

build="" out="" category="" tar=1
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=${2:?--build needs a directory}; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --category) category=${2:?--category needs CUDA, HIP or OPENMP}; shift 2 ;;
    --no-tar) tar=0; shift ;;
    -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
[ -n "$build" ] && [ -n "$out" ] || die "--build and --out are required (see --help)"
[ -d "$build/bin" ] || die "$build/bin does not exist: build icondiff with tests and benchmarks first"
build=$(cd "$build" && pwd)

# Timings from an unoptimised build would be worthless: refuse the compile checks CI makes
# (scripts/ci_backends.sh with ICONDIFF_BACKEND_MODE=check) and Debug builds.
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null | head -n 1)
case "$build_type" in
  Release | RelWithDebInfo) ;;
  *) die "$build is a '${build_type:-no build type}' build: bundle an optimised one (-DCMAKE_BUILD_TYPE=Release; scripts/ci_backends.sh's default mode)" ;;
esac

if [ -z "$category" ]; then
  for c in CUDA HIP OPENMP; do
    if compgen -G "$build/bin/test_*_$c" >/dev/null; then category=$c; break; fi
  done
  [ -n "$category" ] || die "$build/bin has no test_*_CUDA, _HIP or _OPENMP programs"
fi
case "$category" in CUDA|HIP|OPENMP) ;; *) die "--category $category: expected CUDA, HIP or OPENMP" ;; esac

# The programs: the device category's unit tests, the benchmarks the run script calls, the CLI.
programs=()
for p in "$build"/bin/test_*_"$category"; do [ -x "$p" ] && programs+=("$p"); done
[ ${#programs[@]} -gt 0 ] || die "$build/bin has no test_*_$category programs"
for p in bench_stream bench_diffusion bench_dycore icondiff; do
  [ -x "$build/bin/$p" ] || die "$build/bin/$p is missing: configure with -DICONDIFF_ENABLE_PERF_TESTS=ON (and the CLI on) and build it"
  programs+=("$build/bin/$p")
done

if [ -e "$out" ]; then
  [ -f "$out/MANIFEST.json" ] || die "$out exists and is not a bundle: refusing to write into it"
  rm -rf "$out"
fi
mkdir -p "$out/bin" "$out/lib"
out=$(cd "$out" && pwd)

# Libraries as the loader resolves them; the driver's (libcuda, libnvidia-*) and the kernel's
# vdso stay out. The loader itself goes in too: run.sh starts every program through it.
is_driver_library() { case "$1" in libcuda.so*|libnvidia-*|libamdhip64-driver*|linux-vdso*) return 0 ;; *) return 1 ;; esac; }
declare -A copied=()
for p in "${programs[@]}"; do
  cp "$p" "$out/bin/"
  while read -r name arrow path _; do
    if [ "$arrow" != "=>" ]; then  # the loader line: "/lib64/ld-linux-x86-64.so.2 (0x...)"
      case "$name" in /*ld-linux*) path=$name; name=$(basename "$name") ;; *) continue ;; esac
    fi
    is_driver_library "$name" && continue
    [ "$path" = "not" ] && die "$(basename "$p") needs $name, which the loader does not find here"
    [ -n "${copied[$name]:-}" ] && continue
    cp -L "$path" "$out/lib/$name"
    copied[$name]=1
  done < <(ldd "$p")
done
[ -f "$out/lib/ld-linux-x86-64.so.2" ] || die "no ld-linux-x86-64.so.2 among the programs' libraries"
chmod +x "$out/lib/ld-linux-x86-64.so.2"
# Debug sections are half of the binaries and nothing a run reads.
strip --strip-unneeded "$out"/bin/* "$out"/lib/*.so* 2>/dev/null || true
cp "$here/run.sh" "$here/summarize.py" "$out/"

# The manifest: what was built how, and every file with its size and checksum.
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" 2>/dev/null | head -n 1; }
{
  printf '{\n  "icondiff_commit": "%s",\n  "created": "%s",\n  "category": "%s",\n' \
    "$commit" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$category"
  printf '  "build": {"directory": "%s", "build_type": "%s", "cxx_compiler": "%s", "field_layout": "%s", "kokkos_root": "%s", "cxx_flags": "%s"},\n' \
    "$build" "$(cache_value CMAKE_BUILD_TYPE)" "$(cache_value CMAKE_CXX_COMPILER)" \
    "$(cache_value ICONDIFF_FIELD_LAYOUT_USED)" "$(cache_value Kokkos_DIR)" "$(cache_value CMAKE_CXX_FLAGS)"
  printf '  "files": [\n'
  first=1
  while read -r file; do
    [ $first = 1 ] || printf ',\n'
    first=0
    printf '    {"path": "%s", "bytes": %d, "sha256": "%s"}' "$file" "$(stat -c %s "$out/$file")" \
      "$(sha256sum "$out/$file" | cut -d' ' -f1)"
  done < <(cd "$out" && find . -type f ! -name MANIFEST.json | sed 's|^\./||' | sort)
  printf '\n  ]\n}\n'
} >"$out/MANIFEST.json"

size=$(du -sb "$out" | cut -f1)
log "$out: ${#programs[@]} programs, ${#copied[@]} libraries, $((size / 1048576)) MiB"
if [ $tar = 1 ]; then
  XZ_OPT="${XZ_OPT:--6 -T0}" tar -C "$(dirname "$out")" -cJf "$out.tar.xz" "$(basename "$out")"
  shipped=$(stat -c %s "$out.tar.xz")
  log "$out.tar.xz: $((shipped / 1048576)) MiB"
  # What a device session may carry to the GPU machine (the device tool's 64 MiB, less room for
  # the working tree): a bundle over it could not be run there.
  [ "$shipped" -le $((max_mib * 1048576)) ] ||
    die "$out.tar.xz is $((shipped / 1048576)) MiB, over the $max_mib MiB a GPU window can carry"
fi
echo "$out"
