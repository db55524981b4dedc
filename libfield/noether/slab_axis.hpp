#pragma once
/// The axis of the slabs of a march (theory §6, §7.2, §8): time rows (the time march) or space
/// columns (the space march), one algorithm with (j, dt, J xi) and (a, ds, -C(eta - eta0))
/// exchanged. Slab i is the row j = i or the column a = i (N = J or A slabs); along it the node
/// is k = a or k = j (K = A or J triangles, K+1 nodes); its step to slab i+1 is dt or ds; its
/// sides, the nodes k = 0 and k = K, are the ends a = 0, A of a row or the rows j = 0, J of a
/// column.
#include "libfield/mesh/spacetime_mesh.hpp"

namespace field::noether {

/// Which way the slabs of a march run: time rows (time march) or space columns (space march).
enum class SlabAxis { row, column };

/// N: the slabs i = 0..N-1 that have a next one (J rows or A columns).
inline int slab_count(const mesh::SpacetimeMesh& mesh, SlabAxis axis) {
  return axis == SlabAxis::row ? mesh.J() : mesh.A();
}
/// K: the triangles along a slab (A along a row, J along a column).
inline int slab_length(const mesh::SpacetimeMesh& mesh, SlabAxis axis) {
  return axis == SlabAxis::row ? mesh.A() : mesh.J();
}
/// Node k of slab i as the mesh's node (j, a).
inline mesh::Node slab_node(SlabAxis axis, int i, int k) {
  return axis == SlabAxis::row ? mesh::Node{i, k} : mesh::Node{k, i};
}
/// The coordinate of slab i: t_j [s] of a row, s_a = a ds [m] of a column (the space march's tip
/// a = 0 is prescribed, mesh.s).
inline double slab_coordinate(const mesh::SpacetimeMesh& mesh, SlabAxis axis, int i) {
  return axis == SlabAxis::row ? mesh.t(i) : mesh.s(i, mesh::Side::prescribed);
}

/// Which sides of the slabs are prescribed: the ends a = 0 / a = A of a row ([boundary] left,
/// right), the rows j = 0 / j = J of a column ([boundary] first, last). A prescribed side has no
/// equation: its G_n is a reaction (theory (8.5), (8.9)), a flux through the side of a rectangle
/// of the Noether balance (theory §7.2).
struct SlabSides {
  bool first = false;  ///< node k = 0 prescribed
  bool last = false;   ///< node k = K prescribed
};
inline SlabSides prescribed_sides(const mesh::Boundary& boundary, SlabAxis axis) {
  const auto prescribed = [](mesh::Side s) { return s == mesh::Side::prescribed; };
  return axis == SlabAxis::row ? SlabSides{prescribed(boundary.left), prescribed(boundary.right)}
                               : SlabSides{prescribed(boundary.first), prescribed(boundary.last)};
}

}  // namespace field::noether
