// The extensible cable on R^3 (docs/theory.md §1.8): model::CableDensity's derivatives against
// finite differences on the taut, compressed and slack branches, its tension, reference strain,
// wave speeds, the space march's branch and argument checks.
#include <gtest/gtest.h>

#include <cmath>

#include "libfield/core/error.hpp"
#include "libfield/model/cable_density.hpp"
#include "tests/support/finite_difference.hpp"
#include "tests/support/random.hpp"

namespace field::model {
namespace {

const CableSection kSection{3.0e3, 1.7};

double rel(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), 1e-300);
}

CableDensity::Options with_gravity(bool slack) {
  CableDensity::Options o;
  o.gravity = Vec3(0.3, -1.2, -9.81);
  o.slack = slack;
  return o;
}

// n = dV/deta, dn/deta and f = -dPi/dr against central differences, on random strains with
// stretch from 0.3 (compressed or slack) to 1.8.
TEST(CableDensity, DerivativesMatchFiniteDifferences) {
  test::Random rnd(1408);
  const double h = 1e-6;
  for (const bool slack : {false, true}) {
    const CableDensity d(kSection, with_gravity(slack));
    for (int trial = 0; trial < 40; ++trial) {
      const Vec3 xi = rnd.vec3(3.0);
      const Vec3 r = rnd.vec3(5.0);
      const double nu = rnd.uniform(0.3, 1.8);
      if (std::abs(nu - 1.0) < 1e-3) continue;  // the slack law's kink in W''
      const Vec3 eta = nu * rnd.unit3();
      const auto [dT, dV, f, dp, dn] = test::density_differences(d, xi, eta, r, h);
      EXPECT_LT(rel(d.kinetic_momentum(xi), dT), 1e-8);
      EXPECT_LT(rel(d.potential_force(r), f), 1e-8);
      EXPECT_LT((d.kinetic_hessian(xi) - dp).cwiseAbs().maxCoeff(), 1e-7 * kSection.rhoA);
      if (slack && nu < 1.0) {
        EXPECT_EQ(d.strain_energy(eta), 0.0);
        EXPECT_EQ(d.stress(eta), Vec3::Zero());
        EXPECT_EQ(d.stress_hessian(eta), Mat3::Zero());
        continue;
      }
      EXPECT_LT(rel(d.stress(eta), dV), 1e-7) << "nu = " << nu;
      EXPECT_LT((d.stress_hessian(eta) - dn).cwiseAbs().maxCoeff(), 1e-6 * kSection.EA)
          << "nu = " << nu;
      // n = N t with N = EA (nu - 1) (1.8.4), and W = 1/2 EA (nu - 1)^2 (1.8.2).
      EXPECT_NEAR(d.stress(eta).dot(eta / nu), kSection.EA * (nu - 1.0), 1e-12 * kSection.EA);
      EXPECT_NEAR(d.strain_energy(eta), 0.5 * kSection.EA * (nu - 1) * (nu - 1),
                  1e-12 * kSection.EA);
    }
  }
}

// Every unit strain is stress-free, whatever its direction; reference_strain() is the given d0.
TEST(CableDensity, EveryUnitStrainIsStressFree) {
  CableDensity::Options o;
  o.free_end_direction = Vec3(0.6, 0.0, -0.8);
  const CableDensity d(kSection, o);
  EXPECT_EQ(d.reference_strain(), o.free_end_direction);
  test::Random rnd(1409);
  for (int trial = 0; trial < 10; ++trial) {
    const Vec3 t = rnd.unit3();
    EXPECT_LT(d.stress(t).norm(), 1e-12 * kSection.EA);
    EXPECT_LT(d.strain_energy(t), 1e-25 * kSection.EA);
  }
  EXPECT_EQ(d.stress(Vec3::Zero()), Vec3::Zero());  // a degenerate segment has no direction
  EXPECT_FALSE(d.has_potential());
  EXPECT_TRUE(CableDensity(kSection, with_gravity(false)).has_potential());
  EXPECT_EQ(d.diagonal_law(), nullptr);  // not a quadratic law: the reference node Newton
}

TEST(CableDensity, WaveSpeeds) {
  CableDensity::Options o;
  const double N = 150.0;
  o.reference_tension = N;
  const WaveSpeeds w = CableDensity(kSection, o).wave_speeds();
  EXPECT_DOUBLE_EQ(w.c_E, std::sqrt(kSection.EA / kSection.rhoA));
  // (1.8.6): c_T^2 = (N / nu) / rho A, the transverse eigenvalue of (1.8.5) over rho A.
  EXPECT_DOUBLE_EQ(w.c_G, std::sqrt(N / (kSection.rhoA * (1.0 + N / kSection.EA))));
  EXPECT_EQ(w.omega_c, 0.0);
  EXPECT_EQ(CableDensity(kSection).wave_speeds().c_G, 0.0);
}

// The space march's branch (theory §1.8, §6.2): a strain is on it when it is taut (|eta| > 1)
// and turns by less than a right angle from the strain before; both laws.
TEST(CableDensity, SpaceStrainBranchIsTheTautOne) {
  for (const bool slack : {false, true}) {
    const CableDensity cable(kSection, with_gravity(slack));
    EXPECT_TRUE(cable.restricts_space_strain());
    const Vec3 taut(0.0, 0.0, 1.1);
    EXPECT_EQ(cable.space_strain_problem(taut, taut), "");
    EXPECT_EQ(cable.space_strain_problem(Vec3(1.1, 0.0, 0.01), taut), "");  // 89.5 degrees
    EXPECT_EQ(cable.space_strain_problem(Vec3(0.0, 0.0, 1.0), Vec3(0.0, 0.0, 1.0)),
              "the stretch |eta| = 1 is not above 1: the cable is compressed or slack here, where "
              "n(eta) = m has a second root or none unique (theory §1.8) and the space march "
              "cannot tell which is the cable's");
    EXPECT_EQ(cable.space_strain_problem(Vec3(0.0, 0.6, 0.8 - 1e-3), taut)
                  .rfind("the stretch |eta| = 0.9992", 0),
              0u);
    EXPECT_NE(cable.space_strain_problem(Vec3(NAN, 0.0, 2.0), taut), "");
    EXPECT_EQ(cable.space_strain_problem(-taut, taut),
              "the strain turns by 180 degrees from the column before (stretch |eta| = 1.1): the "
              "taut root of n(eta) = m folds the cable back on itself (the tension went through "
              "zero, or the data are not a taut cable's)");
    EXPECT_NE(cable.space_strain_problem(Vec3(1.1, 0.0, 0.0), taut).find("turns by 90 degrees"),
              std::string::npos);
  }
}

TEST(CableDensity, RejectsBadArguments) {
  EXPECT_THROW(CableDensity(CableSection{0.0, 1.0}), Error);
  EXPECT_THROW(CableDensity(CableSection{1.0, -1.0}), Error);
  CableDensity::Options o;
  o.free_end_direction = Vec3(1.0, 1.0, 0.0);
  EXPECT_THROW(CableDensity(kSection, o), Error);
  o = {};
  o.reference_tension = -1.0;
  EXPECT_THROW(CableDensity(kSection, o), Error);
  o = {};
  o.gravity = Vec3(0.0, 0.0, std::nan(""));
  EXPECT_THROW(CableDensity(kSection, o), Error);
}

}  // namespace
}  // namespace field::model
