// The Newmark family and its variational members (docs/mechanics.md §9).
#include <gtest/gtest.h>

#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/mechanics/momentum_map.hpp"
#include "libfield/mechanics/newmark.hpp"
#include "tests/mechanics/systems.hpp"

namespace field::mechanics {
namespace {

/// A particle in R^3 (M = 1.5 I) in a non-linear potential invariant under rotations about z:
/// V = 1/4 rho^4 + 1/2 z^2 + 0.3 rho^2 z, rho^2 = x^2 + y^2.
class Axisymmetric : public MechanicalSystem {
 public:
  Axisymmetric() : MechanicalSystem(1.5 * MatrixXd::Identity(3, 3)) {}
  double potential(const VectorXd& q) const override {
    const double r2 = q(0) * q(0) + q(1) * q(1);
    return 0.25 * r2 * r2 + 0.5 * q(2) * q(2) + 0.3 * r2 * q(2);
  }
  VectorXd potential_gradient(const VectorXd& q) const override {
    const double r2 = q(0) * q(0) + q(1) * q(1), s = r2 + 0.6 * q(2);
    return (VectorXd(3) << s * q(0), s * q(1), q(2) + 0.3 * r2).finished();
  }
  MatrixXd potential_hessian(const VectorXd& q) const override {
    const double r2 = q(0) * q(0) + q(1) * q(1), s = r2 + 0.6 * q(2);
    MatrixXd h(3, 3);
    h << s + 2 * q(0) * q(0), 2 * q(0) * q(1), 0.6 * q(0),  //
        2 * q(0) * q(1), s + 2 * q(1) * q(1), 0.6 * q(1),   //
        0.6 * q(0), 0.6 * q(1), 1.0;
    return h;
  }
};

NewmarkState start(const MechanicalSystem& system) {
  if (system.dimension() == 2)
    return newmark_state(system, (VectorXd(2) << 0.8, -0.3).finished(),
                         (VectorXd(2) << 0.1, 0.6).finished());
  return newmark_state(system, (VectorXd(3) << 0.9, 0.1, -0.2).finished(),
                       (VectorXd(3) << 0.2, 0.7, 0.1).finished());
}

double energy(const MechanicalSystem& system, const NewmarkState& s) {
  return system.energy(s.q, system.mass() * s.v);
}

TEST(Newmark, BetaZeroGammaHalfIsVelocityVerlet) {
  // Step by step from the same state: Newmark (0, 1/2) and the trapezoidal DEL (section 3).
  const test::Anharmonic system;
  NewmarkState n = start(system);
  for (int k = 0; k < 200; ++k) {
    const MechanicalState v =
        constrained_step(system, Quadrature::trapezoidal, ConstraintScheme::rattle, 0.05,
                         {n.q, system.mass() * n.v})
            .state;
    n = newmark_step(system, {0.0, 0.5}, 0.05, n);
    ASSERT_LT((n.q - v.q).cwiseAbs().maxCoeff(), 1e-14) << k;
    ASSERT_LT((system.mass() * n.v - v.p).cwiseAbs().maxCoeff(), 1e-14) << k;
  }
}

TEST(Newmark, ModifiedPotentialHasTheForceOfV) {
  // dW/ds along q + s e equals V'(q) . dy/ds, dy/ds = e + beta h^2 M^{-1} V''(q) e.
  const test::Anharmonic system;
  const double beta = 0.25, h = 0.1, e = 1e-6;
  const VectorXd q = (VectorXd(2) << 0.7, -0.4).finished();
  for (Index i = 0; i < 2; ++i) {
    const VectorXd d = VectorXd::Unit(2, i);
    const double fd = (newmark_modified_potential(system, beta, h, q + e * d) -
                       newmark_modified_potential(system, beta, h, q - e * d)) /
                      (2 * e);
    const VectorXd dy = d + beta * h * h * system.velocity(system.potential_hessian(q) * d);
    EXPECT_NEAR(fd, system.potential_gradient(q).dot(dy), 1e-9) << i;
  }
}

TEST(Newmark, GammaHalfIsTheTrapezoidalDelInTheModifiedVariable) {
  const test::Anharmonic system;
  const double beta = 0.25, h = 0.05;
  NewmarkState previous = start(system), now = newmark_step(system, {beta, 0.5}, h, previous);
  for (int k = 0; k < 300; ++k) {
    const NewmarkState next = newmark_step(system, {beta, 0.5}, h, now);
    const VectorXd y0 = newmark_modified_position(system, beta, h, previous.q);
    const VectorXd y1 = newmark_modified_position(system, beta, h, now.q);
    const VectorXd y2 = newmark_modified_position(system, beta, h, next.q);
    // DEL of L_d = h/2 |(y1 - y0)/h|_M^2 - h/2 (W(y0) + W(y1)), grad W(y) = V'(q).
    const VectorXd del =
        system.mass() * (y2 - 2 * y1 + y0) / (h * h) + system.potential_gradient(now.q);
    ASSERT_LT(del.cwiseAbs().maxCoeff(), 1e-11) << k;
    // Its discrete momentum -D1 L_d(y1, y2) is M v.
    const VectorXd p = system.mass() * (y2 - y1) / h + 0.5 * h * system.potential_gradient(now.q);
    ASSERT_LT((p - system.mass() * now.v).cwiseAbs().maxCoeff(), 1e-12) << k;
    previous = now;
    now = next;
  }
}

TEST(Newmark, GammaHalfKeepsTheMomentumMapOfTheModifiedPosition) {
  const Axisymmetric system;
  const LinearSymmetry about_z = rotation_symmetry(Vec3::UnitZ(), 1);
  const double beta = 0.25, h = 0.05;
  NewmarkState s = start(system);
  const auto j_y = [&](const NewmarkState& n) {
    return momentum_map(about_z, newmark_modified_position(system, beta, h, n.q),
                        system.mass() * n.v);
  };
  const auto j_q = [&](const NewmarkState& n) {
    return momentum_map(about_z, n.q, system.mass() * n.v);
  };
  const double jy0 = j_y(s), jq0 = j_q(s);
  ASSERT_GT(std::abs(jy0), 0.5);
  double drift_y = 0.0, drift_q = 0.0;
  for (int k = 0; k < 1000; ++k) {
    s = newmark_step(system, {beta, 0.5}, h, s);
    drift_y = std::max(drift_y, std::abs(j_y(s) - jy0));
    drift_q = std::max(drift_q, std::abs(j_q(s) - jq0));
  }
  EXPECT_LT(drift_y, 1e-13 * std::abs(jy0));
  EXPECT_GT(drift_q, 1e-6);  // p . xi(q) is not the conserved one (O(beta h^2))
}

TEST(Newmark, GammaAboveHalfDampsAndIsFirstOrder) {
  const test::Anharmonic system;
  const double e0 = energy(system, start(system));
  const auto run = [&](NewmarkParameters p, double h, int steps) {
    NewmarkState s = start(system);
    for (int k = 0; k < steps; ++k) s = newmark_step(system, p, h, s);
    return s;
  };
  const NewmarkParameters damped{0.3025, 0.6}, average{0.25, 0.5};
  EXPECT_FALSE(is_variational(damped));
  EXPECT_TRUE(is_variational(average));
  EXPECT_LT(energy(system, run(damped, 0.1, 2000)), 0.9 * e0);
  EXPECT_NEAR(energy(system, run(average, 0.1, 2000)), e0, 0.01 * e0);
  // Observed orders at t = 2, h = 2/100 and 2/200, against h = 2/6400 (same parameters).
  for (const auto& [p, low, high] : {std::tuple{damped, 0.8, 1.2}, std::tuple{average, 1.8, 2.2}}) {
    const VectorXd reference = run(p, 2.0 / 6400, 6400).q;
    const double e1 = (run(p, 2.0 / 100, 100).q - reference).norm();
    const double e2 = (run(p, 2.0 / 200, 200).q - reference).norm();
    EXPECT_GE(std::log2(e1 / e2), low) << p.gamma;
    EXPECT_LE(std::log2(e1 / e2), high) << p.gamma;
  }
}

TEST(Newmark, RejectsConstraints) {
  const test::SphericalPendulum system;
  const VectorXd q = (VectorXd(3) << 1.5, 0.0, 0.0).finished();
  EXPECT_THROW(newmark_step(system, {}, 0.1, newmark_state(system, q, VectorXd::Zero(3))), Error);
}

}  // namespace
}  // namespace field::mechanics
