// solve_nh savepoint files in netCDF: the granule's variables (one per field of the per-call
// states' and the static structs' field lists, the metric state's two level profiles), the
// substep's scalars and the static inputs' vertical indices, and writing and reading a whole
// file. What every savepoint file holds (header, grid reference, decomposition, vct_a, field
// variables) is savepoint_file_common.cpp's; the config.* and metadata.* global attributes are
// savepoint_attributes.cpp's. Specified in docs/dev/savepoints.md ("solve_nh savepoints"); keep
// the two in step.
#include "netcdf_file.hpp"
#include "savepoint_internal.hpp"

#include <icondiff/io/solve_nh_savepoint_file.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace icondiff {

namespace {

using io::NetcdfReader;
using io::NetcdfWriter;
using io::savepoint::FieldInfo;
using io::savepoint::Puts;
using io::savepoint::Sizes;
using H = Kokkos::HostSpace;

// ---- Variables --------------------------------------------------------------------------------

/// Which struct of the savepoint a field belongs to.
enum class Part { Current, Next, Diagnostic, PrepAdvection, Metric, Interpolation, Edge, Cell };

bool is_output(Part p) {
  return p == Part::Next || p == Part::Diagnostic || p == Part::PrepAdvection;
}

/// A level profile of the metric state (beside its field list): (nlev) or (nlev_half).
FieldInfo profile_info(const char* name, const char* levels, const char* long_name,
                       const char* icon_name, const char* icon4py_name) {
  FieldInfo info;
  info.name = name;
  info.dims = {levels};
  info.units = "1";
  info.long_name = long_name;
  info.icon_name = icon_name;
  info.icon4py_name = icon4py_name;
  info.has_levels = true;
  return info;
}

/// Calls f(info, part, view) for every field of a savepoint (const or not), in file order: the
/// two time levels (variables <field>_now and <field>_new: ICON's nnow and nnew, the binding's
/// argument names), the diagnostic state, prep_adv, then the static inputs.
template <class Savepoint, class F>
void for_each_field(Savepoint& s, F&& f) {
  const auto in = [&f](Part part, const char* suffix = "") {
    return [&f, part, suffix](const FieldSpec& spec, auto& view) {
      f(io::savepoint::info_of(spec, suffix), part, view);
    };
  };
  SolveNhPrognosticState<H>::for_each_field(in(Part::Current, "_now"), s.current);
  SolveNhPrognosticState<H>::for_each_field(in(Part::Next, "_new"), s.next);
  SolveNhDiagnosticState<H>::for_each_field(in(Part::Diagnostic), s.diagnostic);
  SolveNhPrepAdvection<H>::for_each_field(in(Part::PrepAdvection), s.prep_adv);
  DycoreMetricState<H>::for_each_field(in(Part::Metric), s.inputs.metric);
  f(profile_info("scaling_factor_for_3d_divdamp", "nlev",
                 "vertical profile of the dw/dz term of the divergence damping",
                 "p_nh%metrics%scalfac_dd3d", "MetricStateNonHydro.scalfac_dd3d"),
    Part::Metric, s.inputs.metric.scaling_factor_for_3d_divdamp);
  f(profile_info("rayleigh_w", "nlev_half", "Rayleigh damping coefficient of w (Klemp)",
                 "p_nh%metrics%rayleigh_w", "MetricStateNonHydro.rayleigh_w"),
    Part::Metric, s.inputs.metric.rayleigh_w);
  DycoreInterpolationState<H>::for_each_field(in(Part::Interpolation), s.inputs.interpolation);
  DycoreEdgeParams<H>::for_each_field(in(Part::Edge), s.inputs.edges);
  DycoreCellParams<H>::for_each_field(in(Part::Cell), s.inputs.cells);
}

/// Whether a field belongs in a savepoint of `kind`, and whether it must be there (the
/// limited-area tendencies and IAU increments are written when the call had them).
bool field_written(Part part, SavepointKind kind) {
  return kind == SavepointKind::Init || is_output(part);
}
bool field_required(const FieldInfo& info, Part part, SavepointKind kind) {
  return field_written(part, kind) && info.presence != Presence::IfAvailable;
}

/// The slot dimensions the fields use, in order of first use.
const std::vector<const char*>& slot_dimensions() {
  static const std::vector<const char*> dims = [] {
    std::vector<const char*> d;
    SolveNhSavepoint none;
    for_each_field(none, [&d](const FieldInfo& info, Part, const auto&) {
      for (const char* dim : info.dims) {
        const std::string name = dim;
        const bool levels_or_points = name == "nlev" || name == "nlev_half" || name == "cell" ||
                                      name == "edge" || name == "vertex";
        const bool known = std::any_of(d.begin(), d.end(),
                                       [dim](const char* x) { return std::strcmp(x, dim) == 0; });
        if (!levels_or_points && !known) d.push_back(dim);
      }
    });
    return d;
  }();
  return dims;
}

Sizes sizes_of(const SolveNhSavepoint& s) {
  return Sizes(s.grid.num_cells, s.grid.num_edges, s.grid.num_vertices, s.num_levels());
}

// ---- Scalars ----------------------------------------------------------------------------------

/// Calls f(attribute, member) for every scalar of the substep: "step.<name>".
template <class Step, class F>
void for_each_step_scalar(Step& step, F&& f) {
#define ICONDIFF_VISIT_STEP_SCALAR(name, type, default_value, meaning) f("step." #name, step.name);
  ICONDIFF_SOLVE_NH_STEP_SCALARS(ICONDIFF_VISIT_STEP_SCALAR)
#undef ICONDIFF_VISIT_STEP_SCALAR
}

/// The vertical indices of the static inputs, each a level in [0, nlev): "vertical.<name>" (of
/// ICON4Py's VerticalGrid) and "metric.nflat_gradp" (MetricStateNonHydro).
struct LevelIndex {
  const char* attribute;
  int DycoreInputs<H>::*member;
};
constexpr LevelIndex level_indices[] = {
    {"vertical.nflatlev", &DycoreInputs<H>::nflatlev},
    {"vertical.end_index_of_damping_layer", &DycoreInputs<H>::end_index_of_damping_layer},
    {"vertical.kstart_moist", &DycoreInputs<H>::kstart_moist},
    {"metric.nflat_gradp", &DycoreInputs<H>::nflat_gradp},
};
constexpr const char* mean_cell_area_name = "cells.mean_cell_area";
constexpr const char* max_vertical_cfl_name = "diagnostic.max_vertical_cfl";

/// "" or why the scalars of `s` cannot be written (what the reader refuses).
std::string scalar_problem(const SolveNhSavepoint& s) {
  const int nlev = s.num_levels();
  if (nlev < 1) return fmt::format("inputs.nlev = {}, expected at least 1 level", nlev);
  if (s.vct_a.size() != static_cast<std::size_t>(nlev) + 1)
    return fmt::format("vct_a has {} values, expected nlev + 1 = {}", s.vct_a.size(), nlev + 1);
  for (const LevelIndex& index : level_indices) {
    const int v = s.inputs.*index.member;
    if (v < 0 || v > nlev - 1)
      return fmt::format("{} = {}, expected a level in [0, nlev - 1 = {}]", index.attribute, v,
                         nlev - 1);
  }
  if (!(s.inputs.mean_cell_area > 0.0) || !std::isfinite(s.inputs.mean_cell_area))
    return fmt::format("{} = {}, expected a finite area > 0", mean_cell_area_name,
                       s.inputs.mean_cell_area);
  if (!(s.step.dtime > 0.0) || !std::isfinite(s.step.dtime))
    return fmt::format("step.dtime = {}, expected a finite time step > 0 s", s.step.dtime);
  if (s.step.ndyn_substeps_var < 1)
    return fmt::format("step.ndyn_substeps_var = {}, expected at least 1",
                       s.step.ndyn_substeps_var);
  return "";
}

// ---- Writing ----------------------------------------------------------------------------------

/// Everything write_solve_nh_savepoint promises to reject, checked before a byte is written.
void validate_for_writing(const std::string& path, const SolveNhSavepoint& s) {
  const auto invalid = [&path](const std::string& what) {
    throw InvalidArgument(fmt::format("cannot write savepoint '{}': {}", path, what));
  };
  s.config.validate_for_solve_nh();
  if (const std::string p = scalar_problem(s); !p.empty()) invalid(p);
  VerticalGrid{s.vct_a, s.inputs.end_index_of_damping_layer}.validate();
  if (const std::string p = io::savepoint::grid_reference_problem(s.grid); !p.empty()) invalid(p);
  if (const std::string p = io::savepoint::metadata_problem(s.metadata); !p.empty()) invalid(p);
  if (s.decomposition)
    if (const std::string p = io::savepoint::decomposition_problem(*s.decomposition, s.grid);
        !p.empty())
      invalid(p);
  const Sizes sizes = sizes_of(s);
  const SavepointIdentity identity{SavepointGranule::SolveNh, s.kind};
  for_each_field(s, [&](const FieldInfo& info, Part part, const auto& view) {
    if (!field_written(part, s.kind)) return;
    if (io::savepoint::is_empty(view)) {
      if (field_required(info, part, s.kind))
        invalid(fmt::format("field {} is empty, but a {} savepoint needs it", info.name,
                            identity.name()));
      return;
    }
    if (const std::string p = io::savepoint::field_problem(info, view, sizes, s.num_levels());
        !p.empty())
      invalid(p);
  });
}

void write_file(const std::string& path, const SolveNhSavepoint& s, io::NetcdfFormat format) {
  NetcdfWriter nc(path, format, io::savepoint::raise_savepoint_error);
  nc.no_fill();
  io::savepoint::define_dimensions(nc, sizes_of(s), slot_dimensions());
  io::savepoint::write_header(nc, "icondiff solve_nh savepoint",
                              SavepointIdentity{SavepointGranule::SolveNh, s.kind}.name());
  for_each_step_scalar(s.step, [&nc](const char* name, const auto& value) {
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, double>)
      nc.number("", name, value);
    else
      nc.integer("", name, static_cast<int>(value));
  });
  nc.number("", max_vertical_cfl_name, s.diagnostic.max_vertical_cfl);
  io::savepoint::write_grid_reference(nc, s.grid);
  for (const LevelIndex& index : level_indices)
    nc.integer("", index.attribute, s.inputs.*index.member);
  nc.number("", mean_cell_area_name, s.inputs.mean_cell_area);
  io::savepoint::write_config_attributes(nc, s.config);
  io::savepoint::write_metadata_attributes(nc, s.metadata);

  Puts puts;
  io::savepoint::define_vct_a(nc, s.vct_a, puts);
  if (s.decomposition) io::savepoint::define_decomposition(nc, *s.decomposition, puts);
  for_each_field(s, [&](const FieldInfo& info, Part part, const auto& view) {
    if (field_written(part, s.kind) && !io::savepoint::is_empty(view))
      io::savepoint::define_field(nc, info, view, puts);
  });
  nc.end_definitions();
  for (const auto& put : puts) put();
  nc.close();
}

// ---- Reading ----------------------------------------------------------------------------------

SolveNhStep read_step(const NetcdfReader& f) {
  SolveNhStep step;
  for_each_step_scalar(step, [&f](const char* name, auto& value) {
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, double>) {
      value = io::savepoint::real_attribute(f, name);
      if (!std::isfinite(value))
        f.fail(name, -1, fmt::format("= {}, expected a finite number", value));
    } else if constexpr (std::is_same_v<T, bool>) {
      value = io::savepoint::bool_attribute(f, name);
    } else {
      value = io::savepoint::int_attribute_in(f, name, std::numeric_limits<int>::min(),
                                              std::numeric_limits<int>::max(), "a 32-bit integer");
    }
  });
  if (!(step.dtime > 0.0))
    f.fail("step.dtime", -1, fmt::format("= {}, expected a finite time step > 0 s", step.dtime));
  if (step.ndyn_substeps_var < 1)
    f.fail("step.ndyn_substeps_var", -1,
           fmt::format("= {}, expected at least 1", step.ndyn_substeps_var));
  return step;
}

/// vct_a, nlev and the vertical indices of the static inputs; the mean cell area.
void read_vertical(const NetcdfReader& f, SolveNhSavepoint& s) {
  const VerticalGrid vertical =
      io::savepoint::read_vertical_grid(f, "vertical.end_index_of_damping_layer");
  s.vct_a = vertical.vct_a;
  s.inputs.nlev = vertical.num_levels();
  for (const LevelIndex& index : level_indices)
    s.inputs.*index.member = io::savepoint::int_attribute_in(
        f, index.attribute, 0, s.inputs.nlev - 1,
        fmt::format("a level in [0, nlev - 1 = {}]", s.inputs.nlev - 1));
  s.inputs.mean_cell_area = io::savepoint::real_attribute(f, mean_cell_area_name);
  if (!(s.inputs.mean_cell_area > 0.0) || !std::isfinite(s.inputs.mean_cell_area))
    f.fail(mean_cell_area_name, -1,
           fmt::format("= {}, expected a finite area > 0 m2", s.inputs.mean_cell_area));
}

}  // namespace

// ---- Public API -------------------------------------------------------------------------------

void write_solve_nh_savepoint(const std::string& path, const SolveNhSavepoint& savepoint,
                              SavepointFileFormat format) {
  validate_for_writing(path, savepoint);
  std::size_t largest = 0;
  for_each_field(savepoint, [&](const FieldInfo&, Part, const auto& view) {
    largest = std::max(largest, io::savepoint::bytes_of(view));
  });
  const io::NetcdfFormat flavour = io::savepoint::choose_format(format, largest);
  io::savepoint::write_atomically(
      path, [&](const std::string& temporary) { write_file(temporary, savepoint, flavour); });
}

SolveNhSavepoint read_solve_nh_savepoint(const std::string& path) {
  NetcdfReader f(path, io::savepoint::raise_savepoint_error);
  SolveNhSavepoint s;
  s.kind = io::savepoint::read_header(f, SavepointGranule::SolveNh);
  s.config = io::savepoint::read_config_attributes<DycoreConfig>(f);
  s.step = read_step(f);
  s.diagnostic.max_vertical_cfl = io::savepoint::real_attribute(f, max_vertical_cfl_name);
  s.grid = io::savepoint::read_grid_reference(f);
  read_vertical(f, s);
  io::savepoint::check_slot_dimensions(f, slot_dimensions());
  s.metadata = io::savepoint::read_metadata_attributes(f);
  s.decomposition = io::savepoint::read_decomposition(f, s.grid);

  const Sizes sizes = sizes_of(s);
  const SavepointIdentity identity{SavepointGranule::SolveNh, s.kind};
  for_each_field(s, [&](const FieldInfo& info, Part part, auto& view) {
    if (!field_written(part, s.kind)) return;
    if (!f.has_variable(info.name)) {
      if (!field_required(info, part, s.kind)) return;
      f.fail(info.name, -1,
             fmt::format("the variable is missing; a {} savepoint holds it", identity.name()));
    }
    io::savepoint::read_field(f, info, sizes, view);
  });
  return s;
}

}  // namespace icondiff
