// Checkpoints of a dynamics run (dynamics_checkpoint.hpp).
#include <icondiff/core/error.hpp>
#include <icondiff/io/dynamics_checkpoint.hpp>

#include "icon_order.hpp"
#include "netcdf_file.hpp"

#include <fmt/format.h>
#include <netcdf.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <functional>
#include <vector>

namespace icondiff {

namespace {

using H = Kokkos::HostSpace;
constexpr int format_version = 1;

/// Calls f(prefix, spec, view) for every field of every state of `states`, named
/// "<prefix>__<field>" in the file.
template <class States, class F>
void for_each_checkpoint_field(States& states, F&& f) {
  const auto each = [&](const char* prefix, auto& state) {
    using State = std::remove_const_t<std::remove_reference_t<decltype(state)>>;
    State::for_each_field([&](const FieldSpec& spec, auto& view) { f(prefix, spec, view); }, state);
  };
  each("current", states.current);
  each("next", states.next);
  each("solve_nh", states.solve_nh);
  each("prep_adv", states.prep_adv);
  each("diffusion", states.diffusion);
}

std::string variable_name(const char* prefix, const FieldSpec& spec) {
  return std::string(prefix) + "__" + spec.name;
}

[[noreturn]] void throw_checkpoint_error(const std::string& file, const std::string& variable,
                                         long long index, const std::string& problem) {
  throw InvalidArgument(
      fmt::format("checkpoint '{}'{}{}: {}", file, variable.empty() ? "" : ", variable " + variable,
                  index >= 0 ? fmt::format(" (element {})", index) : "", problem));
}

}  // namespace

void write_dynamics_checkpoint(const std::string& path, const DynamicsCheckpointInfo& info,
                               const DynamicsStates<H>& states) {
  static std::atomic<int> counter{0};
  const std::string temporary =
      fmt::format("{}.tmp.{}.{}", path, static_cast<long>(::getpid()), counter++);
  std::error_code ignored;
  try {
    std::size_t largest = 0;
    for_each_checkpoint_field(states, [&](const char*, const FieldSpec&, const auto& view) {
      largest = std::max(largest, view.size() * sizeof(double));
    });
    constexpr std::size_t offset64_limit = (std::size_t(1) << 32) - 4;
    io::NetcdfWriter nc(
        temporary, largest > offset64_limit ? io::NetcdfFormat::Cdf5 : io::NetcdfFormat::Offset64,
        throw_checkpoint_error);
    nc.no_fill();
    for_each_checkpoint_field(states,
                              [&](const char* prefix, const FieldSpec& spec, const auto& view) {
                                if (view.size() == 0)
                                  return;  // an optional field this run does not have
                                const std::string name = variable_name(prefix, spec);
                                nc.dimension(name, view.size());
                                nc.variable(name, NC_DOUBLE, {name});
                                nc.text(name, "units", spec.units);
                              });
    nc.integer("", "icondiff_checkpoint", format_version);
    nc.text("", "steps_done", std::to_string(info.steps_done));
    nc.number("", "time_seconds", info.time_seconds);
    nc.integer("", "rank", info.rank);
    nc.integer("", "ranks", info.ranks);
    nc.number("", "max_vertical_cfl", states.solve_nh.max_vertical_cfl);
    for (const auto& [key, value] : info.identity) nc.text("", "identity:" + key, value);
    nc.end_definitions();
    std::vector<double> values;
    for_each_checkpoint_field(states,
                              [&](const char* prefix, const FieldSpec& spec, const auto& view) {
                                if (view.size() == 0) return;
                                // ICON's order, whatever this build's layout: a checkpoint
                                // restarts a run of any build.
                                const auto in_order = io::values_in_icon_order(view);
                                values.assign(in_order.begin(), in_order.end());
                                nc.put(variable_name(prefix, spec), values);
                              });
    nc.close();
  } catch (const Error& e) {
    std::filesystem::remove(temporary, ignored);
    throw OutputFileError(path, e.what());
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ignored);
    throw OutputFileError(path, "cannot move the written checkpoint into place: " + ec.message());
  }
}

DynamicsCheckpointInfo read_dynamics_checkpoint(const std::string& path,
                                                DynamicsStates<H>& states) {
  const io::NetcdfReader nc(path, throw_checkpoint_error);
  const auto fail = [&](const std::string& variable, const std::string& problem) {
    throw_checkpoint_error(path, variable, -1, problem);
  };
  const std::optional<double> version = nc.number_attribute("icondiff_checkpoint");
  if (!version) fail("", "not an icondiff checkpoint (no global attribute icondiff_checkpoint)");
  if (*version != format_version)
    fail("", fmt::format("format version {}, this icondiff reads version {}", *version,
                         format_version));
  DynamicsCheckpointInfo info;
  const std::optional<std::string> steps = nc.text_attribute("steps_done");
  try {
    std::size_t used = 0;
    info.steps_done = steps ? std::stol(*steps, &used) : -1;
    if (steps && used != steps->size()) info.steps_done = -1;
  } catch (...) {
    info.steps_done = -1;
  }
  if (info.steps_done < 0) fail("", "attribute steps_done is missing or not a step count >= 0");
  const auto number = [&](const char* name) {
    const std::optional<double> v = nc.number_attribute(name);
    if (!v || !std::isfinite(*v))
      fail("", fmt::format("attribute {} is missing or not finite", name));
    return *v;
  };
  info.time_seconds = number("time_seconds");
  info.rank = static_cast<int>(number("rank"));
  info.ranks = static_cast<int>(number("ranks"));
  states.solve_nh.max_vertical_cfl = number("max_vertical_cfl");
  for (const std::string& name : nc.attribute_names())
    if (name.rfind("identity:", 0) == 0)
      info.identity[name.substr(9)] = nc.text_attribute(name).value_or("");
  for_each_checkpoint_field(states, [&](const char* prefix, const FieldSpec& spec, auto& view) {
    const std::string name = variable_name(prefix, spec);
    if (view.size() == 0) {
      if (nc.has_variable(name))
        fail(name,
             "the checkpoint has this field, the run does not (another grid or "
             "configuration)");
      return;
    }
    if (!nc.has_variable(name)) fail(name, "missing");
    const std::vector<double> values = nc.read_double(name, {name});
    if (values.size() != view.size())
      fail(name, fmt::format("{} values, the run's field has {}", values.size(), view.size()));
    for (std::size_t i = 0; i < values.size(); ++i)
      if (!std::isfinite(values[i]))
        throw_checkpoint_error(path, name, static_cast<long long>(i),
                               fmt::format("not finite ({})", values[i]));
    io::assign_from_icon_order(view, values.data());
  });
  return info;
}

}  // namespace icondiff
