// Diffusion savepoint files in netCDF: the variables (one per field of the state structs' field
// lists), the grid reference and vertical grid attributes, and writing and reading a whole file.
// The config.* and metadata.* global attributes are savepoint_attributes.cpp's. The file format
// (dimensions, variables, attributes, encodings) is specified in docs/dev/savepoints.md; keep the
// two in step, and bump savepoint_format_version for any change a version-1 reader would misread.
#include "netcdf_file.hpp"
#include "savepoint_internal.hpp"

#include <icondiff/config.hpp>
#include <icondiff/io/savepoint_file.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <netcdf.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <type_traits>

namespace icondiff {

namespace {

using io::NetcdfKind;
using io::NetcdfReader;
using io::NetcdfWriter;
using io::savepoint::bool_attribute;
using io::savepoint::int_attribute;
using io::savepoint::location_name;
using io::savepoint::ranges_of;
using io::savepoint::real_attribute;
using io::savepoint::size_of;
using io::savepoint::text_attribute;

// ---- Errors -----------------------------------------------------------------------------------

std::string describe(const std::string& file, const std::string& variable, long long index,
                     const std::string& problem) {
  std::string where = fmt::format("savepoint file '{}'", file);
  if (!variable.empty()) {
    const bool attribute = io::savepoint::is_global_attribute(variable);
    where += fmt::format(", {} '{}'", attribute ? "attribute" : "variable", variable);
  }
  if (index >= 0) where += fmt::format(", point {} (0-based)", index);
  return where + ": " + problem;
}

[[noreturn]] void raise_savepoint_error(const std::string& file, const std::string& variable,
                                        long long index, const std::string& problem) {
  throw SavepointFileError(file, variable, index, problem);
}

// ---- Field table ------------------------------------------------------------------------------

enum class Group { Prognostic, Diagnostic, Metric, Interpolation, Edge, Cell };

/// One variable of the file. `dims` are netCDF dimensions, outermost first: the reverse of the
/// View's extents, so the file's memory order is the LayoutLeft View's (points fastest).
struct FieldInfo {
  const char* name;
  Group group;
  std::vector<const char*> dims;
  const char* units;
  const char* long_name;
  const char* icon_name;     ///< ICON Fortran variable
  const char* icon4py_name;  ///< ICON4Py attribute
  bool zdiffu_only = false;  ///< may be absent when config.apply_zdiffusion_t is false
};

bool is_output(Group g) {
  return g == Group::Prognostic || g == Group::Diagnostic;
}

/// The file description of a state field: netCDF dimensions from the field list's location,
/// neighbour dimension and levels.
FieldInfo info_of(const FieldSpec& spec, Group group) {
  FieldInfo info{spec.name,
                 group,
                 {},
                 spec.units,
                 spec.long_name,
                 spec.icon_name,
                 spec.icon4py_name,
                 spec.presence == Presence::ZDiffusion};
  if (spec.levels == Levels::Full) info.dims.push_back("nlev");
  if (spec.levels == Levels::Half) info.dims.push_back("nlev_half");
  if (spec.neighbours != Neighbours::None) info.dims.push_back(to_string(spec.neighbours));
  info.dims.push_back(to_string(spec.location));
  return info;
}

/// Calls f(info, view) for every field of a savepoint (const or not), in file order: the state
/// structs' field lists, outputs first.
template <class Savepoint, class F>
void for_each_field(Savepoint& s, F&& f) {
  const auto in_group = [&f](Group group) {
    return [&f, group](const FieldSpec& spec, auto& view) { f(info_of(spec, group), view); };
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
bool field_written(const FieldInfo& info, SavepointKind kind) {
  return kind == SavepointKind::Init || is_output(info.group);
}
bool field_required(const FieldInfo& info, SavepointKind kind, const DiffusionConfig& config) {
  return field_written(info, kind) && !(info.zdiffu_only && !config.apply_zdiffusion_t);
}

/// Dimension sizes of one savepoint.
struct Sizes {
  std::map<std::string, std::size_t> of;

  Sizes(index_t cells, index_t edges, index_t vertices, int nlev) {
    const auto n = [](long long v) { return static_cast<std::size_t>(v); };
    of = {{"cell", n(cells)},
          {"edge", n(edges)},
          {"vertex", n(vertices)},
          {"nlev", n(nlev)},
          {"nlev_half", n(nlev + 1)},
          {"c2e", 3},
          {"c2e2co", 4},
          {"e2c2v", 4},
          {"v2e", 6},
          {"c2e2c", 3}};
  }
  /// The View extents of a field: its dimensions innermost first.
  std::vector<std::size_t> extents(const FieldInfo& info) const {
    std::vector<std::size_t> e;
    for (auto d = info.dims.rbegin(); d != info.dims.rend(); ++d) e.push_back(of.at(*d));
    return e;
  }
};

template <class T>
constexpr nc_type nc_type_of() {
  if constexpr (std::is_same_v<T, double>) return NC_DOUBLE;
  if constexpr (std::is_same_v<T, float>) return NC_FLOAT;
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, float> || std::is_same_v<T, int>,
                "savepoint fields are double, float or int");
  return NC_INT;
}

const char* precision_of(nc_type type) {
  return type == NC_INT ? "int" : type == NC_FLOAT ? "float32" : "float64";
}

// ---- Zones ------------------------------------------------------------------------------------

std::string zone_attribute_name(int l, Zone zone) {
  return fmt::format("grid.zones.{}.{}", location_name(l), to_string(zone));
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
  const SavepointGridReference& g = s.grid;
  if (g.num_cells <= 0 || g.num_edges <= 0 || g.num_vertices <= 0)
    invalid(
        fmt::format("the grid reference has {} cells, {} edges and {} vertices, expected "
                    "positive counts",
                    g.num_cells, g.num_edges, g.num_vertices));
  for (int l = 0; l < 3; ++l) {
    const auto ranges = ranges_of(g.zones[static_cast<std::size_t>(l)], all_locations[l]);
    for (int z = 0; z < num_zones; ++z) {
      const IndexRange r = ranges[static_cast<std::size_t>(z)];
      if (r.start < 0 || r.end < 0 || r.start > size_of(g, l) || r.end > size_of(g, l))
        invalid(fmt::format("grid zone {} of the {}s is [{}, {}), outside [0, {}]",
                            to_string(static_cast<Zone>(z)), location_name(l), r.start, r.end,
                            size_of(g, l)));
    }
  }
  if (const std::string problem = io::savepoint::metadata_problem(s.metadata); !problem.empty())
    invalid(problem);
  if (s.decomposition) {
    const RankPoints& d = *s.decomposition;
    if (d.num_ranks < 1 || d.rank < 0 || d.rank >= d.num_ranks)
      invalid(fmt::format("the decomposition is rank {} of {} ranks", d.rank, d.num_ranks));
    for (int l = 0; l < 3; ++l) {
      const auto n = static_cast<std::size_t>(size_of(g, l));
      if (d.global_index[l].size() != n || d.owner_rank[l].size() != n)
        invalid(
            fmt::format("the decomposition has {} {} global indices and {} owner ranks, the "
                        "grid reference {} {}s",
                        d.global_index[l].size(), location_name(l), d.owner_rank[l].size(), n,
                        location_name(l)));
      if (d.global_size[l] < size_of(g, l))
        invalid(fmt::format("the whole grid has {} {}s, fewer than the rank's {}", d.global_size[l],
                            location_name(l), n));
    }
  }
  const Sizes sizes(g.num_cells, g.num_edges, g.num_vertices, s.num_levels());
  for_each_field(s, [&](const FieldInfo& info, const auto& view) {
    if (!field_written(info, s.kind)) return;
    const bool empty = view.data() == nullptr && view.size() == 0;
    if (empty) {
      if (field_required(info, s.kind, s.config))
        invalid(fmt::format("field {} is empty, but a {} savepoint needs it{}", info.name,
                            to_string(s.kind),
                            info.zdiffu_only ? " (config.apply_zdiffusion_t is true)" : ""));
      return;
    }
    const auto expected = sizes.extents(info);
    if (view_extents(view) != expected)
      invalid(fmt::format("field {} has extents {}, expected {} for this grid and nlev = {}",
                          info.name, extents_string(view_extents(view)), extents_string(expected),
                          s.num_levels()));
    if (!view.span_is_contiguous() || view.span() != view.size())
      invalid(fmt::format("field {} is not contiguous", info.name));
  });
}

io::NetcdfFormat choose_format(const DiffusionSavepoint& s, SavepointFileFormat format) {
  switch (format) {
    case SavepointFileFormat::Offset64: return io::NetcdfFormat::Offset64;
    case SavepointFileFormat::Cdf5: return io::NetcdfFormat::Cdf5;
    case SavepointFileFormat::Netcdf4: return io::NetcdfFormat::Netcdf4;
    case SavepointFileFormat::Auto: break;
  }
  // The 64-bit-offset format limits every fixed-size variable to 4 GiB - 4 bytes.
  constexpr std::size_t offset64_limit = (std::size_t(1) << 32) - 4;
  std::size_t largest = 0;
  for_each_field(s, [&](const FieldInfo&, const auto& view) {
    using T = typename std::decay_t<decltype(view)>::non_const_value_type;
    largest = std::max(largest, view.size() * sizeof(T));
  });
  return largest > offset64_limit ? io::NetcdfFormat::Cdf5 : io::NetcdfFormat::Offset64;
}

void write_file(const std::string& path, const DiffusionSavepoint& s, io::NetcdfFormat format) {
  NetcdfWriter nc(path, format, raise_savepoint_error);
  nc.no_fill();
  const SavepointGridReference& g = s.grid;
  const Sizes sizes(g.num_cells, g.num_edges, g.num_vertices, s.num_levels());
  for (const char* d :
       {"cell", "edge", "vertex", "nlev", "nlev_half", "c2e", "c2e2co", "e2c2v", "v2e", "c2e2c"})
    nc.dimension(d, sizes.of.at(d));

  nc.text("", "title", "icondiff diffusion savepoint");
  nc.integer("", "icondiff_savepoint_format", savepoint_format_version);
  nc.text("", "icondiff_version", ICONDIFF_VERSION_STRING);
  nc.text("", "savepoint", to_string(s.kind));
  nc.text("", "icondiff_vp", precision_of(nc_type_of<vp>()));
  nc.number("", "dtime", s.dtime);
  nc.integer("", "initial_run", s.initial_run ? 1 : 0);

  nc.text("", "grid.source", g.source);
  nc.text("", "grid.uuid", g.uuid);
  nc.integer("", "grid.limited_area", g.limited_area ? 1 : 0);
  for (int l = 0; l < 3; ++l) {
    const auto ranges = ranges_of(g.zones[static_cast<std::size_t>(l)], all_locations[l]);
    for (int z = 0; z < num_zones; ++z) {
      const Zone zone = static_cast<Zone>(z);
      if (!zone_exists(all_locations[l], zone)) continue;
      const IndexRange r = ranges[static_cast<std::size_t>(z)];
      nc.integers("", zone_attribute_name(l, zone), {r.start, r.end});
    }
  }
  nc.integer("", "vertical.end_index_of_damping_layer", s.vertical.end_index_of_damping_layer);

  io::savepoint::write_config_attributes(nc, s.config);
  io::savepoint::write_metadata_attributes(nc, s.metadata);

  nc.variable("vct_a", NC_DOUBLE, {"nlev_half"});
  nc.text("vct_a", "units", "m");
  nc.text("vct_a", "long_name", "nominal height of the half levels (index 0: model top)");
  nc.text("vct_a", "icon_name", "vct_a");
  nc.text("vct_a", "icon4py_name", "VerticalGrid.interface_physical_height");

  std::vector<std::function<void()>> puts;
  puts.push_back([&] { nc.put("vct_a", s.vertical.vct_a); });
  if (s.decomposition) {
    const RankPoints& d = *s.decomposition;
    nc.integer("", "decomposition.rank", d.rank);
    nc.integer("", "decomposition.num_ranks", d.num_ranks);
    nc.integers("", "decomposition.global_size",
                {d.global_size[0], d.global_size[1], d.global_size[2]});
    for (int l = 0; l < 3; ++l) {
      const std::string dim = location_name(l);
      const std::string ids = dim + "_global_index", owners = dim + "_owner_rank";
      nc.variable(ids, NC_INT, {dim});
      nc.text(ids, "long_name", "index of the point in the whole grid (0-based)");
      nc.variable(owners, NC_INT, {dim});
      nc.text(owners, "long_name", "the rank that owns the point");
      puts.push_back([&nc, &d, ids, owners, l] {
        nc.put(ids, d.global_index[l].data());
        nc.put(owners, d.owner_rank[l].data());
      });
    }
  }
  for_each_field(s, [&](const FieldInfo& info, const auto& view) {
    if (!field_written(info, s.kind) || (view.data() == nullptr && view.size() == 0)) return;
    using T = typename std::decay_t<decltype(view)>::non_const_value_type;
    constexpr nc_type type = nc_type_of<T>();
    nc.variable(info.name, type, std::vector<std::string>(info.dims.begin(), info.dims.end()));
    nc.text(info.name, "units", info.units);
    nc.text(info.name, "long_name", info.long_name);
    nc.text(info.name, "icon_name", info.icon_name);
    nc.text(info.name, "icon4py_name", info.icon4py_name);
    nc.text(info.name, "precision", precision_of(type));
    const T* data = view.data();
    const char* name = info.name;
    puts.push_back([&nc, data, name] { nc.put(name, data); });
  });
  nc.end_definitions();
  for (const auto& put : puts) put();
  nc.close();
}

// ---- Reading ----------------------------------------------------------------------------------

index_t point_dimension(const NetcdfReader& f, const std::string& name) {
  const std::size_t n = f.required_dimension(name);
  if (n == 0 || n > static_cast<std::size_t>(std::numeric_limits<index_t>::max()))
    f.fail("", -1,
           fmt::format("the dimension '{}' has size {}, expected a positive count", name, n));
  return static_cast<index_t>(n);
}

void check_dimension(const NetcdfReader& f, const std::string& name, std::size_t expected,
                     const char* why) {
  const std::size_t actual = f.required_dimension(name);
  if (actual != expected)
    f.fail("", -1,
           fmt::format("the dimension '{}' has size {}, expected {} ({})", name, actual, expected,
                       why));
}

SavepointGridReference read_grid_reference(const NetcdfReader& f) {
  SavepointGridReference g;
  g.source = text_attribute(f, "grid.source");
  g.uuid = text_attribute(f, "grid.uuid");
  g.num_cells = point_dimension(f, "cell");
  g.num_edges = point_dimension(f, "edge");
  g.num_vertices = point_dimension(f, "vertex");
  g.limited_area = bool_attribute(f, "grid.limited_area");
  for (int l = 0; l < 3; ++l) {
    std::array<IndexRange, num_zones> ranges{};
    for (int z = 0; z < num_zones; ++z) {
      const Zone zone = static_cast<Zone>(z);
      if (!zone_exists(all_locations[l], zone)) continue;
      const std::string name = zone_attribute_name(l, zone);
      if (f.attribute_kind(name) == NetcdfKind::Missing)
        f.fail(name, -1, "the global attribute is missing");
      if (f.attribute_kind(name) != NetcdfKind::Integer)
        f.fail(name, -1, "expected an integer attribute (start, end)");
      const auto v = f.integer_attribute(name);
      const index_t n = size_of(g, l);
      if (v.size() != 2 || v[0] < 0 || v[1] < 0 || v[0] > n || v[1] > n)
        f.fail(name, -1,
               fmt::format("= ({}), expected two indices (start, end) in [0, {}] (the size of "
                           "dimension '{}')",
                           fmt::join(v, ", "), n, location_name(l)));
      ranges[static_cast<std::size_t>(z)] = {static_cast<index_t>(v[0]),
                                             static_cast<index_t>(v[1])};
    }
    g.zones[static_cast<std::size_t>(l)] = Zones(all_locations[l], ranges);
  }
  return g;
}

/// The decomposition of a per-rank savepoint, or nullopt when the file has none.
std::optional<RankPoints> read_decomposition(const NetcdfReader& f,
                                             const SavepointGridReference& g) {
  if (f.attribute_kind("decomposition.num_ranks") == NetcdfKind::Missing) return std::nullopt;
  RankPoints d;
  d.num_ranks = static_cast<int>(int_attribute(f, "decomposition.num_ranks"));
  d.rank = static_cast<int>(int_attribute(f, "decomposition.rank"));
  if (d.num_ranks < 1 || d.rank < 0 || d.rank >= d.num_ranks)
    f.fail("decomposition.rank", -1,
           fmt::format("rank {} of {} ranks, expected 0 <= rank < num_ranks", d.rank, d.num_ranks));
  const std::string size_name = "decomposition.global_size";
  if (f.attribute_kind(size_name) != NetcdfKind::Integer)
    f.fail(size_name, -1, "expected an integer attribute (cells, edges, vertices)");
  const auto sizes = f.integer_attribute(size_name);
  if (sizes.size() != 3)
    f.fail(size_name, -1, fmt::format("has {} values, expected 3", sizes.size()));
  for (int l = 0; l < 3; ++l) {
    if (sizes[l] < size_of(g, l) || sizes[l] > std::numeric_limits<index_t>::max())
      f.fail(size_name, -1,
             fmt::format("{} {}s in the whole grid, fewer than this rank's {}", sizes[l],
                         location_name(l), size_of(g, l)));
    d.global_size[l] = static_cast<index_t>(sizes[l]);
    const std::string dim = location_name(l);
    const std::string ids = dim + "_global_index", owners = dim + "_owner_rank";
    d.global_index[l] = f.read_int(ids, {dim});
    d.owner_rank[l] = f.read_int(owners, {dim});
    for (std::size_t i = 0; i < d.global_index[l].size(); ++i) {
      if (d.global_index[l][i] < 0 || d.global_index[l][i] >= d.global_size[l])
        f.fail(ids, static_cast<long long>(i),
               fmt::format("holds {}, outside the whole grid's [0, {})", d.global_index[l][i],
                           d.global_size[l]));
      if (d.owner_rank[l][i] < 0 || d.owner_rank[l][i] >= d.num_ranks)
        f.fail(owners, static_cast<long long>(i),
               fmt::format("holds {}, outside [0, {})", d.owner_rank[l][i], d.num_ranks));
    }
  }
  return d;
}

VerticalGrid read_vertical(const NetcdfReader& f) {
  const std::size_t nlev = f.required_dimension("nlev");
  if (nlev < 1) f.fail("", -1, "the dimension 'nlev' is 0, expected at least 1 level");
  check_dimension(f, "nlev_half", nlev + 1, "nlev + 1 half levels");
  VerticalGrid v;
  v.vct_a = f.read_double("vct_a", {"nlev_half"});
  const std::string nrd_name = "vertical.end_index_of_damping_layer";
  const long long nrd = int_attribute(f, nrd_name);
  if (nrd < 0 || nrd > static_cast<long long>(nlev) - 1)
    f.fail(nrd_name, -1,
           fmt::format("= {}, expected a half level in [0, nlev - 1 = {}]", nrd, nlev - 1));
  v.end_index_of_damping_layer = static_cast<int>(nrd);
  try {
    v.validate();
  } catch (const ConfigError& e) {
    f.fail("vct_a", -1, e.what());
  }
  return v;
}

/// Reads one field into a fresh host View of the field's type.
template <class View>
void read_field(const NetcdfReader& f, const FieldInfo& info, const Sizes& sizes, View& view) {
  using T = typename View::non_const_value_type;
  const std::vector<std::string> dims(info.dims.begin(), info.dims.end());
  const auto e = sizes.extents(info);
  const auto alloc = Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                        std::string("icondiff::savepoint::") + info.name);
  if constexpr (View::rank == 1)
    view = View(alloc, e[0]);
  else if constexpr (View::rank == 2)
    view = View(alloc, e[0], e[1]);
  else
    view = View(alloc, e[0], e[1], e[2]);
  T* out = view.data();
  const std::size_t points = e[0];
  if constexpr (std::is_same_v<T, int>) {
    const NetcdfKind kind = f.variable_kind(info.name);
    if (kind == NetcdfKind::Integer) {
      const auto values = f.read_int(info.name, dims);
      std::copy(values.begin(), values.end(), out);
    } else if (kind == NetcdfKind::Real) {
      // Other producers (Python, Fortran) may store offsets as floating point; accept those
      // that are exact integers, reject NaN and fractions rather than truncate them.
      const auto values = f.read_double(info.name, dims);
      for (std::size_t n = 0; n < values.size(); ++n) {
        const double x = values[n];
        if (!std::isfinite(x) || x != std::floor(x) ||
            std::fabs(x) > std::numeric_limits<int>::max()) {
          const std::size_t slots = e.size() == 3 ? e[1] : 1;
          f.fail(info.name, static_cast<long long>(n % points),
                 fmt::format("slot {}, level {} holds {}, expected an integer level offset",
                             (n / points) % slots, n / points / slots, x));
        }
        out[n] = static_cast<int>(x);
      }
    } else {
      f.fail(info.name, -1, "has a text or unsupported type, expected integers");
    }
  } else {
    const auto values = f.read_double(info.name, dims);
    for (std::size_t n = 0; n < values.size(); ++n) out[n] = static_cast<T>(values[n]);
  }
}

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

/// Savepoint variables are field memory as it is, in ICON's layout.
void require_icons_field_layout(const std::string& path) {
  if constexpr (!field_layout_is_icons)
    throw SavepointFileError(path, "", -1,
                             "savepoint files hold fields in ICON's layout, and this icondiff is "
                             "built with level-fastest fields (ICONDIFF_FIELD_LAYOUT=right)");
}

}  // namespace

// ---- Public API -------------------------------------------------------------------------------

SavepointFileError::SavepointFileError(std::string file, std::string variable, long long index,
                                       const std::string& problem)
    : Error(describe(file, variable, index, problem)),
      file_(std::move(file)),
      variable_(std::move(variable)),
      index_(index),
      problem_(problem) {}

void write_diffusion_savepoint(const std::string& path, const DiffusionSavepoint& savepoint,
                               SavepointFileFormat format) {
  require_icons_field_layout(path);
  validate_for_writing(path, savepoint);
  // Written beside the target and renamed at the end: a crash or a full disk mid-write leaves
  // at most a stray temporary, never a truncated savepoint under the real name.
  static std::atomic<int> counter{0};
  const std::string temporary =
      fmt::format("{}.tmp.{}.{}", path, static_cast<long>(::getpid()), counter++);
  std::error_code ignored;
  try {
    write_file(temporary, savepoint, choose_format(savepoint, format));
  } catch (const SavepointFileError& e) {
    std::filesystem::remove(temporary, ignored);
    // Name the file the caller asked for, not the temporary.
    throw SavepointFileError(path, e.variable(), e.index(), e.problem());
  } catch (...) {
    std::filesystem::remove(temporary, ignored);
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ignored);
    throw SavepointFileError(path, "", -1,
                             "cannot move the written file into place: " + ec.message());
  }
}

DiffusionSavepoint read_diffusion_savepoint(const std::string& path) {
  require_icons_field_layout(path);
  NetcdfReader f(path, raise_savepoint_error);
  DiffusionSavepoint s;

  // The format version first: everything else may mean something else in another version.
  const std::string version_name = "icondiff_savepoint_format";
  if (f.attribute_kind(version_name) == NetcdfKind::Missing)
    f.fail(version_name, -1,
           "the global attribute is missing: this is not an icondiff diffusion savepoint");
  const long long version = int_attribute(f, version_name);
  if (version != savepoint_format_version)
    f.fail(version_name, -1,
           fmt::format("the file has format version {}, this icondiff reads version {} (see "
                       "docs/dev/savepoints.md)",
                       version, savepoint_format_version));
  const std::string kind = text_attribute(f, "savepoint");
  if (kind == "diffusion-init")
    s.kind = SavepointKind::Init;
  else if (kind == "diffusion-exit")
    s.kind = SavepointKind::Exit;
  else
    f.fail("savepoint", -1,
           fmt::format("= '{}', expected 'diffusion-init' or 'diffusion-exit'", kind));

  s.config = io::savepoint::read_config_attributes(f);
  s.dtime = real_attribute(f, "dtime");
  if (!(s.dtime > 0.0) || !std::isfinite(s.dtime))
    f.fail("dtime", -1, fmt::format("= {}, expected a finite time step > 0 s", s.dtime));
  s.initial_run = bool_attribute(f, "initial_run");
  s.grid = read_grid_reference(f);
  s.vertical = read_vertical(f);
  const struct {
    const char* name;
    std::size_t size;
  } fixed[] = {{"c2e", 3}, {"c2e2co", 4}, {"e2c2v", 4}, {"v2e", 6}, {"c2e2c", 3}};
  for (const auto& d : fixed)
    if (f.dimension(d.name)) check_dimension(f, d.name, d.size, "neighbour slots");

  s.metadata = io::savepoint::read_metadata_attributes(f);
  s.decomposition = read_decomposition(f, s.grid);

  const Sizes sizes(s.grid.num_cells, s.grid.num_edges, s.grid.num_vertices, s.num_levels());
  for_each_field(s, [&](const FieldInfo& info, auto& view) {
    if (!field_written(info, s.kind)) return;
    if (!f.has_variable(info.name)) {
      if (!field_required(info, s.kind, s.config)) return;
      f.fail(info.name, -1,
             fmt::format("the variable is missing; a {} savepoint holds it{}", to_string(s.kind),
                         info.zdiffu_only ? " when config.apply_zdiffusion_t is 1" : ""));
    }
    read_field(f, info, sizes, view);
  });
  if (s.kind == SavepointKind::Init && s.config.apply_zdiffusion_t) check_vertical_offsets(f, s);
  return s;
}

}  // namespace icondiff
