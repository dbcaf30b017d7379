// icondiff compare-timers OURS.json OPENACC.json: per ICON OpenACC diffusion timer, the time and
// share of the whole call in both reports and the speed-up, summing icondiff's kernels that do the
// work of one OpenACC timer (openacc_timer_name).
#include "commands.hpp"
#include "timer_report.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/diffusion/diffusion_traffic.hpp>

#include <fmt/format.h>

#include <memory>
#include <vector>

namespace icondiff::cli {

namespace {

struct CompareOptions {
  std::string ours;
  std::string reference;
};

/// The OpenACC timers of ICON's diffusion (diffusion_spec §5.3), in execution order.
const std::vector<std::string>& openacc_diffusion_timers() {
  static const std::vector<std::string> names = {
      "rbf_vector_interpolation_of_u_v_vert_before_nabla2",
      "calculate_nabla2_and_smag_coefficients_for_vn",
      "calculate_diagnostic_quantities_for_turbulence",
      "rbf_vector_interpolation_of_u_v_vert_before_nabla4",
      "apply_diffusion_to_vn",
      "apply_diffusion_to_w_and_compute_horizontal_gradients_for_turbulence",
      "calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools",
      "apply_diffusion_to_theta_and_exner",
      "nh_hdiff"};
  return names;
}

int run_compare(const CompareOptions& o) {
  const auto ours = read_timer_report(o.ours);
  const auto reference = read_timer_report(o.reference);
  if (!ours.count("nh_hdiff"))
    throw icondiff::Error(
        fmt::format("timer report '{}' has no nh_hdiff (whole call) timer", o.ours));
  if (!reference.count("nh_hdiff"))
    throw icondiff::Error(
        fmt::format("timer report '{}' has no nh_hdiff (whole call) timer", o.reference));
  // Our kernels grouped under the OpenACC timer whose work they do.
  std::map<std::string, double> ours_ms;
  std::map<std::string, std::vector<std::string>> members;
  for (const auto& [name, e] : ours) {
    const std::string group =
        name == "nh_hdiff" ? name : openacc_timer_name("icondiff::diffusion::" + name);
    ours_ms[group] += e.median_ms;
    members[group].push_back(name);
  }
  const double ours_total = ours.at("nh_hdiff").median_ms,
               ref_total = reference.at("nh_hdiff").median_ms;
  fmt::print("{:<70} {:>11} {:>6} {:>11} {:>6} {:>9}\n", "OpenACC timer (median per call)",
             "OpenACC ms", "share", "icondiff ms", "share", "speed-up");
  for (const auto& name : openacc_diffusion_timers()) {
    const auto r = reference.find(name);
    const bool have_ref = r != reference.end();
    const bool have_ours = ours_ms.count(name) > 0;
    if (!have_ref && !have_ours) continue;
    const double ref_ms = have_ref ? r->second.median_ms : 0,
                 our_ms = have_ours ? ours_ms.at(name) : 0;
    fmt::print("{:<70} {:>11} {:>6} {:>11} {:>6} {:>9}\n", name,
               have_ref ? fmt::format("{:.4f}", ref_ms) : "-",
               have_ref ? fmt::format("{:.1f}%", 100 * ref_ms / ref_total) : "-",
               have_ours ? fmt::format("{:.4f}", our_ms) : "-",
               have_ours ? fmt::format("{:.1f}%", 100 * our_ms / ours_total) : "-",
               have_ref && have_ours && our_ms > 0 ? fmt::format("{:.2f}x", ref_ms / our_ms) : "-");
  }
  for (const auto& [group, names] : members)
    if (std::find(openacc_diffusion_timers().begin(), openacc_diffusion_timers().end(), group) ==
        openacc_diffusion_timers().end())
      fmt::print("{:<70} {:>11} {:>6} {:>11.4f} {:>6} {:>9}\n", group + " (icondiff only)", "-",
                 "-", ours_ms[group], fmt::format("{:.1f}%", 100 * ours_ms[group] / ours_total),
                 "-");
  fmt::print(
      "\noverall (nh_hdiff): OpenACC {:.4f} ms, icondiff {:.4f} ms per call: speed-up {:.2f}x\n",
      ref_total, ours_total, ref_total / ours_total);
  fmt::print(
      "note: the two reports may come from different grids and machines; compare the shares.\n");
  return 0;
}

}  // namespace

Command add_compare_timers_command(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  app.add_option("ours", o->ours, "icondiff timer report (icondiff run --timers FILE.json)")
      ->required();
  app.add_option("openacc", o->reference,
                 "ICON OpenACC timer report in ICON4Py's bencher JSON format")
      ->required();
  return [o] { return run_compare(*o); };
}

}  // namespace icondiff::cli
