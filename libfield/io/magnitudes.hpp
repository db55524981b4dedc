#pragma once
/// The magnitude rule of theory §12 (docs/cli.md, "Magnitudes"), for the nodes of any march:
/// strains and rates are differences of neighbouring nodes divided by ds or dt, and the round-off
/// of a difference of positions is about 2.2e-16 |r|. Positions must stay within
/// kPositionsPerStep min(ds, c_E dt) of the origin, so that this round-off is at most 2.2e-5 of a
/// step: strains keep four significant digits and rates are resolved to 2.2e-5 c_E.
#include <string>
#include <vector>

#include "libfield/core/types.hpp"
#include "libfield/lie/se2.hpp"
#include "libfield/lie/se3.hpp"

namespace field::io {

constexpr double kPositionsPerStep = 1e11;

/// kPositionsPerStep min(ds, c_E dt) [m]: c_E the fastest wave speed of the density
/// (kPositionsPerStep ds when c_E is not finite and positive).
double position_limit(double ds, double dt, double c_E);

/// |r| of a node: the translation of an element of SE(3) or SE(2), a point of R^3.
inline double position_norm(const lie::SE3& g) {
  return g.r.stableNorm();
}
inline double position_norm(const lie::SE2& g) {
  return g.r.stableNorm();
}
inline double position_norm(const Vec3& r) {
  return r.stableNorm();
}

/// Throws field::Error naming `what` and the index of the first node beyond `limit`
/// (position_limit) or not finite.
template <class E>
void check_positions(double limit, const std::vector<E>& nodes, const std::string& what);

}  // namespace field::io
