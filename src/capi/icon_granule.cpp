// The diffusion granule on ICON's own arrays, behind handles: ICON4Py 0.2.0's grid_init,
// diffusion_init and diffusion_run with the same arguments and meanings
// (icon4py.bindings.grid_wrapper / diffusion_wrapper), on icondiff's granule.
//
// Set-up copies (grid tables to the host Grid, geometry, coefficients and metrics to Views the
// handle owns): ICON often passes temporaries there (array sections of derived types), and the
// cost is paid once. A run wraps the caller's prognostic and diagnostic arrays as unmanaged
// Views in place: no allocation, no copy, one fence at the end (the results must be in the
// caller's arrays when the call returns).
#include "capi_errors.hpp"
#include "fortran_arrays.hpp"
#include "kokkos_lifetime.hpp"

#include <icondiff/comm/local_fields.hpp>
#include <icondiff/config.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/grid/grid_checks.hpp>
#include <icondiff/grid/icon_grid_arrays.hpp>
#include <icondiff/io/diffusion_savepoint.hpp>

#if ICONDIFF_HAVE_MPI
#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/comm/mpi_halo_exchange.hpp>
#include <icondiff/comm/mpi_owner_directory.hpp>

#include <mpi.h>
#endif

#include <fmt/format.h>

#include <icondiff_c.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace icondiff::capi {
namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;
constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, M>::accessible;

constexpr const char* grid_init_name = "grid_init";
constexpr const char* diffusion_init_name = "diffusion_init";
constexpr const char* diffusion_run_name = "diffusion_run";

/// Refuses pointers the granule's memory space cannot read: device pointers into a host build,
/// host pointers into a device build (no unified memory is assumed).
void check_memory(const char* function, bool on_gpu) {
  if (on_gpu && host_memory)
    throw InvalidArgument(fmt::format(
        "{}: on_gpu is set (device pointers from OpenACC host_data) but this icondiff runs on "
        "the host ({}); build icondiff with a GPU backend",
        function, Space::name()));
  if (!on_gpu && !host_memory)
    throw InvalidArgument(fmt::format(
        "{}: on_gpu is not set (host arrays) but this icondiff runs on {}: pass device pointers "
        "(OpenACC host_data use_device) with on_gpu",
        function, Space::name()));
}

/// The number of ranks of ICON's communicator (1 without MPI or before MPI_Init).
int communicator_size([[maybe_unused]] int comm_id, int* rank) {
  *rank = 0;
#if ICONDIFF_HAVE_MPI
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return 1;
  const MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(comm_id));
  int size = 1;
  if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, rank) != MPI_SUCCESS)
    throw InvalidArgument(
        fmt::format("grid_init: comm_id {} is not a valid Fortran MPI communicator", comm_id));
  return size;
#else
  return 1;
#endif
}

/// A Fortran array as ExternalArray for wrap_external_state (leading dimension = SIZE(x, 1)).
template <class T>
ExternalArray external(const icondiff_array& a) {
  return {a.data, static_cast<std::size_t>(a.size[0]), sizeof(T)};
}

/// Owned copies in M of the fields of State from the caller's arrays (host or device memory).
template <template <class> class State>
State<M> copy_from_caller(const std::map<std::string, ExternalArray>& arrays,
                          const FieldSizes& sizes, const std::string& what, bool on_gpu,
                          bool zdiffusion = false) {
  if (on_gpu)
    return copy_state<M>(wrap_external_state<State, M>(arrays, sizes, what, zdiffusion),
                         "icondiff::capi::");
  return copy_state<M>(
      wrap_external_state<State, Kokkos::HostSpace>(arrays, sizes, what, zdiffusion),
      "icondiff::capi::");
}

/// An owned copy in M of the caller's (points[, slots]) array with leading dimension SIZE(x, 1).
template <class T, int Rank>
FieldView<T, Rank, M> copy_field(const icondiff_array& a, const char* name,
                                 const std::vector<std::size_t>& extents, bool on_gpu) {
  const std::string label = std::string("icondiff::capi::") + name;
  const auto ld = static_cast<std::size_t>(a.size[0]);
  auto* data = static_cast<T*>(a.data);
  if (on_gpu) return copy_view<M>(label, wrap_external<T, Rank, M>(name, data, extents, ld));
  return copy_view<M>(label, wrap_external<T, Rank, Kokkos::HostSpace>(name, data, extents, ld));
}

// ---- Value checks of the static inputs (once, at init) and of every call's scalars ----------
// Sizes alone let NaN areas, a 0 tangent orientation or a wrong e2c2v entry through to the
// kernels, which then compute garbage without a word. Every message names the argument and the
// element with ICON's 1-based Fortran subscripts.

/// Calls check(value, i, j) for every element (i, j) of the first `points` rows of the Fortran
/// array `a` (j runs over the product of the other extents), 0-based; device arrays are copied
/// to the host first.
template <class T, class Check>
void for_each_value(const icondiff_array& a, long points, bool dev, Check&& check) {
  long cols = 1;
  for (int d = 1; d < 3; ++d)
    if (a.size[d] > 0) cols *= a.size[d];
  const long ld = a.size[0];
  const T* data = static_cast<const T*>(a.data);
  std::vector<T> copy;
  if (dev) {
    copy = host_values<T, M>(a, static_cast<std::size_t>(ld * cols), true);
    data = copy.data();
  }
  for (long j = 0; j < cols; ++j)
    for (long i = 0; i < points; ++i) check(data[static_cast<std::size_t>(j * ld + i)], i, j);
}

/// "name(i)" or "name(i, j)", 1-based, for element (i, j) of an array with `cols` columns.
std::string element(const char* name, long i, long j, long cols) {
  return cols > 1 ? fmt::format("{}({}, {})", name, i + 1, j + 1)
                  : fmt::format("{}({})", name, i + 1);
}
long columns(const icondiff_array& a) {
  return std::max(1, a.size[1]) * std::max(1, a.size[2]);
}

/// Every value of the first `points` rows of `a` finite (and > 0 when `positive`).
void check_values(const icondiff_array& a, const char* f, const char* name, long points, bool dev,
                  bool positive = false) {
  const long cols = columns(a);
  for_each_value<double>(a, points, dev, [&](double v, long i, long j) {
    if (!std::isfinite(v) || (positive && !(v > 0.0)))
      throw InvalidArgument(fmt::format("{}: {} = {} is not a {}finite number (1-based subscripts)",
                                        f, element(name, i, j, cols), v,
                                        positive ? "positive " : ""));
  });
}

/// The static geometry grid_init copies: finite, lengths and areas > 0, orientations +-1. An edge
/// with one cell (a lateral-boundary edge, or a rank's outermost halo edge) has no far vertex on
/// that side: ICON leaves its vertex-vertex and dual lengths' inverses 0 there (finite, >= 0).
void check_grid_values(const icondiff_icon_grid_args& a,
                       const std::map<std::string, std::vector<int>>& tables, long nc, long ne,
                       bool dev) {
  const char* f = grid_init_name;
  for_each_value<double>(a.tangent_orientation, ne, dev, [&](double v, long e, long) {
    if (v != 1.0 && v != -1.0)
      throw InvalidArgument(
          fmt::format("{}: tangent_orientation({}) = {} (edge {}, 1-based), expected +1 or -1", f,
                      e + 1, v, e + 1));
  });
  check_values(a.inverse_primal_edge_lengths, f, "inverse_primal_edge_lengths", ne, dev, true);
  const std::vector<int>& e2c = tables.at("e2c");
  const long lc = a.e2c.size[0];
  const auto one_cell = [&](long e) {
    for (long k = 0; k < 2; ++k) {
      const int c = e2c[static_cast<std::size_t>(k * lc + e)];
      if (c < 1 || c > nc) return true;
    }
    return false;
  };
  for (const auto& [array, name] : {std::pair<const icondiff_array*, const char*>{
                                        &a.inv_dual_edge_length, "inv_dual_edge_length"},
                                    std::pair<const icondiff_array*, const char*>{
                                        &a.inv_vert_vert_length, "inv_vert_vert_length"}})
    for_each_value<double>(*array, ne, dev, [&, name = name](double v, long e, long) {
      const bool boundary = one_cell(e);
      if (!std::isfinite(v) || (boundary ? v < 0.0 : !(v > 0.0)))
        throw InvalidArgument(fmt::format(
            "{}: {}({}) = {} is not a {} finite number (1-based subscripts{})", f, name, e + 1, v,
            boundary ? "non-negative" : "positive", boundary ? "; the edge has one cell" : ""));
    });
  check_values(a.edge_areas, f, "edge_areas", ne, dev, true);
  check_values(a.cell_areas, f, "cell_areas", nc, dev, true);
  check_values(a.primal_normal_vert_x, f, "primal_normal_vert_x", ne, dev);
  check_values(a.primal_normal_vert_y, f, "primal_normal_vert_y", ne, dev);
  check_values(a.dual_normal_vert_x, f, "dual_normal_vert_x", ne, dev);
  check_values(a.dual_normal_vert_y, f, "dual_normal_vert_y", ne, dev);
}

/// A connectivity problem of grid_from_icon_arrays (0-based rows, slots and indices, as the C++
/// grid speaks) in ICON's 1-based numbering: every row, slot and point index + 1 (a missing
/// entry, -1 there, becomes ICON's 0); counts stay as they are.
std::string icon_numbering(const GridConsistencyError& e) {
  const std::string& problem = e.problem();
  const bool counts = problem.find("end at this vertex") != std::string::npos ||
                      problem.find("have this vertex") != std::string::npos;
  std::string head = problem, tail;
  const std::size_t range = problem.find("outside [0, ");
  if (range != std::string::npos) {
    head = problem.substr(0, range);
    const std::string n = problem.substr(range + 12, problem.find(')', range) - range - 12);
    tail = fmt::format("outside 1..{}", n);
  }
  std::string out;
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < head.size();) {
    const bool starts_number = !counts && (i == 0 || (!word(head[i - 1]) && head[i - 1] != '.')) &&
                               (std::isdigit(static_cast<unsigned char>(head[i])) ||
                                (head[i] == '-' && i + 1 < head.size() &&
                                 std::isdigit(static_cast<unsigned char>(head[i + 1]))));
    if (!starts_number) {
      out += head[i++];
      continue;
    }
    std::size_t j = i + 1;
    while (j < head.size() && std::isdigit(static_cast<unsigned char>(head[j]))) ++j;
    if (j < head.size() && (word(head[j]) || head[j] == '.')) {  // part of a name or a number
      out += head.substr(i, j - i);
    } else {
      out += std::to_string(std::stoll(head.substr(i, j - i)) + 1);
    }
    i = j;
  }
  out += tail;
  if (e.row() < 0) return fmt::format("grid table '{}': {}", e.table(), out);
  return fmt::format("grid table '{}', row {} (1-based, as every row, slot and index here): {}",
                     e.table(), e.row() + 1, out);
}

/// Global indices: >= 1 and each point's own (a duplicate names both 1-based positions).
void check_global_indices(const icondiff_array& glb, const char* name, long n) {
  const char* f = grid_init_name;
  const auto* g = static_cast<const int*>(glb.data);
  std::vector<std::pair<int, long>> sorted;
  sorted.reserve(static_cast<std::size_t>(n));
  for (long i = 0; i < n; ++i) {
    if (g[i] < 1)
      throw InvalidArgument(fmt::format("{}: {}({}) = {} is not a global index >= 1 (1-based)", f,
                                        name, i + 1, g[i]));
    sorted.emplace_back(g[i], i);
  }
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i].first == sorted[i - 1].first)
      throw InvalidArgument(fmt::format(
          "{}: {}({}) and {}({}) (1-based positions) are both {}: every point's global index "
          "must be its own",
          f, name, sorted[i - 1].second + 1, name, sorted[i].second + 1, sorted[i].first));
}

/// The static fields diffusion_init copies: finite (nudgecoeff_e also >= 0).
void check_diffusion_values(const icondiff_diffusion_args& a, long nc, long ne, long nv, bool dev) {
  const char* f = diffusion_init_name;
  check_values(a.theta_ref_mc, f, "theta_ref_mc", nc, dev);
  check_values(a.wgtfac_c, f, "wgtfac_c", nc, dev);
  check_values(a.e_bln_c_s, f, "e_bln_c_s", nc, dev);
  check_values(a.geofac_div, f, "geofac_div", nc, dev);
  check_values(a.geofac_grg_x, f, "geofac_grg_x", nc, dev);
  check_values(a.geofac_grg_y, f, "geofac_grg_y", nc, dev);
  check_values(a.geofac_n2s, f, "geofac_n2s", nc, dev);
  for_each_value<double>(a.nudgecoeff_e, ne, dev, [&](double v, long e, long) {
    if (!std::isfinite(v) || v < 0.0)
      throw InvalidArgument(fmt::format(
          "{}: nudgecoeff_e({}) = {} (1-based) is not a finite number >= 0", f, e + 1, v));
  });
  // rbf_vec_coeff_v (6, 2, nproma): the vertex is the last subscript.
  const std::vector<double> rbf = host_values<double, M>(a.rbf_vec_coeff_v, 3, dev);
  for (long v = 0; v < nv; ++v)
    for (long c = 0; c < 12; ++c)
      if (!std::isfinite(rbf[static_cast<std::size_t>(12 * v + c)]))
        throw InvalidArgument(
            fmt::format("{}: rbf_vec_coeff_v({}, {}, {}) = {} (1-based) is not a finite number", f,
                        c % 6 + 1, c / 6 + 1, v + 1, rbf[static_cast<std::size_t>(12 * v + c)]));
}

/// The Smagorinsky profile's heights in the order its formula needs (ICON's enh_smag_fac,
/// ICON4Py's _en_smag_fac_for_zero_nshift): linear over [z, z2] and quadratic over [z2, z4]
/// (through z3), each clamped to its range, so z < z2 < z4; z3 is a node of the quadratic only
/// (distinct from z2 and z4, checked by the configuration; ICON4Py's default puts it below z2).
void check_smagorinsky_heights(const icondiff_diffusion_args& a) {
  const double z[4] = {a.smagorinski_scaling_height, a.smagorinski_scaling_height2,
                       a.smagorinski_scaling_height3, a.smagorinski_scaling_height4};
  if (!(z[0] < z[1] && z[1] < z[3]))
    throw ConfigError(fmt::format(
        "{}: smagorinski_scaling_height, _height2, _height3, _height4 (ICON's hdiff_smag_z, "
        "_z2, _z3, _z4) = {}, {}, {}, {}: the profile needs hdiff_smag_z < hdiff_smag_z2 < "
        "hdiff_smag_z4 (it is linear from z to z2 and quadratic from z2 to z4; reversed heights "
        "turn its clamps into constants of the wrong sign)",
        diffusion_init_name, z[0], z[1], z[2], z[3]));
}

/// The folder a capture will write to: an existing, writable directory now, not a failure (status
/// 99) at the captured call.
void check_capture_directory(const char* directory, int call) {
  const char* f = "capture_savepoints";
  std::error_code ec;
  const std::filesystem::path path(directory);
  if (*directory == '\0') throw InvalidArgument(fmt::format("{}: directory is empty", f));
  if (!std::filesystem::exists(path, ec))
    throw InvalidArgument(fmt::format(
        "{}: directory '{}' does not exist (create it first: call {} writes its savepoints there)",
        f, directory, call));
  if (!std::filesystem::is_directory(path, ec))
    throw InvalidArgument(fmt::format("{}: directory '{}' is not a directory", f, directory));
  if (access(directory, W_OK | X_OK) != 0)
    throw InvalidArgument(fmt::format(
        "{}: directory '{}' is not writable by this process (call {} writes its savepoints there)",
        f, directory, call));
}

/// The outputs a run writes must not share memory with each other or with its input rho.
void check_no_overlap(const icondiff_run_args& a, long nlev) {
  struct Range {
    const char* name;
    const icondiff_array* array;
    long levels;
    bool output;
  };
  const Range ranges[] = {
      {"w", &a.w, nlev + 1, true},           {"vn", &a.vn, nlev, true},
      {"exner", &a.exner, nlev, true},       {"theta_v", &a.theta_v, nlev, true},
      {"rho", &a.rho, nlev, false},          {"hdef_ic", &a.hdef_ic, nlev + 1, true},
      {"div_ic", &a.div_ic, nlev + 1, true}, {"dwdx", &a.dwdx, nlev + 1, true},
      {"dwdy", &a.dwdy, nlev + 1, true}};
  const auto bounds = [](const Range& r) {
    const auto begin = reinterpret_cast<std::uintptr_t>(r.array->data);
    return std::make_pair(begin, begin + static_cast<std::uintptr_t>(r.array->size[0]) *
                                             static_cast<std::uintptr_t>(r.levels) *
                                             sizeof(double));
  };
  for (std::size_t i = 0; i < std::size(ranges); ++i)
    for (std::size_t j = i + 1; j < std::size(ranges); ++j) {
      const Range &x = ranges[i], &y = ranges[j];
      if (x.array->data == nullptr || y.array->data == nullptr || !(x.output || y.output)) continue;
      const auto [xb, xe] = bounds(x);
      const auto [yb, ye] = bounds(y);
      if (xb < ye && yb < xe)
        throw InvalidArgument(fmt::format(
            "{}: {} and {} overlap in memory{}: the granule writes {} in place, so every output "
            "must be an array of its own, apart from every input",
            diffusion_run_name, x.name, y.name, xb == yb ? " (the same array)" : "",
            x.output ? x.name : y.name));
    }
}

}  // namespace
}  // namespace icondiff::capi

// ---- The handles ------------------------------------------------------------------------------

struct icondiff_icon_grid {
  icondiff::Grid grid;  ///< topology, zones (host)
  icondiff::DeviceGrid<icondiff::capi::M> device;
  icondiff::VerticalGrid vertical;
  icondiff::DiffusionEdgeParams<icondiff::capi::M> edges;
  icondiff::DiffusionCellParams<icondiff::capi::M> cells;
  bool on_gpu = false;
  bool released = false;  ///< icondiff_finalize took its Views
  /// The whole grid's sizes (= the local ones on one rank), for savepoints of a rank's part.
  icondiff::FieldSizes whole_sizes;
#if ICONDIFF_HAVE_MPI
  MPI_Comm comm = MPI_COMM_NULL;  ///< ICON's communicator when decomposed (more than one rank)
#endif
};

struct icondiff_diffusion {
  icondiff::DiffusionConfig config;
  icondiff::DiffusionInputs<icondiff::capi::M> inputs;
  std::unique_ptr<icondiff::Diffusion<icondiff::capi::Space>> granule;
  icondiff::SavepointGridReference grid_reference;
  bool on_gpu = false;
  int calls = 0;
  /// Diagnostics icondiff keeps when the caller passes none (ICON4Py's dummy fields), made on
  /// the first call that needs them.
  icondiff::DiffusionDiagnosticState<icondiff::capi::M> own_diagnostics;
  /// Savepoint capture: the call to capture (0: none), where, and the grid's source.
  int capture_call = 0;
  std::string capture_directory;
  std::string grid_source;
  bool released = false;
  /// Set while a thread is inside a call on this granule (capi::BusyGuard): a second thread's
  /// call is refused with ICONDIFF_BUSY instead of racing on the granule and its arrays.
  mutable std::atomic<bool> busy{false};
  icondiff::Grid local_grid;  ///< for savepoints of a rank's part (decomposed grids only)
  icondiff::FieldSizes whole_sizes;
#if ICONDIFF_HAVE_MPI
  MPI_Comm comm = MPI_COMM_NULL;
  std::shared_ptr<icondiff::MpiHaloExchange<icondiff::capi::Space>> exchange;
#endif
};

namespace icondiff::capi {
namespace {

void check_alive(const icondiff_icon_grid* grid, const char* function) {
  if (grid->released)
    throw InvalidArgument(fmt::format("{}: the grid was released by icondiff_finalize", function));
}
void check_alive(const icondiff_diffusion* d, const char* function) {
  if (d->released)
    throw InvalidArgument(
        fmt::format("{}: the granule was released by icondiff_finalize", function));
}

// ---- grid_init --------------------------------------------------------------------------------

/// The owner rank of every point per location on a decomposed grid (empty vectors on one rank).
using Owners = std::array<std::vector<int>, 3>;

/// grid_init on this rank: `owners` empty on one rank, else every point's owner (from the
/// directory of owners_from_masks).
icondiff_icon_grid* create_grid(const icondiff_icon_grid_args& a, int rank, int ranks,
                                const Owners& owners) {
  const char* f = grid_init_name;
  check_memory(f, a.on_gpu != 0);
  if (a.backend < 0 || a.backend > 2)
    throw InvalidArgument(fmt::format(
        "{}: backend = {} is not one of ICON4Py's selectors 0 (default), 1 (dace), 2 (gtfn)", f,
        a.backend));
  const long nc = a.num_cells, ne = a.num_edges, nv = a.num_vertices, nlev = a.vertical_size;
  if (nc <= 0 || ne <= 0 || nv <= 0)
    throw InvalidArgument(
        fmt::format("{}: num_cells = {}, num_edges = {}, num_vertices = {}: "
                    "every size must be positive",
                    f, nc, ne, nv));
  if (nlev < 2)
    throw InvalidArgument(fmt::format("{}: vertical_size = {} (nlev) must be at least 2", f, nlev));

  // Index arrays: start/end arrays, owner masks and global indices are host arrays in ICON4Py
  // (never behind host_data); tables may be device pointers.
  const bool dev = a.on_gpu != 0;
  check_array(a.cell_starts, f, "cell_starts", {at_least(14, "ICON's start_index(-8:5)")});
  check_array(a.cell_ends, f, "cell_ends", {at_least(14, "ICON's end_index(-8:5)")});
  check_array(a.edge_starts, f, "edge_starts", {at_least(24, "ICON's start_index(-13:10)")});
  check_array(a.edge_ends, f, "edge_ends", {at_least(24, "ICON's end_index(-13:10)")});
  check_array(a.vertex_starts, f, "vertex_starts", {at_least(13, "ICON's start_index(-7:5)")});
  check_array(a.vertex_ends, f, "vertex_ends", {at_least(13, "ICON's end_index(-7:5)")});
  struct Table {
    const icondiff_array& array;
    const char* name;
    long rows;
    const char* rows_meaning;
    long cols;
    bool at_least_cols;
  };
  const Table tables[] = {
      {a.c2e, "c2e", nc, "num_cells", 3, false},     {a.e2c, "e2c", ne, "num_edges", 2, false},
      {a.c2e2c, "c2e2c", nc, "num_cells", 3, false}, {a.e2c2e, "e2c2e", ne, "num_edges", 4, false},
      {a.e2v, "e2v", ne, "num_edges", 2, true},      {a.v2e, "v2e", nv, "num_vertices", 6, false},
      {a.v2c, "v2c", nv, "num_vertices", 6, false},  {a.e2c2v, "e2c2v", ne, "num_edges", 4, false},
      {a.c2v, "c2v", nc, "num_cells", 3, false}};
  std::map<std::string, std::vector<int>> host_tables;
  for (const Table& t : tables) {
    check_array(t.array, f, t.name,
                {at_least(t.rows, t.rows_meaning),
                 t.at_least_cols ? at_least(t.cols, "neighbours") : exactly(t.cols, "neighbours")});
    host_tables[t.name] = host_values<int, M>(t.array, 2, dev);
  }
  check_array(a.c_owner_mask, f, "c_owner_mask", {at_least(nc, "num_cells")});
  check_array(a.e_owner_mask, f, "e_owner_mask", {at_least(ne, "num_edges")});
  check_array(a.v_owner_mask, f, "v_owner_mask", {at_least(nv, "num_vertices")});
  check_array(a.c_glb_index, f, "c_glb_index", {at_least(nc, "num_cells")});
  check_array(a.e_glb_index, f, "e_glb_index", {at_least(ne, "num_edges")});
  check_array(a.v_glb_index, f, "v_glb_index", {at_least(nv, "num_vertices")});

  const struct {
    const icondiff_array& mask;
    const char* name;
    long n;
  } masks[] = {{a.c_owner_mask, "c_owner_mask", nc},
               {a.e_owner_mask, "e_owner_mask", ne},
               {a.v_owner_mask, "v_owner_mask", nv}};
  for (const auto& m : masks) {
    const auto* owned = static_cast<const unsigned char*>(m.mask.data);
    for (long i = 0; i < m.n && ranks == 1; ++i)
      if (owned[i] == 0)
        throw InvalidArgument(fmt::format(
            "{}: {}({}) is false, but on one rank every point is owned", f, m.name, i + 1));
  }

  auto tab = [&](const char* name, const icondiff_array& array) {
    return IconIndexTable{host_tables.at(name).data(), static_cast<index_t>(array.size[0])};
  };
  IconGridArrays g;
  g.num_cells = static_cast<index_t>(nc);
  g.num_edges = static_cast<index_t>(ne);
  g.num_vertices = static_cast<index_t>(nv);
  g.c2e = tab("c2e", a.c2e);
  g.c2v = tab("c2v", a.c2v);
  g.c2e2c = tab("c2e2c", a.c2e2c);
  g.e2c = tab("e2c", a.e2c);
  g.e2v = tab("e2v", a.e2v);
  g.v2e = tab("v2e", a.v2e);
  g.v2c = tab("v2c", a.v2c);
  g.e2c2v = tab("e2c2v", a.e2c2v);
  g.e2c2e = tab("e2c2e", a.e2c2e);
  const icondiff_array* starts[3] = {&a.cell_starts, &a.edge_starts, &a.vertex_starts};
  const icondiff_array* ends[3] = {&a.cell_ends, &a.edge_ends, &a.vertex_ends};
  for (int l = 0; l < 3; ++l)
    g.zone_bounds[l] = {static_cast<const int*>(starts[l]->data),
                        static_cast<const int*>(ends[l]->data),
                        static_cast<index_t>(std::min(starts[l]->size[0], ends[l]->size[0]))};
  g.rank = rank;
  g.num_ranks = ranks;
  if (ranks > 1) {
    const icondiff_array* glb[3] = {&a.c_glb_index, &a.e_glb_index, &a.v_glb_index};
    for (int l = 0; l < 3; ++l) {
      g.global_index[l] = static_cast<const int*>(glb[l]->data);
      g.owner_rank[l] = owners[l].data();
    }
  }

  auto handle = std::make_unique<icondiff_icon_grid>();
  handle->on_gpu = dev;
  check_global_indices(a.c_glb_index, "c_glb_index", nc);
  check_global_indices(a.e_glb_index, "e_glb_index", ne);
  check_global_indices(a.v_glb_index, "v_glb_index", nv);
  try {
    handle->grid = grid_from_icon_arrays(g);
  } catch (const GridConsistencyError& e) {
    throw InvalidArgument(fmt::format("{}: {}", f, icon_numbering(e)));
  } catch (const Error& e) {
    throw InvalidArgument(fmt::format("{}: {}", f, e.what()));
  }
  handle->grid.source = "ICON arrays (grid_init)";
  if (handle->grid.limited_area != (a.limited_area != 0))
    throw InvalidArgument(fmt::format(
        "{}: limited_area is {} but the cells' first lateral boundary row (cell_starts/"
        "cell_ends at refinement level 1) is {}",
        f, a.limited_area ? "true" : "false", handle->grid.limited_area ? "not empty" : "empty"));

  // Vertical grid: vct_a gives nlev + 1 half-level heights; nrd from the damping height.
  check_array(a.vct_a, f, "vct_a", {exactly(nlev + 1, "vertical_size + 1")});
  handle->vertical.vct_a = host_values<double, M>(a.vct_a, static_cast<std::size_t>(nlev + 1), dev);
  // ICON's 1-based vct_a(k) here; the vertical grid's own check below speaks 0-based.
  const std::vector<double>& vct_a = handle->vertical.vct_a;
  for (std::size_t k = 0; k < vct_a.size(); ++k) {
    if (!std::isfinite(vct_a[k]))
      throw InvalidArgument(
          fmt::format("{}: vct_a({}) = {} is not a finite height (1-based)", f, k + 1, vct_a[k]));
    if (k > 0 && !(vct_a[k] < vct_a[k - 1]))
      throw InvalidArgument(fmt::format(
          "{}: vct_a({}) = {} is not below vct_a({}) = {} (1-based): vct_a must decrease from the "
          "model top to the surface",
          f, k + 1, vct_a[k], k, vct_a[k - 1]));
  }
  handle->vertical.end_index_of_damping_layer =
      end_index_of_damping_layer(handle->vertical.vct_a, a.rayleigh_damping_height);
  try {
    handle->vertical.validate();
  } catch (const Error& e) {
    throw ConfigError(fmt::format("{}: vct_a / rayleigh_damping_height: {}", f, e.what()));
  }

  // Geometry: the edge and cell fields the granule reads are copied; the others ICON4Py takes
  // (f_e, centres, normals at cells, primal normals) are checked and not needed by diffusion.
  // (Spelled-out element type: nvcc 11.8 cannot deduce a braced list of pairs in a range-for.)
  using NamedArrays = std::initializer_list<std::pair<const icondiff_array*, const char*>>;
  for (const auto& [array, name] :
       NamedArrays{{&a.tangent_orientation, "tangent_orientation"},
                   {&a.inverse_primal_edge_lengths, "inverse_primal_edge_lengths"},
                   {&a.inv_dual_edge_length, "inv_dual_edge_length"},
                   {&a.inv_vert_vert_length, "inv_vert_vert_length"},
                   {&a.edge_areas, "edge_areas"},
                   {&a.f_e, "f_e"},
                   {&a.edge_center_lat, "edge_center_lat"},
                   {&a.edge_center_lon, "edge_center_lon"},
                   {&a.primal_normal_x, "primal_normal_x"},
                   {&a.primal_normal_y, "primal_normal_y"}})
    check_array(*array, f, name, {at_least(ne, "num_edges")});
  for (const auto& [array, name] : NamedArrays{{&a.primal_normal_vert_x, "primal_normal_vert_x"},
                                               {&a.primal_normal_vert_y, "primal_normal_vert_y"},
                                               {&a.dual_normal_vert_x, "dual_normal_vert_x"},
                                               {&a.dual_normal_vert_y, "dual_normal_vert_y"}})
    check_array(*array, f, name, {at_least(ne, "num_edges"), exactly(4, "E2C2V neighbours")});
  for (const auto& [array, name] : NamedArrays{{&a.primal_normal_cell_x, "primal_normal_cell_x"},
                                               {&a.primal_normal_cell_y, "primal_normal_cell_y"},
                                               {&a.dual_normal_cell_x, "dual_normal_cell_x"},
                                               {&a.dual_normal_cell_y, "dual_normal_cell_y"}})
    check_array(*array, f, name, {at_least(ne, "num_edges"), exactly(2, "E2C neighbours")});
  for (const auto& [array, name] : NamedArrays{{&a.cell_center_lat, "cell_center_lat"},
                                               {&a.cell_center_lon, "cell_center_lon"},
                                               {&a.cell_areas, "cell_areas"}})
    check_array(*array, f, name, {at_least(nc, "num_cells")});
  check_grid_values(a, host_tables, nc, ne, dev);

  handle->device = DeviceGrid<M>(handle->grid);
  const FieldSizes sizes = handle->device.sizes();
  const std::string what = std::string(f) + ":";
  handle->edges = copy_from_caller<DiffusionEdgeParams>(
      {{"tangent_orientation", external<wp>(a.tangent_orientation)},
       {"inverse_primal_edge_lengths", external<wp>(a.inverse_primal_edge_lengths)},
       {"inverse_vertex_vertex_lengths", external<wp>(a.inv_vert_vert_length)},
       {"inverse_dual_edge_lengths", external<wp>(a.inv_dual_edge_length)},
       {"edge_areas", external<wp>(a.edge_areas)},
       {"primal_normal_vert_x", external<wp>(a.primal_normal_vert_x)},
       {"primal_normal_vert_y", external<wp>(a.primal_normal_vert_y)},
       {"dual_normal_vert_x", external<wp>(a.dual_normal_vert_x)},
       {"dual_normal_vert_y", external<wp>(a.dual_normal_vert_y)}},
      sizes, what, dev);
  handle->cells = copy_from_caller<DiffusionCellParams>({{"cell_area", external<wp>(a.cell_areas)}},
                                                        sizes, what, dev);
  handle->whole_sizes = handle->device.sizes();
  return handle.release();
}

/// grid_init on one rank, or collectively on every rank of ICON's communicator: the owners of
/// the halo points come from a directory (every rank knows only its owner masks); every error
/// that one rank meets is agreed on, so all ranks return it and none waits in a collective.
icondiff_icon_grid* create_grid_on_ranks(const icondiff_icon_grid_args& a) {
  int rank = 0;
  const int ranks = communicator_size(a.comm_id, &rank);
  if (ranks == 1) return create_grid(a, rank, ranks, {});
#if ICONDIFF_HAVE_MPI
  const char* f = grid_init_name;
  const MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(a.comm_id));
  const long sizes[3] = {a.num_cells, a.num_edges, a.num_vertices};
  const icondiff_array* masks[3] = {&a.c_owner_mask, &a.e_owner_mask, &a.v_owner_mask};
  const icondiff_array* glb[3] = {&a.c_glb_index, &a.e_glb_index, &a.v_glb_index};
  const char* names[3] = {"cells", "edges", "vertices"};
  std::array<std::vector<index_t>, 3> global_index;
  std::array<std::vector<unsigned char>, 3> owned;
  collectively(comm, [&] {
    for (int l = 0; l < 3; ++l) {
      if (sizes[l] <= 0)
        throw InvalidArgument(
            fmt::format("{}: num_{} = {} must be positive", f, names[l], sizes[l]));
      check_array(*masks[l], f,
                  l == 0   ? "c_owner_mask"
                  : l == 1 ? "e_owner_mask"
                           : "v_owner_mask",
                  {at_least(sizes[l], names[l])});
      check_array(*glb[l], f,
                  l == 0   ? "c_glb_index"
                  : l == 1 ? "e_glb_index"
                           : "v_glb_index",
                  {at_least(sizes[l], names[l])});
      check_global_indices(*glb[l],
                           l == 0   ? "c_glb_index"
                           : l == 1 ? "e_glb_index"
                                    : "v_glb_index",
                           sizes[l]);
      const auto* m = static_cast<const unsigned char*>(masks[l]->data);
      const auto* g = static_cast<const int*>(glb[l]->data);
      owned[l].assign(m, m + sizes[l]);
      global_index[l].resize(static_cast<std::size_t>(sizes[l]));
      for (long i = 0; i < sizes[l]; ++i) global_index[l][i] = g[i] - 1;
    }
  });
  Owners owners;
  for (int l = 0; l < 3; ++l)
    owners[l] =
        owners_from_masks(comm, global_index[l], owned[l], std::string(f) + ": " + names[l]);
  std::unique_ptr<icondiff_icon_grid> handle;
  collectively(comm, [&] { handle.reset(create_grid(a, rank, ranks, owners)); });
  handle->comm = comm;
  // The whole grid's sizes: the largest global index + 1 of every location, over all ranks.
  long whole[3] = {0, 0, 0};
  for (int l = 0; l < 3; ++l)
    for (const index_t gi : global_index[l])
      whole[l] = std::max(whole[l], static_cast<long>(gi) + 1);
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, whole, 3, MPI_LONG, MPI_MAX, comm), "MPI_Allreduce");
  handle->whole_sizes =
      FieldSizes{static_cast<std::size_t>(whole[0]), static_cast<std::size_t>(whole[1]),
                 static_cast<std::size_t>(whole[2]), 0};
  return handle.release();
#else
  throw InvalidArgument(fmt::format(
      "grid_init: comm_id names a communicator of {} ranks, but this icondiff is built without "
      "MPI (ICONDIFF_ENABLE_MPI=OFF)",
      ranks));
#endif
}

// ---- diffusion_init ---------------------------------------------------------------------------

DiffusionConfig config_from(const icondiff_diffusion_args& a) {
  const char* f = diffusion_init_name;
  DiffusionConfig c;
  c.diffusion_type = static_cast<DiffusionType>(a.diffusion_type);
  // lhdiff_vn / lhdiff_w: validate() refuses false (ICON skips that diffusion, ICON4Py ignores
  // the flag; icondiff does neither).
  c.apply_to_vertical_wind = a.hdiff_w != 0;
  c.apply_to_horizontal_wind = a.hdiff_vn != 0;
  c.apply_smag_diff_to_vertical_wind = a.hdiff_smag_w != 0;
  c.apply_zdiffusion_t = a.zdiffu_t != 0;
  c.type_t_diffu = static_cast<TemperatureDiscretizationType>(a.type_t_diffu);
  c.type_vn_diffu = static_cast<SmagorinskyStencilType>(a.type_vn_diffu);
  c.hdiff_efdt_ratio = a.hdiff_efdt_ratio;
  c.hdiff_w_efdt_ratio = a.hdiff_w_efdt_ratio;
  c.smagorinski_scaling_factor = a.smagorinski_scaling_factor;
  c.smagorinski_scaling_factor2 = a.smagorinski_scaling_factor2;
  c.smagorinski_scaling_factor3 = a.smagorinski_scaling_factor3;
  c.smagorinski_scaling_factor4 = a.smagorinski_scaling_factor4;
  c.smagorinski_scaling_height = a.smagorinski_scaling_height;
  c.smagorinski_scaling_height2 = a.smagorinski_scaling_height2;
  c.smagorinski_scaling_height3 = a.smagorinski_scaling_height3;
  c.smagorinski_scaling_height4 = a.smagorinski_scaling_height4;
  c.apply_to_temperature = a.hdiff_temp != 0;
  c.ndyn_substeps = a.ndyn_substeps;
  c.velocity_boundary_diffusion_denominator = a.denom_diffu_v;
  c.max_nudging_coefficient = a.nudge_max_coeff;  // ICON passes it scaled (x5), as ICON4Py takes it
  c.shear_type = static_cast<TurbulenceShearForcingType>(a.itype_sher);
  c.iforcing = static_cast<ForcingType>(a.iforcing);
  c.a_hshr = a.a_hshr;
  c.loutshs = a.loutshs != 0;
  try {
    c.validate();
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("{}: {}", f, e.what()));
  }
  return c;
}

/// rbf_vec_coeff_v (6, 2, nproma) as ICON holds it -> rbf_coeff_1/2 (vertices, 6).
void convert_rbf(const icondiff_diffusion_args& a, index_t nv, bool dev,
                 DiffusionInterpolationState<M>& out) {
  const std::vector<double> rbf = host_values<double, M>(a.rbf_vec_coeff_v, 3, dev);
  View2D<wp, Kokkos::HostSpace> c1("icondiff::capi::rbf_coeff_1", nv, 6);
  View2D<wp, Kokkos::HostSpace> c2("icondiff::capi::rbf_coeff_2", nv, 6);
  for (index_t v = 0; v < nv; ++v)
    for (int j = 0; j < 6; ++j) {
      c1(v, j) = rbf[static_cast<std::size_t>(j + 12 * v)];
      c2(v, j) = rbf[static_cast<std::size_t>(j + 6 + 12 * v)];
    }
  out.rbf_coeff_1 = copy_view<M>("icondiff::capi::rbf_coeff_1", c1);
  out.rbf_coeff_2 = copy_view<M>("icondiff::capi::rbf_coeff_2", c2);
}

/// ICON's zd_* point lists -> the dense per-(cell, level) fields, as ICON4Py's diffusion_init
/// converts them: zd_vertoffset = neighbour level - the cell's level, zeros where not listed.
void convert_zd_lists(const icondiff_diffusion_args& a, index_t nc, int nlev, bool dev,
                      DiffusionMetricState<M>& out) {
  const char* f = diffusion_init_name;
  View2D<wp, Kokkos::HostSpace> diffcoef("icondiff::capi::zd_diffcoef", nc, nlev);
  View3D<wp, Kokkos::HostSpace> intcoef("icondiff::capi::zd_intcoef", nc, 3, nlev);
  View3D<int, Kokkos::HostSpace> vertoffset("icondiff::capi::zd_vertoffset", nc, 3, nlev);
  const bool given = a.zd_cellidx.data != nullptr;
  if (!given && (a.zd_vertidx.data || a.zd_intcoef.data || a.zd_diffcoef.data))
    throw InvalidArgument(fmt::format(
        "{}: zd_cellidx is absent but zd_vertidx, zd_intcoef or zd_diffcoef is given (all four "
        "or none)",
        f));
  if (given) {
    const long n = a.zd_cellidx.size[1];
    check_array(a.zd_cellidx, f, "zd_cellidx",
                {exactly(4, "the cell and its 3 neighbours"), at_least(0, "list length")});
    check_array(
        a.zd_vertidx, f, "zd_vertidx",
        {exactly(4, "levels of the cell and its 3 neighbours"), exactly(n, "SIZE(zd_cellidx, 2)")});
    check_array(a.zd_intcoef, f, "zd_intcoef",
                {exactly(3, "the 3 neighbours"), exactly(n, "SIZE(zd_cellidx, 2)")});
    check_array(a.zd_diffcoef, f, "zd_diffcoef", {exactly(n, "SIZE(zd_cellidx, 2)")});
    const auto cellidx = host_values<int, M>(a.zd_cellidx, 2, dev);
    const auto vertidx = host_values<int, M>(a.zd_vertidx, 2, dev);
    const auto icoef = host_values<double, M>(a.zd_intcoef, 2, dev);
    const auto dcoef = host_values<double, M>(a.zd_diffcoef, 1, dev);
    for (long i = 0; i < n; ++i) {
      const long c = static_cast<long>(cellidx[static_cast<std::size_t>(4 * i)]) - 1;
      const long k = static_cast<long>(vertidx[static_cast<std::size_t>(4 * i)]) - 1;
      if (c < 0 || c >= nc)
        throw InvalidArgument(
            fmt::format("{}: zd_cellidx(1, {}) = {} is not a cell in 1..{}", f, i + 1, c + 1, nc));
      if (k < 0 || k >= nlev)
        throw InvalidArgument(fmt::format("{}: zd_vertidx(1, {}) = {} is not a level in 1..{}", f,
                                          i + 1, k + 1, nlev));
      if (!std::isfinite(dcoef[static_cast<std::size_t>(i)]))
        throw InvalidArgument(fmt::format("{}: zd_diffcoef({}) = {} is not a finite number", f,
                                          i + 1, dcoef[static_cast<std::size_t>(i)]));
      diffcoef(c, k) = dcoef[static_cast<std::size_t>(i)];
      for (int j = 0; j < 3; ++j) {
        const long kn = static_cast<long>(vertidx[static_cast<std::size_t>(4 * i + j + 1)]) - 1;
        // The granule reads the neighbour's theta_v at this level and the one below it.
        if (kn < 0 || kn >= nlev - 1)
          throw InvalidArgument(fmt::format(
              "{}: zd_vertidx({}, {}) = {} is not a level in 1..{} (the level below it, {}, is "
              "read too)",
              f, j + 2, i + 1, kn + 1, nlev - 1, kn + 2));
        if (!std::isfinite(icoef[static_cast<std::size_t>(3 * i + j)]))
          throw InvalidArgument(fmt::format("{}: zd_intcoef({}, {}) = {} is not a finite number", f,
                                            j + 1, i + 1,
                                            icoef[static_cast<std::size_t>(3 * i + j)]));
        intcoef(c, j, k) = icoef[static_cast<std::size_t>(3 * i + j)];
        vertoffset(c, j, k) = static_cast<int>(kn - k);
      }
    }
  }
  out.zd_diffcoef = copy_view<M>("icondiff::capi::zd_diffcoef", diffcoef);
  out.zd_intcoef = copy_view<M>("icondiff::capi::zd_intcoef", intcoef);
  out.zd_vertoffset = copy_view<M>("icondiff::capi::zd_vertoffset", vertoffset);
}

/// diffusion_init on this rank; `exchange` is the halo exchange of a decomposed grid (nullptr on
/// one rank).
icondiff_diffusion* create_diffusion(const icondiff_icon_grid& grid,
                                     const icondiff_diffusion_args& a,
                                     std::shared_ptr<HaloExchange<Space>> exchange) {
  const char* f = diffusion_init_name;
  check_alive(&grid, f);
  const bool dev = a.on_gpu != 0;
  check_memory(f, dev);
  if (!std::is_same_v<vp, double>)
    throw ConfigError(fmt::format(
        "{}: this icondiff is built with ICONDIFF_MIXED_PRECISION (vp = float), but ICON4Py's "
        "bindings pass every field as double; use a double-precision build",
        f));
  if (a.backend < 0 || a.backend > 2)
    throw InvalidArgument(fmt::format(
        "{}: backend = {} is not one of ICON4Py's selectors 0 (default), 1 (dace), 2 (gtfn)", f,
        a.backend));
  const DiffusionConfig config = config_from(a);
  check_smagorinsky_heights(a);
  const index_t nc = grid.grid.num_cells, ne = grid.grid.num_edges, nv = grid.grid.num_vertices;
  const int nlev = grid.vertical.num_levels();

  check_array(a.wgtfac_c, f, "wgtfac_c",
              {at_least(nc, "num_cells"), exactly(nlev + 1, "vertical_size + 1 of grid_init")});
  check_array(a.theta_ref_mc, f, "theta_ref_mc",
              {at_least(nc, "num_cells"), exactly(nlev, "nlev")});
  check_array(a.e_bln_c_s, f, "e_bln_c_s", {at_least(nc, "num_cells"), exactly(3, "C2E")});
  check_array(a.geofac_div, f, "geofac_div", {at_least(nc, "num_cells"), exactly(3, "C2E")});
  check_array(a.geofac_grg_x, f, "geofac_grg_x", {at_least(nc, "num_cells"), exactly(4, "C2E2CO")});
  check_array(a.geofac_grg_y, f, "geofac_grg_y", {at_least(nc, "num_cells"), exactly(4, "C2E2CO")});
  check_array(a.geofac_n2s, f, "geofac_n2s", {at_least(nc, "num_cells"), exactly(4, "C2E2CO")});
  check_array(a.nudgecoeff_e, f, "nudgecoeff_e", {at_least(ne, "num_edges")});
  check_array(
      a.rbf_vec_coeff_v, f, "rbf_vec_coeff_v",
      {exactly(6, "rbf_vec_dim_v"), exactly(2, "vector components"), at_least(nv, "num_vertices")});
  check_diffusion_values(a, nc, ne, nv, dev);

  auto handle = std::make_unique<icondiff_diffusion>();
  handle->on_gpu = dev;
  handle->config = config;
  DiffusionInputs<M>& in = handle->inputs;
  in.grid = grid.device;
  in.vertical = grid.vertical;
  in.edges = grid.edges;
  in.cells = grid.cells;
  const FieldSizes sizes = in.sizes();
  const std::string what = std::string(f) + ":";
  in.metric = copy_from_caller<DiffusionMetricState>(
      {{"theta_ref_mc", external<vp>(a.theta_ref_mc)}, {"wgtfac_c", external<vp>(a.wgtfac_c)}},
      sizes, what, dev);
  const std::size_t cells = sizes.cells;
  in.interpolation.e_bln_c_s = copy_field<wp, 2>(a.e_bln_c_s, "e_bln_c_s", {cells, 3}, dev);
  in.interpolation.geofac_div = copy_field<wp, 2>(a.geofac_div, "geofac_div", {cells, 3}, dev);
  in.interpolation.geofac_n2s = copy_field<wp, 2>(a.geofac_n2s, "geofac_n2s", {cells, 4}, dev);
  in.interpolation.geofac_grg_x =
      copy_field<wp, 2>(a.geofac_grg_x, "geofac_grg_x", {cells, 4}, dev);
  in.interpolation.geofac_grg_y =
      copy_field<wp, 2>(a.geofac_grg_y, "geofac_grg_y", {cells, 4}, dev);
  in.interpolation.nudgecoeff_e =
      copy_field<wp, 1>(a.nudgecoeff_e, "nudgecoeff_e", {sizes.edges}, dev);
  convert_rbf(a, nv, dev, in.interpolation);
  if (config.apply_zdiffusion_t) convert_zd_lists(a, nc, nlev, dev, in.metric);

  handle->grid_reference = make_grid_reference(grid.grid);
  handle->whole_sizes = grid.whole_sizes;
  DiffusionOptions<Space> options;
  options.exchange = std::move(exchange);
  handle->granule = std::make_unique<Diffusion<Space>>(config, in, options);
  return handle.release();
}

/// diffusion_init on one rank, or collectively with the MPI halo exchange of the grid's ranks.
icondiff_diffusion* create_diffusion_on_ranks(const icondiff_icon_grid& grid,
                                              const icondiff_diffusion_args& a) {
#if ICONDIFF_HAVE_MPI
  if (grid.comm != MPI_COMM_NULL) {
    collectively(grid.comm, [&] { check_alive(&grid, diffusion_init_name); });
    auto exchange = std::make_shared<MpiHaloExchange<Space>>(grid.comm, grid.grid);
    std::unique_ptr<icondiff_diffusion> handle;
    collectively(grid.comm, [&] { handle.reset(create_diffusion(grid, a, exchange)); });
    handle->comm = grid.comm;
    handle->exchange = exchange;
    handle->local_grid = grid.grid;
    return handle.release();
  }
#endif
  return create_diffusion(grid, a, nullptr);
}

// ---- diffusion_run ----------------------------------------------------------------------------

DiffusionDiagnosticState<M>& own_diagnostics(icondiff_diffusion& d) {
  if (!d.own_diagnostics.hdef_ic.data())
    d.own_diagnostics =
        allocate_state<DiffusionDiagnosticState, M>(d.inputs.sizes(), "icondiff::capi::own_");
  return d.own_diagnostics;
}

void capture(const icondiff_diffusion& d, SavepointKind kind, const DiffusionSavepoint* init,
             const DiffusionDiagnosticState<M>& diagnostic,
             const DiffusionPrognosticState<M>& prognostic, double dtime, bool linit,
             DiffusionSavepoint* out) {
  if (kind == SavepointKind::Init) {
    SavepointGridReference reference = d.grid_reference;
    reference.source = d.grid_source;
    *out = capture_diffusion_init(
        d.config, reference, d.inputs, diagnostic, prognostic, dtime, linit,
        {{"captured_by", "icondiff C API (diffusion_run)"}, {"call", std::to_string(d.calls + 1)}});
  } else {
    *out = capture_diffusion_exit(*init, diagnostic, prognostic);
  }
  // A rank's part of a decomposed grid: DIR/diffusion-{init,exit}.rank<r>.nc, with where each
  // local point sits in the whole grid (icondiff verify merges the set).
  std::string suffix = ".nc";
  if (d.local_grid.num_ranks > 1) {
    if (kind == SavepointKind::Init) out->decomposition = rank_points(d.local_grid, d.whole_sizes);
    suffix = ".rank" + std::to_string(d.local_grid.rank) + ".nc";
  }
  write_diffusion_savepoint(
      d.capture_directory + (kind == SavepointKind::Init ? "/diffusion-init" : "/diffusion-exit") +
          suffix,
      *out);
}

/// The run arguments' checks; the only part of a run that can fail on one rank alone.
void check_run_arguments(const icondiff_diffusion& d, const icondiff_run_args& a) {
  const char* f = diffusion_run_name;
  check_alive(&d, f);
  if ((a.on_gpu != 0) != d.on_gpu) check_memory(f, a.on_gpu != 0);
  const auto nc = static_cast<long>(d.inputs.grid.num_cells);
  const auto ne = static_cast<long>(d.inputs.grid.num_edges);
  const long nlev = d.inputs.num_levels();
  check_array(a.w, f, "w", {at_least(nc, "num_cells"), exactly(nlev + 1, "nlev + 1")});
  check_array(a.vn, f, "vn", {at_least(ne, "num_edges"), exactly(nlev, "nlev")});
  check_array(a.exner, f, "exner", {at_least(nc, "num_cells"), exactly(nlev, "nlev")});
  check_array(a.theta_v, f, "theta_v", {at_least(nc, "num_cells"), exactly(nlev, "nlev")});
  check_array(a.rho, f, "rho", {at_least(nc, "num_cells"), exactly(nlev, "nlev")});
  const Extent half[] = {at_least(nc, "num_cells"), exactly(nlev + 1, "nlev + 1")};
  check_optional_array(a.hdef_ic, f, "hdef_ic", half);
  check_optional_array(a.div_ic, f, "div_ic", half);
  check_optional_array(a.dwdx, f, "dwdx", half);
  check_optional_array(a.dwdy, f, "dwdy", half);
  if (!(a.dtime > 0.0) || !std::isfinite(a.dtime))
    throw InvalidArgument(
        fmt::format("{}: dtime = {} must be a positive finite number", f, a.dtime));
  check_no_overlap(a, nlev);
}

/// The run arguments' checks, agreed over the ranks of a decomposed grid: one MPI_Allreduce per
/// call, so that an argument error on one rank stops every rank before the halo exchanges
/// instead of leaving the others waiting in them.
void check_run_arguments_on_every_rank(const icondiff_diffusion& d, const icondiff_run_args& a) {
#if ICONDIFF_HAVE_MPI
  if (d.comm != MPI_COMM_NULL) return collectively(d.comm, [&] { check_run_arguments(d, a); });
#endif
  check_run_arguments(d, a);
}

/// The caller's vn, w, theta_v and exner as unmanaged Views, in place (checked arguments).
DiffusionPrognosticState<M> prognostic_in_place(const icondiff_diffusion& d,
                                                const icondiff_run_args& a) {
  const auto cells = static_cast<std::size_t>(d.inputs.grid.num_cells);
  const auto edges = static_cast<std::size_t>(d.inputs.grid.num_edges);
  const auto nlev = static_cast<std::size_t>(d.inputs.num_levels());
  DiffusionPrognosticState<M> prognostic;
  prognostic.vn = wrap_in_place<wp, M>(a.vn, edges, nlev);
  prognostic.w = wrap_in_place<wp, M>(a.w, cells, nlev + 1);
  prognostic.theta_v = wrap_in_place<wp, M>(a.theta_v, cells, nlev);
  prognostic.exner = wrap_in_place<wp, M>(a.exner, cells, nlev);
  return prognostic;
}

/// On a GPU the caller's arrays may still be written by its own queues (ICON's OpenACC `async`
/// queues are streams icondiff does not know, and Kokkos' instance is not ordered with them): a
/// device-wide fence waits for every stream of the device before the granule's kernels read
/// them. The call's closing fence makes the results complete for any queue afterwards. Host
/// builds have no such queues.
void wait_for_caller_queues(const std::string& label) {
  if constexpr (!host_memory) compat::fence(label);
}

void run(icondiff_diffusion& d, const icondiff_run_args& a) {
  check_run_arguments_on_every_rank(d, a);
  static const std::string wait_label = "icondiff::capi::diffusion_run::caller_queues";
  wait_for_caller_queues(wait_label);
  const auto cells = static_cast<std::size_t>(d.inputs.grid.num_cells);
  const auto halfl = static_cast<std::size_t>(d.inputs.num_levels()) + 1;
  const bool hdef = a.hdef_ic.data != nullptr, div = a.div_ic.data != nullptr;
  const bool dwdx = a.dwdx.data != nullptr, dwdy = a.dwdy.data != nullptr;
  const DiffusionPrognosticState<M> prognostic = prognostic_in_place(d, a);
  DiffusionDiagnosticState<M> diagnostic;
  if (!(hdef && div && dwdx && dwdy)) diagnostic = own_diagnostics(d);
  if (hdef) diagnostic.hdef_ic = wrap_in_place<vp, M>(a.hdef_ic, cells, halfl);
  if (div) diagnostic.div_ic = wrap_in_place<vp, M>(a.div_ic, cells, halfl);
  if (dwdx) diagnostic.dwdx = wrap_in_place<vp, M>(a.dwdx, cells, halfl);
  if (dwdy) diagnostic.dwdy = wrap_in_place<vp, M>(a.dwdy, cells, halfl);

  // Nothing below allocates unless this call is captured (checked by callgrind: the C++ heap,
  // not only Kokkos, stays untouched in a regular call).
  std::optional<DiffusionSavepoint> init;
  if (d.capture_call == d.calls + 1) {
    init.emplace();
    capture(d, SavepointKind::Init, nullptr, diagnostic, prognostic, a.dtime, a.linit != 0, &*init);
  }
  static const std::string fence_label = "icondiff::capi::diffusion_run";
  const Space space;
  d.granule->run(space, diagnostic, prognostic, a.dtime, a.linit != 0);
  compat::fence(space, fence_label);
  ++d.calls;
  if (init) {
    DiffusionSavepoint exit;
    capture(d, SavepointKind::Exit, &*init, diagnostic, prognostic, a.dtime, a.linit != 0, &exit);
  }
}

void exchange_halos(icondiff_diffusion& d, const icondiff_run_args& a) {
  check_run_arguments_on_every_rank(d, a);
  static const std::string wait_label = "icondiff::capi::exchange_halos::caller_queues";
  wait_for_caller_queues(wait_label);
  const Space space;
  d.granule->exchange_prognostic_halos(space, prognostic_in_place(d, a));  // one rank: nothing
  compat::fence(space, "icondiff::capi::exchange_halos");
}

}  // namespace
}  // namespace icondiff::capi

// ---- The C functions --------------------------------------------------------------------------

using icondiff::capi::BusyGuard;
using icondiff::capi::guarded;
using icondiff::capi::require_pointer;

extern "C" {

icondiff_status icondiff_icon_grid_create(const icondiff_icon_grid_args* args,
                                          icondiff_icon_grid** grid) {
  return guarded([&] {
    require_pointer(args, "grid_init: args");
    require_pointer(grid, "grid_init: grid");
    *grid = nullptr;
    icondiff::capi::ensure_kokkos();
    icondiff_icon_grid* handle = icondiff::capi::create_grid_on_ranks(*args);
    icondiff::capi::register_handle(handle, [handle] {
      handle->device = {};
      handle->edges = {};
      handle->cells = {};
      handle->released = true;
    });
    *grid = handle;
  });
}

void icondiff_icon_grid_free(icondiff_icon_grid* grid) {
  if (grid == nullptr) return;
  icondiff::capi::unregister_handle(grid);
  delete grid;
}

icondiff_status icondiff_diffusion_create(const icondiff_icon_grid* grid,
                                          const icondiff_diffusion_args* args,
                                          icondiff_diffusion** granule) {
  return guarded([&] {
    require_pointer(grid, "diffusion_init: grid (call grid_init first)");
    require_pointer(args, "diffusion_init: args");
    require_pointer(granule, "diffusion_init: granule");
    *granule = nullptr;
    icondiff::capi::ensure_kokkos();
    icondiff_diffusion* handle = icondiff::capi::create_diffusion_on_ranks(*grid, *args);
    icondiff::capi::register_handle(
        handle,
        [handle] {
          handle->granule.reset();
          handle->inputs = {};
          handle->own_diagnostics = {};
          handle->released = true;
        },
        &handle->busy);
    *granule = handle;
  });
}

void icondiff_diffusion_free(icondiff_diffusion* granule) {
  if (granule == nullptr) return;
  icondiff::capi::unregister_handle(granule);
  delete granule;
}

icondiff_status icondiff_diffusion_run(icondiff_diffusion* granule, const icondiff_run_args* args) {
  return guarded([&] {
    require_pointer(granule, "diffusion_run: granule (call diffusion_init first)");
    const BusyGuard guard(granule->busy, "diffusion_run", "the granule");
    require_pointer(args, "diffusion_run: args");
    icondiff::capi::run(*granule, *args);
  });
}

icondiff_status icondiff_diffusion_exchange_halos(icondiff_diffusion* granule,
                                                  const icondiff_run_args* args) {
  return guarded([&] {
    require_pointer(granule, "exchange_halos: granule");
    const BusyGuard guard(granule->busy, "exchange_halos", "the granule");
    require_pointer(args, "exchange_halos: args");
    icondiff::capi::exchange_halos(*granule, *args);
  });
}

icondiff_status icondiff_diffusion_capture_savepoints(icondiff_diffusion* granule,
                                                      const char* directory, int call,
                                                      const char* grid_source) {
  return guarded([&] {
    require_pointer(granule, "capture_savepoints: granule");
    const BusyGuard guard(granule->busy, "capture_savepoints", "the granule");
    if (call < 0)
      throw icondiff::InvalidArgument(fmt::format(
          "capture_savepoints: call = {} must be 0 (off) or a run's 1-based index", call));
    if (call > 0) {
      require_pointer(directory, "capture_savepoints: directory");
      if (call <= granule->calls)
        throw icondiff::InvalidArgument(fmt::format(
            "capture_savepoints: call {} has run already ({} calls so far)", call, granule->calls));
      icondiff::capi::check_capture_directory(directory, call);
    }
    granule->capture_call = call;
    granule->capture_directory = directory ? directory : "";
    granule->grid_source = grid_source ? grid_source : "";
  });
}

icondiff_status icondiff_diffusion_calls(const icondiff_diffusion* granule, int* calls) {
  return guarded([&] {
    require_pointer(granule, "diffusion_calls: granule");
    require_pointer(calls, "diffusion_calls: calls");
    const BusyGuard guard(granule->busy, "diffusion_calls", "the granule");
    *calls = granule->calls;
  });
}

void icondiff_args_sizes(int* array, int* grid_args, int* diffusion_args, int* run_args) {
  if (array) *array = static_cast<int>(sizeof(icondiff_array));
  if (grid_args) *grid_args = static_cast<int>(sizeof(icondiff_icon_grid_args));
  if (diffusion_args) *diffusion_args = static_cast<int>(sizeof(icondiff_diffusion_args));
  if (run_args) *run_args = static_cast<int>(sizeof(icondiff_run_args));
}

}  // extern "C"
