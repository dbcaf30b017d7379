// Blocks of a whole grid held in memory (grid/grid_block.hpp).
#include <icondiff/core/error.hpp>
#include <icondiff/grid/grid_block.hpp>

#include <fmt/format.h>

#include <type_traits>

namespace icondiff {

namespace {
template <class T>
void copy_rows(std::vector<T>& dst, const std::vector<T>& src, std::size_t first,
               std::size_t count) {
  if (src.empty()) return;
  dst.assign(src.begin() + static_cast<std::ptrdiff_t>(first),
             src.begin() + static_cast<std::ptrdiff_t>(first + count));
}
template <class T>
void copy_rows(HostTable<T>& dst, const HostTable<T>& src, std::size_t first, std::size_t count) {
  if (src.empty()) return;
  dst = HostTable<T>(count, src.cols());
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t j = 0; j < src.cols(); ++j) dst(i, j) = src(first + i, j);
}
}  // namespace

GridBlock grid_block_of(const Grid& whole, int block, int num_blocks) {
  if (num_blocks < 1 || block < 0 || block >= num_blocks)
    throw InvalidArgument(fmt::format(
        "grid_block_of: block {} of {}, expected 0 <= block < num_blocks", block, num_blocks));
  if (whole.num_ranks != 1)
    throw InvalidArgument(fmt::format(
        "grid_block_of: grid '{}' is already rank {}'s part of a decomposition over {} ranks",
        whole.name, whole.rank, whole.num_ranks));
  GridBlock b;
  b.block = block;
  b.num_blocks = num_blocks;
  Grid& rows = b.rows;
  rows.name = whole.name;
  rows.source = whole.source;
  rows.uuid = whole.uuid;
  rows.grid_root = whole.grid_root;
  rows.grid_level = whole.grid_level;
  rows.sphere_radius = whole.sphere_radius;
  std::array<std::size_t, 3> first{}, count{};
  for (const Location l : all_locations) {
    const int li = static_cast<int>(l);
    const auto n = static_cast<std::size_t>(whole.size(l));
    first[li] = block_start(n, block, num_blocks);
    count[li] = block_start(n, block + 1, num_blocks) - first[li];
    b.begin[li] = static_cast<index_t>(first[li]);
    b.total[li] = whole.size(l);
    copy_rows(rows.refin_ctrl[li], whole.refin_ctrl[li], first[li], count[li]);
  }
  rows.num_cells = static_cast<index_t>(count[0]);
  rows.num_edges = static_cast<index_t>(count[1]);
  rows.num_vertices = static_cast<index_t>(count[2]);
  // The file's tables only: no derived connectivity, no decomposition (as read_icon_grid_block).
  Grid::for_each_field(
      [&](const FieldSpec& spec, auto& dst, const auto& src) {
        const std::string name = spec.name;
        if (name == "c2e2co" || name == "e2c2v" || name == "e2c2e" || name == "e2c2eo") return;
        const int li = static_cast<int>(spec.location);
        copy_rows(dst, src, first[li], count[li]);
      },
      rows, whole);
  return b;
}

}  // namespace icondiff
