#pragma once
/// Step-size rules of theory §6 (empirical): the time march is stable for
///   c_E dt/ds < 1  and  dt omega_c / 2 < 1          (dt < min(ds/c_E, 2/omega_c)),
/// the space march (transposed leap frog) for
///   ds/(c_G dt) <= 1                                 (ds <= c_G dt).
/// Both cannot hold with the same (dt, ds) unless the wave speeds coincide.
#include <string>

#include "libfield/model/wave_speeds.hpp"

namespace field::march {

struct StabilityNumbers {
  double cfl_time = 0.0;       ///< c_E dt / ds
  double cutoff_term = 0.0;    ///< dt omega_c / 2
  double cfl_space = 0.0;      ///< ds / (c_G dt)
  double max_stable_dt = 0.0;  ///< min(ds/c_E, 2/omega_c) [s]: the time march's limit
  double min_stable_dt = 0.0;  ///< ds/c_G [s]: the space march needs dt at least this
  /// A time march with A = 1 and a free end a = A: one massive node whose only cell has the
  /// ghost's strain (theory §4.6), a rigid body without elastic waves, so no step-size rule.
  bool rigid_body = false;

  bool time_march_stable() const { return rigid_body || (cfl_time < 1.0 && cutoff_term < 1.0); }
  bool space_march_stable() const { return cfl_space <= 1.0; }
};

/// From the wave speeds a density supplies (model::Density::wave_speeds()) and the grid.
StabilityNumbers stability_numbers(const model::WaveSpeeds& speeds, double dt, double ds);

/// Empty when the time march is inside its stable range; otherwise a sentence that names the
/// numbers, the limit and what to change.
std::string time_march_warning(const StabilityNumbers& n, double dt);
/// Same for the space march.
std::string space_march_warning(const StabilityNumbers& n, double dt);

/// Theory (4.21): the largest stable stiffness-proportional damping beta [s] of the time march,
/// (2 - Omega^2/2) dt / Omega^2 with Omega = omega_max dt and omega_max = max(2 c_E/ds, omega_c),
/// the fastest mode of the step-size rule above (Omega = 2 max(c_E dt/ds, dt omega_c/2)); 0 when
/// Omega >= 2 (the undamped march is unstable already).
double max_stiffness_damping(const StabilityNumbers& n, double dt);
/// Empty when beta is below max_stiffness_damping; otherwise a sentence with beta, the limit,
/// omega_max dt and what to change.
std::string stiffness_damping_warning(const StabilityNumbers& n, double dt, double beta);
/// Theory (4.19): a step multiplies a node's momentum by (1 - c)/(1 + c), c = alpha dt/2, under
/// mass damping alone. Empty for c <= 1; otherwise (the factor negative: the velocity changes
/// sign every row, and the damping fades as alpha grows) a sentence with c, the factor and what
/// to change (alpha <= 2/dt).
std::string mass_damping_warning(double dt, double alpha);

}  // namespace field::march
