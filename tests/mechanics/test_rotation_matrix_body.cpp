// The rigid body as a rotation matrix in R^9 with six constraints, by SHAKE and RATTLE
// (docs/mechanics.md §6.2): the same rotations as the Lie-group version, constraints and
// spatial angular momentum to round-off.
#include <gtest/gtest.h>

#include "libfield/lie/so3.hpp"
#include "libfield/mechanics/constrained_step.hpp"
#include "libfield/mechanics/momentum_map.hpp"
#include "libfield/mechanics/rigid_body.hpp"
#include "libfield/mechanics/rotation_matrix_body.hpp"

namespace field::mechanics {
namespace {

Mat3 inertia() {
  const Mat3 q = lie::rotation_about(Vec3(1, 2, 3).normalized(), 0.7);
  return q * Vec3(1.0, 2.0, 2.5).asDiagonal() * q.transpose();
}

TEST(RotationMatrixBody, ConstraintJacobianMatchesCentralDifferences) {
  const RotationMatrixBody body(inertia());
  const VectorXd q = RotationMatrixBody::to_vector(lie::rotation_about(Vec3::UnitY(), 0.4)) +
                     VectorXd::LinSpaced(9, -0.1, 0.2);
  const MatrixXd g = body.constraint_jacobian(q);
  for (Index i = 0; i < 9; ++i) {
    const VectorXd e = VectorXd::Unit(9, i) * 1e-6;
    EXPECT_LT(
        (g.col(i) - (body.constraint(q + e) - body.constraint(q - e)) / 2e-6).cwiseAbs().maxCoeff(),
        1e-9);
  }
}

TEST(RotationMatrixBody, SameRotationsAsTheLieGroupVersion) {
  const RigidBody lie_body(inertia());
  const RotationMatrixBody body(inertia());
  const double h = 0.05;
  RigidBodyState lie_state{lie::rotation_about(Vec3(0, 1, 1).normalized(), 0.3),
                           Vec3(0.4, 1.9, -0.6)};
  const LinearSymmetry about_z = rotation_symmetry(Vec3::UnitZ(), 3);
  for (const ConstraintScheme scheme : {ConstraintScheme::shake, ConstraintScheme::rattle}) {
    RigidBodyState l = lie_state;
    MechanicalState s{RotationMatrixBody::to_vector(l.rotation),
                      body.momentum(l.rotation, l.body_momentum)};
    const double j0 = momentum_map(about_z, s.q, s.p);
    ASSERT_NEAR(j0, RigidBody::spatial_momentum(l)(2), 1e-14);
    double difference = 0.0, constraint = 0.0, drift = 0.0;
    for (int k = 0; k < 1000; ++k) {
      l = lie_body.step(h, l).state;
      s = constrained_step(body, Quadrature::trapezoidal, scheme, h, s).state;
      difference = std::max(
          difference, (RotationMatrixBody::to_matrix(s.q) - l.rotation).cwiseAbs().maxCoeff());
      constraint = std::max(constraint, body.constraint(s.q).cwiseAbs().maxCoeff());
      drift = std::max(drift, std::abs(momentum_map(about_z, s.q, s.p) - j0));
      // The intrinsic body momentum is the Lie-group one (SHAKE's normal part pairs to zero).
      ASSERT_LT(
          (RotationMatrixBody::body_momentum(s.q, s.p) - l.body_momentum).cwiseAbs().maxCoeff(),
          1e-10)
          << k;
    }
    EXPECT_LT(difference, 1e-11) << scheme_name(scheme);
    EXPECT_LT(constraint, 1e-14) << scheme_name(scheme);
    EXPECT_LT(drift, 1e-13) << scheme_name(scheme);
  }
}

}  // namespace
}  // namespace field::mechanics
