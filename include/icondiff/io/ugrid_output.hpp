// Output of the diffusion state as a CF-1.8 / UGRID-1.0 netCDF file: the mesh topology and
// coordinates of the horizontal grid once, then one record per output time of the prognostic
// fields (vn, w, theta_v, exner) and the turbulence diagnostics (hdef_ic, div_ic, dwdx, dwdy):
// the fields of the DiffusionPrognosticState and DiffusionDiagnosticState field lists, whose
// location, levels, units and long_name the file carries.
// The file opens in xarray, uxarray/xugrid, CDO, ncview/Panoply and ParaView; every dimension,
// variable and attribute is listed in docs/user/output.md.
//
// Field data is host memory in FieldLayout order (point fastest: value (i, k) at [i + n · k]),
// which is the netCDF order of a (time, level, point) record.
//
// Decomposed runs write ONE file of the whole grid collectively (the MPI constructor): every rank
// hands over its local grid and local fields, its owned points go to contiguous blocks of the
// global numbering (comm/point_blocks.hpp) and each rank writes its block with netCDF's parallel
// I/O. No rank holds more than its part; the file equals, value for value, the one a single
// process writes from the whole grid.
#pragma once

#include <icondiff/config.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/grid/grid.hpp>

#if ICONDIFF_HAVE_MPI
#include <mpi.h>
#endif

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace icondiff {

/// A read-only view of host data: `size` doubles in FieldLayout order. Empty = not given.
struct HostFieldRef {
  const double* data = nullptr;
  std::size_t size = 0;

  HostFieldRef() = default;
  HostFieldRef(const std::vector<double>& values) : data(values.data()), size(values.size()) {}
  HostFieldRef(const double* values, std::size_t count) : data(values), size(count) {}
  bool empty() const { return size == 0; }
};

#define ICONDIFF_UGRID_HOST_FIELD_REF(name, ...) ::icondiff::HostFieldRef name;

/// One output time: one member per field of the prognostic and the diagnostic field lists, in
/// list order (vn, w, theta_v, exner, hdef_ic, div_ic, dwdx, dwdy). Shapes as in the lists
/// (diffusion_spec.md §4.1/§4.2): vn (E, nlev); w and the four diagnostics (C, nlev+1); theta_v
/// and exner (C, nlev). The prognostic fields are required; a diagnostic left empty is stored as
/// _FillValue for this time (e.g. before the first diffusion call, which computes them).
struct UgridOutputFields {
  ICONDIFF_DIFFUSION_PROGNOSTIC_FIELDS(ICONDIFF_UGRID_HOST_FIELD_REF)
  ICONDIFF_DIFFUSION_DIAGNOSTIC_FIELDS(ICONDIFF_UGRID_HOST_FIELD_REF)
  /// The dynamics' fields (written with UgridWriterOptions::write_dynamics, then required):
  /// the density rho (C, nlev) and the surface pressure pres_sfc (C; no level dimension).
  HostFieldRef rho;
  HostFieldRef pres_sfc;
};

#undef ICONDIFF_UGRID_HOST_FIELD_REF

/// On-disk format of the output file.
enum class UgridFileFormat {
  Classic64,  ///< netCDF classic 64-bit offset (CDF-2): read by every tool; < 4 GiB per record
  Netcdf4,    ///< netCDF-4 (HDF5) in the classic data model
};

struct UgridWriterOptions {
  /// Units of the time coordinate; write_step takes seconds since this reference.
  std::string time_reference = "2000-01-01 00:00:00";
  /// Store the fields as 32-bit floats (half the size; ICON's usual output precision). The grid
  /// and the coordinates are always stored in double precision.
  bool single_precision = false;
  /// Define div_ic, hdef_ic, dwdx and dwdy.
  bool write_diagnostics = true;
  /// Define rho and pres_sfc (a dynamics run's output).
  bool write_dynamics = false;
  UgridFileFormat format = UgridFileFormat::Classic64;
  /// Global attribute "title".
  std::string title = "icondiff horizontal diffusion output";
};

/// Writes a UGRID file: create it, call write_step once per output time (strictly increasing
/// times), then close() (the destructor closes too, but cannot report errors). After each step
/// the file is flushed, so a crashed run leaves every complete step readable.
class UgridWriter {
 public:
  /// Writes the grid to a temporary file beside `path` (`<path>.tmp.<pid>.<n>`), which close()
  /// renames to `path` (replacing a file of that name only then): a run that fails before
  /// close() leaves no half-written file, and an older `path` untouched. Callers that must not
  /// replace an existing file check that themselves (the CLI's --overwrite). `full_level_heights`
  /// (nlev values) and `half_level_heights` (nlev + 1 values) are the nominal heights in metres,
  /// top first (the vertical grid's vct_a gives the half levels; the full levels are usually their
  /// midpoints). `global_attributes` are written as text global attributes, e.g. the diffusion
  /// configuration under ICON namelist names ("diffusion_nml:hdiff_order" -> "5"); they may replace
  /// the title, institution, source, history, references and comment written by default, not
  /// Conventions.
  ///
  /// Throws InvalidArgument for inconsistent heights (sizes, non-finite, not strictly
  /// decreasing), attribute names netCDF cannot store or "Conventions"; GridError if the grid
  /// lacks coordinates or connectivity; OutputFileError (naming `path`) if it cannot be written.
  UgridWriter(const std::string& path, const Grid& grid, std::vector<double> full_level_heights,
              std::vector<double> half_level_heights,
              const std::map<std::string, std::string>& global_attributes = {},
              const UgridWriterOptions& options = {});
#if ICONDIFF_HAVE_MPI
  /// Collective over `comm`: the file of the whole grid, written by every rank. `local_grid` is
  /// this rank's part (make_local_grid or grid_from_icon_arrays: global indices, owners and halo
  /// levels set; on one rank the whole grid also does); its owned points are what this rank
  /// contributes, and write_step then takes this rank's local fields (owned and halo points, the
  /// local grid's sizes; halo values are not written). The other arguments, which must be the
  /// same on every rank, and the file written are as above: equal in every value to the file a
  /// single process writes from the whole grid. Every member function is then collective, the
  /// destructor too. Errors are agreed: every rank throws CollectiveError with the message of the
  /// lowest failing rank (the ranks' owned points not covering the grid exactly once among them).
  UgridWriter(MPI_Comm comm, const std::string& path, const Grid& local_grid,
              std::vector<double> full_level_heights, std::vector<double> half_level_heights,
              const std::map<std::string, std::string>& global_attributes = {},
              const UgridWriterOptions& options = {});
#endif
  ~UgridWriter();
  UgridWriter(const UgridWriter&) = delete;
  UgridWriter& operator=(const UgridWriter&) = delete;

  /// Appends one output time (seconds since options.time_reference). Diagnostics are ignored
  /// when write_diagnostics is off. Throws InvalidArgument for a missing prognostic field, a
  /// field of the wrong size, a non-finite time or one not after the previous step; Error if the
  /// writer is closed; OutputFileError if writing fails.
  void write_step(double time_seconds, const UgridOutputFields& fields);

  /// The same from Views in any memory space (copied to the host). `diagnostics` may be null or
  /// hold unallocated Views, which are stored as _FillValue.
  template <class MemorySpace>
  void write_step(double time_seconds, const DiffusionPrognosticState<MemorySpace>& prognostic,
                  const DiffusionDiagnosticState<MemorySpace>* diagnostics = nullptr);

  /// Finishes the file. Further write_step calls throw; close() again does nothing.
  void close();

  const std::string& path() const;
  /// Bytes of field data written so far by all ranks (the records, not the grid).
  std::size_t field_bytes_written() const;
  /// Number of output times written so far.
  std::size_t steps_written() const;
  int num_levels() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The host copy, in FieldLayout order and double precision, of a 2-D View in any memory space
/// (an unallocated View gives an empty vector).
template <class View>
std::vector<double> host_field_copy(const View& view) {
  std::vector<double> out;
  if (view.data() == nullptr || view.size() == 0) return out;
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  const std::size_t n = host.extent(0), nk = host.extent(1);
  out.resize(n * nk);
  for (std::size_t k = 0; k < nk; ++k)
    for (std::size_t i = 0; i < n; ++i) out[i + n * k] = static_cast<double>(host(i, k));
  return out;
}

template <class MemorySpace>
void UgridWriter::write_step(double time_seconds,
                             const DiffusionPrognosticState<MemorySpace>& prognostic,
                             const DiffusionDiagnosticState<MemorySpace>* diagnostics) {
  using Prognostic = DiffusionPrognosticState<MemorySpace>;
  using Diagnostic = DiffusionDiagnosticState<MemorySpace>;
  UgridOutputFields fields;
  // The host copies `fields` refers to (reserved: no reallocation moves them while referred to).
  std::vector<std::vector<double>> copies;
  copies.reserve(Prognostic::num_fields + Diagnostic::num_fields);
  const auto copy = [&copies](const FieldSpec&, const auto& view, HostFieldRef& ref) {
    copies.push_back(host_field_copy(view));
    ref = copies.back();
  };
  Prognostic::for_each_field(copy, prognostic, fields);
  if (diagnostics) Diagnostic::for_each_field(copy, *diagnostics, fields);
  write_step(time_seconds, fields);
}

}  // namespace icondiff
