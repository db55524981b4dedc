// Properties every instance of the Lie-group interface (lie/lie_group.hpp, docs/lie-groups.md)
// must have, as typed tests over Se3Cayley, Se3Exp, Se2Cayley and Rn<3>; then the SE(3)
// instances against the existing functions (bit-identical) and SE(2) against SE(3) restricted
// to the plane.
#include <gtest/gtest.h>

#include <random>

#include "libfield/lie/rn.hpp"
#include "libfield/lie/se2.hpp"
#include "libfield/lie/se3_groups.hpp"
#include "tests/support/finite_difference.hpp"
#include "tests/support/random.hpp"

namespace field::lie {
namespace {

using test::derivative;
using test::rel_err;

constexpr int kTrials = 30;
// Algebra components drawn in [-s, s] for these s: near identity to rotation angles ~ 2.6 (< pi,
// inside the domain of log and of cay^{-1}).
constexpr double kScales[] = {1e-8, 1e-3, 0.1, 0.5, 1.5};
constexpr double kTol = 1e-12;
constexpr double kFdTol = 1e-8;

template <typename G>
class LieGroupProperties : public ::testing::Test {
 protected:
  using Element = typename G::Element;
  using Algebra = typename G::Algebra;
  using Matrix = typename G::Matrix;

  Algebra algebra(double scale) {
    Algebra x;
    for (int k = 0; k < G::dim; ++k) x(k) = scale * std::uniform_real_distribution<>(-1, 1)(rng_);
    return x;
  }
  Element element(double scale = 1.0) { return G::tau(algebra(scale)); }
  // Max-norm distance of two elements in the matrix representation.
  static double dist(const Element& a, const Element& b) {
    return (G::matrix(a) - G::matrix(b)).cwiseAbs().maxCoeff();
  }
  // Jacobian of f: algebra -> algebra at 0, column k = d/de f(e e_k).
  template <typename F>
  static Matrix jacobian_at_zero(F&& f) {
    Matrix m;
    for (int k = 0; k < G::dim; ++k) {
      m.col(k) = derivative([&](double e) { return Algebra(f(Algebra(e * Algebra::Unit(k)))); });
    }
    return m;
  }

  std::mt19937_64 rng_{2024};
};

using Instances = ::testing::Types<Se3Cayley, Se3Exp, Se2Cayley, Rn<3>>;
TYPED_TEST_SUITE(LieGroupProperties, Instances);

TYPED_TEST(LieGroupProperties, IdentityAndTauAtZero) {
  using G = TypeParam;
  using A = typename G::Algebra;
  const auto e = G::identity();
  EXPECT_EQ(this->dist(G::tau(A::Zero()), e), 0.0);
  EXPECT_EQ(G::tau_inv(e).cwiseAbs().maxCoeff(), 0.0);
  for (int t = 0; t < kTrials; ++t) {
    const auto g = this->element();
    EXPECT_LT(this->dist(G::compose(e, g), g), kTol);
    EXPECT_LT(this->dist(G::compose(g, e), g), kTol);
  }
}

TYPED_TEST(LieGroupProperties, TauInvInvertsTau) {
  using G = TypeParam;
  for (double s : kScales) {
    for (int t = 0; t < kTrials; ++t) {
      const auto x = this->algebra(s);
      EXPECT_LT((G::tau_inv(G::tau(x)) - x).cwiseAbs().maxCoeff(), kTol * std::max(1.0, s))
          << "scale " << s;
    }
  }
}

TYPED_TEST(LieGroupProperties, ComposeAndInverseLaws) {
  using G = TypeParam;
  const auto e = G::identity();
  for (int t = 0; t < kTrials; ++t) {
    const auto g = this->element(), h = this->element(), k = this->element();
    EXPECT_LT(this->dist(G::compose(G::compose(g, h), k), G::compose(g, G::compose(h, k))), kTol);
    EXPECT_LT(this->dist(G::compose(g, G::inverse(g)), e), kTol);
    EXPECT_LT(this->dist(G::compose(G::inverse(g), g), e), kTol);
    EXPECT_LT(this->dist(G::inverse(G::compose(g, h)), G::compose(G::inverse(h), G::inverse(g))),
              kTol);
  }
}

// tau(-x) = tau(x)^{-1} (docs/theory.md §2).
TYPED_TEST(LieGroupProperties, TauOfMinusIsInverse) {
  using G = TypeParam;
  for (double s : kScales) {
    const auto x = this->algebra(s);
    EXPECT_LT(this->dist(G::tau(-x), G::inverse(G::tau(x))), kTol);
  }
}

TYPED_TEST(LieGroupProperties, AdIsAHomomorphism) {
  using G = TypeParam;
  EXPECT_EQ((G::Ad(G::identity()) - TypeParam::Matrix::Identity()).cwiseAbs().maxCoeff(), 0.0);
  for (int t = 0; t < kTrials; ++t) {
    const auto g = this->element(), h = this->element();
    EXPECT_LT(rel_err(G::Ad(G::compose(g, h)), (G::Ad(g) * G::Ad(h)).eval()), kTol);
    EXPECT_LT(rel_err(G::Ad(G::inverse(g)), G::Ad(g).inverse().eval()), kTol);
  }
}

// Cayley and exp are Ad-equivariant: tau(Ad_g x) = g tau(x) g^{-1}, which checks Ad without a log.
TYPED_TEST(LieGroupProperties, TauIsAdEquivariant) {
  using G = TypeParam;
  for (double s : kScales) {
    for (int t = 0; t < kTrials; ++t) {
      const auto g = this->element();
      const auto x = this->algebra(s);
      const auto lhs = G::tau((G::Ad(g) * x).eval());
      const auto rhs = G::compose(G::compose(g, G::tau(x)), G::inverse(g));
      EXPECT_LT(this->dist(lhs, rhs), 1e-11) << "scale " << s;
    }
  }
}

TYPED_TEST(LieGroupProperties, AdDualIsTranspose) {
  using G = TypeParam;
  for (int t = 0; t < kTrials; ++t) {
    const auto g = this->element(1.5);
    const auto mu = this->algebra(1.0);
    EXPECT_LT(rel_err(G::Ad_dual(g, mu), (G::Ad(g).transpose() * mu).eval()), kTol);
  }
}

// Right trivialisation (docs/theory.md §2): tau(x + e dtau^{-1}_x z) = tau(e z) tau(x) + O(e^2),
// so dtau^{-1}_x z = d/de tau^{-1}(tau(e z) tau(x)) at e = 0.
TYPED_TEST(LieGroupProperties, DtauInvMatchesFiniteDifferences) {
  using G = TypeParam;
  using A = typename G::Algebra;
  for (double s : kScales) {
    for (int t = 0; t < kTrials; ++t) {
      const auto x = this->algebra(s);
      const auto gx = G::tau(x);
      const auto fd =
          this->jacobian_at_zero([&](const A& z) { return G::tau_inv(G::compose(G::tau(z), gx)); });
      EXPECT_LT(rel_err(G::dtau_inv(x), fd), kFdTol) << "scale " << s;
    }
  }
}

TYPED_TEST(LieGroupProperties, DtauInvDualIsTranspose) {
  using G = TypeParam;
  for (double s : kScales) {
    const auto x = this->algebra(s), p = this->algebra(1.0);
    EXPECT_LT(rel_err(G::dtau_inv_dual(x, p), (G::dtau_inv(x).transpose() * p).eval()), kTol);
  }
}

// dtau^{-1}_x Ad_{tau(x)} = dtau^{-1}_{-x} (docs/theory.md §2): the library relies on it.
TYPED_TEST(LieGroupProperties, DtauInvAdIdentity) {
  using G = TypeParam;
  for (double s : kScales) {
    const auto x = this->algebra(s);
    const auto x_minus = (-x).eval();
    EXPECT_LT(rel_err((G::dtau_inv(x) * G::Ad(G::tau(x))).eval(), G::dtau_inv(x_minus)), 1e-11);
  }
}

TYPED_TEST(LieGroupProperties, NewtonMMatchesFiniteDifferences) {
  using G = TypeParam;
  using A = typename G::Algebra;
  for (double s : kScales) {
    for (int t = 0; t < kTrials; ++t) {
      const auto x = this->algebra(s), p = this->algebra(1.0);
      const auto fd =
          this->jacobian_at_zero([&](const A& dx) { return G::dtau_inv_dual(A(x + dx), p); });
      EXPECT_LT(rel_err(G::newton_M(x, p), fd), kFdTol) << "scale " << s;
    }
  }
}

// The SE(3) instances are the existing functions, bit for bit.
template <typename G, typename Tau, typename TauInv, typename DtauInv, typename Dual, typename M>
void expect_same_as_existing(Tau tau, TauInv tau_inv, DtauInv dtau_inv, Dual dual, M newton_M) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<> u(-1.0, 1.0);
  for (int t = 0; t < kTrials; ++t) {
    Vec6 x, p;
    for (int k = 0; k < 6; ++k) x(k) = u(rng), p(k) = u(rng);
    const SE3 g = tau(x);
    EXPECT_TRUE(G::tau(x).R == g.R && G::tau(x).r == g.r);
    EXPECT_TRUE(G::tau_inv(g) == tau_inv(g));
    EXPECT_TRUE(G::dtau_inv(x) == dtau_inv(x));
    EXPECT_TRUE(G::dtau_inv_dual(x, p) == dual(x, p));
    EXPECT_TRUE(G::newton_M(x, p) == newton_M(x, p));
    EXPECT_TRUE(G::Ad(g) == Ad(g));
    EXPECT_TRUE(G::Ad_dual(g, p) == Ad_dual(g, p));
    EXPECT_TRUE(G::compose(g, g).matrix() == (g * g).matrix());
    EXPECT_TRUE(G::inverse(g).matrix() == g.inverse().matrix());
  }
}

TEST(Se3Instances, SameBitsAsTheExistingFunctions) {
  expect_same_as_existing<Se3Cayley>(cay, cay_inv, dcay_inv, dcay_inv_dual, cay_newton_M);
  expect_same_as_existing<Se3Exp>(exp_map, log_map, dexp_inv, dexp_inv_dual, exp_newton_M);
}

// SE(2) is the subgroup of SE(3) of rotations about e3 and translations in the e1-e2 plane:
// (w, v1, v2) -> (0, 0, w, v1, v2, 0). Cayley restricts to it, so every SE(2) formula is the
// corresponding SE(3) one on the rows and columns {2, 3, 4}.
TEST(Se2Cayley, IsSe3CayleyRestrictedToThePlane) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<> u(-1.5, 1.5);
  const int idx[] = {2, 3, 4};
  const auto embed = [](const Vec3& x) {
    Vec6 y = Vec6::Zero();
    y(2) = x(0), y(3) = x(1), y(4) = x(2);
    return y;
  };
  const auto restrict3 = [&](const Mat6& m) {
    Mat3 out;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) out(i, j) = m(idx[i], idx[j]);
    return out;
  };
  for (int t = 0; t < kTrials; ++t) {
    const Vec3 x(u(rng), u(rng), u(rng)), p(u(rng), u(rng), u(rng));
    const SE2 g2 = Se2Cayley::tau(x);
    const SE3 g3 = cay(embed(x));
    EXPECT_LT(rel_err(g2.R, Mat2(g3.R.topLeftCorner<2, 2>())), kTol);
    EXPECT_LT(rel_err(g2.r, Vec2(g3.r.head<2>())), kTol);
    EXPECT_LT(rel_err(Se2Cayley::dtau_inv(x), restrict3(dcay_inv(embed(x)))), kTol);
    EXPECT_LT(rel_err(Se2Cayley::newton_M(x, p), restrict3(cay_newton_M(embed(x), embed(p)))),
              kTol);
    EXPECT_LT(rel_err(Se2Cayley::Ad(g2), restrict3(Ad(g3))), kTol);
  }
}

TEST(Se2Cayley, HatIsTheMatrixAlgebra) {
  // (I - x^/2)^{-1} (I + x^/2) in the matrix representation is the closed form of tau.
  const Vec3 x(0.7, -0.3, 1.1);
  const Mat3 X = hat_se2(x);
  const Mat3 direct = (Mat3::Identity() - 0.5 * X).inverse() * (Mat3::Identity() + 0.5 * X);
  EXPECT_LT(rel_err(Se2Cayley::tau(x).matrix(), direct), kTol);
}

}  // namespace
}  // namespace field::lie
