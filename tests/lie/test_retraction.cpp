// Properties every retraction of theory §2 must have, checked for Cayley and exp over random
// elements from the identity (|omega| = 0, 1e-8) to large angles. Tolerances: theory §10 row 0.
#include <gtest/gtest.h>

#include "libfield/core/error.hpp"
#include "libfield/lie/retraction.hpp"
#include "tests/support/finite_difference.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/random.hpp"

namespace field::lie {
namespace {

using test::kAngles;
using test::Random;
using test::rel_err;

constexpr int kTrials = 40;
constexpr double kIdentityTol = 1e-13;
constexpr double kFdTol = 1e-8;

template <class G>
class RetractionProperties : public ::testing::Test {
 protected:
  // Largest angle for which the retraction is a diffeomorphism onto its image well inside the
  // domain: exp up to 2.8 < pi; Cayley for all omega (angle 2 atan(|omega|/2)), tested to 6.
  double max_angle() const { return std::is_same_v<G, Se3Cayley> ? 6.0 : 2.8; }
};
TYPED_TEST_SUITE(RetractionProperties, test::Se3Groups, test::GroupNames);

// Rotation angles covered: the shared list plus larger ones for Cayley.
std::vector<double> angles(double max_angle) {
  std::vector<double> out(std::begin(kAngles), std::end(kAngles));
  if (max_angle > 3.0) out.insert(out.end(), {4.0, 6.0});
  return out;
}

// dtau_x of G (not part of the interface of lie/lie_group.hpp).
template <class G>
Mat6 dtau(const Vec6& x) {
  if constexpr (std::is_same_v<G, Se3Cayley>)
    return dcay(x);
  else
    return dexp(x);
}

// |omega| for the relative tolerance scale of identities with large elements.
double scale(const Vec6& x) {
  return std::max(1.0, x.cwiseAbs().maxCoeff());
}

TYPED_TEST(RetractionProperties, InverseRoundTrip) {
  Random rnd(1);
  for (double angle : angles(this->max_angle())) {
    for (int trial = 0; trial < kTrials; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 2.0);
      EXPECT_LT((TypeParam::tau_inv(TypeParam::tau(x)) - x).norm() / scale(x), kIdentityTol)
          << lie::retraction_name<TypeParam>() << " x = " << x.transpose();
    }
  }
}

TYPED_TEST(RetractionProperties, RotationIsOrthonormal) {
  Random rnd(2);
  for (double angle : angles(this->max_angle())) {
    const SE3 g = TypeParam::tau(rnd.vec6_with_angle(angle));
    EXPECT_LT((g.R.transpose() * g.R - Mat3::Identity()).norm(), kIdentityTol);
    EXPECT_NEAR(g.R.determinant(), 1.0, kIdentityTol);
  }
}

TYPED_TEST(RetractionProperties, NegativeArgumentGivesInverse) {
  Random rnd(3);
  for (double angle : angles(this->max_angle())) {
    for (int trial = 0; trial < kTrials; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 2.0);
      const Mat4 product = (TypeParam::tau(-x) * TypeParam::tau(x)).matrix();
      EXPECT_LT((product - Mat4::Identity()).norm() / scale(x), kIdentityTol) << x.transpose();
    }
  }
}

TYPED_TEST(RetractionProperties, DerivativeMatchesFiniteDifferences) {
  // dtau_x y = vee( d/de tau(x + e y) tau(x)^{-1} ), theory §0.2.
  Random rnd(4);
  for (double angle : angles(this->max_angle())) {
    for (int trial = 0; trial < 10; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle);
      const Mat4 g_inv = TypeParam::tau(x).inverse().matrix();
      Mat6 fd;
      for (int k = 0; k < 6; ++k) {
        const Mat4 d = test::derivative(
            [&](double e) { return Mat4(TypeParam::tau(x + e * Vec6::Unit(k)).matrix()); });
        fd.col(k) = vee6(d * g_inv);
      }
      EXPECT_LT(rel_err(dtau<TypeParam>(x), fd), kFdTol)
          << lie::retraction_name<TypeParam>() << " x = " << x.transpose();
    }
  }
}

TYPED_TEST(RetractionProperties, InverseDerivativeMatchesFiniteDifferences) {
  // dtau^{-1}_x z = d/de tau^{-1}( tau(e z) tau(x) ).
  Random rnd(5);
  for (double angle : angles(this->max_angle())) {
    for (int trial = 0; trial < 10; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle);
      const SE3 g = TypeParam::tau(x);
      const Mat6 fd = test::jacobian6(
          [&](const Vec6& z) { return TypeParam::tau_inv(TypeParam::tau(z) * g); }, Vec6::Zero());
      EXPECT_LT(rel_err(TypeParam::dtau_inv(x), fd), kFdTol)
          << lie::retraction_name<TypeParam>() << " x = " << x.transpose();
    }
  }
}

TYPED_TEST(RetractionProperties, DerivativeAndInverseAreInverse) {
  Random rnd(6);
  for (double angle : angles(this->max_angle())) {
    for (int trial = 0; trial < kTrials; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 2.0);
      const double s = scale(x) * scale(x);
      EXPECT_LT((dtau<TypeParam>(x) * TypeParam::dtau_inv(x) - Mat6::Identity()).norm() / s,
                kIdentityTol);
      EXPECT_LT((TypeParam::dtau_inv(x) * dtau<TypeParam>(x) - Mat6::Identity()).norm() / s,
                kIdentityTol);
    }
  }
}

TYPED_TEST(RetractionProperties, InverseDerivativeTimesAdjointIsReflected) {
  // dtau^{-1}_x Ad_{tau(x)} = dtau^{-1}_{-x}, theory §0.2.
  Random rnd(7);
  for (double angle : angles(this->max_angle())) {
    for (int trial = 0; trial < kTrials; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 2.0);
      const Mat6 lhs = TypeParam::dtau_inv(x) * Ad(TypeParam::tau(x));
      EXPECT_LT(rel_err(lhs, TypeParam::dtau_inv(-x)) / scale(x), kIdentityTol) << x.transpose();
    }
  }
}

TYPED_TEST(RetractionProperties, DualIsTransposeApplied) {
  Random rnd(8);
  for (double angle : angles(this->max_angle())) {
    for (int trial = 0; trial < kTrials; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle, 2.0);
      const Vec6 p = rnd.vec6(3.0);
      const Vec6 expected = TypeParam::dtau_inv(x).transpose() * p;
      EXPECT_LT(rel_err(TypeParam::dtau_inv_dual(x, p), expected), kIdentityTol) << x.transpose();
    }
  }
}

TYPED_TEST(RetractionProperties, NewtonHelperMatchesFiniteDifferences) {
  // M(x, p) = d/dx [(dtau^{-1}_x)^T p], theory §2.1 / §5.
  Random rnd(9);
  for (double angle : angles(this->max_angle())) {
    for (int trial = 0; trial < 10; ++trial) {
      const Vec6 x = rnd.vec6_with_angle(angle);
      const Vec6 p = rnd.vec6(2.0);
      const Mat6 fd =
          test::jacobian6([&](const Vec6& y) { return TypeParam::dtau_inv_dual(y, p); }, x);
      EXPECT_LT(rel_err(TypeParam::newton_M(x, p), fd), kFdTol)
          << lie::retraction_name<TypeParam>() << " x = " << x.transpose();
    }
  }
}

TEST(RetractionNames, ParseAndReject) {
  EXPECT_EQ(retraction_kind("cayley"), RetractionKind::cayley);
  EXPECT_EQ(retraction_kind("exp"), RetractionKind::exponential);
  EXPECT_EQ(retraction_name(retraction_kind("exponential")), "exponential");
  EXPECT_EQ(retraction_name<Se3Cayley>(), "cayley");
  try {
    retraction_kind("cayly");
    FAIL() << "expected field::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cayly"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace field::lie
