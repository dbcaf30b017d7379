// The one place that maps a stencil's (point, level) iteration space to a Kokkos policy, so loop
// order and tiling are tuned in one spot for every backend, and benchmarks can sweep them.
#pragma once

#include <icondiff/core/index_range.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <string>
#include <type_traits>
#include <utility>

namespace icondiff {

/// How the (point, level) space of a stencil is mapped onto Kokkos parallelism.
enum class LoopSchedule {
  /// MDRangePolicy over (point, level), point fastest, backend-chosen tiles.
  MDRange,
  /// One flat RangePolicy over points x levels, point fastest (consecutive threads touch
  /// consecutive memory: the usual GPU mapping, Omega's LinearIdxWrapper).
  Flat,
  /// RangePolicy over points, each point loops over its levels: neighbour indices and per-point
  /// coefficients are fetched once per column (ICON's __LOOP_EXCHANGE order for CPUs).
  PointsOuter,
  /// RangePolicy over (level block, chunk of consecutive points): each work item sweeps the levels
  /// of its block one after the other, each over a chunk of consecutive points, so every field is
  /// read contiguously along a level, and the chunk's neighbour indices and (point, neighbour)
  /// coefficients are reused from L1 for every level of the block (ICON's nproma blocks: jk outer,
  /// jc inner). The level block size is the launch's `level_block` (1: one level per work item).
  LevelChunks,
};

/// Every schedule, in the order benchmarks and tests sweep them.
inline constexpr LoopSchedule all_loop_schedules[] = {LoopSchedule::LevelChunks,
                                                      LoopSchedule::PointsOuter,
                                                      LoopSchedule::MDRange, LoopSchedule::Flat};

/// Whether a schedule tiles the levels, i.e. uses a launch's `level_block`.
constexpr bool uses_level_block(LoopSchedule schedule) {
  return schedule == LoopSchedule::LevelChunks || schedule == LoopSchedule::MDRange;
}

/// Points per work item of LoopSchedule::LevelChunks.
inline constexpr index_t level_chunk_points = 256;

/// The most threads a GPU thread block may have (CUDA, HIP): on a device an MDRange tile is one
/// block, and a larger tile is an invalid launch (skipped, or a Kokkos::abort past 2,048).
inline constexpr index_t max_device_tile_threads = 1024;

/// The (points, levels) tile of an MDRange launch with `level_block` levels per tile:
/// (level_chunk_points, level_block) on the host; on a device the points shrink (and, past
/// max_device_tile_threads levels, the levels too) so that the tile stays one valid block.
struct MDRangeTile {
  index_t points, levels;
};
constexpr MDRangeTile mdrange_tile(const index_t level_block, const bool on_device) {
  if (!on_device) return {level_chunk_points, level_block};
  const index_t levels =
      level_block < max_device_tile_threads ? level_block : max_device_tile_threads;
  const index_t points = max_device_tile_threads / levels;
  return {points < level_chunk_points ? points : level_chunk_points, levels};
}

/// A `level_block` that means "every level of the launch in one block".
inline constexpr index_t all_levels = 0;

const char* to_string(LoopSchedule schedule);
/// One of all_loop_schedules by its to_string() name; throws ConfigError naming them otherwise.
LoopSchedule parse_loop_schedule(const std::string& name);

/// The default schedule of an execution space: on CPUs the one that reads the field layout
/// contiguously (level chunks with ICON's layout, points-outer with level-fastest fields: the
/// fastest measured on the OpenMP backend, docs/performance.md), the flat point-fastest range on
/// GPUs (coalesced).
template <class ExecSpace>
constexpr LoopSchedule default_loop_schedule() {
  if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible)
    return LoopSchedule::Flat;
  return field_layout_is_icons ? LoopSchedule::LevelChunks : LoopSchedule::PointsOuter;
}

/// Every (point, level) of a points_levels launch is independent by contract (the GPU schedules
/// run them all at once), so a host loop over them may be vectorised without a proof: `omp simd`
/// on the OpenMP host backend, nothing in device code.
#if defined(KOKKOS_ENABLE_OPENMP) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define ICONDIFF_POINT_LOOP_SIMD _Pragma("omp simd")
#else
#define ICONDIFF_POINT_LOOP_SIMD
#endif

namespace detail {

template <class Body>
struct FlatPointsLevels {
  Body body;
  index_t point_begin, points, level_begin;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    body(point_begin + static_cast<index_t>(i % points),
         level_begin + static_cast<index_t>(i / points));
  }
};

template <class Body>
struct LevelChunkLoop {
  Body body;
  index_t point_begin, point_end, chunks, level_begin, level_end, level_block;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t item) const {
    const index_t k_first = level_begin + (item / chunks) * level_block;
    const index_t k_last = k_first + level_block < level_end ? k_first + level_block : level_end;
    const index_t first = point_begin + (item % chunks) * level_chunk_points;
    const index_t last =
        first + level_chunk_points < point_end ? first + level_chunk_points : point_end;
    for (index_t k = k_first; k < k_last; ++k)
      for (index_t p = first; p < last; ++p) body(p, k);
  }
};

/// Whether Body has levels(point, k0, k1): its own loop over a point's levels, with what the
/// levels share loaded once (the points-outer schedule calls it instead of body(point, k) per k).
template <class Body, class = void>
struct HasLevelLoop : std::false_type {};
// std::declval<index_t>(), not index_t(): nvcc 11.8's front end garbles the latter in decltype.
template <class Body>
struct HasLevelLoop<
    Body, std::void_t<decltype(std::declval<const Body&>().levels(
              std::declval<index_t>(), std::declval<index_t>(), std::declval<index_t>()))>>
    : std::true_type {};

template <class Body>
struct ColumnLoop {
  Body body;
  index_t level_begin, level_end;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t point) const {
    if constexpr (HasLevelLoop<Body>::value) {
      body.levels(point, level_begin, level_end);
    } else {
      for (index_t k = level_begin; k < level_end; ++k) body(point, k);
    }
  }
};

}  // namespace detail

/// Launches `body(point, level)` for every point in `points` and level in [level_begin,
/// level_end) on `space` with `schedule`. `level_block` (levels per work item; all_levels: the
/// whole range) tiles LevelChunks and, as the tile's level extent, MDRange; Flat and PointsOuter
/// ignore it. Empty ranges launch nothing.
template <class ExecSpace, class Body>
void parallel_for_points_levels(const std::string& label, const ExecSpace& space, IndexRange points,
                                index_t level_begin, index_t level_end, const Body& body,
                                LoopSchedule schedule = default_loop_schedule<ExecSpace>(),
                                index_t level_block = 1) {
  if (points.empty() || level_end <= level_begin) return;
  const index_t levels = level_end - level_begin;
  const index_t block = level_block <= 0 || level_block > levels ? levels : level_block;
  switch (schedule) {
    case LoopSchedule::MDRange: {
      using Policy =
          Kokkos::MDRangePolicy<ExecSpace,
                                Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                Kokkos::IndexType<index_t>>;
      // Tiles of the default size unless a level block is asked for: then (chunk, block), within
      // a GPU block's thread limit on devices.
      constexpr bool on_device =
          !Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                      typename ExecSpace::memory_space>::accessible;
      const MDRangeTile tile = mdrange_tile(block, on_device);
      const Policy policy =
          level_block == 1 ? Policy(space, {points.start, level_begin}, {points.end, level_end})
                           : Policy(space, {points.start, level_begin}, {points.end, level_end},
                                    {tile.points, tile.levels});
      Kokkos::parallel_for(label, compat::light_weight(policy), body);
      return;
    }
    case LoopSchedule::Flat: {
      const std::int64_t n = static_cast<std::int64_t>(points.size()) * (level_end - level_begin);
      Kokkos::parallel_for(
          label,
          compat::light_weight(
              Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n)),
          detail::FlatPointsLevels<Body>{body, points.start, points.size(), level_begin});
      return;
    }
    case LoopSchedule::LevelChunks: {
      const index_t chunks = (points.size() + level_chunk_points - 1) / level_chunk_points;
      const index_t blocks = (levels + block - 1) / block;
      Kokkos::parallel_for(
          label,
          compat::light_weight(Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(
              space, 0, chunks * blocks)),
          detail::LevelChunkLoop<Body>{body, points.start, points.end, chunks, level_begin,
                                       level_end, block});
      return;
    }
    case LoopSchedule::PointsOuter:
      Kokkos::parallel_for(
          label,
          compat::light_weight(Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(
              space, points.start, points.end)),
          detail::ColumnLoop<Body>{body, level_begin, level_end});
      return;
  }
}

/// Launches `body(level)` for level in [level_begin, level_end).
template <class ExecSpace, class Body>
void parallel_for_levels(const std::string& label, const ExecSpace& space, index_t level_begin,
                         index_t level_end, const Body& body) {
  if (level_end <= level_begin) return;
  Kokkos::parallel_for(
      label,
      compat::light_weight(Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(
          space, level_begin, level_end)),
      body);
}

}  // namespace icondiff
