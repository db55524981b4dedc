#pragma once
/// Boundary data of the marches (theory §4, §6): each side is free (natural condition: zero
/// traction at an end, zero momentum at a first/last row) or prescribed by a motion given for
/// every node of the side.
#include <functional>

#include "libfield/lie/se3.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"

namespace field::march {

/// One side of the grid: an end a = 0 / a = A (indexed by j) for the time march, or a row
/// j = 0 / j = J (indexed by a) for the space march.
struct SideSpec {
  mesh::Side side = mesh::Side::natural;
  /// g at index k along the side (j for an end, a for a row); used when prescribed.
  std::function<lie::SE3(int k)> motion;

  /// Natural boundary condition: a free end (zero traction) or a free row (zero momentum).
  static SideSpec free() { return {}; }
  /// Prescribed, constant in time/space: a clamp.
  static SideSpec clamped(const lie::SE3& g) {
    return {mesh::Side::prescribed, [g](int) { return g; }};
  }
  /// Prescribed by a function of the index along the side.
  static SideSpec prescribed(std::function<lie::SE3(int)> motion) {
    return {mesh::Side::prescribed, std::move(motion)};
  }
  bool is_free() const { return side == mesh::Side::natural; }
};

}  // namespace field::march
