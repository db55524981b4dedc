// The estimator's linear algebra, measured once and printed (not a Google Benchmark: one long
// run per size; docs/reconstruction.md "Which sparse solver"): a beam driven at its tip from
// rest (meshes/driven/simulate.toml with A nodes over 1 m and J rows), its exact tip data, and
// the Jacobian (analytic and by central differences), per factorisation of the normal matrix
// N = J^T J the analysis, the numeric factorisation and one solve (the block-banded Cholesky in
// time rows first); then the covariance's diagonal blocks by the selected inverse, and by solves
// (6 per node, extrapolated from 60).
//   build/bench/estimate_linear A J
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <Eigen/CholmodSupport>
#include <Eigen/SparseCholesky>

#include "libfield/estimate/banded_cholesky.hpp"
#include "libfield/estimate/gauss_newton.hpp"
#include "libfield/estimate/selected_inverse.hpp"
#include "libfield/io/case_file.hpp"
#include "libfield/io/case_setup.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/march/time_march.hpp"
#include "libfield/mesh/convected.hpp"

using namespace field;
using G = lie::Se3Cayley;
using SpMat = Eigen::SparseMatrix<double>;
using Clock = std::chrono::steady_clock;

static double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

template <class S>
static void measure(const char* name, const SpMat& N, const Eigen::VectorXd& b) {
  S solver;
  auto t = Clock::now();
  solver.analyzePattern(N);
  const double analyse = since(t);
  t = Clock::now();
  solver.factorize(N);
  const double factor = since(t);
  t = Clock::now();
  const Eigen::VectorXd x = solver.solve(b);
  const double solve = since(t);
  std::printf("  %-28s analyse %7.3f s  factorise %7.3f s  solve %7.4f s  |Nx - b|/|b| = %.1e\n",
              name, analyse, factor, solve, (N * x - b).norm() / b.norm());
}

int main(int argc, char** argv) {
  const int A = argc > 1 ? std::atoi(argv[1]) : 20, J = argc > 2 ? std::atoi(argv[2]) : 1000;
  io::CaseSpec spec = io::load_case(std::string(FIELD_SOURCE_DIR) + "/meshes/driven/simulate.toml");
  spec.A = A;
  spec.ds = 1.0 / A;
  spec.dt = std::min(1.0 / J, 0.8 * spec.ds / 10.0);  // T <= 1 s (motion.csv); c_E dt/ds <= 0.8
  spec.J = J;
  const io::Problem problem(spec);
  const dcel::DiscreteModel<G> model(problem.density, problem.loads, problem.mesh);
  march::FieldRecorder rec(problem.mesh, true);
  march::time_march(model, io::time_march_input<G>(problem), {&rec});
  const mesh::Field& truth = rec.field();
  estimate::TipMeasurements data;
  for (int j = 0; j <= J; ++j) data.pose.push_back(truth(j, 0));
  for (int j = 0; j < J; ++j)
    data.strain.push_back(mesh::convected<G>(truth(j, 0), truth(j, 1), spec.ds));
  estimate::Conditions conditions;
  conditions.first_straight = true;
  conditions.last_at_rest = false;
  const estimate::Problem<G> ls(model, data, conditions, estimate::Weights{});
  std::printf("A = %d, J = %d, dt = %g s: %d unknowns, %d residual rows\n", A, J, spec.dt,
              6 * ls.unknown_count(), 6 * ls.block_count());
  auto t = Clock::now();
  const SpMat Jm = estimate::jacobian(ls, truth, 1e-6, 1);
  const double jac1 = since(t);
  t = Clock::now();
  const SpMat Jm2 = estimate::jacobian(ls, truth, 1e-6, 2);
  const double jac2 = since(t);
  t = Clock::now();
  const SpMat Jfd = estimate::jacobian(ls, truth, 1e-6, 1, false);
  const double jac_fd = since(t);
  t = Clock::now();
  const SpMat Jt = Jm.transpose();
  const SpMat N = Jt * Jm;
  const double product = since(t);
  std::printf(
      "  Jacobian (analytic) %.3f s on 1 thread, %.3f s on 2; by central differences %.3f s "
      "(max difference %.1e of max |J|); J^T J %.3f s; nnz(J) = %lld, nnz(N) = %lld\n",
      jac1, jac2, jac_fd,
      SpMat(Jm - Jfd).coeffs().cwiseAbs().maxCoeff() / Jm.coeffs().cwiseAbs().maxCoeff(), product,
      (long long)Jm.nonZeros(), (long long)N.nonZeros());
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(N.rows());
  std::vector<int> starts;
  for (int k = 0; k < ls.unknown_count(); ++k)
    if (k == 0 || ls.nodes()[k].j != ls.nodes()[k - 1].j) starts.push_back(6 * k);
  starts.push_back(6 * ls.unknown_count());
  estimate::BandedCholesky banded(starts);
  t = Clock::now();
  banded.factorize(N);
  const double banded_factor = since(t);
  t = Clock::now();
  const Eigen::VectorXd xb = banded.solve(b);
  const double banded_solve = since(t);
  std::printf("  %-28s analyse %7.3f s  factorise %7.3f s  solve %7.4f s  |Nx - b|/|b| = %.1e\n",
              "banded Cholesky (time rows)", 0.0, banded_factor, banded_solve,
              (N * xb - b).norm() / b.norm());
  measure<Eigen::CholmodSupernodalLLT<SpMat, Eigen::Lower>>("CHOLMOD supernodal LLT", N, b);
  measure<Eigen::CholmodSimplicialLLT<SpMat, Eigen::Lower>>("CHOLMOD simplicial LLT", N, b);
  measure<Eigen::SimplicialLDLT<SpMat, Eigen::Lower>>("Eigen SimplicialLDLT (AMD)", N, b);
  t = Clock::now();
  const std::vector<Mat6> blocks = estimate::inverse_diagonal_blocks(N);
  const double selected = since(t);
  std::printf("  covariance blocks, selected inverse (Takahashi): %.3f s\n", selected);
  Eigen::CholmodSupernodalLLT<SpMat, Eigen::Lower> llt(N);
  t = Clock::now();
  double check = 0.0;
  for (int k = 0; k < 10; ++k)
    for (int i = 0; i < 6; ++i) {
      Eigen::VectorXd e = Eigen::VectorXd::Zero(N.rows());
      e(6 * k + i) = 1.0;
      const Eigen::VectorXd x = llt.solve(e);
      check = std::max(check, std::abs(x(6 * k + i) - blocks[k](i, i)) / blocks[k](i, i));
    }
  const double per_solve = since(t) / 60.0;
  std::printf(
      "  covariance blocks by solves: %.4f s per solve, %.1f s for all %d (extrapolated); "
      "relative difference to the selected inverse %.1e\n",
      per_solve, per_solve * N.rows(), int(N.rows()), check);
  return 0;
}
