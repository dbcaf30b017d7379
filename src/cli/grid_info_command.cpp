#include "commands.hpp"
#include "config_errors.hpp"
#include "memory_estimate.hpp"
#include "output_paths.hpp"
#include "statics_options.hpp"

#include <icondiff/io/grid_file.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/static_fields_file.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include <filesystem>

namespace icondiff::cli {

namespace {

struct GridInfoOptions {
  std::string grid_source;
  std::string write_path;
  std::string statics_path;
  StaticsOptions statics;
  bool overwrite = false;
  bool json = false;
  std::string max_memory;   ///< the memory it may use ("8G"); empty: MemAvailable
  std::string config_file;  ///< the --config file read (an input)
};

/// Runs `write` on a temporary beside `path` and renames it to `path` only when it succeeded, so
/// a failure never leaves a half-written file in place of an older one.
template <class Write>
void write_through_temporary(const std::string& path, Write&& write) {
  const std::string temporary = temporary_beside(path);
  remove_on_signal(temporary);
  try {
    write(temporary);
    std::filesystem::rename(temporary, path);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw;
  }
}

/// Every static field of the grid (all granules' selections) to `path`.
void write_statics(const Grid& grid, const GridInfoOptions& options) {
  const HostStaticInputs inputs = compute_static_inputs(grid, statics_setup_config(options.statics),
                                                        StaticFieldSelection::all());
  const StaticFields<Kokkos::HostSpace> statics = make_static_fields<Kokkos::HostSpace>(inputs);
  write_through_temporary(options.statics_path, [&](const std::string& temporary) {
    write_static_fields_file(temporary, inputs, statics);
  });
}

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
  const bool generated = generated_cells(options.grid_source) > 0;
  std::vector<NamedPath> inputs;
  if (!generated) {
    check_input_file("--grid", options.grid_source, std::numeric_limits<std::uintmax_t>::max());
    inputs.push_back({"--grid", options.grid_source});
  }
  if (!options.config_file.empty()) inputs.push_back({"--config", options.config_file});
  std::vector<std::string> input_paths;
  for (const NamedPath& input : inputs) input_paths.push_back(input.path);
  if (!options.write_path.empty())
    check_output_file("--write", options.write_path, input_paths, options.overwrite);
  if (!options.statics_path.empty()) {
    check_vertical_options(options.statics);
    std::vector<std::string> also = input_paths;
    if (!options.write_path.empty()) also.push_back(options.write_path);
    check_output_file("--statics", options.statics_path, also, options.overwrite);
  }
  check_outputs_distinct({{"--write", options.write_path}, {"--statics", options.statics_path}},
                         inputs);
  // The memory guard of `icondiff run`: a grid that cannot fit is refused before it is generated
  // (a file's size is known once it is read). Without --statics only the grid is built: the
  // estimate's per-cell part without the levels.
  const double limit = options.max_memory.empty() ? available_memory_bytes()
                                                  : parse_bytes("--max-memory", options.max_memory);
  const std::string limit_source =
      options.max_memory.empty() ? std::string("available (MemAvailable)") : "of --max-memory";
  const int nlev = options.statics_path.empty() ? 0 : options.statics.nlev;
  if (generated)
    check_memory("--grid " + options.grid_source, generated_cells(options.grid_source), nlev, limit,
                 limit_source);
  const Grid grid = load_grid_source(options.grid_source);
  if (!generated)
    check_memory("--grid " + options.grid_source, grid.num_cells, nlev, limit, limit_source);
  if (!options.write_path.empty()) {
    write_through_temporary(options.write_path, [&](const std::string& temporary) {
      write_icon_grid(grid, temporary);
      // Read back: the file must pass every check of the reader before we say it was written.
      (void)read_icon_grid(temporary);
    });
    if (!options.json) fmt::print("written     {}\n", options.write_path);
  }
  if (!options.statics_path.empty()) {
    write_statics(grid, options);
    if (!options.json) fmt::print("written     {} (static fields)\n", options.statics_path);
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
      ->required()
      ->check(CLI::Validator(
          [](std::string& value) {
            return value.empty() ? std::string("empty value, expected a grid file or generate:RnBk")
                                 : std::string();
          },
          ""));
  app.add_option("--write", options->write_path, "write the grid as an ICON grid netCDF file");
  app.add_option("--statics", options->statics_path,
                 "write every static field of the grid (interpolation, metric, edge and cell "
                 "fields of the diffusion and the dycore) to a netCDF file");
  app.add_flag("--overwrite", options->overwrite,
               "replace an existing --write or --statics file (never the grid read)");
  add_vertical_options(app, options->statics);
  add_dycore_metric_options(app, options->statics);
  app.add_flag("--json", options->json, "print JSON instead of a table");
  app.add_option("--max-memory", options->max_memory,
                 "refuse a grid estimated to need more (e.g. 8G); default: the available memory");
  return [options, &app] {
    options->config_file = config_file_of(app);
    return run_grid_info(*options);
  };
}

}  // namespace icondiff::cli
