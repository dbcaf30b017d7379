// ICON4Py's physical constants (icon4py.model.common.constants), the values every stencil and
// reference must share so results agree bit for bit: cvd is computed as ICON4Py computes it
// (cpd - rd), not typed in.
#pragma once

#include <icondiff/core/types.hpp>

namespace icondiff::physics {

inline constexpr wp rd = 287.04;     ///< gas constant of dry air [J kg-1 K-1]
inline constexpr wp cpd = 1004.64;   ///< specific heat of dry air at constant pressure
inline constexpr wp cvd = cpd - rd;  ///< specific heat of dry air at constant volume
inline constexpr wp grav = 9.80665;  ///< gravitational acceleration [m s-2]
/// Reference pressure of the Exner function [Pa] (ICON p0ref).
inline constexpr wp p0ref = 100000.0;
// ICON's reference atmosphere (mo_vertical_grid.f90; ICON4Py constants.py): sea-level pressure and
// temperature, the difference to the asymptotic stratospheric temperature, the height scale.
inline constexpr wp p0sl_bg = 101325.0;   ///< [Pa]
inline constexpr wp t0sl_bg = 288.15;     ///< [K]
inline constexpr wp del_t_bg = 75.0;      ///< [K]
inline constexpr wp h_scal_bg = 10000.0;  ///< [m]
// Ratios as ICON4Py's constants.py evaluates them (one division each, in double).
inline constexpr wp cvd_o_rd = cvd / rd;
inline constexpr wp rd_o_cvd = rd / cvd;
inline constexpr wp rd_o_p0ref = rd / p0ref;
inline constexpr wp grav_o_cpd = grav / cpd;
inline constexpr wp cpd_o_rd = cpd / rd;
inline constexpr wp grav_o_rd = grav / rd;
/// EPSILON(1._wp), ICON4Py's DBL_EPS (sys.float_info.epsilon).
inline constexpr wp dbl_eps = 2.220446049250313e-16;
/// The Earth's angular velocity [rad s-1] (ICON4Py's EARTH_ANGULAR_VELOCITY, ICON's
/// grid_angular_velocity).
inline constexpr double earth_angular_velocity = 7.29212e-5;

}  // namespace icondiff::physics
