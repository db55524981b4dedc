#include "libfield/io/magnitudes.hpp"

#include <algorithm>
#include <cmath>

#include "libfield/core/error.hpp"

namespace field::io {

double position_limit(double ds, double dt, double c_E) {
  // A density without a finite positive wave speed (none shipped) leaves the step ds.
  if (!(c_E > 0.0 && std::isfinite(c_E))) return kPositionsPerStep * ds;
  return kPositionsPerStep * std::min(ds, c_E * dt);
}

template <class E>
void check_positions(double limit, const std::vector<E>& nodes, const std::string& what) {
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const double r = position_norm(nodes[k]);
    // Not "nan m from the origin, beyond the limit": what made it overflowed.
    FIELD_CHECK(std::isfinite(r),
                what << " " << k << " is at |r| = " << r
                     << ": not finite, the numbers that place it (e.g. dt times the initial "
                        "velocity, through the retraction) overflowed double precision; give "
                        "smaller values (docs/cli.md, \"Magnitudes\")");
    FIELD_CHECK(r <= limit,
                what << " " << k << " is at |r| = " << r
                     << " m from the origin, beyond the limit 1e11 min(ds, c_E dt) = " << limit
                     << " m: strains and rates are differences of neighbouring positions divided "
                        "by ds or dt, whose round-off (2.2e-16 |r|) would swamp them. Move the "
                        "origin nearer the body, or use a larger ds or dt (docs/cli.md, "
                        "\"Magnitudes\")");
  }
}

template void check_positions(double, const std::vector<lie::SE3>&, const std::string&);
template void check_positions(double, const std::vector<lie::SE2>&, const std::string&);
template void check_positions(double, const std::vector<Vec3>&, const std::string&);

}  // namespace field::io
