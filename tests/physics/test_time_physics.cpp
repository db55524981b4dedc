// Whole-run physics of the TIME-MARCH (theory §6.1, §1.4, theory §7.2, §8, theory §10, §11):
// total momentum and Noether balance, point-load impulse, energy behaviour, the free rigid body
// (A = 1) against the torque-free symmetric top, convergence in dt, exact solutions, and marched
// fields satisfying the equations (cantilever with gravity and a tip load).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "libfield/dcel/residual.hpp"
#include "libfield/march/field_recorder.hpp"
#include "libfield/mesh/convected.hpp"
#include "libfield/noether/balance.hpp"
#include "libfield/noether/energies.hpp"
#include "tests/support/cases.hpp"
#include "tests/support/groups.hpp"

namespace field::march {
namespace {

double inf(const Vec6& v) {
  return v.cwiseAbs().maxCoeff();
}

// ---------------------------------------------------------------------------------------------
// 1. Total momentum and Noether balance (theory §7.2, §10 iii).

TEST(TimePhysics, FreeFlightConservesTotalMomentumAndNoetherBalance) {
  const test::FreeFlight ff;  // J = 400
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const test::RecordedRun r = test::record_time_march(model, ff.input());
  ASSERT_TRUE(r.result.completed);
  const noether::MomentumMaps maps(model, r.field);
  double scale0 = 0.0;
  for (int a = 0; a < ff.A; ++a) scale0 += inf(maps.M(0, a));
  scale0 *= ff.ds;
  const Vec6 P0 = noether::total_time_momentum(maps, 0);
  double drift = 0.0;
  for (int j = 1; j < ff.J; ++j)
    drift = std::max(drift, inf(noether::total_time_momentum(maps, j) - P0));
  EXPECT_LE(drift / scale0, 1e-12) << "P drift " << drift / scale0;
  RecordProperty("P_drift", std::to_string(drift / scale0));
  std::printf("[free_flight] total momentum drift %.3e (relative to ds sum|M_0|)\n",
              drift / scale0);

  test::Random rnd(2024);
  double worst = 0.0;
  for (int k = 0; k < 50; ++k) {
    int j1 = static_cast<int>(rnd.uniform(1, ff.J - 1)),
        j2 = static_cast<int>(rnd.uniform(1, ff.J - 1));
    int a1 = static_cast<int>(rnd.uniform(0, ff.A + 1)),
        a2 = static_cast<int>(rnd.uniform(0, ff.A + 1));
    j1 = std::clamp(j1, 1, ff.J - 1), j2 = std::clamp(j2, 1, ff.J - 1);
    a1 = std::clamp(a1, 0, ff.A), a2 = std::clamp(a2, 0, ff.A);
    const noether::Rectangle R{std::min(j1, j2), std::max(j1, j2), std::min(a1, a2),
                               std::max(a1, a2)};
    const noether::BalanceResult b = noether::noether_balance(maps, R);
    worst = std::max(worst, b.relative);
    EXPECT_LE(b.relative, 1e-12) << "R = [" << R.j1 << "," << R.j2 << "]x[" << R.a1 << "," << R.a2
                                 << "]";
  }
  std::printf("[free_flight] Noether balance, 50 random rectangles: max relative %.3e\n", worst);
}

// ---------------------------------------------------------------------------------------------
// 2. Point-load impulse (theory §1.4): P_j - P_{j-1} = dt * spatial wrench of the point load on row
// j.

model::Loads tip_point_load(int a, model::LoadFrame frame = model::LoadFrame::world,
                            bool end = false) {
  Vec6 w0, w1, w2;
  w0 << 0.0, 0.0, 0.0, 0.0, 0.0, 0.0;
  w1 << 0.05, -0.02, 0.03, 0.4, -0.2, 0.3;
  w2 << -0.03, 0.04, 0.01, -0.1, 0.5, 0.2;
  model::Loads loads;
  loads.point.push_back({a, frame, model::TimeTable({0.0, 0.2, 0.5}, {w0, w1, w2}), end});
  return loads;
}

// P_j - P_{j-1} = dt W_j (spatial) for a point load at node a, to round-off; returns the worst
// relative error and checks that the load acts. `end`: the end wrench of theory §4.6 on a = A,
// whose spatial wrench is the sum of its halves on nodes A-1 and A.
double worst_impulse_error(int a, model::LoadFrame frame, bool end = false) {
  test::FreeFlight ff;
  ff.J = 100;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads = tip_point_load(a, frame, end);
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const test::RecordedRun r = test::record_time_march(model, ff.input());
  EXPECT_TRUE(r.result.completed);
  const noether::MomentumMaps maps(model, r.field);
  double worst = 0.0, max_impulse = 0.0;
  for (int j = 1; j < ff.J; ++j) {
    Vec6 W = Vec6::Zero();
    for (int b = end ? a - 1 : a; b <= a; ++b) {
      const lie::SE3& g = r.field(j, b);
      W += lie::spatial_covector(g, loads.point_body(g, b, ff.mesh().t(j)));
    }
    if (end && frame == model::LoadFrame::world) {  // the halves add up to the force F (§4.6)
      EXPECT_LE((W.tail<3>() - loads.point[0].wrench.at(ff.mesh().t(j)).tail<3>()).norm(), 1e-14);
    }
    const Vec6 dP =
        noether::total_time_momentum(maps, j) - noether::total_time_momentum(maps, j - 1);
    const double scale = std::max(inf(noether::total_time_momentum(maps, j)), ff.dt * inf(W));
    const double err = inf(dP - ff.dt * W) / scale;
    worst = std::max(worst, err);
    max_impulse = std::max(max_impulse, ff.dt * inf(W));
    EXPECT_LE(err, 1e-12) << "node " << a << " row " << j;
  }
  EXPECT_GT(max_impulse, 1e-4);  // the load does act
  std::printf("[point load at a = %d, %s] max |dP - dt W| relative %.3e (max impulse %.3e)\n", a,
              frame == model::LoadFrame::world ? "world" : "body", worst, max_impulse);
  return worst;
}

TEST(TimePhysics, PointLoadImpulseChangesTotalMomentumExactly) {
  worst_impulse_error(test::FreeFlight{}.A - 1, model::LoadFrame::world);
}

// The end wrench at the free end (theory §4.6): the ghost takes lambda~ = -W/2, node A-1 the
// other half, and the total momentum still changes by exactly the applied impulse, in the world
// and the follower frame; so does a plain point load on the ghost node A (lambda~ = -W).
TEST(TimePhysics, EndWrenchImpulseChangesTotalMomentumExactly) {
  const int A = test::FreeFlight{}.A;
  for (const bool end : {true, false}) {
    worst_impulse_error(A, model::LoadFrame::world, end);
    worst_impulse_error(A, model::LoadFrame::body, end);
  }
}

TEST(TimePhysics, PointLoadAndGravityRowBalance) {
  test::FreeFlight ff;
  ff.J = 100;
  const model::BeamDensity beam = test::soft_beam(Vec3(0, 0, -9.81));
  const model::Loads loads = tip_point_load(ff.A - 1);
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const test::RecordedRun r = test::record_time_march(model, ff.input());
  ASSERT_TRUE(r.result.completed);
  const noether::MomentumMaps maps(model, r.field);
  double worst = 0.0;
  for (int j = 1; j < ff.J; ++j) {
    const noether::BalanceResult b = noether::noether_balance(maps, {j, j, 0, ff.A});
    worst = std::max(worst, b.relative);
    EXPECT_LE(b.relative, 1e-12) << "row " << j;
    // The same by hand: P_j - P_{j-1} = dt ds sum_a F_j^a + dt sum_a W_j^a.
    Vec6 impulse = Vec6::Zero();
    for (int a = 0; a < ff.A; ++a) impulse += ff.dt * ff.ds * maps.F(j, a) + ff.dt * maps.W(j, a);
    const Vec6 dP =
        noether::total_time_momentum(maps, j) - noether::total_time_momentum(maps, j - 1);
    EXPECT_LE(inf(dP - impulse) / inf(noether::total_time_momentum(maps, j)), 1e-12) << "row " << j;
  }
  std::printf("[point load + gravity] row balance max relative %.3e\n", worst);
}

// ---------------------------------------------------------------------------------------------
// 3. Energy behaviour (theory §8, §10 iv).

std::vector<double> free_flight_energies(int J, double dt,
                                         const model::BeamDensity& beam = test::soft_beam()) {
  test::FreeFlight ff;
  ff.J = J;
  ff.dt = dt;
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const test::RecordedRun r = test::record_time_march(model, ff.input());
  EXPECT_TRUE(r.result.completed);
  return noether::time_energies(model, r.field);
}

// A coupled 6x6 law (theory §1.5) on the general path: the energy stays within §10 iv's
// tolerance with no drift, its amplitude O(dt^2), and the total momentum is conserved (§10 iii).
TEST(TimePhysics, CoupledLawFreeFlightConservesEnergyAndMomentum) {
  const model::BeamDensity beam = test::coupled_beam();
  ASSERT_FALSE(beam.diagonal());
  // T = 2 s at dt = 2.5 and 1.25 ms (at 5 ms the coupling's faster waves give 2.4e-4).
  const std::vector<double> E1 = free_flight_energies(800, 0.0025, beam);
  const std::vector<double> E2 = free_flight_energies(1600, 0.00125, beam);
  double amp[2];
  for (int k = 0; k < 2; ++k) {
    const std::vector<double>& E = k ? E2 : E1;
    double dev = 0.0;
    for (double e : E) dev = std::max(dev, std::abs(e - E[0]) / std::abs(E[0]));
    const auto [lo, hi] = std::minmax_element(E.begin(), E.end());
    amp[k] = *hi - *lo;
    std::printf("[coupled energy dt/%d] max|E-E0|/E0 %.3e\n", k + 1, dev);
    EXPECT_LT(dev, 2e-4);
  }
  std::printf("[coupled energy] amplitude ratio dt / (dt/2) = %.3f\n", amp[0] / amp[1]);
  EXPECT_GT(amp[0] / amp[1], 3.0);
  EXPECT_LT(amp[0] / amp[1], 5.0);

  const test::FreeFlight ff;
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const test::RecordedRun r = test::record_time_march(model, ff.input());
  ASSERT_TRUE(r.result.completed);
  const noether::MomentumMaps maps(model, r.field);
  double scale0 = 0.0;
  for (int a = 0; a < ff.A; ++a) scale0 += inf(maps.M(0, a));
  scale0 *= ff.ds;
  const Vec6 P0 = noether::total_time_momentum(maps, 0);
  double drift = 0.0;
  for (int j = 1; j < ff.J; ++j)
    drift = std::max(drift, inf(noether::total_time_momentum(maps, j) - P0));
  EXPECT_LE(drift / scale0, 1e-12) << "P drift " << drift / scale0;
}

// A 6x6 law given with zero off-diagonals is the diagonal law: the same bits (lanes serve it).
TEST(TimePhysics, MatrixLawWithZeroCouplingGivesTheDiagonalLawsBits) {
  const model::BeamDensity diagonal = test::soft_beam();
  const model::BeamDensity matrix(model::SectionLaw::matrices(diagonal.law().C, diagonal.law().J));
  ASSERT_TRUE(matrix.diagonal());
  const test::FreeFlight ff;
  const model::Loads loads;
  const dcel::DiscreteModel m1(diagonal, loads, lie::Se3Cayley{}, ff.mesh());
  const dcel::DiscreteModel m2(matrix, loads, lie::Se3Cayley{}, ff.mesh());
  const test::RecordedRun r1 = test::record_time_march(m1, ff.input());
  const test::RecordedRun r2 = test::record_time_march(m2, ff.input());
  ASSERT_TRUE(r1.result.completed && r2.result.completed);
  for (int j = 0; j <= ff.J; ++j)
    for (int a = 0; a <= ff.A; ++a) {
      ASSERT_EQ(r1.field(j, a).R, r2.field(j, a).R) << j << " " << a;
      ASSERT_EQ(r1.field(j, a).r, r2.field(j, a).r) << j << " " << a;
    }
}

TEST(TimePhysics, FreeFlightEnergyOscillatesWithAmplitudeOrderDt2) {
  // The theory's 20 s run (theory §10 iv): 4000 and 8000 steps (cheap: ~10 nodes per row).
  const std::vector<double> E1 = free_flight_energies(4000, 0.005);
  const std::vector<double> E2 = free_flight_energies(8000, 0.0025);
  auto stats = [](const std::vector<double>& E, const char* name) {
    double dev = 0.0;
    for (double e : E) dev = std::max(dev, std::abs(e - E[0]) / std::abs(E[0]));
    const auto [lo, hi] = std::minmax_element(E.begin(), E.end());
    const double amp = *hi - *lo;
    const size_t n = E.size() / 10;
    double first = 0.0, last = 0.0;
    for (size_t k = 0; k < n; ++k) first += E[k], last += E[E.size() - n + k];
    const double shift = std::abs(last - first) / n;
    std::printf("[energy %s] max|E-E0|/E0 %.3e, amplitude %.3e, mean shift first/last 10%% %.3e\n",
                name, dev, amp, shift);
    EXPECT_LT(dev, 2e-4) << name;
    EXPECT_LT(shift, 0.1 * amp) << name << ": energy drifts";
    return std::array<double, 2>{amp, shift};
  };
  const auto s1 = stats(E1, "dt");
  const auto s2 = stats(E2, "dt/2");
  const double ratio = s1[0] / s2[0];
  std::printf("[energy] amplitude ratio dt / (dt/2) = %.3f\n", ratio);
  EXPECT_GT(ratio, 3.0);
  EXPECT_LT(ratio, 5.0);
}

// ---------------------------------------------------------------------------------------------
// 4. A = 1: free rigid body vs the torque-free symmetric top (theory §10 vii).

template <class G>
double rigid_body_error(double dt) {
  const double T = 3.0, ds = 1.0;
  const int J = static_cast<int>(std::lround(T / dt));
  // Square section: J = rho diag(I1, I1, 2 I1, A, A, A), the symmetric top with I3 = 2 I1.
  const model::BeamDensity beam = test::soft_beam();
  EXPECT_DOUBLE_EQ(beam.inertia()(2), 2.0 * beam.inertia()(0));
  EXPECT_DOUBLE_EQ(beam.inertia()(1), beam.inertia()(0));
  const model::Loads loads;
  const mesh::SpacetimeMesh m(J, 1, dt, ds);
  const dcel::DiscreteModel model(beam, loads, G{}, m);
  TimeMarchInput in;
  in.row0 = {lie::SE3(), lie::SE3{Mat3::Identity(), Vec3(0, 0, ds)}};
  Vec6 xi0;
  xi0 << 0.7, 0.0, 2.0, 0.0, 0.0, 0.0;
  in.velocities = {xi0, xi0};
  const test::RecordedRun r = test::record_time_march(model, in);
  EXPECT_TRUE(r.result.completed);
  // Euler: I1 w1' = (I2 - I3) w2 w3 = -I1 w2 w3, I1 w2' = (I3 - I1) w3 w1 = I1 w3 w1, w3' = 0:
  // (w1, w2) = w0 (cos w3 t, sin w3 t), w3 = 2; v = R^T rdot = 0.
  double err = 0.0;
  for (int j = 0; j < J; ++j) {
    const double t = (j + 0.5) * dt;
    const Vec6 xi = mesh::convected<G>(r.field(j, 0), r.field(j + 1, 0), dt);
    Vec6 exact;
    exact << 0.7 * std::cos(2.0 * t), 0.7 * std::sin(2.0 * t), 2.0, 0.0, 0.0, 0.0;
    err = std::max(err, inf(xi - exact));
  }
  return err;
}

TEST(TimePhysics, SingleNodeIsTheTorqueFreeSymmetricTop) {
  const auto for_group = [&](auto group) {  // G = lie::Se3Cayley, lie::Se3Exp
    using G = decltype(group);
    const double e1 = rigid_body_error<G>(0.02), e2 = rigid_body_error<G>(0.01),
                 e3 = rigid_body_error<G>(0.005);
    const double o1 = std::log2(e1 / e2), o2 = std::log2(e2 / e3);
    std::printf("[rigid body %s] errors %.3e %.3e %.3e, orders %.3f %.3f\n",
                lie::retraction_name<G>().c_str(), e1, e2, e3, o1, o2);
    EXPECT_GE(o1, 1.9);
    EXPECT_GE(o2, 1.9);
    EXPECT_LT(e1, 0.05);  // the right solution, not merely a converging one
  };
  for_group(lie::Se3Cayley{});
  for_group(lie::Se3Exp{});
}

// ---------------------------------------------------------------------------------------------
// 5. Convergence in dt only (theory §10 v a), short horizon T = 0.1 s.

mesh::Field free_flight_field(double dt, double T) {
  test::FreeFlight ff;
  ff.dt = dt;
  ff.J = static_cast<int>(std::lround(T / dt));
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, ff.mesh());
  const test::RecordedRun r = test::record_time_march(model, ff.input());
  EXPECT_TRUE(r.result.completed);
  return r.field;
}

TEST(TimePhysics, FreeFlightConvergesSecondOrderInDt) {
  const double T = 0.1, dt_ref = 0.0000625;
  const mesh::Field ref = free_flight_field(dt_ref, T);
  const double dts[] = {0.002, 0.001, 0.0005};
  double errs[3];
  for (int k = 0; k < 3; ++k) {
    const mesh::Field f = free_flight_field(dts[k], T);
    const int stride = static_cast<int>(std::lround(dts[k] / dt_ref));
    const int step = static_cast<int>(std::lround(0.002 / dts[k]));  // common times: every 2 ms
    double e = 0.0;
    for (int j = step; j <= f.mesh().J(); j += step)
      for (int a = 0; a < f.mesh().A(); ++a)
        e = std::max(e, (f(j, a).r - ref(j * stride, a).r).cwiseAbs().maxCoeff());
    errs[k] = e;
  }
  const double o1 = std::log2(errs[0] / errs[1]), o2 = std::log2(errs[1] / errs[2]);
  std::printf("[dt convergence] position errors %.3e %.3e %.3e, orders %.3f %.3f\n", errs[0],
              errs[1], errs[2], o1, o2);
  EXPECT_GE(o1, 1.9);
  EXPECT_GE(o2, 1.9);
}

// ---------------------------------------------------------------------------------------------
// 6. Exact solutions (theory §11.2, §10 vii).

template <class G>
class TimePhysicsExact : public ::testing::Test {
 protected:
};
TYPED_TEST_SUITE(TimePhysicsExact, test::Se3Groups, test::GroupNames);

TYPED_TEST(TimePhysicsExact, StaticArcWithPrescribedEndsStaysStatic) {
  const int J = 200, A = 10;
  const double dt = 0.005, ds = 0.1;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const mesh::SpacetimeMesh m(J, A, dt, ds);
  const dcel::DiscreteModel model(beam, loads, TypeParam{}, m);
  Vec6 eta_bar;
  eta_bar << 2, 0, 0, 0, 0, 1;
  const lie::SE3 step = TypeParam::tau(ds * eta_bar);
  TimeMarchInput in;
  lie::SE3 g;
  for (int a = 0; a <= A; ++a) {
    in.row0.push_back(g);
    g = g * step;
  }
  in.row1 = in.row0;
  in.left = SideSpec::clamped(in.row0.front());
  in.right = SideSpec::clamped(in.row0.back());
  const test::RecordedRun r = test::record_time_march(model, in);
  ASSERT_TRUE(r.result.completed);
  double err = 0.0;
  for (int j = 0; j <= J; ++j)
    for (int a = 0; a <= A; ++a)
      err = std::max(err, std::max((r.field(j, a).R - in.row0[a].R).cwiseAbs().maxCoeff(),
                                   (r.field(j, a).r - in.row0[a].r).cwiseAbs().maxCoeff()));
  std::printf("[static arc %s] max deviation %.3e\n", lie::retraction_name<TypeParam>().c_str(),
              err);
  EXPECT_LE(err, 1e-12);
  const std::vector<double> E = noether::time_energies(model, r.field);
  if (std::is_same_v<TypeParam, lie::Se3Cayley>) {
    EXPECT_NEAR(E[0], 1.6666666666666672, 1e-10 * 1.67);
  }
}

TYPED_TEST(TimePhysicsExact, RigidSpinIsReproduced) {
  const int J = 200, A = 6;
  const double dt = 0.005, ds = 0.1;
  const model::BeamDensity beam = test::soft_beam();
  const model::Loads loads;
  const mesh::SpacetimeMesh m(J, A, dt, ds);
  const dcel::DiscreteModel model(beam, loads, TypeParam{}, m);
  Vec6 xi;
  xi << 0, 0, 3, 0, 0, 0.3;
  const lie::SE3 step = TypeParam::tau(dt * xi);
  TimeMarchInput in;
  for (int a = 0; a <= A; ++a) {
    in.row0.push_back(lie::SE3{Mat3::Identity(), Vec3(0, 0, a * ds)});
    in.row1.push_back(in.row0.back() * step);
  }
  const test::RecordedRun r = test::record_time_march(model, in);
  ASSERT_TRUE(r.result.completed);
  double err = 0.0;
  for (int a = 0; a <= A; ++a) {
    lie::SE3 g = in.row0[a];
    for (int j = 0; j <= J; ++j) {
      err = std::max(err, std::max((r.field(j, a).R - g.R).cwiseAbs().maxCoeff(),
                                   (r.field(j, a).r - g.r).cwiseAbs().maxCoeff()));
      g = g * step;
    }
  }
  std::printf("[rigid spin %s] max deviation %.3e\n", lie::retraction_name<TypeParam>().c_str(),
              err);
  EXPECT_LE(err, 1e-11);
}

// ---------------------------------------------------------------------------------------------
// 7. Cantilever with gravity and a tip point load satisfies the equations (theory §11.3, §10 ii).

TEST(TimePhysics, CantileverWithGravityAndTipLoadSatisfiesTheEquations) {
  test::CantileverGravity cg;  // theory §11.3 with J = 200 and a tip load
  cg.J = 200;
  const int A = cg.A, J = cg.J;
  const model::BeamDensity beam = test::CantileverGravity::beam();
  model::Loads loads;
  Vec6 w0, w1;
  w0 << 0, 0, 0, 0, 0, 0;
  w1 << 0.5, -0.3, 0.2, 2.0, 1.0, -5.0;
  loads.point.push_back({A - 1, model::LoadFrame::world, model::TimeTable({0.0, 0.05}, {w0, w1})});
  const dcel::DiscreteModel model(beam, loads, lie::Se3Cayley{}, cg.mesh());
  const TimeMarchInput in = cg.input();
  const test::RecordedRun r = test::record_time_march(model, in);
  ASSERT_TRUE(r.result.completed);
  // The tip has moved (gravity and load act) and the march stayed on the equations.
  EXPECT_GT((r.field(J, A - 1).r - in.row0[A - 1].r).norm(), 1e-4);
  const dcel::ResidualReport rep = dcel::residual_report(model, r.field, time_boundary(in));
  std::printf("[cantilever] residual relative %.3e over %lld nodes, tip displacement %.3e\n",
              rep.relative, rep.nodes, (r.field(J, A - 1).r - in.row0[A - 1].r).norm());
  EXPECT_GT(rep.nodes, 0);
  EXPECT_LE(rep.relative, 1e-11);
  // Noether balance with gravity, a clamp and a point load, on rectangles with a >= 1.
  const noether::MomentumMaps maps(model, r.field);
  test::Random rnd(7);
  double worst = 0.0;
  for (int k = 0; k < 20; ++k) {
    int j1 = static_cast<int>(rnd.uniform(1, J)), j2 = static_cast<int>(rnd.uniform(1, J));
    int a1 = static_cast<int>(rnd.uniform(1, A + 1)), a2 = static_cast<int>(rnd.uniform(1, A + 1));
    const noether::Rectangle R{std::min(j1, j2), std::min(std::max(j1, j2), J - 1),
                               std::min(a1, a2), std::min(std::max(a1, a2), A)};
    const double rel = noether::noether_balance(maps, R).relative;
    worst = std::max(worst, rel);
    EXPECT_LE(rel, 1e-12);
  }
  std::printf("[cantilever] Noether balance (a >= 1) max relative %.3e\n", worst);
}

}  // namespace
}  // namespace field::march
