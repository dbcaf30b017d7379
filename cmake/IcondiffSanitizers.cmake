# ICONDIFF_SANITIZERS: build everything (library, CLI, tests, benchmarks, Fortran) with the
# compiler's sanitizers, e.g. -DICONDIFF_SANITIZERS=address,undefined (the CI gate,
# scripts/ci_sanitizers.sh). Applied to every target of this project, C++ and Fortran alike, and
# to the link, so an executable always carries the runtime its instrumented libraries need.
# Any UndefinedBehaviorSanitizer finding aborts (-fno-sanitize-recover): a test cannot pass with
# a report in its log.
set(ICONDIFF_SANITIZERS "" CACHE STRING
    "Comma-separated -fsanitize= list for every target (e.g. address,undefined); empty: none")
# ICONDIFF_SANITIZERS_EXCLUDE: checks of those groups left out (-fno-sanitize=), e.g. the CI gate's
# alignment,null,object-size,vptr: with GCC 12 at -O1 these four UBSan checks make a translation
# unit compile 2.7x slower (73 s against 27 s for test_field_lists.cpp) and what they find ASan and
# Kokkos' bounds checks report too (docs/dev/testing.md, "Sanitizers and bounds checks").
set(ICONDIFF_SANITIZERS_EXCLUDE "" CACHE STRING
    "Comma-separated -fno-sanitize= list (checks of ICONDIFF_SANITIZERS' groups left out)")
set(ICONDIFF_SANITIZER_FLAGS "")
if(ICONDIFF_SANITIZERS)
  set(ICONDIFF_SANITIZER_FLAGS -fsanitize=${ICONDIFF_SANITIZERS} -fno-omit-frame-pointer
                               -fno-sanitize-recover=all)
  if(ICONDIFF_SANITIZERS_EXCLUDE)
    list(APPEND ICONDIFF_SANITIZER_FLAGS -fno-sanitize=${ICONDIFF_SANITIZERS_EXCLUDE})
  endif()
  add_compile_options(${ICONDIFF_SANITIZER_FLAGS})
  add_link_options(${ICONDIFF_SANITIZER_FLAGS})
  # For projects built against this build (the downstream and example tests): the same runtime.
  string(JOIN " " ICONDIFF_SANITIZER_FLAGS_STRING ${ICONDIFF_SANITIZER_FLAGS})
  message(STATUS "icondiff: sanitizers on: ${ICONDIFF_SANITIZERS}; left out: ${ICONDIFF_SANITIZERS_EXCLUDE}")
endif()

# Hang timeouts of the MPI tests (unit_tests/, unit_tests/cli/) are multiplied by this factor:
# an instrumented build runs several times slower.
set(ICONDIFF_TEST_TIMEOUT_FACTOR 1 CACHE STRING "Multiplier for the tests' hang timeouts")
