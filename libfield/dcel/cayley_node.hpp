#pragma once
/// Closed-form node solve of theory §5 for the Cayley retraction and a diagonal quadratic law
/// p(y) = K (y - y0): the beam of theory §1 (time march: K = J, y0 = 0; space march: K = C,
/// y0 = E6). Phi and its Jacobian J_Phi = (dcay^{-1}_{hy})^T K + h M(hy, p) are written out block
/// by block from theory §2.1, and the Newton step is solved through the explicit inverse of the
/// (2,2) block (I + w^/2) K_v and a 3x3 Schur complement: no 6x6 LU, no heap, no virtual call.
/// Same Newton iteration and stopping rule as dcel::solve_node, which stays the reference.
#include <optional>

#include "libfield/core/types.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/lie/se3_groups.hpp"

namespace field::dcel {

class CayleyNode {
 public:
  /// K: diagonal of dp/dy (positive); y0: where p vanishes; h: dt or ds.
  CayleyNode(const Vec6& K, const Vec6& y0, double h);

  /// Phi(y) = (dcay^{-1}_{hy})^T K (y - y0).
  Vec6 phi(const Vec6& y) const;
  /// dPhi/dy, assembled (for tests; solve() never forms it).
  Mat6 jacobian(const Vec6& y) const;
  /// The Newton step d with J_Phi(y) d = r, by the block solve that solve() uses.
  Vec6 newton_step(const Vec6& y, const Vec6& r) const;
  /// Solves Phi(y) = m in place from the start y, with the stopping rule of theory §5
  /// (max|dy| <= tolerance (1 + max|y|), then one polishing iteration), reusing the factorised
  /// Jacobian once a step is below kFreezeStep (1 + max|y|): dcel::newton_solve
  /// (dcel/node_newton.hpp), the iteration dcel::ExpNode shares.
  NodeSolveReport solve(const Vec6& m, Vec6& y, const NodeSolverOptions& options = {}) const;

  /// Relative step below which the Jacobian is no longer refactorised.
  static constexpr double kFreezeStep = 1e-7;

 private:
  Vec6 K_, y0_;
  Vec3 K_v_inv_;  // 1 / K of the translational block
  double h_;
};

/// The closed-form solver of `equation` (with tau = cay, lie::Se3Cayley) when `density` is a
/// a diagonal quadratic law (Density::diagonal_law()); empty otherwise (then use dcel::solve_node).
std::optional<CayleyNode> make_cayley_node(const model::Density<lie::Se3Group>& density,
                                           NodeEquation equation, double h);

}  // namespace field::dcel
