// The shape check the metric factories (metric_fields.cpp, dycore_metric_fields.cpp) make of
// their table arguments: a mismatch is the caller's bug, reported with the table's name.
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/host_table.hpp>

#include <fmt/format.h>

#include <cstddef>

namespace icondiff::detail {

inline void require_table(const char* name, const HostTable<double>& t, std::size_t rows,
                          std::size_t cols) {
  if (t.rows() != rows || t.cols() != cols)
    throw InvalidArgument(fmt::format("metrics: {} is ({}, {}), expected ({}, {})", name, t.rows(),
                                      t.cols(), rows, cols));
}

}  // namespace icondiff::detail
