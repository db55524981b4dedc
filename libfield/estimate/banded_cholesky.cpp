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

BandedCholesky::BandedCholesky(std::vector<int> starts, int threads)
    : starts_(std::move(starts)), threads_(std::max(threads, 1)) {
  FIELD_CHECK(starts_.size() >= 2 && starts_.front() == 0,
              "banded Cholesky: needs at least one block row from 0");
  for (int k = 0; k < rows(); ++k)
    FIELD_CHECK(size(k) > 0, "banded Cholesky: block row " << k << " is empty");
}

bool BandedCholesky::factorize(const Eigen::SparseMatrix<double>& N) {
  const int n = starts_.back();
  FIELD_CHECK(N.rows() == n && N.cols() == n,
              "banded Cholesky: N is " << N.rows() << " x " << N.cols() << ", expected " << n);
  return factorize(BandedMatrix::from_sparse(N, starts_));
}

namespace {

/// The first column of B with a nonzero in rows r0..r0+m-1 (B.cols() when none).
int first_nonzero_column(const Eigen::MatrixXd& B, int r0, int m) {
  for (int c = 0; c < B.cols(); ++c)
    if ((B.block(r0, c, m, 1).array() != 0.0).any()) return c;
  return static_cast<int>(B.cols());
}

}  // namespace

bool BandedCholesky::factorize(const BandedMatrix& N, const Eigen::VectorXd& shift) {
  const int n = starts_.back();
  FIELD_CHECK(N.starts() == starts_,
              "banded Cholesky: N's block rows are not the ones of the factorisation");
  FIELD_CHECK(shift.size() == 0 || shift.size() == n,
              "banded Cholesky: a shift of " << shift.size() << " entries for " << n);
  if (w_ < 0) w_ = N.bandwidth();  // the band, once
  FIELD_CHECK(N.bandwidth() <= w_, "banded Cholesky: N couples block rows " << N.bandwidth()
                                                                            << " apart, outside "
                                                                               "the band "
                                                                            << w_);
  const OneEigenThread one_thread;
  S_.resize(n);
  min_pivot_ = INFINITY;
  for (int k = 0; k < rows(); ++k)
    for (int i = 0; i < size(k); ++i) {
      const int g = starts_[k] + i;
      const double d = N.block(k, 0)(i, i) + (shift.size() > 0 ? shift(g) : 0.0);
      if (!(d > 0.0) || !std::isfinite(d)) return false;
      S_(g) = 1.0 / std::sqrt(d);
    }
  if (static_cast<int>(L_.size()) != rows()) {
    L_.assign(static_cast<size_t>(rows()), {});
    edge_.assign(static_cast<size_t>(rows()), {});
    for (int k = 0; k < rows(); ++k) {
      const int dmax = std::min(w_, k);
      edge_[k].resize(static_cast<size_t>((size(k) + kChunk - 1) / kChunk));
      L_[k].resize(static_cast<size_t>(dmax) + 1);
      for (int d = 0; d <= dmax; ++d) L_[k][d].resize(size(k), size(k - d));
    }
  }
  bool ok = true;
#pragma omp parallel num_threads(threads_)
  {
    // S (N + diag(shift)) S into the band blocks (the upper triangle of a diagonal block is not
    // read).
#pragma omp for schedule(static)
    for (int k = 0; k < rows(); ++k)
      for (int d = 0; d <= std::min(w_, k); ++d) {
        const auto sk = S_.segment(starts_[k], size(k));
        const auto sl = S_.segment(starts_[k - d], size(k - d));
        if (d > N.bandwidth()) {
          L_[k][d].setZero();
          continue;
        }
        L_[k][d] = sk.asDiagonal() * N.block(k, d) * sl.asDiagonal();
        if (d == 0 && shift.size() > 0)
          for (int i = 0; i < size(k); ++i)
            L_[k][0](i, i) = sk(i) * (N.block(k, 0)(i, i) + shift(starts_[k] + i)) * sk(i);
      }
    // Left-looking, block row by block row; the rows of a block row in fixed chunks.
    for (int k = 0; k < rows(); ++k) {
      const int chunks = (size(k) + kChunk - 1) / kChunk;
#pragma omp for schedule(dynamic, 1)
      for (int c = 0; c < chunks; ++c)
        eliminate_chunk(k, c * kChunk, std::min(size(k), (c + 1) * kChunk));
#pragma omp for schedule(dynamic, 1)
      for (int c = 0; c < chunks; ++c)
        update_diagonal_chunk(k, c * kChunk, std::min(size(k), (c + 1) * kChunk));
#pragma omp single
      {
        Block& D = L_[k][0];
        Eigen::LLT<Eigen::Ref<Block>, Eigen::Lower> llt(D);  // in place
        if (llt.info() != Eigen::Success) {
          ok = false;
        } else {
          D.triangularView<Eigen::StrictlyUpper>().setZero();
          min_pivot_ = std::min(min_pivot_, D.diagonal().minCoeff());
        }
      }
      if (!ok) break;  // every thread, after the single's barrier
    }
  }
  if (!ok) return false;
  min_pivot_ *= min_pivot_;
  return true;
}

// Rows r0..r1-1 of L_{k,k-d}, d = w..1: L_ki = (N_ki - sum_{l} L_kl L_il^T) L_ii^{-T} (theory
// §6.7). The block furthest from the diagonal has nothing subtracted, and its rows are zero left
// of their first nonzero column (N_{k,k-2} couples node a of row k with nodes a..a+2 of row k-2):
// L_ii^{-T} is upper triangular and keeps those zeros, so the products skip them.
void BandedCholesky::eliminate_chunk(int k, int r0, int r1) {
  const int dmax = std::min(w_, k), m = r1 - r0;
  if (dmax == 0) return;
  const int c0 = first_nonzero_column(L_[k][dmax], r0, m);
  edge_[k][r0 / kChunk] = c0;  // for the solves
  for (int d = dmax; d >= 1; --d) {
    const int i = k - d;
    auto B = L_[k][d].middleRows(r0, m);
    for (int e = d + 1; e <= dmax; ++e) {
      const int c = e == dmax ? c0 : 0, q = static_cast<int>(L_[k][e].cols()) - c;
      if (q > 0) B.noalias() -= L_[k][e].block(r0, c, m, q) * L_[i][e - d].rightCols(q).transpose();
    }
    const int c = d == dmax ? c0 : 0, q = static_cast<int>(B.cols()) - c;
    if (q == 0) continue;
    auto Bq = B.rightCols(q);
    L_[i][0]
        .bottomRightCorner(q, q)
        .triangularView<Eigen::Lower>()
        .transpose()
        .solveInPlace<Eigen::OnTheRight>(Bq);
  }
}

// Rows r0..r1-1 of L_kk L_kk^T = N_kk - sum_d L_{k,k-d} L_{k,k-d}^T, lower triangle.
void BandedCholesky::update_diagonal_chunk(int k, int r0, int r1) {
  const int dmax = std::min(w_, k), m = r1 - r0;
  Block& D = L_[k][0];
  for (int d = 1; d <= dmax; ++d) {
    const Block& B = L_[k][d];
    const int c = d == dmax ? first_nonzero_column(B, r0, m) : 0;
    const int q = static_cast<int>(B.cols()) - c;
    if (q == 0) continue;
    if (r0 > 0)
      D.block(r0, 0, m, r0).noalias() -= B.block(r0, c, m, q) * B.block(0, c, r0, q).transpose();
    D.block(r0, r0, m, m).selfadjointView<Eigen::Lower>().rankUpdate(B.block(r0, c, m, q), -1.0);
  }
}

// Rows r0..r1-1 of y_k -= L_{k,k-d} y_{k-d}; for the block furthest from the diagonal only the
// columns from the chunk's first nonzero on (the band's edge, as in the factorisation).
void BandedCholesky::forward_product(int k, int d, int r0, int r1, Eigen::VectorXd& y) const {
  const Block& B = L_[k][d];
  int c = 0;
  if (d + 1 == static_cast<int>(L_[k].size()))
    c = *std::min_element(edge_[k].begin() + r0 / kChunk,
                          edge_[k].begin() + (r1 + kChunk - 1) / kChunk);
  const int q = static_cast<int>(B.cols()) - c;
  if (q <= 0) return;
  y.segment(starts_[k] + r0, r1 - r0).noalias() -=
      B.block(r0, c, r1 - r0, q) * y.segment(starts_[k - d] + c, q);
}

// Entries i0..i1-1 of x_k -= L_{k+d,k}^T x_{k+d}; for the block furthest from the diagonal of its
// block row only the rows with a nonzero left of column i1 (the band's edge).
void BandedCholesky::backward_product(int k, int d, int i0, int i1, Eigen::VectorXd& x) const {
  const Block& B = L_[k + d][d];
  int rows = static_cast<int>(B.rows());
  if (d + 1 == static_cast<int>(L_[k + d].size())) {
    const std::vector<int>& edge = edge_[k + d];
    int f = static_cast<int>(edge.size());  // the factorisation's chunks of rows
    while (f > 0 && edge[f - 1] >= i1) --f;
    rows = std::min(rows, f * kChunk);
  }
  if (rows == 0) return;
  x.segment(starts_[k] + i0, i1 - i0).noalias() -=
      B.block(0, i0, rows, i1 - i0).transpose() * x.segment(starts_[k + d], rows);
}

// L y = S b, then L^T x = y, block row by block row. Every entry of y_k takes its products in a
// fixed order (d = w..1, then the triangle), each chunk of kSolveChunk entries computed alone:
// the bits do not depend on the thread count. Two barriers per block row and pass: the products
// with the previous row (chunks), then the triangle of this row on one thread beside the products
// of the next row with the rows d >= 2 before it, which are known (chunks).
Eigen::VectorXd BandedCholesky::solve(const Eigen::VectorXd& b) const {
  const OneEigenThread one_thread;
  Eigen::VectorXd y = S_.cwiseProduct(b);
  const int R = rows();
  const auto chunks = [&](int k) { return (size(k) + kSolveChunk - 1) / kSolveChunk; };
  const auto chunk_end = [&](int k, int c) { return std::min(size(k), (c + 1) * kSolveChunk); };
#pragma omp parallel num_threads(threads_)
  {
    for (int k = 0; k < R; ++k) {  // L y = S b
      if (k >= 1) {
#pragma omp for schedule(dynamic, 1)
        for (int c = 0; c < chunks(k); ++c)
          forward_product(k, 1, c * kSolveChunk, chunk_end(k, c), y);
      }
      const int next = k + 1 < R && std::min(w_, k + 1) >= 2 ? chunks(k + 1) : 0;
#pragma omp for schedule(dynamic, 1)
      for (int t = 0; t <= next; ++t) {
        if (t == 0) {
          auto yk = y.segment(starts_[k], size(k));
          L_[k][0].triangularView<Eigen::Lower>().solveInPlace(yk);
          continue;
        }
        for (int d = std::min(w_, k + 1); d >= 2; --d)
          forward_product(k + 1, d, (t - 1) * kSolveChunk, chunk_end(k + 1, t - 1), y);
      }
    }
    for (int k = R - 1; k >= 0; --k) {  // L^T x = y, in place
      if (k + 1 < R) {
#pragma omp for schedule(dynamic, 1)
        for (int c = 0; c < chunks(k); ++c)
          backward_product(k, 1, c * kSolveChunk, chunk_end(k, c), y);
      }
      const int next = k >= 1 && w_ >= 2 && k + 1 < R ? chunks(k - 1) : 0;
#pragma omp for schedule(dynamic, 1)
      for (int t = 0; t <= next; ++t) {
        if (t == 0) {
          auto xk = y.segment(starts_[k], size(k));
          L_[k][0].triangularView<Eigen::Lower>().transpose().solveInPlace(xk);
          continue;
        }
        for (int d = std::min(w_, R - k); d >= 2; --d)
          backward_product(k - 1, d, (t - 1) * kSolveChunk, chunk_end(k - 1, t - 1), y);
      }
    }
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

std::vector<Mat6> banded_inverse_diagonal_blocks(const BandedMatrix& N, int threads) {
  const int n = N.dimension();
  FIELD_CHECK(n % 6 == 0, "covariance: N is " << n << " x " << n);
  const char* singular =
      "covariance: the factorisation of J^T J failed (J^T J not positive definite: the residuals "
      "do not fix every unknown)";
  // Super-rows of two block rows: w = 1. F_k - (S N S)_kk from the forward factorisation, then
  // B_k from the one in reversed super-row order; each matrix freed after use.
  std::vector<int> starts;
  std::vector<Eigen::MatrixXd> info;
  Eigen::VectorXd S;
  {
    const BandedMatrix forward_N = N.paired(false);
    BandedCholesky forward(forward_N.starts(), threads);
    FIELD_CHECK(forward.factorize(forward_N) && forward.bandwidth() <= 1, singular);
    starts = forward_N.starts();
    S = forward.scaling();
    const OneEigenThread one_thread;
    for (int k = 0; k + 1 < static_cast<int>(starts.size()); ++k) {
      const auto s = S.segment(starts[k], forward_N.size(k));
      info.push_back(forward.schur(k) - s.asDiagonal() * forward_N.block(k, 0) * s.asDiagonal());
    }
  }
  const int R = static_cast<int>(info.size());
  {
    const BandedMatrix backward_N = N.paired(true);
    BandedCholesky backward(backward_N.starts(), threads);
    FIELD_CHECK(backward.factorize(backward_N), singular);
    for (int k = 0; k < R; ++k) info[k] += backward.schur(R - 1 - k);
  }
  const OneEigenThread one_thread;
  std::vector<Mat6> out(static_cast<size_t>(n / 6));
  for (int k = 0; k < R; ++k) {
    const int m = starts[k + 1] - starts[k];
    Eigen::LLT<Eigen::MatrixXd> llt(info[k]);
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

std::vector<Mat6> banded_inverse_diagonal_blocks(const Eigen::SparseMatrix<double>& N,
                                                 const std::vector<int>& row_starts) {
  const int n = row_starts.back();
  FIELD_CHECK(N.rows() == n && N.cols() == n && n % 6 == 0,
              "covariance: N is " << N.rows() << " x " << N.cols());
  return banded_inverse_diagonal_blocks(BandedMatrix::from_sparse(N, row_starts));
}

}  // namespace field::estimate
