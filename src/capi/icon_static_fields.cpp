// The static inputs of grid_init and diffusion_init (icon_granule.hpp): their values checked
// once, at init, and ICON's layouts converted to the granule's (the diffusion configuration,
// rbf_vec_coeff_v, the zd_* point lists).

#include "icon_granule.hpp"

#include <fmt/format.h>

#include <icondiff_c.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace icondiff::capi {
namespace {

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

}  // namespace

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

}  // namespace icondiff::capi
