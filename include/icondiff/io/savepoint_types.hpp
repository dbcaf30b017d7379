// The savepoint of one diffusion granule call in memory: DiffusionSavepoint (host copies of
// every input, "diffusion-init", or of every output, "diffusion-exit"), the reference to the grid
// it was captured on, and the one-line capture and replay helpers that move the state structs
// between memory spaces. Files: savepoint_file.hpp; comparison: savepoint_comparison.hpp; all
// three through diffusion_savepoint.hpp. Kokkos must be initialised before capturing (the fields
// are Kokkos Views).
#pragma once

#include <icondiff/comm/local_fields.hpp>
#include <icondiff/core/error.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/diffusion/diffusion_config.hpp>
#include <icondiff/diffusion/diffusion_inputs.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/grid/grid.hpp>
#include <icondiff/grid/vertical_grid.hpp>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace icondiff {

/// Which side of the granule call a savepoint holds (ICON4Py's savepoint names).
enum class SavepointKind {
  Init,  ///< "<granule>-init": every input, before the call
  Exit,  ///< "<granule>-exit": the outputs (diffusion: vn, w, theta_v, exner, div_ic, hdef_ic,
         ///< dwdx, dwdy; solve_nh: solve_nh_savepoint_types.hpp)
};

/// The diffusion's names: "diffusion-init" or "diffusion-exit" (SavepointIdentity::name() for
/// any granule).
const char* to_string(SavepointKind kind);
/// The inverse of to_string; throws InvalidArgument for any other name.
SavepointKind parse_savepoint_kind(const std::string& name);

/// The granule whose call a savepoint holds.
enum class SavepointGranule {
  Diffusion,  ///< DiffusionSavepoint (this header)
  SolveNh,    ///< SolveNhSavepoint (solve_nh_savepoint_types.hpp)
};

/// "diffusion" or "solve_nh".
const char* to_string(SavepointGranule granule);

/// What a savepoint file is: whose call, which side of it.
struct SavepointIdentity {
  SavepointGranule granule = SavepointGranule::Diffusion;
  SavepointKind kind = SavepointKind::Init;

  /// The file's `savepoint` attribute: "diffusion-init", "solve_nh-exit", ...
  std::string name() const;
  bool operator==(const SavepointIdentity& o) const {
    return granule == o.granule && kind == o.kind;
  }
  bool operator!=(const SavepointIdentity& o) const { return !(*this == o); }
};

/// A savepoint file cannot be read or written. Knows the file, the variable or global attribute
/// (empty when the problem concerns the whole file) and, where it applies, the point index.
class SavepointFileError : public Error {
 public:
  /// `index` < 0 means "not about one element".
  SavepointFileError(std::string file, std::string variable, long long index,
                     const std::string& problem);

  const std::string& file() const noexcept { return file_; }
  const std::string& variable() const noexcept { return variable_; }
  long long index() const noexcept { return index_; }
  /// The message without the location prefix.
  const std::string& problem() const noexcept { return problem_; }

 private:
  std::string file_;
  std::string variable_;
  long long index_;
  std::string problem_;
};

/// What a replay needs to know to check that it runs on the grid the savepoint was captured on.
/// The grid itself is not stored: `source` says where to get it again.
struct SavepointGridReference {
  /// Where the grid comes from, as the capturing caller chose to say it: a grid file path, a
  /// generator spec such as "generate:R2B4", ... Informative; never compared.
  std::string source;
  std::string uuid;  ///< uuidOfHGrid; empty if unknown
  index_t num_cells = 0;
  index_t num_edges = 0;
  index_t num_vertices = 0;
  bool limited_area = false;
  /// Zone ranges per Location (cell, edge, vertex); zones that do not exist for a location
  /// (e.g. LATERAL_BOUNDARY_LEVEL_5 for cells) are {0, 0}.
  std::array<Zones, 3> zones;
};

/// The reference of `grid`; `grid_source` defaults to grid.source.
SavepointGridReference make_grid_reference(const Grid& grid, const std::string& grid_source = "");

/// Throws GridError naming the first difference (uuid when both are known, sizes, limited_area,
/// any zone range) between the savepoint's grid and `grid`.
void check_same_grid(const SavepointGridReference& reference, const Grid& grid);

namespace detail {
void check_same_grid(const SavepointGridReference& reference, const std::string* uuid,
                     index_t num_cells, index_t num_edges, index_t num_vertices, bool limited_area,
                     const std::array<Zones, 3>& zones);
}  // namespace detail

/// As above for a DeviceGrid, which does not carry the uuid (only sizes and zones are compared).
template <class MemorySpace>
void check_same_grid(const SavepointGridReference& reference, const DeviceGrid<MemorySpace>& grid) {
  detail::check_same_grid(reference, nullptr, grid.num_cells, grid.num_edges, grid.num_vertices,
                          grid.limited_area, grid.zones);
}

/// One diffusion granule call, on the host. Fields are (points, levels) / (points, slots
/// [, levels]) LayoutLeft Views exactly as in the state structs; half-level fields have nlev + 1
/// levels. An exit savepoint holds only the prognostic and diagnostic fields; its metric,
/// interpolation, edge and cell Views are empty. zd_vertoffset, zd_diffcoef and zd_intcoef may
/// be empty when config.apply_zdiffusion_t is false (the granule does not read them then).
struct DiffusionSavepoint {
  using memory_space = Kokkos::HostSpace;

  SavepointKind kind = SavepointKind::Init;
  DiffusionConfig config;
  double dtime = 0.0;        ///< argument of run() [s]
  bool initial_run = false;  ///< argument of run() (ICON linit)
  SavepointGridReference grid;
  VerticalGrid vertical;

  DiffusionPrognosticState<memory_space> prognostic;        ///< vn, w, theta_v, exner
  DiffusionDiagnosticState<memory_space> diagnostic;        ///< hdef_ic, div_ic, dwdx, dwdy
  DiffusionMetricState<memory_space> metric;                ///< init only
  DiffusionInterpolationState<memory_space> interpolation;  ///< init only
  DiffusionEdgeParams<memory_space> edges;                  ///< init only
  DiffusionCellParams<memory_space> cells;                  ///< init only

  /// Set when the call ran on one rank of a decomposed grid: the fields then hold that rank's
  /// local points (owned and halo), `grid` describes the local grid (sizes, zones; `source` and
  /// `uuid` are the whole grid's), and this says where each local point sits in the whole grid.
  /// merge_rank_savepoints (io/rank_savepoints.hpp) puts a set of them back together.
  std::optional<RankPoints> decomposition;

  /// Free-form text (date, rank, who captured it, ICON experiment ...). Keys: letters, digits and
  /// "_.+-@", starting with a letter, digit or "_"; values: text without NUL characters.
  std::map<std::string, std::string> metadata;

  int num_levels() const { return vertical.num_levels(); }
};

// ---- Moving the state structs between memory spaces -------------------------------------------

/// Deep copy of a state struct in memory space `To` (fresh allocations, even when `To` is the
/// source's space: a capture must not alias the fields run() updates in place). Views are
/// labelled "icondiff::savepoint::<field>"; empty fields stay empty.
template <class To, template <class> class State, class From>
State<To> mirror_copy(const State<From>& state) {
  return copy_state<To>(state, "icondiff::savepoint::");
}

// ---- Capture and replay -----------------------------------------------------------------------

/// An init savepoint of the call run(diagnostic, prognostic, dtime, initial_run) of a granule
/// built from `inputs` (copied to the host now; call it before run() updates them).
template <class MemorySpace>
DiffusionSavepoint capture_diffusion_init(const DiffusionConfig& config,
                                          const SavepointGridReference& grid,
                                          const DiffusionInputs<MemorySpace>& inputs,
                                          const DiffusionDiagnosticState<MemorySpace>& diagnostic,
                                          const DiffusionPrognosticState<MemorySpace>& prognostic,
                                          double dtime, bool initial_run,
                                          std::map<std::string, std::string> metadata = {}) {
  using H = Kokkos::HostSpace;
  DiffusionSavepoint s;
  s.kind = SavepointKind::Init;
  s.config = config;
  s.dtime = dtime;
  s.initial_run = initial_run;
  s.grid = grid;
  s.vertical = inputs.vertical;
  s.prognostic = mirror_copy<H>(prognostic);
  s.diagnostic = mirror_copy<H>(diagnostic);
  s.metric = mirror_copy<H>(inputs.metric);
  s.interpolation = mirror_copy<H>(inputs.interpolation);
  s.edges = mirror_copy<H>(inputs.edges);
  s.cells = mirror_copy<H>(inputs.cells);
  s.metadata = std::move(metadata);
  return s;
}

/// The exit savepoint that belongs to `init` (same config, dtime, grid, vertical grid and
/// metadata) holding host copies of the outputs (call it after run()).
template <class MemorySpace>
DiffusionSavepoint capture_diffusion_exit(const DiffusionSavepoint& init,
                                          const DiffusionDiagnosticState<MemorySpace>& diagnostic,
                                          const DiffusionPrognosticState<MemorySpace>& prognostic) {
  DiffusionSavepoint s;
  s.kind = SavepointKind::Exit;
  s.config = init.config;
  s.dtime = init.dtime;
  s.initial_run = init.initial_run;
  s.grid = init.grid;
  s.vertical = init.vertical;
  s.metadata = init.metadata;
  s.decomposition = init.decomposition;
  s.prognostic = mirror_copy<Kokkos::HostSpace>(prognostic);
  s.diagnostic = mirror_copy<Kokkos::HostSpace>(diagnostic);
  return s;
}

/// The input bundle of an init savepoint in `MemorySpace`, on `grid` (which must be the grid the
/// savepoint was captured on: throws GridError naming the first difference otherwise).
template <class MemorySpace>
DiffusionInputs<MemorySpace> diffusion_inputs_from_savepoint(const DiffusionSavepoint& savepoint,
                                                             const DeviceGrid<MemorySpace>& grid) {
  check_same_grid(savepoint.grid, grid);
  DiffusionInputs<MemorySpace> in;
  in.grid = grid;
  in.vertical = savepoint.vertical;
  in.metric = mirror_copy<MemorySpace>(savepoint.metric);
  in.interpolation = mirror_copy<MemorySpace>(savepoint.interpolation);
  in.edges = mirror_copy<MemorySpace>(savepoint.edges);
  in.cells = mirror_copy<MemorySpace>(savepoint.cells);
  return in;
}

}  // namespace icondiff
