// HaloExchange<TEST_EXECSPACE> handles: through the interface, several exchanges can be in flight
// (start A, start B, wait A, wait B), each wait completes the exchange its handle names and no
// other, and exchange() is start + wait of one handle. halo_field() describes owned and padded
// external Views (leading dimension = the View's stride). Compiled once per enabled backend.
#include <icondiff/comm/halo_exchange.hpp>
#include <icondiff/core/view_copy.hpp>

#include "support/field_layout_skip.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace icondiff {
namespace halo_exchange_test {

using M = TEST_MEMSPACE;
using Space = TEST_EXECSPACE;
using Field = Kokkos::View<double**, FieldLayout, M>;

/// Writes `value` into the last `halo` points of every level of a (points, levels) field with a
/// leading dimension, as an implementation unpacking received halo data would.
struct FillHalo {
  Kokkos::View<double*, M, Kokkos::MemoryTraits<Kokkos::Unmanaged>> data;
  std::size_t points, halo, point_stride, level_stride;
  double value;
  KOKKOS_INLINE_FUNCTION void operator()(const int k) const {
    for (std::size_t i = points - halo; i < points; ++i)
      data(k * level_stride + i * point_stride) = value;
  }
};

/// A test exchange: start records the fields and returns a fresh handle; wait fills the halo
/// points (the last `halo` points) of that exchange's fields with the handle's id and nothing
/// else. Every misuse (unknown handle, a handle waited for twice) is recorded as an error.
class RecordingExchange final : public HaloExchange<Space> {
 public:
  explicit RecordingExchange(std::size_t halo) : halo_(halo) {}

  HaloExchangeHandle start(const Space& space, Location location, const HaloField* fields,
                           int count) override {
    const int id = next_id_++;
    in_flight_[id] = {space, location, std::vector<HaloField>(fields, fields + count)};
    events.push_back("start " + std::to_string(id) + " " + to_string(location) + " " +
                     std::to_string(count));
    return {id};
  }

  void wait(HaloExchangeHandle handle) override {
    events.push_back("wait " + std::to_string(handle.id));
    const auto it = in_flight_.find(handle.id);
    if (it == in_flight_.end()) {
      errors.push_back("wait for handle " + std::to_string(handle.id) + ", not in flight");
      return;
    }
    for (const HaloField& f : it->second.fields) {
      if (f.element_size != sizeof(double)) {
        errors.push_back("unexpected element size");
        continue;
      }
      const std::size_t span =
          f.level_stride * (f.levels - 1) + f.point_stride * (f.points - 1) + 1;
      Kokkos::View<double*, M, Kokkos::MemoryTraits<Kokkos::Unmanaged>> data(
          static_cast<double*>(f.data), span);
      Kokkos::parallel_for(
          "icondiff::test::fill_halo",
          Kokkos::RangePolicy<Space>(it->second.space, 0, static_cast<int>(f.levels)),
          FillHalo{data, f.points, halo_, f.point_stride, f.level_stride,
                   static_cast<double>(handle.id)});
    }
    it->second.space.fence();
    in_flight_.erase(it);
  }

  std::size_t in_flight() const { return in_flight_.size(); }

  std::vector<std::string> events;
  std::vector<std::string> errors;

 private:
  struct Exchange {
    Space space;
    Location location;
    std::vector<HaloField> fields;
  };
  std::size_t halo_;
  int next_id_ = 100;
  std::map<int, Exchange> in_flight_;
};

/// Success when, at every level, the first `points - halo` points hold `owned` and the last
/// `halo` points hold `value`.
::testing::AssertionResult halo_holds(const Field& field, std::size_t halo, double owned,
                                      double value) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field);
  for (std::size_t k = 0; k < h.extent(1); ++k)
    for (std::size_t i = 0; i < h.extent(0); ++i) {
      const double expected = i + halo >= h.extent(0) ? value : owned;
      if (h(i, k) != expected)
        return ::testing::AssertionFailure() << field.label() << "(" << i << ", " << k
                                             << ") = " << h(i, k) << ", expected " << expected;
    }
  return ::testing::AssertionSuccess();
}

TEST(TEST_CATEGORY, two_exchanges_in_flight_complete_by_their_handles) {
  const std::size_t n_cells = 40, n_edges = 60, nlev = 3, halo = 5;
  Field a1("a1", n_cells, nlev), a2("a2", n_cells, nlev), b("b", n_edges, nlev);
  Kokkos::deep_copy(a1, -1.0);
  Kokkos::deep_copy(a2, -2.0);
  Kokkos::deep_copy(b, -3.0);
  auto recorder = std::make_shared<RecordingExchange>(halo);
  HaloExchange<Space>& exchange = *recorder;  // only through the interface
  EXPECT_TRUE(exchange.needs_synchronization()) << "the default must be to synchronise";

  const Space space;
  const HaloField fields_a[2] = {halo_field(a1), halo_field(a2)};
  const HaloField fields_b[1] = {halo_field(b)};
  const HaloExchangeHandle ha = exchange.start(space, Location::Cell, fields_a, 2);
  const HaloExchangeHandle hb = exchange.start(space, Location::Edge, fields_b, 1);
  EXPECT_NE(ha.id, hb.id) << "two exchanges in flight need two handles";
  EXPECT_EQ(recorder->in_flight(), 2u);
  // Nothing is filled before its wait.
  EXPECT_TRUE(halo_holds(a1, halo, -1.0, -1.0));
  EXPECT_TRUE(halo_holds(b, halo, -3.0, -3.0));

  exchange.wait(ha);
  EXPECT_EQ(recorder->in_flight(), 1u);
  EXPECT_TRUE(halo_holds(a1, halo, -1.0, ha.id));
  EXPECT_TRUE(halo_holds(a2, halo, -2.0, ha.id));
  EXPECT_TRUE(halo_holds(b, halo, -3.0, -3.0)) << "waiting for A completed B";

  exchange.wait(hb);
  EXPECT_EQ(recorder->in_flight(), 0u);
  EXPECT_TRUE(halo_holds(b, halo, -3.0, hb.id));
  EXPECT_TRUE(halo_holds(a1, halo, -1.0, ha.id));

  const std::vector<std::string> expected = {
      "start " + std::to_string(ha.id) + " cell 2", "start " + std::to_string(hb.id) + " edge 1",
      "wait " + std::to_string(ha.id), "wait " + std::to_string(hb.id)};
  EXPECT_EQ(recorder->events, expected);
  EXPECT_TRUE(recorder->errors.empty()) << recorder->errors.front();

  // Waiting in the other order works as well.
  Kokkos::deep_copy(a1, -1.0);
  Kokkos::deep_copy(b, -3.0);
  const HaloField only_a1[1] = {halo_field(a1)};
  const HaloExchangeHandle hc = exchange.start(space, Location::Cell, only_a1, 1);
  const HaloExchangeHandle hd = exchange.start(space, Location::Edge, fields_b, 1);
  exchange.wait(hd);
  EXPECT_TRUE(halo_holds(a1, halo, -1.0, -1.0)) << "waiting for D completed C";
  EXPECT_TRUE(halo_holds(b, halo, -3.0, hd.id));
  exchange.wait(hc);
  EXPECT_TRUE(halo_holds(a1, halo, -1.0, hc.id));
  EXPECT_TRUE(recorder->errors.empty()) << recorder->errors.front();
}

TEST(TEST_CATEGORY, exchange_is_start_then_wait_of_one_handle) {
  const std::size_t n = 30, nlev = 4, halo = 3;
  Field f("f", n, nlev);
  Kokkos::deep_copy(f, 7.0);
  auto recorder = std::make_shared<RecordingExchange>(halo);
  HaloExchange<Space>& exchange = *recorder;
  const HaloField fields[1] = {halo_field(f)};
  exchange.exchange(Space(), Location::Vertex, fields, 1);
  ASSERT_EQ(recorder->events.size(), 2u);
  EXPECT_EQ(recorder->events[0].rfind("start ", 0), 0u);
  EXPECT_EQ(recorder->events[0].substr(recorder->events[0].size() - 9), " vertex 1");
  const std::string id = recorder->events[0].substr(6, recorder->events[0].find(' ', 6) - 6);
  EXPECT_EQ(recorder->events[1], "wait " + id) << "exchange() waited for another handle";
  EXPECT_EQ(recorder->in_flight(), 0u);
  EXPECT_TRUE(halo_holds(f, halo, 7.0, std::stod(id)));
  EXPECT_TRUE(recorder->errors.empty()) << recorder->errors.front();
}

TEST(TEST_CATEGORY, single_node_exchange_is_a_no_op_without_synchronization) {
  const std::size_t n = 20, nlev = 2;
  Field f("f", n, nlev);
  Kokkos::deep_copy(f, 5.0);
  std::unique_ptr<HaloExchange<Space>> exchange = std::make_unique<SingleNodeExchange<Space>>();
  EXPECT_FALSE(exchange->needs_synchronization());
  const HaloField fields[1] = {halo_field(f)};
  const HaloExchangeHandle h1 = exchange->start(Space(), Location::Cell, fields, 1);
  const HaloExchangeHandle h2 = exchange->start(Space(), Location::Edge, fields, 1);
  exchange->wait(h2);
  exchange->wait(h1);
  exchange->exchange(Space(), Location::Cell, fields, 1);
  EXPECT_TRUE(halo_holds(f, 0, 5.0, 5.0));
}

TEST(TEST_CATEGORY, halo_field_describes_owned_and_padded_views) {
  const std::size_t n = 25, nlev = 6, nproma = n + 7;
  Field owned("owned", n, nlev);
  const HaloField ho = halo_field(owned);
  EXPECT_EQ(ho.data, static_cast<void*>(owned.data()));
  EXPECT_EQ(ho.points, n);
  EXPECT_EQ(ho.levels, nlev);
  EXPECT_EQ(ho.element_size, sizeof(double));
  EXPECT_EQ(ho.point_stride, owned.stride(0));
  EXPECT_EQ(ho.level_stride, owned.stride(1));
  if constexpr (field_layout_is_icons)
    EXPECT_GE(ho.level_stride, n);
  else
    EXPECT_GE(ho.point_stride, nlev);

  // Padded external memory (ICON's nproma > points), viewed without a copy in any build.
  Kokkos::View<double*, M> memory("memory", nproma * nlev);
  const auto padded = view_of_external<double, 2, M>("padded", memory.data(), {n, nlev}, nproma);
  ASSERT_EQ(padded.stride(1), nproma);
  const HaloField hp = halo_field(padded);
  EXPECT_EQ(hp.data, static_cast<void*>(memory.data()));
  EXPECT_EQ(hp.points, n);
  EXPECT_EQ(hp.levels, nlev);
  EXPECT_EQ(hp.level_stride, nproma) << "the leading dimension must be the View's stride";
  EXPECT_EQ(hp.point_stride, 1u);

  // A float field.
  Kokkos::View<float**, FieldLayout, M> single("single", n, nlev);
  EXPECT_EQ(halo_field(single).element_size, sizeof(float));
  EXPECT_EQ(halo_field(single).level_stride, single.stride(1));

  // A padded field exchanged through the interface: the halo of every level is filled at the
  // leading dimension's offsets, and the padding rows between levels stay untouched.
  Kokkos::deep_copy(memory, -9.0);
  auto recorder = std::make_shared<RecordingExchange>(4);
  const HaloField fields[1] = {hp};
  recorder->exchange(Space(), Location::Cell, fields, 1);
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), memory);
  for (std::size_t k = 0; k < nlev; ++k)
    for (std::size_t i = 0; i < nproma; ++i) {
      const bool halo_point = i >= n - 4 && i < n;
      EXPECT_EQ(h(k * nproma + i), halo_point ? 100.0 : -9.0) << "level " << k << " row " << i;
    }
}

}  // namespace halo_exchange_test
}  // namespace icondiff
