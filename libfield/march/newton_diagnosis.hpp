#pragma once
/// Why a node's Newton solve failed (theory §5), for the message of a failed march: run only on
/// the failed node, after the slab. From the node's previous solution (the theory's start), Newton
/// with the reference Jacobian (dcel::node_jacobian) is run again and its relative steps
/// max|dy| / (1 + max|y|) are watched:
///   - the target, the start or the problem at the start is not finite: non_finite;
///   - it meets the tolerance within the limit, or its steps were still shrinking at the limit
///     (the last three each smaller than the one before) and it meets the tolerance within ten
///     times the limit: iteration_limit (iterations_needed says how many sufficed);
///   - its last step is at round-off level (<= 1e-8) without meeting the tolerance: stalled (the
///     tolerance is below what round-off allows for these magnitudes);
///   - otherwise (also an iterate that overflows): diverged (the step is too large for the
///     motion: a smaller dt, or ds for the space march).
/// A failed solve whose residual was not finite (the march's kernel overflowed) while the
/// reference converges or stalls is non_finite: the kernel's intermediate products overflowed.
#include "libfield/dcel/discrete_model.hpp"
#include "libfield/dcel/node_solver.hpp"
#include "libfield/march/observer.hpp"

namespace field::march {

struct NewtonDiagnosis {
  FailureKind kind = FailureKind::diverged;
  int iterations_needed = 0;  ///< iteration_limit: the iterations that sufficed
};

/// Diagnoses Phi(y) = m (dcel/node_solver.hpp) from `start` with the march's options;
/// `failed_residual` is the residual the march's solve ended with; `column` is the node's column
/// a, whose density (model.density(a)) the node law is.
template <class G>
NewtonDiagnosis diagnose_newton(const dcel::DiscreteModel<G>& model, int column,
                                dcel::NodeEquation equation, const typename G::Algebra& m,
                                const typename G::Algebra& start,
                                const dcel::NodeSolverOptions& options,
                                double failed_residual = 0.0);

}  // namespace field::march
