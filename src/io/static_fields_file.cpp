#include <icondiff/core/error.hpp>
#include <icondiff/io/static_fields_file.hpp>

#include "icon_order.hpp"
#include "netcdf_file.hpp"

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <set>
#include <type_traits>
#include <vector>

namespace icondiff {

namespace {

[[noreturn]] void throw_statics_file_error(const std::string& file, const std::string& variable,
                                           long long, const std::string& problem) {
  throw OutputFileError(
      file, variable.empty() ? problem : fmt::format("variable '{}': {}", variable, problem));
}

/// netCDF dimensions of a field, slowest first: (levels, slots, points), so points are fastest.
std::vector<std::string> dimensions_of(const FieldSpec& spec) {
  std::vector<std::string> dims;
  if (spec.levels == Levels::Full) dims.emplace_back("nlev");
  if (spec.levels == Levels::Half) dims.emplace_back("nlev_half");
  if (spec.neighbours != Neighbours::None) dims.emplace_back(to_string(spec.neighbours));
  dims.emplace_back(to_string(spec.location));
  return dims;
}

template <class T>
nc_type netcdf_type() {
  if constexpr (std::is_same_v<T, double>) return NC_DOUBLE;
  if constexpr (std::is_same_v<T, float>) return NC_FLOAT;
  return NC_INT;
}

/// A row-major (points, levels) table with the point index fastest.
std::vector<double> point_fastest(const HostTable<double>& t) {
  std::vector<double> out;
  out.reserve(t.rows() * t.cols());
  for (std::size_t k = 0; k < t.cols(); ++k)
    for (std::size_t i = 0; i < t.rows(); ++i) out.push_back(t(i, k));
  return out;
}

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

}  // namespace

void write_static_fields_file(const std::string& path, const HostStaticInputs& in,
                              const StaticFields<Kokkos::HostSpace>& statics) {
  using H = Kokkos::HostSpace;
  const int nlev = in.metrics.num_levels();
  io::NetcdfWriter nc(path, io::NetcdfFormat::Cdf5, throw_statics_file_error);
  nc.dimension("cell", static_cast<std::size_t>(in.grid.num_cells));
  nc.dimension("edge", static_cast<std::size_t>(in.grid.num_edges));
  nc.dimension("vertex", static_cast<std::size_t>(in.grid.num_vertices));
  nc.dimension("nlev", static_cast<std::size_t>(nlev));
  nc.dimension("nlev_half", static_cast<std::size_t>(nlev + 1));
  std::set<std::string> slot_dims;
  StaticFields<H>::for_each_field(
      [&](const FieldSpec& spec, const auto& view) {
        if (view.data() == nullptr || spec.neighbours == Neighbours::None) return;
        if (slot_dims.insert(to_string(spec.neighbours)).second)
          nc.dimension(to_string(spec.neighbours),
                       static_cast<std::size_t>(num_slots(spec.neighbours)));
      },
      statics);

  nc.text("", "title", "icondiff static fields (interpolation, metric, edge and cell fields)");
  nc.text("", "grid_source", in.grid.source);
  nc.text("", "grid_uuid", in.grid.uuid);
  nc.text("", "dimension_order",
          "(level, slot, point): the point index is fastest, as in ICON's arrays; indices and "
          "levels are 0-based, level 0 is the model top");
  nc.integer("", "nlev", nlev);
  nc.integer("", "nflatlev", in.metrics.nflatlev);
  nc.integer("", "end_index_of_damping_layer", in.metrics.vertical.end_index_of_damping_layer);
  if (in.selection.needs_dycore_factories()) {
    nc.integer("", "nflat_gradp", in.dycore_metrics.nflat_gradp);
    nc.integer("", "kstart_moist", in.kstart_moist);
  }

  std::vector<std::function<void()>> puts;
  StaticFields<H>::for_each_field(
      [&](const FieldSpec& spec, const auto& view) {
        if (view.data() == nullptr) return;
        using T = typename std::decay_t<decltype(view)>::non_const_value_type;
        nc.variable(spec.name, netcdf_type<T>(), dimensions_of(spec));
        nc.text(spec.name, "units", spec.units);
        nc.text(spec.name, "long_name", spec.long_name);
        nc.text(spec.name, "icon_name", spec.icon_name);
        nc.text(spec.name, "icon4py_name", spec.icon4py_name);
        nc.text(spec.name, "used_by", joined(static_field_users(spec.name)));
        puts.push_back([&nc, &view, name = std::string(spec.name)] {
          nc.put(name, io::values_in_icon_order(view).data());
        });
      },
      statics);

  // The vertical coordinate and the surface the fields were computed on, and the vertical
  // profiles: described here (they are not horizontal fields of the list), with the same five
  // attributes.
  struct Extra {
    const char* name;
    std::vector<std::string> dims;
    const char* units;
    const char* long_name;
    const char* icon_name;
    const char* icon4py_name;
    const char* used_by;
  };
  const auto extra = [&](const Extra& e, std::vector<double> values) {
    nc.variable(e.name, NC_DOUBLE, e.dims);
    nc.text(e.name, "units", e.units);
    nc.text(e.name, "long_name", e.long_name);
    nc.text(e.name, "icon_name", e.icon_name);
    nc.text(e.name, "icon4py_name", e.icon4py_name);
    nc.text(e.name, "used_by", e.used_by);
    puts.push_back([&nc, name = std::string(e.name), v = std::move(values)] { nc.put(name, v); });
  };
  const char* factories = "the metric factories (input)";
  extra({"vct_a",
         {"nlev_half"},
         "m",
         "nominal heights of the half levels (top first)",
         "vct_a (mo_vertical_grid)",
         "VerticalGrid.interface_physical_height",
         factories},
        in.metrics.vertical.vct_a);
  extra({"topography_c",
         {"cell"},
         "m",
         "surface height",
         "ext_data%atm%topography_c",
         "MetricsFieldsFactory topography",
         factories},
        in.metrics.topography);
  extra({"z_ifc",
         {"nlev_half", "cell"},
         "m",
         "height of the half levels",
         "p_nh%metrics%z_ifc",
         "metrics_attributes.CELL_HEIGHT_ON_HALF_LEVEL",
         factories},
        point_fastest(in.metrics.z_ifc));
  if (statics.rayleigh_w.data() != nullptr) {
    extra({"rayleigh_w",
           {"nlev_half"},
           "s-1",
           "Klemp's Rayleigh damping coefficient of w",
           "p_nh%metrics%rayleigh_w",
           "MetricStateNonHydro.rayleigh_w",
           "solve_nh"},
          io::values_in_icon_order(statics.rayleigh_w));
    extra({"scaling_factor_for_3d_divdamp",
           {"nlev"},
           "1",
           "vertical profile of the dw/dz term of the divergence damping",
           "p_nh%metrics%scalfac_dd3d",
           "MetricStateNonHydro.scaling_factor_for_3d_divdamp",
           "apply_divergence_damping_and_update_vn, solve_nh"},
          io::values_in_icon_order(statics.scaling_factor_for_3d_divdamp));
  }
  nc.end_definitions();
  for (const auto& put : puts) put();
  nc.close();
}

namespace {

/// Fills `view` (allocated here with the field's extents) from `values` in the file's order,
/// the point index fastest.
template <class View, class T>
void fill_point_fastest(View& view, const FieldSpec& spec, const FieldSizes& sizes,
                        const std::vector<T>& values) {
  using V = std::decay_t<View>;
  const auto e = field_extents(spec, sizes);
  const std::string label = std::string("icondiff::statics::") + spec.name;
  if constexpr (V::rank == 1)
    view = V(label, e[0]);
  else if constexpr (V::rank == 2)
    view = V(label, e[0], e[1]);
  else
    view = V(label, e[0], e[1], e[2]);
  io::assign_from_icon_order(view, values.data());
}

}  // namespace

StaticFieldsFile read_static_fields_file(const std::string& path, const Grid& grid) {
  io::NetcdfReader file(path);
  // The file must be of this grid: its point dimensions are the grid's sizes.
  const std::pair<const char*, index_t> points[] = {
      {"cell", grid.num_cells}, {"edge", grid.num_edges}, {"vertex", grid.num_vertices}};
  for (const auto& [name, n] : points)
    if (file.required_dimension(name) != static_cast<std::size_t>(n))
      file.fail("", -1,
                fmt::format("dimension '{}' = {}, but the grid '{}' has {} {}s: a statics file "
                            "belongs to the grid it was written for",
                            name, file.required_dimension(name), grid.source, n, name));
  StaticFieldsFile out;
  const std::size_t nlev = file.required_dimension("nlev");
  if (file.required_dimension("nlev_half") != nlev + 1)
    file.fail("", -1, "dimension 'nlev_half' is not nlev + 1");
  const FieldSizes sizes{static_cast<std::size_t>(grid.num_cells),
                         static_cast<std::size_t>(grid.num_edges),
                         static_cast<std::size_t>(grid.num_vertices), nlev};
  StaticFields<Kokkos::HostSpace>::for_each_field(
      [&](const FieldSpec& spec, auto& view) {
        if (!file.has_variable(spec.name)) return;
        using T = typename std::decay_t<decltype(view)>::non_const_value_type;
        if constexpr (std::is_same_v<T, int>)
          fill_point_fastest(view, spec, sizes, file.read_int(spec.name, dimensions_of(spec)));
        else
          fill_point_fastest(view, spec, sizes, file.read_double(spec.name, dimensions_of(spec)));
      },
      out.fields);
  const auto profile = [&](const char* name, const char* dim, auto& view) {
    if (!file.has_variable(name)) return;
    const auto values = file.read_double(name, {dim});
    view = std::decay_t<decltype(view)>(std::string("icondiff::statics::") + name, values.size());
    for (std::size_t k = 0; k < values.size(); ++k) view(k) = values[k];
  };
  profile("rayleigh_w", "nlev_half", out.fields.rayleigh_w);
  profile("scaling_factor_for_3d_divdamp", "nlev", out.fields.scaling_factor_for_3d_divdamp);
  if (file.has_variable("vct_a")) out.vct_a = file.read_double("vct_a", {"nlev_half"});
  const auto index = [&](const char* name) {
    const auto value = file.number_attribute(name);
    if (!value) return 0;
    if (!(*value >= 0 && *value <= static_cast<double>(nlev) && *value == std::floor(*value)))
      file.fail("", -1,
                fmt::format("global attribute '{}' = {}, expected a level in [0, {}]", name, *value,
                            nlev));
    return static_cast<int>(*value);
  };
  out.indices.nlev = static_cast<int>(nlev);
  out.indices.nflatlev = index("nflatlev");
  out.indices.nflat_gradp = index("nflat_gradp");
  out.indices.end_index_of_damping_layer = index("end_index_of_damping_layer");
  out.indices.kstart_moist = index("kstart_moist");
  return out;
}

}  // namespace icondiff
