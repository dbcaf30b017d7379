# The field layout this build uses (ICONDIFF_FIELD_LAYOUT_USED: left or right), from the option
# ICONDIFF_FIELD_LAYOUT (auto, left, right; top-level CMakeLists.txt) and the devices of the Kokkos
# found (cmake/IcondiffDependencies.cmake). It is recorded in the cache for scripts that read a
# build folder (perf_tests/gpu/make_bundle.sh) and becomes ICONDIFF_FIELD_LAYOUT_RIGHT in
# config.hpp.
#
# auto picks, per execution space, the layout measured faster there (docs/performance.md):
# - CPUs (Kokkos' OpenMP or Serial): level-fastest. A point's column is contiguous, so the
#   level loops vectorise and a point's neighbours cost one gather per column, not one per
#   level: the diffusion granule 1.9x, the dycore programs 1.7-3.6x faster than in ICON's layout,
#   and from Fortran, with ICON's arrays converted at the boundary, the drop-in 1.1-1.3x and the
#   module 1.3x faster (R2B4/R2B5 x 65, 2 threads).
# - GPUs (CUDA, HIP): ICON's. Adjacent threads take adjacent points, so every load of a level
#   is coalesced, and ICON's arrays are the fields themselves (no conversion).
if(ICONDIFF_FIELD_LAYOUT STREQUAL "auto")
  if("CUDA" IN_LIST Kokkos_DEVICES OR "HIP" IN_LIST Kokkos_DEVICES)
    set(layout left)
    set(why "Kokkos runs on a GPU (${Kokkos_DEVICES})")
  else()
    set(layout right)
    set(why "Kokkos runs on CPUs (${Kokkos_DEVICES})")
  endif()
  message(STATUS "icondiff: field layout ${layout} (ICONDIFF_FIELD_LAYOUT=auto: ${why})")
else()
  set(layout ${ICONDIFF_FIELD_LAYOUT})
  message(STATUS "icondiff: field layout ${layout} (ICONDIFF_FIELD_LAYOUT=${layout})")
endif()
set(ICONDIFF_FIELD_LAYOUT_USED ${layout} CACHE INTERNAL
    "The field layout of this build (left or right), from ICONDIFF_FIELD_LAYOUT")
unset(layout)
unset(why)
