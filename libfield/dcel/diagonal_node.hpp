#pragma once
/// Closed-form node solve of theory §5 for a diagonal quadratic law p(y) = K (y - y0): the beam of
/// theory §1 (time march: K = J, y0 = 0; space march: K = C, y0 = E6), for the retraction of G
/// (lie::Se3Cayley, lie::Se3Exp). Phi(y) = (dtau^{-1}_{hy})^T K (y - y0), and its Jacobian
/// J_Phi = (dtau^{-1}_{hy})^T K + h M(hy, p) is factorised by blocks (the (2,2) block in closed
/// form and a 3x3 Schur complement): no 6x6 LU, no heap, no virtual call. The law and the Newton
/// iteration are written once (dcel/diagonal_law.hpp, dcel/node_newton.hpp); the retraction
/// supplies its arithmetic (dcel/cayley_arithmetic.hpp, dcel/exp_arithmetic.hpp). Same Newton
/// iteration and stopping rule as dcel::solve_node, which stays the reference.
#include <optional>

#include "libfield/core/types.hpp"
#include "libfield/dcel/diagonal_law.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/lie/se3_groups.hpp"

namespace field::dcel {

template <class G>
class DiagonalNode {
 public:
  /// K: diagonal of dp/dy (positive); y0: where p vanishes; h: dt or ds.
  DiagonalNode(const Vec6& K, const Vec6& y0, double h) : law_(K, y0, h) {}

  /// Phi(y) = (dtau^{-1}_{hy})^T K (y - y0).
  Vec6 phi(const Vec6& y) const;
  /// dPhi/dy, assembled (for tests; solve() never forms it).
  Mat6 jacobian(const Vec6& y) const;
  /// The Newton step d with J_Phi(y) d = r, by the block solve that solve() uses.
  Vec6 newton_step(const Vec6& y, const Vec6& r) const;
  /// Solves Phi(y) = m in place from the start y, with the stopping rule of theory §5
  /// (max|dy| <= tolerance (1 + max|y|) or the residual at its round-off floor, then one
  /// polishing iteration), reusing the factorised Jacobian once a step is below
  /// kFreezeStep (1 + max|y|): dcel::newton_solve (dcel/node_newton.hpp).
  NodeSolveReport solve(const Vec6& m, Vec6& y, const NodeSolverOptions& options = {}) const;

  /// Relative step below which the Jacobian is no longer refactorised.
  static constexpr double kFreezeStep = 1e-7;

 private:
  DiagonalLaw<G> law_;
};

/// The instances the marches use (march::SlabSolver<G>).
using CayleyNode = DiagonalNode<lie::Se3Cayley>;
using ExpNode = DiagonalNode<lie::Se3Exp>;

/// The closed-form solver of `equation` with the retraction of G when `density` is a diagonal
/// quadratic law (Density::diagonal_law()); empty otherwise (then use dcel::solve_node).
template <class G>
std::optional<DiagonalNode<G>> make_diagonal_node(const model::Density<lie::Se3Group>& density,
                                                  NodeEquation equation, double h);

}  // namespace field::dcel
