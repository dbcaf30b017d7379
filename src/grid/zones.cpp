#include <icondiff/core/error.hpp>
#include <icondiff/grid/zones.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace icondiff {

namespace {

/// Boundary rows stored in order (ICON's grf_bdywidth_c/_e): 4 for cells and vertices, 8 for
/// edges, followed by the nudging rows.
int num_boundary_rows(Location location) {
  return location == Location::Edge ? 8 : 4;
}
int num_nudging_rows(Location location) {
  return location == Location::Edge ? 2 : 1;
}
/// refin_ctrl value of the last ordered row (5 for cells and vertices, 10 for edges).
int last_ordered_refinement(Location location) {
  return num_boundary_rows(location) + num_nudging_rows(location);
}

/// ICON4Py's _refinement_level_placed_with_halo: in a decomposed LAM grid, halo points in the
/// outermost boundary rows are stored with the boundary rows, not with the halo.
int last_row_stored_with_boundary(Location location, int halo_line) {
  if (location == Location::Edge) return halo_line == 1 ? 6 : 4;
  return halo_line == 1 ? 2 : 1;
}

/// The zone that holds points with (non-nested) refin_ctrl == value, for 1 <= value <= last.
Zone ordered_zone(Location location, int value) {
  const int rows = num_boundary_rows(location);
  if (value <= rows) return lateral_boundary_zone(value);
  return value == rows + 1 ? Zone::Nudging : Zone::Nudging2;
}

}  // namespace

const char* to_string(Zone zone) {
  switch (zone) {
    case Zone::LateralBoundary1: return "LATERAL_BOUNDARY";
    case Zone::LateralBoundary2: return "LATERAL_BOUNDARY_LEVEL_2";
    case Zone::LateralBoundary3: return "LATERAL_BOUNDARY_LEVEL_3";
    case Zone::LateralBoundary4: return "LATERAL_BOUNDARY_LEVEL_4";
    case Zone::LateralBoundary5: return "LATERAL_BOUNDARY_LEVEL_5";
    case Zone::LateralBoundary6: return "LATERAL_BOUNDARY_LEVEL_6";
    case Zone::LateralBoundary7: return "LATERAL_BOUNDARY_LEVEL_7";
    case Zone::LateralBoundary8: return "LATERAL_BOUNDARY_LEVEL_8";
    case Zone::Nudging: return "NUDGING";
    case Zone::Nudging2: return "NUDGING_LEVEL_2";
    case Zone::Interior: return "INTERIOR";
    case Zone::Local: return "LOCAL";
    case Zone::Halo: return "HALO";
    case Zone::Halo2: return "HALO_LEVEL_2";
    case Zone::End: return "END";
  }
  return "?";
}

bool zone_exists(Location location, Zone zone) {
  if (location == Location::Edge) return true;
  const int z = static_cast<int>(zone);
  return !(z >= static_cast<int>(Zone::LateralBoundary5) &&
           z <= static_cast<int>(Zone::LateralBoundary8)) &&
         zone != Zone::Nudging2;
}

Zone lateral_boundary_zone(int row) {
  if (row < 1 || row > 8)
    throw InvalidArgument(
        fmt::format("lateral boundary row {} does not exist (expected 1..8)", row));
  return static_cast<Zone>(static_cast<int>(Zone::LateralBoundary1) + row - 1);
}

int icon_refinement_level(Location location, Zone zone) {
  if (!zone_exists(location, zone))
    throw InvalidArgument(
        fmt::format("zone {} does not exist for {}s", to_string(zone), to_string(location)));
  // mo_impl_constants(_grf).f90: min_rl*_int = -4 (cells, vertices) / -8 (edges);
  // min_rlcell = -8, min_rlvert = -7, min_rledge = -13.
  const int min_rl_int = location == Location::Edge ? -8 : -4;
  const int min_rl = location == Location::Edge ? -13 : (location == Location::Cell ? -8 : -7);
  switch (zone) {
    case Zone::Nudging: return num_boundary_rows(location) + 1;
    case Zone::Nudging2: return num_boundary_rows(location) + 2;
    case Zone::Interior: return 0;
    case Zone::Local: return min_rl_int;
    case Zone::Halo: return min_rl_int - 1;
    case Zone::Halo2: return min_rl_int - 2;
    case Zone::End: return min_rl;
    default: return static_cast<int>(zone) - static_cast<int>(Zone::LateralBoundary1) + 1;
  }
}

IndexRange Zones::range(Zone zone) const {
  if (!zone_exists(location_, zone))
    throw InvalidArgument(
        fmt::format("zone {} does not exist for {}s", to_string(zone), to_string(location_)));
  return ranges_[static_cast<int>(zone)];
}

int to_non_nested_refinement(Location location, int refin_ctrl) {
  const int unordered_in_parent = location == Location::Edge ? -8 : -4;
  if (refin_ctrl == unordered_in_parent) return 0;
  // INT_MIN has no int negation (found by fuzzing through the C API): it is far beyond any row.
  if (refin_ctrl == std::numeric_limits<int>::min()) return std::numeric_limits<int>::max();
  return refin_ctrl < 0 ? -refin_ctrl : refin_ctrl;
}

bool has_lateral_boundary(Location location, const std::vector<int>& refin_ctrl) {
  return std::any_of(refin_ctrl.begin(), refin_ctrl.end(),
                     [&](int r) { return to_non_nested_refinement(location, r) > 0; });
}

Zones compute_zones(Location location, const std::vector<int>& refin_ctrl,
                    const std::vector<int>& halo_level) {
  const auto n = static_cast<index_t>(refin_ctrl.size());
  if (!halo_level.empty() && halo_level.size() != refin_ctrl.size())
    throw InvalidArgument(fmt::format("{} halo levels: got {} values for {} points",
                                      to_string(location), halo_level.size(), n));
  const auto halo_of = [&](index_t i) { return halo_level.empty() ? 0 : halo_level[i]; };
  const auto refin_of = [&](index_t i) {
    return to_non_nested_refinement(location, refin_ctrl[i]);
  };

  std::array<IndexRange, num_zones> ranges{};
  auto at = [&ranges](Zone z) -> IndexRange& { return ranges[static_cast<int>(z)]; };

  // ---- Halo lines (at the end of the array, except boundary-row halo points of a LAM). ----
  // On a decomposed LAM, halo points of the outermost rows are stored with those rows (after
  // each row's owned points; decomposition.cpp's order_points), on every halo level.
  const auto stored_with_boundary = [&](index_t i) {
    const int r = refin_of(i), line = halo_of(i);
    return line >= 1 && r >= 1 && r <= last_row_stored_with_boundary(location, line);
  };
  // The first point of ICON4Py's third edge level (edges closing the halo cells, after line 2):
  // where empty halo lines sit, so that LOCAL never reaches into it (a rank owning only the
  // outermost row stores all its line-1 and line-2 edges with the boundary).
  index_t beyond_lines = n;
  for (index_t i = 0; i < n; ++i)
    if (halo_of(i) >= 3 && !stored_with_boundary(i)) beyond_lines = std::min(beyond_lines, i);
  IndexRange halo_lines[3] = {
      {beyond_lines, beyond_lines}, {beyond_lines, beyond_lines}, {beyond_lines, beyond_lines}};
  for (int line = 1; line <= 2; ++line) {
    index_t lo = n, hi = -1;
    for (index_t i = 0; i < n; ++i) {
      if (halo_of(i) == line && !stored_with_boundary(i)) {
        lo = std::min(lo, i);
        hi = std::max(hi, i);
      }
    }
    if (hi >= 0) halo_lines[line] = {lo, hi + 1};
  }
  at(Zone::Halo2) = halo_lines[2];
  at(Zone::Halo) = {halo_lines[1].empty() ? halo_lines[2].start : halo_lines[1].start,
                    halo_lines[2].start};
  at(Zone::End) = {n, n};
  const index_t first_halo = at(Zone::Halo).start;

  // ---- Ordered rows: boundary rows, then nudging rows, each contiguous and in order. ----
  const int last = last_ordered_refinement(location);
  // row_end[v]: the end of row v's points at the front of the array, the halo points stored with
  // it included (stored_with_boundary above); front_end: the same over the rows done so far.
  std::vector<index_t> row_end(static_cast<std::size_t>(last) + 1, 0);
  for (index_t i = 0; i < first_halo; ++i) {
    const int r = refin_of(i);
    if (r >= 1 && r <= last && (halo_of(i) == 0 || stored_with_boundary(i)))
      row_end[static_cast<std::size_t>(r)] = i + 1;
  }
  index_t front_end = 0;
  index_t ordered_end = 0;
  int previous_value = 0;
  for (int value = 1; value <= last; ++value) {
    index_t lo = n, hi = -1, count = 0;
    for (index_t i = 0; i < n; ++i) {
      if (refin_of(i) == value && halo_of(i) == 0) {
        lo = std::min(lo, i);
        hi = std::max(hi, i);
        ++count;
      }
    }
    // A row this grid (or this rank) lacks is empty where it would be: after the rows before it
    // and the halo points stored with them, so that a range starting or ending at it (e.g.
    // [NUDGING, LOCAL) on a rank whose boundary rows hold no nudging cells) covers what it would
    // with the row present, and no halo point of an earlier row (a rank owning only the outermost
    // row keeps edges of rows 3-6 as halo there, without their far neighbours).
    const index_t empty_at = std::max(ordered_end, front_end);
    IndexRange r{empty_at, empty_at};
    if (hi >= 0) {
      r = {lo, hi + 1};
      if (r.size() != count) {
        index_t intruder = lo;
        while (intruder < hi && refin_of(intruder) == value && halo_of(intruder) == 0) ++intruder;
        throw GridError(fmt::format(
            "{} refinement row {} is not stored contiguously: its points span [{}, {}) but point "
            "{} has refin_ctrl {} (ICON stores each boundary and nudging row as one block)",
            to_string(location), value, r.start, r.end, intruder, refin_ctrl[intruder]));
      }
      if (r.start < ordered_end)
        throw GridError(fmt::format(
            "{} refinement row {} starts at point {}, before the end ({}) of row {} (ICON stores "
            "boundary and nudging rows in increasing order)",
            to_string(location), value, r.start, ordered_end, previous_value));
      ordered_end = r.end;
      previous_value = value;
    }
    at(ordered_zone(location, value)) = r;
    front_end = std::max(front_end, row_end[static_cast<std::size_t>(value)]);
  }
  for (index_t i = ordered_end; i < first_halo; ++i) {
    const int r = refin_of(i);
    if (r >= 1 && r <= last && halo_of(i) == 0)
      throw GridError(fmt::format(
          "{} point {} has refin_ctrl {} (an ordered boundary/nudging row) but lies in the "
          "interior, after the ordered rows end at {}",
          to_string(location), i, refin_ctrl[i], ordered_end));
  }

  // ICON4Py starts the interior at the end of the last nudging row. We start it at the end of the
  // last ordered row, which is the same on every ICON grid and stays right when a grid has
  // boundary rows but no nudging row.
  at(Zone::Interior) = {std::max(ordered_end, front_end), first_halo};
  at(Zone::Local) = {0, first_halo};
  return Zones(location, ranges);
}

}  // namespace icondiff

namespace icondiff {

int icon_index_array_size(Location location) {
  // max_rl - min_rl + 1: cells 5 - (-8), edges 10 - (-13), vertices 5 - (-7).
  return location == Location::Edge ? 24 : (location == Location::Cell ? 14 : 13);
}

int icon_index_array_position(Location location, Zone zone) {
  return icon_refinement_level(location, zone) - icon_refinement_level(location, Zone::End);
}

Zones zones_from_icon_index_arrays(Location location, const int* starts, const int* ends,
                                   index_t size, index_t n) {
  const char* name = location == Location::Cell   ? "cell"
                     : location == Location::Edge ? "edge"
                                                  : "vertex";
  if (starts == nullptr || ends == nullptr)
    throw InvalidArgument(fmt::format("{}_starts or {}_ends is a null pointer", name, name));
  if (size < icon_index_array_size(location))
    throw InvalidArgument(fmt::format(
        "{0}_starts/{0}_ends have {1} values, expected at least {2} (ICON's start_index({3}:{4}))",
        name, size, icon_index_array_size(location), icon_refinement_level(location, Zone::End),
        icon_refinement_level(location, Zone::End) + icon_index_array_size(location) - 1));
  std::array<IndexRange, num_zones> ranges{};
  for (int z = 0; z < num_zones; ++z) {
    const auto zone = static_cast<Zone>(z);
    if (!zone_exists(location, zone)) continue;
    const int p = icon_index_array_position(location, zone);
    const int first = starts[p], last = ends[p];
    // ICON writes 0 into some entries it never reads (ICON4Py clamps the start the same way).
    // 64-bit so that a caller's INT_MIN start stays a refusal instead of an overflow.
    const std::int64_t start = std::max<std::int64_t>(0, std::int64_t{first} - 1);
    const std::int64_t end = last;
    const int rl = icon_refinement_level(location, zone);
    if (start > n || end < 0 || end > n)
      throw InvalidArgument(fmt::format(
          "{0}_starts({1}) = {2}, {0}_ends({1}) = {3} (zone {4}, array position {5}): outside the "
          "{6} {0}s",
          name, rl, first, last, to_string(zone), p + 1, n));
    if (start > end)
      throw InvalidArgument(fmt::format(
          "{0}_starts({1}) = {2} > {0}_ends({1}) + 1 = {3} (zone {4}, array position {5}): the "
          "zone ends before it starts",
          name, rl, first, last + 1, to_string(zone), p + 1));
    ranges[z] = {static_cast<index_t>(start), static_cast<index_t>(end)};
  }
  return Zones(location, ranges);
}

}  // namespace icondiff
