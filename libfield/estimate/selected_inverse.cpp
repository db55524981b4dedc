#include "libfield/estimate/selected_inverse.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/SparseCholesky>

#include "libfield/core/error.hpp"

namespace field::estimate {

std::vector<Mat6> inverse_diagonal_blocks(const Eigen::SparseMatrix<double>& N) {
  using SpMat = Eigen::SparseMatrix<double>;
  const Eigen::Index n = N.rows();
  FIELD_CHECK(N.cols() == n && n % 6 == 0,
              "selected inverse: N is " << N.rows() << " x " << N.cols());
  // Jacobi scaling (theory §6.7): S N S with S = diag(N)^{-1/2} has a unit diagonal, so that the
  // pivot test below is relative to each unknown's own scale; N^{-1} = S (S N S)^{-1} S.
  Eigen::VectorXd S(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double d = N.coeff(i, i);
    FIELD_CHECK(d > 0.0, "selected inverse: diagonal " << i << " of N is " << d
                                                       << " (an unknown no residual sees)");
    S(i) = 1.0 / std::sqrt(d);
  }
  // S N S with its diagonal 6x6 blocks structurally full (explicit zeros), so that the blocks
  // asked for lie in the pattern of the factor.
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<size_t>(N.nonZeros()) + 21 * static_cast<size_t>(n / 6));
  for (Eigen::Index c = 0; c < N.outerSize(); ++c)
    for (SpMat::InnerIterator it(N, c); it; ++it)
      if (it.row() >= it.col())
        entries.emplace_back(it.row(), it.col(), S(it.row()) * it.value() * S(it.col()));
  for (Eigen::Index k = 0; k < n / 6; ++k)
    for (int u = 0; u < 6; ++u)
      for (int v = 0; v <= u; ++v) entries.emplace_back(6 * k + u, 6 * k + v, 0.0);
  SpMat lower(n, n);
  lower.setFromTriplets(entries.begin(), entries.end());
  Eigen::SimplicialLDLT<SpMat, Eigen::Lower, Eigen::AMDOrdering<int>> ldlt(lower);
  FIELD_CHECK(ldlt.info() == Eigen::Success, "selected inverse: the factorisation of N failed");
  const SpMat& L = ldlt.matrixL().nestedExpression();  // unit lower, strictly lower entries
  const Eigen::VectorXd& D = ldlt.vectorD();
  for (Eigen::Index i = 0; i < n; ++i)
    FIELD_CHECK(D(i) > 1e-14, "selected inverse: pivot " << i << " of the unit-diagonal S N S is "
                                                         << D(i)
                                                         << " (N singular: the residuals do not "
                                                            "fix every unknown)");
  // Z on the pattern of L (strictly lower, same index arrays) and its diagonal.
  const int* outer = L.outerIndexPtr();
  const int* inner = L.innerIndexPtr();
  const double* Lx = L.valuePtr();
  std::vector<double> Z(static_cast<size_t>(L.nonZeros()), 0.0);
  Eigen::VectorXd Zd(n);
  // Z(r, c) for r >= c in the pattern: binary search in column c.
  const auto z = [&](int r, int c) -> double {
    if (r == c) return Zd(c);
    if (r < c) std::swap(r, c);
    const int* begin = inner + outer[c];
    const int* end = inner + outer[c + 1];
    const int* it = std::lower_bound(begin, end, r);
    FIELD_ASSERT(it != end && *it == r, "selected inverse: entry outside the pattern of L");
    return Z[static_cast<size_t>(it - inner)];
  };
  // Column j needs s_i = sum_{k in S} L_kj Z(i, k) for i in S = pattern of column j. Each pair
  // i > k of S is an entry of column k (S minus the rows <= k lies in the pattern of column k), so
  // one sorted merge of S with column k gives both of its contributions, to s_i and to s_k: no
  // search per entry. A fixed order: the same bits on any machine.
  std::vector<double> sum(static_cast<size_t>(n), 0.0);
  for (Eigen::Index jj = n - 1; jj >= 0; --jj) {
    const int j = static_cast<int>(jj);
    const int begin = outer[j], end = outer[j + 1];
    for (int q = begin; q < end; ++q) sum[static_cast<size_t>(inner[q])] = 0.0;
    for (int q = begin; q < end; ++q) {
      const int k = inner[q];
      const double Lkj = Lx[q];
      sum[static_cast<size_t>(k)] += Lkj * Zd(k);
      // Rows i > k of S (after q) against the pattern of column k.
      int p = outer[k];
      const int p_end = outer[k + 1];
      for (int r = q + 1; r < end; ++r) {
        const int i = inner[r];
        while (p < p_end && inner[p] < i) ++p;
        FIELD_ASSERT(p < p_end && inner[p] == i, "selected inverse: entry outside the pattern");
        const double zik = Z[static_cast<size_t>(p)];
        sum[static_cast<size_t>(i)] += Lkj * zik;
        sum[static_cast<size_t>(k)] += Lx[r] * zik;
      }
    }
    double diagonal = 0.0;
    for (int q = begin; q < end; ++q) {
      Z[static_cast<size_t>(q)] = -sum[static_cast<size_t>(inner[q])];
      diagonal += Lx[q] * Z[static_cast<size_t>(q)];
    }
    Zd(j) = 1.0 / D(j) - diagonal;
  }
  // (N^{-1})(u, v) = Z(P u, P v).
  const auto& P = ldlt.permutationP().indices();
  std::vector<Mat6> blocks(static_cast<size_t>(n / 6));
  for (Eigen::Index k = 0; k < n / 6; ++k)
    for (int u = 0; u < 6; ++u)
      for (int v = 0; v < 6; ++v)
        blocks[k](u, v) = S(6 * k + u) * z(P(6 * k + u), P(6 * k + v)) * S(6 * k + v);
  return blocks;
}

}  // namespace field::estimate
