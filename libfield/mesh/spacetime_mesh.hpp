#pragma once
/// The triangulated 1+1 spacetime grid of theory §3.1: nodes (j, a), j = 0..J (time), a = 0..A
/// (arc length), steps dt and ds; triangle (j, a) has vertices v1 = (j, a), v2 = (j+1, a),
/// v3 = (j, a+1) for 0 <= j <= J-1, 0 <= a <= A-1. The node (J, A) belongs to no triangle.
#include <array>
#include <string>

namespace field::mesh {

/// A node (j, a): time index j, arc-length index a.
struct Node {
  int j = 0;
  int a = 0;
  bool operator==(const Node& o) const { return j == o.j && a == o.a; }
};

/// What is known on one side of the grid (theory §4, §6).
enum class Side {
  natural,     ///< free: zero traction (a = 0, A) or zero momentum (j = 0, J); ghost at A or J
  prescribed,  ///< configuration given for all nodes of the side (clamp, measured motion)
  open,        ///< no equation: Cauchy data (j = 0 of a time march, a = 0 of a space march)
               ///< or the far side a march computes last (j = J, resp. a = A)
};

/// The four sides of the grid. Time evolution: first/last row open, ends natural or prescribed.
/// Space evolution: left/right end open, rows natural or prescribed.
struct Boundary {
  Side left = Side::natural;   ///< a = 0
  Side right = Side::natural;  ///< a = A
  Side first = Side::open;     ///< j = 0
  Side last = Side::open;      ///< j = J

  static Boundary time_evolution(Side left, Side right) {
    return {left, right, Side::open, Side::open};
  }
  static Boundary space_evolution(Side first, Side last) {
    return {Side::open, Side::open, first, last};
  }
};

/// Equation imposed at a node (theory §4 table).
enum class NodeKind {
  interior,       ///< Lie-group DCEL
  zero_traction,  ///< a = 0 natural: free end
  ghost_end,      ///< a = A natural: massless ghost, lambda~ = 0
  zero_momentum,  ///< j = 0 natural: at rest at the first time
  ghost_row,      ///< j = J natural: mu~ = 0
  corner,         ///< (0,0), (J,0) or (0,A) with both sides natural
  prescribed,     ///< configuration given; G_n is the reaction wrench
  open,           ///< no equation (data or far side of a march)
  unused,         ///< (J, A): in no triangle
};

/// Human-readable name of a node kind ("interior", "ghost_end", ...).
const char* to_string(NodeKind kind);
/// Name of a side condition ("natural", "prescribed", "open").
const char* to_string(Side side);

/// The grid: sizes and steps. Cheap to copy.
class SpacetimeMesh {
 public:
  /// J >= 1 time steps of dt > 0 [s], A >= 1 space steps of ds > 0 [m]; throws field::Error.
  SpacetimeMesh(int J, int A, double dt, double ds);

  int J() const { return J_; }
  int A() const { return A_; }
  double dt() const { return dt_; }
  double ds() const { return ds_; }
  /// t_j = j dt [s].
  double t(int j) const { return j * dt_; }
  /// Material coordinate of node a, theory §3.4: (a + 1/2) ds when the left end (a = 0) is free
  /// (every node carries one cell), a ds when it is clamped/prescribed.
  double s(int a, Side left) const;
  /// Number of nodes (J+1)(A+1).
  long long node_count() const { return static_cast<long long>(J_ + 1) * (A_ + 1); }

  bool has_triangle(int j, int a) const { return j >= 0 && j < J_ && a >= 0 && a < A_; }
  bool has_node(int j, int a) const { return j >= 0 && j <= J_ && a >= 0 && a <= A_; }
  /// Vertices v1, v2, v3 of triangle (j, a).
  std::array<Node, 3> triangle(int j, int a) const { return {{{j, a}, {j + 1, a}, {j, a + 1}}}; }

  /// Equation kind of node (j, a) for the given boundary, theory §4.
  NodeKind kind(int j, int a, const Boundary& boundary) const;
  /// True when G_n = 0 is imposed at the node (every kind but prescribed, open, unused).
  bool is_equation_node(int j, int a, const Boundary& boundary) const;

 private:
  int J_;
  int A_;
  double dt_;
  double ds_;
};

}  // namespace field::mesh
