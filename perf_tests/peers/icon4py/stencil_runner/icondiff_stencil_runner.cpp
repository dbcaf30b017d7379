// icondiff_stencil_runner: runs ONE icondiff diffusion stencil (an ICON4Py program or one of its
// elementary stencils, include/icondiff/stencils/) on an ICON grid over exactly the range the
// granule (diffusion_spec.md §3) uses, or one dycore program over the domain the Dycore gives
// it (solve_nonhydro's), on inputs read from a netCDF file, and writes its outputs
// to a netCDF file. compare_stencils.py runs ICON4Py's program on the same inputs and compares.
//
// Inputs file: one variable per program argument, named exactly as ICON4Py's argument. A field
// of ICON4Py shape (point, level) is stored with netCDF dimensions (level, point), i.e. the C
// order of the transposed array, which is byte for byte our LayoutLeft (point, level) View. In
// general the netCDF dimensions are the View's extents reversed: (E, 4) tables are stored as
// (4, E), (C, 3, K) fields as (K, 3, C). Scalars are 0-d variables (bools as integers). The
// number of levels is the length of dimension "K". Output buffers (in/out fields and the outputs,
// pre-filled by the caller, e.g. with a poison value) are inputs too; the runner writes every
// output array whole, so points outside the range can be checked to be untouched.
//
// Zone-derived values (ranges, start_2nd_nudge_line_idx_e, interior_idx, halo_idx) come from
// icondiff's own grid zones, never from the file; they are written as global attributes of the
// output (icondiff_<name>) so the caller can compare them with ICON4Py's. The same holds for the
// grid's limited_area flag, except that apply_diffusion_to_vn takes its limited_area argument
// from the file when the file has one (the caller's case with the flag flipped).
//
// The ICON4Py programs are built by the granule's factories (diffusion/diffusion_stencils.hpp):
// each reads its ICON4Py-named inputs into the input bundle, the temporaries, the states and the
// parameters under icondiff's member names (e.g. vcoef -> metric.zd_intcoef, theta_v_in ->
// temporaries.theta_v_tmp), so the runner launches exactly the body the granule launches.
//
// The fourteen dycore programs (compute_rho_theta_pgrad_and_update_vn,
// apply_divergence_damping_and_update_vn, vertically_implicit_solver_at_predictor_step,
// vertically_implicit_solver_at_corrector_step, velocity advection's
// compute_diagnostics_from_normal_wind, compute_advection_in_predictor_vertical_momentum,
// compute_advection_in_corrector_vertical_momentum and compute_advection_in_horizontal_momentum,
// and solve_nonhydro's small point programs compute_exner_from_rhotheta,
// update_theta_and_exner_in_halo, init_cell_kdim_field_with_zero_wp, update_mass_flux_weighted,
// compute_dwdz_for_divergence_damping and compute_hydrostatic_correction_term;
// ../compare_dycore.py) run through Dycore<Space>:
// the runner fills a DycoreInputs bundle from the file (ICON4Py argument names mapped to the
// bundle's members, e.g. ikoffset -> metric.vertoffset_gradp, pos_on_tplane_e_x ->
// interpolation.pos_on_tplane_e_1, inv_dual_edge_length -> edges.inverse_dual_edge_lengths,
// inv_primal_edge_length -> edges.inverse_primal_edge_lengths, area_edge -> edges.edge_areas,
// area -> cells.cell_area, owner_mask -> cells.c_owner_mask; update_mass_flux_weighted's
// vwind_expl_wgt / vwind_impl_wgt -> metric.exner_w_explicit/implicit_weight_parameter; a
// static field the program does not read may be absent and is then zero; nflatlev, nflat_gradp,
// end_index_of_damping_layer, kstart_moist, mean_cell_area from the file when present), the
// call's arguments (RhoThetaPgradArguments, DivergenceDampingArguments, SolverPredictorArguments,
// SolverCorrectorArguments, DiagnosticsFromNormalWindArguments,
// AdvectionInPredictorVerticalMomentumArguments, AdvectionInCorrectorVerticalMomentumArguments,
// AdvectionInHorizontalMomentumArguments, ExnerFromRhothetaArguments, ...: same names as
// ICON4Py's; velocity advection's cfl_w_limit and scalfac_exdiff from the file's dtime by
// velocity_advection_scale_factors()), a DycoreConfig (divdamp_order, divdamp_type,
// rayleigh_type, max_nudging_coefficient, veladv_offctr, fourth_order_divdamp_factor from the
// file when present), and runs the program over the domain the Dycore computes
// (rho_theta_pgrad_domain(), divergence_damping_domain(), solver_domain() and for the
// predictor's interpolation contravariant_correction_domain(),
// diagnostics_from_normal_wind_domain(), advection_in_vertical_momentum_domain(),
// advection_in_horizontal_momentum_domain(), lateral_boundary_cells_domain(),
// halo_cells_domain(), hydrostatic_correction_domain()), written as icondiff_horizontal_* /
// icondiff_vertical_* (icondiff_interpolation_*) like the other stencils, with the zone values
// and derived scalars the Dycore uses (icondiff_start_edge_nudging_level_2,
// icondiff_start_cell_index_nudging, icondiff_advection_explicit_weight_parameter, ...). A file
// with the four int scalars horizontal_start, horizontal_end, vertical_start and vertical_end
// (ICON4Py's names) runs the program over that domain instead (the Dycore's `domain` argument;
// e.g. the halo's program over all cells of a single-rank grid, whose halo is empty): then
// icondiff_domain_from_file is 1, and the Dycore's own domain is still written, as
// icondiff_default_horizontal_* / icondiff_default_vertical_*. The outputs are written after the
// first call; --time N then times N more calls of the program alone, each fenced:
// icondiff_call_seconds (every call) and icondiff_call_seconds_median.
//
// Every output also has the attributes vp_bytes (sizeof(vp): 4 in a -DICONDIFF_MIXED_PRECISION=ON
// build) and input_float_bytes ("name:bytes ...": the element size each floating-point input was
// read with, i.e. the type icondiff gives that argument), so that the caller can check icondiff's
// argument types against ICON4Py's (compare_dycore.py --precision mixed).
#include <icondiff/core/error.hpp>
#include <icondiff/core/launch.hpp>
#include <icondiff/core/physical_constants.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/diffusion/diffusion_inputs.hpp>
#include <icondiff/diffusion/diffusion_params.hpp>
#include <icondiff/diffusion/diffusion_states.hpp>
#include <icondiff/diffusion/diffusion_stencils.hpp>
#include <icondiff/dycore/dycore.hpp>
#include <icondiff/dycore/dycore_config.hpp>
#include <icondiff/dycore/dycore_inputs.hpp>
#include <icondiff/dycore/dycore_states.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/stencils/apply_diffusion_to_theta_and_exner.hpp>
#include <icondiff/stencils/apply_diffusion_to_vn.hpp>
#include <icondiff/stencils/apply_diffusion_to_w.hpp>
#include <icondiff/stencils/cold_pools.hpp>
#include <icondiff/stencils/diagnostic_quantities_for_turbulence.hpp>
#include <icondiff/stencils/fused_diffusion.hpp>
#include <icondiff/stencils/nabla2_and_smag_coefficients_for_vn.hpp>
#include <icondiff/stencils/rbf_vec_interpol_vertex.hpp>

#include <fmt/format.h>
#include <netcdf.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace icondiff::stencil_runner {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
template <class T>
using V1 = Kokkos::View<T*, FieldLayout, Mem>;
template <class T>
using V2 = Kokkos::View<T**, FieldLayout, Mem>;
template <class T>
using V3 = Kokkos::View<T***, FieldLayout, Mem>;

std::string label(const std::string& name) {
  return "icondiff::stencil_runner::" + name;
}

void check_nc(int status, const std::string& file, const std::string& what) {
  if (status != NC_NOERR)
    throw InvalidArgument(fmt::format("{}: {}: {}", file, what, nc_strerror(status)));
}

int nc_get(int ncid, int varid, double* p) {
  return nc_get_var_double(ncid, varid, p);
}
int nc_get(int ncid, int varid, float* p) {
  return nc_get_var_float(ncid, varid, p);
}
int nc_get(int ncid, int varid, int* p) {
  return nc_get_var_int(ncid, varid, p);
}

template <class T>
constexpr nc_type nc_type_of() {
  if constexpr (std::is_same_v<T, double>) return NC_DOUBLE;
  if constexpr (std::is_same_v<T, float>) return NC_FLOAT;
  return NC_INT;
}

// ---- Input file -------------------------------------------------------------------------------

/// The inputs: variables read whole into Views whose extents are the netCDF dimensions reversed.
class InputFile {
 public:
  explicit InputFile(std::string path) : path_(std::move(path)) {
    check_nc(nc_open(path_.c_str(), NC_NOWRITE, &ncid_), path_, "cannot open");
  }
  ~InputFile() { nc_close(ncid_); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }

  bool has(const std::string& name) const {
    int varid = 0;
    return nc_inq_varid(ncid_, name.c_str(), &varid) == NC_NOERR;
  }

  std::size_t dimension(const std::string& name) const {
    int dimid = 0;
    check_nc(nc_inq_dimid(ncid_, name.c_str(), &dimid), path_, "dimension " + name);
    std::size_t n = 0;
    check_nc(nc_inq_dimlen(ncid_, dimid, &n), path_, "dimension " + name);
    return n;
  }

  /// The variable's dimension names and lengths, outermost first.
  std::pair<std::vector<std::string>, std::vector<std::size_t>> shape(
      const std::string& name) const {
    const int varid = variable(name);
    int ndims = 0;
    check_nc(nc_inq_varndims(ncid_, varid, &ndims), path_, name);
    std::vector<int> dimids(static_cast<std::size_t>(ndims));
    if (ndims > 0) check_nc(nc_inq_vardimid(ncid_, varid, dimids.data()), path_, name);
    std::vector<std::string> names;
    std::vector<std::size_t> lens;
    for (const int d : dimids) {
      char buf[NC_MAX_NAME + 1] = {};
      std::size_t n = 0;
      check_nc(nc_inq_dim(ncid_, d, buf, &n), path_, name);
      names.emplace_back(buf);
      lens.push_back(n);
    }
    return {names, lens};
  }

  /// Reads `name`, whose View extents (the netCDF dimensions reversed) must be `extents`.
  template <class T>
  std::vector<T> read(const std::string& name, const std::vector<std::size_t>& extents) const {
    const std::vector<std::size_t> lens = shape(name).second;
    const std::vector<std::size_t> reversed(lens.rbegin(), lens.rend());
    if (reversed != extents) {
      std::string want, got;
      for (const auto e : extents) want += fmt::format("{} ", e);
      for (const auto e : reversed) got += fmt::format("{} ", e);
      throw InvalidArgument(
          fmt::format("{}: variable {} has (reversed netCDF) extents [ {}], "
                      "expected [ {}]",
                      path_, name, got, want));
    }
    std::size_t n = 1;
    for (const auto e : extents) n *= e;
    std::vector<T> values(n);
    check_nc(nc_get(ncid_, variable(name), values.data()), path_, "reading " + name);
    if constexpr (std::is_floating_point_v<T>) float_bytes_[name] = sizeof(T);
    return values;
  }

  /// The element size each floating-point variable was read with: the type of the View or
  /// scalar it went to (4 for a vp field of a mixed-precision build).
  const std::map<std::string, std::size_t>& float_bytes() const { return float_bytes_; }

  template <class T>
  T scalar(const std::string& name) const {
    return read<T>(name, {}).at(0);
  }

 private:
  int variable(const std::string& name) const {
    int varid = 0;
    check_nc(nc_inq_varid(ncid_, name.c_str(), &varid), path_, "variable " + name);
    return varid;
  }

  std::string path_;
  int ncid_ = -1;
  mutable std::map<std::string, std::size_t> float_bytes_;
};

// ---- Output file ------------------------------------------------------------------------------

struct OutputVariable {
  std::string name;
  std::vector<std::string> dims;  ///< outermost first
  std::vector<std::size_t> lens;
  nc_type type = NC_DOUBLE;
  std::vector<unsigned char> bytes;
};

class OutputFile {
 public:
  template <class T>
  void add(const std::string& name, std::vector<std::string> dims, std::vector<std::size_t> lens,
           const T* data) {
    std::size_t n = 1;
    for (const auto l : lens) n *= l;
    OutputVariable v{name, std::move(dims), std::move(lens), nc_type_of<T>(), {}};
    v.bytes.resize(n * sizeof(T));
    if (n > 0) std::memcpy(v.bytes.data(), data, n * sizeof(T));
    // A name written again (--repeat runs a stencil function, writes included, N times) keeps
    // the last values instead of defining the variable twice.
    for (auto& existing : variables_)
      if (existing.name == v.name) {
        existing = std::move(v);
        return;
      }
    variables_.push_back(std::move(v));
  }
  void attribute(const std::string& name, long long value) { integers_[name] = value; }
  void attribute(const std::string& name, const std::string& value) { texts_[name] = value; }
  /// A double attribute (named apart from attribute(): an int argument would be ambiguous).
  void real_attribute(const std::string& name, double value) { reals_[name] = value; }

  void write(const std::string& path) const {
    int ncid = -1;
    check_nc(nc_create(path.c_str(), NC_CLOBBER | NC_64BIT_DATA, &ncid), path, "cannot create");
    std::map<std::string, int> dimids;
    std::vector<std::vector<int>> var_dims;
    for (const auto& v : variables_) {
      std::vector<int> ids;
      for (std::size_t i = 0; i < v.dims.size(); ++i) {
        auto it = dimids.find(v.dims[i]);
        if (it == dimids.end()) {
          int id = 0;
          check_nc(nc_def_dim(ncid, v.dims[i].c_str(), v.lens[i], &id), path, v.dims[i]);
          it = dimids.emplace(v.dims[i], id).first;
        }
        ids.push_back(it->second);
      }
      var_dims.push_back(ids);
    }
    std::vector<int> varids;
    for (std::size_t i = 0; i < variables_.size(); ++i) {
      int id = 0;
      const auto& v = variables_[i];
      check_nc(nc_def_var(ncid, v.name.c_str(), v.type, static_cast<int>(var_dims[i].size()),
                          var_dims[i].data(), &id),
               path, v.name);
      varids.push_back(id);
    }
    for (const auto& [name, value] : integers_)
      check_nc(nc_put_att_longlong(ncid, NC_GLOBAL, name.c_str(), NC_INT64, 1, &value), path, name);
    for (const auto& [name, value] : reals_)
      check_nc(nc_put_att_double(ncid, NC_GLOBAL, name.c_str(), NC_DOUBLE, 1, &value), path, name);
    for (const auto& [name, value] : texts_)
      check_nc(nc_put_att_text(ncid, NC_GLOBAL, name.c_str(), value.size(), value.c_str()), path,
               name);
    check_nc(nc_enddef(ncid), path, "enddef");
    for (std::size_t i = 0; i < variables_.size(); ++i)
      check_nc(nc_put_var(ncid, varids[i], variables_[i].bytes.data()), path,
               "writing " + variables_[i].name);
    check_nc(nc_close(ncid), path, "close");
  }

 private:
  std::vector<OutputVariable> variables_;
  std::map<std::string, long long> integers_;
  std::map<std::string, double> reals_;
  std::map<std::string, std::string> texts_;
};

// ---- Context: grid, inputs, outputs, launch ---------------------------------------------------

struct Context {
  const Grid& grid;
  const DeviceGrid<Mem>& device;
  InputFile& in;
  OutputFile& out;
  LoopSchedule schedule;
  index_t nlev = 0;
  std::string stencil;
  /// --time: calls of a dycore program timed after the first.
  int timed_calls = 0;

  std::size_t ne() const { return static_cast<std::size_t>(grid.num_edges); }
  std::size_t nc() const { return static_cast<std::size_t>(grid.num_cells); }
  std::size_t nv() const { return static_cast<std::size_t>(grid.num_vertices); }
  std::size_t k() const { return static_cast<std::size_t>(nlev); }

  IndexRange range(Location l, Zone from, Zone to) const {
    return {device.range(l, from).start, device.range(l, to).end};
  }
  /// S8's w_start: S(C, NUDGING) on limited-area grids, S(C, LB4) otherwise.
  Zone w_start_zone() const { return grid.limited_area ? Zone::Nudging : Zone::LateralBoundary4; }

  template <class T>
  V1<T> vector(const std::string& name, std::size_t n) const {
    return to_device<V1<T>>(name, in.read<T>(name, {n}), n);
  }
  template <class T>
  V2<T> field(const std::string& name, std::size_t n0, std::size_t n1) const {
    return to_device<V2<T>>(name, in.read<T>(name, {n0, n1}), n0, n1);
  }
  template <class T>
  V3<T> field3(const std::string& name, std::size_t n0, std::size_t n1, std::size_t n2) const {
    return to_device<V3<T>>(name, in.read<T>(name, {n0, n1, n2}), n0, n1, n2);
  }
  /// A View of any rank with the given extents from variable `name`; with `zero_if_absent`, a
  /// zero View when the file has no such variable.
  template <class ViewType>
  ViewType view(const std::string& name, const std::vector<std::size_t>& extents,
                bool zero_if_absent = false) const {
    static_assert(ViewType::rank >= 1 && ViewType::rank <= 3);
    using T = typename ViewType::non_const_value_type;
    if (extents.size() != ViewType::rank)
      throw InvalidArgument(
          fmt::format("{}: rank of {} differs from its extents", in.path(), name));
    const std::vector<T> values =
        zero_if_absent && !in.has(name) ? std::vector<T>() : in.read<T>(name, extents);
    if constexpr (ViewType::rank == 1)
      return to_device<ViewType>(name, values, extents[0]);
    else if constexpr (ViewType::rank == 2)
      return to_device<ViewType>(name, values, extents[0], extents[1]);
    else
      return to_device<ViewType>(name, values, extents[0], extents[1], extents[2]);
  }
  /// A scalar from the file, or `fallback` when the file has none.
  template <class T>
  T scalar_or(const std::string& name, T fallback) const {
    return in.has(name) ? in.scalar<T>(name) : fallback;
  }

  /// A 2-D field whose level extent is whatever the file holds (nlev or nlev + 1).
  template <class T>
  V2<T> field_any_levels(const std::string& name, std::size_t n0) const {
    const auto lens = in.shape(name).second;
    if (lens.size() != 2) throw InvalidArgument(fmt::format("{}: {} must be 2-D", in.path(), name));
    return field<T>(name, n0, lens[0]);
  }

  /// Writes a View whole, with the dimension names the input variable of that name has (or
  /// `dims` when given).
  template <class ViewType>
  void write(const std::string& name, const ViewType& view,
             std::vector<std::string> dims = {}) const {
    using T = typename ViewType::non_const_value_type;
    auto host = Kokkos::create_mirror_view(view);
    Kokkos::deep_copy(host, view);
    const auto file_order = as_file_order(host);
    std::vector<std::size_t> lens;
    for (int r = static_cast<int>(ViewType::rank) - 1; r >= 0; --r)
      lens.push_back(view.extent(static_cast<unsigned>(r)));
    if (dims.empty() && in.has(name)) dims = in.shape(name).first;
    for (std::size_t i = dims.size(); i < lens.size(); ++i)
      dims.push_back(fmt::format("{}_dim{}", name, i));
    out.add<T>(name, dims, lens, file_order.data());
  }

  template <class Body>
  void launch(IndexRange points, index_t k0, index_t k1, const Body& body) const {
    out.attribute("icondiff_horizontal_start", points.start);
    out.attribute("icondiff_horizontal_end", points.end);
    out.attribute("icondiff_vertical_start", k0);
    out.attribute("icondiff_vertical_end", k1);
    parallel_for_points_levels(label(stencil), Space(), points, k0, k1, body, schedule);
    compat::fence(Space(), label(stencil));
  }

 private:
  template <class ViewType, class... Extents>
  ViewType to_device(const std::string& name,
                     const std::vector<typename ViewType::value_type>& values,
                     Extents... extents) const {
    ViewType view(label(name), extents...);
    auto host = Kokkos::create_mirror_view(view);
    if (!values.empty()) {
      // The file's order is LayoutLeft's; deep_copy transposes into a level-fastest build's.
      using FileOrder = Kokkos::View<typename ViewType::non_const_data_type, Kokkos::LayoutLeft,
                                     Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
      Kokkos::deep_copy(
          host, FileOrder(const_cast<typename ViewType::non_const_value_type*>(values.data()),
                          extents...));
    }
    Kokkos::deep_copy(view, host);
    return view;
  }

  /// `host` in the file's order (LayoutLeft, the extents reversed as netCDF dimensions): the
  /// View itself in ICON's layout, a transposed copy in a level-fastest build.
  template <class HostView>
  static auto as_file_order(const HostView& host) {
    if constexpr (std::is_same_v<typename HostView::array_layout, Kokkos::LayoutLeft>) {
      return host;
    } else {
      using FileOrder = Kokkos::View<typename HostView::non_const_data_type, Kokkos::LayoutLeft,
                                     Kokkos::HostSpace>;
      Kokkos::LayoutLeft layout;
      for (unsigned r = 0; r < HostView::rank; ++r) layout.dimension[r] = host.extent(r);
      FileOrder file_order(Kokkos::view_alloc(Kokkos::WithoutInitializing, "file_order"), layout);
      Kokkos::deep_copy(file_order, host);
      return file_order;
    }
  }
};

// ---- The stencils -----------------------------------------------------------------------------
namespace st = icondiff::stencils;
namespace factory = icondiff::diffusion_stencils;
using L = Location;
using Z = Zone;
using Inputs = DiffusionInputs<Mem>;
using Temporaries = DiffusionTemporaries<Mem>;

/// The input bundle on the runner's grid (its DeviceGrid, shared) with no fields: a program
/// reads the inputs it needs into it by name; the factory ignores the rest.
Inputs bundle(const Context& c) {
  Inputs in;
  in.grid = c.device;
  return in;
}

// S2/S5
void mo_intp_rbf_rbf_vec_interpol_vertex(Context& c) {
  auto u = c.field<vp>("p_u_out", c.nv(), c.k()), v = c.field<vp>("p_v_out", c.nv(), c.k());
  Inputs in = bundle(c);
  in.interpolation.rbf_coeff_1 = c.field<wp>("ptr_coeff_1", c.nv(), 6);
  in.interpolation.rbf_coeff_2 = c.field<wp>("ptr_coeff_2", c.nv(), 6);
  c.launch(c.range(L::Vertex, Z::LateralBoundary2, Z::Local), 0, c.nlev,
           factory::rbf_vec_interpol_vertex(in, c.field<wp>("p_e_in", c.ne(), c.k()), u, v));
  c.write("p_u_out", u);
  c.write("p_v_out", v);
}

// S3
void calculate_nabla2_and_smag_coefficients_for_vn(Context& c) {
  auto kh = c.field<vp>("kh_smag_e", c.ne(), c.k()), khc = c.field<vp>("kh_smag_ec", c.ne(), c.k());
  auto z2 = c.field<wp>("z_nabla2_e", c.ne(), c.k());
  Inputs in = bundle(c);
  in.edges.tangent_orientation = c.vector<wp>("tangent_orientation", c.ne());
  in.edges.inverse_primal_edge_lengths = c.vector<wp>("inv_primal_edge_length", c.ne());
  in.edges.inverse_vertex_vertex_lengths = c.vector<wp>("inv_vert_vert_length", c.ne());
  in.edges.primal_normal_vert_x = c.field<wp>("primal_normal_vert_x", c.ne(), 4);
  in.edges.primal_normal_vert_y = c.field<wp>("primal_normal_vert_y", c.ne(), 4);
  in.edges.dual_normal_vert_x = c.field<wp>("dual_normal_vert_x", c.ne(), 4);
  in.edges.dual_normal_vert_y = c.field<wp>("dual_normal_vert_y", c.ne(), 4);
  Temporaries t;
  t.diff_multfac_smag = c.vector<vp>("diff_multfac_smag", c.k());
  t.u_vert = c.field<vp>("u_vert", c.nv(), c.k());
  t.v_vert = c.field<vp>("v_vert", c.nv(), c.k());
  t.kh_smag_e = kh;
  t.kh_smag_ec = khc;
  t.z_nabla2_e = z2;
  c.launch(c.range(L::Edge, Z::LateralBoundary5, Z::Halo2), 0, c.nlev,
           factory::nabla2_and_smag_coefficients_for_vn(in, t, c.field<wp>("vn", c.ne(), c.k()),
                                                        c.vector<vp>("smag_limit", c.k()),
                                                        c.in.scalar<vp>("smag_offset")));
  c.write("kh_smag_e", kh);
  c.write("kh_smag_ec", khc);
  c.write("z_nabla2_e", z2);
}

// S4 and its two elementary stencils
st::TemporaryFieldsForTurbulenceDiagnostics<Mem> turbulence_temporaries(const Context& c) {
  st::TemporaryFieldsForTurbulenceDiagnostics<Mem> b;
  b.kh_smag_ec = c.field<vp>("kh_smag_ec", c.ne(), c.k());
  b.vn = c.field<wp>("vn", c.ne(), c.k());
  b.e_bln_c_s = c.field<wp>("e_bln_c_s", c.nc(), 3);
  b.geofac_div = c.field<wp>("geofac_div", c.nc(), 3);
  b.diff_multfac_smag = c.vector<vp>("diff_multfac_smag", c.k());
  b.c2e = c.device.c2e;
  return b;
}

void calculate_diagnostic_quantities_for_turbulence(Context& c) {
  DiffusionDiagnosticState<Mem> diagnostic;
  diagnostic.div_ic = c.field<vp>("div_ic", c.nc(), c.k() + 1);
  diagnostic.hdef_ic = c.field<vp>("hdef_ic", c.nc(), c.k() + 1);
  Inputs in = bundle(c);
  in.interpolation.e_bln_c_s = c.field<wp>("e_bln_c_s", c.nc(), 3);
  in.interpolation.geofac_div = c.field<wp>("geofac_div", c.nc(), 3);
  in.metric.wgtfac_c = c.field<vp>("wgtfac_c", c.nc(), c.k() + 1);
  Temporaries t;
  t.kh_smag_ec = c.field<vp>("kh_smag_ec", c.ne(), c.k());
  t.diff_multfac_smag = c.vector<vp>("diff_multfac_smag", c.k());
  c.launch(c.range(L::Cell, Z::Nudging, Z::Local), 1, c.nlev,
           factory::diagnostic_quantities_for_turbulence(in, t, diagnostic,
                                                         c.field<wp>("vn", c.ne(), c.k())));
  c.write("div_ic", diagnostic.div_ic);
  c.write("hdef_ic", diagnostic.hdef_ic);
}

void temporary_fields_for_turbulence_diagnostics(Context& c) {
  auto kh_c = c.field<vp>("kh_c", c.nc(), c.k()), div = c.field<vp>("div", c.nc(), c.k());
  c.launch(
      c.range(L::Cell, Z::Nudging, Z::Local), 0, c.nlev,
      st::StoreTemporaryFieldsForTurbulenceDiagnostics<Mem>{turbulence_temporaries(c), kh_c, div});
  c.write("kh_c", kh_c);
  c.write("div", div);
}

// ICON4Py's program has no domain: it writes div_ic[:, 1:] over every cell, so the caller passes
// div_ic and hdef_ic with nlev levels (as ICON4Py's own test) and the range is every cell.
void calculate_diagnostics_for_turbulence(Context& c) {
  auto div_ic = c.field<vp>("div_ic", c.nc(), c.k()),
       hdef_ic = c.field<vp>("hdef_ic", c.nc(), c.k());
  c.launch({0, c.grid.num_cells}, 1, c.nlev,
           st::CalculateDiagnosticsForTurbulence<Mem>{
               c.field<vp>("div", c.nc(), c.k()), c.field<vp>("kh_c", c.nc(), c.k()),
               c.field<vp>("wgtfac_c", c.nc(), c.k()), div_ic, hdef_ic});
  c.write("div_ic", div_ic);
  c.write("hdef_ic", hdef_ic);
}

// S6 and its elementary stencils
st::CalculateNabla4<Mem> nabla4_body(const Context& c) {
  st::CalculateNabla4<Mem> b;
  b.u_vert = c.field<vp>("u_vert", c.nv(), c.k());
  b.v_vert = c.field<vp>("v_vert", c.nv(), c.k());
  b.primal_normal_vert_v1 = c.field<wp>("primal_normal_vert_v1", c.ne(), 4);
  b.primal_normal_vert_v2 = c.field<wp>("primal_normal_vert_v2", c.ne(), 4);
  b.z_nabla2_e = c.field<wp>("z_nabla2_e", c.ne(), c.k());
  b.inv_vert_vert_length = c.vector<wp>("inv_vert_vert_length", c.ne());
  b.inv_primal_edge_length = c.vector<wp>("inv_primal_edge_length", c.ne());
  b.e2c2v = c.device.e2c2v;
  return b;
}

void apply_diffusion_to_vn(Context& c) {
  auto vn = c.field<wp>("vn", c.ne(), c.k());
  const index_t split = c.device.range(L::Edge, Z::Nudging2).start;
  c.out.attribute("icondiff_start_2nd_nudge_line_idx_e", split);
  c.out.attribute("icondiff_limited_area", c.grid.limited_area ? 1 : 0);
  Inputs in = bundle(c);
  // The factory takes limited_area from the grid: the bundle's copy of it (Views shared) gets
  // the file's flag when there is one.
  if (c.in.has("limited_area")) in.grid.limited_area = c.in.scalar<int>("limited_area") != 0;
  in.edges.primal_normal_vert_x = c.field<wp>("primal_normal_vert_v1", c.ne(), 4);
  in.edges.primal_normal_vert_y = c.field<wp>("primal_normal_vert_v2", c.ne(), 4);
  in.edges.inverse_vertex_vertex_lengths = c.vector<wp>("inv_vert_vert_length", c.ne());
  in.edges.inverse_primal_edge_lengths = c.vector<wp>("inv_primal_edge_length", c.ne());
  in.edges.edge_areas = c.vector<wp>("area_edge", c.ne());
  in.interpolation.nudgecoeff_e = c.vector<wp>("nudgecoeff_e", c.ne());
  Temporaries t;
  t.u_vert = c.field<vp>("u_vert", c.nv(), c.k());
  t.v_vert = c.field<vp>("v_vert", c.nv(), c.k());
  t.z_nabla2_e = c.field<wp>("z_nabla2_e", c.ne(), c.k());
  t.kh_smag_e = c.field<vp>("kh_smag_e", c.ne(), c.k());
  DiffusionParams params;
  // Read in vp as before: the factory rounds nudgezone_diff to vp, exactly this value.
  params.nudgezone_diff = c.in.scalar<vp>("nudgezone_diff");
  params.fac_bdydiff_v = c.in.scalar<wp>("fac_bdydiff_v");
  c.launch(c.range(L::Edge, Z::LateralBoundary5, Z::Local), 0, c.nlev,
           factory::apply_diffusion_to_vn(in, t, params, c.vector<wp>("diff_multfac_vn", c.k()),
                                          split, vn));
  c.write("vn", vn);
}

void calculate_nabla4(Context& c) {
  auto z4 = c.field<vp>("z_nabla4_e2", c.ne(), c.k());
  c.launch(c.range(L::Edge, Z::LateralBoundary5, Z::Local), 0, c.nlev,
           st::StoreNabla4<Mem>{nabla4_body(c), z4});
  c.write("z_nabla4_e2", z4);
}

void apply_nabla2_and_nabla4_to_vn(Context& c) {
  auto vn = c.field<wp>("vn", c.ne(), c.k());
  c.launch(c.range(L::Edge, Z::LateralBoundary5, Z::Local), 0, c.nlev,
           st::ApplyNabla2AndNabla4ToVn<Mem>{
               c.vector<wp>("area_edge", c.ne()), c.field<vp>("kh_smag_e", c.ne(), c.k()),
               c.field<wp>("z_nabla2_e", c.ne(), c.k()), c.field<vp>("z_nabla4_e2", c.ne(), c.k()),
               c.vector<wp>("diff_multfac_vn", c.k()), c.vector<wp>("nudgecoeff_e", c.ne()),
               c.in.scalar<vp>("nudgezone_diff"), vn});
  c.write("vn", vn);
}

void apply_nabla2_and_nabla4_global_to_vn(Context& c) {
  auto vn = c.field<wp>("vn", c.ne(), c.k());
  c.launch(c.range(L::Edge, Z::LateralBoundary5, Z::Local), 0, c.nlev,
           st::ApplyNabla2AndNabla4GlobalToVn<Mem>{
               c.vector<wp>("area_edge", c.ne()), c.field<vp>("kh_smag_e", c.ne(), c.k()),
               c.field<wp>("z_nabla2_e", c.ne(), c.k()), c.field<vp>("z_nabla4_e2", c.ne(), c.k()),
               c.vector<wp>("diff_multfac_vn", c.k()), vn});
  c.write("vn", vn);
}

void apply_nabla2_to_vn_in_lateral_boundary(Context& c) {
  auto vn = c.field<wp>("vn", c.ne(), c.k());
  c.launch(c.range(L::Edge, Z::LateralBoundary5, Z::Local), 0, c.nlev,
           st::ApplyNabla2ToVnInLateralBoundary<Mem>{c.field<wp>("z_nabla2_e", c.ne(), c.k()),
                                                     c.vector<wp>("area_edge", c.ne()),
                                                     c.in.scalar<wp>("fac_bdydiff_v"), vn});
  c.write("vn", vn);
}

// S8 and its elementary stencils (w and w_old have nlev + 1 half levels, as in the granule)
/// S8's inputs other than w, by name: geofac_n2s, geofac_grg_x/y, area -> cells.cell_area.
Inputs w_bundle(const Context& c) {
  Inputs in = bundle(c);
  in.interpolation.geofac_n2s = c.field<wp>("geofac_n2s", c.nc(), 4);
  in.interpolation.geofac_grg_x = c.field<wp>("geofac_grg_x", c.nc(), 4);
  in.interpolation.geofac_grg_y = c.field<wp>("geofac_grg_y", c.nc(), 4);
  in.cells.cell_area = c.vector<wp>("area", c.nc());
  return in;
}

void apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(Context& c) {
  const auto w_old = c.field<wp>("w_old", c.nc(), c.k() + 1);
  auto w = c.field<wp>("w", c.nc(), c.k() + 1);
  DiffusionDiagnosticState<Mem> diagnostic;
  diagnostic.dwdx = c.field<vp>("dwdx", c.nc(), c.k() + 1);
  diagnostic.dwdy = c.field<vp>("dwdy", c.nc(), c.k() + 1);
  const Inputs in = w_bundle(c);
  Temporaries t;
  t.diff_multfac_n2w = c.vector<wp>("diff_multfac_n2w", c.k());
  DiffusionParams params;
  params.diff_multfac_w = c.in.scalar<wp>("diff_multfac_w");
  const IndexRange updated = c.range(L::Cell, Z::Interior, Z::Local);
  c.out.attribute("icondiff_interior_idx", updated.start);
  c.out.attribute("icondiff_halo_idx", updated.end);
  c.launch(c.range(L::Cell, c.w_start_zone(), Z::Halo), 0, c.nlev,
           factory::apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence(
               in, t, params, c.in.scalar<int>("type_shear"), c.in.scalar<int>("nrdmax"), updated,
               diagnostic, w_old, w));
  c.write("w", w);
  c.write("dwdx", diagnostic.dwdx);
  c.write("dwdy", diagnostic.dwdy);
}

// icondiff's DiffusionStrategy::Fused replacement of S7+S8 on the same inputs: w starts as a copy
// of w_old and is updated in place by two kernels (Laplacian stored once, then the update). Only
// [w_start, E(C,HALO)) is comparable with ICON4Py's w; outside it w keeps w_old.
void icondiff_fused_w(Context& c) {
  const auto w_in = c.field<wp>("w_old", c.nc(), c.k() + 1);
  V2<wp> w(label("w"), c.nc(), c.k() + 1);
  Kokkos::deep_copy(w, w_in);
  DiffusionDiagnosticState<Mem> diagnostic;
  diagnostic.dwdx = c.field<vp>("dwdx", c.nc(), c.k() + 1);
  diagnostic.dwdy = c.field<vp>("dwdy", c.nc(), c.k() + 1);
  const Inputs in = w_bundle(c);
  Temporaries t;
  t.diff_multfac_n2w = c.vector<wp>("diff_multfac_n2w", c.k());
  t.z_nabla2_c = V2<vp>(label("z_nabla2_c"), c.nc(), c.k());
  DiffusionParams params;
  params.diff_multfac_w = c.in.scalar<wp>("diff_multfac_w");
  const IndexRange updated = c.range(L::Cell, Z::Interior, Z::Local);
  const IndexRange cells = c.range(L::Cell, c.w_start_zone(), Z::Halo);
  c.out.attribute("icondiff_interior_idx", updated.start);
  c.out.attribute("icondiff_halo_idx", updated.end);
  const int type_shear = c.in.scalar<int>("type_shear");
  const std::string stencil = c.stencil;
  c.stencil = stencil + "::calculate_nabla2_for_w_and_horizontal_gradients";
  c.launch(cells, 0, c.nlev,
           factory::nabla2_for_w_and_horizontal_gradients(in, t, type_shear == 2, diagnostic, w));
  c.stencil = stencil + "::apply_nabla4_and_damping_to_w";
  c.launch(updated, 0, c.nlev,
           factory::apply_nabla4_and_damping_to_w(in, t, params, c.in.scalar<int>("nrdmax"), w));
  c.stencil = stencil;
  // The comparable range is the first launch's.
  c.out.attribute("icondiff_horizontal_start", cells.start);
  c.out.attribute("icondiff_horizontal_end", cells.end);
  c.write("w", w);
  c.write("dwdx", diagnostic.dwdx);
  c.write("dwdy", diagnostic.dwdy);
}

void calculate_nabla2_for_w(Context& c) {
  auto z2 = c.field<vp>("z_nabla2_c", c.nc(), c.k());
  c.launch(c.range(L::Cell, c.w_start_zone(), Z::Halo), 0, c.nlev,
           st::StoreNabla2ForW<Mem>{{c.field<wp>("w", c.nc(), c.k() + 1),
                                     c.field<wp>("geofac_n2s", c.nc(), 4), c.device.c2e2co},
                                    z2});
  c.write("z_nabla2_c", z2);
}

void apply_nabla2_to_w(Context& c) {
  auto w = c.field<wp>("w", c.nc(), c.k() + 1);
  c.launch(c.range(L::Cell, Z::Interior, Z::Local), 0, c.nlev,
           st::ApplyNabla2ToW<Mem>{c.vector<wp>("area", c.nc()),
                                   c.field<vp>("z_nabla2_c", c.nc(), c.k()),
                                   c.field<wp>("geofac_n2s", c.nc(), 4), c.device.c2e2co,
                                   c.in.scalar<wp>("diff_multfac_w"), w});
  c.write("w", w);
}

void apply_nabla2_to_w_in_upper_damping_layer(Context& c) {
  auto w = c.field<wp>("w", c.nc(), c.k() + 1);
  c.launch(c.range(L::Cell, Z::Interior, Z::Local), 0, c.nlev,
           st::ApplyNabla2ToWInUpperDampingLayer<Mem>{c.vector<wp>("diff_multfac_n2w", c.k()),
                                                      c.vector<wp>("cell_area", c.nc()),
                                                      c.field<vp>("z_nabla2_c", c.nc(), c.k()), w});
  c.write("w", w);
}

void calculate_horizontal_gradients_for_turbulence(Context& c) {
  auto dwdx = c.field<vp>("dwdx", c.nc(), c.k() + 1), dwdy = c.field<vp>("dwdy", c.nc(), c.k() + 1);
  c.launch(c.range(L::Cell, c.w_start_zone(), Z::Halo), 0, c.nlev,
           st::StoreHorizontalGradientsForTurbulence<Mem>{
               {c.field<wp>("w", c.nc(), c.k() + 1), c.field<wp>("geofac_grg_x", c.nc(), 4),
                c.field<wp>("geofac_grg_y", c.nc(), 4), c.device.c2e2co},
               dwdx,
               dwdy});
  c.write("dwdx", dwdx);
  c.write("dwdy", dwdy);
}

// S9 and its elementary stencils
st::TemporaryFieldForGridPointColdPoolsEnhancement<Mem> enhancement_body(const Context& c) {
  return {c.field<wp>("theta_v", c.nc(), c.k()), c.field<vp>("theta_ref_mc", c.nc(), c.k()),
          c.device.c2e2c, c.in.scalar<wp>("thresh_tdiff"), c.in.scalar<vp>("smallest_vpfloat")};
}

void calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools(Context& c) {
  Inputs in = bundle(c);
  in.metric.theta_ref_mc = c.field<vp>("theta_ref_mc", c.nc(), c.k());
  Temporaries t;
  t.kh_smag_e = c.field<vp>("kh_smag_e", c.ne(), c.k());
  DiffusionParams params;
  params.thresh_tdiff = c.in.scalar<wp>("thresh_tdiff");
  // Read in vp as before: the factory rounds smallest_vpfloat to vp, exactly this value.
  params.smallest_vpfloat = c.in.scalar<vp>("smallest_vpfloat");
  c.launch(c.range(L::Edge, Z::Nudging, Z::Halo), c.nlev - 2, c.nlev,
           factory::enhanced_diffusion_coefficients_for_grid_point_cold_pools(
               in, t, params, c.field<wp>("theta_v", c.nc(), c.k())));
  c.write("kh_smag_e", t.kh_smag_e);
}

void temporary_field_for_grid_point_cold_pools_enhancement(Context& c) {
  auto enh = c.field<vp>("enh_diffu_3d", c.nc(), c.k());
  c.launch(c.range(L::Cell, Z::LateralBoundary2, Z::Halo), 0, c.nlev,
           st::StoreColdPoolsEnhancement<Mem>{enhancement_body(c), enh});
  c.write("enh_diffu_3d", enh);
}

void enhance_diffusion_coefficient_for_grid_point_cold_pools(Context& c) {
  auto kh = c.field<vp>("kh_smag_e", c.ne(), c.k());
  c.launch(c.range(L::Edge, Z::Nudging, Z::Halo), 0, c.nlev,
           st::EnhanceDiffusionCoefficientForGridPointColdPools<Mem>{
               c.field<vp>("enh_diffu_3d", c.nc(), c.k()), c.device.e2c, kh});
  c.write("kh_smag_e", kh);
}

// S11 and its elementary stencils. `theta` names the variable holding theta (theta_v_in in the
// fused program, theta_v in the elementary ones).
st::CalculateNabla2ForZ<Mem> flux_body(const Context& c, const std::string& theta) {
  return {c.field<vp>("kh_smag_e", c.ne(), c.k()), c.vector<wp>("inv_dual_edge_length", c.ne()),
          c.field<wp>(theta, c.nc(), c.k()), c.device.e2c};
}

st::TrulyHorizontalDiffusionNablaOfThetaOverSteepPoints<Mem> zdiffu_body(const Context& c,
                                                                         const std::string& theta) {
  return {c.field3<int>("zd_vertoffset", c.nc(), 3, c.k()),
          c.field<wp>("zd_diffcoef", c.nc(), c.k()),
          c.vector<wp>("geofac_n2s_c", c.nc()),
          c.field<wp>("geofac_n2s_nbh", c.nc(), 3),
          c.field3<wp>("vcoef", c.nc(), 3, c.k()),
          c.field<wp>(theta, c.nc(), c.k()),
          c.device.c2e2c};
}

void apply_diffusion_to_theta_and_exner(Context& c) {
  DiffusionPrognosticState<Mem> prognostic;
  prognostic.theta_v = c.field<wp>("theta_v", c.nc(), c.k());
  prognostic.exner = c.field<wp>("exner", c.nc(), c.k());
  Inputs in = bundle(c);
  in.edges.inverse_dual_edge_lengths = c.vector<wp>("inv_dual_edge_length", c.ne());
  in.interpolation.geofac_div = c.field<wp>("geofac_div", c.nc(), 3);
  in.metric.zd_vertoffset = c.field3<int>("zd_vertoffset", c.nc(), 3, c.k());
  in.metric.zd_diffcoef = c.field<wp>("zd_diffcoef", c.nc(), c.k());
  in.metric.zd_intcoef = c.field3<wp>("vcoef", c.nc(), 3, c.k());
  in.cells.cell_area = c.vector<wp>("area", c.nc());
  Temporaries t;
  t.kh_smag_e = c.field<vp>("kh_smag_e", c.ne(), c.k());
  t.theta_v_tmp = c.field<wp>("theta_v_in", c.nc(), c.k());  // the granule's copy of theta_v
  t.geofac_n2s_c = c.vector<wp>("geofac_n2s_c", c.nc());
  t.geofac_n2s_nbh = c.field<wp>("geofac_n2s_nbh", c.nc(), 3);
  DiffusionParams params;
  // Read in vp as before: the factory rounds rd_o_cvd to vp, exactly this value.
  params.rd_o_cvd = c.in.scalar<vp>("rd_o_cvd");
  c.launch(c.range(L::Cell, Z::Nudging, Z::Local), 0, c.nlev,
           factory::apply_diffusion_to_theta_and_exner(
               in, t, params, c.in.scalar<int>("apply_zdiffusion_t") != 0, prognostic));
  c.write("theta_v", prognostic.theta_v);
  c.write("exner", prognostic.exner);
}

void calculate_nabla2_for_z(Context& c) {
  auto z2 = c.field<wp>("z_nabla2_e", c.ne(), c.k());
  c.launch(c.range(L::Edge, Z::Nudging, Z::Halo), 0, c.nlev,
           st::StoreNabla2ForZ<Mem>{flux_body(c, "theta_v"), z2});
  c.write("z_nabla2_e", z2);
}

void calculate_nabla2_of_theta(Context& c) {
  auto z_temp = c.field<vp>("z_temp", c.nc(), c.k());
  c.launch(
      c.range(L::Cell, Z::Nudging, Z::Local), 0, c.nlev,
      st::CalculateNabla2OfTheta<Mem>{c.field<wp>("z_nabla2_e", c.ne(), c.k()),
                                      c.field<wp>("geofac_div", c.nc(), 3), c.device.c2e, z_temp});
  c.write("z_temp", z_temp);
}

void calculate_nabla2_for_theta(Context& c) {
  auto z_temp = c.field<vp>("z_temp", c.nc(), c.k());
  c.launch(
      c.range(L::Cell, Z::Nudging, Z::Local), 0, c.nlev,
      st::StoreNabla2ForTheta<Mem>{
          {flux_body(c, "theta_v"), c.field<wp>("geofac_div", c.nc(), 3), c.device.c2e}, z_temp});
  c.write("z_temp", z_temp);
}

void truly_horizontal_diffusion_nabla_of_theta_over_steep_points(Context& c) {
  auto z_temp = c.field<vp>("z_temp", c.nc(), c.k());
  c.launch(c.range(L::Cell, Z::Nudging, Z::Local), 0, c.nlev,
           st::StoreTrulyHorizontalDiffusion<Mem>{zdiffu_body(c, "theta_v"), z_temp});
  c.write("z_temp", z_temp);
}

void update_theta_and_exner(Context& c) {
  auto theta = c.field<wp>("theta_v", c.nc(), c.k()), exner = c.field<wp>("exner", c.nc(), c.k());
  c.launch(c.range(L::Cell, Z::Nudging, Z::Local), 0, c.nlev,
           st::UpdateThetaAndExner<Mem>{c.field<vp>("z_temp", c.nc(), c.k()),
                                        c.vector<wp>("area", c.nc()), c.in.scalar<vp>("rd_o_cvd"),
                                        theta, exner});
  c.write("theta_v", theta);
  c.write("exner", exner);
}

// ---- Dycore programs (through Dycore<Space>)
// ------------------------------------------------------

/// ICON4Py's program-argument name of a bundle member where the two differ (solve_nonhydro's
/// constant_args: "ikoffset": metric_state.vertoffset_gradp, ...).
const std::map<std::string, std::string>& dycore_argument_names() {
  static const std::map<std::string, std::string> names = {
      {"vertoffset_gradp", "ikoffset"},
      {"pos_on_tplane_e_1", "pos_on_tplane_e_x"},
      {"pos_on_tplane_e_2", "pos_on_tplane_e_y"},
      {"inverse_dual_edge_lengths", "inv_dual_edge_length"},
      {"inverse_primal_edge_lengths", "inv_primal_edge_length"},
      {"edge_areas", "area_edge"},
      {"cell_area", "area"},
      {"c_owner_mask", "owner_mask"},
      {"theta_ref_mc", "reference_theta_at_cells_on_model_levels"},
  };
  return names;
}

/// Reads every field of `state` (a field list struct) by its ICON4Py argument name; with
/// `zero_if_absent`, a field the file lacks (one the program does not read) is zero.
template <class State>
void read_fields(const Context& c, State& state, bool zero_if_absent) {
  const FieldSizes sizes = c.device.sizes(c.k());
  State::for_each_field(
      [&](const FieldSpec& spec, auto& view) {
        using V = std::decay_t<decltype(view)>;
        const auto renamed = dycore_argument_names().find(spec.name);
        const std::string name =
            renamed == dycore_argument_names().end() ? spec.name : renamed->second;
        view = c.view<V>(name, field_extents(spec, sizes), zero_if_absent);
      },
      state);
}

/// The static bundle on the runner's grid: the metric, interpolation and edge fields under their
/// ICON4Py argument names (those this program does not take are zero), nflatlev, nflat_gradp and
/// mean_cell_area from the file (0, 0 and 1 when the program does not take them).
DycoreInputs<Mem> dycore_inputs(const Context& c) {
  DycoreInputs<Mem> in;
  in.grid = c.device;
  in.nlev = c.nlev;
  in.nflatlev = c.scalar_or<int>("nflatlev", 0);
  in.nflat_gradp = c.scalar_or<int>("nflat_gradp", 0);
  in.mean_cell_area = c.scalar_or<double>("mean_cell_area", 1.0);
  in.end_index_of_damping_layer = c.scalar_or<int>("end_index_of_damping_layer", 0);
  in.kstart_moist = c.scalar_or<int>("kstart_moist", 0);
  read_fields(c, in.metric, true);
  read_fields(c, in.interpolation, true);
  read_fields(c, in.edges, true);
  read_fields(c, in.cells, true);
  in.metric.scaling_factor_for_3d_divdamp =
      c.view<V1<wp>>("scaling_factor_for_3d_divdamp", {c.k()}, true);
  in.metric.rayleigh_w = c.view<V1<wp>>("rayleigh_w", {c.k() + 1}, true);
  return in;
}

/// The configuration: divdamp_order, max_nudging_coefficient, veladv_offctr and
/// fourth_order_divdamp_factor from the file when present, ICON4Py's defaults otherwise.
DycoreConfig dycore_config(const Context& c) {
  DycoreConfig config;
  config.divdamp_order = static_cast<DivergenceDampingOrder>(c.scalar_or<int>("divdamp_order", 24));
  config.divdamp_type = static_cast<DivergenceDampingType>(
      c.scalar_or<int>("divdamp_type", static_cast<int>(config.divdamp_type)));
  config.rayleigh_type = static_cast<RayleighType>(
      c.scalar_or<int>("rayleigh_type", static_cast<int>(config.rayleigh_type)));
  config.iau_init = c.scalar_or<int>("is_iau_active", 0) != 0;
  config.max_nudging_coefficient =
      c.scalar_or<double>("max_nudging_coefficient", config.max_nudging_coefficient);
  config.veladv_offctr = c.scalar_or<double>("veladv_offctr", config.veladv_offctr);
  config.fourth_order_divdamp_factor =
      c.scalar_or<double>("fourth_order_divdamp_factor", config.fourth_order_divdamp_factor);
  return config;
}

/// The domain the file asks for: its int scalars horizontal_start, horizontal_end,
/// vertical_start and vertical_end (all four or none), ICON4Py's program arguments of that name.
std::optional<ProgramDomain> file_domain(const Context& c) {
  static const char* const names[] = {"horizontal_start", "horizontal_end", "vertical_start",
                                      "vertical_end"};
  int present = 0;
  for (const char* name : names) present += c.in.has(name) ? 1 : 0;
  if (present == 0) return std::nullopt;
  if (present != 4)
    throw InvalidArgument(fmt::format(
        "{}: a domain needs all four of horizontal_start, horizontal_end, vertical_start and "
        "vertical_end ({} given)",
        c.in.path(), present));
  ProgramDomain d;
  d.horizontal = IndexRange{static_cast<index_t>(c.in.scalar<int>("horizontal_start")),
                            static_cast<index_t>(c.in.scalar<int>("horizontal_end"))};
  d.vertical_start = c.in.scalar<int>("vertical_start");
  d.vertical_end = c.in.scalar<int>("vertical_end");
  return d;
}

/// Runs `call` once, writes the outputs (`write`), then runs --time more calls, each fenced;
/// writes the domain and the times. `call` gets the domain override for the Dycore (nullptr:
/// the Dycore's own, `default_domain`; the file's, file_domain(), when it has one). The outputs
/// are those of the first call (the solver's corrector accumulates into its in/out fields on
/// some substeps).
template <class Call, class Write>
void run_dycore_program(Context& c, const ProgramDomain& default_domain, const Call& call,
                        const Write& write) {
  const std::optional<ProgramDomain> given = file_domain(c);
  const ProgramDomain& domain = given ? *given : default_domain;
  const ProgramDomain* override_domain = given ? &*given : nullptr;
  c.out.attribute("icondiff_domain_from_file", given ? 1 : 0);
  c.out.attribute("icondiff_default_horizontal_start", default_domain.horizontal.start);
  c.out.attribute("icondiff_default_horizontal_end", default_domain.horizontal.end);
  c.out.attribute("icondiff_default_vertical_start", default_domain.vertical_start);
  c.out.attribute("icondiff_default_vertical_end", default_domain.vertical_end);
  c.out.attribute("icondiff_horizontal_start", domain.horizontal.start);
  c.out.attribute("icondiff_horizontal_end", domain.horizontal.end);
  c.out.attribute("icondiff_vertical_start", domain.vertical_start);
  c.out.attribute("icondiff_vertical_end", domain.vertical_end);
  call(override_domain);
  compat::fence(Space(), label(c.stencil));
  write();
  if (c.timed_calls <= 0) return;
  std::vector<double> seconds;
  for (int i = 0; i < c.timed_calls; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    call(override_domain);
    compat::fence(Space(), label(c.stencil));
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::string list;
  for (const double t : seconds) list += fmt::format("{}{:.9f}", list.empty() ? "" : " ", t);
  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  c.out.attribute("icondiff_timed_calls", static_cast<long long>(n));
  c.out.attribute("icondiff_call_seconds", list);
  c.out.real_attribute("icondiff_call_seconds_median", median);
}

void write_dycore_zones(const Context& c) {
  const auto start = [&](Zone z) { return c.device.range(L::Edge, z).start; };
  const auto end = [&](Zone z) { return c.device.range(L::Edge, z).end; };
  c.out.attribute("icondiff_limited_area", c.grid.limited_area ? 1 : 0);
  c.out.attribute("icondiff_start_edge_lateral_boundary", start(Z::LateralBoundary1));
  c.out.attribute("icondiff_start_edge_lateral_boundary_level_7", start(Z::LateralBoundary7));
  c.out.attribute("icondiff_start_edge_nudging_level_2", start(Z::Nudging2));
  c.out.attribute("icondiff_end_edge_nudging", end(Z::Nudging));
  c.out.attribute("icondiff_end_edge_halo", end(Z::Halo));
  c.out.attribute("icondiff_end_edge_halo_level_2", end(Z::Halo2));
  c.out.attribute("icondiff_end_edge_local", end(Z::Local));
}

void compute_rho_theta_pgrad_and_update_vn(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  RhoThetaPgradArguments<Mem> args;
  read_fields(c, args, false);
  args.dtime = c.in.scalar<wp>("dtime");
  args.is_iau_active = c.in.scalar<int>("is_iau_active") != 0;
  args.iau_wgt_dyn = c.in.scalar<wp>("iau_wgt_dyn");
  write_dycore_zones(c);
  c.out.attribute("icondiff_nflatlev", dycore.inputs().nflatlev);
  c.out.attribute("icondiff_nflat_gradp", dycore.inputs().nflat_gradp);
  run_dycore_program(
      c, dycore.rho_theta_pgrad_domain(),
      [&](const ProgramDomain* d) {
        dycore.compute_rho_theta_pgrad_and_update_vn(Space(), args, d);
      },
      [&] {
        c.write("rho_at_edges_on_model_levels", args.rho_at_edges_on_model_levels);
        c.write("theta_v_at_edges_on_model_levels", args.theta_v_at_edges_on_model_levels);
        c.write("horizontal_pressure_gradient", args.horizontal_pressure_gradient);
        c.write("next_vn", args.next_vn);
      });
}

void apply_divergence_damping_and_update_vn(Context& c) {
  const DycoreConfig config = dycore_config(c);
  Dycore<Space> dycore(config, dycore_inputs(c), {c.schedule, Space()});
  DivergenceDampingArguments<Mem> args;
  read_fields(c, args, false);
  args.interpolated_fourth_order_divdamp_factor =
      c.view<V1<wp>>("interpolated_fourth_order_divdamp_factor", {c.k()});
  args.second_order_divdamp_factor = c.in.scalar<wp>("second_order_divdamp_factor");
  args.second_order_divdamp_scaling_coeff = c.in.scalar<wp>("second_order_divdamp_scaling_coeff");
  args.dtime = c.in.scalar<wp>("dtime");
  args.apply_2nd_order_divergence_damping =
      c.in.scalar<int>("apply_2nd_order_divergence_damping") != 0;
  args.apply_4th_order_divergence_damping =
      c.in.scalar<int>("apply_4th_order_divergence_damping") != 0;
  args.is_iau_active = c.in.scalar<int>("is_iau_active") != 0;
  args.iau_wgt_dyn = c.in.scalar<wp>("iau_wgt_dyn");
  write_dycore_zones(c);
  // What the Dycore derives from its configuration, for the caller to compare with ICON4Py's
  // NonHydrostaticParams and solve_nonhydro's switches on the same factors.
  const DivergenceDampingSwitches switches = divergence_damping_switches(
      config, args.second_order_divdamp_factor, args.second_order_divdamp_scaling_coeff);
  c.out.attribute("icondiff_divdamp_order", static_cast<int>(config.divdamp_order));
  c.out.attribute("icondiff_switch_2nd_order_divergence_damping", switches.second_order ? 1 : 0);
  c.out.attribute("icondiff_switch_4th_order_divergence_damping", switches.fourth_order ? 1 : 0);
  c.out.real_attribute("icondiff_advection_explicit_weight_parameter",
                       config.advection_explicit_weight_parameter());
  c.out.real_attribute("icondiff_advection_implicit_weight_parameter",
                       config.advection_implicit_weight_parameter());
  c.out.real_attribute("icondiff_max_nudging_coefficient", config.max_nudging_coefficient);
  c.out.real_attribute("icondiff_mean_cell_area", dycore.inputs().mean_cell_area);
  c.out.real_attribute("icondiff_dbl_eps", physics::dbl_eps);
  run_dycore_program(
      c, dycore.divergence_damping_domain(),
      [&](const ProgramDomain* d) {
        dycore.apply_divergence_damping_and_update_vn(Space(), args, d);
      },
      [&] { c.write("next_vn", args.next_vn); });
}

/// The solver steps' cell zones, vertical indices and configuration, for the caller to compare
/// with the arguments solve_nonhydro gives ICON4Py's programs.
void write_solver_attributes(const Context& c, const Dycore<Space>& dycore) {
  const auto start = [&](Zone z) { return c.device.range(L::Cell, z).start; };
  const auto end = [&](Zone z) { return c.device.range(L::Cell, z).end; };
  c.out.attribute("icondiff_limited_area", c.grid.limited_area ? 1 : 0);
  c.out.attribute("icondiff_start_cell_index_nudging", start(Z::Nudging));
  c.out.attribute("icondiff_end_cell_index_local", end(Z::Local));
  c.out.attribute("icondiff_start_cell_index_lateral_lvl3", start(Z::LateralBoundary3));
  c.out.attribute("icondiff_end_cell_index_halo_lvl1", end(Z::Halo));
  const DycoreInputs<Mem>& in = dycore.inputs();
  c.out.attribute("icondiff_end_index_of_damping_layer", in.end_index_of_damping_layer);
  c.out.attribute("icondiff_kstart_moist", in.kstart_moist);
  c.out.attribute("icondiff_nflatlev", in.nflatlev);
  c.out.attribute("icondiff_rayleigh_type", static_cast<int>(dycore.config().rayleigh_type));
  c.out.attribute("icondiff_divdamp_type", static_cast<int>(dycore.config().divdamp_type));
}

/// The outputs both solver steps share.
template <class Arguments>
void write_solver_outputs(const Context& c, const Arguments& args) {
  c.write("next_w", args.next_w);
  c.write("next_rho", args.next_rho);
  c.write("next_exner", args.next_exner);
  c.write("next_theta_v", args.next_theta_v);
  c.write("exner_dynamical_increment", args.exner_dynamical_increment);
}

void vertically_implicit_solver_at_predictor_step(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  SolverPredictorArguments<Mem> args;
  read_fields(c, args, false);
  args.rayleigh_damping_factor = c.view<V1<wp>>("rayleigh_damping_factor", {c.k()});
  args.iau_wgt_dyn = c.in.scalar<wp>("iau_wgt_dyn");
  args.dtime = c.in.scalar<wp>("dtime");
  args.is_iau_active = c.in.scalar<int>("is_iau_active") != 0;
  args.at_first_substep = c.in.scalar<int>("at_first_substep") != 0;
  write_solver_attributes(c, dycore);
  // A domain from the file is used for the interpolation too (the Dycore's `domain` argument).
  const std::optional<ProgramDomain> given = file_domain(c);
  const ProgramDomain interpolation = given ? *given : dycore.contravariant_correction_domain();
  c.out.attribute("icondiff_interpolation_horizontal_start", interpolation.horizontal.start);
  c.out.attribute("icondiff_interpolation_horizontal_end", interpolation.horizontal.end);
  c.out.attribute("icondiff_interpolation_vertical_start", interpolation.vertical_start);
  c.out.attribute("icondiff_interpolation_vertical_end", interpolation.vertical_end);
  run_dycore_program(
      c, dycore.solver_domain(),
      [&](const ProgramDomain* d) {
        dycore.vertically_implicit_solver_at_predictor_step(Space(), args, d);
      },
      [&] {
        c.write("contravariant_correction_at_cells_on_half_levels",
                args.contravariant_correction_at_cells_on_half_levels);
        write_solver_outputs(c, args);
        c.write("dwdz_at_cells_on_model_levels", args.dwdz_at_cells_on_model_levels);
      });
}

void vertically_implicit_solver_at_corrector_step(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  SolverCorrectorArguments<Mem> args;
  read_fields(c, args, false);
  args.rayleigh_damping_factor = c.view<V1<wp>>("rayleigh_damping_factor", {c.k()});
  args.lprep_adv = c.in.scalar<int>("lprep_adv") != 0;
  args.r_nsubsteps = c.in.scalar<wp>("r_nsubsteps");
  args.ndyn_substeps_var = c.in.scalar<wp>("ndyn_substeps_var");
  args.iau_wgt_dyn = c.in.scalar<wp>("iau_wgt_dyn");
  args.dtime = c.in.scalar<wp>("dtime");
  args.is_iau_active = c.in.scalar<int>("is_iau_active") != 0;
  args.at_first_substep = c.in.scalar<int>("at_first_substep") != 0;
  args.at_last_substep = c.in.scalar<int>("at_last_substep") != 0;
  write_solver_attributes(c, dycore);
  c.out.real_attribute("icondiff_advection_explicit_weight_parameter",
                       dycore.config().advection_explicit_weight_parameter());
  c.out.real_attribute("icondiff_advection_implicit_weight_parameter",
                       dycore.config().advection_implicit_weight_parameter());
  run_dycore_program(
      c, dycore.solver_domain(),
      [&](const ProgramDomain* d) {
        dycore.vertically_implicit_solver_at_corrector_step(Space(), args, d);
      },
      [&] {
        write_solver_outputs(c, args);
        c.write("dynamical_vertical_mass_flux_at_cells_on_half_levels",
                args.dynamical_vertical_mass_flux_at_cells_on_half_levels);
        c.write("dynamical_vertical_volumetric_flux_at_cells_on_half_levels",
                args.dynamical_vertical_volumetric_flux_at_cells_on_half_levels);
      });
}

/// Velocity advection's first program: its edge domain [start of LATERAL_BOUNDARY_LEVEL_5, end of
/// HALO_LEVEL_2) x half levels [0, nlev + 1) as VelocityAdvection passes it, nflatlev from the
/// file. Outputs: the six fields ICON4Py's program writes (tangential_wind_on_half_levels and
/// horizontal_advection_of_w_at_edges_on_half_levels as they were with
/// skip_compute_predictor_vertical_advection, contravariant_correction_at_edges_on_model_levels
/// as it was above nflatlev).
void compute_diagnostics_from_normal_wind(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  DiagnosticsFromNormalWindArguments<Mem> args;
  read_fields(c, args, false);
  args.skip_compute_predictor_vertical_advection =
      c.in.scalar<int>("skip_compute_predictor_vertical_advection") != 0;
  write_dycore_zones(c);
  c.out.attribute("icondiff_start_edge_lateral_boundary_level_5",
                  c.device.range(L::Edge, Z::LateralBoundary5).start);
  c.out.attribute("icondiff_nflatlev", dycore.inputs().nflatlev);
  run_dycore_program(
      c, dycore.diagnostics_from_normal_wind_domain(),
      [&](const ProgramDomain* d) {
        dycore.compute_diagnostics_from_normal_wind(Space(), args, d);
      },
      [&] {
        c.write("tangential_wind", args.tangential_wind);
        c.write("tangential_wind_on_half_levels", args.tangential_wind_on_half_levels);
        c.write("vn_on_half_levels", args.vn_on_half_levels);
        c.write("horizontal_kinetic_energy_at_edges_on_model_levels",
                args.horizontal_kinetic_energy_at_edges_on_model_levels);
        c.write("contravariant_correction_at_edges_on_model_levels",
                args.contravariant_correction_at_edges_on_model_levels);
        c.write("horizontal_advection_of_w_at_edges_on_half_levels",
                args.horizontal_advection_of_w_at_edges_on_half_levels);
      });
}

/// Velocity advection's tendency of vn: edges [start of NUDGING_LEVEL_2, end of LOCAL) x [0, nlev)
/// (advection_in_horizontal_momentum_domain(), as VelocityAdvection passes it),
/// end_index_of_damping_layer from the file (the extra diffusion's band starts at
/// max(2, end_index_of_damping_layer - 2)). cfl_w_limit and scalfac_exdiff are not read from the
/// file: they are derived from its dtime by velocity_advection_scale_factors(), as an icondiff
/// caller derives them, and written as icondiff_cfl_w_limit / icondiff_scalfac_exdiff for the
/// caller to compare with VelocityAdvection._scale_factors_by_dtime. Output:
/// normal_wind_advective_tendency.
void compute_advection_in_horizontal_momentum(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  AdvectionInHorizontalMomentumArguments<Mem> args;
  read_fields(c, args, false);
  args.dtime = c.in.scalar<double>("dtime");
  const VelocityAdvectionScaleFactors factors = velocity_advection_scale_factors(args.dtime);
  args.cfl_w_limit = factors.cfl_w_limit;
  args.scalfac_exdiff = factors.scalfac_exdiff;
  args.apply_extra_diffusion_on_vn = c.in.scalar<int>("apply_extra_diffusion_on_vn") != 0;
  write_dycore_zones(c);
  c.out.attribute("icondiff_end_index_of_damping_layer",
                  dycore.inputs().end_index_of_damping_layer);
  c.out.real_attribute("icondiff_cfl_w_limit", static_cast<double>(args.cfl_w_limit));
  c.out.real_attribute("icondiff_scalfac_exdiff", args.scalfac_exdiff);
  run_dycore_program(
      c, dycore.advection_in_horizontal_momentum_domain(),
      [&](const ProgramDomain* d) {
        dycore.compute_advection_in_horizontal_momentum(Space(), args, d);
      },
      [&] { c.write("normal_wind_advective_tendency", args.normal_wind_advective_tendency); });
}

/// Velocity advection's vertical-momentum steps: cells [start of LATERAL_BOUNDARY_LEVEL_4, end of
/// HALO) x [0, nlev) (advection_in_vertical_momentum_domain(), as VelocityAdvection passes it),
/// nflatlev and end_index_of_damping_layer from the file (the CFL band: max(2,
/// end_index_of_damping_layer - 2) <= k < nlev - 3), the statics cell_area and c_owner_mask under
/// ICON4Py's names area and owner_mask; cfl_w_limit and scalfac_exdiff derived from the file's
/// dtime by velocity_advection_scale_factors() as for the tendency of vn.
template <class Arguments>
void read_vertical_momentum_scalars(const Context& c, Arguments& args) {
  args.dtime = c.in.scalar<double>("dtime");
  const VelocityAdvectionScaleFactors factors = velocity_advection_scale_factors(args.dtime);
  args.cfl_w_limit = factors.cfl_w_limit;
  args.scalfac_exdiff = factors.scalfac_exdiff;
}

template <class Arguments>
void write_vertical_momentum_attributes(const Context& c, const Dycore<Space>& dycore,
                                        const Arguments& args) {
  c.out.attribute("icondiff_limited_area", c.grid.limited_area ? 1 : 0);
  c.out.attribute("icondiff_start_cell_lateral_boundary_level_4",
                  c.device.range(L::Cell, Z::LateralBoundary4).start);
  c.out.attribute("icondiff_end_cell_halo", c.device.range(L::Cell, Z::Halo).end);
  c.out.attribute("icondiff_end_index_of_damping_layer",
                  dycore.inputs().end_index_of_damping_layer);
  c.out.attribute("icondiff_nflatlev", dycore.inputs().nflatlev);
  c.out.real_attribute("icondiff_cfl_w_limit", static_cast<double>(args.cfl_w_limit));
  c.out.real_attribute("icondiff_scalfac_exdiff", args.scalfac_exdiff);
}

/// The outputs both vertical-momentum steps write.
template <class Arguments>
void write_vertical_momentum_outputs(const Context& c, const Arguments& args) {
  c.write("vertical_wind_advective_tendency", args.vertical_wind_advective_tendency);
  c.write("contravariant_corrected_w_at_cells_on_model_levels",
          args.contravariant_corrected_w_at_cells_on_model_levels);
  c.write("vertical_cfl", args.vertical_cfl);
}

void compute_advection_in_predictor_vertical_momentum(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  AdvectionInPredictorVerticalMomentumArguments<Mem> args;
  read_fields(c, args, false);
  read_vertical_momentum_scalars(c, args);
  args.skip_compute_predictor_vertical_advection =
      c.in.scalar<int>("skip_compute_predictor_vertical_advection") != 0;
  write_vertical_momentum_attributes(c, dycore, args);
  run_dycore_program(
      c, dycore.advection_in_vertical_momentum_domain(),
      [&](const ProgramDomain* d) {
        dycore.compute_advection_in_predictor_vertical_momentum(Space(), args, d);
      },
      [&] {
        c.write("contravariant_correction_at_cells_on_half_levels",
                args.contravariant_correction_at_cells_on_half_levels);
        write_vertical_momentum_outputs(c, args);
      });
}

void compute_advection_in_corrector_vertical_momentum(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  AdvectionInCorrectorVerticalMomentumArguments<Mem> args;
  read_fields(c, args, false);
  read_vertical_momentum_scalars(c, args);
  write_vertical_momentum_attributes(c, dycore, args);
  run_dycore_program(
      c, dycore.advection_in_vertical_momentum_domain(),
      [&](const ProgramDomain* d) {
        dycore.compute_advection_in_corrector_vertical_momentum(Space(), args, d);
      },
      [&] { write_vertical_momentum_outputs(c, args); });
}

/// solve_nonhydro's small point programs: the cell zones their domains come from (the edge zones
/// by write_dycore_zones) and the constants icondiff's bodies use, for the caller to compare
/// with solve_nonhydro's and ICON4Py's constants (PhysicsConstants, constants.RD_O_CVD, ...).
void write_point_program_attributes(const Context& c) {
  write_dycore_zones(c);
  c.out.attribute("icondiff_start_cell_lateral_boundary",
                  c.device.range(L::Cell, Z::LateralBoundary1).start);
  c.out.attribute("icondiff_end_cell_lateral_boundary_level_4",
                  c.device.range(L::Cell, Z::LateralBoundary4).end);
  c.out.attribute("icondiff_start_cell_halo", c.device.range(L::Cell, Z::Halo).start);
  c.out.attribute("icondiff_end_cell_end", static_cast<long long>(c.grid.num_cells));
  c.out.real_attribute("icondiff_rd_o_cvd", physics::rd_o_cvd);
  c.out.real_attribute("icondiff_cvd_o_rd", physics::cvd_o_rd);
  c.out.real_attribute("icondiff_rd_o_p0ref", physics::rd_o_p0ref);
  c.out.real_attribute("icondiff_grav_o_cpd", physics::grav_o_cpd);
}

/// On the limited-area boundary's cells (lateral_boundary_cells_domain()): theta_v from exner's
/// values, exner from rho theta_v. Outputs: theta_v, exner.
void compute_exner_from_rhotheta(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  ExnerFromRhothetaArguments<Mem> args;
  read_fields(c, args, false);
  write_point_program_attributes(c);
  run_dycore_program(
      c, dycore.lateral_boundary_cells_domain(),
      [&](const ProgramDomain* d) { dycore.compute_exner_from_rhotheta(Space(), args, d); },
      [&] {
        c.write("theta_v", args.theta_v);
        c.write("exner", args.exner);
      });
}

/// On the halo's cells (halo_cells_domain(); empty on a single-rank grid), mask_prog_halo_c from
/// the file. Outputs: theta_v_new, exner_new.
void update_theta_and_exner_in_halo(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  ThetaAndExnerInHaloArguments<Mem> args;
  read_fields(c, args, false);
  write_point_program_attributes(c);
  run_dycore_program(
      c, dycore.halo_cells_domain(),
      [&](const ProgramDomain* d) { dycore.update_theta_and_exner_in_halo(Space(), args, d); },
      [&] {
        c.write("theta_v_new", args.theta_v_new);
        c.write("exner_new", args.exner_new);
      });
}

/// On the limited-area boundary's cells x half levels [0, nlev + 1). Output: field_with_zero_wp.
void init_cell_kdim_field_with_zero_wp(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  InitCellKdimFieldArguments<Mem> args;
  read_fields(c, args, false);
  write_point_program_attributes(c);
  ProgramDomain half_levels = dycore.lateral_boundary_cells_domain();
  half_levels.vertical_end = c.nlev + 1;  // what the Dycore's call defaults to
  run_dycore_program(
      c, half_levels,
      [&](const ProgramDomain* d) { dycore.init_cell_kdim_field_with_zero_wp(Space(), args, d); },
      [&] { c.write("field_with_zero_wp", args.field_with_zero_wp); });
}

/// On the limited-area boundary's cells; the implicit weights under ICON4Py's argument names of
/// this program (vwind_expl_wgt, vwind_impl_wgt: solve_nonhydro binds
/// exner_w_explicit/implicit_weight_parameter to them), r_nsubsteps from the file. Output:
/// mass_flx_ic.
void update_mass_flux_weighted(Context& c) {
  DycoreInputs<Mem> inputs = dycore_inputs(c);
  inputs.metric.exner_w_explicit_weight_parameter =
      c.view<decltype(inputs.metric.exner_w_explicit_weight_parameter)>("vwind_expl_wgt", {c.nc()});
  inputs.metric.exner_w_implicit_weight_parameter =
      c.view<decltype(inputs.metric.exner_w_implicit_weight_parameter)>("vwind_impl_wgt", {c.nc()});
  Dycore<Space> dycore(dycore_config(c), inputs, {c.schedule, Space()});
  MassFluxWeightedArguments<Mem> args;
  read_fields(c, args, false);
  args.r_nsubsteps = c.in.scalar<double>("r_nsubsteps");
  write_point_program_attributes(c);
  run_dycore_program(
      c, dycore.lateral_boundary_cells_domain(),
      [&](const ProgramDomain* d) { dycore.update_mass_flux_weighted(Space(), args, d); },
      [&] { c.write("mass_flx_ic", args.mass_flx_ic); });
}

/// On the limited-area boundary's cells. Output: z_dwdz_dd.
void compute_dwdz_for_divergence_damping(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  DwdzForDivergenceDampingArguments<Mem> args;
  read_fields(c, args, false);
  write_point_program_attributes(c);
  run_dycore_program(
      c, dycore.lateral_boundary_cells_domain(),
      [&](const ProgramDomain* d) { dycore.compute_dwdz_for_divergence_damping(Space(), args, d); },
      [&] { c.write("z_dwdz_dd", args.z_dwdz_dd); });
}

/// Edges [start of NUDGING_LEVEL_2, end of LOCAL) x the lowest level
/// (hydrostatic_correction_domain()); ikoffset (relative levels), zdiff_gradp, inv_ddqz_z_full
/// and inv_dual_edge_length are the Dycore's statics, grav_o_cpd icondiff's constant. Output:
/// z_hydro_corr.
void compute_hydrostatic_correction_term(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  HydrostaticCorrectionArguments<Mem> args;
  read_fields(c, args, false);
  write_point_program_attributes(c);
  run_dycore_program(
      c, dycore.hydrostatic_correction_domain(),
      [&](const ProgramDomain* d) { dycore.compute_hydrostatic_correction_term(Space(), args, d); },
      [&] { c.write("z_hydro_corr", args.z_hydro_corr); });
}

/// On the limited-area boundary's cells x half levels [0, nlev + 1) (rho_new and exner_new: the
/// full levels), dtime from the file. Outputs: rho_new, exner_new (theta_v, as ICON), w_new.
void stencils_61_62(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  Stencils6162Arguments<Mem> args;
  read_fields(c, args, false);
  args.dtime = c.in.scalar<double>("dtime");
  write_point_program_attributes(c);
  ProgramDomain half_levels = dycore.lateral_boundary_cells_domain();
  half_levels.vertical_end = c.nlev + 1;  // what the Dycore's call defaults to
  run_dycore_program(
      c, half_levels,
      [&](const ProgramDomain* d) { dycore.stencils_61_62(Space(), args, d); },
      [&] {
        c.write("rho_new", args.rho_new);
        c.write("exner_new", args.exner_new);
        c.write("w_new", args.w_new);
      });
}

/// Klemp's damping factor per full level, 1 / (1 + dtime rayleigh_w(k)), from the statics'
/// rayleigh_w (the file's "rayleigh_w", nlev + 1 values), dtime from the file. No domain (ICON4Py's
/// program has none: the output's nlev levels). Output: rayleigh_damping_factor.
void compute_rayleigh_damping_factor(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  const double dtime = c.in.scalar<double>("dtime");
  const auto out = c.view<V1<wp>>("rayleigh_damping_factor", {c.k()});
  c.out.real_attribute("icondiff_dtime", dtime);
  dycore.compute_rayleigh_damping_factor(Space(), dtime, out);
  compat::fence(Space(), label(c.stencil));
  c.write("rayleigh_damping_factor", out);
}

/// solve_nonhydro's horizontal velocity programs: the edge zones their domain comes from.
void write_edge_program_attributes(const Context& c) {
  c.out.attribute("icondiff_limited_area", c.grid.limited_area ? 1 : 0);
  c.out.attribute("icondiff_start_edge_lateral_boundary_level_5",
                  c.device.range(L::Edge, Z::LateralBoundary5).start);
  c.out.attribute("icondiff_end_edge_halo_level_2", c.device.range(L::Edge, Z::Halo2).end);
}

/// The corrector's averaged vn and fluxes: edges [start of LATERAL_BOUNDARY_LEVEL_5, end of
/// HALO_LEVEL_2) x [0, nlev) (averaged_vn_and_fluxes_domain()); e_flx_avg and ddqz_z_full_e are
/// the Dycore's statics; prepare_advection, at_first_substep and r_nsubsteps from the file.
/// Outputs: spatially_averaged_vn, the two fluxes, the two substep averages (in/out).
void compute_averaged_vn_and_fluxes(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  AveragedVnAndFluxesArguments<Mem> args;
  read_fields(c, args, false);
  args.prepare_advection = c.in.scalar<int>("prepare_advection") != 0;
  args.at_first_substep = c.in.scalar<int>("at_first_substep") != 0;
  args.r_nsubsteps = c.in.scalar<double>("r_nsubsteps");
  write_edge_program_attributes(c);
  c.out.attribute("icondiff_prepare_advection", args.prepare_advection ? 1 : 0);
  c.out.attribute("icondiff_at_first_substep", args.at_first_substep ? 1 : 0);
  c.out.real_attribute("icondiff_r_nsubsteps", args.r_nsubsteps);
  run_dycore_program(
      c, dycore.averaged_vn_and_fluxes_domain(),
      [&](const ProgramDomain* d) { dycore.compute_averaged_vn_and_fluxes(Space(), args, d); },
      [&] {
        c.write("spatially_averaged_vn", args.spatially_averaged_vn);
        c.write("mass_flux_at_edges_on_model_levels", args.mass_flux_at_edges_on_model_levels);
        c.write("theta_v_flux_at_edges_on_model_levels",
                args.theta_v_flux_at_edges_on_model_levels);
        c.write("substep_and_spatially_averaged_vn", args.substep_and_spatially_averaged_vn);
        c.write("substep_averaged_mass_flux", args.substep_averaged_mass_flux);
      });
}

/// The predictor's horizontal velocity quantities: edges [start of LATERAL_BOUNDARY_LEVEL_5, end
/// of HALO_LEVEL_2) x [0, nlev + 1) (horizontal_velocity_quantities_domain(); level nlev: vn_ie
/// extrapolated by wgtfacq_e), nflatlev from the file; e_flx_avg, geofac_grdiv, rbf_vec_coeff_e,
/// ddqz_z_full_e, ddxn/ddxt_z_full, wgtfac_e and wgtfacq_e are the Dycore's statics.
void compute_horizontal_velocity_quantities_and_fluxes(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  HorizontalVelocityQuantitiesArguments<Mem> args;
  read_fields(c, args, false);
  write_edge_program_attributes(c);
  c.out.attribute("icondiff_nflatlev", dycore.inputs().nflatlev);
  run_dycore_program(
      c, dycore.horizontal_velocity_quantities_domain(),
      [&](const ProgramDomain* d) {
        dycore.compute_horizontal_velocity_quantities_and_fluxes(Space(), args, d);
      },
      [&] {
        c.write("spatially_averaged_vn", args.spatially_averaged_vn);
        c.write("horizontal_gradient_of_normal_wind_divergence",
                args.horizontal_gradient_of_normal_wind_divergence);
        c.write("tangential_wind", args.tangential_wind);
        c.write("mass_flux_at_edges_on_model_levels", args.mass_flux_at_edges_on_model_levels);
        c.write("theta_v_flux_at_edges_on_model_levels",
                args.theta_v_flux_at_edges_on_model_levels);
        c.write("tangential_wind_on_half_levels", args.tangential_wind_on_half_levels);
        c.write("vn_on_half_levels", args.vn_on_half_levels);
        c.write("horizontal_kinetic_energy_at_edges_on_model_levels",
                args.horizontal_kinetic_energy_at_edges_on_model_levels);
        c.write("contravariant_correction_at_edges_on_model_levels",
                args.contravariant_correction_at_edges_on_model_levels);
      });
}

/// solve_nonhydro's cell programs: the cell zones their domains come from.
void write_cell_program_attributes(const Context& c) {
  const auto cells = [&](Zone z) { return c.device.range(L::Cell, z); };
  c.out.attribute("icondiff_limited_area", c.grid.limited_area ? 1 : 0);
  c.out.attribute("icondiff_start_cell_lateral_boundary", cells(Z::LateralBoundary1).start);
  c.out.attribute("icondiff_start_cell_lateral_boundary_level_3", cells(Z::LateralBoundary3).start);
  c.out.attribute("icondiff_end_cell_lateral_boundary_level_4", cells(Z::LateralBoundary4).end);
  c.out.attribute("icondiff_end_cell_local", cells(Z::Local).end);
  c.out.attribute("icondiff_end_cell_halo", cells(Z::Halo).end);
  c.out.attribute("icondiff_start_cell_halo_level_2", cells(Z::Halo2).start);
  c.out.attribute("icondiff_end_cell_halo_level_2", cells(Z::Halo2).end);
}

/// The predictor's perturbations and interpolation: cells [start of LATERAL_BOUNDARY_LEVEL_3, end
/// of HALO) x [0, nlev) (perturbed_quantities_domain(); the surface half level and the second
/// halo line's perturbations are the Dycore's), nflatlev and nflat_gradp from the file,
/// igradp_method DycoreConfig's; the statics under ICON4Py's names (theta_ref_mc:
/// reference_theta_at_cells_on_model_levels). Outputs: the eleven fields ICON4Py's program writes.
void compute_perturbed_quantities_and_interpolation(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  PerturbedQuantitiesArguments<Mem> args;
  read_fields(c, args, false);
  write_cell_program_attributes(c);
  c.out.attribute("icondiff_nflatlev", dycore.inputs().nflatlev);
  c.out.attribute("icondiff_nflat_gradp", dycore.inputs().nflat_gradp);
  c.out.attribute("icondiff_igradp_method", dycore.config().igradp_method);
  run_dycore_program(
      c, dycore.perturbed_quantities_domain(),
      [&](const ProgramDomain* d) {
        dycore.compute_perturbed_quantities_and_interpolation(Space(), args, d);
      },
      [&] {
        c.write("temporal_extrapolation_of_perturbed_exner",
                args.temporal_extrapolation_of_perturbed_exner);
        c.write("ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels",
                args.ddz_of_temporal_extrapolation_of_perturbed_exner_on_model_levels);
        c.write("d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels",
                args.d2dz2_of_temporal_extrapolation_of_perturbed_exner_on_model_levels);
        c.write("perturbed_exner_at_cells_on_model_levels",
                args.perturbed_exner_at_cells_on_model_levels);
        c.write("exner_at_cells_on_half_levels", args.exner_at_cells_on_half_levels);
        c.write("perturbed_rho_at_cells_on_model_levels",
                args.perturbed_rho_at_cells_on_model_levels);
        c.write("perturbed_theta_v_at_cells_on_model_levels",
                args.perturbed_theta_v_at_cells_on_model_levels);
        c.write("rho_at_cells_on_half_levels", args.rho_at_cells_on_half_levels);
        c.write("perturbed_theta_v_at_cells_on_half_levels",
                args.perturbed_theta_v_at_cells_on_half_levels);
        c.write("theta_v_at_cells_on_half_levels", args.theta_v_at_cells_on_half_levels);
        c.write("nonhydro_buoy_at_cells_on_half_levels",
                args.nonhydro_buoy_at_cells_on_half_levels);
      });
}

/// The corrector's half-level rho, theta_v and theta_v' and the buoyancy term: cells [start of
/// LATERAL_BOUNDARY_LEVEL_3, end of LOCAL) x [1, nlev) (interpolation_and_nonhydro_buoy_domain());
/// dtime from the file, the rhotheta weights from DycoreConfig (rhotheta_offctr: ICON4Py's
/// default), the statics theta_ref_mc (ICON4Py's reference_theta_at_cells_on_model_levels),
/// ddz_of_reference_exner_at_cells_on_half_levels, ddqz_z_half, wgtfac_c and
/// exner_w_explicit_weight_parameter. Outputs: the four half-level fields.
void compute_interpolation_and_nonhydro_buoy(Context& c) {
  Dycore<Space> dycore(dycore_config(c), dycore_inputs(c), {c.schedule, Space()});
  InterpolationAndNonhydroBuoyArguments<Mem> args;
  read_fields(c, args, false);
  args.dtime = c.in.scalar<double>("dtime");
  write_cell_program_attributes(c);
  c.out.real_attribute("icondiff_dtime", args.dtime);
  c.out.real_attribute("icondiff_rhotheta_explicit_weight_parameter",
                       dycore.config().rhotheta_explicit_weight_parameter());
  c.out.real_attribute("icondiff_rhotheta_implicit_weight_parameter",
                       dycore.config().rhotheta_implicit_weight_parameter());
  run_dycore_program(
      c, dycore.interpolation_and_nonhydro_buoy_domain(),
      [&](const ProgramDomain* d) {
        dycore.compute_interpolation_and_nonhydro_buoy(Space(), args, d);
      },
      [&] {
        c.write("rho_at_cells_on_half_levels", args.rho_at_cells_on_half_levels);
        c.write("perturbed_theta_v_at_cells_on_half_levels",
                args.perturbed_theta_v_at_cells_on_half_levels);
        c.write("theta_v_at_cells_on_half_levels", args.theta_v_at_cells_on_half_levels);
        c.write("nonhydro_buoy_at_cells_on_half_levels",
                args.nonhydro_buoy_at_cells_on_half_levels);
      });
}

using StencilFunction = void (*)(Context&);

const std::map<std::string, StencilFunction>& stencils() {
  static const std::map<std::string, StencilFunction> table = {
#define ICONDIFF_RUNNER_STENCIL(NAME) {#NAME, NAME}
      ICONDIFF_RUNNER_STENCIL(mo_intp_rbf_rbf_vec_interpol_vertex),
      ICONDIFF_RUNNER_STENCIL(calculate_nabla2_and_smag_coefficients_for_vn),
      ICONDIFF_RUNNER_STENCIL(calculate_diagnostic_quantities_for_turbulence),
      ICONDIFF_RUNNER_STENCIL(temporary_fields_for_turbulence_diagnostics),
      ICONDIFF_RUNNER_STENCIL(calculate_diagnostics_for_turbulence),
      ICONDIFF_RUNNER_STENCIL(apply_diffusion_to_vn),
      ICONDIFF_RUNNER_STENCIL(calculate_nabla4),
      ICONDIFF_RUNNER_STENCIL(apply_nabla2_and_nabla4_to_vn),
      ICONDIFF_RUNNER_STENCIL(apply_nabla2_and_nabla4_global_to_vn),
      ICONDIFF_RUNNER_STENCIL(apply_nabla2_to_vn_in_lateral_boundary),
      ICONDIFF_RUNNER_STENCIL(apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence),
      ICONDIFF_RUNNER_STENCIL(icondiff_fused_w),
      ICONDIFF_RUNNER_STENCIL(calculate_nabla2_for_w),
      ICONDIFF_RUNNER_STENCIL(apply_nabla2_to_w),
      ICONDIFF_RUNNER_STENCIL(apply_nabla2_to_w_in_upper_damping_layer),
      ICONDIFF_RUNNER_STENCIL(calculate_horizontal_gradients_for_turbulence),
      ICONDIFF_RUNNER_STENCIL(calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools),
      ICONDIFF_RUNNER_STENCIL(temporary_field_for_grid_point_cold_pools_enhancement),
      ICONDIFF_RUNNER_STENCIL(enhance_diffusion_coefficient_for_grid_point_cold_pools),
      ICONDIFF_RUNNER_STENCIL(apply_diffusion_to_theta_and_exner),
      ICONDIFF_RUNNER_STENCIL(calculate_nabla2_for_z),
      ICONDIFF_RUNNER_STENCIL(calculate_nabla2_of_theta),
      ICONDIFF_RUNNER_STENCIL(calculate_nabla2_for_theta),
      ICONDIFF_RUNNER_STENCIL(truly_horizontal_diffusion_nabla_of_theta_over_steep_points),
      ICONDIFF_RUNNER_STENCIL(update_theta_and_exner),
      ICONDIFF_RUNNER_STENCIL(compute_rho_theta_pgrad_and_update_vn),
      ICONDIFF_RUNNER_STENCIL(apply_divergence_damping_and_update_vn),
      ICONDIFF_RUNNER_STENCIL(vertically_implicit_solver_at_predictor_step),
      ICONDIFF_RUNNER_STENCIL(vertically_implicit_solver_at_corrector_step),
      ICONDIFF_RUNNER_STENCIL(compute_diagnostics_from_normal_wind),
      ICONDIFF_RUNNER_STENCIL(compute_advection_in_horizontal_momentum),
      ICONDIFF_RUNNER_STENCIL(compute_advection_in_predictor_vertical_momentum),
      ICONDIFF_RUNNER_STENCIL(compute_advection_in_corrector_vertical_momentum),
      ICONDIFF_RUNNER_STENCIL(compute_exner_from_rhotheta),
      ICONDIFF_RUNNER_STENCIL(update_theta_and_exner_in_halo),
      ICONDIFF_RUNNER_STENCIL(init_cell_kdim_field_with_zero_wp),
      ICONDIFF_RUNNER_STENCIL(update_mass_flux_weighted),
      ICONDIFF_RUNNER_STENCIL(compute_dwdz_for_divergence_damping),
      ICONDIFF_RUNNER_STENCIL(compute_hydrostatic_correction_term),
      ICONDIFF_RUNNER_STENCIL(compute_averaged_vn_and_fluxes),
      ICONDIFF_RUNNER_STENCIL(compute_horizontal_velocity_quantities_and_fluxes),
      ICONDIFF_RUNNER_STENCIL(compute_interpolation_and_nonhydro_buoy),
      ICONDIFF_RUNNER_STENCIL(stencils_61_62),
      ICONDIFF_RUNNER_STENCIL(compute_perturbed_quantities_and_interpolation),
      ICONDIFF_RUNNER_STENCIL(compute_rayleigh_damping_factor),
#undef ICONDIFF_RUNNER_STENCIL
  };
  return table;
}

/// icondiff's connectivity tables and zone bounds, for comparison with ICON4Py's grid.
void dump_grid(const Grid& grid, const DeviceGrid<Mem>& device, OutputFile& out) {
  const auto table = [&](const char* name, const HostTable<index_t>& t, const char* point_dim) {
    // HostTable is row-major (point, slot); stored as netCDF (point, slot) like ICON4Py's tables.
    std::vector<int> values(t.rows() * t.cols());
    for (std::size_t r = 0; r < t.rows(); ++r)
      for (std::size_t j = 0; j < t.cols(); ++j) values[r * t.cols() + j] = t(r, j);
    out.add<int>(name, {point_dim, std::string(name) + "_slot"}, {t.rows(), t.cols()},
                 values.data());
  };
  table("C2E", grid.c2e, "Cell");
  table("C2V", grid.c2v, "Cell");
  table("C2E2C", grid.c2e2c, "Cell");
  table("C2E2CO", grid.c2e2co, "Cell");
  table("E2C", grid.e2c, "Edge");
  table("E2V", grid.e2v, "Edge");
  table("E2C2V", grid.e2c2v, "Edge");
  table("E2C2E", grid.e2c2e, "Edge");
  table("V2E", grid.v2e, "Vertex");
  table("V2C", grid.v2c, "Vertex");
  for (const Location l : all_locations)
    for (int z = 0; z < num_zones; ++z) {
      const Zone zone = static_cast<Zone>(z);
      if (!zone_exists(l, zone)) continue;
      const IndexRange r = device.range(l, zone);
      out.attribute(fmt::format("zone_{}_{}_start", to_string(l), to_string(zone)), r.start);
      out.attribute(fmt::format("zone_{}_{}_end", to_string(l), to_string(zone)), r.end);
    }
}

int run(int argc, char* argv[]) {
  CLI::App app{
      "Runs one icondiff diffusion stencil over the granule's range, or one dycore program over "
      "the "
      "Dycore's domain, on inputs from a netCDF file (see perf_tests/peers/icon4py/"
      "compare_stencils.py and compare_dycore.py)",
      "icondiff_stencil_runner"};
  std::string grid_source, stencil, inputs, output, schedule_name, dump;
  bool list = false;
  int repeat = 1;
  int timed_calls = 0;
  app.add_option("--grid", grid_source, "grid: a file path or generate:RnBk[/cap:...]");
  app.add_option("--stencil", stencil, "ICON4Py program / stencil name (see --list)");
  app.add_option("--inputs", inputs, "netCDF file with the program's arguments");
  app.add_option("--output", output, "netCDF file to write the outputs to");
  app.add_option("--schedule", schedule_name,
                 "loop schedule: mdrange, flat, points-outer, level-chunks (default: backend's)");
  app.add_option("--repeat", repeat,
                 "run the stencil this many times, reading its inputs from the file each time "
                 "(default 1; --time times a dycore program alone)")
      ->check(CLI::PositiveNumber);
  app.add_option("--time", timed_calls,
                 "dycore programs: time this many calls after the first, each fenced "
                 "(icondiff_call_seconds*, attributes of the output)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--dump-grid", dump,
                 "write icondiff's connectivity tables and zones of --grid to this netCDF file");
  app.add_flag("--list", list, "list the stencils and exit");
  CLI11_PARSE(app, argc, argv);

  if (list) {
    for (const auto& [name, f] : stencils()) fmt::print("{}\n", name);
    return 0;
  }
  if (grid_source.empty()) throw InvalidArgument("--grid is required");
  const auto t0 = std::chrono::steady_clock::now();
  Grid grid = load_grid_source(grid_source);
  DeviceGrid<Mem> device(grid);
  const double grid_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!dump.empty()) {
    OutputFile out;
    dump_grid(grid, device, out);
    out.attribute("limited_area", grid.limited_area ? 1 : 0);
    out.attribute("grid_source", grid_source);
    out.write(dump);
    if (stencil.empty()) return 0;
  }
  if (stencil.empty() || inputs.empty() || output.empty())
    throw InvalidArgument("--stencil, --inputs and --output are required");
  const auto it = stencils().find(stencil);
  if (it == stencils().end())
    throw InvalidArgument("unknown stencil '" + stencil + "' (see --list)");

  InputFile in(inputs);
  OutputFile out;
  Context c{
      grid,
      device,
      in,
      out,
      schedule_name.empty() ? default_loop_schedule<Space>() : parse_loop_schedule(schedule_name),
      static_cast<index_t>(in.dimension("K")),
      stencil,
      timed_calls};
  const auto t1 = std::chrono::steady_clock::now();
  for (int i = 0; i < repeat; ++i) it->second(c);
  const double run_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  out.attribute("stencil", stencil);
  out.attribute("grid_source", grid_source);
  out.attribute("loop_schedule", to_string(c.schedule));
  out.attribute("vp_bytes", static_cast<long long>(sizeof(vp)));
  std::string read_as;  // "name:bytes ..." of every floating-point input read
  for (const auto& [name, bytes] : in.float_bytes())
    read_as += fmt::format("{}{}:{}", read_as.empty() ? "" : " ", name, bytes);
  out.attribute("input_float_bytes", read_as);
  out.attribute("nlev", c.nlev);
  out.write(output);
  fmt::print("{}: {} on {} ({} levels, {} schedule): grid {:.2f} s, stencil with I/O {:.3f} s\n",
             "icondiff_stencil_runner", stencil, grid_source, c.nlev, to_string(c.schedule),
             grid_seconds, run_seconds);
  return 0;
}

}  // namespace icondiff::stencil_runner

int main(int argc, char* argv[]) {
  setenv("OMP_PROC_BIND", "false", 0);
  icondiff::compat::initialize(argc, argv);
  int status = 1;
  try {
    status = icondiff::stencil_runner::run(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "icondiff_stencil_runner: error: {}\n", e.what());
    status = 2;
  }
  Kokkos::finalize();
  return status;
}
