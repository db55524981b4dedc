#include "libfield/mesh/spacetime_mesh.hpp"

#include <cmath>

#include "libfield/core/error.hpp"

namespace field::mesh {

const char* to_string(NodeKind kind) {
  switch (kind) {
    case NodeKind::interior:
      return "interior";
    case NodeKind::zero_traction:
      return "zero_traction";
    case NodeKind::ghost_end:
      return "ghost_end";
    case NodeKind::zero_momentum:
      return "zero_momentum";
    case NodeKind::ghost_row:
      return "ghost_row";
    case NodeKind::corner:
      return "corner";
    case NodeKind::prescribed:
      return "prescribed";
    case NodeKind::open:
      return "open";
    case NodeKind::unused:
      return "unused";
  }
  return "?";
}

const char* to_string(Side side) {
  switch (side) {
    case Side::natural:
      return "natural";
    case Side::prescribed:
      return "prescribed";
    case Side::open:
      return "open";
  }
  return "?";
}

SpacetimeMesh::SpacetimeMesh(int J, int A, double dt, double ds) : J_(J), A_(A), dt_(dt), ds_(ds) {
  FIELD_CHECK(J >= 1, "the mesh needs J >= 1 time steps, got J = " << J);
  FIELD_CHECK(A >= 1, "the mesh needs A >= 1 space steps, got A = " << A);
  FIELD_CHECK(std::isfinite(dt) && dt > 0.0, "time step dt must be positive, got " << dt);
  FIELD_CHECK(std::isfinite(ds) && ds > 0.0, "space step ds must be positive, got " << ds);
}

double SpacetimeMesh::s(int a, Side left) const {
  return left == Side::natural ? (a + 0.5) * ds_ : a * ds_;
}

NodeKind SpacetimeMesh::kind(int j, int a, const Boundary& b) const {
  FIELD_ASSERT(has_node(j, a), "node (" << j << ", " << a << ") outside the mesh");
  if (j == J_ && a == A_) return NodeKind::unused;
  // The sides the node lies on.
  const bool on_left = a == 0, on_right = a == A_, on_first = j == 0, on_last = j == J_;
  const auto on = [&](Side s) {
    return (on_left && b.left == s) || (on_right && b.right == s) || (on_first && b.first == s) ||
           (on_last && b.last == s);
  };
  if (on(Side::prescribed)) return NodeKind::prescribed;
  if (on(Side::open)) return NodeKind::open;
  // Only natural sides remain.
  const bool space_side = on_left || on_right;
  const bool time_side = on_first || on_last;
  if (space_side && time_side) return NodeKind::corner;
  if (on_left) return NodeKind::zero_traction;
  if (on_right) return NodeKind::ghost_end;
  if (on_first) return NodeKind::zero_momentum;
  if (on_last) return NodeKind::ghost_row;
  return NodeKind::interior;
}

bool SpacetimeMesh::is_equation_node(int j, int a, const Boundary& boundary) const {
  const NodeKind k = kind(j, a, boundary);
  return k != NodeKind::prescribed && k != NodeKind::open && k != NodeKind::unused;
}

}  // namespace field::mesh
