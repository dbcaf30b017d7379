#include <icondiff/core/error.hpp>
#include <icondiff/dycore/dycore_config.hpp>

#include <cmath>

namespace icondiff {

void DycoreConfig::validate() const {
  const int order = static_cast<int>(divdamp_order);
  if (order != 2 && order != 4 && order != 24)
    throw InvalidArgument("dycore: divdamp_order = " + std::to_string(order) +
                          ", expected 2 (second order), 4 (fourth order) or 24 (combined)");
  const int type = static_cast<int>(divdamp_type);
  if (type != 2 && type != 3 && type != 32)
    throw InvalidArgument("dycore: divdamp_type = " + std::to_string(type) +
                          ", expected 2, 3 or 32");
  const int rayleigh = static_cast<int>(rayleigh_type);
  if (rayleigh != 1 && rayleigh != 2)
    throw InvalidArgument("dycore: rayleigh_type = " + std::to_string(rayleigh) +
                          ", expected 1 (classic) or 2 (Klemp)");
  if (!std::isfinite(veladv_offctr) || veladv_offctr < 0 || veladv_offctr > 0.5)
    throw InvalidArgument("dycore: veladv_offctr = " + std::to_string(veladv_offctr) +
                          ", expected a value in [0, 0.5]");
  if (!std::isfinite(max_nudging_coefficient) || max_nudging_coefficient < 0)
    throw InvalidArgument("dycore: max_nudging_coefficient = " +
                          std::to_string(max_nudging_coefficient) + ", expected >= 0");
  if (!std::isfinite(fourth_order_divdamp_factor) || fourth_order_divdamp_factor < 0)
    throw InvalidArgument("dycore: fourth_order_divdamp_factor = " +
                          std::to_string(fourth_order_divdamp_factor) + ", expected >= 0");
}

DivergenceDampingSwitches divergence_damping_switches(
    const DycoreConfig& config, const double second_order_divdamp_factor,
    const double second_order_divdamp_scaling_coeff) {
  const bool combined = config.divdamp_order == DivergenceDampingOrder::Combined;
  DivergenceDampingSwitches s;
  s.second_order = config.divdamp_order == DivergenceDampingOrder::SecondOrder ||
                   (combined && second_order_divdamp_scaling_coeff > 1.0e-6);
  s.fourth_order =
      config.divdamp_order == DivergenceDampingOrder::FourthOrder ||
      (combined && second_order_divdamp_factor <= 4.0 * config.fourth_order_divdamp_factor);
  return s;
}

}  // namespace icondiff
