// Properties every retraction of theory §2 must have, checked for Cayley and exp over random
// elements from the identity (|omega| = 0, 1e-8) to large angles. Tolerances: theory §10 row 0.
#include <gtest/gtest.h>

#include "libfield/core/error.hpp"
#include "libfield/lie/retraction.hpp"
#include "tests/support/finite_difference.hpp"
#include "tests/support/random.hpp"

namespace field::lie {
namespace {

using test::kAngles;
using test::Random;
using test::rel_err;

constexpr int kTrials = 40;
constexpr double kIdentityTol = 1e-13;
constexpr double kFdTol = 1e-8;

class RetractionProperties : public ::testing::TestWithParam<RetractionKind> {
 protected:
  Retraction tau_{GetParam()};
  // Largest angle for which the retraction is a diffeomorphism onto its image well inside the
  // domain: exp up to 2.8 < pi; Cayley for all omega (angle 2 atan(|omega|/2)), tested to 6.
  double max_angle() const { return GetParam() == RetractionKind::cayley ? 6.0 : 2.8; }
};

// Rotation angles covered: the shared list plus larger ones for Cayley.
std::vector<double> angles(double max_angle) {
  std::vector<double> out(std::begin(kAngles), std::end(kAngles));
  if (max_angle > 3.0) out.insert(out.end(), {4.0, 6.0});
  return out;
}

// |omega| for the relative tolerance scale of identities with large elements.
double scale(const Vec6& x) {
  return std::max(1.0, x.cwiseAbs().maxCoeff());
}

TEST_P(RetractionProperties, InverseRoundTrip) {
  Random rnd(1);
  for (double angle : angles(max_angle())) {
    for (int trial = 0; trial < kTrials; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 2.0);
      EXPECT_LT((tau_.tau_inv(tau_.tau(x)) - x).norm() / scale(x), kIdentityTol)
          << tau_.name() << " x = " << x.transpose();
    }
  }
}

TEST_P(RetractionProperties, RotationIsOrthonormal) {
  Random rnd(2);
  for (double angle : angles(max_angle())) {
    const SE3 g = tau_.tau(rnd.vec6_with_angle(angle));
    EXPECT_LT((g.R.transpose() * g.R - Mat3::Identity()).norm(), kIdentityTol);
    EXPECT_NEAR(g.R.determinant(), 1.0, kIdentityTol);
  }
}

TEST_P(RetractionProperties, NegativeArgumentGivesInverse) {
  Random rnd(3);
  for (double angle : angles(max_angle())) {
    for (int trial = 0; trial < kTrials; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 2.0);
      const Mat4 product = (tau_.tau(-x) * tau_.tau(x)).matrix();
      EXPECT_LT((product - Mat4::Identity()).norm() / scale(x), kIdentityTol) << x.transpose();
    }
  }
}

TEST_P(RetractionProperties, DerivativeMatchesFiniteDifferences) {
  // dtau_x y = vee( d/de tau(x + e y) tau(x)^{-1} ), theory §0.2.
  Random rnd(4);
  for (double angle : angles(max_angle())) {
    for (int trial = 0; trial < 10; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle);
      const Mat4 g_inv = tau_.tau(x).inverse().matrix();
      Mat6 fd;
      for (int k = 0; k < 6; ++k) {
        const Mat4 d = test::derivative(
            [&](double e) { return Mat4(tau_.tau(x + e * Vec6::Unit(k)).matrix()); });
        fd.col(k) = vee6(d * g_inv);
      }
      EXPECT_LT(rel_err(tau_.dtau(x), fd), kFdTol) << tau_.name() << " x = " << x.transpose();
    }
  }
}

TEST_P(RetractionProperties, InverseDerivativeMatchesFiniteDifferences) {
  // dtau^{-1}_x z = d/de tau^{-1}( tau(e z) tau(x) ).
  Random rnd(5);
  for (double angle : angles(max_angle())) {
    for (int trial = 0; trial < 10; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle);
      const SE3 g = tau_.tau(x);
      const Mat6 fd = test::jacobian6([&](const Vec6& z) { return tau_.tau_inv(tau_.tau(z) * g); },
                                      Vec6::Zero());
      EXPECT_LT(rel_err(tau_.dtau_inv(x), fd), kFdTol) << tau_.name() << " x = " << x.transpose();
    }
  }
}

TEST_P(RetractionProperties, DerivativeAndInverseAreInverse) {
  Random rnd(6);
  for (double angle : angles(max_angle())) {
    for (int trial = 0; trial < kTrials; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 2.0);
      const double s = scale(x) * scale(x);
      EXPECT_LT((tau_.dtau(x) * tau_.dtau_inv(x) - Mat6::Identity()).norm() / s, kIdentityTol);
      EXPECT_LT((tau_.dtau_inv(x) * tau_.dtau(x) - Mat6::Identity()).norm() / s, kIdentityTol);
    }
  }
}

TEST_P(RetractionProperties, InverseDerivativeTimesAdjointIsReflected) {
  // dtau^{-1}_x Ad_{tau(x)} = dtau^{-1}_{-x}, theory §0.2.
  Random rnd(7);
  for (double angle : angles(max_angle())) {
    for (int trial = 0; trial < kTrials; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 2.0);
      const Mat6 lhs = tau_.dtau_inv(x) * Ad(tau_.tau(x));
      EXPECT_LT(rel_err(lhs, tau_.dtau_inv(-x)) / scale(x), kIdentityTol) << x.transpose();
    }
  }
}

TEST_P(RetractionProperties, DualIsTransposeApplied) {
  Random rnd(8);
  for (double angle : angles(max_angle())) {
    for (int trial = 0; trial < kTrials; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 2.0);
      const Vec6 p = rnd.vec6(3.0);
      const Vec6 expected = tau_.dtau_inv(x).transpose() * p;
      EXPECT_LT(rel_err(tau_.dtau_inv_dual(x, p), expected), kIdentityTol) << x.transpose();
    }
  }
}

TEST_P(RetractionProperties, NewtonHelperMatchesFiniteDifferences) {
  // M(x, p) = d/dx [(dtau^{-1}_x)^T p], theory §2.1 / §5.
  Random rnd(9);
  for (double angle : angles(max_angle())) {
    for (int trial = 0; trial < 10; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle);
      const Vec6 p = rnd.vec6(2.0);
      const Mat6 fd = test::jacobian6([&](const Vec6& y) { return tau_.dtau_inv_dual(y, p); }, x);
      EXPECT_LT(rel_err(tau_.newton_M(x, p), fd), kFdTol)
          << tau_.name() << " x = " << x.transpose();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BothRetractions, RetractionProperties,
                         ::testing::Values(RetractionKind::cayley, RetractionKind::exponential),
                         [](const auto& param_info) {
                           return Retraction(param_info.param).name();
                         });

TEST(RetractionNames, ParseAndReject) {
  EXPECT_EQ(Retraction::from_name("cayley").kind(), RetractionKind::cayley);
  EXPECT_EQ(Retraction::from_name("exp").kind(), RetractionKind::exponential);
  EXPECT_EQ(Retraction::from_name("exponential").name(), "exponential");
  try {
    Retraction::from_name("cayly");
    FAIL() << "expected field::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cayly"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace field::lie
