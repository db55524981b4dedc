// The beam density of theory §1: every derivative against central finite differences (theory §10
// row 0 tolerance 1e-8), the Lagrangian T - V - Pi, and the left-trivialised gravity force
// f(g) = -T_e L_g^* dPi under g -> g tau(e zeta) (theory §3.3), for both retractions.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>

#include "libfield/core/error.hpp"
#include "libfield/lie/retraction.hpp"
#include "libfield/model/beam_density.hpp"
#include "libfield/model/section_law.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/finite_difference.hpp"
#include "tests/support/groups.hpp"
#include "tests/support/random.hpp"

namespace field::model {
namespace {

using test::contains;
using test::error_message;

using lie::SE3;
using test::Random;
using test::rel_err;

constexpr double kFdTol = 1e-8;
constexpr int kTrials = 20;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The soft beam of theory §11; a non-square section so that no two diagonal entries agree.
const BeamMaterial kSoft{1e5, 0.35, 1000.0};
BeamSection soft_square() {
  return BeamSection::square(0.1);
}
BeamSection rectangle() {
  return BeamSection::explicit_values(0.02, 1.7e-5, 6.7e-5, 4.5e-5, 5.0 / 6.0);
}

// Gradient of a scalar function of R^6 by central differences with Richardson.
Vec6 gradient(const std::function<double(const Vec6&)>& f, const Vec6& x) {
  Vec6 g;
  for (int k = 0; k < 6; ++k) {
    g(k) = test::derivative(
        [&](double e) { return Eigen::Matrix<double, 1, 1>(f(Vec6(x + e * Vec6::Unit(k)))); })(0);
  }
  return g;
}

TEST(BeamDensity, StoresTheModel) {
  const Vec3 gravity(0.0, 0.0, -9.81);
  const BeamDensity d(rectangle(), kSoft, gravity);
  EXPECT_EQ(d.inertia(), inertia_diagonal(rectangle(), kSoft));
  EXPECT_EQ(d.stiffness(), stiffness_diagonal(rectangle(), kSoft));
  EXPECT_EQ(d.gravity(), gravity);
  EXPECT_EQ(d.reference_strain(), BeamDensity::E6());
  EXPECT_EQ(BeamDensity::E6(), (Vec6() << 0, 0, 0, 0, 0, 1).finished());
  EXPECT_EQ(d.law().mass_per_length, kSoft.rho * rectangle().area);
  EXPECT_TRUE(d.diagonal());
  // Default: no gravity.
  EXPECT_EQ(BeamDensity(rectangle(), kSoft).gravity(), Vec3::Zero());
}

// The capabilities of model::Density (docs/lie-groups.md, "Adding a theory"): a diagonal law
// offers diagonal_law() with J, C and E6; a coupled one offers none; the wave speeds are the
// section's (theory (1.11)-(1.13)) or the law's (1.13a); has_potential() follows gravity.
TEST(BeamDensity, CapabilitiesThroughTheInterface) {
  const Vec6 strain = BeamDensity::E6() + 0.01 * Vec6::Ones();
  const BeamDensity d(rectangle(), kSoft, Vec3(0.0, 0.0, -9.81), strain);
  const Density<lie::Se3Group>& base = d;
  const DiagonalQuadraticLaw<lie::Se3Group>* law = base.diagonal_law();
  ASSERT_NE(law, nullptr);
  EXPECT_EQ(law->inertia, inertia_diagonal(rectangle(), kSoft));
  EXPECT_EQ(law->stiffness, stiffness_diagonal(rectangle(), kSoft));
  EXPECT_EQ(law->reference_strain, strain);
  const WaveSpeeds section = wave_speeds(rectangle(), kSoft);
  EXPECT_EQ(base.wave_speeds().c_E, section.c_E);
  EXPECT_EQ(base.wave_speeds().c_G, section.c_G);
  EXPECT_EQ(base.wave_speeds().omega_c, section.omega_c);
  EXPECT_TRUE(base.has_potential());
  EXPECT_FALSE(BeamDensity(rectangle(), kSoft).has_potential());

  SectionLaw coupled = SectionLaw::geometric(rectangle(), kSoft);
  coupled.C(0, 5) = coupled.C(5, 0) = 0.1 * std::sqrt(coupled.C(0, 0) * coupled.C(5, 5));
  const BeamDensity c(coupled);
  EXPECT_EQ(static_cast<const Density<lie::Se3Group>&>(c).diagonal_law(), nullptr);
  EXPECT_EQ(c.wave_speeds().c_E, wave_speeds(coupled).c_E);
  EXPECT_EQ(c.wave_speeds().c_G, wave_speeds(coupled).c_G);
}

TEST(BeamDensity, EnergiesAreTheQuadraticForms) {
  const BeamDensity d(rectangle(), kSoft);
  Random rnd(1);
  for (int trial = 0; trial < kTrials; ++trial) {
    const Vec6 xi = rnd.vec6(3.0);
    const Vec6 eta = BeamDensity::E6() + rnd.vec6(0.5);
    const Vec6 e = eta - BeamDensity::E6();
    const Vec6 J = d.inertia(), C = d.stiffness();
    double T = 0.0, V = 0.0;
    for (int k = 0; k < 6; ++k) {
      T += 0.5 * J(k) * xi(k) * xi(k);
      V += 0.5 * C(k) * e(k) * e(k);
    }
    EXPECT_NEAR(d.kinetic_energy(xi), T, 1e-14 * T);
    EXPECT_NEAR(d.strain_energy(eta), V, 1e-14 * V);
  }
  // The unstressed straight beam has no strain energy and no stress; rest has no kinetic energy.
  EXPECT_EQ(d.strain_energy(BeamDensity::E6()), 0.0);
  EXPECT_EQ(d.stress(BeamDensity::E6()), Vec6::Zero());
  EXPECT_EQ(d.kinetic_energy(Vec6::Zero()), 0.0);
  EXPECT_EQ(d.kinetic_momentum(Vec6::Zero()), Vec6::Zero());
}

TEST(BeamDensity, KineticMomentumIsGradientOfKineticEnergy) {
  const BeamDensity d(rectangle(), kSoft);
  Random rnd(2);
  for (int trial = 0; trial < kTrials; ++trial) {
    const Vec6 xi = rnd.vec6(3.0);
    const Vec6 fd = gradient([&](const Vec6& x) { return d.kinetic_energy(x); }, xi);
    EXPECT_LT(rel_err(d.kinetic_momentum(xi), fd), kFdTol) << xi.transpose();
    const Mat6 H = test::jacobian6([&](const Vec6& x) { return d.kinetic_momentum(x); }, xi);
    EXPECT_LT(rel_err(d.kinetic_hessian(xi), H), kFdTol) << xi.transpose();
  }
}

TEST(BeamDensity, StressIsGradientOfStrainEnergy) {
  for (const BeamSection& section : {soft_square(), rectangle()}) {
    const BeamDensity d(section, kSoft);
    Random rnd(3);
    for (int trial = 0; trial < kTrials; ++trial) {
      // Far from E6: large curvature, shear and stretch.
      const Vec6 eta = BeamDensity::E6() + rnd.vec6(2.0);
      const Vec6 fd = gradient([&](const Vec6& x) { return d.strain_energy(x); }, eta);
      EXPECT_LT(rel_err(d.stress(eta), fd), kFdTol) << eta.transpose();
      const Mat6 H = test::jacobian6([&](const Vec6& x) { return d.stress(x); }, eta);
      EXPECT_LT(rel_err(d.stress_hessian(eta), H), kFdTol) << eta.transpose();
    }
  }
}

TEST(BeamDensity, ReferenceStrainIsTheUnstressedState) {
  Random rnd(4);
  const Vec6 eta0 = (Vec6() << 2, 0, 0, 0, 0, 1).finished();  // the arc of theory §11.2
  const BeamDensity d(rectangle(), kSoft, Vec3::Zero(), eta0);
  EXPECT_EQ(d.reference_strain(), eta0);
  EXPECT_EQ(d.strain_energy(eta0), 0.0);
  EXPECT_EQ(d.stress(eta0), Vec6::Zero());
  const Vec6 eta = rnd.vec6(2.0);
  EXPECT_LT(rel_err(d.stress(eta), Vec6(d.stiffness().cwiseProduct(eta - eta0))), 1e-15);
  const Vec6 fd = gradient([&](const Vec6& x) { return d.strain_energy(x); }, eta);
  EXPECT_LT(rel_err(d.stress(eta), fd), kFdTol);
}

TEST(BeamDensity, LagrangianIsKineticMinusStrainMinusPotential) {
  const BeamDensity d(rectangle(), kSoft, Vec3(0.3, -1.0, -9.81));
  const Density<lie::Se3Group>& base = d;  // through the interface the marches use
  Random rnd(5);
  for (int trial = 0; trial < kTrials; ++trial) {
    const SE3 g = rnd.se3(3.0);
    const Vec6 xi = rnd.vec6(3.0);
    const Vec6 eta = BeamDensity::E6() + rnd.vec6(0.5);
    const double l = d.kinetic_energy(xi) - d.strain_energy(eta) - d.potential(g);
    EXPECT_EQ(base.lagrangian(g, xi, eta), l);
    EXPECT_NE(d.potential(g), 0.0);
  }
}

TEST(BeamDensity, GravityPotentialOfSpec) {
  // theory §1: Pi(Lambda, r) = rho A_c gamma r_3 for gravity (0, 0, -gamma).
  const double gamma = 9.81;
  const BeamDensity d(soft_square(), kSoft, Vec3(0.0, 0.0, -gamma));
  Random rnd(6);
  for (int trial = 0; trial < kTrials; ++trial) {
    const SE3 g = rnd.se3(3.0);
    const double Pi = 1000.0 * 0.01 * gamma * g.r(2);
    EXPECT_NEAR(d.potential(g), Pi, 1e-14 * std::abs(Pi) + 1e-300);
    // f(g) = (0, -rho A_c gamma Lambda^T e3).
    Vec6 f;
    f << Vec3::Zero(), -1000.0 * 0.01 * gamma * (g.R.transpose() * Vec3::UnitZ());
    EXPECT_LT(rel_err(d.potential_force(g), f), 1e-14);
  }
}

template <class G>
class PotentialForce : public ::testing::Test {
 protected:
};
TYPED_TEST_SUITE(PotentialForce, test::Se3Groups, test::GroupNames);

// <f(g), zeta> = -d/de Pi(g tau(e zeta)) at e = 0, for every zeta: component k with zeta = e_k.
TYPED_TEST(PotentialForce, IsMinusLeftTrivialisedDerivativeOfPotential) {
  const Vec3 gravities[] = {Vec3(0.0, 0.0, -9.81), Vec3(1.2, -3.4, -9.0), Vec3(0.0, 5.0, 0.0)};
  for (const BeamSection& section : {soft_square(), rectangle()}) {
    for (const Vec3& gravity : gravities) {
      const BeamDensity d(section, kSoft, gravity);
      Random rnd(7);
      for (int trial = 0; trial < kTrials; ++trial) {
        const SE3 g = rnd.se3(3.0);
        Vec6 fd;
        for (int k = 0; k < 6; ++k) {
          fd(k) = -test::derivative([&](double e) {
            return Eigen::Matrix<double, 1, 1>(d.potential(g * TypeParam::tau(e * Vec6::Unit(k))));
          })(0);
        }
        EXPECT_LT(rel_err(d.potential_force(g), fd), kFdTol)
            << lie::retraction_name<TypeParam>() << " gravity " << gravity.transpose()
            << "\n f  = " << d.potential_force(g).transpose() << "\n fd = " << fd.transpose();
        // A random direction as well (the pairing, not only the components).
        const Vec6 zeta = rnd.vec6(2.0);
        const double fd_zeta = -test::derivative([&](double e) {
          return Eigen::Matrix<double, 1, 1>(d.potential(g * TypeParam::tau(e * zeta)));
        })(0);
        EXPECT_NEAR(d.potential_force(g).dot(zeta), fd_zeta,
                    kFdTol * std::max(1.0, std::abs(fd_zeta)));
      }
    }
  }
}

// The weight is the same force in space wherever the beam is: Lambda f_lin = rho A_c gvec, no
// moment about the centre-line point.
TYPED_TEST(PotentialForce, SpatialForceIsTheWeight) {
  const Vec3 gravity(1.2, -3.4, -9.0);
  const BeamDensity d(rectangle(), kSoft, gravity);
  Random rnd(8);
  for (int trial = 0; trial < kTrials; ++trial) {
    const SE3 g = rnd.se3(3.0);
    const Vec6 f = d.potential_force(g);
    EXPECT_EQ(f.head<3>(), Vec3::Zero());
    EXPECT_LT(rel_err(Vec3(g.R * f.tail<3>()), Vec3(1000.0 * 0.02 * gravity)), 1e-14);
  }
}

TYPED_TEST(PotentialForce, VanishesWithoutGravity) {
  const BeamDensity d(rectangle(), kSoft);
  Random rnd(9);
  for (int trial = 0; trial < kTrials; ++trial) {
    const SE3 g = rnd.se3(3.0);
    EXPECT_EQ(d.potential(g), 0.0);
    EXPECT_EQ(d.potential_force(g), Vec6::Zero());
    // Invariance under g -> g tau(zeta) (SE(3) symmetry of theory §7 without potential).
    EXPECT_EQ(d.potential(g * TypeParam::tau(rnd.vec6())), 0.0);
  }
}

TEST(BeamDensity, RejectsInvalidSection) {
  // Sections built directly (explicit_values would already throw).
  const BeamSection bad_area{-0.01, 1e-6, 1e-6, 2e-6, 1.0};
  std::string msg = error_message([&] { BeamDensity(bad_area, kSoft); });
  EXPECT_TRUE(contains(msg, "area")) << msg;
  EXPECT_TRUE(contains(msg, "-0.01")) << msg;
  const BeamSection bad_I2{0.01, 1e-6, kNaN, 2e-6, 1.0};
  msg = error_message([&] { BeamDensity(bad_I2, kSoft); });
  EXPECT_TRUE(contains(msg, "I2")) << msg;
  EXPECT_TRUE(contains(msg, "nan")) << msg;
  const BeamSection bad_k{0.01, 1e-6, 1e-6, 2e-6, 0.0};
  msg = error_message([&] { BeamDensity(bad_k, kSoft); });
  EXPECT_TRUE(contains(msg, "shear factor")) << msg;
}

TEST(BeamDensity, RejectsInvalidMaterial) {
  std::string msg = error_message([] { BeamDensity(soft_square(), BeamMaterial{0.0, 0.3, 1000}); });
  EXPECT_TRUE(contains(msg, "Young's modulus")) << msg;
  msg = error_message([] { BeamDensity(soft_square(), BeamMaterial{1e5, 0.5, 1000}); });
  EXPECT_TRUE(contains(msg, "Poisson ratio")) << msg;
  EXPECT_TRUE(contains(msg, "0.5")) << msg;
  msg = error_message([] { BeamDensity(soft_square(), BeamMaterial{1e5, 0.3, -1.0}); });
  EXPECT_TRUE(contains(msg, "density")) << msg;
  EXPECT_TRUE(contains(msg, "-1")) << msg;
  // Default-constructed material: everything zero.
  msg = error_message([] { BeamDensity(soft_square(), BeamMaterial{}); });
  EXPECT_TRUE(contains(msg, "Young's modulus")) << msg;
}

TEST(BeamDensity, RejectsNonFiniteGravityAndReferenceStrain) {
  std::string msg =
      error_message([] { BeamDensity(soft_square(), kSoft, Vec3(0.0, kNaN, -9.81)); });
  EXPECT_TRUE(contains(msg, "gravity")) << msg;
  Vec6 eta0 = BeamDensity::E6();
  eta0(2) = std::numeric_limits<double>::infinity();
  msg = error_message([&] { BeamDensity(soft_square(), kSoft, Vec3::Zero(), eta0); });
  EXPECT_TRUE(contains(msg, "reference strain")) << msg;
}

}  // namespace
}  // namespace field::model
