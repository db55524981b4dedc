// Free vibration of a cantilever, meshes/cantilever_vibration (docs/validation/
// cantilever_vibration.md): the shipped case at A = 20 and 40 is marched (theory §6.1), the first
// three bending frequencies are fitted to its tip's motion and converge to the exact Timoshenko
// frequencies from above at order 2 in ds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "libfield/march/time_march.hpp"
#include "tests/validation/validation_case.hpp"

namespace field {
namespace {

// The exact Timoshenko frequencies of the case's beam [rad/s]: the roots of the clamped-free
// frequency determinant, scripts/accuracy_vs_time.py (checked there against a shooting solution
// to 2e-12, ctest accuracy_vs_time_analysis). Five are fitted (the uniform start excites every
// mode), the first three are compared.
const std::vector<double> kTimoshenko = {0.438896989101, 2.7282069095, 7.54191764159, 14.51575402,
                                         23.46968131};

// The x coordinate of node 0 (the tip, s = ds/2 from the free end) of every row.
class TipRecorder : public march::SlabObserver {
 public:
  std::vector<double> x;
  void slab(int, const std::vector<lie::SE3>& row, const march::SlabStats&) override {
    x.push_back(row[0].r.x());
  }
};

// Frequencies of x(t) = c + sum_k (a_k cos w_k t + b_k sin w_k t), by variable projection:
// Gauss-Newton on the frequencies with the amplitudes solved linearly (the fit of
// scripts/accuracy_vs_time.py).
Eigen::VectorXd fit_frequencies(const Eigen::VectorXd& t, const Eigen::VectorXd& x,
                                Eigen::VectorXd w) {
  const Eigen::ArrayXd tc = t.array() - t.mean();
  const Eigen::Index m = t.size(), n = w.size();
  for (int iteration = 0; iteration < 50; ++iteration) {
    Eigen::MatrixXd D(m, 1 + 2 * n);
    D.col(0).setOnes();
    for (Eigen::Index k = 0; k < n; ++k) {
      D.col(1 + 2 * k) = (w[k] * tc).cos().matrix();
      D.col(2 + 2 * k) = (w[k] * tc).sin().matrix();
    }
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(D);
    const Eigen::VectorXd coef = qr.solve(x);
    const Eigen::VectorXd residual = x - D * coef;
    Eigen::MatrixXd Jw(m, n);
    for (Eigen::Index k = 0; k < n; ++k)
      Jw.col(k) =
          (tc * (-coef[1 + 2 * k] * (w[k] * tc).sin() + coef[2 + 2 * k] * (w[k] * tc).cos()))
              .matrix();
    const Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(m, 1 + 2 * n);
    const Eigen::MatrixXd Jp = Jw - Q * (Q.transpose() * Jw);
    const Eigen::VectorXd step = Jp.colPivHouseholderQr().solve(residual);
    w += step;
    if ((step.array().abs() <= 1e-13 * w.array().abs()).all()) break;
  }
  return w;
}

// The first three frequencies of the shipped case with A segments, its duration T = 43.05 s and
// dt at 0.84 of the stable limit min(ds / c_E, 2 / omega_c) as in the shipped case (theory §6.4).
std::vector<double> frequencies(int A) {
  const double ds = 1.0 / (A + 0.5), T = 43.05;
  const double c_E = std::sqrt(1e5 / 1000.0);  // E / rho
  const double R = 0.025, k = 27.0 / 28.0, G = 1e5 / 2.7;
  const double omega_c = std::sqrt(k * G * M_PI * R * R / (1000.0 * M_PI * std::pow(R, 4) / 4.0));
  const int J = static_cast<int>(std::ceil(T / (0.84 * std::min(ds / c_E, 2.0 / omega_c))));
  const io::CaseSpec spec =
      test::shipped_case("cantilever_vibration", {{"A", std::to_string(A)},
                                                  {"ds", io::format_double(ds)},
                                                  {"dt", io::format_double(T / J)},
                                                  {"J", std::to_string(J)}});
  const io::Problem problem(spec);
  TipRecorder tip;
  const march::MarchResult r = lie::with_group(spec.retraction, [&](auto group) {
    using Group = decltype(group);
    return march::time_march(problem.model<Group>(), io::time_march_input<Group>(problem), {&tip});
  });
  EXPECT_TRUE(r.completed);
  Eigen::VectorXd t(tip.x.size()), x(tip.x.size());
  for (size_t j = 0; j < tip.x.size(); ++j) t[j] = j * spec.dt, x[j] = tip.x[j];
  const Eigen::VectorXd w =
      fit_frequencies(t, x, Eigen::Map<const Eigen::VectorXd>(kTimoshenko.data(), 5));
  return {w[0], w[1], w[2]};
}

// Errors at A = 20 and 40 (1.0e-3, 5.0e-3, 1.0e-2 and 2.6e-4, 1.3e-3, 2.6e-3 measured): every
// frequency above the exact one and the observed order log2(e20 / e40) in [1.8, 2.2] (2.01, 2.01,
// 2.03 measured; the discretisation is second order in ds and dt, theory §6.1, and dt's part is
// below 1e-6 here, docs/validation/cantilever_vibration.md). At A = 10 the fit of the fifth mode
// (23.5 rad/s, 2.5 segments per half wave) is unreliable and can pull the third away.
TEST(CantileverVibration, FirstThreeFrequenciesConvergeAtOrderTwoToTimoshenko) {
  const std::vector<double> w20 = frequencies(20), w40 = frequencies(40);
  for (int n = 0; n < 3; ++n) {
    const double e20 = w20[n] / kTimoshenko[n] - 1.0, e40 = w40[n] / kTimoshenko[n] - 1.0;
    EXPECT_GT(e40, 0.0) << "mode " << n + 1;
    const double order = std::log2(e20 / e40);
    EXPECT_GE(order, 1.8) << "mode " << n + 1 << ": errors " << e20 << ", " << e40;
    EXPECT_LE(order, 2.2) << "mode " << n + 1 << ": errors " << e20 << ", " << e40;
  }
}

}  // namespace
}  // namespace field
