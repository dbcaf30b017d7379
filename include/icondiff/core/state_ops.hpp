// Operations on any state struct declared with ICONDIFF_STATE_FIELDS: extent checks, fresh
// copies into another memory space, allocation (wrapping external memory: external_state.hpp). Each
// is one loop over the struct's field list, so a new field needs no code here.
#pragma once

#include <icondiff/core/error.hpp>
#include <icondiff/core/external_state.hpp>
#include <icondiff/core/field_spec.hpp>
#include <icondiff/core/view_copy.hpp>

#include <map>
#include <string>
#include <string_view>
#include <type_traits>

namespace icondiff {

namespace detail {
/// A message prefix given as text, or as a callable that builds it (only when a check fails).
template <class What>
std::string describe(const What& what) {
  if constexpr (std::is_invocable_v<const What&>)
    return what();
  else
    return std::string(std::string_view(what));
}
}  // namespace detail

/// Throws InvalidArgument naming the struct (`what`: text, or a callable returning it, built only
/// on failure), the field, its extents and the expected ones, unless every field of `state` has
/// the extents `sizes` give it and data. A field whose presence is ZDiffusion may be empty unless
/// `zdiffusion`; IfAvailable fields may be empty. No allocation unless it throws (the granules
/// check their states on every call).
template <class State, class What>
void check_state_extents(const State& state, const FieldSizes& sizes, const What& what,
                         bool zdiffusion = true) {
  State::for_each_field(
      [&](const FieldSpec& spec, const auto& view) {
        const bool may_be_empty = spec.presence == Presence::IfAvailable ||
                                  (spec.presence == Presence::ZDiffusion && !zdiffusion);
        if (may_be_empty && view.size() == 0) return;
        // Compared without building vectors: the granule checks its states on every call.
        using V = std::decay_t<decltype(view)>;
        bool same = static_cast<int>(V::rank) == spec.rank();
        std::size_t n = 1;
        for (unsigned r = 0; same && r < V::rank; ++r) {
          const std::size_t e = field_extent(spec, sizes, r);
          same = view.extent(r) == e;
          n *= e;
        }
        if (!same || (n > 0 && view.data() == nullptr))
          throw InvalidArgument(detail::describe(what) + " " + spec.name + " has extents " +
                                extents_string(view_extents(view)) +
                                (view.data() == nullptr ? " and no data" : "") + ", expected " +
                                extents_string(field_extents(spec, sizes)));
      },
      state);
}

/// Fresh copies of every field of `state` in memory space `To` (labels "<scope><field>").
template <class To, template <class> class State, class From>
State<To> copy_state(const State<From>& state, const std::string& scope) {
  State<To> out;
  State<To>::for_each_field([&](const FieldSpec& spec, auto& to,
                                const auto& from) { to = copy_view<To>(scope + spec.name, from); },
                            out, state);
  return out;
}

/// Every field of `State<MemorySpace>` allocated with the extents `sizes` give it and
/// zero-initialised (labels "<scope><field>"). ZDiffusion fields are left empty unless
/// `zdiffusion`.
template <template <class> class State, class MemorySpace>
State<MemorySpace> allocate_state(const FieldSizes& sizes, const std::string& scope,
                                  bool zdiffusion = true) {
  State<MemorySpace> out;
  State<MemorySpace>::for_each_field(
      [&](const FieldSpec& spec, auto& view) {
        if (spec.presence == Presence::ZDiffusion && !zdiffusion) return;
        using V = std::decay_t<decltype(view)>;
        const auto e = field_extents(spec, sizes);
        const std::string label = scope + spec.name;
        if constexpr (V::rank == 1)
          view = V(label, e[0]);
        else if constexpr (V::rank == 2)
          view = V(label, e[0], e[1]);
        else
          view = V(label, e[0], e[1], e[2]);
      },
      out);
  return out;
}

}  // namespace icondiff
