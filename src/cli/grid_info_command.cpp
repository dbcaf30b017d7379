#include "commands.hpp"
#include "output_paths.hpp"

#include <icondiff/io/grid_file.hpp>
#include <icondiff/io/grid_source.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <string>

#include <unistd.h>

#include <filesystem>

namespace icondiff::cli {

namespace {

struct GridInfoOptions {
  std::string grid_source;
  std::string write_path;
  bool overwrite = false;
  bool json = false;
};

nlohmann::json zones_as_json(const Grid& grid, Location location) {
  nlohmann::json out = nlohmann::json::object();
  for (int z = 0; z < num_zones; ++z) {
    const auto zone = static_cast<Zone>(z);
    if (!zone_exists(location, zone)) continue;
    const auto r = grid.range(location, zone);
    out[to_string(zone)] = {r.start, r.end};
  }
  return out;
}

int run_grid_info(const GridInfoOptions& options) {
  if (!options.write_path.empty())
    check_output_file("--write", options.write_path, {options.grid_source}, options.overwrite);
  const Grid grid = load_grid_source(options.grid_source);
  if (!options.write_path.empty()) {
    // Written beside the target and renamed only once it reads back: a failure never leaves a
    // half-written grid in place of an older file.
    const std::string temporary =
        fmt::format("{}.tmp.{}", options.write_path, static_cast<long>(::getpid()));
    try {
      write_icon_grid(grid, temporary);
      // Read back: the file must pass every check of the reader before we say it was written.
      (void)read_icon_grid(temporary);
      std::filesystem::rename(temporary, options.write_path);
    } catch (...) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw;
    }
    if (!options.json) fmt::print("written     {}\n", options.write_path);
  }
  if (options.json) {
    nlohmann::json out;
    out["file"] = grid.source;
    out["uuid"] = grid.uuid;
    out["limited_area"] = grid.limited_area;
    out["sphere_radius"] = grid.sphere_radius;
    out["cells"] = grid.num_cells;
    out["edges"] = grid.num_edges;
    out["vertices"] = grid.num_vertices;
    for (Location l : all_locations) out["zones"][to_string(l)] = zones_as_json(grid, l);
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  fmt::print("grid        {}\n", grid.source);
  fmt::print("kind        {}\n", grid.limited_area ? "limited-area" : "global");
  fmt::print("sizes       {} cells, {} edges, {} vertices (V - E + C = {})\n", grid.num_cells,
             grid.num_edges, grid.num_vertices,
             grid.num_vertices - grid.num_edges + grid.num_cells);
  fmt::print("radius      {} m\n", grid.sphere_radius);
  fmt::print("checks      connectivity and geometry consistent\n\n");
  fmt::print("{:<26} {:>16} {:>16} {:>16}\n", "zone [start, end)", "cells", "edges", "vertices");
  for (int z = 0; z < num_zones; ++z) {
    const auto zone = static_cast<Zone>(z);
    std::string row = fmt::format("{:<26}", to_string(zone));
    for (Location l : all_locations) {
      if (zone_exists(l, zone)) {
        const auto r = grid.range(l, zone);
        row += fmt::format(" {:>16}", fmt::format("[{}, {})", r.start, r.end));
      } else {
        row += fmt::format(" {:>16}", "-");
      }
    }
    fmt::print("{}\n", row);
  }
  return 0;
}

}  // namespace

Command add_grid_info_command(CLI::App& app) {
  auto options = std::make_shared<GridInfoOptions>();
  app.add_option(
         "--grid", options->grid_source,
         "ICON grid netCDF file, or generate:RnBk[/cap:LON,LAT,R | /box:LON0,LON1,LAT0,LAT1]")
      ->required();
  app.add_option("--write", options->write_path, "write the grid as an ICON grid netCDF file");
  app.add_flag("--overwrite", options->overwrite,
               "replace an existing --write file (never the grid read)");
  app.add_flag("--json", options->json, "print JSON instead of a table");
  return [options] { return run_grid_info(*options); };
}

}  // namespace icondiff::cli
