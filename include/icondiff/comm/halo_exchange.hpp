// The halo-exchange interface the granule calls at its exchange points (diffusion_spec.md §3.0,
// X1-X6). On one rank it does nothing (SingleNodeExchange); the MPI implementation plugs in here.
// start()/wait() let the vn exchange overlap the w diffusion (X4a/X4b), as ICON does.
#pragma once

#include <icondiff/core/types.hpp>
#include <icondiff/grid/location.hpp>

#include <cstddef>

namespace icondiff {

/// One field of an exchange: a (points, levels) FieldLayout array in the exchange's memory space.
struct HaloField {
  void* data = nullptr;
  std::size_t points = 0;
  std::size_t levels = 0;
  std::size_t element_size = 0;  ///< sizeof(float) or sizeof(double)
};

template <class View>
HaloField halo_field(const View& view) {
  return {static_cast<void*>(view.data()), view.extent(0), view.extent(1),
          sizeof(typename View::value_type)};
}

template <class MemorySpace>
class HaloExchange {
 public:
  using memory_space = MemorySpace;
  virtual ~HaloExchange() = default;
  /// Starts filling the halo points of `count` fields of one location (at most one exchange is in
  /// flight at a time). The caller has finished every kernel that writes the fields' owned points.
  virtual void start(Location location, const HaloField* fields, int count) = 0;
  /// Completes the exchange started last.
  virtual void wait() = 0;
  /// False when the exchange moves no data (one rank): the granule then skips the fences that
  /// would otherwise make the exchange see the kernels' results.
  virtual bool needs_synchronization() const { return true; }
  /// start + wait.
  void exchange(Location location, const HaloField* fields, int count) {
    start(location, fields, count);
    wait();
  }
};

/// One rank, no halos: every exchange is a no-op.
template <class MemorySpace>
class SingleNodeExchange final : public HaloExchange<MemorySpace> {
 public:
  void start(Location, const HaloField*, int) override {}
  void wait() override {}
  bool needs_synchronization() const override { return false; }
};

}  // namespace icondiff
