#include "vertex_tables.hpp"

#include <icondiff/core/error.hpp>

#include <fmt/format.h>

#include <vector>

namespace icondiff::detail {

namespace {

/// Slot of vertex `v` in c2v[c].
int slot_of_vertex(const Grid& g, index_t c, index_t v) {
  for (int j = 0; j < 3; ++j)
    if (g.c2v(c, j) == v) return j;
  throw GridError(fmt::format(
      "vertex tables: cell {} is listed across an edge of vertex {} but does not contain it (c2v "
      "{}, {}, {}); expected c2e2c[j] across c2e[j]",
      c, v, g.c2v(c, 0), g.c2v(c, 1), g.c2v(c, 2)));
}

}  // namespace

void build_vertex_tables(Grid& g) {
  const auto nv = static_cast<std::size_t>(g.num_vertices);
  const auto nc = static_cast<std::size_t>(g.num_cells);

  // Cells around each vertex (compressed rows, in cell order).
  std::vector<index_t> first(nv + 1, 0);
  for (std::size_t c = 0; c < nc; ++c)
    for (int j = 0; j < 3; ++j) ++first[static_cast<std::size_t>(g.c2v(c, j)) + 1];
  for (std::size_t v = 0; v < nv; ++v) first[v + 1] += first[v];
  std::vector<index_t> cells(static_cast<std::size_t>(first[nv]));
  {
    std::vector<index_t> fill(first.begin(), first.end() - 1);
    for (std::size_t c = 0; c < nc; ++c)
      for (int j = 0; j < 3; ++j) cells[fill[g.c2v(c, j)]++] = static_cast<index_t>(c);
  }

  g.v2e = HostTable<index_t>(nv, 6, missing_index);
  g.v2c = HostTable<index_t>(nv, 6, missing_index);
  for (std::size_t v = 0; v < nv; ++v) {
    const auto vi = static_cast<index_t>(v);
    const index_t count = first[v + 1] - first[v];
    if (count == 0) continue;
    if (count > 6)
      throw GridError(fmt::format(
          "vertex tables: vertex {} belongs to {} cells, expected at most 6 (ICON's V2C has six "
          "slots)",
          v, count));
    // Cell c spans counter-clockwise from edge c2e[p] (to the next vertex) to c2e[p+2]; the cell
    // counter-clockwise after it lies across c2e[p+2]. A fan starts where that one is missing.
    index_t start = cells[first[v]];
    int starts = 0;
    for (index_t k = first[v]; k < first[v + 1]; ++k) {
      const index_t c = cells[k];
      const int p = slot_of_vertex(g, c, vi);
      if (g.c2e2c(c, (p + 2) % 3) == missing_index) {
        if (starts == 0) start = c;
        ++starts;
      }
    }
    if (starts > 1)
      throw GridError(fmt::format(
          "vertex tables: the cells of vertex {} form {} separate fans; expected one (the domain "
          "must not touch itself at a vertex)",
          v, starts));

    // Walk clockwise: slot m holds cell c and the edge clockwise after it, c2e[c][p].
    int m = 0;
    index_t c = start;
    int p = slot_of_vertex(g, c, vi);
    while (true) {
      if (m == 6)
        throw GridError(
            fmt::format("vertex tables: walking around vertex {} did not close after 6 cells", v));
      g.v2c(v, m) = c;
      g.v2e(v, m) = g.c2e(c, p);
      ++m;
      const index_t next = g.c2e2c(c, p);
      if (next == missing_index || next == start) break;
      c = next;
      p = slot_of_vertex(g, c, vi);
    }
    if (starts == 1) {
      if (m == 6)
        throw GridError(
            fmt::format("vertex tables: boundary vertex {} has 7 edges, expected at most 6", v));
      const int p0 = slot_of_vertex(g, start, vi);
      g.v2e(v, m) = g.c2e(start, (p0 + 2) % 3);
    }
    if (m != count)
      throw GridError(fmt::format(
          "vertex tables: the walk around vertex {} reached {} of its {} cells; expected one "
          "connected fan",
          v, m, count));
  }
}

}  // namespace icondiff::detail
