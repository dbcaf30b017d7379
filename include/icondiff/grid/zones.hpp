// ICON's horizontal domain markers ("zones") as half-open index ranges.
//
// ICON orders every horizontal array by distance to the lateral boundary:
//   [LB row 1 | LB row 2 | ... | nudging row(s) | unordered interior | halo line 1 | halo line 2]
// so each zone is a contiguous [start, end) range and kernels take ranges instead of scanning
// masks. The rules follow ICON4Py's grid_refinement.compute_domain_bounds (diffusion_spec.md §1.4);
// see docs/dev/grid.md for the table that maps zones to ICON's rl_start/rl_end constants.
#pragma once

#include <icondiff/core/index_range.hpp>
#include <icondiff/core/location.hpp>
#include <icondiff/core/types.hpp>

#include <array>
#include <string>
#include <vector>

namespace icondiff {

/// Zones in ICON4Py's names. Cells and vertices have boundary rows 1..4 and one nudging row;
/// edges have boundary rows 1..8 and two nudging rows.
enum class Zone : int {
  LateralBoundary1 = 0,  ///< refin_ctrl == 1 (ICON rl 1)
  LateralBoundary2,
  LateralBoundary3,
  LateralBoundary4,
  LateralBoundary5,  ///< edges only
  LateralBoundary6,  ///< edges only
  LateralBoundary7,  ///< edges only
  LateralBoundary8,  ///< edges only
  Nudging,           ///< refin_ctrl 5 (cells, vertices) or 9 (edges)
  Nudging2,          ///< edges only: refin_ctrl 10
  Interior,          ///< from the end of the ordered rows to the first halo point
  Local,             ///< [0, first halo point): every owned point
  Halo,              ///< first halo line
  Halo2,             ///< second halo line
  End,               ///< [n, n): the array length
};
inline constexpr int num_zones = 15;

/// ICON4Py's name of a zone, e.g. "LATERAL_BOUNDARY_LEVEL_2".
const char* to_string(Zone zone);

/// Whether `zone` exists for `location` (e.g. LateralBoundary5 exists only for edges).
bool zone_exists(Location location, Zone zone);

/// ICON's refinement level (rl_start/rl_end argument of get_indices_*) of a zone.
int icon_refinement_level(Location location, Zone zone);

/// The zone of boundary row `row` (1-based, as refin_ctrl counts).
Zone lateral_boundary_zone(int row);

/// All zone ranges of one location.
class Zones {
 public:
  Zones() = default;
  Zones(Location location, const std::array<IndexRange, num_zones>& ranges)
      : location_(location), ranges_(ranges) {}

  Location location() const { return location_; }
  /// Throws InvalidArgument for a zone that does not exist at this location.
  IndexRange range(Zone zone) const;
  index_t start(Zone zone) const { return range(zone).start; }
  index_t end(Zone zone) const { return range(zone).end; }

  friend bool operator==(const Zones& a, const Zones& b) {
    return a.location_ == b.location_ && a.ranges_ == b.ranges_;
  }

 private:
  Location location_ = Location::Cell;
  std::array<IndexRange, num_zones> ranges_{};
};

/// ICON4Py's convert_to_non_nested_refinement_values: a coarse parent grid marks its unordered
/// interior with -4 (cells, vertices) or -8 (edges) and nest-overlap rows with negative values;
/// the former become 0, the latter their absolute value.
int to_non_nested_refinement(Location location, int refin_ctrl);

/// Computes the zones of one location from refin_ctrl (values as stored in the grid file) and,
/// for a decomposed grid, the halo line of every point (0 = owned, 1 = first halo line,
/// 2 = second; empty = every point owned).
///
/// Throws GridError when the boundary and nudging rows are not stored as ICON stores them:
/// every ordered row contiguous, rows in increasing order, none after the interior begins.
Zones compute_zones(Location location, const std::vector<int>& refin_ctrl,
                    const std::vector<int>& halo_level = {});

/// The length of ICON's start_index/end_index arrays of a location (min_rl..max_rl: 14 for
/// cells, 24 for edges, 13 for vertices) and the array position of a zone in them
/// (icon_refinement_level - min_rl; ICON4Py's _map_zone_to_icon_array_index).
int icon_index_array_size(Location location);
int icon_index_array_position(Location location, Zone zone);

/// The zones of one location from ICON's start_index/end_index arrays as ICON holds them
/// (p_patch%cells%start_index(min_rlcell:max_rlcell) with one block: 1-based first and last
/// point of every refinement level; `size` values each, at least icon_index_array_size). Zone
/// `z` becomes [max(0, starts[p] - 1), ends[p]) with p = icon_index_array_position, as ICON4Py's
/// grid_init reads them. Throws InvalidArgument naming the array, position and value when a
/// bound lies outside [0, n] or a zone ends before it starts (start - 1 > end).
Zones zones_from_icon_index_arrays(Location location, const int* starts, const int* ends,
                                   index_t size, index_t n);

/// True when any point of `refin_ctrl` (file values) lies in a lateral boundary row, which is how
/// ICON4Py decides that a grid is limited-area.
bool has_lateral_boundary(Location location, const std::vector<int>& refin_ctrl);

}  // namespace icondiff
