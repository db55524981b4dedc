// The banded factorisation's kernels (libfield/estimate/banded_cholesky.cpp: row chunks of 12 of
// 126 x 126 blocks) with Eigen against a BLAS, for docs/reconstruction.md ("What the 10 s target
// would take"). Not built by CMake (OpenBLAS is not a dependency); with Debian's
// libopenblas-serial-dev installed:
//   g++ -O3 -DNDEBUG -I/usr/include/eigen3 -I/usr/include/x86_64-linux-gnu \
//       scripts/blas_kernels.cpp -o /tmp/blas_kernels \
//       -L/usr/lib/x86_64-linux-gnu/openblas-serial -lopenblas && /tmp/blas_kernels
#include <cblas.h>
#include <Eigen/Dense>
#include <chrono>
#include <cstdio>
extern "C" void dpotrf_(const char*, const int*, double*, const int*, int*);
using M = Eigen::MatrixXd;
template <class F>
double tm(F f, int reps) {
  auto t = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count() / reps;
}
int main() {
  const int n = 126, m = 12;
  M A = M::Random(n, n);
  M S = A * A.transpose() + n * M::Identity(n, n);
  M L = S.llt().matrixL();
  M Bfull = M::Random(n, n), C = M::Random(n, n);
  int reps = 2000;
  // GEMM: B(m rows chunk) -= X(m x n) * Y(n x n)^T
  M X = M::Random(n, n);
  double te = tm(
      [&] {
        for (int r0 = 0; r0 < n; r0 += m) {
          int mm = std::min(m, n - r0);
          Bfull.middleRows(r0, mm).noalias() -= X.middleRows(r0, mm) * C.transpose();
        }
      },
      reps);
  double tb = tm(
      [&] {
        for (int r0 = 0; r0 < n; r0 += m) {
          int mm = std::min(m, n - r0);
          cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, mm, n, n, -1.0, X.data() + r0, n,
                      C.data(), n, 1.0, Bfull.data() + r0, n);
        }
      },
      reps);
  double fl = 2.0 * n * n * n;
  std::printf("gemm chunks of %d: eigen %.1f GF/s, openblas %.1f GF/s\n", m, fl / te * 1e-9,
              fl / tb * 1e-9);
  // TRSM: B(m x n) = B L^{-T}
  M B2 = M::Random(n, n);
  te = tm(
      [&] {
        for (int r0 = 0; r0 < n; r0 += m) {
          int mm = std::min(m, n - r0);
          auto Bq = B2.middleRows(r0, mm);
          L.triangularView<Eigen::Lower>().transpose().solveInPlace<Eigen::OnTheRight>(Bq);
        }
      },
      reps);
  tb = tm(
      [&] {
        for (int r0 = 0; r0 < n; r0 += m) {
          int mm = std::min(m, n - r0);
          cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, mm, n, 1.0,
                      L.data(), n, B2.data() + r0, n);
        }
      },
      reps);
  fl = 1.0 * n * n * n;
  std::printf("trsm chunks: eigen %.1f GF/s, openblas %.1f GF/s\n", fl / te * 1e-9, fl / tb * 1e-9);
  // potrf
  M W = S;
  te = tm(
      [&] {
        W = S;
        Eigen::LLT<Eigen::Ref<M>, Eigen::Lower> llt(W);
      },
      reps);
  tb = tm(
      [&] {
        W = S;
        int info, nn = n;
        dpotrf_("L", &nn, W.data(), &nn, &info);
      },
      reps);
  fl = n * n * n / 3.0;
  std::printf("potrf: eigen %.1f GF/s, openblas %.1f GF/s\n", fl / te * 1e-9, fl / tb * 1e-9);
  // whole-block gemm
  te = tm([&] { Bfull.noalias() -= X * C.transpose(); }, reps);
  tb = tm(
      [&] {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, -1.0, X.data(), n, C.data(),
                    n, 1.0, Bfull.data(), n);
      },
      reps);
  fl = 2.0 * n * n * n;
  std::printf("gemm whole: eigen %.1f GF/s, openblas %.1f GF/s\n", fl / te * 1e-9, fl / tb * 1e-9);
}
