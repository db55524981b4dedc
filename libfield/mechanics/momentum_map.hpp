#pragma once
/// Momentum maps and the discrete Noether theorem of docs/mechanics.md §4 (Marsden & West 2001
/// §1.3). A one-parameter group acting linearly on R^n, q -> exp(s A) q + s b, with
/// infinitesimal generator xi_Q(q) = A q + b, has the momentum map J(q, p) = p . xi_Q(q). If L_d
/// and g are invariant (A skew in the M metric, g(exp(sA) q + s b) = g(q)), then
/// G(q) xi_Q(q) = 0 so the multiplier terms do no work along xi_Q, and both SHAKE and RATTLE keep
/// J(q_k, p_k) exactly: the discrete Noether theorem.
#include "libfield/core/types.hpp"
#include "libfield/mechanics/mechanical_system.hpp"

namespace field::mechanics {

/// The infinitesimal generator xi_Q(q) = A q + b of a linear one-parameter action.
struct LinearSymmetry {
  MatrixXd a;  ///< A, n x n
  VectorXd b;  ///< b, n
};

/// J(q, p) = p . (A q + b).
double momentum_map(const LinearSymmetry& symmetry, const VectorXd& q, const VectorXd& p);

/// Rotation about `axis` (unit) of `points` points in R^3 stacked in q (n = 3 points):
/// A = diag(axis^, ..., axis^), b = 0; its J is the total angular momentum about the axis.
LinearSymmetry rotation_symmetry(const Vec3& axis, Index points);

}  // namespace field::mechanics
