// Derived connectivities, in the neighbour order ICON uses (ICON4Py grid_manager
// _get_derived_connectivities). Missing cells propagate as missing_index.
#include <icondiff/core/error.hpp>
#include <icondiff/grid/grid.hpp>

namespace icondiff {

namespace {

/// The vertex of cell `c` that is not an end of edge `e`, or missing_index.
index_t far_vertex(const Grid& g, index_t c, index_t e) {
  if (c == missing_index) return missing_index;
  for (int j = 0; j < 3; ++j) {
    const index_t v = g.c2v(c, j);
    if (v != g.e2v(e, 0) && v != g.e2v(e, 1)) return v;
  }
  throw GridError("cell " + std::to_string(c) + " contains both vertices of every edge: edge " +
                  std::to_string(e) + " is degenerate");
}

/// Position of edge `e` in c2e[c].
int slot_of_edge(const Grid& g, index_t c, index_t e) {
  for (int j = 0; j < 3; ++j)
    if (g.c2e(c, j) == e) return j;
  throw GridError("edge " + std::to_string(e) + " is not an edge of its adjacent cell " +
                  std::to_string(c));
}

}  // namespace

void build_derived_connectivity(Grid& g) {
  const auto nc = static_cast<std::size_t>(g.num_cells);
  const auto ne = static_cast<std::size_t>(g.num_edges);

  g.c2e2co = HostTable<index_t>(nc, 4);
  for (std::size_t c = 0; c < nc; ++c) {
    g.c2e2co(c, 0) = static_cast<index_t>(c);
    for (int j = 0; j < 3; ++j) g.c2e2co(c, j + 1) = g.c2e2c(c, j);
  }

  g.e2c2v = HostTable<index_t>(ne, 4);
  g.e2c2e = HostTable<index_t>(ne, 4);
  g.e2c2eo = HostTable<index_t>(ne, 5);
  for (std::size_t e = 0; e < ne; ++e) {
    const auto ei = static_cast<index_t>(e);
    g.e2c2v(e, 0) = g.e2v(e, 0);
    g.e2c2v(e, 1) = g.e2v(e, 1);
    g.e2c2eo(e, 0) = ei;
    for (int k = 0; k < 2; ++k) {
      const index_t c = g.e2c(e, k);
      g.e2c2v(e, 2 + k) = far_vertex(g, c, ei);
      if (c == missing_index) {
        g.e2c2e(e, 2 * k) = g.e2c2e(e, 2 * k + 1) = missing_index;
      } else {
        const int p = slot_of_edge(g, c, ei);
        g.e2c2e(e, 2 * k) = g.c2e(c, (p + 1) % 3);
        g.e2c2e(e, 2 * k + 1) = g.c2e(c, (p + 2) % 3);
      }
      g.e2c2eo(e, 1 + 2 * k) = g.e2c2e(e, 2 * k);
      g.e2c2eo(e, 2 + 2 * k) = g.e2c2e(e, 2 * k + 1);
    }
  }
}

}  // namespace icondiff
