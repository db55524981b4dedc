#pragma once
/// A symmetric matrix that is block-banded in time rows (theory §6.7), the form of the estimator's
/// normal matrix N = J^T J: block rows k (the unknowns of time row k, scalar indices
/// starts[k]..starts[k+1]-1) couple block rows at most w apart, and only the lower blocks
/// N_{k,k-d}, d = 0..min(w, k), are stored, dense (the diagonal blocks with both triangles).
/// estimate/normal_equations accumulates J^T J into it from the Jacobian's 6x6 blocks,
/// estimate/banded_cholesky factorises it.
#include <vector>

#include <Eigen/Dense>
#include <Eigen/SparseCore>

namespace field::estimate {

class BandedMatrix {
 public:
  BandedMatrix() = default;
  /// Zero, with block rows from `starts` (starts[0] = 0, ascending, starts.back() = n) and band w.
  BandedMatrix(std::vector<int> starts, int w);
  /// The symmetric sparse N (both triangles stored, or the lower one) in block rows `starts`,
  /// with the band of its pattern.
  static BandedMatrix from_sparse(const Eigen::SparseMatrix<double>& N, std::vector<int> starts);

  int rows() const { return static_cast<int>(starts_.size()) - 1; }
  int size(int k) const { return starts_[k + 1] - starts_[k]; }
  int start(int k) const { return starts_[k]; }
  int dimension() const { return starts_.empty() ? 0 : starts_.back(); }
  int bandwidth() const { return w_; }
  const std::vector<int>& starts() const { return starts_; }
  /// N_{k,k-d}, d = 0..min(w, k).
  Eigen::MatrixXd& block(int k, int d) { return blocks_[k][d]; }
  const Eigen::MatrixXd& block(int k, int d) const { return blocks_[k][d]; }
  /// N_{k,l} for any block rows k, l (a transposed stored block above the diagonal, zero outside
  /// the band).
  Eigen::MatrixXd dense_block(int k, int l) const;

  Eigen::VectorXd diagonal() const;
  void add_to_diagonal(const Eigen::VectorXd& v);
  /// Columns [lo, hi) of a block row.
  struct Span {
    int lo = 0, hi = 0;
  };
  /// Declares where the nonzeros are, for the products: spans[(2w + 1) i + e + w] holds the
  /// columns of block row k + e (e = -w..w) outside of which the six scalar rows of node i (rows
  /// 6i..6i+5, in block row k; block rows of whole nodes) are zero; an empty span, none. The
  /// caller keeps the zeros outside (estimate/normal_equations: the pattern of J^T J). Without
  /// it the blocks are taken as dense.
  void set_spans(std::vector<Span> spans);
  /// N x, block row by block row in a fixed order (node by node, the spans only, when declared);
  /// the block rows shared among `threads`, each computed alone (the same bits for any thread
  /// count).
  Eigen::VectorXd times(const Eigen::VectorXd& x, int threads) const;
  Eigen::VectorXd operator*(const Eigen::VectorXd& x) const { return times(x, 1); }
  /// The same matrix in super-rows of two block rows (the last one alone for an odd count), band
  /// 1 (needs w <= 2); in reversed super-row order when `reversed` (the order of the scalars
  /// inside a super-row kept).
  BandedMatrix paired(bool reversed) const;

 private:
  std::vector<int> starts_;
  int w_ = 0;
  std::vector<std::vector<Eigen::MatrixXd>> blocks_;  // blocks_[k][d] = N_{k,k-d}
  std::vector<Span> spans_;                           // see set_spans; empty: dense
  void times_row(int k, const Eigen::VectorXd& x, Eigen::VectorXd& y) const;
  void times_row_by_spans(int k, const Eigen::VectorXd& x, Eigen::VectorXd& y) const;
};

}  // namespace field::estimate
