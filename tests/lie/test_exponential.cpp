// Exponential retraction against series definitions, theory §2.2: the closed forms must equal
// the matrix exponential and the ad-series of dexp and dexp^{-1}, on both sides of the
// small-angle branch (|omega| = 0.5).
#include <gtest/gtest.h>

#include <cmath>

#include "libfield/lie/exponential.hpp"
#include "libfield/lie/so3.hpp"
#include "tests/support/random.hpp"

namespace field::lie {
namespace {

using test::Random;
using test::rel_err;
using LMat4 = Eigen::Matrix<long double, 4, 4>;
using LMat6 = Eigen::Matrix<long double, 6, 6>;

// Matrix exponential by scaling and squaring of a 40-term Taylor series in long double.
Mat4 expm_series(const Mat4& a) {
  int squarings = 0;
  LMat4 x = a.cast<long double>();
  while (x.cwiseAbs().maxCoeff() > 0.25) {
    x /= 2;
    ++squarings;
  }
  LMat4 sum = LMat4::Identity(), term = LMat4::Identity();
  for (int k = 1; k < 40; ++k) {
    term = term * x / static_cast<long double>(k);
    sum += term;
  }
  for (int i = 0; i < squarings; ++i) sum = sum * sum;
  return sum.cast<double>();
}

// dexp_x = sum_k ad_x^k / (k+1)! in long double, enough terms for |ad_x| <= 4.
Mat6 dexp_series(const Vec6& x) {
  const LMat6 A = ad(x).cast<long double>();
  LMat6 sum = LMat6::Zero(), power = LMat6::Identity();
  long double fact = 1;  // (k+1)!
  for (int k = 0; k < 80; ++k) {
    fact *= (k + 1);
    sum += power / fact;
    power = power * A;
  }
  return sum.cast<double>();
}

const double kAnglesExp[] = {0.0, 1e-8, 1e-4, 0.2, 0.4999, 0.5001, 0.9, 1.7, 2.5, 3.0};

TEST(Exponential, EqualsMatrixExponential) {
  Random rnd(31);
  for (double angle : kAnglesExp) {
    for (int trial = 0; trial < 30; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 2.0);
      EXPECT_LT(rel_err(exp_map(x).matrix(), expm_series(hat6(x))), 1e-14) << x.transpose();
    }
  }
}

TEST(Exponential, DerivativeEqualsAdSeries) {
  Random rnd(32);
  for (double angle : kAnglesExp) {
    for (int trial = 0; trial < 30; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 1.0);
      EXPECT_LT(rel_err(dexp(x), dexp_series(x)), 1e-14) << x.transpose();
      EXPECT_LT(rel_err(dexp_inv(x), Mat6(dexp_series(x).inverse())), 1e-13) << x.transpose();
    }
  }
}

TEST(Exponential, InverseDerivativeEqualsBernoulliSeries) {
  // dexp^{-1}_x = I - ad/2 + ad^2/12 - ad^4/720 + ad^6/30240 - ..., for small x.
  Random rnd(33);
  for (int trial = 0; trial < 30; ++trial) {
    const Vec6 x = rnd.vec6(0.05);
    const Mat6 A = ad(x);
    const Mat6 A2 = A * A;
    const Mat6 series = Mat6::Identity() - 0.5 * A + A2 / 12.0 - A2 * A2 / 720.0 +
                        A2 * A2 * A2 / 30240.0 - A2 * A2 * A2 * A2 / 1209600.0;
    EXPECT_LT(rel_err(dexp_inv(x), series), 1e-15) << x.transpose();
  }
}

TEST(Exponential, SmallAngleBranchIsContinuous) {
  // The series (|omega| < 0.5) and the closed forms agree across the switch.
  const Vec3 n = Vec3(1, 2, 3).normalized();
  Vec6 below, above;
  below << (0.5 - 1e-15) * n, 0.3, -0.2, 0.7;
  above << (0.5 + 1e-15) * n, 0.3, -0.2, 0.7;
  EXPECT_LT((dexp_inv(below) - dexp_inv(above)).norm(), 1e-13);
  EXPECT_LT((dexp(below) - dexp(above)).norm(), 1e-13);
  EXPECT_LT((exp_map(below).matrix() - exp_map(above).matrix()).norm(), 1e-13);
}

TEST(Exponential, LogIsAccurateNearPi) {
  Random rnd(34);
  for (double angle : {3.1, 3.14, 3.141592, 3.14159265}) {
    const Vec6 x = rnd.vec6_with_angle(angle, 1.0);
    EXPECT_LT((log_map(exp_map(x)) - x).norm(), 1e-12) << angle;
    EXPECT_LT((exp_map(log_map(exp_map(x))).matrix() - exp_map(x).matrix()).norm(), 1e-13);
  }
}

// The angles at which the branches of the coefficients must hold: the series (|omega| < 0.5) at
// 0 and near it, the closed forms at 1 and next to a half turn.
const double kBranchAngles[] = {0.0, 1e-8, 1e-4, 0.4999, 0.5001, 1.0, M_PI - 1e-6};

TEST(Exponential, InverseDerivativeAtTheBranchPoints) {
  // dexp^{-1} against the inverse of the ad-series of dexp, and its dual against the matrix.
  Random rnd(35);
  for (double angle : kBranchAngles) {
    for (int trial = 0; trial < 30; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 1.0);
      const Vec6 p = rnd.vec6(1.0);
      EXPECT_LT(rel_err(dexp_inv(x), Mat6(dexp_series(x).inverse())), 1e-13) << angle;
      EXPECT_LT(rel_err(dexp_inv_dual(x, p), Vec6(dexp_inv(x).transpose() * p)), 1e-15) << angle;
    }
  }
}

TEST(Exponential, NewtonHelperEqualsComplexStep) {
  // The closed form of M (lie/exponential_blocks.hpp) against the complex-step derivative of the
  // closed form of (dexp^{-1}_x)^T p, exact to round-off, on both branches (the complex step
  // differentiates the series below |omega| = 0.5 and the closed forms above).
  Random rnd(36);
  for (double angle : kBranchAngles) {
    for (int trial = 0; trial < 30; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 1.0);
      const Vec6 p = rnd.vec6(1.0);
      EXPECT_LT(rel_err(exp_newton_M(x, p), exp_newton_M_complex_step(x, p)), 1e-13)
          << "angle " << angle << ", x = " << x.transpose();
    }
  }
}

TEST(Exponential, NewtonHelperEqualsFiniteDifferences) {
  // Central differences of (dexp^{-1}_x)^T p, step 1e-6: truncation and cancellation ~1e-9.
  Random rnd(37);
  for (double angle : kBranchAngles) {
    for (int trial = 0; trial < 10; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 1.0);
      const Vec6 p = rnd.vec6(1.0);
      Mat6 fd;
      for (int k = 0; k < 6; ++k) {
        Vec6 xp = x, xm = x;
        xp(k) += 1e-6;
        xm(k) -= 1e-6;
        fd.col(k) = (dexp_inv_dual(xp, p) - dexp_inv_dual(xm, p)) / 2e-6;
      }
      EXPECT_LT(rel_err(exp_newton_M(x, p), fd), 1e-8) << "angle " << angle;
    }
  }
}

}  // namespace
}  // namespace field::lie
