// Partition text files (io/partition_file.hpp).
#include <icondiff/io/partition_file.hpp>

#include <icondiff/core/error.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace icondiff {

std::vector<int> read_partition_file(const std::string& path, long long num_cells, int num_ranks) {
  const auto fail = [&path](long long line, const std::string& problem) {
    throw InvalidArgument(line > 0
                              ? fmt::format("partition file '{}', line {}: {}", path, line, problem)
                              : fmt::format("partition file '{}': {}", path, problem));
  };
  std::ifstream in(path);
  if (!in) fail(0, std::string("cannot be read: ") + std::strerror(errno));
  std::vector<int> owner;
  std::vector<long long> cells_of(static_cast<std::size_t>(std::max(num_ranks, 0)), 0);
  std::string text;
  long long line = 0;
  while (std::getline(in, text)) {
    ++line;
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos || text[first] == '#') continue;
    const char* begin = text.c_str() + first;
    char* end = nullptr;
    errno = 0;
    const long value = std::strtol(begin, &end, 10);
    if (end == begin || errno != 0 ||
        text.find_first_not_of(" \t\r", end - text.c_str()) != std::string::npos)
      fail(line, fmt::format("'{}' is not one integer rank", text));
    if (value < 0 || value >= num_ranks)
      fail(line, fmt::format("rank {} is outside [0, {}) for a run on {} ranks", value, num_ranks,
                             num_ranks));
    if (static_cast<long long>(owner.size()) == num_cells)
      fail(line, fmt::format("more lines than the grid's {} cells", num_cells));
    owner.push_back(static_cast<int>(value));
    ++cells_of[static_cast<std::size_t>(value)];
  }
  if (in.bad()) fail(0, "read error");
  if (static_cast<long long>(owner.size()) != num_cells)
    fail(0, fmt::format("{} cells listed, the grid has {}", owner.size(), num_cells));
  for (int r = 0; r < num_ranks; ++r)
    if (cells_of[static_cast<std::size_t>(r)] == 0)
      fail(0, fmt::format("rank {} owns no cell (every rank of the run needs at least one)", r));
  return owner;
}

}  // namespace icondiff
