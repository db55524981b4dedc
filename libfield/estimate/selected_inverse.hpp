#pragma once
/// The diagonal blocks of the inverse of a sparse symmetric positive definite matrix, without the
/// whole inverse: the selected inverse by the Takahashi recursion on N's sparse factorisation
/// P N P^T = L D L^T (Takahashi, Fagan, Chen 1973; Erisman, Tinney 1975): with Z = (P N P^T)^{-1},
///   Z_ij = -sum_{k > j, L_kj != 0} L_kj Z_ik  (i > j, L_ij != 0),
///   Z_jj = 1/D_j - sum_{k > j, L_kj != 0} L_kj Z_kj,
/// column by column from the last; every Z_ik needed lies in the pattern of L + L^T. Used for the
/// Gauss-Newton covariance of the estimator (theory §6.7).
#include <vector>

#include <Eigen/SparseCore>

#include "libfield/core/types.hpp"

namespace field::estimate {

/// The 6x6 diagonal blocks (N^{-1})_{kk}, k = 0..n/6-1, of the symmetric positive definite N
/// (lower triangle used). Throws field::Error when the factorisation fails or a pivot is not
/// positive (N singular: a direction the residuals do not see).
std::vector<Mat6> inverse_diagonal_blocks(const Eigen::SparseMatrix<double>& N);

}  // namespace field::estimate
