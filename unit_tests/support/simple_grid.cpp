#include "simple_grid.hpp"

#include <array>
#include <cstddef>

namespace icondiff::test {

namespace {

template <std::size_t Rows, std::size_t Cols>
using Rows_t = std::array<std::array<index_t, Cols>, Rows>;

template <std::size_t Rows, std::size_t Cols>
HostTable<index_t> to_table(const Rows_t<Rows, Cols>& rows) {
  HostTable<index_t> t(Rows, Cols);
  for (std::size_t r = 0; r < Rows; ++r)
    for (std::size_t c = 0; c < Cols; ++c) t(r, c) = rows[r][c];
  return t;
}

// ---- Spec Appendix A, row by row (index: neighbours) ------------------------------------------

// C2E (18×3)
constexpr Rows_t<18, 3> c2e_rows = {{
    {0, 1, 5},
    {3, 4, 8},
    {6, 7, 2},
    {1, 2, 9},
    {4, 5, 12},
    {7, 8, 15},
    {9, 10, 14},
    {12, 13, 17},
    {15, 16, 11},
    {10, 11, 18},
    {13, 14, 21},
    {16, 17, 24},
    {18, 19, 23},
    {21, 22, 26},
    {24, 25, 20},
    {19, 20, 0},
    {22, 23, 3},
    {25, 26, 6},
}};

// E2C (27×2)
constexpr Rows_t<27, 2> e2c_rows = {{
    {0, 15}, {0, 3},   {3, 2},   {1, 16},  {1, 4},   {0, 4},   {2, 17},  {2, 5},   {1, 5},
    {3, 6},  {6, 9},   {9, 8},   {4, 7},   {7, 10},  {6, 10},  {5, 8},   {8, 11},  {7, 11},
    {9, 12}, {12, 15}, {15, 14}, {10, 13}, {13, 16}, {12, 16}, {11, 14}, {14, 17}, {13, 17},
}};

// E2V (27×2)
constexpr Rows_t<27, 2> e2v_rows = {{
    {0, 1}, {0, 4}, {0, 3}, {1, 2}, {1, 5}, {1, 4}, {2, 0}, {2, 3}, {2, 5},
    {3, 4}, {3, 7}, {3, 6}, {4, 5}, {4, 8}, {4, 7}, {5, 3}, {5, 6}, {5, 8},
    {6, 7}, {6, 1}, {6, 0}, {7, 8}, {7, 2}, {7, 1}, {8, 6}, {8, 0}, {8, 2},
}};

// E2C2V (27×4): [E2V0, E2V1, far vertex of E2C0, far vertex of E2C1], except edges 5 and 11
// (far vertices swapped, Addendum 11).
constexpr Rows_t<27, 4> e2c2v_rows = {{
    {0, 1, 4, 6}, {0, 4, 1, 3}, {0, 3, 4, 2}, {1, 2, 5, 7}, {1, 5, 2, 4}, {1, 4, 5, 0},
    {2, 0, 3, 8}, {2, 3, 0, 5}, {2, 5, 1, 3}, {3, 4, 0, 7}, {3, 7, 4, 6}, {3, 6, 5, 7},
    {4, 5, 1, 8}, {4, 8, 5, 7}, {4, 7, 3, 8}, {5, 3, 2, 6}, {5, 6, 3, 8}, {5, 8, 4, 6},
    {6, 7, 3, 1}, {6, 1, 7, 0}, {6, 0, 1, 8}, {7, 8, 4, 2}, {7, 2, 8, 1}, {7, 1, 6, 2},
    {8, 6, 5, 0}, {8, 0, 6, 2}, {8, 2, 7, 0},
}};

// C2V (18×3)
constexpr Rows_t<18, 3> c2v_rows = {{
    {0, 1, 4},
    {1, 2, 5},
    {2, 0, 3},
    {0, 3, 4},
    {1, 4, 5},
    {2, 5, 3},
    {3, 4, 7},
    {4, 5, 8},
    {5, 3, 6},
    {3, 6, 7},
    {4, 7, 8},
    {5, 8, 6},
    {6, 7, 1},
    {7, 8, 2},
    {8, 6, 0},
    {6, 0, 1},
    {7, 1, 2},
    {8, 2, 0},
}};

// C2E2C (18×3), not aligned with C2E
constexpr Rows_t<18, 3> c2e2c_rows = {{
    {15, 4, 3},
    {16, 5, 4},
    {17, 3, 5},
    {0, 6, 2},
    {1, 7, 0},
    {2, 8, 1},
    {3, 10, 9},
    {4, 11, 10},
    {5, 9, 11},
    {6, 12, 8},
    {7, 13, 6},
    {8, 14, 7},
    {9, 16, 15},
    {10, 17, 16},
    {11, 15, 17},
    {12, 0, 14},
    {13, 1, 12},
    {14, 2, 13},
}};

// C2E2CO (18×4), self LAST
constexpr Rows_t<18, 4> c2e2co_rows = {{
    {15, 4, 3, 0},
    {16, 5, 4, 1},
    {17, 3, 5, 2},
    {0, 6, 2, 3},
    {1, 7, 0, 4},
    {2, 8, 1, 5},
    {3, 10, 9, 6},
    {4, 11, 10, 7},
    {5, 9, 11, 8},
    {6, 12, 8, 9},
    {7, 13, 6, 10},
    {8, 14, 7, 11},
    {9, 16, 15, 12},
    {10, 17, 16, 13},
    {11, 15, 17, 14},
    {12, 0, 14, 15},
    {13, 1, 12, 16},
    {14, 2, 13, 17},
}};

// V2E (9×6)
constexpr Rows_t<9, 6> v2e_rows = {{
    {0, 1, 2, 6, 25, 20},
    {3, 4, 5, 0, 23, 19},
    {6, 7, 8, 3, 22, 26},
    {9, 10, 11, 15, 7, 2},
    {12, 13, 14, 9, 1, 5},
    {15, 16, 17, 12, 4, 8},
    {18, 19, 20, 24, 16, 11},
    {21, 22, 23, 18, 10, 14},
    {24, 25, 26, 21, 13, 17},
}};

// V2C (9×6)
constexpr Rows_t<9, 6> v2c_rows = {{
    {17, 14, 3, 0, 2, 15},
    {0, 4, 1, 12, 16, 15},
    {1, 5, 2, 16, 13, 17},
    {3, 6, 9, 5, 8, 2},
    {6, 10, 7, 4, 0, 3},
    {7, 11, 8, 5, 1, 4},
    {9, 12, 15, 8, 11, 14},
    {12, 16, 13, 10, 6, 9},
    {13, 17, 14, 11, 7, 10},
}};

// E2C2E (27×4)
constexpr Rows_t<27, 4> e2c2e_rows = {{
    {1, 5, 19, 20},  {0, 5, 2, 9},     {1, 9, 6, 7},     {4, 8, 22, 23},   {3, 8, 5, 12},
    {0, 1, 4, 12},   {7, 2, 25, 26},   {6, 2, 8, 15},    {3, 4, 7, 15},    {1, 2, 10, 14},
    {9, 14, 11, 18}, {10, 18, 15, 16}, {4, 5, 13, 17},   {12, 17, 14, 21}, {9, 10, 13, 21},
    {7, 8, 16, 11},  {15, 11, 17, 24}, {12, 13, 16, 24}, {10, 11, 19, 23}, {18, 23, 20, 0},
    {19, 0, 24, 25}, {13, 14, 22, 26}, {21, 26, 23, 3},  {18, 19, 22, 3},  {16, 17, 25, 20},
    {24, 20, 26, 6}, {25, 6, 21, 22},
}};

// E2C2EO (27×5). The spec (Appendix A) says E2C2EO = [self, E2C2E...]; ICON4Py's SimpleGrid
// actually lists the three edges of one adjacent cell (C2E order) and then the other cell's two
// remaining edges, so self sits at slot 0, 1 or 2. This table is SimpleGrid's (simple.py,
// e2c2eO_table). Diffusion does not use E2C2EO.
constexpr Rows_t<27, 5> e2c2eo_rows = {{
    {0, 1, 5, 19, 20},    {0, 1, 5, 2, 9},      {1, 2, 9, 6, 7},      {3, 4, 8, 22, 23},
    {3, 4, 8, 5, 12},     {0, 1, 5, 4, 12},     {6, 7, 2, 25, 26},    {6, 7, 2, 8, 15},
    {3, 4, 8, 7, 15},     {1, 2, 9, 10, 14},    {9, 10, 14, 11, 18},  {10, 11, 18, 15, 16},
    {4, 5, 12, 13, 17},   {12, 13, 17, 14, 21}, {9, 10, 14, 13, 21},  {7, 8, 15, 16, 11},
    {15, 16, 11, 17, 24}, {12, 13, 17, 16, 24}, {10, 11, 18, 19, 23}, {18, 19, 23, 20, 0},
    {19, 20, 0, 24, 25},  {13, 14, 21, 22, 26}, {21, 22, 26, 23, 3},  {18, 19, 23, 22, 3},
    {16, 17, 24, 25, 20}, {24, 25, 20, 26, 6},  {25, 26, 6, 21, 22},
}};

Zones simple_zones(Location location, index_t size) {
  std::array<IndexRange, num_zones> ranges{};
  for (int z = 0; z < num_zones; ++z) {
    const auto zone = static_cast<Zone>(z);
    const bool halo = zone == Zone::Halo || zone == Zone::Halo2;
    ranges[z] = IndexRange{halo ? size : 0, size};
  }
  return Zones(location, ranges);
}

}  // namespace

Grid make_simple_torus_grid() {
  Grid g;
  g.name = "simple_torus";
  g.source =
      "ICON4Py SimpleGrid (model/common/src/icon4py/model/common/grid/simple.py), "
      "transcribed from diffusion_spec.md Appendix A";
  g.limited_area = false;
  g.num_cells = 18;
  g.num_edges = 27;
  g.num_vertices = 9;

  g.c2e = to_table(c2e_rows);
  g.c2v = to_table(c2v_rows);
  g.c2e2c = to_table(c2e2c_rows);
  g.e2c = to_table(e2c_rows);
  g.e2v = to_table(e2v_rows);
  g.v2e = to_table(v2e_rows);
  g.v2c = to_table(v2c_rows);
  g.c2e2co = to_table(c2e2co_rows);
  g.e2c2v = to_table(e2c2v_rows);
  g.e2c2e = to_table(e2c2e_rows);
  g.e2c2eo = to_table(e2c2eo_rows);

  g.zones[static_cast<int>(Location::Cell)] = simple_zones(Location::Cell, g.num_cells);
  g.zones[static_cast<int>(Location::Edge)] = simple_zones(Location::Edge, g.num_edges);
  g.zones[static_cast<int>(Location::Vertex)] = simple_zones(Location::Vertex, g.num_vertices);
  return g;
}

}  // namespace icondiff::test
