#pragma once
/// The estimator's Jacobian J = dr/d delta (theory §6.7) and its normal equations N = J^T J,
/// g = J^T r. The unknowns are numbered row by row and a residual block couples time rows
/// j-1..j+1 only, so J^T J is block-banded in time rows (band w = 2, estimate/banded_matrix):
/// normal_equations accumulates every product J_p^T J_q of a block's 6x6 Jacobian blocks straight
/// into its band block, with no sparse J. jacobian() assembles the sparse J (for the sparse
/// factorisations, and as the tests' reference).
#include <vector>

#include <Eigen/SparseCore>

#include "libfield/estimate/banded_matrix.hpp"
#include "libfield/estimate/problem.hpp"

namespace field::estimate {

/// The first scalar unknown of every time row (the unknowns are numbered row by row), and 6 n.
template <class G>
std::vector<int> row_starts(const Problem<G>& problem);

/// The sparse Jacobian dr/d delta (rows 6 per block, columns 6 per unknown node), assembled in a
/// fixed order from Problem::jacobian_blocks (analytic) or Problem::jacobian_block (central
/// differences with step h, every block); parallel over blocks, each value computed alone.
template <class G>
Eigen::SparseMatrix<double> jacobian(const Problem<G>& problem, const mesh::Field& field, double h,
                                     int threads, bool analytic = true);

/// J^T J and J^T r accumulated from the blocks of J (computed as by jacobian()).
template <class G>
class NormalEquations {
 public:
  explicit NormalEquations(const Problem<G>& problem);
  /// N = J^T J and g = J^T r at `field` (r: Problem::residuals of it). Each entry is summed over
  /// the residual blocks in their order and the block's unknowns in theirs; the time rows are
  /// shared among `threads`, each row computed alone: the bits do not depend on the thread count.
  void assemble(const mesh::Field& field, const Eigen::VectorXd& r, double h, int threads,
                bool analytic = true);
  /// J^T v with the Jacobian of the last assemble (v: 6 entries per residual block), summed as
  /// the gradient.
  Eigen::VectorXd transpose_times(const Eigen::VectorXd& v, int threads) const;
  const BandedMatrix& N() const { return N_; }
  const Eigen::VectorXd& gradient() const { return g_; }
  /// The nonzeros of J and of J^T J (both triangles) in their sparse forms.
  long long jacobian_nonzeros() const { return jacobian_nonzeros_; }
  long long normal_nonzeros() const { return normal_nonzeros_; }

 private:
  const Problem<G>& problem_;
  std::vector<int> starts_;
  std::vector<int> row_;                      // time row (block row) of every unknown
  std::vector<long long> offset_;             // of each block's Jacobian blocks in values_
  std::vector<int> first_block_, end_block_;  // the blocks touching each time row
  std::vector<Mat6> values_;
  BandedMatrix N_;
  Eigen::VectorXd g_;
  long long jacobian_nonzeros_ = 0, normal_nonzeros_ = 0;
};

}  // namespace field::estimate
