// Diffusion savepoint files in netCDF: the diffusion's variables (one per field of its state
// structs' field lists), its run arguments and vertical grid, and writing and reading a whole
// file. What every savepoint file holds (header, grid reference, decomposition, field variables)
// is savepoint_file_common.cpp's; the config.* and metadata.* global attributes are
// savepoint_attributes.cpp's. The file format (dimensions, variables, attributes, encodings) is
// specified in docs/dev/savepoints.md; keep the two in step, and bump savepoint_format_version
// for any change a version-1 reader would misread.
#include "netcdf_file.hpp"
#include "savepoint_internal.hpp"

#include <icondiff/io/savepoint_file.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace icondiff {

namespace {

using io::NetcdfReader;
using io::NetcdfWriter;
using io::savepoint::bool_attribute;
using io::savepoint::FieldInfo;
using io::savepoint::Puts;
using io::savepoint::real_attribute;
using io::savepoint::Sizes;

// ---- Field table ------------------------------------------------------------------------------

enum class Group { Prognostic, Diagnostic, Metric, Interpolation, Edge, Cell };

bool is_output(Group g) {
  return g == Group::Prognostic || g == Group::Diagnostic;
}

/// Calls f(info, group, view) for every field of a savepoint (const or not), in file order: the
/// state structs' field lists, outputs first.
template <class Savepoint, class F>
void for_each_field(Savepoint& s, F&& f) {
  const auto in_group = [&f](Group group) {
    return [&f, group](const FieldSpec& spec, auto& view) {
      f(io::savepoint::info_of(spec), group, view);
    };
  };
  using H = Kokkos::HostSpace;
  DiffusionPrognosticState<H>::for_each_field(in_group(Group::Prognostic), s.prognostic);
  DiffusionDiagnosticState<H>::for_each_field(in_group(Group::Diagnostic), s.diagnostic);
  DiffusionMetricState<H>::for_each_field(in_group(Group::Metric), s.metric);
  DiffusionInterpolationState<H>::for_each_field(in_group(Group::Interpolation), s.interpolation);
  DiffusionEdgeParams<H>::for_each_field(in_group(Group::Edge), s.edges);
  DiffusionCellParams<H>::for_each_field(in_group(Group::Cell), s.cells);
}

/// Whether a field belongs in a savepoint of `kind` with `config`, and whether it must be there.
bool field_written(Group group, SavepointKind kind) {
  return kind == SavepointKind::Init || is_output(group);
}
bool zdiffu_only(const FieldInfo& info) {
  return info.presence == Presence::ZDiffusion;
}
bool field_required(const FieldInfo& info, Group group, SavepointKind kind,
                    const DiffusionConfig& config) {
  return field_written(group, kind) && !(zdiffu_only(info) && !config.apply_zdiffusion_t);
}

/// The slot dimensions of a diffusion savepoint (every file defines all of them).
const std::vector<const char*> slot_dimensions = {"c2e", "c2e2co", "e2c2v", "v2e", "c2e2c"};

Sizes sizes_of(const DiffusionSavepoint& s) {
  return Sizes(s.grid.num_cells, s.grid.num_edges, s.grid.num_vertices, s.num_levels());
}

// ---- Writing ----------------------------------------------------------------------------------

/// Everything write_diffusion_savepoint promises to reject, checked before a byte is written.
void validate_for_writing(const std::string& path, const DiffusionSavepoint& s) {
  const auto invalid = [&path](const std::string& what) {
    throw InvalidArgument(fmt::format("cannot write savepoint '{}': {}", path, what));
  };
  s.config.validate();
  s.vertical.validate();
  if (!(s.dtime > 0.0) || !std::isfinite(s.dtime))
    invalid(fmt::format("dtime = {}, expected a finite time step > 0 s", s.dtime));
  if (const std::string p = io::savepoint::grid_reference_problem(s.grid); !p.empty()) invalid(p);
  if (const std::string p = io::savepoint::metadata_problem(s.metadata); !p.empty()) invalid(p);
  if (s.decomposition)
    if (const std::string p = io::savepoint::decomposition_problem(*s.decomposition, s.grid);
        !p.empty())
      invalid(p);
  const Sizes sizes = sizes_of(s);
  for_each_field(s, [&](const FieldInfo& info, Group group, const auto& view) {
    if (!field_written(group, s.kind)) return;
    if (io::savepoint::is_empty(view)) {
      if (field_required(info, group, s.kind, s.config))
        invalid(fmt::format("field {} is empty, but a {} savepoint needs it{}", info.name,
                            to_string(s.kind),
                            zdiffu_only(info) ? " (config.apply_zdiffusion_t is true)" : ""));
      return;
    }
    if (const std::string p = io::savepoint::field_problem(info, view, sizes, s.num_levels());
        !p.empty())
      invalid(p);
  });
}

void write_file(const std::string& path, const DiffusionSavepoint& s, io::NetcdfFormat format) {
  NetcdfWriter nc(path, format, io::savepoint::raise_savepoint_error);
  nc.no_fill();
  io::savepoint::define_dimensions(nc, sizes_of(s), slot_dimensions);
  io::savepoint::write_header(nc, "icondiff diffusion savepoint", to_string(s.kind));
  nc.number("", "dtime", s.dtime);
  nc.integer("", "initial_run", s.initial_run ? 1 : 0);
  io::savepoint::write_grid_reference(nc, s.grid);
  nc.integer("", "vertical.end_index_of_damping_layer", s.vertical.end_index_of_damping_layer);
  io::savepoint::write_config_attributes(nc, s.config);
  io::savepoint::write_metadata_attributes(nc, s.metadata);

  Puts puts;
  io::savepoint::define_vct_a(nc, s.vertical.vct_a, puts);
  if (s.decomposition) io::savepoint::define_decomposition(nc, *s.decomposition, puts);
  for_each_field(s, [&](const FieldInfo& info, Group group, const auto& view) {
    if (field_written(group, s.kind) && !io::savepoint::is_empty(view))
      io::savepoint::define_field(nc, info, view, puts);
  });
  nc.end_definitions();
  for (const auto& put : puts) put();
  nc.close();
}

// ---- Reading ----------------------------------------------------------------------------------

/// The granule reads theta_v at levels k + off and k + off + 1 of the neighbour wherever
/// zd_diffcoef != 0: an offset outside the column would read out of bounds on replay.
void check_vertical_offsets(const NetcdfReader& f, const DiffusionSavepoint& s) {
  const auto& off = s.metric.zd_vertoffset;
  const auto& coef = s.metric.zd_diffcoef;
  if (off.size() == 0 || coef.size() == 0) return;
  const int nlev = s.num_levels();
  for (int k = 0; k < nlev; ++k)
    for (int j = 0; j < 3; ++j)
      for (std::size_t c = 0; c < off.extent(0); ++c) {
        if (coef(c, k) == 0.0) continue;
        const long long level = static_cast<long long>(k) + off(c, j, k);
        if (level < 0 || level + 1 > nlev - 1)
          f.fail("zd_vertoffset", static_cast<long long>(c),
                 fmt::format("slot {}, level {} holds {} where zd_diffcoef != 0, so the "
                             "granule would read levels {} and {}; expected both in [0, {}]",
                             j, k, off(c, j, k), level, level + 1, nlev - 1));
      }
}

}  // namespace

// ---- Public API -------------------------------------------------------------------------------

void write_diffusion_savepoint(const std::string& path, const DiffusionSavepoint& savepoint,
                               SavepointFileFormat format) {
  validate_for_writing(path, savepoint);
  std::size_t largest = 0;
  for_each_field(savepoint, [&](const FieldInfo&, Group, const auto& view) {
    largest = std::max(largest, io::savepoint::bytes_of(view));
  });
  const io::NetcdfFormat flavour = io::savepoint::choose_format(format, largest);
  io::savepoint::write_atomically(
      path, [&](const std::string& temporary) { write_file(temporary, savepoint, flavour); });
}

DiffusionSavepoint read_diffusion_savepoint(const std::string& path) {
  NetcdfReader f(path, io::savepoint::raise_savepoint_error);
  DiffusionSavepoint s;
  s.kind = io::savepoint::read_header(f, SavepointGranule::Diffusion);
  s.config = io::savepoint::read_config_attributes<DiffusionConfig>(f);
  s.dtime = real_attribute(f, "dtime");
  if (!(s.dtime > 0.0) || !std::isfinite(s.dtime))
    f.fail("dtime", -1, fmt::format("= {}, expected a finite time step > 0 s", s.dtime));
  s.initial_run = bool_attribute(f, "initial_run");
  s.grid = io::savepoint::read_grid_reference(f);
  s.vertical = io::savepoint::read_vertical_grid(f, "vertical.end_index_of_damping_layer");
  io::savepoint::check_slot_dimensions(f, slot_dimensions);
  s.metadata = io::savepoint::read_metadata_attributes(f);
  s.decomposition = io::savepoint::read_decomposition(f, s.grid);

  const Sizes sizes = sizes_of(s);
  for_each_field(s, [&](const FieldInfo& info, Group group, auto& view) {
    if (!field_written(group, s.kind)) return;
    if (!f.has_variable(info.name)) {
      if (!field_required(info, group, s.kind, s.config)) return;
      f.fail(info.name, -1,
             fmt::format("the variable is missing; a {} savepoint holds it{}", to_string(s.kind),
                         zdiffu_only(info) ? " when config.apply_zdiffusion_t is 1" : ""));
    }
    io::savepoint::read_field(f, info, sizes, view);
  });
  if (s.kind == SavepointKind::Init && s.config.apply_zdiffusion_t) check_vertical_offsets(f, s);
  return s;
}

}  // namespace icondiff
