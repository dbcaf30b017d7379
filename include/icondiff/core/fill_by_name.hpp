// Filling a kernel body's members BY NAME from the structs that hold the fields (a granule's
// static bundle, one call's arguments), driven by a field list (core/field_spec.hpp) or any list
// macro whose entries start with the member name, so the assignments are not written out by hand:
//
//   ICONDIFF_DEFINE_FILL_BY_NAME(fill_call_fields, MY_PROGRAM_ARGUMENTS)
//   ...
//   fill_call_fields(body, args);                                 // body.x = args.x for each x
//   fill_statics(body, inputs.metric, inputs.interpolation);      // from whichever holds x
//
// For each name of the list, exactly one of the sources must have a member of that name and the
// target must have one too; otherwise the program does not compile (static_assert naming the
// field), so a missing, renamed or doubly held field cannot turn into a wrong kernel. Member types
// must convert as View handles do (a wp field never lands in a vp member).
#pragma once

#include <type_traits>

namespace icondiff::fill_by_name_detail {

/// How many of Sources have the member that Getter reads.
template <class Getter, class... Sources>
constexpr int holders() {
  return (0 + ... + static_cast<int>(std::is_invocable_v<const Getter&, const Sources&>));
}

/// Whether Target can take the member Getter reads from Source (true when Source does not hold it).
template <class Target, class Getter, class Source,
          bool holds = std::is_invocable_v<const Getter&, const Source&>>
struct takes : std::true_type {};
template <class Target, class Getter, class Source>
struct takes<Target, Getter, Source, true>
    : std::is_assignable<Target&, std::invoke_result_t<const Getter&, const Source&>> {};

/// target = get(source) for the one source that has the member.
template <class Target, class Getter, class... Sources>
void assign_from_holder(Target& target, const Getter& get, const Sources&... sources) {
  (
      [&] {
        if constexpr (std::is_invocable_v<const Getter&, const Sources&>) target = get(sources);
      }(),
      ...);
}

}  // namespace icondiff::fill_by_name_detail

/// One list entry: target.NAME = the member NAME of the one source that has it. The getter's
/// trailing return type makes "has a member NAME" detectable (a substitution failure otherwise).
#define ICONDIFF_FILL_MEMBER_BY_NAME(name, ...)                                                   \
  {                                                                                               \
    const auto get = [](const auto& source) -> decltype((source.name)) { return source.name; };   \
    static_assert(::icondiff::fill_by_name_detail::holders<decltype(get), Sources...>() == 1,     \
                  "fill by name: the field '" #name "' must be a member of exactly one source");  \
    static_assert(                                                                                \
        (::icondiff::fill_by_name_detail::takes<std::remove_reference_t<decltype((target.name))>, \
                                                decltype(get), Sources>::value &&                 \
         ...),                                                                                    \
        "fill by name: the field '" #name "' has a type the target's member cannot take");        \
    ::icondiff::fill_by_name_detail::assign_from_holder(target.name, get, sources...);            \
  }

/// Defines `template <class Target, class... Sources> void FUNCTION(Target&, const Sources&...)`
/// filling every member of LIST by name (ICONDIFF_FILL_MEMBER_BY_NAME).
#define ICONDIFF_DEFINE_FILL_BY_NAME(FUNCTION, LIST)         \
  template <class Target, class... Sources>                  \
  void FUNCTION(Target& target, const Sources&... sources) { \
    LIST(ICONDIFF_FILL_MEMBER_BY_NAME)                       \
    (void)target;                                            \
    ((void)sources, ...);                                    \
  }
