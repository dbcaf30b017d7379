#include "memory_estimate.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/grid/icosahedral_generator.hpp>

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>

namespace icondiff::cli {

namespace {
/// The fits' constants: fixed bytes, bytes per cell, bytes per cell-level.
struct MemoryFit {
  double fixed, per_cell, per_cell_level;
};
MemoryFit fit_of(MemoryModel model) {
  // Peak resident sizes of `icondiff run --steps 1` on this project's machines (OpenMP build):
  // dynamics R2B4 x 35 / x 65 levels 1.54 / 2.51 GB, R2B5 x 20 levels 3.39 GB; diffusion R2B4,
  // R2B5 x 20, 65 levels.
  return model == MemoryModel::dynamics ? MemoryFit{284e6, 6.4e3, 1600.0}
                                        : MemoryFit{213e6, 2.7e3, 400.0};
}
}  // namespace

double estimated_run_bytes(double cells, int nlev, MemoryModel model) {
  const MemoryFit f = fit_of(model);
  return f.fixed + cells * (f.per_cell + f.per_cell_level * nlev);
}

double generated_cells(const std::string& source) {
  const std::string prefix = "generate:";
  if (source.rfind(prefix, 0) != 0) return -1;
  const std::string spec = source.substr(prefix.size(), source.find('/') - prefix.size());
  const GridResolution r = parse_resolution(spec);
  // 20 n^2 4^k, in floating point: the sizes of grids too large for index_t are wanted too.
  return 20.0 * r.root * r.root * std::pow(4.0, r.bisections);
}

double available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    double kilobytes = 0;
    if (fields >> key >> kilobytes && key == "MemAvailable:") return kilobytes * 1024.0;
  }
  return 0;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  int u = 0;
  while (bytes >= 1000.0 && u < 6) {
    bytes /= 1000.0;
    ++u;
  }
  return fmt::format("{:.3g} {}", bytes, units[u]);
}

double parse_bytes(const std::string& option, const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (...) {
    used = 0;
  }
  const std::string unit = text.substr(used);
  const double scale = unit.empty()                 ? 1.0
                       : unit == "K" || unit == "k" ? 1e3
                       : unit == "M" || unit == "m" ? 1e6
                       : unit == "G" || unit == "g" ? 1e9
                       : unit == "T" || unit == "t" ? 1e12
                                                    : -1.0;
  if (used == 0 || scale < 0 || !(value > 0) || !std::isfinite(value))
    throw InvalidArgument(fmt::format(
        "{} {}: expected a positive size in bytes, optionally with K, M, G or T (e.g. 8G)", option,
        text));
  return value * scale;
}

void check_memory(const std::string& what, double cells, int nlev, double limit,
                  const std::string& limit_source, MemoryModel model) {
  if (!(limit > 0)) return;
  const double needed = estimated_run_bytes(cells, nlev, model);
  const MemoryFit f = fit_of(model);
  if (needed > limit && nlev <= 0)  // the grid alone (grid-info without --statics)
    throw InvalidArgument(fmt::format(
        "{} needs about {} ({:.4g} cells: 213 MB + cells x 2.7 kB for the grid alone, measured), "
        "more than the {} {}; take a smaller grid",
        what, format_bytes(needed), cells, format_bytes(limit), limit_source));
  if (needed > limit)
    throw InvalidArgument(fmt::format(
        "{} needs about {} ({:.4g} cells x {} levels: {} + cells x ({} + {} x nlev), measured), "
        "more than the {} {}; take a smaller grid, fewer levels or (under mpirun) more ranks",
        what, format_bytes(needed), cells, nlev, format_bytes(f.fixed), format_bytes(f.per_cell),
        format_bytes(f.per_cell_level), format_bytes(limit), limit_source));
}

}  // namespace icondiff::cli
