#include "libfield/estimate/banded_matrix.hpp"

#include <algorithm>
#include <cstdlib>

#include "libfield/core/error.hpp"

namespace field::estimate {

BandedMatrix::BandedMatrix(std::vector<int> starts, int w) : starts_(std::move(starts)), w_(w) {
  FIELD_CHECK(starts_.size() >= 2 && starts_.front() == 0 && w_ >= 0,
              "banded matrix: needs at least one block row from 0 and a band >= 0");
  blocks_.resize(static_cast<size_t>(rows()));
  for (int k = 0; k < rows(); ++k) {
    FIELD_CHECK(size(k) > 0, "banded matrix: block row " << k << " is empty");
    const int dmax = std::min(w_, k);
    blocks_[k].resize(static_cast<size_t>(dmax) + 1);
    for (int d = 0; d <= dmax; ++d) blocks_[k][d] = Eigen::MatrixXd::Zero(size(k), size(k - d));
  }
}

BandedMatrix BandedMatrix::from_sparse(const Eigen::SparseMatrix<double>& N,
                                       std::vector<int> starts) {
  using SpMat = Eigen::SparseMatrix<double>;
  FIELD_CHECK(!starts.empty() && N.rows() == starts.back() && N.cols() == starts.back(),
              "banded matrix: N is " << N.rows() << " x " << N.cols() << ", expected "
                                     << (starts.empty() ? 0 : starts.back()));
  std::vector<int> row_of(static_cast<size_t>(starts.back()));
  for (size_t k = 0; k + 1 < starts.size(); ++k)
    for (int i = starts[k]; i < starts[k + 1]; ++i) row_of[static_cast<size_t>(i)] = int(k);
  int w = 0;
  for (Eigen::Index c = 0; c < N.outerSize(); ++c)
    for (SpMat::InnerIterator it(N, c); it; ++it)
      w = std::max(w, std::abs(row_of[it.row()] - row_of[it.col()]));
  BandedMatrix out(std::move(starts), w);
  for (Eigen::Index c = 0; c < N.outerSize(); ++c)
    for (SpMat::InnerIterator it(N, c); it; ++it) {
      const int r = static_cast<int>(it.row()), col = static_cast<int>(c);
      if (r < col) continue;  // the lower triangle
      const int kr = row_of[r], kc = row_of[col];
      out.blocks_[kr][kr - kc](r - out.starts_[kr], col - out.starts_[kc]) = it.value();
      if (kr == kc) out.blocks_[kr][0](col - out.starts_[kc], r - out.starts_[kr]) = it.value();
    }
  return out;
}

Eigen::MatrixXd BandedMatrix::dense_block(int k, int l) const {
  if (k >= l && k - l <= w_) return blocks_[k][k - l];
  if (l > k && l - k <= w_) return blocks_[l][l - k].transpose();
  return Eigen::MatrixXd::Zero(size(k), size(l));
}

Eigen::VectorXd BandedMatrix::diagonal() const {
  Eigen::VectorXd d(dimension());
  for (int k = 0; k < rows(); ++k) d.segment(starts_[k], size(k)) = blocks_[k][0].diagonal();
  return d;
}

void BandedMatrix::add_to_diagonal(const Eigen::VectorXd& v) {
  for (int k = 0; k < rows(); ++k) blocks_[k][0].diagonal() += v.segment(starts_[k], size(k));
}

void BandedMatrix::set_spans(std::vector<Span> spans) {
  FIELD_CHECK(
      dimension() % 6 == 0 && spans.size() == static_cast<size_t>((2 * w_ + 1) * (dimension() / 6)),
      "banded matrix: " << spans.size() << " spans for " << dimension() / 6 << " nodes and band "
                        << w_);
  for (int k = 0; k < rows(); ++k) {
    FIELD_CHECK(starts_[k] % 6 == 0, "banded matrix: block row " << k << " is not whole nodes");
    for (int i = starts_[k] / 6; i < starts_[k + 1] / 6; ++i)
      for (int e = -w_; e <= w_; ++e) {
        const Span& s = spans[static_cast<size_t>((2 * w_ + 1) * i + e + w_)];
        const bool inside = k + e >= 0 && k + e < rows();
        FIELD_CHECK(s.hi <= s.lo || (inside && s.lo >= 0 && s.hi <= size(k + e)),
                    "banded matrix: span " << s.lo << ".." << s.hi << " of node " << i
                                           << " outside block row " << k + e);
      }
  }
  spans_ = std::move(spans);
}

Eigen::VectorXd BandedMatrix::times(const Eigen::VectorXd& x, int threads) const {
  Eigen::VectorXd y(dimension());
#pragma omp parallel for schedule(static) num_threads(std::max(threads, 1))
  for (int k = 0; k < rows(); ++k) {
    if (spans_.empty())
      times_row(k, x, y);
    else
      times_row_by_spans(k, x, y);
  }
  return y;
}

// y_k = N_kk x_k + sum_d N_{k,k-d} x_{k-d} + sum_d N_{k+d,k}^T x_{k+d}, whole blocks.
void BandedMatrix::times_row(int k, const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  auto yk = y.segment(starts_[k], size(k));
  yk.noalias() = blocks_[k][0] * x.segment(starts_[k], size(k));
  for (int d = 1; d < static_cast<int>(blocks_[k].size()); ++d)
    yk.noalias() += blocks_[k][d] * x.segment(starts_[k - d], size(k - d));
  for (int d = 1; d <= w_ && k + d < rows(); ++d)
    yk.noalias() += blocks_[k + d][d].transpose() * x.segment(starts_[k + d], size(k + d));
}

// The same in the same order, node by node, over the spans only.
void BandedMatrix::times_row_by_spans(int k, const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  for (int i = starts_[k] / 6; i < starts_[k + 1] / 6; ++i) {
    const int r = 6 * i - starts_[k];
    const Span* span = &spans_[static_cast<size_t>((2 * w_ + 1) * i + w_)];  // span[e]
    auto yi = y.segment<6>(6 * i);
    yi.setZero();
    for (int d = 0; d < static_cast<int>(blocks_[k].size()); ++d) {
      const Span s = span[-d];
      if (s.hi > s.lo)
        yi.noalias() += blocks_[k][d].block(r, s.lo, 6, s.hi - s.lo) *
                        x.segment(starts_[k - d] + s.lo, s.hi - s.lo);
    }
    for (int d = 1; d <= w_ && k + d < rows(); ++d) {
      const Span s = span[d];
      if (s.hi > s.lo)
        yi.noalias() += blocks_[k + d][d].block(s.lo, r, s.hi - s.lo, 6).transpose() *
                        x.segment(starts_[k + d] + s.lo, s.hi - s.lo);
    }
  }
}

BandedMatrix BandedMatrix::paired(bool reversed) const {
  FIELD_CHECK(w_ <= 2, "banded matrix: pairs of block rows need a band <= 2, not " << w_);
  const int R = (rows() + 1) / 2;
  // Super-row K of the forward order: block rows 2K and 2K + 1 (when it exists).
  const auto first = [&](int K) { return 2 * K; };
  const auto last = [&](int K) { return std::min(2 * K + 1, rows() - 1); };
  const auto forward = [&](int K) { return reversed ? R - 1 - K : K; };
  std::vector<int> starts{0};
  for (int K = 0; K < R; ++K) {
    const int F = forward(K);
    starts.push_back(starts.back() + starts_[last(F) + 1] - starts_[first(F)]);
  }
  BandedMatrix out(std::move(starts), std::min(1, R - 1));
  for (int K = 0; K < R; ++K)
    for (int D = 0; D <= std::min(1, K); ++D) {
      const int F = forward(K), H = forward(K - D);  // super-rows of the forward order
      Eigen::MatrixXd& B = out.blocks_[K][D];
      for (int k = first(F); k <= last(F); ++k)
        for (int l = first(H); l <= last(H); ++l)
          B.block(starts_[k] - starts_[first(F)], starts_[l] - starts_[first(H)], size(k),
                  size(l)) = dense_block(k, l);
    }
  return out;
}

}  // namespace field::estimate
