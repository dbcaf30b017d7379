// Whether a run fits in memory, decided before the grid is generated or the fields allocated:
// a grid that cannot fit (`--generate R2B12`, R2B9 on a small node) is refused with the estimate
// at once instead of running for minutes and failing (or being killed) later.
#pragma once

#include <string>

namespace icondiff::cli {

/// What a run holds: the diffusion's fields alone, or both granules' (the dycore's statics, its
/// states and temporaries besides).
enum class MemoryModel { diffusion, dynamics };

/// Peak memory of `icondiff run` on one process (bytes) for a grid of `cells` cells and `nlev`
/// levels: the whole grid, the factories' host fields, the device copies and the granules'
/// temporaries. Fits to peak resident sizes measured on this project's machines: the diffusion
/// (R2B4, R2B5 x 20, 65 levels) 213 MB + cells x (2.7 kB + 400 B x nlev); the dynamics (see
/// memory_estimate.cpp). Per rank: a decomposed run with --setup whole holds the whole grid on
/// every rank, one with --setup local its extended part (run_support.cpp sizes it).
double estimated_run_bytes(double cells, int nlev, MemoryModel model = MemoryModel::diffusion);

/// The cells of a generated grid source ("generate:RnBk[/...]": the whole global grid, which a
/// cut-out is taken from); -1 for a file.
double generated_cells(const std::string& source);

/// MemAvailable of /proc/meminfo in bytes; 0 when unknown.
double available_memory_bytes();

/// "1.2 GB", "3.4 TB": bytes for messages.
std::string format_bytes(double bytes);

/// Parses "500M", "8G", "1.5T", "123456" (bytes; K/M/G/T are powers of 1000). Throws
/// InvalidArgument naming `option` otherwise.
double parse_bytes(const std::string& option, const std::string& text);

/// Throws InvalidArgument when the estimate exceeds `limit` bytes (limit <= 0: no check), naming
/// what was asked for and both numbers. nlev = 0: the grid alone (`grid-info` without statics).
void check_memory(const std::string& what, double cells, int nlev, double limit,
                  const std::string& limit_source, MemoryModel model = MemoryModel::diffusion);

}  // namespace icondiff::cli
