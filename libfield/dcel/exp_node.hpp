#pragma once
/// Closed-form node solve of theory §5 for the exponential retraction and a diagonal quadratic
/// law p(y) = K (y - y0): the beam of theory §1 (time march: K = J, y0 = 0; space march: K = C,
/// y0 = E6). With x = h y and the blocks F, H of dexp^{-1}_x and M11, M12 of the Newton helper
/// (lie/exponential_blocks.hpp, theory §2.2), K = diag(K_w, K_v), the Jacobian
/// J_Phi = (dexp^{-1}_x)^T K + h M(x, p) has the blocks
///   J11 = F^T K_w + h M11      J12 = H^T K_v + h M12
///   J21 = h M12                J22 = F^T K_v,
/// and the Newton step J_Phi d = r is solved through J22^{-1} = K_v^{-1} F^{-T}, with F^{-1} the
/// top block of dexp_x (closed form), and the 3x3 Schur complement S = J11 - J12 J22^{-1} J21:
///   d_w = S^{-1} (r_w - J12 J22^{-1} r_v),   d_v = J22^{-1} (r_v - J21 d_w).
/// No 6x6 LU, no complex arithmetic, no virtual call. The Newton iteration is dcel::newton_solve
/// (dcel/node_newton.hpp), the one dcel::CayleyNode runs; dcel::solve_node stays the reference.
#include <optional>

#include "libfield/core/types.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/lie/se3_groups.hpp"

namespace field::dcel {

class ExpNode {
 public:
  /// K: diagonal of dp/dy (positive); y0: where p vanishes; h: dt or ds.
  ExpNode(const Vec6& K, const Vec6& y0, double h);

  /// Phi(y) = (dexp^{-1}_{hy})^T K (y - y0).
  Vec6 phi(const Vec6& y) const;
  /// dPhi/dy, assembled from the blocks (for tests; solve() never forms it).
  Mat6 jacobian(const Vec6& y) const;
  /// The Newton step d with J_Phi(y) d = r, by the block solve that solve() uses.
  Vec6 newton_step(const Vec6& y, const Vec6& r) const;
  /// Solves Phi(y) = m in place from the start y: dcel::newton_solve with kFreezeStep.
  NodeSolveReport solve(const Vec6& m, Vec6& y, const NodeSolverOptions& options = {}) const;

  /// Relative step below which the Jacobian is no longer refactorised (as dcel::CayleyNode).
  static constexpr double kFreezeStep = 1e-7;

 private:
  Vec6 K_, y0_;
  Vec3 K_v_inv_;  // 1 / K of the translational block
  double h_;
};

/// The closed-form solver of `equation` (with tau = exp, lie::Se3Exp) when `density` is a
/// a diagonal quadratic law (Density::diagonal_law()); empty otherwise (then use dcel::solve_node).
std::optional<ExpNode> make_exp_node(const model::Density<lie::Se3Group>& density,
                                     NodeEquation equation, double h);

}  // namespace field::dcel
