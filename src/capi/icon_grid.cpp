// grid_init on this rank: ICON's connectivity tables and start/end index arrays made into a
// host Grid (grid_from_icon_arrays), the vertical grid from vct_a, and the edge and cell geometry
// the diffusion reads copied to Views the handle owns (icon_granule.hpp).

#include "icon_granule.hpp"

#include <icondiff/grid/icon_grid_arrays.hpp>

#include <fmt/format.h>

#include <icondiff_c.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace icondiff::capi {

/// grid_init on this rank: `owners` empty on one rank, else every point's owner (from the
/// directory of owners_from_masks).
icondiff_icon_grid* create_grid(const icondiff_icon_grid_args& a, int rank, int ranks,
                                const Owners& owners) {
  const char* f = grid_init_name;
  check_memory(f, a.on_gpu != 0);
  if (a.backend < 0 || a.backend > 2)
    throw InvalidArgument(fmt::format(
        "{}: backend = {} is not one of ICON4Py's selectors 0 (default), 1 (dace), 2 (gtfn)", f,
        a.backend));
  const long nc = a.num_cells, ne = a.num_edges, nv = a.num_vertices, nlev = a.vertical_size;
  if (nc <= 0 || ne <= 0 || nv <= 0)
    throw InvalidArgument(
        fmt::format("{}: num_cells = {}, num_edges = {}, num_vertices = {}: "
                    "every size must be positive",
                    f, nc, ne, nv));
  if (nlev < 2)
    throw InvalidArgument(fmt::format("{}: vertical_size = {} (nlev) must be at least 2", f, nlev));

  // Index arrays: start/end arrays, owner masks and global indices are host arrays in ICON4Py
  // (never behind host_data); tables may be device pointers.
  const bool dev = a.on_gpu != 0;
  check_array(a.cell_starts, f, "cell_starts", {at_least(14, "ICON's start_index(-8:5)")});
  check_array(a.cell_ends, f, "cell_ends", {at_least(14, "ICON's end_index(-8:5)")});
  check_array(a.edge_starts, f, "edge_starts", {at_least(24, "ICON's start_index(-13:10)")});
  check_array(a.edge_ends, f, "edge_ends", {at_least(24, "ICON's end_index(-13:10)")});
  check_array(a.vertex_starts, f, "vertex_starts", {at_least(13, "ICON's start_index(-7:5)")});
  check_array(a.vertex_ends, f, "vertex_ends", {at_least(13, "ICON's end_index(-7:5)")});
  struct Table {
    const icondiff_array& array;
    const char* name;
    long rows;
    const char* rows_meaning;
    long cols;
    bool at_least_cols;
  };
  const Table tables[] = {
      {a.c2e, "c2e", nc, "num_cells", 3, false},     {a.e2c, "e2c", ne, "num_edges", 2, false},
      {a.c2e2c, "c2e2c", nc, "num_cells", 3, false}, {a.e2c2e, "e2c2e", ne, "num_edges", 4, false},
      {a.e2v, "e2v", ne, "num_edges", 2, true},      {a.v2e, "v2e", nv, "num_vertices", 6, false},
      {a.v2c, "v2c", nv, "num_vertices", 6, false},  {a.e2c2v, "e2c2v", ne, "num_edges", 4, false},
      {a.c2v, "c2v", nc, "num_cells", 3, false}};
  std::map<std::string, std::vector<int>> host_tables;
  for (const Table& t : tables) {
    check_array(t.array, f, t.name,
                {at_least(t.rows, t.rows_meaning),
                 t.at_least_cols ? at_least(t.cols, "neighbours") : exactly(t.cols, "neighbours")});
    host_tables[t.name] = host_values<int, M>(t.array, 2, dev);
  }
  check_array(a.c_owner_mask, f, "c_owner_mask", {at_least(nc, "num_cells")});
  check_array(a.e_owner_mask, f, "e_owner_mask", {at_least(ne, "num_edges")});
  check_array(a.v_owner_mask, f, "v_owner_mask", {at_least(nv, "num_vertices")});
  check_array(a.c_glb_index, f, "c_glb_index", {at_least(nc, "num_cells")});
  check_array(a.e_glb_index, f, "e_glb_index", {at_least(ne, "num_edges")});
  check_array(a.v_glb_index, f, "v_glb_index", {at_least(nv, "num_vertices")});

  const struct {
    const icondiff_array& mask;
    const char* name;
    long n;
  } masks[] = {{a.c_owner_mask, "c_owner_mask", nc},
               {a.e_owner_mask, "e_owner_mask", ne},
               {a.v_owner_mask, "v_owner_mask", nv}};
  for (const auto& m : masks) {
    const auto* owned = static_cast<const unsigned char*>(m.mask.data);
    for (long i = 0; i < m.n && ranks == 1; ++i)
      if (owned[i] == 0)
        throw InvalidArgument(fmt::format(
            "{}: {}({}) is false, but on one rank every point is owned", f, m.name, i + 1));
  }

  auto tab = [&](const char* name, const icondiff_array& array) {
    return IconIndexTable{host_tables.at(name).data(), static_cast<index_t>(array.size[0])};
  };
  IconGridArrays g;
  g.num_cells = static_cast<index_t>(nc);
  g.num_edges = static_cast<index_t>(ne);
  g.num_vertices = static_cast<index_t>(nv);
  g.c2e = tab("c2e", a.c2e);
  g.c2v = tab("c2v", a.c2v);
  g.c2e2c = tab("c2e2c", a.c2e2c);
  g.e2c = tab("e2c", a.e2c);
  g.e2v = tab("e2v", a.e2v);
  g.v2e = tab("v2e", a.v2e);
  g.v2c = tab("v2c", a.v2c);
  g.e2c2v = tab("e2c2v", a.e2c2v);
  g.e2c2e = tab("e2c2e", a.e2c2e);
  const icondiff_array* starts[3] = {&a.cell_starts, &a.edge_starts, &a.vertex_starts};
  const icondiff_array* ends[3] = {&a.cell_ends, &a.edge_ends, &a.vertex_ends};
  for (int l = 0; l < 3; ++l)
    g.zone_bounds[l] = {static_cast<const int*>(starts[l]->data),
                        static_cast<const int*>(ends[l]->data),
                        static_cast<index_t>(std::min(starts[l]->size[0], ends[l]->size[0]))};
  g.rank = rank;
  g.num_ranks = ranks;
  if (ranks > 1) {
    const icondiff_array* glb[3] = {&a.c_glb_index, &a.e_glb_index, &a.v_glb_index};
    for (int l = 0; l < 3; ++l) {
      g.global_index[l] = static_cast<const int*>(glb[l]->data);
      g.owner_rank[l] = owners[l].data();
    }
  }

  auto handle = std::make_unique<icondiff_icon_grid>();
  handle->on_gpu = dev;
  check_global_indices(a.c_glb_index, "c_glb_index", nc);
  check_global_indices(a.e_glb_index, "e_glb_index", ne);
  check_global_indices(a.v_glb_index, "v_glb_index", nv);
  try {
    handle->grid = grid_from_icon_arrays(g);
  } catch (const GridConsistencyError& e) {
    throw InvalidArgument(fmt::format("{}: {}", f, icon_numbering(e)));
  } catch (const Error& e) {
    throw InvalidArgument(fmt::format("{}: {}", f, e.what()));
  }
  handle->grid.source = "ICON arrays (grid_init)";
  if (handle->grid.limited_area != (a.limited_area != 0))
    throw InvalidArgument(fmt::format(
        "{}: limited_area is {} but the cells' first lateral boundary row (cell_starts/"
        "cell_ends at refinement level 1) is {}",
        f, a.limited_area ? "true" : "false", handle->grid.limited_area ? "not empty" : "empty"));

  // Vertical grid: vct_a gives nlev + 1 half-level heights; nrd from the damping height.
  check_array(a.vct_a, f, "vct_a", {exactly(nlev + 1, "vertical_size + 1")});
  handle->vertical.vct_a = host_values<double, M>(a.vct_a, static_cast<std::size_t>(nlev + 1), dev);
  // ICON's 1-based vct_a(k) here; the vertical grid's own check below speaks 0-based.
  const std::vector<double>& vct_a = handle->vertical.vct_a;
  for (std::size_t k = 0; k < vct_a.size(); ++k) {
    if (!std::isfinite(vct_a[k]))
      throw InvalidArgument(
          fmt::format("{}: vct_a({}) = {} is not a finite height (1-based)", f, k + 1, vct_a[k]));
    if (k > 0 && !(vct_a[k] < vct_a[k - 1]))
      throw InvalidArgument(fmt::format(
          "{}: vct_a({}) = {} is not below vct_a({}) = {} (1-based): vct_a must decrease from the "
          "model top to the surface",
          f, k + 1, vct_a[k], k, vct_a[k - 1]));
  }
  handle->vertical.end_index_of_damping_layer =
      end_index_of_damping_layer(handle->vertical.vct_a, a.rayleigh_damping_height);
  try {
    handle->vertical.validate();
  } catch (const Error& e) {
    throw ConfigError(fmt::format("{}: vct_a / rayleigh_damping_height: {}", f, e.what()));
  }

  // Geometry: the edge and cell fields the granule reads are copied; the others ICON4Py takes
  // (f_e, centres, normals at cells, primal normals) are checked and not needed by diffusion.
  // (Spelled-out element type: nvcc 11.8 cannot deduce a braced list of pairs in a range-for.)
  using NamedArrays = std::initializer_list<std::pair<const icondiff_array*, const char*>>;
  for (const auto& [array, name] :
       NamedArrays{{&a.tangent_orientation, "tangent_orientation"},
                   {&a.inverse_primal_edge_lengths, "inverse_primal_edge_lengths"},
                   {&a.inv_dual_edge_length, "inv_dual_edge_length"},
                   {&a.inv_vert_vert_length, "inv_vert_vert_length"},
                   {&a.edge_areas, "edge_areas"},
                   {&a.f_e, "f_e"},
                   {&a.edge_center_lat, "edge_center_lat"},
                   {&a.edge_center_lon, "edge_center_lon"},
                   {&a.primal_normal_x, "primal_normal_x"},
                   {&a.primal_normal_y, "primal_normal_y"}})
    check_array(*array, f, name, {at_least(ne, "num_edges")});
  for (const auto& [array, name] : NamedArrays{{&a.primal_normal_vert_x, "primal_normal_vert_x"},
                                               {&a.primal_normal_vert_y, "primal_normal_vert_y"},
                                               {&a.dual_normal_vert_x, "dual_normal_vert_x"},
                                               {&a.dual_normal_vert_y, "dual_normal_vert_y"}})
    check_array(*array, f, name, {at_least(ne, "num_edges"), exactly(4, "E2C2V neighbours")});
  for (const auto& [array, name] : NamedArrays{{&a.primal_normal_cell_x, "primal_normal_cell_x"},
                                               {&a.primal_normal_cell_y, "primal_normal_cell_y"},
                                               {&a.dual_normal_cell_x, "dual_normal_cell_x"},
                                               {&a.dual_normal_cell_y, "dual_normal_cell_y"}})
    check_array(*array, f, name, {at_least(ne, "num_edges"), exactly(2, "E2C neighbours")});
  for (const auto& [array, name] : NamedArrays{{&a.cell_center_lat, "cell_center_lat"},
                                               {&a.cell_center_lon, "cell_center_lon"},
                                               {&a.cell_areas, "cell_areas"}})
    check_array(*array, f, name, {at_least(nc, "num_cells")});
  check_grid_values(a, host_tables, nc, ne, dev);

  handle->device = DeviceGrid<M>(handle->grid);
  const FieldSizes sizes = handle->device.sizes();
  const std::string what = std::string(f) + ":";
  handle->edges = copy_from_caller<DiffusionEdgeParams>(
      {{"tangent_orientation", external<wp>(a.tangent_orientation)},
       {"inverse_primal_edge_lengths", external<wp>(a.inverse_primal_edge_lengths)},
       {"inverse_vertex_vertex_lengths", external<wp>(a.inv_vert_vert_length)},
       {"inverse_dual_edge_lengths", external<wp>(a.inv_dual_edge_length)},
       {"edge_areas", external<wp>(a.edge_areas)},
       {"primal_normal_vert_x", external<wp>(a.primal_normal_vert_x)},
       {"primal_normal_vert_y", external<wp>(a.primal_normal_vert_y)},
       {"dual_normal_vert_x", external<wp>(a.dual_normal_vert_x)},
       {"dual_normal_vert_y", external<wp>(a.dual_normal_vert_y)}},
      sizes, what, dev);
  handle->cells = copy_from_caller<DiffusionCellParams>({{"cell_area", external<wp>(a.cell_areas)}},
                                                        sizes, what, dev);
  // The dycore's: f_e and the normals at the edge's cells copied, the others shared.
  DycoreEdgeParams<M>& dycore = handle->dycore_edges;
  dycore = copy_from_caller<DycoreEdgeParams>(
      {{"tangent_orientation", external<wp>(a.tangent_orientation)},
       {"inverse_primal_edge_lengths", external<wp>(a.inverse_primal_edge_lengths)},
       {"inverse_dual_edge_lengths", external<wp>(a.inv_dual_edge_length)},
       {"edge_areas", external<wp>(a.edge_areas)},
       {"coriolis_frequency", external<wp>(a.f_e)},
       {"primal_normal_cell_x", external<wp>(a.primal_normal_cell_x)},
       {"primal_normal_cell_y", external<wp>(a.primal_normal_cell_y)},
       {"dual_normal_cell_x", external<wp>(a.dual_normal_cell_x)},
       {"dual_normal_cell_y", external<wp>(a.dual_normal_cell_y)}},
      sizes, what, dev);
  dycore.tangent_orientation = handle->edges.tangent_orientation;
  dycore.inverse_primal_edge_lengths = handle->edges.inverse_primal_edge_lengths;
  dycore.inverse_dual_edge_lengths = handle->edges.inverse_dual_edge_lengths;
  dycore.edge_areas = handle->edges.edge_areas;
  handle->mean_cell_area = a.mean_cell_area;
  if (!std::isfinite(a.flat_height))
    throw InvalidArgument(fmt::format("{}: flat_height = {} is not finite", f, a.flat_height));
  handle->nflatlev = end_index_of_flat_layer(vct_a, a.flat_height);
  handle->flat_height = a.flat_height;
  handle->kstart_moist = start_index_of_moist_physics(vct_a, VerticalGridConfig{}.htop_moist_proc);
  handle->whole_sizes = handle->device.sizes();
  return handle.release();
}

}  // namespace icondiff::capi
