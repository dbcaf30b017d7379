#include "support/icon_arrays_case.hpp"
#include "support/icon_case_state.hpp"
#include "support/kernel_clock.hpp"

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/local_fields.hpp>
#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/setup/diffusion_setup.hpp>
#include <icondiff/setup/local_diffusion_inputs.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <icondiff_c.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace icondiff::test::icon_case {

namespace {
std::unique_ptr<Case> the_case;
}  // namespace

Case& current() {
  if (!the_case) throw InvalidArgument("icon_case: no case (call icon_case_create)");
  return *the_case;
}

int guarded(const char* what, const std::function<void()>& body) {
  try {
    body();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "icon_case: %s: %s\n", what, e.what());
    return 1;
  }
}

namespace {

/// The dense zd fields as ICON's point lists: every (cell, level) with a non-zero coefficient or
/// offset (the round trip list -> dense gives the same fields back).
std::vector<Case::ZdEntry> zd_lists(const DiffusionInputs<H>& in, const Grid& grid) {
  std::vector<Case::ZdEntry> out;
  const auto& m = in.metric;
  if (!m.zd_diffcoef.data()) return out;
  for (std::size_t c = 0; c < m.zd_diffcoef.extent(0); ++c)
    for (std::size_t k = 0; k < m.zd_diffcoef.extent(1); ++k) {
      bool listed = m.zd_diffcoef(c, k) != 0.0;
      for (int j = 0; j < 3; ++j)
        listed = listed || m.zd_intcoef(c, j, k) != 0.0 || m.zd_vertoffset(c, j, k) != 0;
      if (!listed) continue;
      Case::ZdEntry e{};
      e.cell = static_cast<int>(c);
      e.level = static_cast<int>(k);
      for (int j = 0; j < 3; ++j) {
        e.neighbour_cells[j] = grid.c2e2c(c, j);
        e.neighbour_levels[j] = static_cast<int>(k) + m.zd_vertoffset(c, j, k);
        e.intcoef[j] = m.zd_intcoef(c, j, k);
      }
      e.diffcoef = m.zd_diffcoef(c, k);
      out.push_back(e);
    }
  return out;
}

/// A host View of the case by ICON4Py's argument name (rank 1 or 2, double), or none.
template <class F>
bool with_double_field(const Case& k, const std::string& name, F&& f) {
  static const std::map<std::string, std::string> renamed = {
      {"inv_dual_edge_length", "inverse_dual_edge_lengths"},
      {"inv_vert_vert_length", "inverse_vertex_vertex_lengths"},
      {"cell_areas", "cell_area"}};
  const auto it = renamed.find(name);
  const std::string field = it == renamed.end() ? name : it->second;
  bool found = false;
  auto visit = [&](const FieldSpec& spec, const auto& view) {
    using V = std::decay_t<decltype(view)>;
    if (spec.name != field) return;
    if constexpr (std::is_floating_point_v<typename V::value_type> && V::rank <= 2) {
      found = true;
      f(view);
    }
  };
  DiffusionEdgeParams<H>::for_each_field(visit, k.inputs.edges);
  DiffusionCellParams<H>::for_each_field(visit, k.inputs.cells);
  DiffusionMetricState<H>::for_each_field(visit, k.inputs.metric);
  DiffusionInterpolationState<H>::for_each_field(visit, k.inputs.interpolation);
  DiffusionPrognosticState<H>::for_each_field(visit, k.initial);
  return found;
}

/// The caller's turbulence diagnostics before a call, and the C++ path's: values no call
/// computes, so that every point a call does not write shows whether the boundary left it as the
/// caller had it (with level-fastest fields the C API converts these pure outputs back over the
/// region the kernels write only; a wrong region shows up in the comparison of every point).
double diagnostic_prefill(std::size_t global_cell, int level) {
  return -1.0e6 - 0.5 * static_cast<double>(global_cell) - 1.0e-3 * level;
}

/// A diagnostic state on the whole grid filled with diagnostic_prefill.
DiffusionDiagnosticState<M> prefilled_diagnostics(const FieldSizes& sizes) {
  auto host = allocate_state<DiffusionDiagnosticState, H>(sizes, "icondiff::test::");
  DiffusionDiagnosticState<H>::for_each_field(
      [](const FieldSpec&, const auto& field) {
        for (std::size_t c = 0; c < field.extent(0); ++c)
          for (std::size_t k = 0; k < field.extent(1); ++k)
            field(c, k) = static_cast<vp>(diagnostic_prefill(c, static_cast<int>(k)));
      },
      host);
  return copy_state<M>(host, "icondiff::test::");
}

/// A per-point geometry value ICON4Py's grid_init takes that the granule does not read.
std::optional<std::vector<double>> unused_geometry(const Grid& g, const std::string& name) {
  const auto per_edge = [&](auto value) {
    std::vector<double> v(static_cast<std::size_t>(g.num_edges));
    for (std::size_t e = 0; e < v.size(); ++e) v[e] = value(e);
    return v;
  };
  constexpr double omega = 7.29212e-5;  // ICON's earth_angular_velocity
  if (name == "f_e")
    return per_edge([&](std::size_t e) { return 2 * omega * std::sin(g.edge_lat[e]); });
  if (name == "edge_center_lat") return g.edge_lat;
  if (name == "edge_center_lon") return g.edge_lon;
  if (name == "cell_center_lat") return g.cell_lat;
  if (name == "cell_center_lon") return g.cell_lon;
  if (name == "primal_normal_x") return g.primal_normal_east;
  if (name == "primal_normal_y") return g.primal_normal_north;
  return std::nullopt;
}

}  // namespace

void write_rows(double* data, int ld, int cols, std::size_t points,
                const std::function<double(std::size_t, int)>& value) {
  if (static_cast<std::size_t>(ld) < points)
    throw InvalidArgument(fmt::format("ld {} < {} points", ld, points));
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < ld; ++i)
      data[static_cast<std::size_t>(j) * ld + i] =
          static_cast<std::size_t>(i) < points ? value(static_cast<std::size_t>(i), j) : sentinel;
}

}  // namespace icondiff::test::icon_case

using namespace icondiff;
using namespace icondiff::test;
using namespace icondiff::test::icon_case;

extern "C" {

int icon_case_create(const char* grid_source, int nlev) {
  return icon_case_create_part(grid_source, nlev, 0, 1);
}

int icon_case_create_part(const char* grid_source, int nlev, int rank, int num_ranks) {
  return guarded("create", [&] {
    if (icondiff_initialize() != ICONDIFF_OK) throw Error(icondiff_last_error());
    auto k = std::make_unique<Case>();
    k->config = mch_ch_r04b09_config();
    k->setup.vertical = mch_ch_r04b09_vertical_config();
    k->setup.vertical.num_levels = nlev;
    k->setup.metrics = mch_ch_r04b09_metrics_config();
    Grid grid = load_grid_source(grid_source);
    // A steep hill inside the grid (a few cells wide) so that truly horizontal temperature
    // diffusion has points: the zd_* lists are not empty.
    const auto centre = static_cast<std::size_t>(grid.num_cells / 2);
    const double cell_width = std::sqrt(grid.cell_area[centre]);
    k->setup.metrics.topography = TopographyConfig::gaussian_hill(
        3000.0, 4.0 * cell_width, grid.cell_lon[centre] * 180.0 / M_PI,
        grid.cell_lat[centre] * 180.0 / M_PI);
    k->host = compute_diffusion_inputs(std::move(grid), k->config, k->setup);
    k->whole_inputs = make_diffusion_inputs<H>(k->host);
    JablonowskiWilliamsonConfig jw;
    jw.vn_noise_amplitude = 1.0;
    jw.w_noise_amplitude = 0.1;
    jw.noise_seed = 7;
    k->whole_initial = to_prognostic_state<H>(jablonowski_williamson_state(
        k->host.grid, k->host.metrics.z_ifc, k->host.metrics.z_mc, jw));
    if (num_ranks == 1) {
      k->grid = k->host.grid;
      k->inputs = k->whole_inputs;
      k->initial = k->whole_initial;
    } else {
      k->grid =
          make_local_grid(k->host.grid, partition_cells(k->host.grid, num_ranks), rank, num_ranks);
      k->inputs = restrict_diffusion_inputs<H>(k->whole_inputs, k->grid);
      k->initial =
          restrict_to_local(k->whole_initial, k->grid, k->whole_inputs.sizes(), "icondiff::test::");
    }
    k->zd = zd_lists(k->inputs, k->grid);
    the_case = std::move(k);
  });
}

void icon_case_free(void) {
  the_case.reset();
}

void icon_case_sizes(int* num_cells, int* num_edges, int* num_vertices, int* nlev,
                     int* zd_entries) {
  const Case& k = current();
  *num_cells = k.grid.num_cells;
  *num_edges = k.grid.num_edges;
  *num_vertices = k.grid.num_vertices;
  *nlev = k.inputs.num_levels();
  *zd_entries = static_cast<int>(k.zd.size());
}

int icon_case_fill_int(const char* name_c, int* data, int ld, int cols) {
  return guarded(name_c, [&] {
    const Case& k = current();
    const Grid& g = k.grid;
    const std::string name = name_c;
    const std::map<std::string, const HostTable<index_t>*> tables = {
        {"c2e", &g.c2e},  {"c2v", &g.c2v}, {"c2e2c", &g.c2e2c}, {"e2c", &g.e2c},
        {"v2e", &g.v2e},  {"v2c", &g.v2c}, {"e2c2v", &g.e2c2v}, {"e2c2e", &g.e2c2e},
        {"e2v", &g.e2c2v}};  // ICON passes e2c2v as e2v (ICON4Py reads its first 2 columns)
    if (const auto t = tables.find(name); t != tables.end()) {
      const HostTable<index_t>& table = *t->second;
      if (cols > static_cast<int>(table.cols()) || ld < static_cast<int>(table.rows()))
        throw InvalidArgument(fmt::format("{} is ({}, {}), asked for ({}, {})", name, table.rows(),
                                          table.cols(), ld, cols));
      for (int j = 0; j < cols; ++j)
        for (int i = 0; i < ld; ++i)
          data[static_cast<std::size_t>(j) * ld + i] =
              static_cast<std::size_t>(i) < table.rows() ? table(i, j) + 1 : int_sentinel;
      return;
    }
    for (Location l : all_locations) {
      const std::string prefix = l == Location::Cell   ? "cell"
                                 : l == Location::Edge ? "edge"
                                                       : "vertex";
      if (name == prefix + "_starts" || name == prefix + "_ends") {
        if (ld < icon_index_array_size(l)) throw InvalidArgument("too short");
        std::fill(data, data + ld, 0);
        for (int z = 0; z < num_zones; ++z) {
          const auto zone = static_cast<Zone>(z);
          if (!zone_exists(l, zone)) continue;
          const IndexRange r = g.range(l, zone);
          data[icon_index_array_position(l, zone)] =
              name == prefix + "_starts" ? r.start + 1 : r.end;
        }
        return;
      }
      const std::string glb = std::string(1, prefix[0]) + "_glb_index";
      if (name == glb) {
        const std::vector<index_t>& global = g.global_index(l);
        for (int i = 0; i < ld; ++i)
          data[i] = i < g.size(l) ? (global.empty() ? i : global[i]) + 1 : int_sentinel;
        return;
      }
    }
    if (name == "zd_cellidx" || name == "zd_vertidx") {
      if (ld != 4 || cols != static_cast<int>(k.zd.size()))
        throw InvalidArgument(fmt::format("{} is (4, {})", name, k.zd.size()));
      for (std::size_t i = 0; i < k.zd.size(); ++i) {
        const auto& e = k.zd[i];
        int* col = data + 4 * i;
        col[0] = (name == "zd_cellidx" ? e.cell : e.level) + 1;
        for (int j = 0; j < 3; ++j)
          col[j + 1] = (name == "zd_cellidx" ? e.neighbour_cells[j] : e.neighbour_levels[j]) + 1;
      }
      return;
    }
    if (fill_solve_nh_int(k, name, data, ld, cols)) return;
    throw InvalidArgument("no integer array named " + name);
  });
}

int icon_case_fill_double(const char* name_c, double* data, int ld, int cols) {
  return guarded(name_c, [&] {
    const Case& k = current();
    const Grid& g = k.grid;
    const std::string name = name_c;
    const auto nlev = static_cast<std::size_t>(k.inputs.num_levels());
    if (name == "rbf_vec_coeff_v") {
      const auto nv = static_cast<std::size_t>(g.num_vertices);
      for (int v = 0; v < ld; ++v)
        for (int c = 0; c < 2; ++c)
          for (int j = 0; j < 6; ++j) {
            const auto& coeff =
                c == 0 ? k.inputs.interpolation.rbf_coeff_1 : k.inputs.interpolation.rbf_coeff_2;
            data[j + 6 * c + 12 * static_cast<std::size_t>(v)] =
                static_cast<std::size_t>(v) < nv ? coeff(v, j) : sentinel;
          }
      return;
    }
    if (name == "vct_a") {
      if (ld != static_cast<int>(nlev + 1)) throw InvalidArgument("vct_a has nlev + 1 values");
      std::copy(k.inputs.vertical.vct_a.begin(), k.inputs.vertical.vct_a.end(), data);
      return;
    }
    if (name == "zd_intcoef" || name == "zd_diffcoef") {
      const int rows = name == "zd_intcoef" ? 3 : 1;
      if (ld != rows || cols != static_cast<int>(k.zd.size()))
        throw InvalidArgument(fmt::format("{} is ({}, {})", name, rows, k.zd.size()));
      for (std::size_t i = 0; i < k.zd.size(); ++i)
        for (int j = 0; j < rows; ++j)
          data[rows * i + j] = name == "zd_intcoef" ? k.zd[i].intcoef[j] : k.zd[i].diffcoef;
      return;
    }
    if (name == "hdef_ic" || name == "div_ic" || name == "dwdx" || name == "dwdy") {
      const std::vector<index_t>& global = g.global_index(Location::Cell);
      write_rows(data, ld, cols, static_cast<std::size_t>(g.num_cells), [&](std::size_t i, int j) {
        return static_cast<double>(static_cast<vp>(
            diagnostic_prefill(global.empty() ? i : static_cast<std::size_t>(global[i]), j)));
      });
      return;
    }
    if (fill_solve_nh_double(k, name, data, ld, cols)) return;  // its geometry is the real one
    if (name == "primal_normal_cell_x" || name == "primal_normal_cell_y" ||
        name == "dual_normal_cell_x" || name == "dual_normal_cell_y") {
      write_rows(data, ld, cols, static_cast<std::size_t>(g.num_edges),
                 [](std::size_t, int j) { return 0.25 * (j + 1); });  // not read by diffusion
      return;
    }
    if (const auto values = unused_geometry(g, name)) {
      write_rows(data, ld, 1, values->size(), [&](std::size_t i, int) { return (*values)[i]; });
      return;
    }
    if (name == "rho") {
      const auto nc = static_cast<std::size_t>(g.num_cells);
      write_rows(data, ld, cols, nc, [&](std::size_t i, int j) {
        return 1.0 + 1e-3 * static_cast<double>((i + nc * j) % 997);
      });
      return;
    }
    const bool found = with_double_field(k, name, [&](const auto& view) {
      using V = std::decay_t<decltype(view)>;
      const int view_cols = V::rank == 1 ? 1 : static_cast<int>(view.extent(1));
      if (cols != view_cols)
        throw InvalidArgument(
            fmt::format("{} has {} columns, asked for {}", name, view_cols, cols));
      write_rows(data, ld, cols, view.extent(0), [&](std::size_t i, int j) {
        if constexpr (V::rank == 1)
          return static_cast<double>(view(i));
        else
          return static_cast<double>(view(i, j));
      });
    });
    if (!found) throw InvalidArgument("no double array named " + name);
  });
}

int icon_case_fill_bool(const char* name_c, unsigned char* data, int ld) {
  return guarded(name_c, [&] {
    const Grid& g = current().grid;
    const std::string name = name_c;
    for (Location l : all_locations) {
      const std::string prefix = l == Location::Cell ? "c" : l == Location::Edge ? "e" : "v";
      if (name == prefix + "_owner_mask") {
        const std::vector<int>& owner = g.owner_rank(l);
        for (int i = 0; i < ld; ++i)
          data[i] = i < g.size(l) && (owner.empty() || owner[i] == g.rank) ? 1 : 0;
        return;
      }
    }
    if (fill_solve_nh_bool(current(), name, data, ld)) return;
    throw InvalidArgument("no boolean array named " + name);
  });
}

double icon_case_real(const char* name_c) {
  const Case& k = current();
  const DiffusionConfig& c = k.config;
  const VerticalGridConfig& v = k.setup.vertical;
  const std::string name = name_c;
  const std::map<std::string, double> values = {
      {"lowest_layer_thickness", v.lowest_layer_thickness},
      {"model_top_height", v.model_top_height},
      {"stretch_factor", v.stretch_factor},
      {"flat_height", v.flat_height},
      {"rayleigh_damping_height", v.rayleigh_damping_height},
      {"mean_cell_area", 1.0},
      {"hdiff_efdt_ratio", c.hdiff_efdt_ratio},
      {"hdiff_w_efdt_ratio", c.hdiff_w_efdt_ratio},
      {"smagorinski_scaling_factor", c.smagorinski_scaling_factor},
      {"smagorinski_scaling_factor2", c.smagorinski_scaling_factor2},
      {"smagorinski_scaling_factor3", c.smagorinski_scaling_factor3},
      {"smagorinski_scaling_factor4", c.smagorinski_scaling_factor4},
      {"smagorinski_scaling_height", c.smagorinski_scaling_height},
      {"smagorinski_scaling_height2", c.smagorinski_scaling_height2},
      {"smagorinski_scaling_height3", c.smagorinski_scaling_height3},
      {"smagorinski_scaling_height4", c.smagorinski_scaling_height4},
      {"denom_diffu_v", c.velocity_boundary_diffusion_denominator},
      {"nudge_max_coeff", c.max_nudging_coefficient},
      {"a_hshr", c.a_hshr}};
  if (const auto value = solve_nh_real(k, name)) return *value;
  const auto it = values.find(name);
  if (it == values.end()) {
    std::fprintf(stderr, "icon_case: no real named %s\n", name_c);
    return std::nan("");
  }
  return it->second;
}

int icon_case_int(const char* name_c) {
  const Case& k = current();
  const DiffusionConfig& c = k.config;
  const std::string name = name_c;
  const std::map<std::string, int> values = {{"ndyn_substeps", c.ndyn_substeps},
                                             {"diffusion_type", static_cast<int>(c.diffusion_type)},
                                             {"hdiff_w", c.apply_to_vertical_wind},
                                             {"hdiff_vn", c.apply_to_horizontal_wind},
                                             {"hdiff_smag_w", c.apply_smag_diff_to_vertical_wind},
                                             {"zdiffu_t", c.apply_zdiffusion_t},
                                             {"type_t_diffu", static_cast<int>(c.type_t_diffu)},
                                             {"type_vn_diffu", static_cast<int>(c.type_vn_diffu)},
                                             {"hdiff_temp", c.apply_to_temperature},
                                             {"itype_sher", static_cast<int>(c.shear_type)},
                                             {"iforcing", static_cast<int>(c.iforcing)},
                                             {"loutshs", c.loutshs},
                                             {"limited_area", k.grid.limited_area}};
  if (const auto value = solve_nh_int(k, name)) return *value;
  const auto it = values.find(name);
  if (it == values.end()) {
    std::fprintf(stderr, "icon_case: no integer named %s\n", name_c);
    return -999;
  }
  return it->second;
}

int icon_case_run_reference(int steps, double dtime) {
  return guarded("run_reference", [&] {
    Case& k = current();
    const DiffusionInputs<M> inputs =
        copy_diffusion_inputs<M>(k.whole_inputs, DeviceGrid<M>(k.host.grid));
    Diffusion<Space> granule(k.config, inputs);
    auto prognostic = copy_state<M>(k.whole_initial, "icondiff::test::");
    auto diagnostic = prefilled_diagnostics(inputs.sizes());
    for (int step = 0; step < steps; ++step) granule.run(diagnostic, prognostic, dtime, step == 0);
    Kokkos::fence();
    k.prognostic = copy_state<H>(prognostic, "icondiff::test::");
    k.diagnostic = copy_state<H>(diagnostic, "icondiff::test::");
  });
}

int icon_case_compare(const char* name_c, const double* data, int ld, int cols) {
  int mismatches = 0;
  const int status = guarded(name_c, [&] {
    const Case& k = current();
    const std::string name = name_c;
    if (const auto differences = compare_solve_nh(k, name, data, ld, cols)) {
      mismatches = *differences;
      return;
    }
    if (!k.prognostic) throw InvalidArgument("run the reference first");
    bool found = false;
    auto visit = [&](const FieldSpec& spec, const auto& view) {
      if (spec.name != name) return;
      found = true;
      mismatches = count_differences(k, name, spec.location, view, data, ld, cols, "the C++ path");
    };
    DiffusionPrognosticState<H>::for_each_field(visit, *k.prognostic);
    DiffusionDiagnosticState<H>::for_each_field(visit, *k.diagnostic);
    if (!found) throw InvalidArgument("no output named " + name);
  });
  return status != 0 ? -1 : mismatches;
}

double icon_case_max_difference(const char* name_c, const double* data, int ld, int cols) {
  double result = std::nan("");
  guarded(name_c, [&] {
    const Case& k = current();
    const std::string name = name_c;
    if (const auto difference = max_difference_solve_nh(k, name, data, ld, cols)) {
      result = *difference;
      return;
    }
    if (!k.prognostic) throw InvalidArgument("run the reference first");
    auto visit = [&](const FieldSpec& spec, const auto& view) {
      if (spec.name != name) return;
      result = max_relative_difference(k, name, spec.location, view, data, ld, cols);
    };
    DiffusionPrognosticState<H>::for_each_field(visit, *k.prognostic);
    DiffusionDiagnosticState<H>::for_each_field(visit, *k.diagnostic);
  });
  return result;
}

int icon_case_cpp_prepare(double dtime) {
  return guarded("cpp_prepare", [&] {
    Case& k = current();
    k.cpp = std::make_unique<Case::CppCall>();
    k.cpp->inputs = copy_diffusion_inputs<M>(k.whole_inputs, DeviceGrid<M>(k.host.grid));
    k.cpp->granule = std::make_unique<Diffusion<Space>>(k.config, k.cpp->inputs);
    k.cpp->prognostic = copy_state<M>(k.whole_initial, "icondiff::test::");
    k.cpp->diagnostic = prefilled_diagnostics(k.cpp->inputs.sizes());
    k.cpp->granule->run(k.cpp->diagnostic, k.cpp->prognostic, dtime, true);
    Kokkos::fence();
  });
}

double icon_case_cpp_call(double dtime) {
  static const std::string label = "icondiff::test::cpp_call";
  Case& k = current();
  const Space space;
  const double t0 = bench_wall_seconds();
  k.cpp->granule->run(space, k.cpp->diagnostic, k.cpp->prognostic, dtime, false);
  compat::fence(space, label);
  return bench_wall_seconds() - t0;
}

double icon_case_sentinel(void) {
  return sentinel;
}

}  // extern "C"
