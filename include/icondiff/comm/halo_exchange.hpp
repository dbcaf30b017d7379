// The halo-exchange interface the granules call at their exchange points (diffusion_spec.md
// §3.0, X1-X6). On one rank it does nothing (SingleNodeExchange); the MPI implementation plugs in
// here. start() returns a handle and wait(handle) completes that exchange, so several exchanges
// can be in flight (the vn exchange X4a overlaps the w diffusion, as in ICON; the dycore
// overlaps more). start() takes the execution space instance the fields were written on, so an
// implementation can pack on that instance instead of fencing the whole device.
#pragma once

#include <icondiff/core/location.hpp>
#include <icondiff/core/types.hpp>

#include <cstddef>

namespace icondiff {

/// One field of an exchange: a (points, levels) array in the exchange's memory space, value
/// (i, k) at data[i * point_stride + k * level_stride]: ICON's layout (point_stride 1,
/// level_stride >= points; > points for padded external memory) or level-fastest (level_stride 1,
/// point_stride >= levels).
struct HaloField {
  void* data = nullptr;
  std::size_t points = 0;
  std::size_t levels = 0;
  std::size_t element_size = 0;  ///< sizeof(float) or sizeof(double)
  std::size_t point_stride = 1;  ///< elements between consecutive points
  std::size_t level_stride = 0;  ///< elements between consecutive levels
};

template <class View>
HaloField halo_field(const View& view) {
  return {static_cast<void*>(view.data()),     view.extent(0),
          View::rank > 1 ? view.extent(1) : 1, sizeof(typename View::value_type),
          View::rank > 1 ? view.stride(0) : 1, View::rank > 1 ? view.stride(1) : view.extent(0)};
}

/// Names one exchange in flight. Value type; an implementation defines what `id` means.
struct HaloExchangeHandle {
  int id = -1;
};

template <class ExecSpace>
class HaloExchange {
 public:
  using execution_space = ExecSpace;
  using memory_space = typename ExecSpace::memory_space;
  virtual ~HaloExchange() = default;
  /// Starts filling the halo points of `count` fields of one location. The fields' owned points
  /// were written by kernels enqueued on `space`; the caller has fenced `space` when
  /// needs_synchronization() is true.
  virtual HaloExchangeHandle start(const ExecSpace& space, Location location,
                                   const HaloField* fields, int count) = 0;
  /// Completes the exchange `handle` names (each handle is waited for exactly once).
  virtual void wait(HaloExchangeHandle handle) = 0;
  /// False when the exchange moves no data (one rank): the granule then skips the fences that
  /// would otherwise make the exchange see the kernels' results.
  virtual bool needs_synchronization() const { return true; }
  /// start + wait.
  void exchange(const ExecSpace& space, Location location, const HaloField* fields, int count) {
    wait(start(space, location, fields, count));
  }
};

/// One rank, no halos: every exchange is a no-op.
template <class ExecSpace>
class SingleNodeExchange final : public HaloExchange<ExecSpace> {
 public:
  HaloExchangeHandle start(const ExecSpace&, Location, const HaloField*, int) override {
    return {0};
  }
  void wait(HaloExchangeHandle) override {}
  bool needs_synchronization() const override { return false; }
};

}  // namespace icondiff
