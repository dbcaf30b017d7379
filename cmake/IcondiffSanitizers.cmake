# ICONDIFF_SANITIZERS: build everything (library, CLI, tests, benchmarks, Fortran) with the
# compiler's sanitizers, e.g. -DICONDIFF_SANITIZERS=address,undefined (the CI gate,
# scripts/ci_sanitizers.sh). Applied to every target of this project, C++ and Fortran alike, and
# to the link, so an executable always carries the runtime its instrumented libraries need.
# Any UndefinedBehaviorSanitizer finding aborts (-fno-sanitize-recover): a test cannot pass with
# a report in its log.
set(ICONDIFF_SANITIZERS "" CACHE STRING
    "Comma-separated -fsanitize= list for every target (e.g. address,undefined); empty: none")
set(ICONDIFF_SANITIZER_FLAGS "")
if(ICONDIFF_SANITIZERS)
  set(ICONDIFF_SANITIZER_FLAGS -fsanitize=${ICONDIFF_SANITIZERS} -fno-omit-frame-pointer
                               -fno-sanitize-recover=all)
  add_compile_options(${ICONDIFF_SANITIZER_FLAGS})
  add_link_options(${ICONDIFF_SANITIZER_FLAGS})
  # For projects built against this build (the downstream and example tests): the same runtime.
  string(JOIN " " ICONDIFF_SANITIZER_FLAGS_STRING ${ICONDIFF_SANITIZER_FLAGS})
  message(STATUS "icondiff: sanitizers on: ${ICONDIFF_SANITIZERS}")
endif()

# Hang timeouts of the MPI tests (unit_tests/, unit_tests/cli/) are multiplied by this factor:
# an instrumented build runs several times slower.
set(ICONDIFF_TEST_TIMEOUT_FACTOR 1 CACHE STRING "Multiplier for the tests' hang timeouts")
