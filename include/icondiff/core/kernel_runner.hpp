// What every granule needs to launch its kernels: the execution space instance, the loop
// schedule, optional per-kernel timers and the fences around halo exchanges. The diffusion
// granule uses it today; the dycore stencils use the same launches, including column bodies
// (one point, its own loop over k) for the tridiagonal solves of the vertically implicit solver.
//
// The instance travels with each call (on(space) makes the call's Launch; ArborX style): the
// runner itself holds only the schedule, level block and timers, so one granule can run calls on
// several instances (streams, OpenMP partitions) at once.
//
// Every launch runs inside a Kokkos profiling region, the step's region (region_name(): the label
// without its namespace), timer fences included, so a Tools connector shows each step of a granule
// as a region under the granule's call region. Without a tool loaded this costs a test of the
// tool callbacks per launch.
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/index_range.hpp>
#include <icondiff/core/launch.hpp>
#include <icondiff/kokkos_compat.hpp>
#include <icondiff/profiling/kernel_timers.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace icondiff {

namespace detail {
/// Block b of KernelRunner::column_blocks(): columns [first + b * block_size, ...) up to `last`.
/// At namespace scope, not nested in the runner: nvcc's launch stubs must name it.
template <class Body>
struct ColumnBlock {
  Body body;
  index_t first, last;
  KOKKOS_INLINE_FUNCTION void operator()(const index_t b) const {
    const index_t begin = first + b * Body::block_size;
    const index_t end = begin + Body::block_size;
    body.columns(begin, end < last ? end : last);
  }
};
}  // namespace detail

template <class ExecSpace>
class KernelRunner {
 public:
  using execution_space = ExecSpace;
  class Launch;

  explicit KernelRunner(const ExecSpace& space = ExecSpace(),
                        LoopSchedule schedule = default_loop_schedule<ExecSpace>())
      : space_(space), schedule_(schedule) {}

  /// The launches of one call on `space`. A granule makes one per call from the instance the
  /// call was given (ArborX style) and never stores it, so one granule can serve calls on several
  /// instances (streams, OpenMP partitions) at once; the schedule, level block and timers are the
  /// runner's.
  Launch on(const ExecSpace& space) const { return Launch(*this, space); }

  /// The instance of the launches made on the runner itself (one-instance callers: tests,
  /// benchmarks); granules launch through on(space) instead.
  const ExecSpace& space() const { return space_; }

  void set_schedule(LoopSchedule schedule) { schedule_ = schedule; }
  LoopSchedule schedule() const { return schedule_; }

  /// Levels per work item of the LevelChunks and MDRange schedules (launch.hpp; all_levels: the
  /// whole level range of a launch). 1 unless set.
  void set_level_block(index_t level_block) {
    if (level_block < 0)
      throw ConfigError("level block " + std::to_string(level_block) +
                        " is negative: expected a number of levels >= 1, or 0 for all levels");
    level_block_ = level_block;
  }
  index_t level_block() const { return level_block_; }

  /// Attaches timers or detaches them (nullptr). Timers of the `kernels` scope fence the instance
  /// around every kernel, of the `calls` scope around the whole call; one call at a time.
  void set_timers(KernelTimers* timers) { timers_ = timers; }
  KernelTimers* timers() const { return timers_; }

  /// The profiling region of the launches labelled `label`: the label without its namespace
  /// ("icondiff::diffusion::apply_diffusion_to_vn" -> "apply_diffusion_to_vn"), the step's name in
  /// ICON4Py and in the built-in timer table. It must differ from the kernel's label: tools that
  /// key by name alone (kp_kernel_timer) would merge a region and a kernel of the same name. Kept
  /// per label (behind a lock: calls on several instances may ask at once), so only a label's
  /// first launch with a tool loaded allocates; without a tool the label itself is returned
  /// (pushRegion then does nothing with it).
  const std::string& region_name(const std::string& label) const {
    if (!compat::tools_loaded()) return label;
    RegionNames& names = *region_names_;
    const std::lock_guard<std::mutex> lock(names.mutex);
    auto it = names.by_label.find(label);
    if (it == names.by_label.end()) {
      const auto colons = label.rfind("::");
      it = names.by_label
               .emplace(label, colons == std::string::npos ? label : label.substr(colons + 2))
               .first;
    }
    return it->second;
  }

  // ---- The launches on the runner's own instance (see on()).
  template <class Body>
  void points_levels(const std::string& label, IndexRange points, index_t level_begin,
                     index_t level_end, const Body& body) const {
    on(space_).points_levels(label, points, level_begin, level_end, body);
  }
  template <class Body>
  void levels(const std::string& label, index_t level_begin, index_t level_end,
              const Body& body) const {
    on(space_).levels(label, level_begin, level_end, body);
  }
  template <class Body>
  void columns(const std::string& label, IndexRange points, const Body& body) const {
    on(space_).columns(label, points, body);
  }
  template <class Body>
  void column_blocks(const std::string& label, IndexRange points, const Body& body,
                     bool blocked) const {
    on(space_).column_blocks(label, points, body, blocked);
  }
  void fence(const std::string& label) const { on(space_).fence(label); }
  template <class F>
  void timed(const std::string& label, F&& what) const {
    on(space_).timed(label, std::forward<F>(what));
  }

  /// The launches of one call: the runner's settings and the call's instance. Cheap to make
  /// (a pointer and an instance handle); valid while the runner lives.
  class Launch {
   public:
    Launch(const KernelRunner& runner, const ExecSpace& space) : runner_(&runner), space_(space) {}

    const ExecSpace& space() const { return space_; }

    /// body(point, level) for every point in `points` and level in [level_begin, level_end),
    /// with the runner's loop schedule, inside the region region_name(label). Empty ranges launch
    /// nothing (the region is still pushed: the step ran, with nothing to do).
    template <class Body>
    void points_levels(const std::string& label, IndexRange points, index_t level_begin,
                       index_t level_end, const Body& body) const {
      compat::ScopedRegion region(runner_->region_name(label));
      timed(label, [&] {
        parallel_for_points_levels(label, space_, points, level_begin, level_end, body,
                                   runner_->schedule_, runner_->level_block_);
      });
    }

    /// body(level) for level in [level_begin, level_end): vertical profiles (inside the region
    /// region_name(label)).
    template <class Body>
    void levels(const std::string& label, index_t level_begin, index_t level_end,
                const Body& body) const {
      compat::ScopedRegion region(runner_->region_name(label));
      timed(label, [&] { parallel_for_levels(label, space_, level_begin, level_end, body); });
    }

    /// body(point) for every point in `points`: a column body that loops over its own levels,
    /// for recurrences in k (tridiagonal sweeps). One thread per column, consecutive threads on
    /// consecutive points, so with FieldLayout (point fastest) every level's loads coalesce on
    /// GPUs and CPU threads get contiguous blocks of columns. Inside the region
    /// region_name(label).
    template <class Body>
    void columns(const std::string& label, IndexRange points, const Body& body) const {
      compat::ScopedRegion region(runner_->region_name(label));
      if (points.empty()) return;
      timed(label, [&] {
        Kokkos::parallel_for(
            label,
            compat::light_weight(Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(
                space_, points.start, points.end)),
            body);
      });
    }

    /// The same columns in blocks of Body::block_size consecutive points, each block by
    /// body.columns(begin, end), which walks the levels with the block's points innermost: on
    /// CPUs every level's loads are then unit-stride streams (ICON's nproma loops) instead of
    /// one stride-nproma access per level. Falls back to columns() where `blocked` is false
    /// (GPUs: one thread per column already coalesces).
    template <class Body>
    void column_blocks(const std::string& label, IndexRange points, const Body& body,
                       bool blocked) const {
      if (!blocked) {
        columns(label, points, body);
        return;
      }
      compat::ScopedRegion region(runner_->region_name(label));
      if (points.empty()) return;
      const index_t blocks = (points.size() + Body::block_size - 1) / Body::block_size;
      timed(label, [&] {
        Kokkos::parallel_for(
            label,
            compat::light_weight(
                Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(space_, 0, blocks)),
            detail::ColumnBlock<Body>{body, points.start, points.end});
      });
    }

    /// Waits for every kernel enqueued so far on the instance (before an exchange reads the
    /// fields; since Kokkos 4.0 the default stream no longer synchronises implicitly with MPI).
    void fence(const std::string& label) const { compat::fence(space_, label); }

    /// Times the kernel(s) `what` under `label` when timers of the `kernels` scope are attached
    /// (fenced on both sides), else runs it.
    template <class F>
    void timed(const std::string& label, F&& what) const {
      KernelTimers* timers = runner_->timers_;
      time_if(timers && timers->scope() == TimerScope::kernels, label, std::forward<F>(what));
    }

    /// Times a whole call `what` under `label` when timers of any scope are attached.
    template <class F>
    void timed_call(const std::string& label, F&& what) const {
      time_if(runner_->timers_ != nullptr, label, std::forward<F>(what));
    }

   private:
    template <class F>
    void time_if(bool timing, const std::string& label, F&& what) const {
      KernelTimers* timers = runner_->timers_;
      if (!timing) {
        what();
        return;
      }
      compat::fence(space_, label);
      const auto t0 = std::chrono::steady_clock::now();
      what();
      compat::fence(space_, label);
      timers->record(label,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }

    const KernelRunner* runner_;
    ExecSpace space_;
  };

 private:
  ExecSpace space_;
  LoopSchedule schedule_;
  index_t level_block_ = 1;
  KernelTimers* timers_ = nullptr;
  // Shared by copies of the runner (a std::map's nodes never move: the references region_name
  // returns stay valid while any copy lives).
  struct RegionNames {
    std::mutex mutex;
    std::map<std::string, std::string, std::less<>> by_label;
  };
  std::shared_ptr<RegionNames> region_names_ = std::make_shared<RegionNames>();
};

}  // namespace icondiff
