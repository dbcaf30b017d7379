// ICON's analytic reference atmosphere at one height, shared by the cell, edge and half-level
// factories (metric_fields.cpp, dycore_metric_fields.cpp) so that every field evaluates it with
// ICON4Py's operation order (reference_atmosphere.py: compute_z_aux1_cell, compute_z_temp):
// T(z) = (T0 − ΔT) + ΔT exp(−z/H) falls from T0 at sea level towards T0 − ΔT; p(z) is its
// hydrostatic pressure; exner = (p / p0ref)^(Rd/cpd), θ = T / exner, ρ = p / (Rd T).
#pragma once

#include <icondiff/core/physical_constants.hpp>

#include <cmath>

namespace icondiff::detail {

struct ReferenceAtmosphere {
  double pressure, temperature, exner, theta, rho;
};

inline ReferenceAtmosphere reference_atmosphere_at(double z) {
  using namespace physics;
  const double denom = t0sl_bg - del_t_bg;
  const double logval = std::log((std::exp(z / h_scal_bg) * denom + del_t_bg) / t0sl_bg);
  ReferenceAtmosphere a{};
  a.pressure = p0sl_bg * std::exp(-grav / rd * h_scal_bg / denom * logval);
  a.exner = std::pow(a.pressure / p0ref, rd / cpd);
  a.temperature = denom + del_t_bg * std::exp(-z / h_scal_bg);
  a.rho = a.pressure / (rd * a.temperature);
  a.theta = a.temperature / a.exner;
  return a;
}

}  // namespace icondiff::detail
