#pragma once
/// Discrete Lagrangians L_d(q0, q1) ~ int_0^h L(q, qdot) dt of a MechanicalSystem, by two
/// quadratures of the velocity v = (q1 - q0)/h (docs/mechanics.md §2, Marsden & West 2001 §1.3):
///   trapezoidal  L_d = h/2 [L(q0, v) + L(q1, v)] = h/2 v^T M v - h/2 [V(q0) + V(q1)]
///   midpoint     L_d = h L((q0 + q1)/2, v)        = h/2 v^T M v - h V((q0 + q1)/2)
/// and their slot derivatives D1 L_d, D2 L_d, whose negative and value are the discrete momenta
/// p0 = -D1 L_d(q0, q1), p1 = D2 L_d(q0, q1) (the discrete Legendre transforms).
#include "libfield/mechanics/mechanical_system.hpp"

namespace field::mechanics {

enum class Quadrature { trapezoidal, midpoint };

/// "trapezoidal" or "midpoint".
const char* quadrature_name(Quadrature quadrature);

/// L_d(q0, q1) for the time step h.
double discrete_lagrangian(const MechanicalSystem& system, Quadrature quadrature, double h,
                           const VectorXd& q0, const VectorXd& q1);
/// D1 L_d(q0, q1) = dL_d/dq0.
VectorXd d1_discrete_lagrangian(const MechanicalSystem& system, Quadrature quadrature, double h,
                                const VectorXd& q0, const VectorXd& q1);
/// D2 L_d(q0, q1) = dL_d/dq1.
VectorXd d2_discrete_lagrangian(const MechanicalSystem& system, Quadrature quadrature, double h,
                                const VectorXd& q0, const VectorXd& q1);
/// d/dq1 of D1 L_d(q0, q1) (the Jacobian of the step's Newton solve): -M/h, minus
/// h/4 V''((q0 + q1)/2) for the midpoint rule.
MatrixXd d1_discrete_lagrangian_d_q1(const MechanicalSystem& system, Quadrature quadrature,
                                     double h, const VectorXd& q0, const VectorXd& q1);

}  // namespace field::mechanics
