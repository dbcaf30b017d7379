# cmake -D CXX=... -D SOURCE=... -D INCLUDES="a;b" -D MISTAKE=NAME -D EXPECT=regex -P this
# Compiles SOURCE with -DFILL_BY_NAME_MISTAKE_<MISTAKE> (syntax only) and fails unless the compiler
# refuses it with a message matching EXPECT: the fill by name must turn each mistake into a
# compile error that names the field.
set(flags -std=c++17 -fsyntax-only "-DFILL_BY_NAME_MISTAKE_${MISTAKE}")
foreach(dir ${INCLUDES})
  list(APPEND flags "-I${dir}")
endforeach()
execute_process(COMMAND "${CXX}" ${flags} "${SOURCE}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "${MISTAKE}: compiled, expected a compile error")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "${MISTAKE}: failed to compile, but without '${EXPECT}':\n${err}")
endif()
message(STATUS "${MISTAKE}: refused as expected")
