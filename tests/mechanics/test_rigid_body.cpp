// The free rigid body on SO(3), Moser-Veselov (docs/mechanics.md §6): momenta as derivatives of
// L_d, spatial angular momentum to round-off, order 2, failures.
#include <gtest/gtest.h>

#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/lie/so3.hpp"
#include "libfield/mechanics/rigid_body.hpp"

namespace field::mechanics {
namespace {

Mat3 inertia() {
  // A general (non-diagonal) inertia tensor: principal moments 1, 2, 2.5 in a rotated frame.
  const Mat3 q = lie::rotation_about(Vec3(1, 2, 3).normalized(), 0.7);
  return q * Vec3(1.0, 2.0, 2.5).asDiagonal() * q.transpose();
}

RigidBodyState start() {
  return {lie::rotation_about(Vec3(0, 1, 1).normalized(), 0.3), Vec3(0.4, 1.9, -0.6)};
}

TEST(RigidBody, MomentaAreTheLeftTrivialisedSlotDerivatives) {
  const RigidBody body(inertia());
  const double h = 0.1, e = 1e-6;
  const Mat3 r0 = start().rotation, r1 = r0 * lie::rotation_about(Vec3(1, -1, 2).normalized(), 0.2);
  const Vec3 before = body.momentum_before(h, r0.transpose() * r1);
  const Vec3 after = body.momentum_after(h, r0.transpose() * r1);
  for (int i = 0; i < 3; ++i) {
    const auto moved = [&](const Mat3& r, double s) {
      return Mat3(r * lie::rotation_about(Vec3::Unit(i), s));
    };
    const double d1 = (body.discrete_lagrangian(h, moved(r0, e), r1) -
                       body.discrete_lagrangian(h, moved(r0, -e), r1)) /
                      (2 * e);
    const double d2 = (body.discrete_lagrangian(h, r0, moved(r1, e)) -
                       body.discrete_lagrangian(h, r0, moved(r1, -e))) /
                      (2 * e);
    EXPECT_NEAR(before(i), -d1, 1e-7) << i;
    EXPECT_NEAR(after(i), d2, 1e-7) << i;
  }
}

TEST(RigidBody, SpatialAngularMomentumAndEnergyToRoundOff) {
  const RigidBody body(inertia());
  RigidBodyState s = start();
  const Vec3 pi0 = RigidBody::spatial_momentum(s);
  const double e0 = body.energy(s.body_momentum);
  double drift = 0.0, energy_error = 0.0, orthogonality = 0.0;
  for (int k = 0; k < 5000; ++k) {
    const RigidBodyStep r = body.step(0.05, s, {}, k);
    s = r.state;
    drift = std::max(drift, (RigidBody::spatial_momentum(s) - pi0).cwiseAbs().maxCoeff());
    energy_error = std::max(energy_error, std::abs(body.energy(s.body_momentum) - e0));
    orthogonality =
        std::max(orthogonality,
                 (s.rotation.transpose() * s.rotation - Mat3::Identity()).cwiseAbs().maxCoeff());
  }
  EXPECT_LT(drift, 1e-13 * pi0.norm());
  EXPECT_LT(orthogonality, 1e-13);
  // Energy: observed conserved to round-off too (docs/mechanics.md §6.1).
  EXPECT_LT(energy_error, 1e-12 * e0);
}

TEST(RigidBody, ObservedOrderIsTwo) {
  const RigidBody body(inertia());
  const auto run = [&](int steps) {
    RigidBodyState s = start();
    for (int k = 0; k < steps; ++k) s = body.step(2.0 / steps, s).state;
    return s.rotation;
  };
  const Mat3 reference = run(12800);
  const double e1 = (run(100) - reference).norm(), e2 = (run(200) - reference).norm();
  const double order = std::log2(e1 / e2);
  EXPECT_GE(order, 1.8) << e1 << " " << e2;
  EXPECT_LE(order, 2.2) << e1 << " " << e2;
}

TEST(RigidBody, RejectsInertiaOutsideTheTriangleInequalityAndFailsClearly) {
  EXPECT_THROW(RigidBody(Vec3(1.0, 1.0, 3.0).asDiagonal().toDenseMatrix()), Error);
  const RigidBody body(inertia());
  NewtonOptions options;
  options.max_iterations = 3;
  try {
    body.step(50.0, start(), options, 4);
    FAIL() << "no NewtonFailure";
  } catch (const NewtonFailure& e) {
    EXPECT_NE(std::string(e.what()).find("did not converge at step 4"), std::string::npos);
  }
}

}  // namespace
}  // namespace field::mechanics
