// What the savepoint sources share. Private to src/io.
//   savepoint_types.cpp        the grid reference (zone ranges per location), the savepoint names
//   savepoint_attributes.cpp   global attributes: typed reading, config.* and metadata.*
//   savepoint_file_common.cpp  what every savepoint file holds, whichever granule's: the header
//                              (format version, kind), dimensions, the grid reference, the
//                              decomposition, vct_a, field variables from the field lists, the
//                              atomic write
//   savepoint_file.cpp         the diffusion's file (write/read_diffusion_savepoint)
//   solve_nh_savepoint_file.cpp  the solve_nh granule's file (write/read_solve_nh_savepoint)
//   savepoint_comparison.cpp, solve_nh_savepoint_comparison.cpp  the comparisons (compare_field)
#pragma once

#include "icon_order.hpp"
#include "netcdf_file.hpp"

#include <icondiff/comm/local_fields.hpp>
#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/location.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/diffusion/diffusion_config.hpp>
#include <icondiff/dycore/dycore_config.hpp>
#include <icondiff/grid/zones.hpp>
#include <icondiff/io/savepoint_comparison.hpp>
#include <icondiff/io/savepoint_file.hpp>
#include <icondiff/io/savepoint_types.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace icondiff::io::savepoint {

// ---- Zones of the grid reference (savepoint_types.cpp) ----------------------------------------

/// "cell", "edge" or "vertex" for location 0, 1, 2 (the order of all_locations).
const char* location_name(int l);

/// Every range of `zones` read as zones of `location`; {0, 0} where the zone does not exist for
/// the Zones' own location (a default-constructed Zones claims to be a cell's).
std::array<IndexRange, num_zones> ranges_of(const Zones& zones, Location location);

/// The number of points of location 0, 1, 2 (cells, edges, vertices) of `g`.
index_t size_of(const SavepointGridReference& g, int l);

// ---- Global attributes (savepoint_attributes.cpp) ---------------------------------------------

/// Whether `name` is a global attribute rather than a variable: every global attribute but
/// those of plain_global_attributes has a "." in its name (config.*, grid.*, metadata.* ...).
bool is_global_attribute(const std::string& name);

/// A global attribute that must exist and hold one integer (long long), 0 or 1 (bool), one
/// number (double) or text; fails (SavepointFileError) naming the attribute otherwise.
long long int_attribute(const NetcdfReader& f, const std::string& name);
bool bool_attribute(const NetcdfReader& f, const std::string& name);
double real_attribute(const NetcdfReader& f, const std::string& name);
std::string text_attribute(const NetcdfReader& f, const std::string& name);
/// int_attribute within [lo, hi]; the message says what the value is (`what`).
int int_attribute_in(const NetcdfReader& f, const std::string& name, long long lo, long long hi,
                     const std::string& what);

/// The "config.<name>" attributes, one per entry of the configuration's field table
/// (diffusion_config_fields(), dycore_config_fields()). Defined for DiffusionConfig and
/// DycoreConfig.
template <class Config>
void write_config_attributes(NetcdfWriter& nc, const Config& config);
/// Fails for a missing or malformed attribute, an enum value ICON does not define and a
/// configuration the granule rejects (DiffusionConfig::validate(),
/// DycoreConfig::validate_for_solve_nh(); pointing at the field's attribute).
template <class Config>
Config read_config_attributes(const NetcdfReader& f);

/// Why `metadata` cannot be written ("" if it can): a key that is not a valid netCDF name part
/// or a value holding a NUL character.
std::string metadata_problem(const std::map<std::string, std::string>& metadata);
/// The "metadata.<key>" attributes.
void write_metadata_attributes(NetcdfWriter& nc,
                               const std::map<std::string, std::string>& metadata);
std::map<std::string, std::string> read_metadata_attributes(const NetcdfReader& f);

// ---- What every savepoint file holds (savepoint_file_common.cpp) ------------------------------

/// The error factory of savepoint files: throws SavepointFileError.
[[noreturn]] void raise_savepoint_error(const std::string& file, const std::string& variable,
                                        long long index, const std::string& problem);

/// The header attributes (title, icondiff_savepoint_format, icondiff_version, savepoint,
/// icondiff_vp), in that order.
void write_header(NetcdfWriter& nc, const std::string& title, const std::string& kind_name);
/// The format version (first: everything else may mean something else in another version) and
/// the `savepoint` attribute, which must name an init or exit savepoint of `granule`: its kind.
/// Fails naming the attribute ("not an icondiff <granule> savepoint" when the version is
/// missing; the other granule's name when the file is that granule's savepoint).
SavepointKind read_header(const NetcdfReader& f, SavepointGranule granule);
/// The granule and kind a `savepoint` attribute names, nullopt for any other text.
std::optional<SavepointIdentity> parse_savepoint_name(const std::string& name);

/// The netCDF dimensions of one savepoint: cell, edge, vertex, nlev, nlev_half and every slot
/// dimension of the field lists (c2e = 3, ..., named as the connectivity, Neighbours).
struct Sizes {
  std::map<std::string, std::size_t> of;

  Sizes(index_t cells, index_t edges, index_t vertices, int nlev);
  /// The View extents of a field with netCDF dimensions `dims`: its dimensions innermost first.
  std::vector<std::size_t> extents(const std::vector<const char*>& dims) const;
};

/// Defines cell, edge, vertex, nlev, nlev_half, then `slot_dimensions`, in that order.
void define_dimensions(NetcdfWriter& nc, const Sizes& sizes,
                       const std::vector<const char*>& slot_dimensions);
/// Checks the sizes of those of `slot_dimensions` the file defines.
void check_slot_dimensions(const NetcdfReader& f, const std::vector<const char*>& slot_dimensions);

/// "" or why `g` cannot be written: non-positive counts, a zone outside its location.
std::string grid_reference_problem(const SavepointGridReference& g);
/// grid.source, grid.uuid, grid.limited_area, grid.zones.*.
void write_grid_reference(NetcdfWriter& nc, const SavepointGridReference& g);
/// The grid reference (sizes from the cell, edge and vertex dimensions).
SavepointGridReference read_grid_reference(const NetcdfReader& f);

/// "" or why `d` does not fit the grid reference `g`.
std::string decomposition_problem(const RankPoints& d, const SavepointGridReference& g);
/// Writes (attributes now, variables through `puts` after end_definitions).
using Puts = std::vector<std::function<void()>>;
void define_decomposition(NetcdfWriter& nc, const RankPoints& d, Puts& puts);
/// The decomposition of a per-rank savepoint, or nullopt when the file has none.
std::optional<RankPoints> read_decomposition(const NetcdfReader& f,
                                             const SavepointGridReference& g);

/// The variable vct_a (nlev_half): its definition and attributes, its put.
void define_vct_a(NetcdfWriter& nc, const std::vector<double>& vct_a, Puts& puts);
/// The level dimensions (nlev >= 1, nlev_half = nlev + 1): nlev.
int read_level_dimensions(const NetcdfReader& f);
/// vct_a and the damping-layer index (`nrd_name`, in [0, nlev - 1]) as a validated VerticalGrid
/// (strictly decreasing, finite).
VerticalGrid read_vertical_grid(const NetcdfReader& f, const std::string& nrd_name);

/// The netCDF flavour: `format` if forced, else 64-bit offset, or CDF-5 when the largest
/// variable (`largest_bytes`) exceeds that format's 4 GiB per-variable limit.
NetcdfFormat choose_format(SavepointFileFormat format, std::size_t largest_bytes);

/// Calls write(temporary) for a temporary file beside `path` and renames it to `path` when it
/// returns: a crash or a full disk mid-write leaves at most a stray temporary, never a truncated
/// savepoint under the real name. Errors name `path`, not the temporary.
void write_atomically(const std::string& path,
                      const std::function<void(const std::string& temporary)>& write);

// ---- Field variables --------------------------------------------------------------------------

/// One variable of a savepoint file. `dims` are netCDF dimensions, outermost first: the reverse
/// of the View's extents, so the file's memory order is the LayoutLeft View's (points fastest).
struct FieldInfo {
  std::string name;  ///< the variable: the field's name, plus a suffix where a struct repeats
  std::vector<const char*> dims;
  const char* units = "";
  const char* long_name = "";
  const char* icon_name = "";     ///< ICON Fortran variable
  const char* icon4py_name = "";  ///< ICON4Py attribute
  Presence presence = Presence::Required;
  bool has_levels = false;
};

/// The file description of a state field: netCDF dimensions from the field list's location,
/// neighbour dimension and levels; the variable is named `spec.name + suffix`.
FieldInfo info_of(const FieldSpec& spec, const std::string& suffix = "");

template <class T>
constexpr nc_type nc_type_of() {
  if constexpr (std::is_same_v<T, double>) return NC_DOUBLE;
  if constexpr (std::is_same_v<T, float>) return NC_FLOAT;
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, float> || std::is_same_v<T, int>,
                "savepoint fields are double, float or int");
  return NC_INT;
}

/// "int", "float32" or "float64".
const char* precision_of(nc_type type);

template <class View>
bool is_empty(const View& view) {
  return view.data() == nullptr && view.size() == 0;
}

/// Bytes of a field (for choose_format).
template <class View>
std::size_t bytes_of(const View& view) {
  return view.size() * sizeof(typename View::non_const_value_type);
}

/// "" or why `view` cannot be written as `info` for these sizes: other extents, not contiguous.
template <class View>
std::string field_problem(const FieldInfo& info, const View& view, const Sizes& sizes, int nlev) {
  const auto expected = sizes.extents(info.dims);
  if (view_extents(view) != expected)
    return fmt::format("field {} has extents {}, expected {} for this grid and nlev = {}",
                       info.name, extents_string(view_extents(view)), extents_string(expected),
                       nlev);
  if (!view.span_is_contiguous() || view.span() != view.size())
    return fmt::format("field {} is not contiguous", info.name);
  return "";
}

/// Defines the variable of `info` with its attributes (units, long_name, icon_name,
/// icon4py_name, precision) in the View's element type; its data follows through `puts`.
template <class View>
void define_field(NetcdfWriter& nc, const FieldInfo& info, const View& view, Puts& puts) {
  using T = typename View::non_const_value_type;
  constexpr nc_type type = nc_type_of<T>();
  nc.variable(info.name, type, std::vector<std::string>(info.dims.begin(), info.dims.end()));
  nc.text(info.name, "units", info.units);
  nc.text(info.name, "long_name", info.long_name);
  nc.text(info.name, "icon_name", info.icon_name);
  nc.text(info.name, "icon4py_name", info.icon4py_name);
  nc.text(info.name, "precision", precision_of(type));
  // In ICON's order whatever this build's layout: the file is the same from every build.
  puts.push_back([&nc, values = values_in_icon_order(view), name = info.name] {
    nc.put(name, values.data());
  });
}

/// Reads one field into a fresh host View of the field's type (vp fields converted to this
/// build's vp; integer fields also from exact floating-point values).
template <class View>
void read_field(const NetcdfReader& f, const FieldInfo& info, const Sizes& sizes, View& view) {
  using T = typename View::non_const_value_type;
  const std::vector<std::string> dims(info.dims.begin(), info.dims.end());
  const auto e = sizes.extents(info.dims);
  const auto alloc = Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                        std::string("icondiff::savepoint::") + info.name);
  if constexpr (View::rank == 1)
    view = View(alloc, e[0]);
  else if constexpr (View::rank == 2)
    view = View(alloc, e[0], e[1]);
  else
    view = View(alloc, e[0], e[1], e[2]);
  std::vector<T> icon_order(view.size());  // the file's order (ICON's), whatever the layout
  T* out = icon_order.data();
  const std::size_t points = e[0];
  if constexpr (std::is_same_v<T, int>) {
    const NetcdfKind kind = f.variable_kind(info.name);
    if (kind == NetcdfKind::Integer) {
      const auto values = f.read_int(info.name, dims);
      std::copy(values.begin(), values.end(), out);
    } else if (kind == NetcdfKind::Real) {
      // Other producers (Python, Fortran) may store integers as floating point; accept those
      // that are exact integers, reject NaN and fractions rather than truncate them.
      const auto values = f.read_double(info.name, dims);
      for (std::size_t n = 0; n < values.size(); ++n) {
        const double x = values[n];
        if (!std::isfinite(x) || x != std::floor(x) ||
            std::fabs(x) > std::numeric_limits<int>::max()) {
          const std::size_t slots = e.size() == 3 ? e[1] : 1;
          const std::string where =
              e.size() == 3
                  ? fmt::format("slot {}, level {} holds", (n / points) % slots, n / points / slots)
              : e.size() == 2
                  ? fmt::format("{} {} holds", info.has_levels ? "level" : "slot", n / points)
                  : std::string("holds");
          f.fail(info.name, static_cast<long long>(n % points),
                 fmt::format("{} {}, expected an integer{}", where, x,
                             info.has_levels ? " level offset" : ""));
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
  assign_from_icon_order(view, out);
}

// ---- Comparison (savepoint_comparison.cpp) ----------------------------------------------------

/// One field compared over its whole array (points, levels): numpy.allclose with `expected` as
/// the reference, the largest errors and the worst value. 2-D Views.
template <class E, class A>
FieldComparison compare_field(const FieldTolerance& tol, const E& expected, const A& actual) {
  FieldComparison r;
  r.tolerance = tol;
  r.compared = true;
  double worst_excess = -1.0;
  r.num_values = expected.size();
  for (std::size_t k = 0; k < expected.extent(1); ++k)
    for (std::size_t i = 0; i < expected.extent(0); ++i) {
      const double e = static_cast<double>(expected(i, k));
      const double a = static_cast<double>(actual(i, k));
      const auto note_worst = [&](double excess) {
        if (excess > worst_excess) {
          worst_excess = excess;
          r.worst_point = static_cast<index_t>(i);
          r.worst_level = static_cast<int>(k);
          r.worst_actual = a;
          r.worst_expected = e;
        }
      };
      if (std::isnan(e) || std::isnan(a)) {
        ++r.num_nan;
        ++r.num_failing;
        note_worst(std::numeric_limits<double>::max());
        continue;
      }
      // Equal infinities are equal (numpy.isclose); inf - inf would be NaN.
      const double diff = a == e ? 0.0 : std::fabs(a - e);
      const double rel = e != 0.0 ? diff / std::fabs(e)
                                  : (diff == 0.0 ? 0.0 : std::numeric_limits<double>::infinity());
      // Strictly greater: the first point of the largest error, and no point when all agree.
      if (diff > r.max_abs_error) {
        r.max_abs_error = diff;
        r.max_abs_point = static_cast<index_t>(i);
        r.max_abs_level = static_cast<int>(k);
      }
      if (rel > r.max_rel_error) {
        r.max_rel_error = rel;
        r.max_rel_point = static_cast<index_t>(i);
        r.max_rel_level = static_cast<int>(k);
      }
      const double allowed = tol.atol + tol.rtol * std::fabs(e);
      if (diff > allowed) {
        ++r.num_failing;
        note_worst(diff - allowed);
      }
    }
  return r;
}

/// compare_field, or a skipped entry (with its note) where the expected savepoint does not hold
/// the field. Throws InvalidArgument when the extents of `expected` and `actual` differ.
template <class E, class A>
FieldComparison compare_or_skip(const FieldTolerance& tol, const E& expected, const A& actual) {
  if (view_extents(expected) != view_extents(actual))
    throw InvalidArgument(fmt::format(
        "cannot compare {}: the savepoint holds extents {}, the actual field has {}", tol.field,
        extents_string(view_extents(expected)), extents_string(view_extents(actual))));
  if (expected.size() == 0) {
    FieldComparison r;
    r.tolerance = tol;
    r.note = "skipped: the expected savepoint does not hold it";
    return r;
  }
  return compare_field(tol, expected, actual);
}

}  // namespace icondiff::io::savepoint
