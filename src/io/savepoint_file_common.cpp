// What every savepoint file holds, whichever granule's call it captures (docs/dev/savepoints.md,
// "File format"): the header (format version, kind), the dimensions, the grid reference, the
// decomposition of a per-rank savepoint, vct_a, the field variables' dimensions, and the atomic
// write. The diffusion's file (savepoint_file.cpp) and the solve_nh granule's
// (solve_nh_savepoint_file.cpp) are built from these.
#include "savepoint_internal.hpp"

#include <icondiff/config.hpp>

#include <fmt/ranges.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>

namespace icondiff {

namespace io::savepoint {

namespace {

std::string describe(const std::string& file, const std::string& variable, long long index,
                     const std::string& problem) {
  std::string where = fmt::format("savepoint file '{}'", file);
  if (!variable.empty()) {
    const bool attribute = is_global_attribute(variable);
    where += fmt::format(", {} '{}'", attribute ? "attribute" : "variable", variable);
  }
  if (index >= 0) where += fmt::format(", point {} (0-based)", index);
  return where + ": " + problem;
}

std::string zone_attribute_name(int l, Zone zone) {
  return fmt::format("grid.zones.{}.{}", location_name(l), to_string(zone));
}

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

constexpr SavepointGranule all_granules[] = {SavepointGranule::Diffusion,
                                             SavepointGranule::SolveNh};

}  // namespace

// ---- Errors -----------------------------------------------------------------------------------

void raise_savepoint_error(const std::string& file, const std::string& variable, long long index,
                           const std::string& problem) {
  throw SavepointFileError(file, variable, index, problem);
}

// ---- Header -----------------------------------------------------------------------------------

void write_header(NetcdfWriter& nc, const std::string& title, const std::string& kind_name) {
  nc.text("", "title", title);
  nc.integer("", "icondiff_savepoint_format", savepoint_format_version);
  nc.text("", "icondiff_version", ICONDIFF_VERSION_STRING);
  nc.text("", "savepoint", kind_name);
  nc.text("", "icondiff_vp", precision_of(nc_type_of<vp>()));
}

std::optional<SavepointIdentity> parse_savepoint_name(const std::string& name) {
  for (const SavepointGranule granule : all_granules)
    for (const SavepointKind kind : {SavepointKind::Init, SavepointKind::Exit})
      if (SavepointIdentity{granule, kind}.name() == name) return SavepointIdentity{granule, kind};
  return std::nullopt;
}

namespace {

/// The `savepoint` attribute after the format version; `granule` names what the caller reads.
std::string read_kind_name(const NetcdfReader& f, const std::string& granule) {
  const std::string version_name = "icondiff_savepoint_format";
  if (f.attribute_kind(version_name) == NetcdfKind::Missing)
    f.fail(version_name, -1,
           fmt::format("the global attribute is missing: this is not an icondiff {} savepoint",
                       granule));
  const long long version = int_attribute(f, version_name);
  if (version != savepoint_format_version)
    f.fail(version_name, -1,
           fmt::format("the file has format version {}, this icondiff reads version {} (see "
                       "docs/dev/savepoints.md)",
                       version, savepoint_format_version));
  return text_attribute(f, "savepoint");
}

}  // namespace

SavepointKind read_header(const NetcdfReader& f, SavepointGranule granule) {
  const std::string name = read_kind_name(f, to_string(granule));
  const auto identity = parse_savepoint_name(name);
  if (identity && identity->granule == granule) return identity->kind;
  const SavepointIdentity init{granule, SavepointKind::Init}, exit{granule, SavepointKind::Exit};
  f.fail("savepoint", -1,
         fmt::format("= '{}', expected '{}' or '{}'{}", name, init.name(), exit.name(),
                     identity ? fmt::format(" (this is a {} savepoint; `icondiff verify` tells "
                                            "the kinds apart)",
                                            to_string(identity->granule))
                              : ""));
}

// ---- Dimensions -------------------------------------------------------------------------------

Sizes::Sizes(index_t cells, index_t edges, index_t vertices, int nlev) {
  const auto n = [](long long v) { return static_cast<std::size_t>(v); };
  of = {{"cell", n(cells)},
        {"edge", n(edges)},
        {"vertex", n(vertices)},
        {"nlev", n(nlev)},
        {"nlev_half", n(nlev + 1)}};
  for (const Neighbours slots :
       {Neighbours::C2E, Neighbours::C2V, Neighbours::C2E2C, Neighbours::C2E2CO, Neighbours::E2C,
        Neighbours::E2V, Neighbours::E2C2V, Neighbours::E2C2E, Neighbours::E2C2EO, Neighbours::V2E,
        Neighbours::V2C})
    of[to_string(slots)] = static_cast<std::size_t>(num_slots(slots));
}

std::vector<std::size_t> Sizes::extents(const std::vector<const char*>& dims) const {
  std::vector<std::size_t> e;
  for (auto d = dims.rbegin(); d != dims.rend(); ++d) e.push_back(of.at(*d));
  return e;
}

void define_dimensions(NetcdfWriter& nc, const Sizes& sizes,
                       const std::vector<const char*>& slot_dimensions) {
  for (const char* d : {"cell", "edge", "vertex", "nlev", "nlev_half"})
    nc.dimension(d, sizes.of.at(d));
  for (const char* d : slot_dimensions) nc.dimension(d, sizes.of.at(d));
}

void check_slot_dimensions(const NetcdfReader& f, const std::vector<const char*>& slot_dimensions) {
  const Sizes sizes(1, 1, 1, 1);
  for (const char* d : slot_dimensions)
    if (f.dimension(d)) check_dimension(f, d, sizes.of.at(d), "neighbour slots");
}

FieldInfo info_of(const FieldSpec& spec, const std::string& suffix) {
  FieldInfo info;
  info.name = spec.name + suffix;
  info.units = spec.units;
  info.long_name = spec.long_name;
  info.icon_name = spec.icon_name;
  info.icon4py_name = spec.icon4py_name;
  info.presence = spec.presence;
  info.has_levels = spec.levels != Levels::None;
  if (spec.levels == Levels::Full) info.dims.push_back("nlev");
  if (spec.levels == Levels::Half) info.dims.push_back("nlev_half");
  if (spec.neighbours != Neighbours::None) info.dims.push_back(to_string(spec.neighbours));
  info.dims.push_back(to_string(spec.location));
  return info;
}

const char* precision_of(nc_type type) {
  return type == NC_INT ? "int" : type == NC_FLOAT ? "float32" : "float64";
}

// ---- Grid reference ---------------------------------------------------------------------------

std::string grid_reference_problem(const SavepointGridReference& g) {
  if (g.num_cells <= 0 || g.num_edges <= 0 || g.num_vertices <= 0)
    return fmt::format(
        "the grid reference has {} cells, {} edges and {} vertices, expected positive counts",
        g.num_cells, g.num_edges, g.num_vertices);
  for (int l = 0; l < 3; ++l) {
    const auto ranges = ranges_of(g.zones[static_cast<std::size_t>(l)], all_locations[l]);
    for (int z = 0; z < num_zones; ++z) {
      const IndexRange r = ranges[static_cast<std::size_t>(z)];
      if (r.start < 0 || r.end < 0 || r.start > size_of(g, l) || r.end > size_of(g, l))
        return fmt::format("grid zone {} of the {}s is [{}, {}), outside [0, {}]",
                           to_string(static_cast<Zone>(z)), location_name(l), r.start, r.end,
                           size_of(g, l));
    }
  }
  return "";
}

void write_grid_reference(NetcdfWriter& nc, const SavepointGridReference& g) {
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

// ---- Decomposition ----------------------------------------------------------------------------

std::string decomposition_problem(const RankPoints& d, const SavepointGridReference& g) {
  if (d.num_ranks < 1 || d.rank < 0 || d.rank >= d.num_ranks)
    return fmt::format("the decomposition is rank {} of {} ranks", d.rank, d.num_ranks);
  for (int l = 0; l < 3; ++l) {
    const auto n = static_cast<std::size_t>(size_of(g, l));
    if (d.global_index[l].size() != n || d.owner_rank[l].size() != n)
      return fmt::format(
          "the decomposition has {} {} global indices and {} owner ranks, the grid reference {} "
          "{}s",
          d.global_index[l].size(), location_name(l), d.owner_rank[l].size(), n, location_name(l));
    if (d.global_size[l] < size_of(g, l))
      return fmt::format("the whole grid has {} {}s, fewer than the rank's {}", d.global_size[l],
                         location_name(l), n);
  }
  return "";
}

void define_decomposition(NetcdfWriter& nc, const RankPoints& d, Puts& puts) {
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

// ---- Vertical coordinate ----------------------------------------------------------------------

void define_vct_a(NetcdfWriter& nc, const std::vector<double>& vct_a, Puts& puts) {
  nc.variable("vct_a", NC_DOUBLE, {"nlev_half"});
  nc.text("vct_a", "units", "m");
  nc.text("vct_a", "long_name", "nominal height of the half levels (index 0: model top)");
  nc.text("vct_a", "icon_name", "vct_a");
  nc.text("vct_a", "icon4py_name", "VerticalGrid.interface_physical_height");
  puts.push_back([&nc, &vct_a] { nc.put("vct_a", vct_a); });
}

int read_level_dimensions(const NetcdfReader& f) {
  const std::size_t nlev = f.required_dimension("nlev");
  if (nlev < 1) f.fail("", -1, "the dimension 'nlev' is 0, expected at least 1 level");
  check_dimension(f, "nlev_half", nlev + 1, "nlev + 1 half levels");
  return static_cast<int>(nlev);
}

VerticalGrid read_vertical_grid(const NetcdfReader& f, const std::string& nrd_name) {
  const int nlev = read_level_dimensions(f);
  VerticalGrid v;
  v.vct_a = f.read_double("vct_a", {"nlev_half"});
  v.end_index_of_damping_layer = int_attribute_in(
      f, nrd_name, 0, nlev - 1, fmt::format("a half level in [0, nlev - 1 = {}]", nlev - 1));
  try {
    v.validate();
  } catch (const ConfigError& e) {
    f.fail("vct_a", -1, e.what());
  }
  return v;
}

// ---- Writing ----------------------------------------------------------------------------------

NetcdfFormat choose_format(SavepointFileFormat format, std::size_t largest_bytes) {
  switch (format) {
    case SavepointFileFormat::Offset64: return NetcdfFormat::Offset64;
    case SavepointFileFormat::Cdf5: return NetcdfFormat::Cdf5;
    case SavepointFileFormat::Netcdf4: return NetcdfFormat::Netcdf4;
    case SavepointFileFormat::Auto: break;
  }
  // The 64-bit-offset format limits every fixed-size variable to 4 GiB - 4 bytes.
  constexpr std::size_t offset64_limit = (std::size_t(1) << 32) - 4;
  return largest_bytes > offset64_limit ? NetcdfFormat::Cdf5 : NetcdfFormat::Offset64;
}

void write_atomically(const std::string& path,
                      const std::function<void(const std::string& temporary)>& write) {
  static std::atomic<int> counter{0};
  const std::string temporary =
      fmt::format("{}.tmp.{}.{}", path, static_cast<long>(::getpid()), counter++);
  std::error_code ignored;
  try {
    write(temporary);
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

}  // namespace io::savepoint

// ---- Public API -------------------------------------------------------------------------------

SavepointFileError::SavepointFileError(std::string file, std::string variable, long long index,
                                       const std::string& problem)
    : Error(io::savepoint::describe(file, variable, index, problem)),
      file_(std::move(file)),
      variable_(std::move(variable)),
      index_(index),
      problem_(problem) {}

SavepointIdentity identify_savepoint(const std::string& path) {
  const io::NetcdfReader f(path, io::savepoint::raise_savepoint_error);
  const std::string name = io::savepoint::read_kind_name(f, "(diffusion or solve_nh)");
  if (const auto identity = io::savepoint::parse_savepoint_name(name)) return *identity;
  f.fail("savepoint", -1,
         fmt::format("= '{}', expected 'diffusion-init', 'diffusion-exit', 'solve_nh-init' or "
                     "'solve_nh-exit'",
                     name));
}

}  // namespace icondiff
