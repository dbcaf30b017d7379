# Finds every dependency icondiff needs for the options chosen in the top-level CMakeLists.txt.

# Kokkos: 3.4.01 (bootstrap / Debian; SameMajorVersion) and 4.x/5.x (AnyNewerVersion) both
# satisfy "3.4". Users point Kokkos_ROOT at their own (e.g. CUDA or HIP) installation.
find_package(Kokkos 3.4 REQUIRED)
include(IcondiffKokkosFixup)
message(STATUS "icondiff: Kokkos ${Kokkos_VERSION} from ${Kokkos_DIR}")
# Kokkos >= 4.5 builds View on mdspan unless Kokkos_ENABLE_IMPL_VIEW_LEGACY is on; with GCC 12
# that View crashes when a default-constructed View is assigned (kokkos/kokkos#7464; reproduced
# with Kokkos 4.6.99 and g++ 12.2 at -O0 and -O2), which icondiff does everywhere.
if(Kokkos_VERSION VERSION_GREATER_EQUAL 4.5 AND NOT "IMPL_VIEW_LEGACY" IN_LIST Kokkos_OPTIONS
   AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13 AND NOT ICONDIFF_ALLOW_GCC12_MDSPAN_VIEW)
  message(FATAL_ERROR
    "icondiff: Kokkos ${Kokkos_VERSION} (${Kokkos_DIR}) uses the mdspan-based View, which "
    "crashes with GCC ${CMAKE_CXX_COMPILER_VERSION} (kokkos/kokkos#7464). Rebuild Kokkos with "
    "-DKokkos_ENABLE_IMPL_VIEW_LEGACY=ON, or use another compiler (GCC >= 13, Clang); "
    "-DICONDIFF_ALLOW_GCC12_MDSPAN_VIEW=ON configures anyway (e.g. to compile-check only).")
endif()
# Extra CUDA machine code on top of the architecture Kokkos was built for, as nvcc -gencode values
# (e.g. "arch=compute_90,code=sm_90"): with the bootstrap's Kokkos (Ampere, Debian's CUDA 11.8)
# the programs then also carry Hopper machine code and run natively on H100/H200 instead of
# JIT-compiling every kernel's PTX when a process loads (scripts/ci_backends.sh sets it).
set(ICONDIFF_CUDA_GENCODE "" CACHE STRING
    "extra nvcc -gencode values (list) for a CUDA build, e.g. arch=compute_90,code=sm_90")
if(ICONDIFF_CUDA_GENCODE)
  if(NOT "CUDA" IN_LIST Kokkos_DEVICES)
    message(FATAL_ERROR "icondiff: ICONDIFF_CUDA_GENCODE=${ICONDIFF_CUDA_GENCODE} needs a Kokkos "
                        "with CUDA; ${Kokkos_DIR} has the devices ${Kokkos_DEVICES}")
  endif()
  foreach(gencode IN LISTS ICONDIFF_CUDA_GENCODE)
    add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-gencode=${gencode}>")
  endforeach()
  message(STATUS "icondiff: extra CUDA code ${ICONDIFF_CUDA_GENCODE}")
endif()
# Device code without contracted multiply-adds: nvcc fuses a*b+c into one FMA by default (hipcc
# likewise), which rounds once instead of twice, so device results would differ from the host's
# (and ICON4Py's CPU results) in the last bits, and the unit tests compare device kernels with
# host references exactly. The kernels are memory-bound: the extra instructions cost little.
option(ICONDIFF_DEVICE_EXACT_FP
       "CUDA/HIP builds: no contracted multiply-adds in device code (results equal the host's)" ON)
if(ICONDIFF_DEVICE_EXACT_FP AND ("CUDA" IN_LIST Kokkos_DEVICES OR "HIP" IN_LIST Kokkos_DEVICES))
  if("CUDA" IN_LIST Kokkos_DEVICES AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:--fmad=false>")  # nvcc (through nvcc_wrapper)
  else()
    add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>")  # hipcc, Clang CUDA
  endif()
  message(STATUS "icondiff: device code without contracted multiply-adds (ICONDIFF_DEVICE_EXACT_FP)")
endif()
find_package(KokkosKernels REQUIRED)
message(STATUS "icondiff: KokkosKernels from ${KokkosKernels_DIR}")

# netCDF-C: parallel with MPI (the decomposed output), else serial (IcondiffNetcdf.cmake).
set(ICONDIFF_NETCDF_PARALLEL ${ICONDIFF_ENABLE_MPI})
include(IcondiffNetcdf)

find_package(fmt REQUIRED)

if(ICONDIFF_ENABLE_MPI)
  find_package(MPI REQUIRED COMPONENTS CXX)
  find_package(METIS REQUIRED)
endif()

if(ICONDIFF_ENABLE_CLI)
  find_package(CLI11 REQUIRED)
  find_package(nlohmann_json 3.10 REQUIRED)
endif()

if(ICONDIFF_ENABLE_TESTS)
  find_package(GTest REQUIRED)
endif()

if(ICONDIFF_ENABLE_PERF_TESTS)
  find_package(benchmark REQUIRED)
endif()
