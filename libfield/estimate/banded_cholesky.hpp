#pragma once
/// The Cholesky factorisation of the estimator's normal matrix in its block-banded form (theory
/// §6.7): the unknowns are numbered row by row (time-major), and a residual block couples nodes
/// of rows j-1..j+1 only (the stencil of theory §4.1), so N = J^T J couples block rows (time rows)
/// at most w = 2 apart. With S = diag(N)^{-1/2} (Jacobi scaling, as the selected inverse),
///   S N S = L L^T,   L block lower-banded with dense blocks L_{k,k-d}, d = 0..w,
/// left-looking, row by row: per time row a few dense products of size 6 (A+1), each block row's
/// rows in fixed chunks shared among the threads (Eigen on one thread per chunk: the same bits
/// for any thread count; the zeros left of the band's edge in L_{k,k-w} skipped), then solves (with
/// iterative refinement in the Levenberg-Marquardt steps: N is badly conditioned). The covariance
/// blocks come from two such factorisations (banded_inverse_diagonal_blocks, theory §6.7): the
/// one-sided block Takahashi recursion on this band loses the tip's small variances to round-off.
#include <vector>

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include "libfield/core/types.hpp"
#include "libfield/estimate/banded_matrix.hpp"

namespace field::estimate {

class BandedCholesky {
 public:
  /// starts[k]: the first scalar index of block row k; starts.back() = n (ascending). The
  /// factorisation runs on `threads` OpenMP threads: each block row's rows in fixed chunks of
  /// kChunk, each chunk computed alone, so the bits do not depend on the thread count.
  explicit BandedCholesky(std::vector<int> starts, int threads = 1);

  /// Factorises N + diag(shift) (shift empty: N). False when it is not numerically positive
  /// definite or has a diagonal entry that is not > 0. Throws field::Error when N's block rows are
  /// not the ones given or its band is wider than the first call's (w is fixed by the first call).
  bool factorize(const BandedMatrix& N, const Eigen::VectorXd& shift = Eigen::VectorXd());
  /// The same for a sparse symmetric N (both triangles stored, or the lower one; the band from
  /// its pattern).
  bool factorize(const Eigen::SparseMatrix<double>& N);
  /// x with N x = b (after a successful factorize): L y = S b, L^T (S^{-1} x) = y on the threads
  /// of the factorisation, each block row's entries in fixed chunks of kSolveChunk computed alone
  /// (the same bits for any thread count), the zeros left of the band's edge skipped.
  Eigen::VectorXd solve(const Eigen::VectorXd& b) const;
  /// L_kk L_kk^T: the Schur complement of S N S onto block row k after eliminating the rows
  /// before it (after a successful factorize).
  Eigen::MatrixXd schur(int k) const;
  /// S = diag(N)^{-1/2} of the last factorize.
  const Eigen::VectorXd& scaling() const { return S_; }
  /// The smallest pivot of S N S (a unit diagonal): near 0 when N is near singular.
  double min_pivot() const { return min_pivot_; }
  /// The block bandwidth w.
  int bandwidth() const { return w_; }
  /// Rows of a block row computed together (the unit of work of the threads).
  static constexpr int kChunk = 12;
  /// Entries of a block row computed together in the solves (the unit of work of the threads; a
  /// multiple of kChunk).
  static constexpr int kSolveChunk = 2 * kChunk;

 private:
  using Block = Eigen::MatrixXd;
  std::vector<int> starts_;
  int threads_ = 1;
  int w_ = -1;
  double min_pivot_ = 0.0;
  Eigen::VectorXd S_;
  std::vector<std::vector<Block>> L_;  // L_[k][d] = L_{k,k-d}, d = 0..min(w, k)
  // edge_[k][f], k >= 1: the first nonzero column of rows f kChunk..(f + 1) kChunk - 1 of
  // L_[k].back() (the factorisation's chunks; B.cols() when none)
  std::vector<std::vector<int>> edge_;
  int size(int k) const { return starts_[k + 1] - starts_[k]; }
  int rows() const { return static_cast<int>(starts_.size()) - 1; }
  void eliminate_chunk(int k, int r0, int r1);
  void update_diagonal_chunk(int k, int r0, int r1);
  void forward_product(int k, int d, int r0, int r1, Eigen::VectorXd& y) const;
  void backward_product(int k, int d, int i0, int i1, Eigen::VectorXd& x) const;
};

/// The diagonal 6x6 blocks of N^{-1} for N block-banded in time rows (`row_starts` as
/// BandedCholesky's, band w <= 2) by the two-sided Schur complements (theory §6.7): block rows
/// paired into super-rows couple neighbours only (w = 1), so with F_k the Schur complement of
/// S N S onto super-row k eliminating the rows before it (the forward factorisation) and B_k
/// eliminating the rows after it (the factorisation in reversed order),
///   (S N S)^{-1}_kk = (F_k + B_k - (S N S)_kk)^{-1}.
/// Throws field::Error when N or a marginal information F_k + B_k - N_kk is not positive
/// definite (a scaled pivot <= 1e-14: the residuals do not fix every unknown).
std::vector<Mat6> banded_inverse_diagonal_blocks(const BandedMatrix& N, int threads = 1);
/// The same for a sparse symmetric N in block rows `row_starts`.
std::vector<Mat6> banded_inverse_diagonal_blocks(const Eigen::SparseMatrix<double>& N,
                                                 const std::vector<int>& row_starts);

}  // namespace field::estimate
