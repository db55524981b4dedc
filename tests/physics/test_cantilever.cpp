// cantilever_gravity, theory §11.3: a clamped-free beam falling under its weight from rest.
// Regression numbers of this implementation (positions 1e-9, energies 1e-10 relative, momenta
// 1e-11 absolute, as theory §11 asks of a re-implementation; theory §11 publishes no reference
// numbers for it), the Noether balance with gravity and the clamp (theory §7.2, §10 iii) and the
// energy: bounded, no drift (theory §8, §10 iv).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "libfield/dcel/residual.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/noether/balance.hpp"
#include "libfield/noether/slab_diagnostics.hpp"
#include "tests/support/cases.hpp"

namespace field::march {
namespace {

double inf(const Vec6& v) {
  return v.cwiseAbs().maxCoeff();
}

struct CantileverRun {
  MarchResult result;
  std::vector<noether::SlabRecord> rows;
};

/// The case with J rows, streamed through SlabDiagnostics (and `extra` observers).
template <class G>
CantileverRun run_cantilever(const dcel::DiscreteModel<G>& model, const TimeMarchInput& in,
                             std::vector<SlabObserver*> extra = {}) {
  CantileverRun run;
  noether::SlabDiagnostics diagnostics(
      model, noether::SlabAxis::row, time_boundary(in),
      [&run](const noether::SlabRecord& d) { run.rows.push_back(d); });
  extra.push_back(&diagnostics);
  run.result = time_march(model, in, extra);
  return run;
}

TEST(Cantilever, RegressionNumbersAndNoetherBalance) {
  const test::CantileverGravity cg;  // J = 2000, A = 10, T = 1 s
  const model::BeamDensity beam = test::CantileverGravity::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, cg.mesh());
  const TimeMarchInput in = cg.input();
  FieldRecorder recorder(model.mesh(), true);
  const CantileverRun run = run_cantilever(model, in, {&recorder});
  ASSERT_TRUE(run.result.completed);
  ASSERT_EQ(static_cast<int>(run.rows.size()), cg.J);
  const mesh::Field& f = recorder.field();
  const int J = cg.J, A = cg.A;

  // Last massive node a = A-1 (s = L - ds/2) and the ghost a = A (s = L + ds/2) at t = T; the
  // motion stays in the (e1, e3) plane, so y and the quaternion's x, z vanish exactly.
  EXPECT_LT(
      (f(J, A - 1).r - Vec3(0.91626070815336502, 0.0, -0.22334797097338516)).cwiseAbs().maxCoeff(),
      1e-9);
  EXPECT_LT((f(J, A).r - Vec3(1.0158035174074862, 0.0, -0.25757605207312045)).cwiseAbs().maxCoeff(),
            1e-9);
  EXPECT_LT((f(J / 2, A - 1).r - Vec3(0.9435445855211767, 0.0, -0.079815584268825776))
                .cwiseAbs()
                .maxCoeff(),
            1e-9);
  EXPECT_LT((f(J, A - 1).quat() - Vec4(0.58087573092379663, 0.0, 0.81399225132905595, 0.0))
                .cwiseAbs()
                .maxCoeff(),
            1e-9);

  // Energy (with the potential Pi = rho A_c gamma r_3, zero at the start): E_0 and the range.
  // E_j is a difference of kinetic (up to K_max = 2.86 J) and potential (down to -11.1 J)
  // energies, so its range is compared with a tolerance of 1e-10 K_max.
  const double K_max = 2.856;
  double lo = run.rows[0].energy, hi = lo, balance = 0.0;
  for (const auto& d : run.rows) {
    lo = std::min(lo, d.energy);
    hi = std::max(hi, d.energy);
    if (d.index >= 1) balance = std::max(balance, d.balance);
  }
  EXPECT_NEAR(run.rows[0].energy, -2.8358681712581241e-05, 1e-10 * 2.8358681712581241e-05);
  EXPECT_NEAR(hi - lo, 5.2792056234149111e-05, 1e-10 * K_max);
  Vec6 P_last;
  P_last << 0.0, -3.2591286528243915, 0.0, 1.0923341898500831, 0.0, 4.5608757599459118;
  EXPECT_LT(inf(run.rows.back().momentum - P_last), 1e-11);

  // The march is on the equations, and the Noether balance holds with gravity and the clamp:
  // rows [j, j] x [1, A] streamed (P changes by the clamp flux dt N_j^0 and the weight's impulse),
  // and the whole-field Res(R) on random rectangles with a >= 1.
  const dcel::ResidualReport rep = dcel::residual_report(model, f, time_boundary(in));
  EXPECT_LT(rep.relative, 1e-11);
  EXPECT_LT(balance, 1e-12);
  const noether::MomentumMaps maps(model, f);
  double worst = 0.0;
  test::Random rnd(311);
  for (int k = 0; k < 50; ++k) {
    const int j1 = static_cast<int>(rnd.uniform(1, J - 1)),
              j2 = static_cast<int>(rnd.uniform(1, J - 1));
    const int a1 = static_cast<int>(rnd.uniform(1, A)), a2 = static_cast<int>(rnd.uniform(1, A));
    const noether::Rectangle R{std::min(j1, j2), std::max(j1, j2), std::min(a1, a2),
                               std::max(a1, a2)};
    worst = std::max(worst, noether::noether_balance(maps, R).relative);
  }
  EXPECT_LT(worst, 1e-12);
  // The clamp does work: without its flux the rows would not balance.
  double clamp_flux = 0.0;
  for (int j = 1; j < J; ++j) clamp_flux = std::max(clamp_flux, inf(cg.dt * maps.N(j, 0)));
  EXPECT_GT(clamp_flux, 1e-3);
  std::printf(
      "[cantilever_gravity] tip (%.12f, %.12f) at T, E_0 %.6e, E range %.6e, "
      "row balance %.2e (streamed) %.2e (whole field), residual %.2e\n",
      f(J, A - 1).r(0), f(J, A - 1).r(2), run.rows[0].energy, hi - lo, balance, worst,
      rep.relative);
}

TEST(Cantilever, EnergyIsBoundedWithoutDrift) {
  // 3 s (5 oscillation periods of ~0.6 s), streamed: memory does not grow with J.
  test::CantileverGravity cg;
  cg.J = 6000;
  const model::BeamDensity beam = test::CantileverGravity::beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, cg.mesh());
  const CantileverRun run = run_cantilever(model, cg.input());
  ASSERT_TRUE(run.result.completed);
  double lo = run.rows[0].energy, hi = lo, first = 0.0, second = 0.0;
  const size_t half = run.rows.size() / 2;
  for (size_t k = 0; k < run.rows.size(); ++k) {
    lo = std::min(lo, run.rows[k].energy);
    hi = std::max(hi, run.rows[k].energy);
    (k < half ? first : second) += run.rows[k].energy / half;
  }
  const double range = hi - lo;
  std::printf(
      "[cantilever_gravity] 3 s: E range %.4e (1 s: 5.279e-05), mean shift between the "
      "halves %.3e\n",
      range, second - first);
  // Bounded: the range over 3 s is that of the first second within 10 % (measured 5.44e-5), and
  // tiny against the energy exchanged (K_max = 2.86 J).
  EXPECT_LT(range, 1.1 * 5.2792056234149111e-05);
  EXPECT_LT(range, 1e-4 * 2.856);
  // No drift: the means of the two halves (2.5 periods each) agree to a tenth of the range
  // (measured 9e-8, i.e. 0.002 of the range).
  EXPECT_LT(std::abs(second - first), 0.1 * range);
}

}  // namespace
}  // namespace field::march
