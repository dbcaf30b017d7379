// Diffusion savepoints: every input of one call of the diffusion granule ("diffusion-init") or
// every output ("diffusion-exit") in one self-describing netCDF file, so that a call captured
// anywhere (a C++ driver, ICON through the C/Fortran API, one MPI rank of many) can be replayed
// standalone and its outputs compared with ICON4Py's datatest tolerances. The savepoint names and
// the init/exit split follow ICON4Py's Serialbox savepoints (diffusion_spec.md §5.2); the file
// format is our own and is specified in docs/dev/savepoints.md.
//
// Everything here works on host copies (Kokkos::HostSpace); mirror_copy moves the state structs
// between memory spaces so capture and replay are one line per struct at the call site.
// Kokkos must be initialised before reading or capturing (the fields are Kokkos Views).
#pragma once

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
#include <cstddef>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace icondiff {

/// Value of the global attribute `icondiff_savepoint_format` this icondiff writes and reads.
inline constexpr int savepoint_format_version = 1;

/// Which side of the granule call a savepoint holds (ICON4Py's savepoint names).
enum class SavepointKind {
  Init,  ///< "diffusion-init": every input, before run()
  Exit,  ///< "diffusion-exit": the outputs vn, w, theta_v, exner, div_ic, hdef_ic, dwdx, dwdy
};

/// "diffusion-init" or "diffusion-exit".
const char* to_string(SavepointKind kind);
/// The inverse of to_string; throws InvalidArgument for any other name.
SavepointKind parse_savepoint_kind(const std::string& name);

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

// ---- Files ------------------------------------------------------------------------------------

/// netCDF flavour of a written savepoint. Auto: 64-bit offset (readable by every netCDF tool),
/// or CDF-5 when a variable would exceed the 4 GiB per-variable limit of that format.
enum class SavepointFileFormat { Auto, Offset64, Cdf5, Netcdf4 };

/// Writes `savepoint` to `path` (through a temporary file in the same folder renamed at the end,
/// so an interrupted write never leaves a truncated savepoint under `path`).
/// Throws ConfigError if the config or the vertical grid does not validate, InvalidArgument if a
/// field has the wrong extents or is missing, a metadata key is not a valid name or dtime is not
/// positive, and SavepointFileError if the file cannot be written.
void write_diffusion_savepoint(const std::string& path, const DiffusionSavepoint& savepoint,
                               SavepointFileFormat format = SavepointFileFormat::Auto);

/// Reads a savepoint written by write_diffusion_savepoint (any format; vp fields are converted
/// to this build's vp). Throws SavepointFileError naming the file, the variable or attribute and
/// the expectation for every problem: not netCDF or truncated, format version, unknown kind,
/// missing or malformed attributes, config values that are not a known enum value or that
/// DiffusionConfig::validate() rejects, an invalid vertical grid, missing variables, wrong
/// dimensions or sizes, integer offsets that are NaN, fractional or point outside the column.
DiffusionSavepoint read_diffusion_savepoint(const std::string& path);

// ---- Comparison -------------------------------------------------------------------------------

/// Tolerance of one output field: it passes where |actual - expected| <= atol + rtol |expected|
/// at every point (numpy.allclose with `expected` as the reference; NaN never passes).
struct FieldTolerance {
  std::string field;  ///< vn, w, theta_v, exner, div_ic, hdef_ic, dwdx or dwdy
  double atol = 0.0;
  double rtol = 1e-12;
  /// Compared only when config.shear_type >= 1 (ICON4Py compares the turbulence diagnostics
  /// only then).
  bool only_with_shear = false;
};

/// ICON4Py's datatest tolerances (tests/diffusion/utils.py::verify_diffusion_fields,
/// diffusion_spec.md §5.2), in output order. Edit the returned table to override.
std::vector<FieldTolerance> icon4py_diffusion_tolerances();

/// The result for one field.
struct FieldComparison {
  FieldTolerance tolerance;
  bool compared = false;  ///< false: skipped, `note` says why
  std::string note;
  std::size_t num_values = 0;
  std::size_t num_failing = 0;  ///< values beyond tolerance, NaN included
  std::size_t num_nan = 0;      ///< values where actual or expected is NaN
  /// Largest |actual - expected| over values where neither is NaN, and where (the first point
  /// with that error; -1 when every value agrees exactly).
  double max_abs_error = 0.0;
  index_t max_abs_point = -1;
  int max_abs_level = -1;
  /// Largest |actual - expected| / |expected| (infinite where expected is 0 and actual is not).
  double max_rel_error = 0.0;
  index_t max_rel_point = -1;
  int max_rel_level = -1;
  /// The value furthest beyond its tolerance (NaN first), -1 when every value passes.
  index_t worst_point = -1;
  int worst_level = -1;
  double worst_actual = 0.0;
  double worst_expected = 0.0;

  const std::string& field() const { return tolerance.field; }
  bool passed() const { return !compared || num_failing == 0; }
};

struct SavepointComparison {
  std::vector<FieldComparison> fields;  ///< in the order of the tolerance table

  bool passed() const;
  /// Names of the fields that were compared and failed.
  std::vector<std::string> failing_fields() const;
  /// The entry of `field`; throws InvalidArgument if it is not in the table.
  const FieldComparison& operator[](const std::string& field) const;
};

/// Compares the outputs of a run with the fields of `expected` (normally an exit savepoint),
/// field by field over whole arrays. Throws InvalidArgument for an unknown field name in
/// `tolerances`, or a field whose extents differ between `expected` and the actual state.
SavepointComparison compare_diffusion_outputs(
    const DiffusionSavepoint& expected,
    const DiffusionPrognosticState<Kokkos::HostSpace>& prognostic,
    const DiffusionDiagnosticState<Kokkos::HostSpace>& diagnostic,
    const std::vector<FieldTolerance>& tolerances = icon4py_diffusion_tolerances());

/// Outputs in another memory space are copied to the host first.
template <class MemorySpace>
SavepointComparison compare_diffusion_outputs(
    const DiffusionSavepoint& expected, const DiffusionPrognosticState<MemorySpace>& prognostic,
    const DiffusionDiagnosticState<MemorySpace>& diagnostic,
    const std::vector<FieldTolerance>& tolerances = icon4py_diffusion_tolerances()) {
  return compare_diffusion_outputs(expected, mirror_copy<Kokkos::HostSpace>(prognostic),
                                   mirror_copy<Kokkos::HostSpace>(diagnostic), tolerances);
}

/// Two savepoints (e.g. an exit savepoint from ICON and one from a replay).
SavepointComparison compare_diffusion_outputs(
    const DiffusionSavepoint& expected, const DiffusionSavepoint& actual,
    const std::vector<FieldTolerance>& tolerances = icon4py_diffusion_tolerances());

/// A table, one line per field (what `icondiff verify` prints), ending with PASSED or FAILED.
std::string format_comparison(const SavepointComparison& comparison);

}  // namespace icondiff
