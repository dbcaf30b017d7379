// The boundary between memory someone else owns in ICON's layout (Fortran arrays of a call) and
// the fields of a state struct in icondiff's own layout. With ICON's layout (FieldLayout =
// LayoutLeft) the fields are the caller's memory itself: zero copy, and copy_in/copy_out do
// nothing. With level-fastest fields they are icondiff's own arrays, kept from one bind() to the
// next (no allocation once the extents are known): copy_in converts the caller's arrays into
// them before a run, copy_out converts the fields a run wrote back into the caller's arrays;
// a field the call only writes (set_pure_output) is not converted in, and out only where the call
// writes it.
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/types.hpp>
#include <icondiff/core/view_copy.hpp>
#include <icondiff/core/written_region.hpp>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace icondiff {

/// Whether binding foreign memory in ICON's layout costs a conversion in this build.
inline constexpr bool external_memory_is_converted = !field_layout_is_icons;

/// One array someone else owns: its first element and its leading dimension (elements between
/// consecutive slots/levels; ICON's nproma). `element_size` guards against a float array passed
/// where a double one is expected.
struct ExternalArray {
  const void* data = nullptr;
  std::size_t leading_dimension = 0;
  std::size_t element_size = 0;
};

/// What ExternalState::bind does with a field that is not in the arrays.
enum class MissingArrays {
  Refused,  ///< InvalidArgument, unless its presence allows it (ZDiffusion, IfAvailable)
  Empty     ///< the field stays empty (the caller fills it in, e.g. with its own storage)
};

namespace detail {

/// One (points, levels) field of a batched boundary conversion: ICON's array (point p, level k
/// at icon[p + k * ld]) and icondiff's level-fastest one (at mine[p * stride + k]), over points
/// [p0, p1) × levels [k0, k1). Its work items are [first_item, first_item + items).
template <class T>
struct BoundaryCopy {
  T* icon = nullptr;
  T* mine = nullptr;
  std::int64_t ld = 0, stride = 0;
  std::int64_t p0 = 0, p1 = 0;
  int k0 = 0, k1 = 0;
  std::int64_t level_blocks = 1;  ///< tiles per point range (host)
  std::int64_t first_item = 0;
  std::int64_t items = 0;
};

/// The conversion of every (points, levels) field of a state in one kernel: a launch costs a few
/// microseconds, which on small grids was most of what a call's conversion cost (one launch per
/// field, each way). Work items as copy_across_layouts' (view_copy.hpp: on a host space tiles of
/// copy_tile_points × copy_tile_levels, points outer; on a device one point and its levels); an
/// item finds its field by a search over the batch's few fields.
template <class T, std::size_t N, bool Tiled>
struct BatchedBoundaryCopy {
  Kokkos::Array<BoundaryCopy<T>, N> copies;
  int count = 0;
  bool into_fields = true;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    int f = 0;
    while (f + 1 < count && item >= copies[f + 1].first_item) ++f;
    const BoundaryCopy<T>& c = copies[f];
    const std::int64_t local = item - c.first_item;
    std::int64_t i0 = c.p0 + local, i1 = i0 + 1;
    int k0 = c.k0, k1 = c.k1;
    if constexpr (Tiled) {
      i0 = c.p0 + local / c.level_blocks * copy_tile_points;
      i1 = i0 + copy_tile_points < c.p1 ? i0 + copy_tile_points : c.p1;
      k0 = c.k0 + static_cast<int>(local % c.level_blocks) * copy_tile_levels;
      k1 = k0 + copy_tile_levels < c.k1 ? k0 + copy_tile_levels : c.k1;
    }
    if (into_fields) {
      for (std::int64_t i = i0; i < i1; ++i)
        for (int k = k0; k < k1; ++k) c.mine[i * c.stride + k] = c.icon[i + k * c.ld];
    } else {
      for (std::int64_t i = i0; i < i1; ++i)
        for (int k = k0; k < k1; ++k) c.icon[i + k * c.ld] = c.mine[i * c.stride + k];
    }
  }
};

}  // namespace detail

/// What ExternalState::copy_in does with the fields set_pure_output declared.
enum class PureOutputs {
  Skipped,   ///< not converted: the call only writes them
  Converted  ///< converted as every field (e.g. to record the call's inputs in a savepoint)
};

template <template <class> class State, class ExecSpace>
class ExternalState {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using Fields = State<memory_space>;
  /// The caller's array of every field, in the order of Fields::field_specs() (data null:
  /// absent).
  using Arrays = std::array<ExternalArray, Fields::num_fields>;

  ExternalState() = default;
  /// wrap_external_state's binding: arrays that would need a conversion are refused.
  struct ZeroCopyOnly {};
  explicit ExternalState(ZeroCopyOnly) : zero_copy_only_(true) {}

  /// Binds `arrays` (by field name, in `memory_space`); names that are not fields of the struct
  /// are refused (a typo must not pass silently). Otherwise as the overload below.
  void bind(const std::map<std::string, ExternalArray>& arrays, const FieldSizes& sizes,
            const std::string& what, bool zdiffusion = true,
            MissingArrays missing = MissingArrays::Refused) {
    Arrays by_field{};
    std::size_t used = 0;
    for (std::size_t f = 0; f < by_field.size(); ++f) {
      const auto it = arrays.find(Fields::field_specs()[f].name);
      if (it == arrays.end()) continue;
      by_field[f] = it->second;
      by_field[f].data = by_field[f].data ? by_field[f].data : &null_array_marker;
      ++used;
    }
    if (used != arrays.size())
      for (const auto& [name, array] : arrays) {
        bool known = false;
        for (const auto& spec : Fields::field_specs()) known |= name == spec.name;
        if (!known) throw InvalidArgument(what + " has no field named '" + name + "'");
      }
    bind(by_field, sizes, what.c_str(), zdiffusion, missing);
  }

  /// Binds `arrays` (in `memory_space`, ICON's layout) with the checks and messages of
  /// wrap_external_state: every field present except those allowed to be empty (ZDiffusion
  /// without `zdiffusion`, IfAvailable; all of them with MissingArrays::Empty), element sizes,
  /// non-null data, leading dimensions >= points, dense 3-D fields. `what` prefixes messages.
  /// No allocation unless it throws or (level-fastest fields) the extents are new.
  void bind(const Arrays& arrays, const FieldSizes& sizes, const char* what, bool zdiffusion = true,
            MissingArrays missing = MissingArrays::Refused) {
    bound_ = Arrays{};
    std::size_t f = 0;
    Fields::for_each_field(
        [&](const FieldSpec& spec, auto& field, auto& own) {
          using V = std::decay_t<decltype(field)>;
          using T = typename V::value_type;
          const ExternalArray& a = arrays[f++];
          field = V();
          if (a.data == nullptr) {
            if (missing == MissingArrays::Empty || spec.presence == Presence::IfAvailable ||
                (spec.presence == Presence::ZDiffusion && !zdiffusion))
              return;
            throw InvalidArgument(std::string(what) + " " + spec.name + " is missing");
          }
          if (a.element_size != sizeof(T))
            throw InvalidArgument(std::string(what) + " " + spec.name + " has elements of " +
                                  std::to_string(a.element_size) + " bytes, expected " +
                                  std::to_string(sizeof(T)));
          std::array<std::size_t, V::rank> e{};
          for (unsigned r = 0; r < V::rank; ++r) e[r] = field_extent(spec, sizes, r);
          T* data =
              a.data == &null_array_marker ? nullptr : static_cast<T*>(const_cast<void*>(a.data));
          const std::size_t ld = a.leading_dimension == 0 ? e[0] : a.leading_dimension;
          const auto caller =
              icon_layout_view<T>(data, e, ld, [&] { return std::string(what) + " " + spec.name; });
          if constexpr (external_memory_is_converted) {
            // wrap_external's refusal, for wrap_external_state's callers.
            if (zero_copy_only_ && V::rank > 1)
              (void)wrap_external<T, V::rank, memory_space>(std::string(what) + " " + spec.name,
                                                            data, {e.begin(), e.end()}, ld);
            bool same = true;
            for (unsigned r = 0; r < V::rank; ++r) same = same && own.extent(r) == e[r];
            if (!same) own = allocate_field<V>(spec.name, e);
            field = own;
            bound_[f - 1] = {data, ld, sizeof(T)};
          } else {
            field = caller;  // ICON's layout: the caller's memory itself
          }
        },
        fields_, own_);
  }

  /// The bound fields (absent optional ones empty).
  Fields& fields() { return fields_; }
  const Fields& fields() const { return fields_; }

  /// Declares field `name` a pure output of the calls this state is bound for: a call writes it
  /// over `region` only and never reads it. copy_in then leaves it out and copy_out converts
  /// `region` only, so the caller's other points keep what they held, as with ICON's layout, where
  /// the call writes into the caller's memory itself. Kept across binds. `region` must be exactly
  /// what the call writes: a smaller one loses values, a larger one hands back whatever
  /// icondiff's own array held there (tests: the C API's outputs against the C++ path over every
  /// point, with the caller's diagnostics filled beforehand). Only (points, levels) fields.
  void set_pure_output(std::string_view name, const WrittenRegion& region) {
    std::size_t f = 0;
    bool found = false;
    Fields::for_each_field(
        [&](const FieldSpec& spec, const auto& field) {
          using V = std::decay_t<decltype(field)>;
          if (spec.name != name) {
            ++f;
            return;
          }
          if (V::rank != 2)
            throw InvalidArgument(std::string("set_pure_output: ") + spec.name +
                                  " is not a (points, levels) field");
          pure_outputs_[f++] = region;
          found = true;
        },
        fields_);
    if (!found)
      throw InvalidArgument("set_pure_output: no field named '" + std::string(name) + "'");
  }

  /// The caller's arrays into the fields (enqueued on `space`).
  void copy_in(const ExecSpace& space, PureOutputs pure_outputs = PureOutputs::Skipped) const {
    if constexpr (external_memory_is_converted) convert(space, true, pure_outputs);
  }
  /// The fields back into the caller's arrays (enqueued on `space`); a pure output over its
  /// region only.
  void copy_out(const ExecSpace& space) const {
    if constexpr (external_memory_is_converted) convert(space, false, PureOutputs::Skipped);
  }

 private:
  /// The caller's memory as a View in ICON's layout; `name()` (built only on failure) names the
  /// argument in view_of_external's message.
  template <class T, std::size_t Rank, class Name>
  static IconLayoutView<T, Rank, memory_space> icon_layout_view(
      T* data, const std::array<std::size_t, Rank>& e, std::size_t ld, const Name& name) {
    std::size_t size = 1;
    for (const auto x : e) size *= x;
    const bool valid = (size == 0 || data != nullptr) && ld >= e[0] && (Rank < 3 || ld == e[0]);
    // view_of_external throws with its message (and allocates) only for what is invalid.
    if (!valid)
      return view_of_external<T, Rank, memory_space>(name(), data, {e.begin(), e.end()}, ld);
    return detail::icon_layout_view_of<T, Rank, memory_space>(data, e, ld);
  }

  template <class V, std::size_t Rank>
  static V allocate_field(const char* name, const std::array<std::size_t, Rank>& e) {
    const auto alloc =
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("icondiff::boundary::") + name);
    if constexpr (Rank == 1)
      return V(alloc, e[0]);
    else if constexpr (Rank == 2)
      return V(alloc, e[0], e[1]);
    else
      return V(alloc, e[0], e[1], e[2]);
  }

  /// The (points, levels) fields of one element type, converted in one kernel (see
  /// detail::BatchedBoundaryCopy); the others (1-D, 3-D) one kernel each.
  static constexpr bool tiled_conversion =
      std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>;
  template <class T>
  using Batch = detail::BatchedBoundaryCopy<T, Fields::num_fields, tiled_conversion>;
  // The raw indexing of BatchedBoundaryCopy: icondiff's fields level-fastest, ICON's point-fastest.
  static_assert(!external_memory_is_converted || std::is_same_v<FieldLayout, Kokkos::LayoutRight>);

  template <class T>
  static void add(Batch<T>& batch, T* icon, std::size_t ld, T* mine, std::size_t stride,
                  IndexRange points, IndexRange levels) {
    if (points.empty() || levels.empty()) return;
    detail::BoundaryCopy<T> c;
    c.icon = icon;
    c.mine = mine;
    c.ld = static_cast<std::int64_t>(ld);
    c.stride = static_cast<std::int64_t>(stride);
    c.p0 = points.start;
    c.p1 = points.end;
    c.k0 = levels.start;
    c.k1 = levels.end;
    c.items = points.size();
    if constexpr (tiled_conversion) {
      c.level_blocks = (levels.size() + detail::copy_tile_levels - 1) / detail::copy_tile_levels;
      c.items =
          (c.items + detail::copy_tile_points - 1) / detail::copy_tile_points * c.level_blocks;
    }
    if (batch.count > 0) {
      const detail::BoundaryCopy<T>& last = batch.copies[batch.count - 1];
      c.first_item = last.first_item + last.items;
    }
    batch.copies[batch.count++] = c;
  }

  template <class T>
  static void launch(const ExecSpace& space, const Batch<T>& batch) {
    if (batch.count == 0) return;
    const detail::BoundaryCopy<T>& last = batch.copies[batch.count - 1];
    Kokkos::parallel_for(batch.into_fields ? from_caller_label : to_caller_label,
                         Kokkos::RangePolicy<ExecSpace>(space, 0, last.first_item + last.items),
                         batch);
  }

  void convert(const ExecSpace& space, bool into_fields, PureOutputs pure_outputs) const {
    Batch<double> doubles;
    Batch<float> floats;
    doubles.into_fields = floats.into_fields = into_fields;
    std::size_t f = 0;
    Fields::for_each_field(
        [&](const FieldSpec& spec, const auto& field) {
          using V = std::decay_t<decltype(field)>;
          using T = typename V::non_const_value_type;
          const std::optional<WrittenRegion>& pure = pure_outputs_[f];
          const ExternalArray& a = bound_[f++];
          if (a.leading_dimension == 0) return;  // not bound
          if (pure && into_fields && pure_outputs == PureOutputs::Skipped) return;
          if (pure && !into_fields && pure->empty()) return;
          std::array<std::size_t, V::rank> e{};
          for (unsigned r = 0; r < V::rank; ++r) e[r] = field.extent(r);
          const auto caller =
              icon_layout_view<T>(static_cast<T*>(const_cast<void*>(a.data)), e,
                                  a.leading_dimension, [&] { return std::string(spec.name); });
          constexpr bool batched =
              V::rank == 2 && (std::is_same_v<T, double> || std::is_same_v<T, float>);
          if constexpr (batched) {
            IndexRange points{0, static_cast<index_t>(e[0])};
            IndexRange levels{0, static_cast<index_t>(e[1])};
            if (pure && !into_fields) {
              if (pure->points.start < 0 || pure->points.end > points.end ||
                  pure->levels.start < 0 || pure->levels.end > levels.end)
                throw InvalidArgument(std::string(spec.name) + ": its written region exceeds it");
              points = pure->points;
              levels = pure->levels;
            }
            auto& batch = [&]() -> Batch<T>& {
              if constexpr (std::is_same_v<T, double>)
                return doubles;
              else
                return floats;
            }();
            add(batch, caller.data(), caller.stride(1), field.data(), field.stride(0), points,
                levels);
          } else if (into_fields) {
            copy_across_layouts(from_caller_label, space, field, caller);
          } else {
            copy_across_layouts(to_caller_label, space, caller, field);
          }
        },
        fields_);
    launch(space, doubles);
    launch(space, floats);
  }

  /// Stands for a null pointer the caller did pass (an empty field's array) in bind's Arrays,
  /// where null means "absent".
  static inline const char null_array_marker = 0;
  static inline const std::string from_caller_label = "icondiff::boundary::from_caller";
  static inline const std::string to_caller_label = "icondiff::boundary::to_caller";

  bool zero_copy_only_ = false;  ///< wrap_external_state: refuse what needs a conversion
  Fields fields_;
  Fields own_;    ///< storage of the converted fields, kept across binds
  Arrays bound_;  ///< the caller's array per converted field (leading_dimension 0: none)
  /// The region of each field set_pure_output declared (by field, as bound_).
  std::array<std::optional<WrittenRegion>, Fields::num_fields> pure_outputs_{};
};

/// Wraps the arrays of `arrays` (by field name) as the fields of `State<MemorySpace>` without
/// copying (ExternalState::bind's checks and messages). Only fields in ICON's layout can be
/// wrapped: with level-fastest fields a (points, levels) array is refused with ConfigError, and
/// callers that must work in every layout use ExternalState.
template <template <class> class State, class MemorySpace>
State<MemorySpace> wrap_external_state(const std::map<std::string, ExternalArray>& arrays,
                                       const FieldSizes& sizes, const std::string& what,
                                       bool zdiffusion = true) {
  using Bound = ExternalState<State, typename MemorySpace::execution_space>;
  Bound bound{typename Bound::ZeroCopyOnly{}};
  bound.bind(arrays, sizes, what, zdiffusion);
  return bound.fields();
}

/// Owned copies in `To` (FieldLayout) of the fields of State from `arrays` in `From` (ICON's
/// layout, any leading dimension), with wrap_external_state's checks (labels "<scope><field>").
template <template <class> class State, class To, class From>
State<To> copy_external_state(const std::map<std::string, ExternalArray>& arrays,
                              const FieldSizes& sizes, const std::string& what,
                              const std::string& scope, bool zdiffusion = true,
                              MissingArrays missing = MissingArrays::Refused) {
  ExternalState<State, typename From::execution_space> bound;
  bound.bind(arrays, sizes, what, zdiffusion, missing);
  const typename From::execution_space space;
  bound.copy_in(space);
  space.fence();
  State<To> out;
  State<To>::for_each_field([&](const FieldSpec& spec, auto& to,
                                const auto& from) { to = copy_view<To>(scope + spec.name, from); },
                            out, bound.fields());
  return out;
}

}  // namespace icondiff
