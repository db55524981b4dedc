#pragma once
/// The exponential map of SE(3) and its derivatives, theory §2.2. Closed forms with eleven-term
/// Taylor series of the coefficient functions for |omega| < 0.5
/// (lie/exponential_blocks.hpp); they are checked against the
/// series definitions in tests/lie/test_exponential.cpp.
#include "libfield/core/types.hpp"
#include "libfield/lie/se3.hpp"

namespace field::lie {

/// exp(x) = (Lambda, V v), Lambda = I + a w^ + b w^w^, V = I + b w^ + c w^w^.
SE3 exp_map(const Vec6& x);
/// Inverse of exp_map for rotation angles in [0, pi] (atan2 form; robust near pi).
Vec6 log_map(const SE3& g);
/// Right-trivialised derivative dexp_x = sum_k ad_x^k / (k+1)!.
Mat6 dexp(const Vec6& x);
/// Its inverse dexp^{-1}_x = sum_k B_k/k! ad_x^k (Bernoulli numbers B_k).
Mat6 dexp_inv(const Vec6& x);
/// The dual (dexp^{-1}_x)^T p.
Vec6 dexp_inv_dual(const Vec6& x, const Vec6& p);
/// Newton helper M(x, p) = d/dx [(dexp^{-1}_x)^T p] with p fixed, in closed form
/// (lie/exponential_blocks.hpp).
Mat6 exp_newton_M(const Vec6& x, const Vec6& p);
/// The same by complex-step differentiation of the closed form of (dexp^{-1}_x)^T p: exact to
/// round-off (no truncation error), six evaluations in complex arithmetic. The reference the
/// closed form is tested against (tests/lie/test_exponential.cpp).
Mat6 exp_newton_M_complex_step(const Vec6& x, const Vec6& p);

}  // namespace field::lie
