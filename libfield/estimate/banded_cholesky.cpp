#include "libfield/estimate/banded_cholesky.hpp"

#include <algorithm>
#include <cmath>

#include "libfield/core/error.hpp"

namespace field::estimate {

namespace {

/// Eigen's dense products on one thread while alive: Eigen's blocking of a product depends on its
/// thread count, and with it the bits. Restores Eigen's default (OpenMP's thread count).
struct OneEigenThread {
  OneEigenThread() { Eigen::setNbThreads(1); }
  ~OneEigenThread() { Eigen::setNbThreads(0); }
};

}  // namespace

BandedCholesky::BandedCholesky(std::vector<int> starts) : starts_(std::move(starts)) {
  FIELD_CHECK(starts_.size() >= 2 && starts_.front() == 0,
              "banded Cholesky: needs at least one block row from 0");
  row_of_.resize(static_cast<size_t>(starts_.back()));
  for (int k = 0; k < rows(); ++k) {
    FIELD_CHECK(size(k) > 0, "banded Cholesky: block row " << k << " is empty");
    for (int i = starts_[k]; i < starts_[k + 1]; ++i) row_of_[static_cast<size_t>(i)] = k;
  }
}

bool BandedCholesky::factorize(const Eigen::SparseMatrix<double>& N) {
  using SpMat = Eigen::SparseMatrix<double>;
  const int n = starts_.back();
  FIELD_CHECK(N.rows() == n && N.cols() == n,
              "banded Cholesky: N is " << N.rows() << " x " << N.cols() << ", expected " << n);
  const OneEigenThread one_thread;
  if (w_ < 0) {  // the band of the pattern, once
    w_ = 0;
    for (Eigen::Index c = 0; c < N.outerSize(); ++c)
      for (SpMat::InnerIterator it(N, c); it; ++it)
        w_ = std::max(w_, std::abs(row_of_[it.row()] - row_of_[it.col()]));
  }
  S_.resize(n);
  min_pivot_ = INFINITY;
  for (int i = 0; i < n; ++i) {
    const double d = N.coeff(i, i);
    if (!(d > 0.0) || !std::isfinite(d)) return false;
    S_(i) = 1.0 / std::sqrt(d);
  }
  // The lower triangle of S N S into the dense band blocks.
  L_.assign(static_cast<size_t>(rows()), {});
  for (int k = 0; k < rows(); ++k) {
    const int dmax = std::min(w_, k);
    L_[k].resize(static_cast<size_t>(dmax) + 1);
    for (int d = 0; d <= dmax; ++d) L_[k][d] = Block::Zero(size(k), size(k - d));
  }
  for (Eigen::Index c = 0; c < N.outerSize(); ++c)
    for (SpMat::InnerIterator it(N, c); it; ++it) {
      const int r = static_cast<int>(it.row()), col = static_cast<int>(c);
      if (r < col) continue;
      const int kr = row_of_[r], kc = row_of_[col];
      FIELD_CHECK(kr - kc <= w_,
                  "banded Cholesky: entry (" << r << ", " << col << ") outside the band " << w_);
      L_[kr][kr - kc](r - starts_[kr], col - starts_[kc]) = S_(r) * it.value() * S_(col);
    }
  // Left-looking, block row by block row.
  for (int k = 0; k < rows(); ++k) {
    const int dmax = std::min(w_, k);
    for (int d = dmax; d >= 1; --d) {
      const int i = k - d;
      Block& B = L_[k][d];
      for (int e = d + 1; e <= dmax; ++e) B.noalias() -= L_[k][e] * L_[i][e - d].transpose();
      L_[i][0].triangularView<Eigen::Lower>().transpose().solveInPlace<Eigen::OnTheRight>(B);
    }
    Block& D = L_[k][0];
    for (int d = 1; d <= dmax; ++d) D.selfadjointView<Eigen::Lower>().rankUpdate(L_[k][d], -1.0);
    Eigen::LLT<Eigen::Ref<Block>, Eigen::Lower> llt(D);  // in place
    if (llt.info() != Eigen::Success) return false;
    D.triangularView<Eigen::StrictlyUpper>().setZero();
    min_pivot_ = std::min(min_pivot_, D.diagonal().minCoeff());
  }
  min_pivot_ *= min_pivot_;
  return true;
}

Eigen::VectorXd BandedCholesky::solve(const Eigen::VectorXd& b) const {
  const OneEigenThread one_thread;
  Eigen::VectorXd y = S_.cwiseProduct(b);
  for (int k = 0; k < rows(); ++k) {  // L y = S b
    auto yk = y.segment(starts_[k], size(k));
    for (int d = 1; d < static_cast<int>(L_[k].size()); ++d)
      yk.noalias() -= L_[k][d] * y.segment(starts_[k - d], size(k - d));
    L_[k][0].triangularView<Eigen::Lower>().solveInPlace(yk);
  }
  for (int k = rows() - 1; k >= 0; --k) {  // L^T x = y
    auto xk = y.segment(starts_[k], size(k));
    for (int d = 1; d <= w_ && k + d < rows(); ++d)
      xk.noalias() -= L_[k + d][d].transpose() * y.segment(starts_[k + d], size(k + d));
    L_[k][0].triangularView<Eigen::Lower>().transpose().solveInPlace(xk);
  }
  return S_.cwiseProduct(y);
}

Eigen::MatrixXd BandedCholesky::schur(int k) const {
  const OneEigenThread one_thread;
  const Block& L = L_[k][0];
  Block F = Block::Zero(L.rows(), L.rows());
  F.selfadjointView<Eigen::Lower>().rankUpdate(L);
  return F.selfadjointView<Eigen::Lower>();
}

std::vector<Mat6> banded_inverse_diagonal_blocks(const Eigen::SparseMatrix<double>& N,
                                                 const std::vector<int>& row_starts) {
  using SpMat = Eigen::SparseMatrix<double>;
  const int n = row_starts.back();
  FIELD_CHECK(N.rows() == n && N.cols() == n && n % 6 == 0,
              "covariance: N is " << N.rows() << " x " << N.cols());
  // Super-rows of two block rows: w = 1.
  std::vector<int> starts;
  for (size_t k = 0; k + 1 < row_starts.size(); k += 2) starts.push_back(row_starts[k]);
  starts.push_back(n);
  const int R = static_cast<int>(starts.size()) - 1;
  // The same super-rows in reversed order: old index i -> new index perm[i].
  std::vector<int> reversed{0};
  Eigen::VectorXi perm(n);
  for (int k = R - 1; k >= 0; --k) {
    const int offset = reversed.back();
    for (int i = starts[k]; i < starts[k + 1]; ++i) perm(i) = offset + i - starts[k];
    reversed.push_back(offset + starts[k + 1] - starts[k]);
  }
  const Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> P(perm);
  SpMat Nr;
  Nr = N.twistedBy(P);
  BandedCholesky forward(starts), backward(reversed);
  const bool ok = forward.factorize(N) && backward.factorize(Nr);
  FIELD_CHECK(ok && forward.bandwidth() <= 1,
              "covariance: the factorisation of J^T J failed (J^T J not positive definite: the "
              "residuals do not fix every unknown)");
  const OneEigenThread one_thread;
  const Eigen::VectorXd& S = forward.scaling();
  std::vector<Mat6> out(static_cast<size_t>(n / 6));
  for (int k = 0; k < R; ++k) {
    const int m = starts[k + 1] - starts[k];
    // (S N S)_kk, dense.
    Eigen::MatrixXd Nkk = Eigen::MatrixXd::Zero(m, m);
    for (int c = starts[k]; c < starts[k + 1]; ++c)
      for (SpMat::InnerIterator it(N, c); it; ++it)
        if (it.row() >= starts[k] && it.row() < starts[k + 1])
          Nkk(it.row() - starts[k], c - starts[k]) = S(it.row()) * it.value() * S(c);
    const Eigen::MatrixXd info = forward.schur(k) + backward.schur(R - 1 - k) - Nkk;
    Eigen::LLT<Eigen::MatrixXd> llt(info);
    const double pivot =
        llt.info() == Eigen::Success ? std::pow(llt.matrixLLT().diagonal().minCoeff(), 2) : 0.0;
    FIELD_CHECK(pivot > 1e-14, "covariance: pivot "
                                   << pivot << " of the marginal information of rows from "
                                   << starts[k]
                                   << " (J^T J singular: the residuals do not fix every unknown)");
    const Eigen::MatrixXd Z = llt.solve(Eigen::MatrixXd::Identity(m, m));
    for (int q = 0; q < m; q += 6) {
      const int g = starts[k] + q;
      out[g / 6] =
          S.segment<6>(g).asDiagonal() * Z.block<6, 6>(q, q) * S.segment<6>(g).asDiagonal();
    }
  }
  return out;
}

}  // namespace field::estimate
