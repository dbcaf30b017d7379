#!/usr/bin/env bash
# Installs everything icondiff needs on a Debian 12 machine, idempotently.
#
#   1. Debian packages (apt-get; only the missing ones, so a second run is instant).
#   2. A compiler cache (ccache) for every build that evaluates this script's output, kept in the
#      cache directory, so that a rebuild of unchanged sources (another clone, another CI run on
#      the same machine) compiles nothing again (docs/dev/testing.md, "Where CI's time goes").
#   3. Kokkos 3.4.01 + Kokkos Kernels 3.4.01 with the Serial and OpenMP backends, built from
#      Debian's `trilinos` *source* package into a cache directory, once per (version, options,
#      compiler). Debian's binary Kokkos is Serial-only, hence the source build.
#      Skipped when the caller provides their own Kokkos via Kokkos_ROOT (e.g. Kokkos 4.x with
#      CUDA or HIP); then KokkosKernels_ROOT defaults to Kokkos_ROOT.
#
# Progress goes to stderr. stdout carries only shell `export` lines, so callers do
#     eval "$(scripts/bootstrap.sh)"
#
# Environment:
#   ICONDIFF_CACHE_DIR   cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/icondiff)
#   Kokkos_ROOT          use this Kokkos installation instead of building one
#   KokkosKernels_ROOT   use this Kokkos Kernels installation (default: Kokkos_ROOT)
#   ICONDIFF_SKIP_APT=1  do not touch system packages (report what is missing and go on)
#   ICONDIFF_BOOTSTRAP_PACKAGES_ONLY=1  install the variant's Debian packages and stop (prints
#                        nothing to eval; .ci/run installs the CUDA and HIP toolchains this way in
#                        the background while the tests build)
#   ICONDIFF_CCACHE=0    no compiler cache (default: ccache for every compiler, when installed;
#                        a CMAKE_CXX_COMPILER_LAUNCHER of the caller's own is kept as it is)
#   ICONDIFF_KOKKOS_VARIANT  which Kokkos to build (each cached under its own key):
#       openmp       (default) Serial + OpenMP, Release
#       boundscheck  Serial + OpenMP with Kokkos_ENABLE_DEBUG + Kokkos_ENABLE_DEBUG_BOUNDS_CHECK
#                    (every View access checked; for the sanitizer/bounds-check CI gate)
#       cuda         Serial + OpenMP + CUDA (Debian's nvidia-cuda-toolkit 11.8 from bookworm's
#                    non-free component, host compiler g++-11, sm_80); compiler: nvcc_wrapper.
#                    Debian's CUDA must be the only one visible (scripts/ci_backends.sh hides
#                    a CUDA in /usr/local).
#       hip          Serial + OpenMP + HIP (Debian's hipcc 5.2.3, gfx908); compiler: hipcc
#     For cuda and hip it also exports ICONDIFF_CXX (the compiler to configure icondiff with) and,
#     for cuda, NVCC_WRAPPER_DEFAULT_COMPILER.
set -euo pipefail

log() { echo "[bootstrap] $*" >&2; }
# shellcheck source=scripts/ci_timing.sh
source "$(dirname "${BASH_SOURCE[0]}")/ci_timing.sh"
die() {
  echo "[bootstrap] error: $*" >&2
  exit 1
}

readonly KOKKOS_VERSION=3.4.01
readonly TRILINOS_SOURCE_PACKAGE=trilinos
cache_root=${ICONDIFF_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/icondiff}

# ------------------------------------------------------------------------------------------------
# 1. Debian packages
# ------------------------------------------------------------------------------------------------
packages=(
  build-essential cmake gfortran pkg-config dpkg-dev patch
  libnetcdf-dev netcdf-bin libnetcdf-pnetcdf-dev
  libopenmpi-dev openmpi-bin libmetis-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev valgrind
  python3 python3-numpy python3-netcdf4 python3-matplotlib python3-xarray cdo ccache
  python3-venv python3-dev
)

variant=${ICONDIFF_KOKKOS_VARIANT:-openmp}
case "$variant" in
  openmp | boundscheck) ;;
  cuda) packages+=(nvidia-cuda-toolkit g++-11) ;;
  hip) packages+=(hipcc libomp-15-dev) ;;
  *) die "ICONDIFF_KOKKOS_VARIANT=$variant: expected openmp, boundscheck, cuda or hip" ;;
esac

# CUDA lives in bookworm's non-free component: add a sources entry for it (only when asked for).
ensure_non_free_sources() {
  local f=/etc/apt/sources.list.d/icondiff-debian-non-free.sources
  [ -f "$f" ] && return 0
  log "adding bookworm's contrib/non-free components ($f) for nvidia-cuda-toolkit"
  printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' \
    'Suites: bookworm bookworm-updates' 'Components: contrib non-free' \
    'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' | "${sudo_cmd[@]}" tee "$f" >/dev/null
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get update -q >&2
}

missing_packages() {
  local p status
  for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$status" = "installed" ] || echo "$p"
  done
}

mapfile -t missing < <(missing_packages)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "${ICONDIFF_SKIP_APT:-0}" = 1 ]; then
    log "ICONDIFF_SKIP_APT=1: not installing missing packages: ${missing[*]}"
  else
    sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then
      if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo_cmd=(sudo -n)
      else
        die "these Debian packages are missing and I am not root (and have no password-less sudo):
    ${missing[*]}
  Install them with:  sudo apt-get install -y ${missing[*]}
  then run this script again."
      fi
    fi
    log "installing Debian packages: ${missing[*]}"
    apt_start=$SECONDS
    if [ "$variant" = cuda ]; then ensure_non_free_sources; fi
    apt_install() {
      DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
    }
    if ! apt_install; then
      log "apt-get install failed; refreshing the package lists and trying again"
      DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get update -q >&2
      apt_install || die "apt-get install failed for: ${missing[*]}"
    fi
    timing_record build "apt-$variant" $((SECONDS - apt_start))
  fi
else
  log "all Debian packages present"
fi
if [ "${ICONDIFF_BOOTSTRAP_PACKAGES_ONLY:-0}" = 1 ]; then
  exit 0
fi

# ------------------------------------------------------------------------------------------------
# 2. Compiler cache
# ------------------------------------------------------------------------------------------------
# CMake (>= 3.17) takes CMAKE_CXX_COMPILER_LAUNCHER from the environment when a build folder is
# first configured. Paths under the repository are hashed relative to it (CCACHE_BASEDIR) and the
# working directory is left out of the hash (debug info then names the first clone's folder), so
# a fresh clone elsewhere hits the objects an earlier clone compiled (gfortran is not cached).
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ccache_exports() {
  [ "${ICONDIFF_CCACHE:-1}" != 0 ] || return 0
  [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] || return 0
  command -v ccache >/dev/null || return 0
  # nvcc_wrapper and hipcc compile each file twice (host and device pass); ccache's preprocessor
  # mode would hash the host pass only and could return an object whose device code predates a
  # change inside a device-only #if branch. Depend mode hashes the whole content of the source
  # and of every header the compiler's dependency file lists instead (no device-only #include
  # exists in icondiff), with the wrappers' own option syntax (g++'s, clang's).
  case "$variant" in
    cuda) echo "export CCACHE_DEPEND=1 CCACHE_COMPILERTYPE=gcc" ;;
    hip) echo "export CCACHE_DEPEND=1 CCACHE_COMPILERTYPE=clang" ;;
  esac
  echo "export CMAKE_CXX_COMPILER_LAUNCHER=ccache"
  echo "export CCACHE_DIR='$cache_root/ccache'"
  echo "export CCACHE_BASEDIR='$repo_root'"
  echo "export CCACHE_NOHASHDIR=1"
  echo "export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-6G}"
}

# ------------------------------------------------------------------------------------------------
# 3. Kokkos
# ------------------------------------------------------------------------------------------------
if [ -n "${Kokkos_ROOT:-}" ]; then
  [ -d "$Kokkos_ROOT" ] || die "Kokkos_ROOT=$Kokkos_ROOT does not exist"
  log "using the Kokkos given by Kokkos_ROOT=$Kokkos_ROOT (building nothing)"
  ccache_exports
  echo "export Kokkos_ROOT='$Kokkos_ROOT'"
  echo "export KokkosKernels_ROOT='${KokkosKernels_ROOT:-$Kokkos_ROOT}'"
  exit 0
fi

# The cache key covers everything that changes the binaries: version, options, compiler.
kokkos_options=(
  -DCMAKE_BUILD_TYPE=Release
  -DBUILD_SHARED_LIBS=ON
  -DKokkos_ENABLE_SERIAL=ON
  -DKokkos_ENABLE_OPENMP=ON
  -DKokkos_CXX_STANDARD=17
  -DKokkos_ENABLE_TESTS=OFF
  -DKokkos_ENABLE_EXAMPLES=OFF
)
# Lean Kokkos Kernels: no pre-instantiated kernels at all. icondiff instantiates the few it uses
# (batched dense solves, BLAS-1) in its own translation units, so the build takes seconds.
kernels_options=(
  -DCMAKE_BUILD_TYPE=Release
  -DBUILD_SHARED_LIBS=ON
  -DKokkosKernels_ADD_DEFAULT_ETI=OFF
  -DKokkosKernels_ETI_ONLY=OFF
  -DKokkosKernels_ENABLE_TPL_BLAS=OFF
  -DKokkosKernels_ENABLE_TPL_LAPACK=OFF
  -DKokkosKernels_ENABLE_TESTS=OFF
  -DKokkosKernels_ENABLE_EXAMPLES=OFF
)
# Per variant: extra options, the compiler Kokkos (and then icondiff) is built with, and patches
# to Kokkos' source (scripts/kokkos_patches/, each file says why; part of the cache key).
kokkos_cxx=c++
export_cxx=
kokkos_patches=()
case "$variant" in
  boundscheck)
    kokkos_options+=(-DKokkos_ENABLE_DEBUG=ON -DKokkos_ENABLE_DEBUG_BOUNDS_CHECK=ON)
    kokkos_patches+=("$repo_root/scripts/kokkos_patches/boundscheck-error-path-out-of-line.patch")
    ;;
  cuda)
    # Ampere (sm_80 + compute_80 PTX, what Kokkos 3.4 knows) plus Hopper machine code, so
    # Kokkos' own kernels run natively on H100/H200; the patch lets Kokkos 3.4 start on a device
    # newer than its architecture at all (each file says why).
    kokkos_options+=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_AMPERE80=ON
      "-DCMAKE_CXX_FLAGS=-gencode=arch=compute_90,code=sm_90")
    kokkos_patches+=("$repo_root/scripts/kokkos_patches/cuda-newer-device.patch"
      "$repo_root/scripts/kokkos_patches/nvcc-wrapper-several-gencode.patch")
    # Kokkos Kernels 3.4 turns on cuBLAS/cuSPARSE when CUDA is on; icondiff needs neither.
    kernels_options+=(-DKokkosKernels_ENABLE_TPL_CUBLAS=OFF -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF
      "-DCMAKE_CXX_FLAGS=-gencode=arch=compute_90,code=sm_90")
    # nvcc 11.8 rejects GCC 12 as its host compiler.
    export NVCC_WRAPPER_DEFAULT_COMPILER=g++-11
    nvcc_version=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')
    [ "$nvcc_version" = 11.8 ] || die "ICONDIFF_KOKKOS_VARIANT=cuda needs Debian's nvcc 11.8 first on PATH; found '${nvcc_version:-no nvcc}' ($(command -v nvcc || true)). Hide other CUDA installations (see scripts/ci_backends.sh)."
    [ ! -e /usr/local/include/cuda.h ] || die "/usr/local/include/cuda.h (another CUDA) would shadow Debian's CUDA 11.8 headers; hide /usr/local/include (see scripts/ci_backends.sh)"
    ;;
  hip)
    kokkos_options+=(-DKokkos_ENABLE_HIP=ON -DKokkos_ARCH_VEGA908=ON)
    kokkos_cxx=hipcc
    ;;
esac
case "$variant" in
  cuda) compiler_id="$(g++-11 --version | head -n 1); nvcc $nvcc_version" ;;
  hip) compiler_id="hipcc $(dpkg-query -W -f='${Version}' hipcc)" ;;
  *) compiler_id=$(c++ --version | head -n 1) ;;
esac
key=$({
  printf '%s\n' "$KOKKOS_VERSION" "${kokkos_options[@]}" "${kernels_options[@]}" "$compiler_id"
  for patch in "${kokkos_patches[@]}"; do sha256sum <"$patch"; done
} | sha256sum | cut -c1-12)
prefix="$cache_root/kokkos-$KOKKOS_VERSION-$variant-$key"
[ "$variant" = cuda ] && kokkos_cxx="$prefix/bin/nvcc_wrapper"
[ "$variant" = openmp ] || [ "$variant" = boundscheck ] || export_cxx=$kokkos_cxx
stamp="$prefix/.icondiff-bootstrap-complete"

if [ -f "$stamp" ]; then
  log "Kokkos $KOKKOS_VERSION ($variant) and Kokkos Kernels cached in $prefix"
else
  log "building Kokkos $KOKKOS_VERSION + Kokkos Kernels ($variant) into $prefix (once)"
  kokkos_start=$SECONDS
  work=$(mktemp -d "${TMPDIR:-/tmp}/icondiff-bootstrap.XXXXXX")
  trap 'rm -rf "$work"' EXIT

  # A private deb-src list derived from this machine's own apt sources, with private state
  # directories: the system's apt configuration is never modified.
  apt_dir="$work/apt"
  mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  : >"$apt_dir/sources.list"
  if [ -f /etc/apt/sources.list ]; then
    sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list >>"$apt_dir/sources.list"
  fi
  for f in /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >>"$apt_dir/sources.list"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # deb822 stanzas: turn "Types: deb" into "Types: deb-src"; keep everything else.
    sed -e 's/^Types:.*/Types: deb-src/' "$f" >"$apt_dir/sources.list.d/$(basename "$f")"
  done
  apt_opts=(
    -o "Dir::Etc::SourceList=$apt_dir/sources.list"
    -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
    -o "Dir::State::Lists=$apt_dir/lists"
    -o "Dir::Cache=$apt_dir/cache"
    -o "APT::Sandbox::User=root"
  )
  log "fetching the source index (private apt state in $apt_dir)"
  apt-get "${apt_opts[@]}" update -q >&2 || die "apt-get update with the private deb-src list failed"
  mkdir -p "$work/src"
  log "downloading the Debian '$TRILINOS_SOURCE_PACKAGE' source package"
  (cd "$work/src" && apt-get "${apt_opts[@]}" source --download-only -q "$TRILINOS_SOURCE_PACKAGE" >&2) ||
    die "apt-get source --download-only $TRILINOS_SOURCE_PACKAGE failed"
  tarball=$(ls "$work"/src/"${TRILINOS_SOURCE_PACKAGE}"_*.orig.tar.* 2>/dev/null | head -n 1)
  [ -n "$tarball" ] || die "no ${TRILINOS_SOURCE_PACKAGE} orig tarball was downloaded"
  log "extracting Kokkos and Kokkos Kernels from $(basename "$tarball")"
  tar -xf "$tarball" -C "$work/src" --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
  packages_dir=$(dirname "$(ls -d "$work"/src/*/packages/kokkos)")
  found_version=$(sed -n 's/^set(Kokkos_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\))/\2/p' \
    "$packages_dir/kokkos/CMakeLists.txt" | paste -sd. -)
  log "Kokkos version in the source package: $found_version"
  [ "$found_version" = "$KOKKOS_VERSION" ] || die "expected Kokkos $KOKKOS_VERSION, the source package has $found_version"
  for patch in "${kokkos_patches[@]}"; do
    log "patching Kokkos: $(basename "$patch")"
    patch -d "$packages_dir/kokkos" -p1 --batch --forward <"$patch" >&2 ||
      die "the Kokkos patch $patch does not apply"
  done

  jobs=$(nproc)
  rm -rf "$prefix"
  # nvcc_wrapper is installed with Kokkos; until then it is used from the source tree.
  build_cxx=$kokkos_cxx
  [ "$variant" = cuda ] && build_cxx="$packages_dir/kokkos/bin/nvcc_wrapper"
  log "configuring and building Kokkos (log: $work/kokkos.log)"
  {
    cmake -S "$packages_dir/kokkos" -B "$work/build-kokkos" -DCMAKE_INSTALL_PREFIX="$prefix" \
      -DCMAKE_CXX_COMPILER="$build_cxx" -DCMAKE_INSTALL_RPATH="$prefix/lib" "${kokkos_options[@]}" &&
      cmake --build "$work/build-kokkos" -j "$jobs" &&
      cmake --install "$work/build-kokkos"
  } >"$work/kokkos.log" 2>&1 || {
    tail -n 40 "$work/kokkos.log" >&2
    die "building Kokkos failed"
  }
  log "configuring and building Kokkos Kernels (log: $work/kernels.log)"
  {
    cmake -S "$packages_dir/kokkos-kernels" -B "$work/build-kernels" -DCMAKE_INSTALL_PREFIX="$prefix" \
      -DCMAKE_CXX_COMPILER="$kokkos_cxx" -DCMAKE_INSTALL_RPATH="$prefix/lib" -DKokkos_ROOT="$prefix" \
      "${kernels_options[@]}" &&
      cmake --build "$work/build-kernels" -j "$jobs" &&
      cmake --install "$work/build-kernels"
  } >"$work/kernels.log" 2>&1 || {
    tail -n 40 "$work/kernels.log" >&2
    die "building Kokkos Kernels failed"
  }
  printf 'kokkos=%s\nkey=%s\ncompiler=%s\n' "$KOKKOS_VERSION" "$key" "$compiler_id" >"$stamp"
  timing_record build "kokkos-$variant" $((SECONDS - kokkos_start))
  log "done: $prefix"
fi

ccache_exports
echo "export Kokkos_ROOT='$prefix'"
echo "export KokkosKernels_ROOT='$prefix'"
if [ -n "$export_cxx" ]; then echo "export ICONDIFF_CXX='$export_cxx'"; fi
if [ "$variant" = cuda ]; then echo "export NVCC_WRAPPER_DEFAULT_COMPILER=g++-11"; fi
