# Header self-containment: every public header under include/icondiff compiles on its own.
#
# icondiff_add_header_check(TARGET) generates, for each header icondiff/H, a one-line translation
# unit header_check/icondiff/H.cpp that contains only `#include <icondiff/H>`, and puts them all
# into the OBJECT library icondiff_header_check. Each unit is compiled with the include directories,
# compile definitions and options (Kokkos' included) that a user of TARGET gets, at -O0 into an
# object file (a unit that only includes a header generates next to no code). The build system's
# dependency tracking then recompiles exactly the units whose header, or a header it includes,
# changed, and the compiler cache (scripts/bootstrap.sh) returns the others in a fresh clone:
# with -fsyntax-only (until 2026-11-29) every unit recompiled at every run, 108 s of the test
# command's ctest on 2 cores. It is not part of `all`.
#
# The CTest test header_self_containment builds that target (keep going after errors), so a
# header that misses an include fails the test with the compiler's message for
# header_check/<header>.cpp, which names the header. Headers are picked up by a glob, so a new
# header is checked after the next configure (CONFIGURE_DEPENDS re-runs it when a header is added
# or removed).

function(icondiff_add_header_check target)
  set(include_root "${PROJECT_SOURCE_DIR}/include")
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE "${include_root}"
       "${include_root}/icondiff/*.hpp" "${include_root}/icondiff/*.h")
  # The generated configuration header is public too.
  list(APPEND headers "icondiff/config.hpp")
  list(REMOVE_DUPLICATES headers)
  list(SORT headers)

  set(check_dir "${CMAKE_CURRENT_BINARY_DIR}/header_check")
  set(sources "")
  foreach(header ${headers})
    set(source "${check_dir}/${header}.cpp")
    set(content "#include <${header}>\n")
    # Rewrite only when the content changes, so that reconfiguring keeps the timestamps.
    set(old_content "")
    if(EXISTS "${source}")
      file(READ "${source}" old_content)
    endif()
    if(NOT old_content STREQUAL content)
      file(WRITE "${source}" "${content}")
    endif()
    list(APPEND sources "${source}")
  endforeach()
  # Units of headers that were removed since the last configure are not compiled any more.
  file(GLOB_RECURSE stale RELATIVE "${check_dir}" "${check_dir}/*.cpp")
  foreach(unit ${stale})
    string(REGEX REPLACE "\\.cpp$" "" header "${unit}")
    if(NOT header IN_LIST headers)
      file(REMOVE "${check_dir}/${unit}")
    endif()
  endforeach()

  add_library(icondiff_header_check OBJECT EXCLUDE_FROM_ALL ${sources})
  # What a user of TARGET compiles with (transitively: Kokkos' flags too), taken from TARGET's
  # usage requirements rather than by linking it, so that checking the headers does not wait for
  # (or fail with) the library's own sources.
  target_include_directories(icondiff_header_check PRIVATE
    "$<TARGET_PROPERTY:${target},INTERFACE_INCLUDE_DIRECTORIES>")
  target_compile_definitions(icondiff_header_check PRIVATE
    "$<TARGET_PROPERTY:${target},INTERFACE_COMPILE_DEFINITIONS>")
  target_compile_options(icondiff_header_check PRIVATE
    "$<TARGET_PROPERTY:${target},INTERFACE_COMPILE_OPTIONS>" -O0)
  target_compile_features(icondiff_header_check PRIVATE cxx_std_17)

  set(ICONDIFF_HEADER_CHECK_JOBS 2 CACHE STRING
      "Parallel compiler runs of the header_self_containment test (each up to ~0.2 GB, ~1.5 s)")
  if(CMAKE_GENERATOR MATCHES "Ninja")
    set(keep_going -k 0)
  elseif(CMAKE_GENERATOR MATCHES "Makefiles")
    set(keep_going -k)
  else()
    set(keep_going "")
  endif()
  list(LENGTH headers count)
  add_test(NAME header_self_containment
           COMMAND "${CMAKE_COMMAND}" --build "${PROJECT_BINARY_DIR}"
                   --target icondiff_header_check --parallel ${ICONDIFF_HEADER_CHECK_JOBS}
                   -- ${keep_going})
  set_tests_properties(header_self_containment PROPERTIES
    PROCESSORS ${ICONDIFF_HEADER_CHECK_JOBS}
    LABELS "static"
    TIMEOUT 900)
  message(STATUS "icondiff: header_self_containment compiles ${count} public headers on their own")
endfunction()
