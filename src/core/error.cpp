#include <icondiff/core/error.hpp>

#include <fmt/format.h>

namespace icondiff {

namespace {
std::string describe(const std::string& file, const std::string& variable, long long index,
                     const std::string& problem) {
  std::string where = fmt::format("grid file '{}'", file);
  if (!variable.empty()) where += fmt::format(", variable '{}'", variable);
  if (index >= 0) where += fmt::format(", index {} (0-based)", index);
  return where + ": " + problem;
}
}  // namespace

GridFileError::GridFileError(std::string file, std::string variable, long long index,
                             const std::string& problem)
    : GridError(describe(file, variable, index, problem)),
      file_(std::move(file)),
      variable_(std::move(variable)),
      index_(index) {}

OutputFileError::OutputFileError(std::string file, const std::string& problem)
    : Error(fmt::format("output file '{}': {}", file, problem)), file_(std::move(file)) {}

}  // namespace icondiff
