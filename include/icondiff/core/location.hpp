// The three horizontal locations of ICON's triangular grid. In core because field descriptions,
// halo exchanges and kernels name them without needing the grid itself.
#pragma once

#include <array>

namespace icondiff {

enum class Location { Cell = 0, Edge = 1, Vertex = 2 };

inline constexpr std::array<Location, 3> all_locations = {Location::Cell, Location::Edge,
                                                          Location::Vertex};

constexpr const char* to_string(Location location) {
  switch (location) {
    case Location::Cell: return "cell";
    case Location::Edge: return "edge";
    case Location::Vertex: return "vertex";
  }
  return "?";
}

}  // namespace icondiff
