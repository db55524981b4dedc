#include "libfield/estimate/normal_equations.hpp"

#include <algorithm>

#include "libfield/core/error.hpp"

namespace field::estimate {

namespace {

/// Where each block's 6x6 Jacobian blocks go: offset[b] = number of (block, unknown) pairs
/// before b.
std::vector<long long> block_offsets(const std::vector<Block>& blocks) {
  std::vector<long long> offset(blocks.size() + 1, 0);
  for (size_t b = 0; b < blocks.size(); ++b)
    offset[b + 1] = offset[b] + static_cast<long long>(blocks[b].unknowns.size());
  return offset;
}

/// Every block's Jacobian blocks dr_b / d delta_k, in the order of Block::unknowns, into
/// values[offset[b]..]; parallel over blocks, each value computed alone.
template <class G>
void jacobian_values(const Problem<G>& problem, const mesh::Field& field, double h, int threads,
                     bool analytic, const std::vector<long long>& offset,
                     std::vector<Mat6>& values) {
  const std::vector<Block>& blocks = problem.blocks();
  const int nb = problem.block_count();
  values.resize(static_cast<size_t>(offset[nb]));
#pragma omp parallel num_threads(std::max(threads, 1))
  {
    mesh::Field local = field;  // each thread's copy (central differences move and restore it)
#pragma omp for schedule(dynamic, 64)
    for (int b = 0; b < nb; ++b) {
      if (analytic) {
        problem.jacobian_blocks(b, local, h, &values[offset[b]]);
        continue;
      }
      for (size_t i = 0; i < blocks[b].unknowns.size(); ++i)
        values[offset[b] + i] = problem.jacobian_block(b, blocks[b].unknowns[i], local, h);
    }
  }
}

}  // namespace

template <class G>
std::vector<int> row_starts(const Problem<G>& problem) {
  std::vector<int> starts;
  int row = -1;
  for (int k = 0; k < problem.unknown_count(); ++k)
    if (problem.nodes()[k].j != row) {
      row = problem.nodes()[k].j;
      starts.push_back(6 * k);
    }
  starts.push_back(6 * problem.unknown_count());
  return starts;
}

template <class G>
Eigen::SparseMatrix<double> jacobian(const Problem<G>& problem, const mesh::Field& field, double h,
                                     int threads, bool analytic) {
  const std::vector<Block>& blocks = problem.blocks();
  const int nb = problem.block_count();
  const std::vector<long long> offset = block_offsets(blocks);
  std::vector<Mat6> values;
  jacobian_values(problem, field, h, threads, analytic, offset, values);
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(values.size() * 36);
  for (int b = 0; b < nb; ++b)
    for (size_t i = 0; i < blocks[b].unknowns.size(); ++i) {
      const Mat6& m = values[offset[b] + i];
      const int col = 6 * blocks[b].unknowns[i];
      for (int c = 0; c < 6; ++c)
        for (int r = 0; r < 6; ++r) triplets.emplace_back(6 * b + r, col + c, m(r, c));
    }
  Eigen::SparseMatrix<double> Jm(6 * nb, 6 * problem.unknown_count());
  Jm.setFromTriplets(triplets.begin(), triplets.end());
  return Jm;
}

template <class G>
NormalEquations<G>::NormalEquations(const Problem<G>& problem)
    : problem_(problem), starts_(row_starts(problem)) {
  const std::vector<Block>& blocks = problem.blocks();
  const int n = problem.unknown_count(), rows = static_cast<int>(starts_.size()) - 1;
  row_.resize(static_cast<size_t>(n));
  for (int k = 0; k < rows; ++k)
    for (int u = starts_[k] / 6; u < starts_[k + 1] / 6; ++u) row_[u] = k;
  offset_ = block_offsets(blocks);
  jacobian_nonzeros_ = 36 * offset_.back();
  // The blocks touching each time row (a contiguous range: blocks are ordered by rows), the band
  // and the pattern of J^T J by nodes.
  first_block_.assign(static_cast<size_t>(rows), problem.block_count());
  end_block_.assign(static_cast<size_t>(rows), 0);
  int w = 0;
  std::vector<std::vector<int>> coupled(static_cast<size_t>(n));
  for (int b = 0; b < problem.block_count(); ++b) {
    const std::vector<int>& u = blocks[b].unknowns;
    for (int p : u) {
      first_block_[row_[p]] = std::min(first_block_[row_[p]], b);
      end_block_[row_[p]] = std::max(end_block_[row_[p]], b + 1);
      for (int q : u) {
        w = std::max(w, row_[p] - row_[q]);
        coupled[p].push_back(q);
      }
    }
  }
  // The columns each node couples with in the block rows k - w..k + w: the products N x skip the
  // rest (zero: only coupled pairs are accumulated).
  std::vector<BandedMatrix::Span> spans(static_cast<size_t>((2 * w + 1) * n));
  for (int p = 0; p < n; ++p) {
    std::vector<int>& c = coupled[p];
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    normal_nonzeros_ += 36 * static_cast<long long>(c.size());
    for (int q : c) {
      BandedMatrix::Span& s = spans[static_cast<size_t>((2 * w + 1) * p + row_[q] - row_[p] + w)];
      const int column = 6 * q - starts_[row_[q]];
      s.lo = s.hi > s.lo ? std::min(s.lo, column) : column;
      s.hi = std::max(s.hi, column + 6);
    }
  }
  N_ = BandedMatrix(starts_, w);
  N_.set_spans(std::move(spans));
  g_.resize(6 * n);
}

template <class G>
void NormalEquations<G>::assemble(const mesh::Field& field, const Eigen::VectorXd& r, double h,
                                  int threads, bool analytic) {
  const std::vector<Block>& blocks = problem_.blocks();
  FIELD_CHECK(r.size() == 6 * problem_.block_count(),
              "estimate: " << r.size() << " residuals for " << problem_.block_count() << " blocks");
  jacobian_values(problem_, field, h, threads, analytic, offset_, values_);
  const int rows = N_.rows();
#pragma omp parallel for schedule(dynamic, 4) num_threads(std::max(threads, 1))
  for (int k = 0; k < rows; ++k) {
    for (int d = 0; d <= std::min(N_.bandwidth(), k); ++d) N_.block(k, d).setZero();
    // Block row k: J_p^T J_q for the unknowns p of row k and q of rows k-w..k (q <= p within
    // row k: the lower triangle), block by block in their order.
    for (int b = first_block_[k]; b < end_block_[k]; ++b) {
      const std::vector<int>& u = blocks[b].unknowns;
      const Mat6* Jb = &values_[offset_[b]];
      for (size_t p = 0; p < u.size(); ++p) {
        if (row_[u[p]] != k) continue;
        const int rp = 6 * u[p] - starts_[k];
        for (size_t q = 0; q < u.size(); ++q) {
          const int l = row_[u[q]];
          if (l > k || (l == k && u[q] > u[p])) continue;
          N_.block(k, k - l).template block<6, 6>(rp, 6 * u[q] - starts_[l]).noalias() +=
              Jb[p].transpose() * Jb[q];
        }
      }
    }
    // The diagonal block's upper triangle from its lower one: exactly symmetric.
    Eigen::MatrixXd& D = N_.block(k, 0);
    for (Eigen::Index c = 1; c < D.cols(); ++c)
      for (Eigen::Index i = 0; i < c; ++i) D(i, c) = D(c, i);
  }
  g_ = transpose_times(r, threads);
}

template <class G>
Eigen::VectorXd NormalEquations<G>::transpose_times(const Eigen::VectorXd& v, int threads) const {
  const std::vector<Block>& blocks = problem_.blocks();
  FIELD_CHECK(v.size() == 6 * problem_.block_count(),
              "estimate: " << v.size() << " residuals for " << problem_.block_count() << " blocks");
  Eigen::VectorXd out = Eigen::VectorXd::Zero(6 * problem_.unknown_count());
  const int rows = N_.rows();
#pragma omp parallel for schedule(dynamic, 4) num_threads(std::max(threads, 1))
  for (int k = 0; k < rows; ++k)
    for (int b = first_block_[k]; b < end_block_[k]; ++b) {
      const std::vector<int>& u = blocks[b].unknowns;
      for (size_t p = 0; p < u.size(); ++p)
        if (row_[u[p]] == k)
          out.segment<6>(6 * u[p]).noalias() +=
              values_[offset_[b] + p].transpose() * v.segment<6>(6 * b);
    }
  return out;
}

#define FIELD_INSTANTIATE(G)                                                                   \
  template std::vector<int> row_starts(const Problem<G>&);                                     \
  template Eigen::SparseMatrix<double> jacobian(const Problem<G>&, const mesh::Field&, double, \
                                                int, bool);                                    \
  template class NormalEquations<G>;
FIELD_FOR_EACH_GROUP(FIELD_INSTANTIATE)
#undef FIELD_INSTANTIATE

}  // namespace field::estimate
