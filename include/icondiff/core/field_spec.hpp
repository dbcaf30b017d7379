// How a state struct describes its fields once.
//
// Every state struct of a granule (prognostic, diagnostic, metric, interpolation, geometry, the
// device grid's tables) lists its fields in ONE X-macro list: name, element type, location,
// neighbour dimension, vertical levels and the documentation that the savepoint and output
// files carry. ICONDIFF_STATE_FIELDS(LIST) turns that list into
//   * the View members (same name on every memory space, ICON4Py's names),
//   * `field_specs()`, the table of FieldSpec (metadata, no data),
//   * `for_each_field(f, states...)`, which calls f(spec, states.member...) for every field of
//     one or several structs of the same kind (e.g. a device state and its host mirror),
// so extent checks, host/device copies, savepoint read/write, output and test inputs are loops
// over the list instead of hand-written member lists (docs/dev/architecture.md "Field lists").
#pragma once

#include <icondiff/core/location.hpp>
#include <icondiff/core/types.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace icondiff {

/// The vertical extent of a field.
enum class Levels {
  None,  ///< no vertical dimension (2-D geometry, coefficients)
  Full,  ///< nlev full levels
  Half,  ///< nlev + 1 half levels (interfaces)
};

/// The neighbour (slot) dimension of a field, in the order of ICON4Py's connectivity of the same
/// name: (points, slots[, levels]).
enum class Neighbours { None, C2E, C2V, C2E2C, C2E2CO, E2C, E2V, E2C2V, E2C2E, E2C2EO, V2E, V2C };

/// Number of slots of a neighbour dimension (0 for None).
constexpr int num_slots(Neighbours n) {
  switch (n) {
    case Neighbours::None: return 0;
    case Neighbours::C2E:
    case Neighbours::C2V:
    case Neighbours::C2E2C: return 3;
    case Neighbours::C2E2CO: return 4;
    case Neighbours::E2C:
    case Neighbours::E2V: return 2;
    case Neighbours::E2C2V:
    case Neighbours::E2C2E: return 4;
    case Neighbours::E2C2EO: return 5;
    case Neighbours::V2E:
    case Neighbours::V2C: return 6;
  }
  return 0;
}

/// ICON4Py's lower-case name of a connectivity ("c2e2co"), "" for None.
constexpr const char* to_string(Neighbours n) {
  switch (n) {
    case Neighbours::None: return "";
    case Neighbours::C2E: return "c2e";
    case Neighbours::C2V: return "c2v";
    case Neighbours::C2E2C: return "c2e2c";
    case Neighbours::C2E2CO: return "c2e2co";
    case Neighbours::E2C: return "e2c";
    case Neighbours::E2V: return "e2v";
    case Neighbours::E2C2V: return "e2c2v";
    case Neighbours::E2C2E: return "e2c2e";
    case Neighbours::E2C2EO: return "e2c2eo";
    case Neighbours::V2E: return "v2e";
    case Neighbours::V2C: return "v2c";
  }
  return "?";
}

/// The location a connectivity's entries index (C2E -> edges, E2C2V -> vertices, ...); a
/// non-connectivity (None) is given `self`.
constexpr Location target_location(Neighbours n, Location self = Location::Cell) {
  switch (n) {
    case Neighbours::C2E:
    case Neighbours::E2C2E:
    case Neighbours::E2C2EO:
    case Neighbours::V2E: return Location::Edge;
    case Neighbours::C2V:
    case Neighbours::E2V:
    case Neighbours::E2C2V: return Location::Vertex;
    case Neighbours::C2E2C:
    case Neighbours::C2E2CO:
    case Neighbours::E2C:
    case Neighbours::V2C: return Location::Cell;
    case Neighbours::None: break;
  }
  return self;
}

/// View rank of a field: points, then slots if any, then levels if any.
constexpr int field_rank(Neighbours neighbours, Levels levels) {
  return 1 + (neighbours != Neighbours::None ? 1 : 0) + (levels != Levels::None ? 1 : 0);
}

/// When a field must be present.
enum class Presence {
  Required,
  /// Only read with truly horizontal temperature diffusion (apply_zdiffusion_t); may be empty.
  ZDiffusion,
  /// Only present when the grid source provides it (e.g. geometry of a topology-only grid).
  IfAvailable,
};

/// Everything about one field except its data.
struct FieldSpec {
  const char* name;  ///< member, savepoint variable and kernel-label name (ICON4Py's)
  Location location;
  Neighbours neighbours;
  Levels levels;
  Presence presence;
  const char* units;
  const char* long_name;
  const char* icon_name;     ///< ICON Fortran variable
  const char* icon4py_name;  ///< ICON4Py attribute

  int rank() const { return field_rank(neighbours, levels); }
};

/// The sizes that fix every field's extents.
struct FieldSizes {
  std::size_t cells = 0;
  std::size_t edges = 0;
  std::size_t vertices = 0;
  std::size_t nlev = 0;  ///< full levels; 0 when no field of the struct has levels

  std::size_t points(Location location) const {
    return location == Location::Cell ? cells : location == Location::Edge ? edges : vertices;
  }
};

/// Extent `r` (< spec.rank()) of `spec`'s View for `sizes`: points, then slots, then levels
/// (only those that exist).
inline std::size_t field_extent(const FieldSpec& spec, const FieldSizes& sizes, unsigned r) {
  if (r == 0) return sizes.points(spec.location);
  if (r == 1 && spec.neighbours != Neighbours::None)
    return static_cast<std::size_t>(num_slots(spec.neighbours));
  return spec.levels == Levels::Half ? sizes.nlev + 1 : sizes.nlev;
}

/// All extents of `spec`'s View for `sizes`.
inline std::vector<std::size_t> field_extents(const FieldSpec& spec, const FieldSizes& sizes) {
  std::vector<std::size_t> e;
  for (int r = 0; r < spec.rank(); ++r) e.push_back(field_extent(spec, sizes, r));
  return e;
}

namespace detail {
template <class T, int Rank>
struct FieldDataType;
template <class T>
struct FieldDataType<T, 1> {
  using type = T*;
};
template <class T>
struct FieldDataType<T, 2> {
  using type = T**;
};
template <class T>
struct FieldDataType<T, 3> {
  using type = T***;
};
}  // namespace detail

/// The View type of a field of element type T and the given rank in FieldLayout.
template <class T, int Rank, class MemorySpace>
using FieldView =
    Kokkos::View<typename detail::FieldDataType<T, Rank>::type, FieldLayout, MemorySpace>;

/// The extents of `view` as a vector (rank entries).
template <class View>
std::vector<std::size_t> view_extents(const View& view) {
  std::vector<std::size_t> e;
  for (unsigned r = 0; r < View::rank; ++r) e.push_back(view.extent(r));
  return e;
}

/// "(a, b, c)".
inline std::string extents_string(const std::vector<std::size_t>& extents) {
  std::string s = "(";
  for (std::size_t i = 0; i < extents.size(); ++i)
    s += (i ? ", " : "") + std::to_string(extents[i]);
  return s + ")";
}

}  // namespace icondiff

// ---- The X-macro machinery ----------------------------------------------------------------------
// A field list is a macro taking one argument FIELD and expanding FIELD(...) once per field:
//   FIELD(name, type, Location, Neighbours, Levels, Presence, units, long_name, icon, icon4py)
// `type` is the element type (wp, vp, index_t, int; const for read-only device tables).
// The state struct must be a template with a parameter named MemorySpace.

#define ICONDIFF_FIELD_MEMBER(name, type, location, neighbours, levels, ...)       \
  ::icondiff::FieldView<type,                                                      \
                        ::icondiff::field_rank(::icondiff::Neighbours::neighbours, \
                                               ::icondiff::Levels::levels),        \
                        MemorySpace>                                               \
      name;

/// As ICONDIFF_FIELD_MEMBER with const elements: read-only tables (the device grid).
#define ICONDIFF_FIELD_CONST_MEMBER(name, type, location, neighbours, levels, ...) \
  ::icondiff::FieldView<const type,                                                \
                        ::icondiff::field_rank(::icondiff::Neighbours::neighbours, \
                                               ::icondiff::Levels::levels),        \
                        MemorySpace>                                               \
      name;

#define ICONDIFF_FIELD_SPEC(name, type, location, neighbours, levels, presence, units, long_name, \
                            icon_name, icon4py_name)                                              \
  ::icondiff::FieldSpec{#name,                                                                    \
                        ::icondiff::Location::location,                                           \
                        ::icondiff::Neighbours::neighbours,                                       \
                        ::icondiff::Levels::levels,                                               \
                        ::icondiff::Presence::presence,                                           \
                        units,                                                                    \
                        long_name,                                                                \
                        icon_name,                                                                \
                        icon4py_name},

#define ICONDIFF_FIELD_VISIT(name, ...) f(specs[index++], states.name...);

#define ICONDIFF_FIELD_COUNT(...) +1

#define ICONDIFF_FIELD_SHARE(name, ...) name = bundle.name;

/// Declares the members of LIST (as MEMBER declares them) plus field_specs(), num_fields and
/// for_each_field().
#define ICONDIFF_FIELDS_WITH_MEMBERS(LIST, MEMBER)                                                 \
  LIST(MEMBER)                                                                                     \
  static constexpr int num_fields = 0 LIST(ICONDIFF_FIELD_COUNT);                                  \
  static const std::array<::icondiff::FieldSpec, num_fields>& field_specs() {                      \
    static const std::array<::icondiff::FieldSpec, num_fields> specs{{LIST(ICONDIFF_FIELD_SPEC)}}; \
    return specs;                                                                                  \
  }                                                                                                \
  /** Calls f(spec, states.field...) for every field in list order. */                             \
  template <class F, class... States>                                                              \
  static void for_each_field(F&& f, States&... states) {                                           \
    const auto& specs = field_specs();                                                             \
    int index = 0;                                                                                 \
    LIST(ICONDIFF_FIELD_VISIT)                                                                     \
    (void)specs;                                                                                   \
    (void)index;                                                                                   \
  }                                                                                                \
  /** Takes every field from the member of the same name of `bundle` (a View handle: shared, not   \
      copied), e.g. a granule's selection from the one StaticFields of its grid. */                \
  template <class Bundle>                                                                          \
  void share_from(const Bundle& bundle) {                                                          \
    LIST(ICONDIFF_FIELD_SHARE)                                                                     \
    (void)bundle;                                                                                  \
  }

/// The members of LIST as Views of MemorySpace, plus the field table and visitor.
#define ICONDIFF_STATE_FIELDS(LIST) ICONDIFF_FIELDS_WITH_MEMBERS(LIST, ICONDIFF_FIELD_MEMBER)
