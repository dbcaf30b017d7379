// Cell partitions as text files: one line per cell of the grid (in the grid file's order), the
// 0-based rank that owns it. This is the format METIS' own `gpmetis` writes (graph.part.N), so a
// partition made elsewhere (gpmetis with other options, ICON's decomposition, a hand-made one for
// a test) can replace icondiff's built-in METIS call (`icondiff run --partition FILE`).
#pragma once

#include <string>
#include <vector>

namespace icondiff {

/// The owner of every cell from `path`. Blank lines and lines starting with '#' are skipped.
/// Throws InvalidArgument naming the file, the line and the problem: the file cannot be read, a
/// line is not one integer, a rank outside [0, num_ranks), more or fewer lines than `num_cells`
/// cells, or a rank that owns no cell.
std::vector<int> read_partition_file(const std::string& path, long long num_cells, int num_ranks);

/// The owners of the cells [first, first + count) only (a rank's block, grid/grid_block.hpp): the
/// whole file is read and checked line by line as above, but only those owners are kept, so the
/// memory does not grow with the grid.
std::vector<int> read_partition_file_rows(const std::string& path, long long num_cells,
                                          int num_ranks, long long first, long long count);

}  // namespace icondiff
