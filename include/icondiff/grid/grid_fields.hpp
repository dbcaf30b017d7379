// The grid's per-point tables, listed once (core/field_spec.hpp): the host Grid declares them as
// std::vector / HostTable, DeviceGrid as Views, and the copy between them, extent checks and
// the external-array path are loops over this list.
#pragma once

#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/host_table.hpp>
#include <icondiff/core/types.hpp>

#include <type_traits>
#include <vector>

// clang-format off
// FIELD(name, type, location, neighbours, levels, presence, units, long_name, ICON, ICON4Py)
// Connectivity: 0-based, missing_index (-1) marks a missing neighbour. Read from a grid file:
#define ICONDIFF_GRID_CONNECTIVITY_FIELDS(FIELD)                                                   \
  FIELD(c2e, index_t, Cell, C2E, None, Required, "1",                                              \
        "edges of the cell; edge j joins c2v[j] and c2v[(j+1)%3]", "edge_of_cell", "C2E")          \
  FIELD(c2v, index_t, Cell, C2V, None, Required, "1",                                              \
        "vertices of the cell, counter-clockwise seen from outside", "vertex_of_cell", "C2V")      \
  FIELD(c2e2c, index_t, Cell, C2E2C, None, Required, "1",                                          \
        "neighbour cells; slot j lies across c2e[j]", "neighbor_cell_index", "C2E2C")              \
  FIELD(e2c, index_t, Edge, E2C, None, Required, "1",                                              \
        "cells of the edge; the normal points from [0] to [1]", "adjacent_cell_of_edge", "E2C")    \
  FIELD(e2v, index_t, Edge, E2V, None, Required, "1", "vertices of the edge", "edge_vertices",     \
        "E2V")                                                                                     \
  FIELD(v2e, index_t, Vertex, V2E, None, Required, "1",                                            \
        "edges of the vertex (no rotational order; -1 in missing slots)", "edges_of_vertex", "V2E")\
  FIELD(v2c, index_t, Vertex, V2C, None, Required, "1",                                            \
        "cells of the vertex; v2c[j] is adjacent to v2e[j]", "cells_of_vertex", "V2C")             \
  /* Derived (build_derived_connectivity): */                                                      \
  FIELD(c2e2co, index_t, Cell, C2E2CO, None, Required, "1", "[c, c2e2c...]: self first", "",       \
        "C2E2CO")                                                                                  \
  FIELD(e2c2v, index_t, Edge, E2C2V, None, Required, "1",                                          \
        "[e2v0, e2v1, far vertex of e2c0, far vertex of e2c1]", "", "E2C2V")                       \
  FIELD(e2c2e, index_t, Edge, E2C2E, None, Required, "1",                                          \
        "the other two edges of e2c0, then of e2c1 (ICON order)", "", "E2C2E")                     \
  FIELD(e2c2eo, index_t, Edge, E2C2EO, None, Required, "1", "[e, e2c2e...]", "", "E2C2EO")

// Geometry (radians, metres, m2), empty for topology-only grids:
#define ICONDIFF_GRID_GEOMETRY_FIELDS(FIELD)                                                       \
  FIELD(cell_lon, double, Cell, None, None, IfAvailable, "radian", "circumcentre longitude",       \
        "clon", "cell_center_lon")                                                                 \
  FIELD(cell_lat, double, Cell, None, None, IfAvailable, "radian", "circumcentre latitude",        \
        "clat", "cell_center_lat")                                                                 \
  FIELD(edge_lon, double, Edge, None, None, IfAvailable, "radian", "edge midpoint longitude",      \
        "elon", "edge_center_lon")                                                                 \
  FIELD(edge_lat, double, Edge, None, None, IfAvailable, "radian", "edge midpoint latitude",       \
        "elat", "edge_center_lat")                                                                 \
  FIELD(vertex_lon, double, Vertex, None, None, IfAvailable, "radian", "vertex longitude", "vlon", \
        "vertex_lon")                                                                              \
  FIELD(vertex_lat, double, Vertex, None, None, IfAvailable, "radian", "vertex latitude", "vlat",  \
        "vertex_lat")                                                                              \
  FIELD(cell_area, double, Cell, None, None, IfAvailable, "m2", "cell area", "cell_area",          \
        "cell_area")                                                                               \
  FIELD(dual_area, double, Vertex, None, None, IfAvailable, "m2",                                  \
        "area of the dual hexagon/pentagon", "dual_area", "dual_area")                             \
  FIELD(edge_length, double, Edge, None, None, IfAvailable, "m", "primal edge length",             \
        "edge_length", "edge_length")                                                              \
  FIELD(dual_edge_length, double, Edge, None, None, IfAvailable, "m",                              \
        "distance between the circumcentres", "dual_edge_length", "dual_edge_length")              \
  FIELD(edge_cell_distance, double, Edge, E2C, None, IfAvailable, "m",                             \
        "midpoint to e2c[k] centre; 0 if missing", "edge_cell_distance", "edge_cell_distance")     \
  FIELD(edge_vertex_distance, double, Edge, E2V, None, IfAvailable, "m", "midpoint to e2v[k]",     \
        "edge_vert_distance", "edge_vertex_distance")                                              \
  FIELD(primal_normal_east, double, Edge, None, None, IfAvailable, "1",                            \
        "primal normal, eastward component", "zonal_normal_primal_edge", "primal_normal_u")        \
  FIELD(primal_normal_north, double, Edge, None, None, IfAvailable, "1",                           \
        "primal normal, northward component", "meridional_normal_primal_edge", "primal_normal_v")  \
  FIELD(dual_normal_east, double, Edge, None, None, IfAvailable, "1",                              \
        "dual normal (= tangent), eastward component", "zonal_normal_dual_edge", "dual_normal_u")  \
  FIELD(dual_normal_north, double, Edge, None, None, IfAvailable, "1",                             \
        "dual normal (= tangent), northward component", "meridional_normal_dual_edge",             \
        "dual_normal_v")                                                                           \
  FIELD(tangent_orientation, double, Edge, None, None, IfAvailable, "1",                           \
        "+-1: sign(tangent . (v1 - v0))", "edge_system_orientation", "tangent_orientation")        \
  FIELD(cell_edge_orientation, double, Cell, C2E, None, IfAvailable, "1",                          \
        "+-1: +1 iff the normal of c2e[j] points out of the cell (the sign in the divergence)",    \
        "orientation_of_normal", "cell_edge_orientation")                                          \
  FIELD(vertex_edge_orientation, double, Vertex, V2E, None, IfAvailable, "1",                      \
        "+-1: +1 iff the normal of v2e[j] circulates counter-clockwise (the sign in the curl); "   \
        "0 in missing slots", "edge_orientation", "vertex_edge_orientation")

// Decomposition: the global (0-based, whole-grid) index and owning rank of every local point.
// Empty on a grid that is not decomposed (every point is its own global index, owned by rank 0).
#define ICONDIFF_GRID_DECOMPOSITION_FIELDS(FIELD)                                                  \
  FIELD(cell_global_index, index_t, Cell, None, None, IfAvailable, "1",                            \
        "global index of the cell", "decomp_info%glb_index", "CELL global index")                  \
  FIELD(edge_global_index, index_t, Edge, None, None, IfAvailable, "1",                            \
        "global index of the edge", "decomp_info%glb_index", "EDGE global index")                  \
  FIELD(vertex_global_index, index_t, Vertex, None, None, IfAvailable, "1",                        \
        "global index of the vertex", "decomp_info%glb_index", "VERTEX global index")              \
  FIELD(cell_owner_rank, int, Cell, None, None, IfAvailable, "1", "rank that owns the cell",       \
        "decomp_info%owner_local (as a rank)", "CELL owner mask")                                  \
  FIELD(edge_owner_rank, int, Edge, None, None, IfAvailable, "1", "rank that owns the edge",       \
        "decomp_info%owner_local (as a rank)", "EDGE owner mask")                                  \
  FIELD(vertex_owner_rank, int, Vertex, None, None, IfAvailable, "1",                              \
        "rank that owns the vertex", "decomp_info%owner_local (as a rank)", "VERTEX owner mask")

#define ICONDIFF_GRID_FIELDS(FIELD)        \
  ICONDIFF_GRID_CONNECTIVITY_FIELDS(FIELD) \
  ICONDIFF_GRID_GEOMETRY_FIELDS(FIELD)     \
  ICONDIFF_GRID_DECOMPOSITION_FIELDS(FIELD)
// clang-format on

namespace icondiff::detail {
/// The host container of a rank-1 (std::vector) or rank-2 (HostTable, row-major) grid field.
template <class T, int Rank>
using HostGridContainer = std::conditional_t<Rank == 1, std::vector<T>, HostTable<T>>;
}  // namespace icondiff::detail

#define ICONDIFF_GRID_HOST_MEMBER(name, type, location, neighbours, levels, ...)                   \
  ::icondiff::detail::HostGridContainer<type,                                                      \
                                        ::icondiff::field_rank(::icondiff::Neighbours::neighbours, \
                                                               ::icondiff::Levels::levels)>        \
      name;
