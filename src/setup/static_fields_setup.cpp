#include <icondiff/core/error.hpp>
#include <icondiff/core/execution_spaces.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/dycore/dycore_states.hpp>
#include <icondiff/setup/static_fields_setup.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <type_traits>
#include <variant>

namespace icondiff {

namespace {

// ---- Who reads what: the names of each granule's selection
// ---------------------------------------

#define ICONDIFF_FIELD_NAME(name, ...) #name,

const std::set<std::string>& diffusion_fields() {
  static const std::set<std::string> names = {
      ICONDIFF_DIFFUSION_METRIC_FIELDS(ICONDIFF_FIELD_NAME)
          ICONDIFF_DIFFUSION_INTERPOLATION_FIELDS(ICONDIFF_FIELD_NAME)
              ICONDIFF_DIFFUSION_EDGE_FIELDS(ICONDIFF_FIELD_NAME)
                  ICONDIFF_DIFFUSION_CELL_FIELDS(ICONDIFF_FIELD_NAME)};
  return names;
}
const std::set<std::string>& dycore_fields() {
  static const std::set<std::string> names = {
      ICONDIFF_DYCORE_METRIC_FIELDS(ICONDIFF_FIELD_NAME)
          ICONDIFF_DYCORE_INTERPOLATION_FIELDS(ICONDIFF_FIELD_NAME)
              ICONDIFF_DYCORE_EDGE_FIELDS(ICONDIFF_FIELD_NAME)
                  ICONDIFF_DYCORE_CELL_FIELDS(ICONDIFF_FIELD_NAME)};
  return names;
}
const std::set<std::string>& solve_nh_fields() {
  static const std::set<std::string> names = {ICONDIFF_SOLVE_NH_STATICS(ICONDIFF_FIELD_NAME)};
  return names;
}

struct ProgramStatics {
  const char* program;
  std::set<std::string> fields;
};
const std::vector<ProgramStatics>& program_statics() {
  static const std::vector<ProgramStatics> programs = {
      {"compute_rho_theta_pgrad_and_update_vn",
       {ICONDIFF_RHO_THETA_PGRAD_STATICS(ICONDIFF_FIELD_NAME)}},
      {"apply_divergence_damping_and_update_vn",
       {ICONDIFF_DIVDAMP_UPDATE_VN_STATICS(ICONDIFF_FIELD_NAME)}},
      {"vertically_implicit_solver_at_predictor_step",
       {ICONDIFF_SOLVER_PREDICTOR_STATICS(ICONDIFF_FIELD_NAME)}},
      {"vertically_implicit_solver_at_corrector_step",
       {ICONDIFF_SOLVER_CORRECTOR_STATICS(ICONDIFF_FIELD_NAME)}},
      {"compute_diagnostics_from_normal_wind",
       {ICONDIFF_DIAGNOSTICS_FROM_NORMAL_WIND_STATICS(ICONDIFF_FIELD_NAME)}},
      {"compute_advection_in_horizontal_momentum",
       {ICONDIFF_ADVECTION_IN_HORIZONTAL_MOMENTUM_STATICS(ICONDIFF_FIELD_NAME)}},
      {"compute_horizontal_velocity_quantities_and_fluxes",
       {ICONDIFF_HORIZONTAL_VELOCITY_QUANTITIES_STATICS(ICONDIFF_FIELD_NAME)}},
      {"compute_averaged_vn_and_fluxes",
       {ICONDIFF_AVERAGED_VN_AND_FLUXES_STATICS(ICONDIFF_FIELD_NAME)}},
      {"compute_perturbed_quantities_and_interpolation",
       {ICONDIFF_PERTURBED_QUANTITIES_STATICS(ICONDIFF_FIELD_NAME)}},
      {"compute_interpolation_and_nonhydro_buoy",
       {ICONDIFF_INTERPOLATION_AND_NONHYDRO_BUOY_STATICS(ICONDIFF_FIELD_NAME)}},
      {"update_theta_and_exner_in_halo",
       {ICONDIFF_THETA_AND_EXNER_IN_HALO_STATICS(ICONDIFF_FIELD_NAME)}},
      {"update_mass_flux_weighted", {ICONDIFF_MASS_FLUX_WEIGHTED_STATICS(ICONDIFF_FIELD_NAME)}},
      {"compute_dwdz_for_divergence_damping",
       {ICONDIFF_DWDZ_FOR_DIVERGENCE_DAMPING_STATICS(ICONDIFF_FIELD_NAME)}},
      {"compute_hydrostatic_correction_term",
       {ICONDIFF_HYDROSTATIC_CORRECTION_STATICS(ICONDIFF_FIELD_NAME)}},
      {"compute_advection_in_predictor_vertical_momentum",
       {ICONDIFF_ADVECTION_IN_PREDICTOR_VERTICAL_MOMENTUM_STATICS(ICONDIFF_FIELD_NAME)}},
      {"compute_advection_in_corrector_vertical_momentum",
       {ICONDIFF_ADVECTION_IN_CORRECTOR_VERTICAL_MOMENTUM_STATICS(ICONDIFF_FIELD_NAME)}},
  };
  return programs;
}

#undef ICONDIFF_FIELD_NAME

// ---- Where each field comes from: the one map from factory results to field names
// ----------------

using HostSource =
    std::variant<std::monostate, const std::vector<double>*, const std::vector<int>*,
                 const std::vector<std::uint8_t>*, const HostTable<double>*,
                 const std::array<HostTable<double>, 2>*, const std::array<HostTable<double>, 3>*,
                 const std::array<HostTable<int>, 2>*, const std::array<HostTable<int>, 3>*>;

HostSource source_of(const std::string& name, const HostStaticInputs& in) {
  const HostMetricFields& m = in.metrics;
  const HostDycoreMetricFields& d = in.dycore_metrics;
  const InterpolationCoefficients& c = in.interpolation;
  const EdgeGeometry& e = in.edges;
  const std::vector<std::pair<const char*, HostSource>> sources = {
      // metric fields
      {"theta_ref_mc", &m.theta_ref_mc},
      {"wgtfac_c", &m.wgtfac_c},
      {"zd_vertoffset", &m.zd_vertoffset},
      {"zd_diffcoef", &m.zd_diffcoef},
      {"zd_intcoef", &m.zd_intcoef},
      {"reference_rho_at_edges_on_model_levels", &d.rho_ref_me},
      {"reference_theta_at_edges_on_model_levels", &d.theta_ref_me},
      {"reference_rho_at_cells_on_model_levels", &d.rho_ref_mc},
      {"reference_exner_at_cells_on_model_levels", &d.exner_ref_mc},
      {"reference_theta_at_cells_on_half_levels", &d.theta_ref_ic},
      {"ddz_of_reference_exner_at_cells_on_half_levels", &d.d_exner_dz_ref_ic},
      {"d2dexdz2_fac1_mc", &d.d2dexdz2_fac1_mc},
      {"d2dexdz2_fac2_mc", &d.d2dexdz2_fac2_mc},
      {"time_extrapolation_parameter_for_exner", &d.exner_exfac},
      {"ddxn_z_full", &m.ddxn_z_full},
      {"ddxt_z_full", &d.ddxt_z_full},
      {"ddqz_z_full_e", &d.ddqz_z_full_e},
      {"inv_ddqz_z_full", &d.inv_ddqz_z_full},
      {"ddqz_z_half", &d.ddqz_z_half},
      {"wgtfacq_c", &d.wgtfacq_c},
      {"wgtfac_e", &d.wgtfac_e},
      {"wgtfacq_e", &d.wgtfacq_e},
      {"vertoffset_gradp", &d.vertoffset_gradp},
      {"zdiff_gradp", &d.zdiff_gradp},
      {"pg_exdist", &d.pg_exdist},
      {"horizontal_mask_for_3d_divdamp", &d.hmask_dd3d},
      {"exner_w_explicit_weight_parameter", &d.vwind_expl_wgt},
      {"exner_w_implicit_weight_parameter", &d.vwind_impl_wgt},
      {"coeff1_dwdz", &d.coeff1_dwdz},
      {"coeff2_dwdz", &d.coeff2_dwdz},
      {"coeff_gradekin", &c.coeff_gradekin},
      {"mask_prog_halo_c", &d.mask_prog_halo_c},
      // interpolation coefficients
      {"e_bln_c_s", &c.e_bln_c_s},
      {"rbf_coeff_1", &c.rbf_vec_coeff_v1},
      {"rbf_coeff_2", &c.rbf_vec_coeff_v2},
      {"geofac_div", &c.geofac_div},
      {"geofac_n2s", &c.geofac_n2s},
      {"geofac_grg_x", &c.geofac_grg_x},
      {"geofac_grg_y", &c.geofac_grg_y},
      {"nudgecoeff_e", &c.nudgecoeff_e},
      {"c_lin_e", &c.c_lin_e},
      {"c_intp", &c.c_intp},
      {"e_flx_avg", &c.e_flx_avg},
      {"geofac_grdiv", &c.geofac_grdiv},
      {"geofac_rot", &c.geofac_rot},
      {"rbf_vec_coeff_e", &c.rbf_vec_coeff_e},
      {"pos_on_tplane_e_1", &c.pos_on_tplane_e_1},
      {"pos_on_tplane_e_2", &c.pos_on_tplane_e_2},
      // edge and cell geometry
      {"tangent_orientation", &in.grid.tangent_orientation},
      {"inverse_primal_edge_lengths", &e.inverse_primal_edge_length},
      {"inverse_vertex_vertex_lengths", &e.inverse_vertex_vertex_length},
      {"inverse_dual_edge_lengths", &e.inverse_dual_edge_length},
      {"edge_areas", &e.edge_area},
      {"coriolis_frequency", &e.coriolis_frequency},
      {"primal_normal_vert_x", &e.primal_normal_vert_x},
      {"primal_normal_vert_y", &e.primal_normal_vert_y},
      {"dual_normal_vert_x", &e.dual_normal_vert_x},
      {"dual_normal_vert_y", &e.dual_normal_vert_y},
      {"primal_normal_cell_x", &e.primal_normal_cell_x},
      {"primal_normal_cell_y", &e.primal_normal_cell_y},
      {"dual_normal_cell_x", &e.dual_normal_cell_x},
      {"dual_normal_cell_y", &e.dual_normal_cell_y},
      {"cell_area", &in.grid.cell_area},
      {"c_owner_mask", &d.c_owner_mask},
  };
  for (const auto& [n, s] : sources)
    if (name == n) return s;
  return {};
}

/// The rank of the View a host container becomes.
template <class Source>
constexpr int source_rank() {
  using S = std::remove_cv_t<std::remove_pointer_t<Source>>;
  if constexpr (std::is_same_v<S, HostTable<double>>) return 2;
  if constexpr (std::is_same_v<S, std::array<HostTable<double>, 2>> ||
                std::is_same_v<S, std::array<HostTable<double>, 3>> ||
                std::is_same_v<S, std::array<HostTable<int>, 2>> ||
                std::is_same_v<S, std::array<HostTable<int>, 3>>)
    return 3;
  return 1;
}

template <class M>
struct FillField {
  const HostStaticInputs& in;
  FieldSizes sizes;

  template <class View>
  void operator()(const FieldSpec& spec, View& view) const {
    if (!in.selection.needs(spec.name)) return;
    using T = typename View::non_const_value_type;
    const HostSource source = source_of(spec.name, in);
    if (std::holds_alternative<std::monostate>(source))
      throw InvalidArgument(fmt::format("static fields: no factory computes {}", spec.name));
    const std::string label = std::string("icondiff::statics::") + spec.name;
    std::visit(
        [&](const auto& host) {
          using H = std::decay_t<decltype(host)>;
          if constexpr (!std::is_same_v<H, std::monostate>) {
            using Source = std::remove_cv_t<std::remove_pointer_t<H>>;
            if constexpr (source_rank<Source>() == static_cast<int>(View::rank))
              view = copy_to_view<T, M>(label, *host);
            else
              throw InvalidArgument(
                  fmt::format("static fields: the factory result of {} has "
                              "rank {}, the field rank {}",
                              spec.name, source_rank<Source>(), View::rank));
          }
        },
        source);
    // The factory's shape must be the field's: a wrong one is a bug here, not the user's.
    const auto want = field_extents(spec, sizes);
    if (view_extents(view) != want)
      throw InvalidArgument(fmt::format("static fields: {} is {}, expected {}", spec.name,
                                        extents_string(view_extents(view)), extents_string(want)));
  }
};

}  // namespace

bool StaticFieldSelection::needs(const std::string& field) const {
  return (diffusion && diffusion_fields().count(field)) ||
         (dycore && dycore_fields().count(field)) || (solve_nh && solve_nh_fields().count(field));
}

std::vector<std::string> static_field_users(const std::string& field) {
  std::vector<std::string> users;
  if (diffusion_fields().count(field)) users.emplace_back("diffusion");
  for (const auto& p : program_statics())
    if (p.fields.count(field)) users.emplace_back(p.program);
  if (solve_nh_fields().count(field)) users.emplace_back("solve_nh");
  return users;
}

HostStaticInputs compute_static_inputs(Grid grid, const StaticsSetupConfig& config,
                                       const StaticFieldSelection& selection,
                                       const CellHaloExchange& exchange) {
  HostStaticInputs in;
  in.selection = selection;
  in.edges = compute_edge_geometry(grid);
  in.interpolation = compute_interpolation_coefficients(grid, config.interpolation, exchange);
  in.metrics = compute_metric_fields(grid, config.vertical, config.metrics,
                                     compute_topography(grid, config.metrics.topography),
                                     in.interpolation.geofac_n2s, in.interpolation.c_bln_avg);
  if (selection.needs_dycore_factories()) {
    compute_dycore_interpolation_coefficients(grid, in.edges, config.interpolation,
                                              in.interpolation);
    in.dycore_metrics =
        compute_dycore_metric_fields(grid, config.vertical, config.metrics, in.metrics,
                                     in.interpolation.c_lin_e, in.interpolation.c_intp);
    in.kstart_moist =
        start_index_of_moist_physics(in.metrics.vertical.vct_a, config.vertical.htop_moist_proc);
  }
  in.mean_cell_area = mean_cell_area(grid);
  in.grid = std::move(grid);
  return in;
}

template <class M>
StaticFields<M> make_static_fields(const HostStaticInputs& in) {
  StaticFields<M> s;
  FieldSizes sizes;
  sizes.cells = in.grid.num_cells;
  sizes.edges = in.grid.num_edges;
  sizes.vertices = in.grid.num_vertices;
  sizes.nlev = static_cast<std::size_t>(in.metrics.num_levels());
  StaticFields<M>::for_each_field(FillField<M>{in, sizes}, s);
  if (in.selection.needs_dycore_factories()) {
    s.rayleigh_w =
        copy_to_view<wp, M>("icondiff::statics::rayleigh_w", in.dycore_metrics.rayleigh_w);
    s.scaling_factor_for_3d_divdamp = copy_to_view<wp, M>(
        "icondiff::statics::scaling_factor_for_3d_divdamp", in.dycore_metrics.scalfac_dd3d);
  }
  return s;
}

double mean_cell_area(const Grid& grid) {
  double area = 0.0;
  for (const double a : grid.cell_area) area += a;
  return grid.num_cells > 0 ? area / static_cast<double>(grid.num_cells) : 0.0;
}

template <class M>
DycoreInputs<M> make_dycore_inputs(const DycoreVerticalIndices& indices,
                                   const StaticFields<M>& statics, const DeviceGrid<M>& grid,
                                   const double mean_cell_area) {
  DycoreInputs<M> d;
  d.grid = grid;
  d.nlev = indices.nlev;
  d.nflatlev = indices.nflatlev;
  d.nflat_gradp = indices.nflat_gradp;
  d.end_index_of_damping_layer = indices.end_index_of_damping_layer;
  d.kstart_moist = indices.kstart_moist;
  d.mean_cell_area = mean_cell_area;
  d.metric.share_from(statics);
  d.metric.scaling_factor_for_3d_divdamp = statics.scaling_factor_for_3d_divdamp;
  d.metric.rayleigh_w = statics.rayleigh_w;
  d.interpolation.share_from(statics);
  d.edges.share_from(statics);
  d.cells.share_from(statics);
  return d;
}

template <class M>
DycoreInputs<M> make_dycore_inputs(const HostStaticInputs& in, const StaticFields<M>& statics,
                                   const DeviceGrid<M>& grid) {
  if (!in.selection.dycore && !in.selection.solve_nh)
    throw InvalidArgument(
        "make_dycore_inputs: the static fields were built without the dycore's "
        "(StaticFieldSelection::dycore)");
  DycoreVerticalIndices indices;
  indices.nlev = in.metrics.num_levels();
  indices.nflatlev = in.metrics.nflatlev;
  indices.nflat_gradp = in.dycore_metrics.nflat_gradp;
  indices.end_index_of_damping_layer = in.metrics.vertical.end_index_of_damping_layer;
  indices.kstart_moist = in.kstart_moist;
  return make_dycore_inputs<M>(indices, statics, grid, in.mean_cell_area);
}

#define ICONDIFF_INSTANTIATE_STATICS(SPACE)                                           \
  template StaticFields<SPACE> make_static_fields<SPACE>(const HostStaticInputs&);    \
  template DycoreInputs<SPACE> make_dycore_inputs<SPACE>(                             \
      const HostStaticInputs&, const StaticFields<SPACE>&, const DeviceGrid<SPACE>&); \
  template DycoreInputs<SPACE> make_dycore_inputs<SPACE>(                             \
      const DycoreVerticalIndices&, const StaticFields<SPACE>&, const DeviceGrid<SPACE>&, double);
ICONDIFF_FOR_EACH_MEMORY_SPACE(ICONDIFF_INSTANTIATE_STATICS)

}  // namespace icondiff
