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

}  // namespace field::march
