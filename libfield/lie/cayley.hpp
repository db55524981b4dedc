#pragma once
/// The Cayley retraction of SE(3) and its derivatives, closed forms of theory §2.1.
/// Derivatives are right-trivialised: d/de cay(x + e y) = (dcay_x y)^ cay(x) (theory §0.2).
#include "libfield/core/types.hpp"
#include "libfield/lie/se3.hpp"

namespace field::lie {

/// cay(x) = (I - x^/2)^{-1} (I + x^/2).
SE3 cay(const Vec6& x);
/// Inverse of cay; defined for rotations by less than pi (1 + tr R > 0).
Vec6 cay_inv(const SE3& g);
/// Right-trivialised derivative dcay_x.
Mat6 dcay(const Vec6& x);
/// Its inverse dcay^{-1}_x: z -> (I - x^/2) z^ (I + x^/2).
Mat6 dcay_inv(const Vec6& x);
/// The dual (dcay^{-1}_x)^T p of a covector p = (pi, q), without forming the matrix.
Vec6 dcay_inv_dual(const Vec6& x, const Vec6& p);
/// Newton helper M(x, p) = d/dx [(dcay^{-1}_x)^T p] with p fixed (analytic, theory §2.1).
Mat6 cay_newton_M(const Vec6& x, const Vec6& p);

}  // namespace field::lie
