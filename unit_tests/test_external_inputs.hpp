// The granule on memory someone else owns: the same random inputs and state once as owned Views
// and once as external host arrays with a padded leading dimension (ICON's nproma = points + 7
// for every 1-D/2-D field; the 3-D zd fields dense), bound with ExternalState (the C API's
// boundary). Diffusion (both strategies) must give bit-identical results on both, leave them in
// the caller's arrays, read the external inputs in place (no copy) in ICON's layout, and never
// touch the padding. Compiled once per enabled backend; the external arrays
// are host arrays, so only host-accessible memory spaces run the body.
#include "support/granule_inputs.hpp"
#include "support/grid_files.hpp"
#include "support/test_grids.hpp"

#include <icondiff/core/external_state.hpp>
#include <icondiff/core/state_ops.hpp>
#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/io/grid_file.hpp>
#include <icondiff/io/grid_source.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <iomanip>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace icondiff {
namespace external_inputs_test {

using M = TEST_MEMSPACE;
using Space = TEST_EXECSPACE;

constexpr bool host_accessible = Kokkos::SpaceAccessibility<Kokkos::HostSpace, M>::accessible;

/// Extra rows of the external arrays (nproma = points + padding).
constexpr std::size_t padding = 7;

/// What the padding rows hold before the run; they must hold it after.
template <class T>
T sentinel() {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(-424242);
  else
    return static_cast<T>(-8.75e18);
}

/// Host arrays standing in for a host model's memory: each field copied (values, not the View)
/// into an array with leading dimension points + padding (3-D fields: points), padding filled
/// with the sentinel.
class ExternalMemory {
 public:
  /// Copies every non-empty field of `owned` and returns the arrays for ExternalState::bind.
  template <class State>
  std::map<std::string, ExternalArray> add(const State& owned, const std::string& what) {
    std::map<std::string, ExternalArray> arrays;
    State::for_each_field(
        [&](const FieldSpec& spec, const auto& view) {
          using V = std::decay_t<decltype(view)>;
          using T = typename V::non_const_value_type;
          if (view.size() == 0) return;  // zd fields without zdiffusion
          const std::size_t n = view.extent(0);
          const std::size_t ld = V::rank == 3 ? n : n + padding;
          const std::size_t slots = V::rank == 3 ? view.extent(1) : 1;
          const std::size_t columns = V::rank == 1 ? 1 : view.extent(V::rank - 1) * slots;
          auto buffer = std::make_shared<std::vector<T>>(ld * columns, sentinel<T>());
          // Element (i, q) of the (points, columns) flattening in ICON's order, q = slot + slots *
          // level, read element by element (any layout of the owned View).
          const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
          for (std::size_t q = 0; q < columns; ++q)
            for (std::size_t i = 0; i < n; ++i) {
              T value{};
              if constexpr (V::rank == 1)
                value = host(i);
              else if constexpr (V::rank == 2)
                value = host(i, q);
              else
                value = host(i, q % slots, q / slots);
              (*buffer)[q * ld + i] = value;
            }
          arrays[spec.name] = {buffer->data(), ld, sizeof(T)};
          const std::string name = what + " " + spec.name;
          // (columns by init-capture: a constant for 1-D fields, where clang calls a plain
          // capture unneeded)
          padding_checks_.push_back([buffer, n, ld, columns = columns, name]() {
            for (std::size_t q = 0; q < columns; ++q)
              for (std::size_t i = n; i < ld; ++i)
                if (!((*buffer)[q * ld + i] == sentinel<T>()))
                  return testing::AssertionFailure()
                         << name << ": padding element (" << i << ", " << q << ") was written";
            return testing::AssertionSuccess();
          });
          owners_.push_back(buffer);
        },
        owned);
    return arrays;
  }

  void expect_padding_untouched() const {
    for (const auto& check : padding_checks_) EXPECT_TRUE(check());
  }

 private:
  std::vector<std::shared_ptr<void>> owners_;
  std::vector<std::function<testing::AssertionResult()>> padding_checks_;
};

/// Every value of every field of `a` equals the one of `b` (==, bit for bit for finite values).
template <class State>
void expect_identical(const State& a, const State& b, const std::string& what) {
  State::for_each_field(
      [&](const FieldSpec& spec, const auto& va, const auto& vb) {
        using V = std::decay_t<decltype(va)>;
        ASSERT_EQ(view_extents(va), view_extents(vb)) << what << " " << spec.name;
        std::size_t mismatches = 0;
        std::string first;
        const auto compare = [&](auto x, auto y, const std::string& where) {
          if (!(x == y) && mismatches++ == 0) {
            std::ostringstream s;
            s << std::setprecision(17) << where << ": " << x << " vs " << y;
            first = s.str();
          }
        };
        if constexpr (V::rank == 1) {
          for (std::size_t i = 0; i < va.extent(0); ++i)
            compare(va(i), vb(i), "(" + std::to_string(i) + ")");
        } else if constexpr (V::rank == 2) {
          for (std::size_t k = 0; k < va.extent(1); ++k)
            for (std::size_t i = 0; i < va.extent(0); ++i)
              compare(va(i, k), vb(i, k), "(" + std::to_string(i) + ", " + std::to_string(k) + ")");
        } else {
          for (std::size_t k = 0; k < va.extent(2); ++k)
            for (std::size_t j = 0; j < va.extent(1); ++j)
              for (std::size_t i = 0; i < va.extent(0); ++i)
                compare(va(i, j, k), vb(i, j, k),
                        "(" + std::to_string(i) + ", " + std::to_string(j) + ", " +
                            std::to_string(k) + ")");
        }
        EXPECT_EQ(mismatches, 0u) << what << " " << spec.name << ": " << mismatches
                                  << " values differ, first at " << first;
      },
      a, b);
}

/// Every field of `wrapped` is a View of the external array of the same name (no copy), with
/// the array's leading dimension as stride.
template <class State>
void expect_wraps(const State& wrapped, const std::map<std::string, ExternalArray>& arrays,
                  const std::string& what) {
  State::for_each_field(
      [&](const FieldSpec& spec, const auto& view) {
        using V = std::decay_t<decltype(view)>;
        const auto it = arrays.find(spec.name);
        if (it == arrays.end()) {
          EXPECT_EQ(view.size(), 0u) << what << " " << spec.name;
          return;
        }
        EXPECT_EQ(static_cast<const void*>(view.data()), it->second.data)
            << what << " " << spec.name << " is not the external array";
        if constexpr (V::rank >= 2) {
          EXPECT_EQ(view.stride(1), it->second.leading_dimension) << what << " " << spec.name;
        }
      },
      wrapped);
}

using test::GridCase;

void run_case(const GridCase& gc, const DiffusionConfig& config, const std::string& case_name) {
  SCOPED_TRACE(gc.name + ", " + case_name);
  const int nlev = 8;
  const bool zd = config.apply_zdiffusion_t;
  const VerticalGrid vertical = test::make_test_vertical_grid(nlev, 30000.0, 12500.0);
  test::RandomSource rng(4711);
  reference::GranuleInputs host_inputs;
  reference::GranuleState host_state;
  test::make_random_granule(gc.grid, nlev, rng, host_inputs, host_state);

  // Owned: the library's own Views.
  const DeviceGrid<M> device_grid(gc.grid);
  DiffusionInputs<M> owned = test::to_device<M>(host_inputs, device_grid, vertical);
  if (!zd) {
    owned.metric.zd_intcoef = {};
    owned.metric.zd_vertoffset = {};
    owned.metric.zd_diffcoef = {};
  }

  // External: the same values in padded host arrays, wrapped.
  ExternalMemory memory;
  const FieldSizes sizes = owned.sizes();
  DiffusionInputs<M> external;
  external.grid = device_grid;
  external.vertical = vertical;
  const auto metric_arrays = memory.add(owned.metric, "metric");
  const auto interpolation_arrays = memory.add(owned.interpolation, "interpolation");
  const auto edge_arrays = memory.add(owned.edges, "edges");
  const auto cell_arrays = memory.add(owned.cells, "cells");
  ExternalState<DiffusionMetricState, Space> metric;
  ExternalState<DiffusionInterpolationState, Space> interpolation;
  ExternalState<DiffusionEdgeParams, Space> edges;
  ExternalState<DiffusionCellParams, Space> cells;
  metric.bind(metric_arrays, sizes, "metric", zd);
  interpolation.bind(interpolation_arrays, sizes, "interpolation", zd);
  edges.bind(edge_arrays, sizes, "edges", zd);
  cells.bind(cell_arrays, sizes, "cells", zd);
  metric.copy_in(Space());
  interpolation.copy_in(Space());
  edges.copy_in(Space());
  cells.copy_in(Space());
  compat::fence(Space(), "icondiff::test::external_inputs_in");
  external.metric = metric.fields();
  external.interpolation = interpolation.fields();
  external.edges = edges.fields();
  external.cells = cells.fields();
  if constexpr (field_layout_is_icons) {
    expect_wraps(external.metric, metric_arrays, "metric");
    expect_wraps(external.interpolation, interpolation_arrays, "interpolation");
    expect_wraps(external.edges, edge_arrays, "edges");
    expect_wraps(external.cells, cell_arrays, "cells");
    ASSERT_EQ(external.interpolation.geofac_n2s.stride(1), gc.grid.num_cells + padding);
  }

  for (const DiffusionStrategy strategy : {DiffusionStrategy::Unfused, DiffusionStrategy::Fused}) {
    SCOPED_TRACE(to_string(strategy));
    DiffusionOptions<Space> options;
    options.strategy = strategy;
    Diffusion<Space> owned_granule(config, owned, options);
    Diffusion<Space> external_granule(config, external, options);
    // The granule shares the bundle's Views: it reads the caller's arrays in place.
    EXPECT_EQ(external_granule.inputs().interpolation.rbf_coeff_1.data(),
              external.interpolation.rbf_coeff_1.data());
    EXPECT_EQ(external_granule.inputs().metric.wgtfac_c.data(), external.metric.wgtfac_c.data());

    test::DeviceGranuleState<M> owned_state = test::to_device<M>(host_state);
    const auto prognostic_arrays = memory.add(owned_state.prognostic, "prognostic");
    const auto diagnostic_arrays = memory.add(owned_state.diagnostic, "diagnostic");
    ExternalState<DiffusionPrognosticState, Space> prognostic;
    ExternalState<DiffusionDiagnosticState, Space> diagnostic;
    prognostic.bind(prognostic_arrays, sizes, "prognostic");
    diagnostic.bind(diagnostic_arrays, sizes, "diagnostic");
    const auto& external_prognostic = prognostic.fields();
    auto& external_diagnostic = diagnostic.fields();
    if constexpr (field_layout_is_icons) {
      expect_wraps(external_prognostic, prognostic_arrays, "prognostic");
      expect_wraps(external_diagnostic, diagnostic_arrays, "diagnostic");
      ASSERT_EQ(external_prognostic.vn.stride(1), gc.grid.num_edges + padding);
    }
    prognostic.copy_in(Space());
    diagnostic.copy_in(Space());
    compat::fence(Space(), "icondiff::test::external_state_in");
    // Same start: identical before the run.
    expect_identical(owned_state.prognostic, external_prognostic, "prognostic before");

    // An initial step, then a regular one, on both (converted back after each, as the C API
    // does after every call).
    for (const bool initial : {true, false}) {
      owned_granule.run(owned_state.diagnostic, owned_state.prognostic, 10.0, initial);
      prognostic.copy_in(Space());
      diagnostic.copy_in(Space());
      external_granule.run(external_diagnostic, external_prognostic, 10.0, initial);
      prognostic.copy_out(Space());
      diagnostic.copy_out(Space());
    }
    compat::fence(Space(), "icondiff::test::external_inputs");

    expect_identical(owned_state.prognostic, external_prognostic, "prognostic");
    expect_identical(owned_state.diagnostic, external_diagnostic, "diagnostic");
    // The results are in the caller's arrays: read back through a fresh binding.
    ExternalState<DiffusionPrognosticState, Space> reread_prognostic;
    ExternalState<DiffusionDiagnosticState, Space> reread_diagnostic;
    reread_prognostic.bind(prognostic_arrays, sizes, "prognostic");
    reread_diagnostic.bind(diagnostic_arrays, sizes, "diagnostic");
    reread_prognostic.copy_in(Space());
    reread_diagnostic.copy_in(Space());
    compat::fence(Space(), "icondiff::test::external_state_reread");
    expect_identical(owned_state.prognostic, reread_prognostic.fields(), "caller's prognostic");
    expect_identical(owned_state.diagnostic, reread_diagnostic.fields(), "caller's diagnostic");
    // The run changed the state (so the comparison above compares results, not inputs).
    const auto before = test::to_device<M>(host_state);
    const auto vn_before =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), before.prognostic.vn);
    std::size_t changed = 0;
    for (std::size_t k = 0; k < vn_before.extent(1); ++k)
      for (std::size_t e = 0; e < vn_before.extent(0); ++e)
        changed += external_prognostic.vn(e, k) != vn_before(e, k);
    // Most of what the vn step updates (on a small limited-area cut-out that is far less than
    // half of all edges: the boundary rows are most of it).
    const IndexRange updated = external_granule.ranges().vn_edges;
    const std::size_t updated_values =
        static_cast<std::size_t>(updated.end - updated.start) * vn_before.extent(1);
    EXPECT_GT(changed, updated_values / 2)
        << "the run left most of vn unchanged in the vn step's range";
  }
  // The inputs are read only: values unchanged, padding untouched everywhere.
  expect_identical(owned.metric, external.metric, "metric");
  expect_identical(owned.interpolation, external.interpolation, "interpolation");
  expect_identical(owned.edges, external.edges, "edges");
  expect_identical(owned.cells, external.cells, "cells");
  memory.expect_padding_untouched();
}

TEST(TEST_CATEGORY, granule_on_padded_external_memory_is_bit_identical) {
  if constexpr (!host_accessible) {
    GTEST_SKIP() << "the external arrays are host arrays; memory space " << M::name()
                 << " is not host-accessible";
  } else {
    for (const auto& gc : test::global_and_lam_grids()) {
      run_case(gc, mch_ch_r04b09_config(), "MCH config (zdiffusion)");
      DiffusionConfig no_zd = mch_ch_r04b09_config();
      no_zd.apply_zdiffusion_t = false;
      run_case(gc, no_zd, "no zdiffusion, zd arrays not passed");
    }
  }
}

/// copy_across_layouts between ICON's padded layout and level-fastest storage, both directions,
/// ranks 1-3, point and level counts around the host tile (256 × 8): every element lands where it
/// belongs and ICON's padding rows stay untouched. Values are unique per element, so a swapped
/// index shows.
template <class T>
struct TypeTag {
  using type = T;
};

template <int Rank>
void check_copy_across_layouts(std::int64_t points) {
  using Data =
      std::conditional_t<Rank == 1, double*, std::conditional_t<Rank == 2, double**, double***>>;
  using Icon = Kokkos::View<Data, Kokkos::LayoutLeft, M>;
  using Fast = Kokkos::View<Data, Kokkos::LayoutRight, M>;
  const std::int64_t nproma = points + static_cast<std::int64_t>(padding);
  // Level counts over the host tile's 8 and not a multiple of it (rank 2: 13 levels; rank 3: 2
  // slots of 11 levels).
  const int n1 = Rank == 2 ? 13 : Rank == 3 ? 2 : 1, n2 = Rank == 3 ? 11 : 1;
  const auto make = [&](auto tag, const char* label, std::int64_t n) {
    using V = typename decltype(tag)::type;
    const std::string l = label;
    const auto rows = static_cast<std::size_t>(n);
    if constexpr (Rank == 1)
      return V(l, rows);
    else if constexpr (Rank == 2)
      return V(l, rows, static_cast<std::size_t>(n1));
    else
      return V(l, rows, static_cast<std::size_t>(n1), static_cast<std::size_t>(n2));
  };
  const auto value = [&](std::int64_t i, int j, int k) { return 1.0 + i + 1000.0 * j + 1e5 * k; };
  const auto at = [&](auto& v, std::int64_t i, int j, int k) -> decltype(auto) {
    if constexpr (Rank == 1)
      return v(i);
    else if constexpr (Rank == 2)
      return v(i, j);
    else
      return v(i, j, k);
  };
  const auto padded = make(TypeTag<Icon>{}, "copy_test_icon", nproma);
  const auto icon = [&] {
    if constexpr (Rank == 1)
      return Kokkos::subview(padded, std::make_pair(std::int64_t(0), points));
    else if constexpr (Rank == 2)
      return Kokkos::subview(padded, std::make_pair(std::int64_t(0), points), Kokkos::ALL());
    else
      return Kokkos::subview(padded, std::make_pair(std::int64_t(0), points), Kokkos::ALL(),
                             Kokkos::ALL());
  }();
  const auto fast = make(TypeTag<Fast>{}, "copy_test_fast", points);
  auto icon_host = Kokkos::create_mirror_view(padded);
  for (std::int64_t i = 0; i < nproma; ++i)
    for (int j = 0; j < n1; ++j)
      for (int k = 0; k < n2; ++k)
        at(icon_host, i, j, k) = i < points ? value(i, j, k) : sentinel<double>();
  Kokkos::deep_copy(padded, icon_host);
  const Space space;
  copy_across_layouts("copy_test_in", space, fast, icon);
  space.fence();
  auto fast_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fast);
  for (std::int64_t i = 0; i < points; ++i)
    for (int j = 0; j < n1; ++j)
      for (int k = 0; k < n2; ++k)
        ASSERT_EQ(at(fast_host, i, j, k), value(i, j, k))
            << "in: rank " << Rank << ", " << points << " points, (" << i << "," << j << "," << k
            << ")";
  // Out: new values into ICON's layout, the padding still the sentinel.
  for (std::int64_t i = 0; i < points; ++i)
    for (int j = 0; j < n1; ++j)
      for (int k = 0; k < n2; ++k) at(fast_host, i, j, k) = -value(i, j, k);
  Kokkos::deep_copy(fast, fast_host);
  copy_across_layouts("copy_test_out", space, icon, fast);
  space.fence();
  Kokkos::deep_copy(icon_host, padded);
  for (std::int64_t i = 0; i < nproma; ++i)
    for (int j = 0; j < n1; ++j)
      for (int k = 0; k < n2; ++k)
        ASSERT_EQ(at(icon_host, i, j, k), i < points ? -value(i, j, k) : sentinel<double>())
            << "out: rank " << Rank << ", " << points << " points, (" << i << "," << j << "," << k
            << ")";
}

TEST(TEST_CATEGORY, copy_across_layouts_moves_every_element_and_spares_the_padding) {
  for (const std::int64_t points : {0, 1, 17, 255, 256, 257, 600}) {
    check_copy_across_layouts<1>(points);
    check_copy_across_layouts<2>(points);
    check_copy_across_layouts<3>(points);
  }
}

}  // namespace external_inputs_test
}  // namespace icondiff
