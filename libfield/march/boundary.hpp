#pragma once
/// Boundary data of the marches (theory §4, §6): each side is free (natural condition: zero
/// traction at an end, zero momentum at a first/last row) or prescribed by a motion given for
/// every node of the side.
#include <functional>

#include "libfield/lie/se3.hpp"
#include "libfield/mesh/spacetime_mesh.hpp"

namespace field::march {

/// One side of the grid: an end a = 0 / a = A (indexed by j) for the time march, or a row
/// j = 0 / j = J (indexed by a) for the space march. E: the node value (a group's Element).
template <class E>
struct BasicSideSpec {
  mesh::Side side = mesh::Side::natural;
  /// g at index k along the side (j for an end, a for a row); used when prescribed.
  std::function<E(int k)> motion;

  /// Natural boundary condition: a free end (zero traction) or a free row (zero momentum).
  static BasicSideSpec free() { return {}; }
  /// Prescribed, constant in time/space: a clamp.
  static BasicSideSpec clamped(const E& g) {
    return {mesh::Side::prescribed, [g](int) { return g; }};
  }
  /// Prescribed by a function of the index along the side.
  static BasicSideSpec prescribed(std::function<E(int)> motion) {
    return {mesh::Side::prescribed, std::move(motion)};
  }
  bool is_free() const { return side == mesh::Side::natural; }
};

/// The beam's side on SE(3).
using SideSpec = BasicSideSpec<lie::SE3>;

}  // namespace field::march
