#include "libfield/mechanics/rigid_body.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>
#include <sstream>

#include "libfield/core/error.hpp"
#include "libfield/lie/cayley.hpp"
#include "libfield/lie/so3.hpp"

namespace field::mechanics {

Mat3 matrix_inertia(const Mat3& inertia) {
  // User data (a case's inertia): plain messages, no code location.
  const auto fail = [](const std::string& what) { throw Error("rigid body: " + what); };
  if (!inertia.allFinite() ||
      (inertia - inertia.transpose()).cwiseAbs().maxCoeff() > 1e-14 * inertia.cwiseAbs().maxCoeff())
    fail("the inertia tensor must be finite and symmetric");
  const Mat3 jd = 0.5 * inertia.trace() * Mat3::Identity() - inertia;
  const Eigen::SelfAdjointEigenSolver<Mat3> moments(inertia), jd_eigen(jd);
  std::ostringstream values;
  values << moments.eigenvalues().transpose();
  if (!(moments.eigenvalues().minCoeff() > 0))
    fail("the inertia tensor must be positive definite; its principal moments are " + values.str());
  if (!(jd_eigen.eigenvalues().minCoeff() > 0))
    fail("the principal moments " + values.str() +
         " must satisfy the strict triangle inequality (each less than the sum of the other two: "
         "J1 < J2 + J3)");
  return jd;
}

RigidBody::RigidBody(const Mat3& inertia)
    : inertia_(inertia), matrix_inertia_(mechanics::matrix_inertia(inertia)) {}

double RigidBody::discrete_lagrangian(double h, const Mat3& r0, const Mat3& r1) const {
  return ((Mat3::Identity() - r0.transpose() * r1) * matrix_inertia_).trace() / h;
}

Vec3 RigidBody::momentum_before(double h, const Mat3& relative) const {
  return lie::vee(relative * matrix_inertia_ - matrix_inertia_ * relative.transpose()) / h;
}

Vec3 RigidBody::momentum_after(double h, const Mat3& relative) const {
  return lie::vee(matrix_inertia_ * relative - relative.transpose() * matrix_inertia_) / h;
}

double RigidBody::energy(const Vec3& body_momentum) const {
  return 0.5 * body_momentum.dot(inertia_.ldlt().solve(body_momentum));
}

RigidBodyStep RigidBody::step(double h, const RigidBodyState& state, const NewtonOptions& options,
                              long long step_index) const {
  const auto rotation = [](const Vec3& delta) {
    Vec6 x = Vec6::Zero();
    x.head<3>() = delta;
    return lie::cay(x).R;
  };
  // First guess: the continuous angular velocity, F = cay(h J^{-1} Pi).
  Mat3 f = rotation(h * inertia_.ldlt().solve(state.body_momentum));
  double update = 0.0;
  for (int iteration = 1; iteration <= options.max_iterations; ++iteration) {
    const Vec3 residual = momentum_before(h, f) - state.body_momentum;
    // d/de of momentum_before(F (I + e delta^)) = 1/h vee(F delta^ J_d + J_d delta^ F^T).
    Mat3 jacobian;
    for (int i = 0; i < 3; ++i) {
      const Mat3 e = lie::hat(Vec3::Unit(i));
      jacobian.col(i) = lie::vee(f * e * matrix_inertia_ + matrix_inertia_ * e * f.transpose()) / h;
    }
    const Vec3 delta = jacobian.fullPivLu().solve(-residual);
    if (!delta.allFinite()) break;
    f = f * rotation(delta);
    update = delta.cwiseAbs().maxCoeff();
    if (update <= options.tolerance) {
      RigidBodyStep result;
      result.relative = f;
      result.iterations = iteration;
      result.state.rotation = state.rotation * f;
      result.state.body_momentum = f.transpose() * state.body_momentum;
      return result;
    }
  }
  std::ostringstream message;
  message << "mechanics: rigid body: Newton on F_k did not converge at step " << step_index
          << " (h = " << h << ") after " << options.max_iterations << " iterations: last update "
          << update << ", body momentum |Pi| = " << state.body_momentum.norm()
          << "; the step h |Pi| / J is too large for F J_d - J_d F^T = h Pi^ to have a "
             "solution near the identity: try a smaller time step h";
  throw NewtonFailure(message.str());
}

}  // namespace field::mechanics
