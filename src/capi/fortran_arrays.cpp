#include "fortran_arrays.hpp"

#include <fmt/format.h>

namespace icondiff::capi::detail {

void throw_null_array(const char* function, const char* name, int size_0) {
  if (size_0 == -1)
    throw InvalidArgument(fmt::format(
        "{}: {} is not contiguous in memory (pass a contiguous array, e.g. a copy of the section)",
        function, name));
  throw InvalidArgument(fmt::format("{}: {} is a null pointer (a required array)", function, name));
}

void throw_bad_extent(const char* function, const char* name, int dimension, int size,
                      const Extent& expected) {
  throw InvalidArgument(fmt::format(
      "{}: {} has SIZE({}, {}) = {}, expected {}{} ({})", function, name, name, dimension + 1, size,
      expected.at_least ? "at least " : "", expected.value, expected.meaning));
}

}  // namespace icondiff::capi::detail
