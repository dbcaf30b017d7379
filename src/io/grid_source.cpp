#include <icondiff/core/error.hpp>
#include <icondiff/grid/icosahedral_generator.hpp>
#include <icondiff/io/grid_file.hpp>
#include <icondiff/io/grid_source.hpp>

#include <fmt/format.h>

#include <cmath>
#include <sstream>
#include <vector>

namespace icondiff {

namespace {

constexpr double degrees = 3.14159265358979323846 / 180.0;

std::vector<double> parse_numbers(const std::string& text, std::size_t expected,
                                  const std::string& source) {
  std::vector<double> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    try {
      std::size_t used = 0;
      values.push_back(std::stod(item, &used));
      if (used != item.size()) throw std::invalid_argument(item);
    } catch (const std::exception&) {
      throw InvalidArgument(fmt::format("grid source '{}': '{}' is not a number", source, item));
    }
  }
  if (values.size() != expected)
    throw InvalidArgument(
        fmt::format("grid source '{}': expected {} comma-separated numbers in '{}', got {}", source,
                    expected, text, values.size()));
  return values;
}

std::string number(double x) {
  return fmt::format("{}", x);
}

}  // namespace

std::string generated_grid_source(int root, int bisections,
                                  const std::optional<LimitedAreaRegion>& region) {
  std::string s = "generate:" + resolution_name({root, bisections});
  if (!region) return s;
  if (region->shape == LimitedAreaRegion::Shape::SphericalCap)
    return s + "/cap:" + number(region->centre_lon / degrees) + "," +
           number(region->centre_lat / degrees) + "," + number(region->angular_radius / degrees);
  return s + "/box:" + number(region->lon_min / degrees) + "," + number(region->lon_max / degrees) +
         "," + number(region->lat_min / degrees) + "," + number(region->lat_max / degrees);
}

namespace {
const std::string generate = "generate:";

/// The file a source names, or "" for a generated grid.
std::string file_of(const std::string& source) {
  if (source.rfind(generate, 0) == 0) return "";
  const std::string path = source.rfind("file:", 0) == 0 ? source.substr(5) : source;
  if (path.empty())
    throw InvalidArgument("grid source is empty: expected a grid file or generate:RnBk");
  return path;
}
}  // namespace

GridBlock load_grid_source_block(const std::string& source, int block, int num_blocks) {
  const std::string path = file_of(source);
  GridBlock b = path.empty() ? grid_block_of(load_grid_source(source), block, num_blocks)
                             : read_icon_grid_block(path, block, num_blocks);
  b.rows.source = source;
  return b;
}

Grid load_grid_source(const std::string& source) {
  if (source.rfind(generate, 0) != 0) {
    const std::string path = file_of(source);
    Grid grid = read_icon_grid(path);
    grid.source = source;
    return grid;
  }
  const std::string spec = source.substr(generate.size());
  const auto slash = spec.find('/');
  const GridResolution resolution = parse_resolution(spec.substr(0, slash));
  Grid grid = generate_icosahedral_grid(resolution);
  if (slash != std::string::npos) {
    const std::string cut = spec.substr(slash + 1);
    LimitedAreaRegion region;
    if (cut.rfind("cap:", 0) == 0) {
      const auto v = parse_numbers(cut.substr(4), 3, source);
      region = LimitedAreaRegion::cap(v[0] * degrees, v[1] * degrees, v[2] * degrees);
    } else if (cut.rfind("box:", 0) == 0) {
      const auto v = parse_numbers(cut.substr(4), 4, source);
      region = LimitedAreaRegion::lon_lat_box(v[0] * degrees, v[1] * degrees, v[2] * degrees,
                                              v[3] * degrees);
    } else {
      throw InvalidArgument(
          fmt::format("grid source '{}': '{}' is not a region; expected cap:LON,LAT,RADIUS or "
                      "box:LON0,LON1,LAT0,LAT1 (degrees)",
                      source, cut));
    }
    grid = cut_limited_area(grid, region);
  }
  grid.source = source;
  grid.name = spec;
  return grid;
}

}  // namespace icondiff
