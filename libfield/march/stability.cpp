#include "libfield/march/stability.hpp"

#include <algorithm>
#include <sstream>

namespace field::march {

StabilityNumbers stability_numbers(const model::WaveSpeeds& w, double dt, double ds) {
  StabilityNumbers n;
  n.cfl_time = w.c_E * dt / ds;
  n.cutoff_term = 0.5 * dt * w.omega_c;
  n.cfl_space = ds / (w.c_G * dt);
  n.max_stable_dt = std::min(ds / w.c_E, 2.0 / w.omega_c);
  n.min_stable_dt = ds / w.c_G;
  return n;
}

std::string time_march_warning(const StabilityNumbers& n, double dt) {
  if (n.time_march_stable()) return {};
  std::ostringstream out;
  out << "time march outside its stable range (theory §6.1): c_E dt/ds = " << n.cfl_time
      << ", dt omega_c/2 = " << n.cutoff_term << " (both must be < 1); dt = " << dt
      << " s, choose dt < " << n.max_stable_dt << " s or a larger ds";
  return out.str();
}

std::string space_march_warning(const StabilityNumbers& n, double dt) {
  if (n.space_march_stable()) return {};
  std::ostringstream out;
  out << "space march outside its stable range (theory §6.2): ds/(c_G dt) = " << n.cfl_space
      << " > 1; dt = " << dt << " s, choose dt >= " << n.min_stable_dt
      << " s or a smaller ds; round-off will grow by a large factor per column";
  return out.str();
}

double max_stiffness_damping(const StabilityNumbers& n, double dt) {
  const double Omega = 2.0 * std::max(n.cfl_time, n.cutoff_term);  // omega_max dt
  if (!(Omega < 2.0)) return 0.0;
  return (2.0 - 0.5 * Omega * Omega) * dt / (Omega * Omega);  // theory (4.21)
}

std::string stiffness_damping_warning(const StabilityNumbers& n, double dt, double beta) {
  const double limit = max_stiffness_damping(n, dt);
  if (beta <= 0.0 || beta < limit || n.rigid_body) return {};
  const double Omega = 2.0 * std::max(n.cfl_time, n.cutoff_term);
  std::ostringstream out;
  out << "[damping] stiffness beta = " << beta << " s is beyond the stability limit of the time "
      << "march (theory (4.21): beta omega_max^2 dt < 2 - (omega_max dt)^2/2): with omega_max dt "
      << "= " << Omega << " (omega_max = " << Omega / dt << " rad/s, max(2 c_E/ds, omega_c)) "
      << "and dt = " << dt << " s the limit is beta < " << limit << " s = " << limit / dt
      << " dt; the fastest modes will grow. Use a smaller beta, or a smaller dt: the limit "
         "(2 - (omega_max dt)^2/2)/(omega_max^2 dt) grows as dt shrinks";
  return out.str();
}

std::string mass_damping_warning(double dt, double alpha) {
  const double c = 0.5 * alpha * dt;
  if (!(c > 1.0)) return {};
  std::ostringstream out;
  out << "[damping] mass alpha = " << alpha << " 1/s gives alpha dt/2 = " << c
      << " > 1: a step multiplies the momentum by (1 - alpha dt/2)/(1 + alpha dt/2) = "
      << (1.0 - c) / (1.0 + c)
      << " (theory (4.19)), negative: the velocity changes sign every row and the damping "
         "fades as alpha grows (-1 in the limit) instead of stopping the motion. Use alpha <= "
         "2/dt = "
      << 2.0 / dt << " 1/s, or a smaller dt";
  return out.str();
}

}  // namespace field::march
