// Partition text files (io/partition_file.hpp).
#include <icondiff/io/partition_file.hpp>

#include <icondiff/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace icondiff {

namespace {

/// Calls `cell(index, rank)` for every cell line of `path` in order, checking each line and the
/// number of lines; returns how many cells each rank owns.
template <class Cell>
std::vector<long long> for_each_partition_line(const std::string& path, long long num_cells,
                                               int num_ranks, Cell&& cell) {
  const auto fail = [&path](long long line, const std::string& problem) {
    throw InvalidArgument(line > 0
                              ? fmt::format("partition file '{}', line {}: {}", path, line, problem)
                              : fmt::format("partition file '{}': {}", path, problem));
  };
  std::ifstream in(path);
  if (!in) fail(0, std::string("cannot be read: ") + std::strerror(errno));
  std::vector<long long> cells_of(static_cast<std::size_t>(std::max(num_ranks, 0)), 0);
  long long cells = 0;
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
    if (cells == num_cells)
      fail(line, fmt::format("more lines than the grid's {} cells", num_cells));
    cell(cells++, static_cast<int>(value));
    ++cells_of[static_cast<std::size_t>(value)];
  }
  if (in.bad()) fail(0, "read error");
  if (cells != num_cells)
    fail(0, fmt::format("{} cells listed, the grid has {}", cells, num_cells));
  return cells_of;
}

void check_every_rank_owns_cells(const std::string& path, const std::vector<long long>& cells_of) {
  for (std::size_t r = 0; r < cells_of.size(); ++r)
    if (cells_of[r] == 0)
      throw InvalidArgument(
          fmt::format("partition file '{}': rank {} owns no cell (every rank of the run needs at "
                      "least one)",
                      path, r));
}

}  // namespace

std::vector<int> read_partition_file(const std::string& path, long long num_cells, int num_ranks) {
  std::vector<int> owner;
  const std::vector<long long> cells_of = for_each_partition_line(
      path, num_cells, num_ranks, [&](long long, int rank) { owner.push_back(rank); });
  check_every_rank_owns_cells(path, cells_of);
  return owner;
}

std::vector<int> read_partition_file_rows(const std::string& path, long long num_cells,
                                          int num_ranks, long long first, long long count) {
  std::vector<int> owner;
  owner.reserve(static_cast<std::size_t>(std::max(count, 0LL)));
  const std::vector<long long> cells_of =
      for_each_partition_line(path, num_cells, num_ranks, [&](long long cell, int rank) {
        if (cell >= first && cell < first + count) owner.push_back(rank);
      });
  check_every_rank_owns_cells(path, cells_of);
  return owner;
}

}  // namespace icondiff
