// Moving test fields between host and device, and comparing whole arrays the way ICON4Py's
// stencil tests do (every point, including the ones a stencil must leave untouched; NaN == NaN).
#pragma once

#include "host_field.hpp"

#include <icondiff/core/host_table.hpp>
#include <icondiff/core/types.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

namespace icondiff::test {

inline constexpr double poison = std::numeric_limits<double>::quiet_NaN();

/// A HostField copied to a new device View of value type T (double fields become vp fields in a
/// mixed-precision build when T = vp).
template <class T, class MemorySpace, class U>
Kokkos::View<T**, FieldLayout, MemorySpace> to_device(const HostField<U>& host,
                                                      const std::string& name) {
  Kokkos::View<T**, FieldLayout, MemorySpace> device("icondiff::test::" + name, host.points,
                                                     host.levels);
  auto mirror = Kokkos::create_mirror_view(device);
  for (int k = 0; k < host.levels; ++k)
    for (index_t i = 0; i < host.points; ++i) mirror(i, k) = static_cast<T>(host(i, k));
  Kokkos::deep_copy(device, mirror);
  return device;
}

template <class T, class MemorySpace, class U>
Kokkos::View<T***, FieldLayout, MemorySpace> to_device(const HostField3<U>& host,
                                                       const std::string& name) {
  Kokkos::View<T***, FieldLayout, MemorySpace> device("icondiff::test::" + name, host.points,
                                                      host.slots, host.levels);
  auto mirror = Kokkos::create_mirror_view(device);
  for (int k = 0; k < host.levels; ++k)
    for (int j = 0; j < host.slots; ++j)
      for (index_t i = 0; i < host.points; ++i) mirror(i, j, k) = static_cast<T>(host(i, j, k));
  Kokkos::deep_copy(device, mirror);
  return device;
}

/// A (points, slots) table or a K-profile as a device View.
template <class T, class MemorySpace, class U>
Kokkos::View<T**, FieldLayout, MemorySpace> table_to_device(const HostTable<U>& host,
                                                            const std::string& name) {
  Kokkos::View<T**, FieldLayout, MemorySpace> device("icondiff::test::" + name, host.rows(),
                                                     host.cols());
  auto mirror = Kokkos::create_mirror_view(device);
  for (std::size_t i = 0; i < host.rows(); ++i)
    for (std::size_t j = 0; j < host.cols(); ++j) mirror(i, j) = static_cast<T>(host(i, j));
  Kokkos::deep_copy(device, mirror);
  return device;
}

template <class T, class MemorySpace, class U>
Kokkos::View<T*, FieldLayout, MemorySpace> vector_to_device(const std::vector<U>& host,
                                                            const std::string& name) {
  Kokkos::View<T*, FieldLayout, MemorySpace> device("icondiff::test::" + name, host.size());
  auto mirror = Kokkos::create_mirror_view(device);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = static_cast<T>(host[i]);
  Kokkos::deep_copy(device, mirror);
  return device;
}

/// A device (points, levels) View back on the host, as doubles.
template <class View>
HostField<double> to_host(const View& device) {
  auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device);
  HostField<double> host(static_cast<index_t>(device.extent(0)),
                         static_cast<int>(device.extent(1)));
  for (int k = 0; k < host.levels; ++k)
    for (index_t i = 0; i < host.points; ++i) host(i, k) = static_cast<double>(mirror(i, k));
  return host;
}

/// Every point of `actual` equals `expected` within |a - e| <= atol + rtol |e| (numpy's
/// allclose with equal_nan). On failure, names the field, the count and the worst point.
inline ::testing::AssertionResult all_close(const std::string& name,
                                            const HostField<double>& actual,
                                            const HostField<double>& expected, double rtol,
                                            double atol = 0.0) {
  if (actual.points != expected.points || actual.levels != expected.levels)
    return ::testing::AssertionFailure()
           << name << ": shape (" << actual.points << ", " << actual.levels << ") != expected ("
           << expected.points << ", " << expected.levels << ")";
  std::size_t bad = 0;
  double worst = -1;
  index_t worst_i = 0;
  int worst_k = 0;
  for (int k = 0; k < actual.levels; ++k)
    for (index_t i = 0; i < actual.points; ++i) {
      const double a = actual(i, k), e = expected(i, k);
      if (std::isnan(a) && std::isnan(e)) continue;
      const double excess = std::isnan(a) || std::isnan(e)
                                ? std::numeric_limits<double>::infinity()
                                : std::fabs(a - e) - (atol + rtol * std::fabs(e));
      if (excess > 0) {
        ++bad;
        if (excess > worst) {
          worst = excess;
          worst_i = i;
          worst_k = k;
        }
      }
    }
  if (bad == 0) return ::testing::AssertionSuccess();
  std::ostringstream s;
  s.precision(17);
  s << name << ": " << bad << " of " << actual.values.size() << " values differ (rtol " << rtol
    << ", atol " << atol << "); worst at point " << worst_i << ", level " << worst_k << ": got "
    << actual(worst_i, worst_k) << ", expected " << expected(worst_i, worst_k);
  return ::testing::AssertionFailure() << s.str();
}

/// Largest relative difference |a - e| / max(|e|, tiny) over points where both are finite.
inline double max_relative_difference(const HostField<double>& a, const HostField<double>& e) {
  double worst = 0;
  for (std::size_t n = 0; n < a.values.size(); ++n) {
    const double x = a.values[n], y = e.values[n];
    if (std::isnan(x) || std::isnan(y)) continue;
    worst = std::max(worst, std::fabs(x - y) / std::max(std::fabs(y), 1e-300));
  }
  return worst;
}

/// A tolerance |a - e| <= rtol |e| + atol_of_max · max|e| (max over the whole expected field).
struct Tolerance {
  double rtol;
  double atol_of_max;
};

/// Tolerance of the stencil tests. Double: ICON4Py's rtol 3e-6, no absolute part. vp = float:
/// a vp result is a rounded sum of terms as large as the field's largest values, so where the
/// terms cancel its absolute error is ~eps_float · max|e| (1.2e-7) times a few operations, not
/// a fraction of the small result: rtol 1e-4 plus 1e-5 · max|e|.
inline Tolerance stencil_tolerance() {
  return sizeof(vp) == sizeof(float) ? Tolerance{1e-4, 1e-5} : Tolerance{3e-6, 0.0};
}

inline ::testing::AssertionResult all_close(const std::string& name,
                                            const HostField<double>& actual,
                                            const HostField<double>& expected,
                                            const Tolerance& tolerance) {
  double largest = 0;
  for (const double e : expected.values)
    if (std::isfinite(e)) largest = std::max(largest, std::fabs(e));
  return all_close(name, actual, expected, tolerance.rtol, tolerance.atol_of_max * largest);
}

}  // namespace icondiff::test
