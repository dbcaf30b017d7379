// icondiff_solve_nh_runner: runs icondiff's solve_nh granule (SolveNonhydro<ExecSpace>::time_step,
// include/icondiff/dycore/solve_nonhydro.hpp) for a schedule of dynamics substeps, for the
// comparison with ICON4Py 0.2.0's SolveNonhydro.time_step (../compare_solve_nh.py).
//
// Two modes, both on --grid (an ICON grid file or generate:RnBk) and --statics (icondiff's statics
// file, `icondiff grid-info --statics`, or one written in that format from ICON4Py's factories):
//
//   --write-initial-state FILE   the Jablonowski-Williamson state (testcases/
//       jablonowski_williamson.hpp) with noise on vn and w (--vn-noise, --w-noise, --noise-seed) on
//       the statics' z_ifc (z_mc = the half levels' mean, as icondiff's metric factory computes
//       it): variables vn, w, theta_v, exner, rho; global attribute mean_cell_area (icondiff's
//       mean_cell_area(grid), the value the granule's second-order divergence damping uses).
//
//   --state FILE --run FILE --output FILE [--substep-output DIR]   runs the granule:
//     * the static bundle: read_static_fields_file, then make_dycore_inputs(file.indices,
//       copy_state<Mem>(file.fields), device grid, mean_cell_area(grid)) (docs/dev/dycore.md
//       "Using it"); the two vertical profiles rayleigh_w and scaling_factor_for_3d_divdamp are
//       not members of StaticFields' field list, so copy_state leaves them out: copied here. vct_a
//       (for the fourth-order divergence damping profile) from the file too.
//     * the state file: the prognostic time levels as current_<field> and next_<field>
//       (ICONDIFF_SOLVE_NH_PROGNOSTIC_FIELDS), every diagnostic field under its own name
//       (ICONDIFF_SOLVE_NH_DIAGNOSTIC_FIELDS; the limited-area tendencies grf_tend_* and the IAU
//       increments may be absent: the granule then gets empty fields), prep_adv's fields under
//       theirs, and the scalar max_vertical_cfl (0 when absent). Dimensions as in the statics
//       file: (nlev|nlev_half, cell|edge), the point index fastest (ICON's order).
//     * the run file: DycoreConfig as global attributes config.<member> (dycore_config_fields();
//       the ones absent keep the default) and the schedule: dimension substep, one variable per
//       scalar of SolveNhStep (ICONDIFF_SOLVE_NH_STEP_SCALARS, all required) plus
//       reset_max_vertical_cfl (optional: set diagnostic.max_vertical_cfl to 0 before the
//       substep, as ICON does at the start of a physics step).
//     * after every substep, as ICON's integrate_nh does: the time levels swap (current <-> next)
//       and so do the predictor/corrector slots of the advective tendencies of vn and w (ICON's
//       ntl1 = nnow, ntl2 = nnew swap with the time levels; ICON4Py's binding receives
//       ddt_vn_apc_ntl1/ntl2 after that swap).
//     * the output: the state as the LAST substep left it, before its swap (current_*, next_*,
//       the diagnostic fields, prep_adv, max_vertical_cfl), the granule's own fields as
//       local_<name> (SolveNhLocalFields), the fourth-order divergence damping profile
//       interpolated_fourth_order_divdamp_factor, and the series max_vertical_cfl_after_substep
//       and substep_seconds (each substep fenced). --substep-output DIR writes the same for every
//       substep as DIR/substep_<n>.nc (n from 0). vp fields are written in vp (float in a
//       mixed-precision build), wp fields as double; attribute vp_bytes.
#include <icondiff/core/error.hpp>
#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/host_table.hpp>
#include <icondiff/core/launch.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/dycore/dycore_config.hpp>
#include <icondiff/dycore/solve_nonhydro.hpp>
#include <icondiff/dycore/solve_nonhydro_states.hpp>
#include <icondiff/grid/device_grid.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/static_fields_file.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/setup/static_fields_setup.hpp>
#include <icondiff/testcases/jablonowski_williamson.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <netcdf.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace icondiff::solve_nh_runner {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using H = Kokkos::HostSpace;

const std::string scope = "icondiff::solve_nh_runner::";

void check_nc(int status, const std::string& file, const std::string& what) {
  if (status != NC_NOERR)
    throw InvalidArgument(fmt::format("{}: {}: {}", file, what, nc_strerror(status)));
}

// ---- netCDF input -------------------------------------------------------------------------------

class NcIn {
 public:
  explicit NcIn(std::string path) : path_(std::move(path)) {
    check_nc(nc_open(path_.c_str(), NC_NOWRITE, &ncid_), path_, "cannot open");
  }
  ~NcIn() { nc_close(ncid_); }
  NcIn(const NcIn&) = delete;
  NcIn& operator=(const NcIn&) = delete;

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

  /// The variable's dimension names, outermost first.
  std::vector<std::string> dims(const std::string& name) const {
    const int varid = variable(name);
    int ndims = 0;
    check_nc(nc_inq_varndims(ncid_, varid, &ndims), path_, name);
    std::vector<int> ids(static_cast<std::size_t>(ndims));
    if (ndims > 0) check_nc(nc_inq_vardimid(ncid_, varid, ids.data()), path_, name);
    std::vector<std::string> out;
    for (const int d : ids) {
      char buf[NC_MAX_NAME + 1] = {};
      check_nc(nc_inq_dimname(ncid_, d, buf), path_, name);
      out.emplace_back(buf);
    }
    return out;
  }

  /// `name` as doubles (netCDF converts integer and float variables exactly), after checking its
  /// dimensions are `expected` (outermost first).
  std::vector<double> read(const std::string& name,
                           const std::vector<std::string>& expected) const {
    const auto d = dims(name);
    if (d != expected) {
      std::string got, want;
      for (const auto& x : d) got += x + " ";
      for (const auto& x : expected) want += x + " ";
      throw InvalidArgument(fmt::format("{}: variable {} has dimensions ( {}), expected ( {})",
                                        path_, name, got, want));
    }
    std::size_t n = 1;
    for (const auto& x : d) n *= dimension(x);
    std::vector<double> values(n);
    check_nc(nc_get_var_double(ncid_, variable(name), values.data()), path_, "reading " + name);
    return values;
  }

  std::optional<double> number_attribute(const std::string& name) const {
    nc_type type = 0;
    std::size_t len = 0;
    if (nc_inq_att(ncid_, NC_GLOBAL, name.c_str(), &type, &len) != NC_NOERR) return std::nullopt;
    if (type == NC_CHAR || len != 1)
      throw InvalidArgument(
          fmt::format("{}: global attribute {} is not a single number", path_, name));
    double value = 0;
    check_nc(nc_get_att_double(ncid_, NC_GLOBAL, name.c_str(), &value), path_, name);
    return value;
  }

 private:
  int variable(const std::string& name) const {
    int varid = 0;
    check_nc(nc_inq_varid(ncid_, name.c_str(), &varid), path_, "variable " + name);
    return varid;
  }

  std::string path_;
  int ncid_ = -1;
};

// ---- netCDF output ------------------------------------------------------------------------------

class NcOut {
 public:
  template <class T>
  void add(const std::string& name, const std::vector<std::pair<std::string, std::size_t>>& dims,
           std::vector<T> values) {
    Variable v;
    v.name = name;
    for (const auto& [d, n] : dims) {
      auto it = dims_.find(d);
      if (it != dims_.end() && it->second != n)
        throw InvalidArgument(fmt::format("output: dimension {} is {} and {}", d, it->second, n));
      dims_[d] = n;
      v.dims.push_back(d);
    }
    if constexpr (std::is_same_v<T, double>) {
      v.type = NC_DOUBLE;
    } else if constexpr (std::is_same_v<T, float>) {
      v.type = NC_FLOAT;
    } else {
      static_assert(std::is_same_v<T, int>);
      v.type = NC_INT;
    }
    v.bytes.resize(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(v.bytes.data(), values.data(), v.bytes.size());
    variables_.push_back(std::move(v));
  }
  void attribute(const std::string& name, double value) { reals_[name] = value; }
  void attribute(const std::string& name, const std::string& value) { texts_[name] = value; }

  void write(const std::string& path) const {
    int ncid = -1;
    check_nc(nc_create(path.c_str(), NC_CLOBBER | NC_64BIT_DATA, &ncid), path, "cannot create");
    std::map<std::string, int> dimids;
    for (const auto& [d, n] : dims_) {
      int id = 0;
      check_nc(nc_def_dim(ncid, d.c_str(), n, &id), path, d);
      dimids[d] = id;
    }
    std::vector<int> varids;
    for (const auto& v : variables_) {
      std::vector<int> ids;
      for (const auto& d : v.dims) ids.push_back(dimids.at(d));
      int id = 0;
      check_nc(
          nc_def_var(ncid, v.name.c_str(), v.type, static_cast<int>(ids.size()), ids.data(), &id),
          path, v.name);
      varids.push_back(id);
    }
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
  struct Variable {
    std::string name;
    std::vector<std::string> dims;
    nc_type type = NC_DOUBLE;
    std::vector<unsigned char> bytes;
  };
  std::map<std::string, std::size_t> dims_;
  std::vector<Variable> variables_;
  std::map<std::string, double> reals_;
  std::map<std::string, std::string> texts_;
};

// ---- fields <-> files ---------------------------------------------------------------------------

const char* point_dim(Location l) {
  return l == Location::Cell ? "cell" : l == Location::Edge ? "edge" : "vertex";
}

/// The file dimensions of a field (outermost first): (levels, point) or (point).
std::vector<std::pair<std::string, std::size_t>> file_dims(const FieldSpec& spec,
                                                           const FieldSizes& sizes) {
  if (spec.neighbours != Neighbours::None)
    throw InvalidArgument(std::string("solve_nh_runner: field ") + spec.name +
                          " has a neighbour dimension (not a state field)");
  std::vector<std::pair<std::string, std::size_t>> d;
  if (spec.levels == Levels::Full) d.emplace_back("nlev", sizes.nlev);
  if (spec.levels == Levels::Half) d.emplace_back("nlev_half", sizes.nlev + 1);
  d.emplace_back(point_dim(spec.location), sizes.points(spec.location));
  return d;
}

/// Reads every field of `State` (host) from `in` under prefix + name; a missing IfAvailable field
/// stays empty, a missing required one is an error.
template <template <class> class State>
State<H> read_state(const NcIn& in, const FieldSizes& sizes, const std::string& prefix) {
  State<H> s = allocate_state<State, H>(sizes, scope + prefix);
  State<H>::for_each_field(
      [&](const FieldSpec& spec, auto& view) {
        using V = std::decay_t<decltype(view)>;
        const std::string name = prefix + spec.name;
        if (!in.has(name)) {
          if (spec.presence == Presence::IfAvailable) {
            view = V();
            return;
          }
          throw InvalidArgument(
              fmt::format("{}: no variable {} (a required {} field)", in.path(), name, spec.name));
        }
        std::vector<std::string> want;
        for (const auto& [d, n] : file_dims(spec, sizes)) want.push_back(d);
        const std::vector<double> v = in.read(name, want);
        using T = typename V::non_const_value_type;
        if constexpr (V::rank == 1) {
          for (std::size_t i = 0; i < view.extent(0); ++i) view(i) = static_cast<T>(v[i]);
        } else if constexpr (V::rank == 2) {
          const std::size_t n = view.extent(0);
          for (std::size_t k = 0; k < view.extent(1); ++k)
            for (std::size_t i = 0; i < n; ++i) view(i, k) = static_cast<T>(v[k * n + i]);
        }
      },
      s);
  return s;
}

/// Adds every non-empty field of `state` (any memory space) to `out` as prefix + name, in its own
/// element type (vp stays vp).
template <class State>
void write_state(NcOut& out, const State& state, const FieldSizes& sizes,
                 const std::string& prefix) {
  State::for_each_field(
      [&](const FieldSpec& spec, const auto& view) {
        if (view.size() == 0) return;
        const auto host = Kokkos::create_mirror_view_and_copy(H(), view);
        using V = std::decay_t<decltype(host)>;
        using T = typename V::non_const_value_type;
        std::vector<T> values(view.size());
        if constexpr (V::rank == 1) {
          for (std::size_t i = 0; i < host.extent(0); ++i) values[i] = host(i);
        } else {
          static_assert(V::rank == 2);
          const std::size_t n = host.extent(0);
          for (std::size_t k = 0; k < host.extent(1); ++k)
            for (std::size_t i = 0; i < n; ++i) values[k * n + i] = host(i, k);
        }
        out.add(prefix + spec.name, file_dims(spec, sizes), std::move(values));
      },
      state);
}

template <class View>
std::vector<double> profile_values(const View& view) {
  const auto host = Kokkos::create_mirror_view_and_copy(H(), view);
  std::vector<double> values(host.extent(0));
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<double>(host(k));
  return values;
}

// ---- the initial state --------------------------------------------------------------------------

int write_initial_state(const Grid& grid, const std::string& statics, const std::string& path,
                        const JablonowskiWilliamsonConfig& jw) {
  NcIn in(statics);
  const std::size_t nc = static_cast<std::size_t>(grid.num_cells);
  const std::size_t ne = static_cast<std::size_t>(grid.num_edges);
  const std::size_t nlev = in.dimension("nlev");
  if (in.dimension("cell") != nc)
    throw InvalidArgument(
        fmt::format("{}: {} cells, the grid has {}", statics, in.dimension("cell"), nc));
  const std::vector<double> z = in.read("z_ifc", {"nlev_half", "cell"});
  HostTable<double> z_ifc(nc, nlev + 1), z_mc(nc, nlev);
  for (std::size_t k = 0; k <= nlev; ++k)
    for (std::size_t c = 0; c < nc; ++c) z_ifc(c, k) = z[k * nc + c];
  for (std::size_t c = 0; c < nc; ++c)
    for (std::size_t k = 0; k < nlev; ++k) z_mc(c, k) = 0.5 * (z_ifc(c, k) + z_ifc(c, k + 1));
  const InitialState s = jablonowski_williamson_state(grid, z_ifc, z_mc, jw);
  NcOut out;
  out.add("vn", {{"nlev", nlev}, {"edge", ne}}, s.vn);
  out.add("w", {{"nlev_half", nlev + 1}, {"cell", nc}}, s.w);
  out.add("theta_v", {{"nlev", nlev}, {"cell", nc}}, s.theta_v);
  out.add("exner", {{"nlev", nlev}, {"cell", nc}}, s.exner);
  out.add("rho", {{"nlev", nlev}, {"cell", nc}}, s.rho);
  out.attribute("mean_cell_area", mean_cell_area(grid));
  out.attribute("vn_noise_amplitude", jw.vn_noise_amplitude);
  out.attribute("w_noise_amplitude", jw.w_noise_amplitude);
  out.attribute("noise_seed", static_cast<double>(jw.noise_seed));
  out.attribute("title", "Jablonowski-Williamson state (icondiff testcases) on the statics' z_ifc");
  out.write(path);
  fmt::print("icondiff_solve_nh_runner: initial state ({} cells, {} edges, {} levels) -> {}\n", nc,
             ne, nlev, path);
  return 0;
}

// ---- the run ------------------------------------------------------------------------------------

struct States {
  SolveNhPrognosticState<Mem> current, next;
  SolveNhDiagnosticState<Mem> diagnostic;
  SolveNhPrepAdvection<Mem> prep_adv;
};

DycoreConfig read_config(const NcIn& run, std::vector<std::string>& used) {
  DycoreConfig c;
  for (const auto& f : dycore_config_fields()) {
    const auto value = run.number_attribute(std::string("config.") + f.name);
    if (!value) continue;
    f.set(c, *value);
    used.emplace_back(f.name);
  }
  return c;
}

struct Schedule {
  std::vector<SolveNhStep> steps;
  std::vector<bool> reset_cfl;
};

Schedule read_schedule(const NcIn& run) {
  const std::size_t n = run.dimension("substep");
  Schedule s;
  s.steps.resize(n);
  s.reset_cfl.assign(n, false);
  const auto values = [&](const char* name) { return run.read(name, {"substep"}); };
#define ICONDIFF_READ_STEP_SCALAR(name, type, default_value, meaning) \
  {                                                                   \
    const auto v = values(#name);                                     \
    for (std::size_t i = 0; i < n; ++i) {                             \
      if constexpr (std::is_same_v<type, bool>)                       \
        s.steps[i].name = v[i] != 0;                                  \
      else                                                            \
        s.steps[i].name = static_cast<type>(v[i]);                    \
    }                                                                 \
  }
  ICONDIFF_SOLVE_NH_STEP_SCALARS(ICONDIFF_READ_STEP_SCALAR)
#undef ICONDIFF_READ_STEP_SCALAR
  if (run.has("reset_max_vertical_cfl")) {
    const auto v = values("reset_max_vertical_cfl");
    for (std::size_t i = 0; i < n; ++i) s.reset_cfl[i] = v[i] != 0;
  }
  return s;
}

void write_output(const std::string& path, const States& s, const SolveNonhydro<Space>& granule,
                  const FieldSizes& sizes, const std::vector<double>& cfl,
                  const std::vector<double>& seconds, int substep, const DycoreConfig& config,
                  const std::string& grid_source) {
  NcOut out;
  write_state(out, s.current, sizes, "current_");
  write_state(out, s.next, sizes, "next_");
  write_state(out, s.diagnostic, sizes, "");
  write_state(out, s.prep_adv, sizes, "");
  write_state(out, granule.local_fields(), sizes, "local_");
  out.add("interpolated_fourth_order_divdamp_factor", {{"nlev", sizes.nlev}},
          profile_values(granule.interpolated_fourth_order_divdamp_factor()));
  out.add("max_vertical_cfl", {}, std::vector<double>{s.diagnostic.max_vertical_cfl});
  out.add("max_vertical_cfl_after_substep", {{"substep_done", cfl.size()}}, cfl);
  out.add("substep_seconds", {{"substep_done", seconds.size()}}, seconds);
  out.attribute("substep", static_cast<double>(substep));
  out.attribute("vp_bytes", static_cast<double>(sizeof(vp)));
  out.attribute("grid_source", grid_source);
  out.attribute("execution_space", Space::name());
  for (const auto& f : dycore_config_fields())
    out.attribute(std::string("config.") + f.name, f.get(config));
  out.write(path);
}

int run_granule(const std::string& grid_source, const Grid& grid, const std::string& statics_path,
                const std::string& state_path, const std::string& run_path,
                const std::string& output, const std::string& substep_dir,
                const std::string& schedule_name) {
  const auto t0 = std::chrono::steady_clock::now();
  DeviceGrid<Mem> device(grid);
  StaticFieldsFile file = read_static_fields_file(statics_path, grid);
  if (file.vct_a.empty())
    throw InvalidArgument(statics_path +
                          ": no vct_a (the granule needs the nlev + 1 nominal "
                          "interface heights for its divergence damping profile)");
  StaticFields<Mem> statics = copy_state<Mem>(file.fields, scope + "statics::");
  // Not in StaticFields' field list, so not copied by copy_state.
  statics.rayleigh_w = copy_view<Mem>(scope + "statics::rayleigh_w", file.fields.rayleigh_w);
  statics.scaling_factor_for_3d_divdamp = copy_view<Mem>(
      scope + "statics::scaling_factor_for_3d_divdamp", file.fields.scaling_factor_for_3d_divdamp);
  const double area = mean_cell_area(grid);
  const DycoreInputs<Mem> inputs = make_dycore_inputs<Mem>(file.indices, statics, device, area);
  const FieldSizes sizes = inputs.sizes();

  NcIn run(run_path);
  std::vector<std::string> config_used;
  const DycoreConfig config = read_config(run, config_used);
  const Schedule schedule = read_schedule(run);

  NcIn state(state_path);
  States s;
  s.current = copy_state<Mem>(read_state<SolveNhPrognosticState>(state, sizes, "current_"),
                              scope + "current::");
  s.next =
      copy_state<Mem>(read_state<SolveNhPrognosticState>(state, sizes, "next_"), scope + "next::");
  s.diagnostic =
      copy_state<Mem>(read_state<SolveNhDiagnosticState>(state, sizes, ""), scope + "diagnostic::");
  s.prep_adv =
      copy_state<Mem>(read_state<SolveNhPrepAdvection>(state, sizes, ""), scope + "prep_adv::");
  s.diagnostic.max_vertical_cfl =
      state.has("max_vertical_cfl") ? state.read("max_vertical_cfl", {}).at(0) : 0.0;

  SolveNonhydroOptions<Space> options;
  if (!schedule_name.empty()) options.schedule = parse_loop_schedule(schedule_name);
  SolveNonhydro<Space> granule(config, inputs, file.vct_a, options);
  const double setup_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::vector<double> cfl, seconds;
  const std::size_t n = schedule.steps.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (schedule.reset_cfl[i]) s.diagnostic.max_vertical_cfl = 0;
    Kokkos::fence();
    const auto t = std::chrono::steady_clock::now();
    granule.time_step(s.diagnostic, s.current, s.next, s.prep_adv, schedule.steps[i]);
    Kokkos::fence();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
    cfl.push_back(s.diagnostic.max_vertical_cfl);
    if (!substep_dir.empty())
      write_output(fmt::format("{}/substep_{}.nc", substep_dir, i), s, granule, sizes, cfl, seconds,
                   static_cast<int>(i), config, grid_source);
    if (i + 1 == n) {
      write_output(output, s, granule, sizes, cfl, seconds, static_cast<int>(i), config,
                   grid_source);
      break;
    }
    // ICON's nnow/nnew swap: the time levels and the tendency slots ntl1/ntl2 with them.
    std::swap(s.current, s.next);
    std::swap(s.diagnostic.predictor_normal_wind_advective_tendency,
              s.diagnostic.corrector_normal_wind_advective_tendency);
    std::swap(s.diagnostic.predictor_vertical_wind_advective_tendency,
              s.diagnostic.corrector_vertical_wind_advective_tendency);
  }
  double total = 0;
  for (const double x : seconds) total += x;
  fmt::print(
      "icondiff_solve_nh_runner: {} substeps on {} ({} cells, {} edges, {} levels, limited_area "
      "{}, {}): setup {:.2f} s, substeps {:.3f} s, max_vertical_cfl {:.17g}; config from the run "
      "file: {}\n",
      n, grid_source, grid.num_cells, grid.num_edges, sizes.nlev, grid.limited_area ? 1 : 0,
      Space::name(), setup_seconds, total, s.diagnostic.max_vertical_cfl,
      config_used.empty() ? std::string("(defaults)")
                          : fmt::format("{}", fmt::join(config_used, ", ")));
  return 0;
}

int run(int argc, char* argv[]) {
  CLI::App app{
      "Runs icondiff's solve_nh granule (SolveNonhydro::time_step) for a schedule of substeps, or "
      "writes a Jablonowski-Williamson initial state "
      "(perf_tests/peers/icon4py/compare_solve_nh.py)",
      "icondiff_solve_nh_runner"};
  std::string grid_source, statics, initial, state, run_file, output, substep_dir, schedule_name;
  JablonowskiWilliamsonConfig jw;
  app.add_option("--grid", grid_source, "grid: a file path or generate:RnBk[/cap:...]")->required();
  app.add_option("--statics", statics, "icondiff statics file (icondiff grid-info --statics)")
      ->required();
  app.add_option("--write-initial-state", initial,
                 "write the JW initial state (vn, w, theta_v, exner, rho) to this file and exit");
  app.add_option("--vn-noise", jw.vn_noise_amplitude, "JW: amplitude of the noise on vn (m/s)");
  app.add_option("--w-noise", jw.w_noise_amplitude, "JW: amplitude of the noise on w (m/s)");
  app.add_option("--noise-seed", jw.noise_seed, "JW: noise seed");
  app.add_option("--state", state, "initial state file (current_*, next_*, diagnostic, prep_adv)");
  app.add_option("--run", run_file, "run file: config.* attributes and the substep schedule");
  app.add_option("--output", output, "write the state after the last substep here");
  app.add_option("--substep-output", substep_dir, "also write DIR/substep_<n>.nc after each");
  app.add_option("--schedule", schedule_name,
                 "loop schedule: mdrange, flat, points-outer, level-chunks (default: backend's)");
  CLI11_PARSE(app, argc, argv);

  const Grid grid = load_grid_source(grid_source);
  if (!initial.empty()) return write_initial_state(grid, statics, initial, jw);
  if (state.empty() || run_file.empty() || output.empty())
    throw InvalidArgument("--state, --run and --output are required (or --write-initial-state)");
  return run_granule(grid_source, grid, statics, state, run_file, output, substep_dir,
                     schedule_name);
}

}  // namespace icondiff::solve_nh_runner

int main(int argc, char* argv[]) {
  setenv("OMP_PROC_BIND", "false", 0);
  icondiff::compat::initialize(argc, argv);
  int status = 1;
  try {
    status = icondiff::solve_nh_runner::run(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "icondiff_solve_nh_runner: error: {}\n", e.what());
    status = 2;
  }
  Kokkos::finalize();
  return status;
}
